"""Running tournaments as a user does: ``trash tournament run/show/list`` through the console
script's ``main`` (in this process, to save the start-up cost), as real subprocesses where
processes matter (``kill -9``, Ctrl-C, a Dask cluster, the script's exit codes), and
``run_tournament`` called directly.

Determinism over workers and executors, resuming after a crash, ``kill -9`` or Ctrl-C,
forfeits of broken user bots, the SPRT stopping rule and what results.json, results.csv,
games.jsonl and the history database say. Every run writes its history database under
``tmp_path`` (``--history`` or ``TRASH_TUI_HISTORY``), never into the user's data folder.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from trash_tui.cli.main import main
from trash_tui.players.rater import open_history
from trash_tui.tournament.config import load_tournament
from trash_tui.tournament.results import compute_results
from trash_tui.tournament.runner import OutputFolder, RunOutcome, run_tournament
from trash_tui.tournament.schedule import total_games

TRASH = Path(sys.executable).parent / "trash"
# Timing, and where the file was given (a label: the CLI and a direct call spell it apart).
NOT_RESULTS = ("elapsed_seconds", "played_now", "config")

SMALL = """\
name = "small"
seed = 7
players = 2
matches = 3
duplicate = true

[rules]
preset = "standard"
start_size = 4

[[bots]]
bot = "random"

[[bots]]
bot = "greedy"

[[bots]]
bot = "hard"
"""

DEALS_3P = """\
seed = 8
players = 3
deals = 3
duplicate = true

[rules]
start_size = 5

[[bots]]
bot = "random"

[[bots]]
bot = "greedy"

[[bots]]
bot = "easy"

[[bots]]
bot = "hard"
"""

GAUNTLET_4P = """\
seed = 9
players = 4
format = "gauntlet"
gauntlet = "hard"
matches = 3

[rules]
start_size = 3
max_deals = 3

[[bots]]
bot = "random"

[[bots]]
bot = "greedy"

[[bots]]
bot = "easy"

[[bots]]
bot = "hard"

[[bots]]
bot = "normal"
"""

# Big enough to take a couple of seconds with one worker (200 full matches).
BIG = """\
name = "big"
seed = 11
matches = 100
duplicate = true

[[bots]]
bot = "hard"

[[bots]]
bot = "greedy"
"""

SPRT = """\
name = "sprt"
seed = 3
matches = 200
duplicate = true

[rules]
start_size = 4

[[bots]]
bot = "hard"

[[bots]]
bot = "random"

[stop]
rule = "sprt"
elo0 = 0
elo1 = 20
"""

SPRT_EQUAL = """\
seed = 3
matches = 6
duplicate = true

[rules]
start_size = 4

[[bots]]
name = "greedy-a"
bot = "greedy"

[[bots]]
name = "greedy-b"
bot = "greedy"

[stop]
rule = "sprt"
elo0 = 0
elo1 = 20
"""

BAD_BOTS = """\
import time

from bots.base import Bot


class Crasher(Bot):
    name = "crasher"

    def choose(self, observation, legal):
        raise ValueError("no idea what to do")


class Cheater(Bot):
    name = "cheater"

    def choose(self, observation, legal):
        return max(legal) + 1000


class Sleeper(Bot):
    name = "sleeper"

    def choose(self, observation, legal):
        time.sleep(0.4)
        return legal[0]


class HookCrasher(Bot):
    name = "hook-crasher"

    def start_deal(self, observation):
        raise RuntimeError("broken start_deal")

    def choose(self, observation, legal):
        return legal[0]
"""


# --- helpers -------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _private_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a test forgets, the default history database is under tmp_path."""
    monkeypatch.setenv("TRASH_TUI_HISTORY", str(tmp_path / "default-history.sqlite3"))


