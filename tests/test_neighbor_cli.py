"""``trash neighbor simulate`` and ``trash neighbor replay`` (the click group, run in this
process), and Help Your Neighbor events told as sentences."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from trash_tui.cli.neighbor_cmd import neighbor_group
from trash_tui.engine.record import RecordError, checksum
from trash_tui.neighbor.engine import ROLL, FixedDice, NeighborGame, uncover_action
from trash_tui.neighbor.narrate import narrate


def test_simulate_writes_records_that_replay_checks(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    runner = CliRunner()
    result = runner.invoke(neighbor_group, ["simulate", "--players", "3", "--bot", "smart",
                                            "--bot", "random", "--games", "20", "--seed",
                                            "words", "--record", str(records)])
    assert result.exit_code == 0, result.output
    assert "3 players, bots smart, random, random, seed words" in result.output
    assert "games/s" in result.output and "seat 2  random" in result.output
    assert len(records.read_text().splitlines()) == 20
    checked = runner.invoke(neighbor_group, ["replay", "--check", str(records)])
    assert checked.exit_code == 0 and "ok (20 records replay identically)" in checked.output


def test_replay_prints_the_log_and_refuses_a_changed_record(tmp_path: Path) -> None:
    runner = CliRunner()
    records = tmp_path / "one.jsonl"
    runner.invoke(neighbor_group, ["simulate", "--games", "1", "--record", str(records)])
    log = runner.invoke(neighbor_group, ["replay", str(records)])
    assert log.exit_code == 0
    assert "rolled highest and go" in log.output and "and win" in log.output
    document = json.loads(records.read_text())
    document["winner"] = (document["winner"] + 1) % document["players"]
    document["checksum"] = checksum(document)
    records.write_text(json.dumps(document) + "\n")
    checked = runner.invoke(neighbor_group, ["replay", "--check", str(records)])
    assert checked.exit_code == 1 and "differs: record: recorded winner" in checked.output
    printed = runner.invoke(neighbor_group, ["replay", str(records)])
    assert isinstance(printed.exception, RecordError)


def test_events_read_as_sentences_in_the_third_and_second_person() -> None:
    game = NeighborGame(3, dice=FixedDice([(6, 6), (1, 1), (1, 2), (2, 2), (2, 2), (3, 4)]))
    for action in (ROLL, ROLL, ROLL):
        game.apply(action)
    game.apply(uncover_action(4))
    names = ["You", "Ann", "Bob"]
    assert narrate(game.events, names) == [
        "Rolls for the first turn: You 12 (6+6), Ann 2 (1+1), Bob 3 (1+2).",
        "You rolled highest and go first.",
        "You roll 2 and 2: 4.",
        "You cover 4 and roll again.",
        "You roll 2 and 2: 4.",
        "4 passes to Ann, who covers it and takes the dice.",
        "Ann rolls 3 and 4: 7!",
        "Ann must uncover a marker.",
        "Ann uncovers 4; Bob takes the dice.",
    ]
    assert narrate([("win", 0)], names) == ["You cover all ten markers and win!"]
    assert narrate([("abandoned", 200000)], names) == [
        "The game stops after 200000 rolls without a winner."]
    assert narrate([("unknown",)], names) == []
