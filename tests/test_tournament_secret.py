"""No seed a bot can use: the deals of a tournament with sandboxed bots come from its seed
and a secret drawn when the run starts, kept in the run's folder (``run.json``) and the
history database, never in a sandbox's view. A hostile bot that tries every small seed
against its ``hello`` seed and rebuilds the match with the engine finds nothing and
predicts the cards it draws no better than chance; a resumed run and its records stay
exact."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bots.sandbox import problem
from trash_tui.players.rater import open_history
from trash_tui.tournament.config import config_fingerprint, load_tournament
from trash_tui.tournament.runner import RunError, run_tournament

HOSTILE = Path(__file__).with_name("hostile_bots")
PROBLEM = problem()
needs_sandbox = pytest.mark.skipif(
    PROBLEM is not None and ("kernel refuses" in PROBLEM or "needs Linux" in PROBLEM),
    reason=f"the sandbox cannot run here: {PROBLEM}")


def _brute_tournament(tmp_path: Path) -> Path:
    """The seed hunter (sandboxed, isolated) against greedy, with the shipped weak seed."""
    tmp_path.chmod(0o755)  # a root runner's sandboxed bot runs as another user
    entries = tmp_path / "entries"
    shutil.copytree(HOSTILE, entries)
    entries.chmod(0o755)
    path = tmp_path / "t.toml"
    path.write_text('seed = 2026\nmatches = 1\n'
                    '[[bots]]\nname = "brute"\nbot = "entries/seed_brute.py:SeedBrute"\n'
                    'isolate = true\nsandbox = true\ncwd = "entries"\n'
                    '[[bots]]\nbot = "greedy"\n', encoding="utf-8")
    return path


@needs_sandbox
def test_a_bot_cannot_find_a_weak_seed_from_its_hello_seed(tmp_path: Path) -> None:
    config = load_tournament(_brute_tournament(tmp_path))
    outcome = run_tournament(config, tmp_path / "out")
    assert outcome.status == "finished"
    assert outcome.games[0]["forfeit"] is None
    log = (tmp_path / "out" / "logs" / "brute.log").read_text(encoding="utf-8")
    assert "LEARNED" not in log, log
    assert "REFUSED no tournament seed below 131072 gives hello seed" in log
    hits, tries = map(int, re.search(r"PREDICTED (\d+) of (\d+) cards", log).groups())
    assert tries >= 8  # a match is short: its cards in hand
    assert hits <= tries // 4, log  # chance: a card of two decks, not full sight


def _greedy_tournament(tmp_path: Path, sandbox: bool = True) -> Path:
    tmp_path.chmod(0o755)
    path = tmp_path / "t.toml"
    path.write_text(f'seed = 2026\ndeals = 6\nplayers = 3\n'
                    f'[[bots]]\nname = "iso"\nbot = "greedy"\nisolate = true\n'
                    f'sandbox = {"true" if sandbox else "false"}\n'
                    '[[bots]]\nbot = "greedy"\n[[bots]]\nbot = "easy"\n', encoding="utf-8")
    return path


def _decks(out: Path) -> list[str]:
    return [json.loads(line)["deals"][0]["deck"] if "deals" in json.loads(line)
            else json.loads(line)["deck"]
            for line in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()]


@needs_sandbox
def test_each_run_draws_its_secret_and_a_resumed_run_keeps_it(tmp_path: Path) -> None:
    config = load_tournament(_greedy_tournament(tmp_path))
    with open_history(tmp_path / "history.db") as history:
        first = run_tournament(config, tmp_path / "a", history=history, records=True)
        run_tournament(config, tmp_path / "b", history=history, records=True)
    secret = json.loads((tmp_path / "a" / "run.json").read_text())["secret"]
    assert len(secret) == 32 and secret != json.loads(
        (tmp_path / "b" / "run.json").read_text())["secret"]
    assert _decks(tmp_path / "a") != _decks(tmp_path / "b")  # same file, other deals
    # the folder gone, the database continues the run exactly, secret and all
    shutil.rmtree(tmp_path / "a")
    with open_history(tmp_path / "history.db") as history:
        again = run_tournament(config, tmp_path / "a", history=history, records=True)
    assert again.played_now == 0
    assert json.loads((tmp_path / "a" / "run.json").read_text())["secret"] == secret
    assert [g["places"] for g in again.games] == [g["places"] for g in first.games]
    # its records (played again for them only) are the same deals, and replay exactly
    done = subprocess.run([sys.executable, "-m", "trash_tui.cli.main", "replay", "--check",
                           str(tmp_path / "a" / "records.jsonl")], capture_output=True,
                          text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    # a run stopped half-way and continued from its folder plays the same games
    half = tmp_path / "half"
    with open_history(tmp_path / "history.db") as history:
        run_tournament(config, half, history=history, records=True, fresh=True)
    lines = (half / "games.jsonl").read_text().splitlines()
    whole = sorted((json.loads(line) for line in lines), key=lambda g: g["index"])
    (half / "games.jsonl").write_text("\n".join(lines[:2]) + "\n")
    resumed = run_tournament(config, half)
    assert resumed.played_now == len(lines) - 2
    strip = ("seconds",)
    assert [{k: v for k, v in g.items() if k not in strip} for g in resumed.games] == \
        [{k: v for k, v in g.items() if k not in strip} for g in whole]


def test_a_tournament_without_sandboxed_bots_keeps_its_deals_from_the_file(
        tmp_path: Path) -> None:
    config = load_tournament(_greedy_tournament(tmp_path, sandbox=False))
    first = run_tournament(config, tmp_path / "a")
    second = run_tournament(config, tmp_path / "b")
    assert "secret" not in json.loads((tmp_path / "a" / "run.json").read_text())
    assert [g["places"] for g in first.games] == [g["places"] for g in second.games]


def test_a_damaged_secret_is_one_line(tmp_path: Path) -> None:
    config = load_tournament(_greedy_tournament(tmp_path, sandbox=False))
    out = tmp_path / "out"
    out.mkdir()
    (out / "run.json").write_text(json.dumps({"fingerprint": config_fingerprint(config),
                                              "secret": "../etc"}), encoding="utf-8")
    with pytest.raises(RunError, match="its secret is damaged"):
        run_tournament(config, out)