def write(folder: Path, text: str, name: str = "t.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@dataclass
class Ran:
    """What a ``trash`` command did: exit code, standard output and standard error."""

    returncode: int
    stdout: str
    stderr: str


def trash(*args: str | Path, cwd: Path, history: Path) -> Ran:
    """``trash ARGS`` run by the console script's ``main`` in this process (a subprocess
    costs a third of a second of imports), in ``cwd`` with ``TRASH_TUI_HISTORY=history``."""
    stdout, stderr = io.StringIO(), io.StringIO()
    here, before = os.getcwd(), os.environ.get("TRASH_TUI_HISTORY")
    os.chdir(cwd)
    os.environ["TRASH_TUI_HISTORY"] = str(history)
    code: Any = 0
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            main([str(arg) for arg in args])
    except SystemExit as exc:
        code = exc.code
    finally:
        os.chdir(here)
        if before is None:
            del os.environ["TRASH_TUI_HISTORY"]
        else:
            os.environ["TRASH_TUI_HISTORY"] = before
    return Ran(0 if code is None else code if isinstance(code, int) else 1,
               stdout.getvalue(), stderr.getvalue())


def trash_process(*args: str | Path, cwd: Path, history: Path,
                  timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``trash ARGS`` as a real subprocess of the console script."""
    env = {**os.environ, "TRASH_TUI_HISTORY": str(history)}
    return subprocess.run([str(TRASH), *map(str, args)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


def start(*args: str | Path, cwd: Path, history: Path) -> subprocess.Popen[str]:
    """``trash ...`` in the background, in its own process group (as a terminal's job)."""
    env = {**os.environ, "TRASH_TUI_HISTORY": str(history)}
    return subprocess.Popen([str(TRASH), *map(str, args)], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def run_ok(*args: str | Path, cwd: Path, history: Path) -> Ran:
    result = trash(*args, cwd=cwd, history=history)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return result


def assert_one_line_error(result: Ran | subprocess.CompletedProcess[str], *fragments: str
                          ) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("trash: error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    assert result.stdout == ""
    return lines[0]


def game_lines(out: Path) -> list[dict[str, Any]]:
    """Every line of games.jsonl, each of which must be one complete JSON object."""
    text = (out / "games.jsonl").read_text(encoding="utf-8")
    assert text == "" or text.endswith("\n"), "games.jsonl ends in a cut line"
    games = [json.loads(line) for line in text.splitlines()]
    assert all(isinstance(g, dict) and "index" in g for g in games)
    return games


def games_of(out: Path) -> dict[int, dict[str, Any]]:
    """The games of games.jsonl by index (each index once), without their timings."""
    games = game_lines(out)
    counts = Counter(g["index"] for g in games)
    assert max(counts.values(), default=1) == 1, [i for i, n in counts.items() if n > 1]
    return {g["index"]: {k: v for k, v in g.items() if k != "seconds"} for g in games}


def results_of(out: Path) -> dict[str, Any]:
    """results.json without timings and the file's spelling."""
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return {k: v for k, v in results.items() if k not in NOT_RESULTS}


def played_now(out: Path) -> int:
    return json.loads((out / "results.json").read_text(encoding="utf-8"))["played_now"]


def run_direct(path: Path, out: Path, history: Path, workers: int = 1
               ) -> tuple[RunOutcome, dict[str, Any]]:
    """``run_tournament`` in this process, and its results as results.json would hold them."""
    config = load_tournament(path)
    with open_history(history) as db:
        outcome = run_tournament(config, out, workers=workers, history=db)
    results = compute_results(config, outcome.games, outcome.status, outcome.planned,
                              outcome.sprt)
    results = json.loads(json.dumps(results))  # tuples become lists, as in the file
    return outcome, {k: v for k, v in results.items() if k not in NOT_RESULTS}


def standings(run_stdout: str) -> str:
    """The results part of ``trash tournament run``'s output (without the timing line)."""
    return run_stdout[: run_stdout.rindex("\n\n")] + "\n"


def wait_for_games(out: Path, process: subprocess.Popen[str], timeout: float = 60) -> None:
    """Wait until the running tournament has written at least one game."""
    deadline = time.monotonic() + timeout
    games = out / "games.jsonl"
    while time.monotonic() < deadline:
        if games.exists() and games.stat().st_size > 0:
            return
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    process.kill()
    pytest.fail("no game was written in time")


@pytest.fixture(scope="module")
def big_reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """An uninterrupted run of BIG (two workers, in this process): its results and games."""
    folder = tmp_path_factory.mktemp("big-reference")
    path = write(folder, BIG)
    out = folder / "out"
    outcome, results = run_direct(path, out, folder / "h.sqlite3", workers=2)
    assert outcome.status == "finished" and outcome.played_now == 200
    return {"results": results, "games": games_of(out)}


# --- 1. determinism ------------------------------------------------------------------------

@pytest.mark.parametrize("text", [SMALL, DEALS_3P, GAUNTLET_4P],
                         ids=["2p-duplicate-matches", "3p-duplicate-deals", "4p-gauntlet"])
def test_same_file_and_seed_give_the_same_results_with_any_workers(tmp_path: Path,
                                                                   text: str) -> None:
    path = write(tmp_path, text)
    history = tmp_path / "h.sqlite3"
    config = load_tournament(path)
    total = total_games(config)
    run_ok("tournament", "run", "t.toml", "--out", "w1", cwd=tmp_path, history=history)
    run_ok("tournament", "run", "t.toml", "--out", "w2", "--workers", "2", cwd=tmp_path,
           history=history)
    outcome, direct = run_direct(path, tmp_path / "direct", tmp_path / "h2.sqlite3")

    reference = results_of(tmp_path / "w1")
    assert reference["status"] == "finished"
    assert reference["games"] == reference["planned"] == total
    assert results_of(tmp_path / "w2") == reference
    assert direct == reference
    games = games_of(tmp_path / "w1")
    assert sorted(games) == list(range(total))
    assert games_of(tmp_path / "w2") == games
    assert games_of(tmp_path / "direct") == games
    assert outcome.played_now == total
    assert [{k: v for k, v in g.items() if k != "seconds"} for g in outcome.games] == [
        games[i] for i in range(total)]
    assert config.unit == ("deals" if "\ndeals =" in text else "matches")
    if config.unit == "deals":
        assert all(g["deals"] == 1 for g in games.values())
        assert reference["mean_deals_per_match"] is None
    assert {len(g["seats"]) for g in games.values()} == {config.players}


def test_another_seed_plays_other_games(tmp_path: Path) -> None:
    """The comparisons above mean something: the seed does decide the games."""
    run_ok("tournament", "run", write(tmp_path, SMALL), "--out", "a", cwd=tmp_path,
           history=tmp_path / "h.sqlite3")
    other = write(tmp_path, SMALL.replace("seed = 7", "seed = 8"), "u.toml")
    run_ok("tournament", "run", other, "--out", "b", cwd=tmp_path,
           history=tmp_path / "h.sqlite3")
    assert games_of(tmp_path / "a") != games_of(tmp_path / "b")


def test_dask_executor_gives_the_same_results(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    write(tmp_path, DEALS_3P)
    history = tmp_path / "h.sqlite3"
    run_ok("tournament", "run", "t.toml", "--out", "inline", cwd=tmp_path, history=history)
    dask = trash_process("tournament", "run", "t.toml", "--out", "dask", "--executor", "dask",
                         "--workers", "2", cwd=tmp_path, history=history)
    assert dask.returncode == 0 and "Traceback" not in dask.stderr, dask.stderr
    assert "2 dask workers" in dask.stdout
    assert results_of(tmp_path / "dask") == results_of(tmp_path / "inline")
    assert games_of(tmp_path / "dask") == games_of(tmp_path / "inline")


def test_a_bot_seed_changes_that_bots_play(tmp_path: Path) -> None:
    text = """\
seed = 5
deals = 12

[rules]
start_size = 4

[[bots]]
bot = "random"
seed = {seed}

[[bots]]
bot = "random"
name = "other"
"""
    history = tmp_path / "h.sqlite3"
    for seed in (1, 2):
        path = write(tmp_path, text.format(seed=seed), f"s{seed}.toml")
        run_ok("tournament", "run", path, "--out", f"s{seed}", cwd=tmp_path, history=history)
    assert games_of(tmp_path / "s1") != games_of(tmp_path / "s2")


# --- 2. resuming -----------------------------------------------------------------------------

@pytest.mark.parametrize(("kept", "workers"), [(0, "1"), (7, "1"), (11, "2")])
def test_resume_after_a_torn_write(tmp_path: Path, kept: int, workers: str) -> None:
    """A crash left K games and half a line: the run continues, nothing twice or lost."""
    write(tmp_path, SMALL)
    run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
           history=tmp_path / "h1.sqlite3")
    reference, games = results_of(tmp_path / "out"), games_of(tmp_path / "out")
    total = len(games)
    lines = (tmp_path / "out" / "games.jsonl").read_text(encoding="utf-8").splitlines(True)
    torn = lines[kept][: len(lines[kept]) // 2]
    (tmp_path / "out" / "games.jsonl").write_text("".join(lines[:kept]) + torn,
                                                  encoding="utf-8")

    run_ok("tournament", "run", "t.toml", "--out", "out", "--workers", workers,
           cwd=tmp_path, history=tmp_path / "h2.sqlite3")
    assert games_of(tmp_path / "out") == games  # every index exactly once, complete lines
    assert results_of(tmp_path / "out") == reference
    assert played_now(tmp_path / "out") == total - kept


def test_resume_after_a_write_cut_before_its_newline(tmp_path: Path) -> None:
    write(tmp_path, SMALL)
    run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
           history=tmp_path / "h1.sqlite3")
    games = games_of(tmp_path / "out")
    lines = (tmp_path / "out" / "games.jsonl").read_text(encoding="utf-8").splitlines(True)
    (tmp_path / "out" / "games.jsonl").write_text("".join(lines[:5]) + lines[5].rstrip("\n"),
                                                  encoding="utf-8")
    run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
           history=tmp_path / "h2.sqlite3")
    assert games_of(tmp_path / "out") == games
    assert played_now(tmp_path / "out") == len(games) - 6


def test_folder_and_history_repair_each_other(tmp_path: Path) -> None:
    """Games only the database kept come back to games.jsonl, and a new database gets the
    folder's games; neither replays anything."""
    write(tmp_path, SMALL)
    history = tmp_path / "h.sqlite3"
    run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path, history=history)
    reference, games = results_of(tmp_path / "out"), games_of(tmp_path / "out")
    lines = (tmp_path / "out" / "games.jsonl").read_text(encoding="utf-8").splitlines(True)
    (tmp_path / "out" / "games.jsonl").write_text("".join(lines[:4]), encoding="utf-8")

    run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path, history=history)
    assert played_now(tmp_path / "out") == 0
    assert games_of(tmp_path / "out") == games
    assert results_of(tmp_path / "out") == reference

    fresh = tmp_path / "fresh.sqlite3"
    run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path, history=fresh)
    assert played_now(tmp_path / "out") == 0
    with open_history(fresh) as db:
        [run] = db.tournaments.runs()
        assert run.games == len(games) and run.status == "finished"
        stored = db.tournaments.game_results(run.id)
    assert {i: {k: v for k, v in g.items() if k != "seconds"} for i, g in stored.items()
            } == games


def test_resume_after_kill_9(tmp_path: Path, big_reference: dict[str, Any]) -> None:
    write(tmp_path, BIG)
    history = tmp_path / "h.sqlite3"
    process = start("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
                    history=history)
    wait_for_games(tmp_path / "out", process)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL
    text = (tmp_path / "out" / "games.jsonl").read_text(encoding="utf-8")
    survived = set()
    for line in text.splitlines():  # the last line may be cut short
        with contextlib.suppress(ValueError):
            survived.add(json.loads(line)["index"])
    assert 0 < len(survived) < 200

    result = run_ok("tournament", "run", "t.toml", "--out", "out", "--workers", "2",
                    cwd=tmp_path, history=history)
    assert f"{200 - len(survived)} games played now" in result.stdout
    assert played_now(tmp_path / "out") == 200 - len(survived)
    assert games_of(tmp_path / "out") == big_reference["games"]
    assert results_of(tmp_path / "out") == big_reference["results"]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_cleanly_and_the_run_continues(tmp_path: Path, workers: str,
                                                    big_reference: dict[str, Any]) -> None:
    write(tmp_path, BIG)
    history = tmp_path / "h.sqlite3"
    process = start("tournament", "run", "t.toml", "--out", "out", "--workers", workers,
                    cwd=tmp_path, history=history)
    wait_for_games(tmp_path / "out", process)
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C in a terminal reaches the whole job
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode in (130, 0), stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    kept = game_lines(tmp_path / "out")  # complete lines only
    assert len({g["index"] for g in kept}) == len(kept) > 0
    if process.returncode == 130:
        assert "stopped" in stderr and "run the same command again" in stderr
        assert json.loads((tmp_path / "out" / "results.json").read_text())["status"] == (
            "stopped")
        assert " of 200 games, " in stdout and "stopped early" in stdout

    result = run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
                    history=history)
    assert f"{200 - len(kept)} games played now" in result.stdout
    assert games_of(tmp_path / "out") == big_reference["games"]
    assert results_of(tmp_path / "out") == big_reference["results"]


