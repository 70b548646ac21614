"""`trash tournament run --records`: every tournament game can be replayed exactly."""

import json
from pathlib import Path

from trash_tui.engine.record import check_records, load_records
from trash_tui.players.rater import open_history
from trash_tui.tournament.config import load_tournament
from trash_tui.tournament.runner import run_tournament

TOURNAMENT = """
seed = 11
players = 2
matches = 4
duplicate = true
[rules]
preset = "kids"
[[bots]]
name = "hard"
bot = "hard"
[[bots]]
name = "random"
bot = "random"
"""


def test_records_of_tournament_games_replay_and_name_their_game(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(TOURNAMENT, encoding="utf-8")
    config = load_tournament(path)
    with open_history(tmp_path / "h.sqlite3") as history:
        outcome = run_tournament(config, tmp_path / "out", workers=2, history=history,
                                 records=True)
    records = load_records(tmp_path / "out" / "records.jsonl")
    assert len(records) == len(outcome.games) == 8
    matches = check_records(records)
    games = {json.loads(line)["index"]: json.loads(line)
             for line in (tmp_path / "out" / "games.jsonl").read_text().splitlines()}
    assert all("record" not in game for game in games.values())
    for document, match in zip(records, matches, strict=True):
        game = games[document["context"]["game"]]
        assert document["seats"] == [config.bots[b].name for b in game["seats"]]
        assert match.result.places == game["places"]


def test_without_records_no_record_file_is_written(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(TOURNAMENT, encoding="utf-8")
    with open_history(tmp_path / "h.sqlite3") as history:
        run_tournament(load_tournament(path), tmp_path / "out", history=history)
    assert not (tmp_path / "out" / "records.jsonl").exists()
