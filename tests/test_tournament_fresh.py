"""Running a tournament again: where the kept games come from is said, and ``--fresh``
starts a new run (the earlier one kept: its folder moved aside, its games in the history
database). A bot author who fixed a bug and deleted ``--out`` is told that the results
come from the history database, and how to get new ones."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from test_tournament_run import assert_one_line_error, run_ok, trash, write

from trash_tui.players.rater import open_history

TINY = """\
name = "tiny"
seed = 11
matches = 1

[[bots]]
bot = "greedy"

[[bots]]
bot = "random"
"""


def _setup(tmp_path: Path) -> tuple[Path, Path, Path]:
    path = write(tmp_path, TINY)
    return path, tmp_path / "out", tmp_path / "history.sqlite3"


def test_a_rerun_after_deleting_out_says_the_games_come_from_the_history_database(
        tmp_path: Path) -> None:
    path, out, history = _setup(tmp_path)
    run_ok("tournament", "run", path, "--out", out, cwd=tmp_path, history=history)
    shutil.rmtree(out)
    again = run_ok("tournament", "run", path, "--out", out, cwd=tmp_path, history=history)
    assert (f"tiny: 1 of 1 game already played, from the history database at {history}; "
            f"--fresh starts a new run; output folder {out}") in again.stderr
    assert "0 games played now" in again.stdout


def test_a_rerun_says_the_games_come_from_the_folder(tmp_path: Path) -> None:
    path, out, history = _setup(tmp_path)
    run_ok("tournament", "run", path, "--out", out, cwd=tmp_path, history=history)
    again = run_ok("tournament", "run", path, "--out", out, cwd=tmp_path, history=history)
    assert (f"1 of 1 game already played, from {out / 'games.jsonl'}; --fresh starts a new "
            "run") in again.stderr


def test_fresh_starts_a_new_run_and_keeps_the_old_one(tmp_path: Path) -> None:
    path, out, history = _setup(tmp_path)
    run_ok("tournament", "run", path, "--out", out, cwd=tmp_path, history=history)
    old_games = (out / "games.jsonl").read_text(encoding="utf-8")
    fresh = run_ok("tournament", "run", path, "--out", out, "--fresh", cwd=tmp_path,
                   history=history)
    moved = tmp_path / "out.old-1"
    assert (f"tiny: a new run of 1 game (--fresh) (the earlier run's folder is now {moved}); "
            f"output folder {out}") in fresh.stderr
    assert "1 games played now" in fresh.stdout
    assert (moved / "games.jsonl").read_text(encoding="utf-8") == old_games
    marker = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert marker["fresh"].isalnum()
    with open_history(history) as db:
        runs = db.tournaments.runs()
        assert len(runs) == 2
        assert all(run.games == 1 and run.status == "finished" for run in runs)
        assert runs[0].fingerprint == runs[1].fingerprint + "+fresh-" + marker["fresh"]


def test_after_fresh_a_rerun_continues_the_new_run_even_without_its_folder(
        tmp_path: Path) -> None:
    path, out, history = _setup(tmp_path)
    run_ok("tournament", "run", path, "--out", out, cwd=tmp_path, history=history)
    run_ok("tournament", "run", path, "--out", out, "--fresh", cwd=tmp_path, history=history)
    salt = json.loads((out / "run.json").read_text(encoding="utf-8"))["fresh"]
    shutil.rmtree(out)
    again = run_ok("tournament", "run", path, "--out", out, cwd=tmp_path, history=history)
    assert "from the history database" in again.stderr
    assert json.loads((out / "run.json").read_text(encoding="utf-8"))["fresh"] == salt
    with open_history(history) as db:
        assert len(db.tournaments.runs()) == 2


def test_fresh_into_an_empty_folder_moves_nothing(tmp_path: Path) -> None:
    path, out, history = _setup(tmp_path)
    fresh = run_ok("tournament", "run", path, "--out", out, "--fresh", cwd=tmp_path,
                   history=history)
    assert "tiny: a new run of 1 game (--fresh); output folder" in fresh.stderr
    assert not (tmp_path / "out.old-1").exists()


def test_resume_and_fresh_together_are_one_line_error(tmp_path: Path) -> None:
    path, out, history = _setup(tmp_path)
    result = trash("tournament", "run", path, "--out", out, "--fresh", "--resume",
                   cwd=tmp_path, history=history)
    assert_one_line_error(result, "--resume and --fresh: choose one")