def test_ctrl_c_while_a_batch_is_saved_counts_what_the_folder_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C can arrive at any point of the main process; here the signal comes right after
    the first batch reached games.jsonl, while the run is saving it."""
    original = OutputFolder.append

    def append_then_interrupt(self: OutputFolder, games: list[dict[str, Any]]) -> None:
        original(self, games)
        if games:
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(OutputFolder, "append", append_then_interrupt)
    path = write(tmp_path, SMALL)
    outcome, results = run_direct(path, tmp_path / "out", tmp_path / "h.sqlite3")
    assert outcome.status == "stopped"
    kept = game_lines(tmp_path / "out")
    assert 0 < len(kept) < 18
    assert results["games"] == len(outcome.games) == len(kept)
    with open_history(tmp_path / "h.sqlite3") as db:
        [run] = db.tournaments.runs()
    assert run.games == len(kept)


@pytest.mark.parametrize("make", ["missing", "empty"])
def test_resume_with_nothing_to_resume_is_an_error(tmp_path: Path, make: str) -> None:
    write(tmp_path, SMALL)
    if make == "empty":
        (tmp_path / "out").mkdir()
    result = trash("tournament", "run", "t.toml", "--out", "out", "--resume", cwd=tmp_path,
                   history=tmp_path / "h.sqlite3")
    assert_one_line_error(result, "--resume", "nothing to resume", "out")
    assert not (tmp_path / "out" / "games.jsonl").exists()


def test_a_folder_of_another_configuration_is_refused(tmp_path: Path) -> None:
    write(tmp_path, SMALL)
    write(tmp_path, SMALL.replace("seed = 7", "seed = 70"), "other.toml")
    history = tmp_path / "h.sqlite3"
    run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path, history=history)
    before = (tmp_path / "out" / "games.jsonl").read_bytes()
    results = (tmp_path / "out" / "results.json").read_bytes()
    for extra in ([], ["--resume"]):
        result = trash("tournament", "run", "other.toml", "--out", "out", *extra,
                       cwd=tmp_path, history=history)
        assert_one_line_error(result, "another configuration", "out")
    assert (tmp_path / "out" / "games.jsonl").read_bytes() == before
    assert (tmp_path / "out" / "results.json").read_bytes() == results


def test_running_a_finished_run_again_plays_nothing(tmp_path: Path) -> None:
    write(tmp_path, SMALL)
    history = tmp_path / "h.sqlite3"
    first = run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
                   history=history)
    lines = (tmp_path / "out" / "games.jsonl").read_bytes()
    for extra in ([], ["--resume"]):
        again = run_ok("tournament", "run", "t.toml", "--out", "out", *extra, cwd=tmp_path,
                       history=history)
        assert standings(again.stdout) == standings(first.stdout)
        assert "\n0 games played now" in again.stdout
        assert played_now(tmp_path / "out") == 0
        assert (tmp_path / "out" / "games.jsonl").read_bytes() == lines
    with open_history(history) as db:
        [run] = db.tournaments.runs()
    assert run.games == 18 and run.status == "finished"


# --- 3. forfeits -----------------------------------------------------------------------------

@pytest.mark.parametrize(("cls", "kind", "detail"), [
    ("Crasher", "error", "ValueError: no idea what to do"),
    ("Cheater", "illegal", "answered"),
    ("Sleeper", "timeout", "limit 0.2 s"),
])
def test_a_failing_user_bot_forfeits_its_games(tmp_path: Path, cls: str, kind: str,
                                               detail: str) -> None:
    write(tmp_path / "mybots", BAD_BOTS, "bad.py")
    write(tmp_path / "tournament", f"""\
