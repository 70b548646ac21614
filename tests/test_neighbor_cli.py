"""``trash neighbor simulate`` and ``trash neighbor replay`` (the click group, run in this
process), and Help Your Neighbor events told as sentences."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from trash_tui.cli.neighbor_cmd import neighbor_group
from trash_tui.engine.record import RecordError, checksum
from trash_tui.neighbor.engine import ROLL, FixedDice, NeighborGame, uncover_action
from trash_tui.neighbor.narrate import describe_neighbor_event


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
    assert "rolled highest and starts." in log.output and "and wins!" in log.output
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
    lines = [describe_neighbor_event(e, names) for e in game.events]
    assert lines == [
        "You roll 6 and 6 (12) for the first turn.",
        "Ann rolls 1 and 1 (2) for the first turn.",
        "Bob rolls 1 and 2 (3) for the first turn.",
        "You rolled highest and start.",
        "You hold the dice.",
        "You roll 2 and 2: 4.",
        "You cover 4.",
        "You roll 2 and 2: 4.",
        "You have 4 covered already: it goes to Ann, who rolls next.",
        "Ann covers 4.",
        "Ann holds the dice.",
        "Ann rolls 3 and 4: 7.",
        "Ann rolled a 7.",
        "Ann uncovers 4.",
        "Bob holds the dice.",
    ]
    assert describe_neighbor_event(("win", 0), names) == "You cover all ten markers and win!"
    assert describe_neighbor_event(("abandoned", 200000), names) == (
        "The game is abandoned after 200,000 rolls, without a winner.")
    assert describe_neighbor_event(("unknown",), names) is None