seed = 4
matches = 2
time_limit = 0.2

[rules]
start_size = 4

[[bots]]
name = "bad"
bot = "../mybots/bad.py:{cls}"

[[bots]]
bot = "greedy"
""")
    elsewhere = tmp_path / "elsewhere"  # the bot's path is relative to the file, not here
    elsewhere.mkdir()
    result = run_ok("tournament", "run", tmp_path / "tournament" / "t.toml", "--out", "out",
                    cwd=elsewhere, history=tmp_path / "h.sqlite3")
    out = elsewhere / "out"
    games = games_of(out)
    assert len(games) == 2
    for game in games.values():
        bad_seat = game["seats"].index(0)
        assert game["forfeit"]["bot"] == "bad" and game["forfeit"]["kind"] == kind
        assert game["forfeit"]["seat"] == bad_seat
        assert detail in game["forfeit"]["detail"]
        assert game["places"][bad_seat] == 2 and game["places"][1 - bad_seat] == 1
    results = results_of(out)
    assert results["status"] == "finished" and results["games"] == results["planned"] == 2
    assert sorted(f["index"] for f in results["forfeits"]) == [0, 1]
    assert {(f["bot"], f["kind"]) for f in results["forfeits"]} == {("bad", kind)}
    per_bot = {r["bot"]: r for r in results["bots"]}
    assert per_bot["bad"]["forfeits"] == 2 and per_bot["greedy"]["forfeits"] == 0
    assert per_bot["bad"]["wins"] == 0 and per_bot["greedy"]["wins"] == 2
    assert f"Forfeit in game 0: bad ({kind})" in result.stdout
    # a pairing lost every game: its Elo difference has no value and no bound (issue 27)
    assert "Elo   n/a" in result.stdout and "inf" not in result.stdout


def test_forfeits_at_a_larger_table_with_workers(tmp_path: Path) -> None:
    """The failing bot takes the last place; the rest of the table is still ranked; a pool
    of workers loads the user's file too."""
    write(tmp_path, BAD_BOTS, "bad.py")
    write(tmp_path, """\
seed = 6
players = 3
format = "gauntlet"
gauntlet = "crasher"
matches = 1
duplicate = true

[rules]
start_size = 4

[[bots]]
name = "crasher"
bot = "bad.py:Crasher"

[[bots]]
bot = "greedy"

[[bots]]
bot = "random"

[[bots]]
bot = "hard"
""")
    run_ok("tournament", "run", "t.toml", "--out", "out", "--workers", "2", cwd=tmp_path,
           history=tmp_path / "h.sqlite3")
    games = games_of(tmp_path / "out")
    assert len(games) == 9  # 3 pairings x 1 board x 3 rotations
    for game in games.values():
        seat = game["seats"].index(0)
        assert game["forfeit"]["seat"] == seat and game["forfeit"]["kind"] == "error"
        assert game["places"][seat] == 3
        assert sorted(game["places"])[-1] == 3 and game["places"].count(3) == 1
    results = results_of(tmp_path / "out")
    per_bot = {r["bot"]: r for r in results["bots"]}
    assert per_bot["crasher"]["forfeits"] == 9 and per_bot["crasher"]["wins"] == 0
    assert per_bot["crasher"]["mean_place"] == 3
    assert sum(r["forfeits"] for r in results["bots"]) == len(results["forfeits"]) == 9
    assert sum(r["wins"] for r in results["bots"]) == pytest.approx(9)


def test_a_bot_failing_in_a_hook_forfeits(tmp_path: Path) -> None:
    write(tmp_path, BAD_BOTS, "bad.py")
    write(tmp_path, """\
seed = 4
matches = 2

[rules]
start_size = 4

[[bots]]
name = "bad"
bot = "bad.py:HookCrasher"

[[bots]]
bot = "greedy"
""")
    result = trash("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
                   history=tmp_path / "h.sqlite3")
    assert result.returncode == 0, result.stderr[-2000:]
    results = results_of(tmp_path / "out")
    assert [f["kind"] for f in results["forfeits"]] == ["error", "error"]


# --- 4. SPRT ---------------------------------------------------------------------------------

def test_sprt_stops_early_at_the_same_board_with_any_workers(tmp_path: Path) -> None:
    path = write(tmp_path, SPRT)
    history = tmp_path / "h.sqlite3"
    first = run_ok("tournament", "run", "t.toml", "--out", "w1", cwd=tmp_path,
                   history=history)
    run_ok("tournament", "run", "t.toml", "--out", "w2", "--workers", "2", cwd=tmp_path,
           history=history)
    outcome, direct = run_direct(path, tmp_path / "direct", tmp_path / "h2.sqlite3",
                                 workers=2)
    results = results_of(tmp_path / "w1")
    assert results["status"] == "sprt"
    assert results["sprt"]["decision"] == "H1"
    assert results["planned"] == 400
    assert results["games"] == 2 * results["sprt"]["boards"] < results["planned"]
    assert results["sprt"]["llr"] >= 2.94
    assert results_of(tmp_path / "w2") == results
    assert direct == results and outcome.status == "sprt"
    # the counted games are the first boards of the schedule, whoever played more
    assert sorted(g["index"] for g in outcome.games) == list(range(results["games"]))
    assert "H1 accepted" in first.stdout and "stopped by the SPRT" in first.stdout
    assert "stopped:" not in first.stderr

    again = run_ok("tournament", "run", "t.toml", "--out", "w2", cwd=tmp_path,
                   history=history)
    assert played_now(tmp_path / "w2") == 0
    assert results_of(tmp_path / "w2") == results
    assert standings(again.stdout) == standings(first.stdout)


def test_sprt_between_equal_bots_runs_to_the_cap(tmp_path: Path) -> None:
    write(tmp_path, SPRT_EQUAL)
    run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
           history=tmp_path / "h.sqlite3")
    results = results_of(tmp_path / "out")
    assert results["games"] == results["planned"] == 12
    assert results["sprt"]["decision"] in (None, "H0")
    assert results["status"] == ("finished" if results["sprt"]["decision"] is None else "sprt")


# --- 5. results and the other commands -------------------------------------------------------

@pytest.mark.parametrize("text", [SMALL, DEALS_3P, GAUNTLET_4P],
                         ids=["2p-duplicate-matches", "3p-duplicate-deals", "4p-gauntlet"])
def test_results_agree_with_the_games(tmp_path: Path, text: str) -> None:
    write(tmp_path, text)
    run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
           history=tmp_path / "h.sqlite3")
    games = list(games_of(tmp_path / "out").values())
    results = results_of(tmp_path / "out")
    names = [r["bot"] for r in results["bots"]]
    players = results["players"]
    assert results["games"] == len(games)

    played: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    place_sum: Counter[int] = Counter()
    seat_wins: Counter[int] = Counter()
    pairs: dict[tuple[int, int], list[int]] = {}
    for game in games:
        places = game["places"]
        assert sorted(places)[0] == 1
        firsts = places.count(1)
        for seat, bot in enumerate(game["seats"]):
            played[bot] += 1
            place_sum[bot] += places[seat]
            if places[seat] == 1:
                wins[bot] += 1 / firsts
                seat_wins[seat] += 1 / firsts
            for other_seat, other in enumerate(game["seats"]):
                if bot < other:
                    row = pairs.setdefault((bot, other), [0, 0, 0])
                    mine, theirs = places[seat], places[other_seat]
                    row[0 if mine < theirs else 1 if mine > theirs else 2] += 1
    # each game gives exactly one win credit, shared first places split it
    assert sum(r["wins"] for r in results["bots"]) == pytest.approx(len(games))
    assert sum(r["games"] for r in results["bots"]) == players * len(games)
    for b, row in enumerate(results["bots"]):
        assert row["games"] == played[b]
        assert row["wins"] == pytest.approx(wins[b])
        assert row["win_rate"] == pytest.approx(wins[b] / played[b])
        assert row["mean_place"] == pytest.approx(place_sum[b] / played[b])
        assert row["win_low"] <= row["win_rate"] <= row["win_high"]
        assert row["rating_low"] <= row["rating"] <= row["rating_high"]
        assert row["forfeits"] == 0
    assert [s["seat"] for s in results["seats"]] == list(range(players))
    assert sum(s["win_rate"] for s in results["seats"]) == pytest.approx(1.0)
    for s in results["seats"]:
        assert s["wins"] == pytest.approx(seat_wins[s["seat"]])
    crosstable = {(names.index(r["bot"]), names.index(r["opponent"])): r
                  for r in results["crosstable"]}
    assert set(crosstable) == set(pairs)
    for pair, (w, lost, d) in pairs.items():
        row = crosstable[pair]
        assert (row["wins"], row["losses"], row["draws"], row["games"]) == (w, lost, d,
                                                                             w + lost + d)
    assert results["forfeits"] == []

    with (tmp_path / "out" / "results.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert sorted(r["bot"] for r in rows) == sorted(names)
    by_name = {r["bot"]: r for r in results["bots"]}
    for row in rows:
        assert int(row["games"]) == by_name[row["bot"]]["games"]
        assert float(row["wins"]) == pytest.approx(by_name[row["bot"]]["wins"])
        assert int(row["forfeits"]) == 0


def test_shared_first_places_split_the_win(tmp_path: Path) -> None:
    """A forfeit at the very first decision leaves the other two level: they share first."""
    write(tmp_path, BAD_BOTS, "bad.py")
    write(tmp_path, """\
seed = 6
players = 3
matches = 1

[rules]
start_size = 4

[[bots]]
name = "crasher"
bot = "bad.py:Crasher"

[[bots]]
bot = "greedy"

[[bots]]
bot = "random"
""")
    run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
           history=tmp_path / "h.sqlite3")
    [game] = games_of(tmp_path / "out").values()
    assert game["seats"] == [0, 1, 2] and game["forfeit"]["seat"] == 0
    assert game["places"] == [3, 1, 1]
    results = results_of(tmp_path / "out")
    assert [r["wins"] for r in results["bots"]] == [0, 0.5, 0.5]
    assert [s["wins"] for s in results["seats"]] == [0, 0.5, 0.5]


def test_show_and_list_print_the_run(tmp_path: Path) -> None:
    write(tmp_path, DEALS_3P)
    history = tmp_path / "h.sqlite3"
    run = run_ok("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path, history=history)
    table = standings(run.stdout)
    assert table.startswith("t: 36 of 36 games, 3-player tables")
    with open_history(history) as db:
        [row] = db.tournaments.runs()
    by_id = run_ok("tournament", "show", str(row.id), cwd=tmp_path, history=history)
    assert by_id.stdout == table
    by_folder = run_ok("tournament", "show", "out", cwd=tmp_path, history=history)
    assert by_folder.stdout == table
    listed = run_ok("tournament", "list", cwd=tmp_path, history=history)
    [line] = listed.stdout.splitlines()
    assert line.split()[0] == str(row.id)
    for fragment in (" t ", "36 games", "finished", (tmp_path / "out").resolve().as_posix()):
        assert fragment in line, (fragment, line)
    # the --history option reaches the same database as TRASH_TUI_HISTORY
    other = run_ok("tournament", "list", "--history", history, cwd=tmp_path,
                   history=tmp_path / "unused.sqlite3")
    assert other.stdout == listed.stdout


def test_show_of_an_unknown_run_is_one_line(tmp_path: Path) -> None:
    result = trash("tournament", "show", "99", cwd=tmp_path, history=tmp_path / "h.sqlite3")
    assert_one_line_error(result, "no tournament run '99'")
    empty = run_ok("tournament", "list", cwd=tmp_path, history=tmp_path / "h.sqlite3")
    assert empty.stdout == "no tournament runs yet\n"


@pytest.mark.parametrize(("old", "new"), [
    ("players = 2", "players = 9"),
    ('bot = "hard"', 'bot = "no-such-bot"'),
    ("start_size = 4", "start_size = 40"),
    ("matches = 3", "matches = = 3"),
    ('bot = "hard"', 'bot = "hard"\n\n[[bots]]\nbot = "missing/bot.py"'),
], ids=["players", "unknown-bot", "rules", "toml-syntax", "missing-bot-file"])
def test_a_bad_tournament_file_is_one_line_with_its_line(tmp_path: Path, old: str,
                                                         new: str) -> None:
    text = SMALL.replace(old, new)
    wrong = new.splitlines()[-1]
    [line] = [n for n, row in enumerate(text.splitlines(), 1) if row == wrong]
    write(tmp_path, text)
    result = trash("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
                   history=tmp_path / "h.sqlite3")
    assert_one_line_error(result, f"t.toml:{line}: ")
    assert not (tmp_path / "out").exists()


def test_the_console_script_reports_errors_in_one_line(tmp_path: Path) -> None:
    """The same errors from the installed ``trash`` script in a real process."""
    write(tmp_path, SMALL.replace("players = 2", "players = 9"))
    history = tmp_path / "h.sqlite3"
    bad = trash_process("tournament", "run", "t.toml", cwd=tmp_path, history=history)
    assert_one_line_error(bad, "t.toml:3: players: ")
    write(tmp_path, SMALL)
    nothing = trash_process("tournament", "run", "t.toml", "--resume", cwd=tmp_path,
                            history=history)
    # the default folder is runs/<file name> beside the history database
    assert_one_line_error(nothing, f"--resume: nothing to resume in {tmp_path / 'runs' / 't'}")
    assert not (tmp_path / "runs").exists()
    if history.exists():
        with open_history(history) as db:
            assert db.tournaments.runs() == []
