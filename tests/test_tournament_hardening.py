"""Tournaments under bad conditions: kills at every dangerous point of a run with
``--records``, absurd sizes, numbers out of bounds, hostile names, and where runs go.

- Records: a run killed after a batch's records reached ``records.jsonl`` but before its
  games reached ``games.jsonl``, or half-way through either line, or several times over,
  resumes into a folder where every game has exactly one record and every line of
  ``records.jsonl`` replays (as ``trash replay --check`` reads it). A folder left by the
  old order (a torn line with the next record glued on, records twice) is repaired too.
- Sizes: ``matches = 99999999999999999`` is one located line; a legal schedule of millions
  of games starts at once in flat memory, and the lazy schedule resumes exactly where the
  finished games end.
- Bounds: every number of a tournament file has a located one-line error.
- Output: runs go to ``runs/`` beside the history database (as the app's) unless ``--out``
  says otherwise, and names from a file never reach the terminal with control characters.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trash_tui.cli.main import main
from trash_tui.engine.record import check_records, load_records
from trash_tui.players.rater import open_history
from trash_tui.text import is_unsafe
from trash_tui.tournament.config import (
    MAX_BOARDS,
    MAX_GAMES,
    TournamentError,
    load_tournament,
)
from trash_tui.tournament.runner import OutputFolder, run_tournament, unfinished
from trash_tui.tournament.schedule import schedule, total_games

TRASH = Path(sys.executable).parent / "trash"

# 4 boards x 2 rotations x 3 pairings = 24 short matches: several batches with 2 workers.
RECORDED = """\
name = "recorded"
seed = 5
players = 2
matches = 4
duplicate = true

[rules]
preset = "kids"

[[bots]]
bot = "hard"

[[bots]]
bot = "greedy"

[[bots]]
bot = "random"
"""

# Long enough to be killed part-way (200 full matches with records).
RECORDED_BIG = """\
name = "recorded-big"
seed = 12
matches = 100
duplicate = true

[[bots]]
bot = "hard"

[[bots]]
bot = "greedy"
"""


@dataclasses.dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def trash(*args: str | Path, cwd: Path, history: Path) -> Ran:
    """``trash ARGS`` through the console script's ``main`` in this process."""
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


def one_line_error(result: Ran, *fragments: str) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, (result.returncode, result.stderr)
    [line] = result.stderr.splitlines()
    assert line.startswith("trash: error: "), line
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    return line


def write(folder: Path, text: str, name: str = "t.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def run_records(path: Path, out: Path, history: Path, workers: int = 1) -> None:
    with open_history(history) as db:
        run_tournament(load_tournament(path), out, workers=workers, history=db, records=True)


def games_by_index(out: Path) -> dict[int, dict[str, Any]]:
    """games.jsonl by index, each index once, without timings."""
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    counts = Counter(g["index"] for g in games)
    assert max(counts.values(), default=1) == 1, counts
    return {g["index"]: {k: v for k, v in g.items() if k != "seconds"} for g in games}


def records_by_game(out: Path) -> dict[int, dict[str, Any]]:
    """records.jsonl as the record loader reads it (every line must be a whole record and
    replay), by the tournament game each is the record of; each game once."""
    text = (out / "records.jsonl").read_text(encoding="utf-8")
    assert text.endswith("\n")
    records = load_records(out / "records.jsonl")
    assert len(records) == len(text.splitlines())
    check_records(records)  # what `trash replay --check` does with the file
    counts = Counter(r["context"]["game"] for r in records)
    assert max(counts.values()) == 1, [i for i, n in counts.items() if n > 1]
    return {r["context"]["game"]: r for r in records}


@pytest.fixture(scope="module")
def recorded_reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """An uninterrupted run of RECORDED with records: its games and records."""
    folder = tmp_path_factory.mktemp("recorded")
    run_records(write(folder, RECORDED), folder / "out", folder / "h.sqlite3")
    games = games_by_index(folder / "out")
    assert len(games) == 24
    return {"games": games, "records": records_by_game(folder / "out")}


class Killed(BaseException):
    """Stands for a kill -9: nothing after it runs (not even the run's own handlers)."""


def kill_while_writing(monkeypatch: pytest.MonkeyPatch, target: str, nth: int,
                       cut: float | None) -> None:
    """Make the ``nth`` write of a batch (from 1) to ``target`` (games.jsonl or records.jsonl) the
    last thing the run does: with ``cut`` only that fraction of it reaches the file."""
    writes = Counter[str]()
    original = OutputFolder._write

    def write_then_die(path: Path, documents: list[dict[str, Any]]) -> None:
        writes[path.name] += bool(documents)
        if path.name != target or writes[path.name] != nth or not documents:
            original(path, documents)
            return
        if cut is not None:
            text = "".join(json.dumps(d) + "\n" for d in documents)
            kept = text[: int(len(text) * cut)]
            with path.open("a", encoding="utf-8") as handle:
                handle.write(kept[:-1] if kept.endswith("\n") else kept)  # a torn line
        raise Killed

    monkeypatch.setattr(OutputFolder, "_write", staticmethod(write_then_die))


KILL_POINTS = {
    # records of the 2nd batch half-written; its games not at all
    "records-torn": ("records.jsonl", 2, 0.45),
    # the last record's line cut just before its newline
    "records-cut-before-newline": ("records.jsonl", 2, 0.999),
    # the 2nd batch's records all written, its games line not
    "records-written-games-not": ("games.jsonl", 2, None),
    # both files written up to the middle of the 3rd batch's games (not at a line end)
    "games-torn": ("games.jsonl", 3, 0.45),
    # at the very first write
    "first-records": ("records.jsonl", 1, 0.3),
}


@pytest.mark.parametrize("point", list(KILL_POINTS))
@pytest.mark.parametrize("workers", [1, 2])
def test_a_run_killed_at_any_point_resumes_with_one_record_per_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, point: str, workers: int,
        recorded_reference: dict[str, Any]) -> None:
    path = write(tmp_path, RECORDED)
    out, history = tmp_path / "out", tmp_path / "h.sqlite3"
    kill_while_writing(monkeypatch, *KILL_POINTS[point])
    with pytest.raises(Killed):
        run_records(path, out, history, workers)
    monkeypatch.undo()
    kept = (out / "games.jsonl").read_text() if (out / "games.jsonl").exists() else ""
    written = (out / "records.jsonl").read_text()
    assert len(kept.splitlines()) < 24
    # the kill left the folder in the state this case is about
    if point == "records-written-games-not":
        assert written.count("\n") > kept.count("\n") and kept.endswith("\n")
    elif point.startswith("records-") or point == "first-records":
        assert not written.endswith("\n")
    else:
        assert not kept.endswith("\n")

    run_records(path, out, history, workers)
    assert games_by_index(out) == recorded_reference["games"]
    assert records_by_game(out) == recorded_reference["records"]


def test_kills_one_after_another_still_leave_one_record_per_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        recorded_reference: dict[str, Any]) -> None:
    """Killed again at each dangerous point in turn, each time after the resume has done
    some work; the last start finishes the run."""
    path = write(tmp_path, RECORDED)
    out, history = tmp_path / "out", tmp_path / "h.sqlite3"
    for target, nth, cut in [("games.jsonl", 2, None), ("records.jsonl", 2, 0.4),
                             ("games.jsonl", 1, 0.7), ("records.jsonl", 1, None)]:
        kill_while_writing(monkeypatch, target, nth, cut)
        with contextlib.suppress(Killed):
            run_records(path, out, history)
        monkeypatch.undo()
    run_records(path, out, history)
    assert games_by_index(out) == recorded_reference["games"]
    assert records_by_game(out) == recorded_reference["records"]


def test_a_folder_damaged_by_the_old_order_is_repaired(tmp_path: Path,
                                                      recorded_reference: dict[str, Any]
                                                      ) -> None:
    """Before, records were appended after a torn line (so the next record was glued onto
    it) and written again for games played again; the next start repairs both."""
    path = write(tmp_path, RECORDED)
    out, history = tmp_path / "out", tmp_path / "h.sqlite3"
    run_records(path, out, history)
    records = (out / "records.jsonl").read_text().splitlines(True)
    games = (out / "games.jsonl").read_text().splitlines(True)
    damaged = [*records[:5], records[5][:40] + records[6], *records[7:12], *records[8:10],
               *records[12:]]
    (out / "records.jsonl").write_text("".join(damaged))
    (out / "games.jsonl").write_text("".join(games[:20]))  # and the last 4 games lost

    run_records(path, out, tmp_path / "fresh.sqlite3")
    assert games_by_index(out) == recorded_reference["games"]
    # game 5's record was cut although its game line is whole: it is played again for it
    assert records_by_game(out) == recorded_reference["records"]


def test_records_asked_for_on_resume_cover_the_games_played_before(
        tmp_path: Path, recorded_reference: dict[str, Any]) -> None:
    """A run started without --records and continued with it: the file still has one
    record for every game (the earlier ones played again for their records only)."""
    path = write(tmp_path, RECORDED)
    out, history = tmp_path / "out", tmp_path / "h.sqlite3"
    with open_history(history) as db:
        run_tournament(load_tournament(path), out, history=db)
    lines = (out / "games.jsonl").read_text().splitlines(True)
    (out / "games.jsonl").write_text("".join(lines[:10]))
    with open_history(tmp_path / "fresh.sqlite3") as db:
        outcome = run_tournament(load_tournament(path), out, history=db, records=True)
    assert outcome.played_now == 14
    assert games_by_index(out) == recorded_reference["games"]
    assert records_by_game(out) == recorded_reference["records"]


def wait_for_lines(file: Path, process: subprocess.Popen[str], lines: int,
                   timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if file.exists() and file.read_text().count("\n") >= lines:
            return
        assert process.poll() is None, process.communicate()
        time.sleep(0.01)
    process.kill()
    pytest.fail(f"{file.name} did not reach {lines} lines in time")


def test_kill_9_of_a_real_run_twice_then_resume(tmp_path: Path) -> None:
    """``trash tournament run --records`` killed with SIGKILL twice (the second time during
    the resume), then run to the end: every game once, one record each, and ``trash replay
    --check`` reads the whole file."""
    write(tmp_path, RECORDED_BIG)
    history = tmp_path / "h.sqlite3"
    env = {**os.environ, "TRASH_TUI_HISTORY": str(history)}
    command = [str(TRASH), "tournament", "run", "t.toml", "--out", "out", "--records",
               "--workers", "2"]
    games_file = tmp_path / "out" / "games.jsonl"
    for lines in (20, 80):
        process = subprocess.Popen(command, cwd=tmp_path, env=env, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   start_new_session=True)
        wait_for_lines(games_file, process, lines)
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=30)
    assert games_file.read_text().count("\n") < 200
    finished = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=300, check=False)
    assert finished.returncode == 0, finished.stderr
    games = games_by_index(tmp_path / "out")
    assert set(games) == set(range(200))
    assert set(records_by_game(tmp_path / "out")) == set(range(200))
    replay = subprocess.run([str(TRASH), "replay", "--check", "out/records.jsonl"],
                            cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=300, check=False)
    assert replay.returncode == 0, replay.stderr


# --- sizes -----------------------------------------------------------------------------------

TWO_BOTS = '\n[[bots]]\nbot = "greedy"\n\n[[bots]]\nbot = "random"\n'


def test_an_absurd_matches_is_one_located_line(tmp_path: Path) -> None:
    write(tmp_path, "seed = 1\nmatches = 99999999999999999\n" + TWO_BOTS)
    started = time.monotonic()
    result = trash("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
                   history=tmp_path / "h.sqlite3")
    assert time.monotonic() - started < 5
    one_line_error(result, "t.toml:2: matches: ", f"at most {MAX_BOARDS:,}",
                   "99999999999999999")
    assert not (tmp_path / "out").exists()


def test_a_schedule_over_the_limit_is_one_located_line(tmp_path: Path) -> None:
    bots = "".join(f'\n[[bots]]\nname = "b{i}"\nbot = "random"\n' for i in range(40))
    write(tmp_path, f"seed = 1\nplayers = 4\nduplicate = true\nmatches = {MAX_BOARDS}\n"
          + bots)
    result = trash("tournament", "check", "t.toml", cwd=tmp_path,
                   history=tmp_path / "h.sqlite3")
    one_line_error(result, "t.toml:4: matches: the schedule would hold ",
                   f"at most {MAX_GAMES:,}")


@pytest.mark.parametrize("stop", ["", '\n[stop]\nrule = "sprt"\n'])
def test_millions_of_games_start_at_once_in_flat_memory(tmp_path: Path, stop: str) -> None:
    """A million boards (two million deals) plays its first batches within seconds, and
    the memory the run takes does not depend on the size of the schedule."""
    text = ("seed = 1\nduplicate = true\ndeals = {boards}\n[rules]\nstart_size = 2\n"
            + TWO_BOTS + stop)

    def first_batches(boards: int, name: str) -> tuple[float, int]:
        config = load_tournament(write(tmp_path, text.format(boards=boards), f"{name}.toml"))

        def stop_after_first(done: int, planned: int, elapsed: float, games: Any) -> None:
            raise KeyboardInterrupt

        tracemalloc.start()
        started = time.perf_counter()
        outcome = run_tournament(config, tmp_path / name, progress=stop_after_first)
        seconds = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert outcome.status == "stopped" and outcome.planned == 2 * boards
        assert 0 < len(outcome.games) <= 256
        return seconds, peak

    _, small_peak = first_batches(100, "small")
    seconds, huge_peak = first_batches(MAX_BOARDS, "huge")
    assert seconds < 10
    assert huge_peak < small_peak + 2_000_000, (small_peak, huge_peak)


def test_check_describes_a_huge_file_at_once(tmp_path: Path) -> None:
    write(tmp_path, f"seed = 1\nduplicate = true\nmatches = {MAX_BOARDS}\n" + TWO_BOTS)
    started = time.monotonic()
    result = trash("tournament", "check", "t.toml", cwd=tmp_path,
                   history=tmp_path / "h.sqlite3")
    assert time.monotonic() - started < 5
    assert result.returncode == 0, result.stderr
    assert "2,000,000 games: 1 pairings x 1,000,000 boards x 2 games" in result.stdout


SMALL_SCHEDULES = st.fixed_dictionaries({
    "bots": st.integers(2, 6), "players": st.integers(2, 4), "duplicate": st.booleans(),
    "games": st.integers(1, 4), "gauntlet": st.booleans()})


@settings(max_examples=60, deadline=None, derandomize=bool(os.environ.get("CI")),
          database=None)
@given(shape=SMALL_SCHEDULES, data=st.data())
def test_the_lazy_schedule_resumes_exactly_after_the_finished_games(
        shape: dict[str, Any], data: st.DataObject) -> None:
    """Whatever games are finished (any subset), the games left to play are exactly the
    others, in index order, the same as the full schedule lists them."""
    players = min(shape["players"], shape["bots"])
    config = load_tournament_from_shape(shape, players)
    full = list(schedule(config))
    assert len(full) == total_games(config)
    assert [g.index for g in full] == list(range(len(full)))
    start = data.draw(st.integers(0, len(full) + 2))
    assert list(schedule(config, start)) == full[start:]
    finished = data.draw(st.sets(st.integers(0, len(full) - 1)))
    assert list(unfinished(config, finished)) == [g for g in full if g.index not in finished]


def load_tournament_from_shape(shape: dict[str, Any], players: int) -> Any:
    bots = "".join(f'\n[[bots]]\nname = "b{i}"\nbot = "random"\n'
                   for i in range(shape["bots"]))
    fmt = 'format = "gauntlet"\ngauntlet = "b0"\n' if shape["gauntlet"] else ""
    text = (f"seed = 3\nplayers = {players}\nmatches = {shape['games']}\n"
            f"duplicate = {str(shape['duplicate']).lower()}\n{fmt}{bots}")
    with tempfile.TemporaryDirectory() as folder:
        return load_tournament(write(Path(folder), text))


# --- bounds ----------------------------------------------------------------------------------

BASE = "seed = 1\nmatches = 2\n"
OUT_OF_BOUNDS = [
    # (a line replacing or added to BASE + TWO_BOTS, the key, a fragment of the message)
    ("seed = 99999999999999999999", "seed", "64 bits"),
    ("seed = -9223372036854775809", "seed", "64 bits"),
    ("seed = 1.5", "seed", "expected an integer"),
    ("matches = 1000001", "matches", "at most 1,000,000"),
    ("matches = -3", "matches", "at least 1"),
    ("matches = inf", "matches", "got inf"),
    ("players = 100000000000000000000000000000", "players", "2 to 8"),
    ("time_limit = nan", "time_limit", "got nan"),
    ("time_limit = inf", "time_limit", "got inf"),
    ("time_limit = -inf", "time_limit", "got -inf"),
    ("time_limit = 1e-300", "time_limit", "from 0.001 to 3600"),
    ("time_limit = 86400", "time_limit", "from 0.001 to 3600"),
    ("time_limit = 1" + "0" * 400, "time_limit", "from 0.001 to 3600"),
    ('[stop]\nrule = "sprt"\nalpha = 1e-300', "stop.alpha", "from 0.0001 to below 0.5"),
    ('[stop]\nrule = "sprt"\nbeta = nan', "stop.beta", "expected a number, got nan"),
    ('[stop]\nrule = "sprt"\nelo0 = -inf', "stop.elo0", "expected a number, got -inf"),
    ('[stop]\nrule = "sprt"\nelo1 = 1e400', "stop.elo1", "expected a number, got inf"),
    ('[stop]\nrule = "sprt"\nelo1 = 5000', "stop.elo1", "from -2000 to 2000"),
    ('[stop]\nrule = "sprt"\nelo0 = 0\nelo1 = 1e-300', "stop.elo1", "by at least 0.1"),
    ('[stop]\nrule = "sprt"\nelo0 = ' + "9" * 500, "stop.elo0", "from -2000 to 2000"),
    ('[[bots]]\nbot = "easy"\nseed = 18446744073709551616', "bots[3].seed", "64 bits"),
    ('[[bots]]\nbot = "hard"\nmistakes = nan', "bots[3].mistakes", "from 0 to 1"),
]


@pytest.mark.parametrize(("line", "key", "fragment"), OUT_OF_BOUNDS,
                         ids=[case[0].splitlines()[-1][:30] for case in OUT_OF_BOUNDS])
def test_every_number_has_bounds_and_a_located_line(tmp_path: Path, line: str, key: str,
                                                    fragment: str) -> None:
    first = line.split(" = ")[0]
    if first in ("seed", "matches"):
        text = BASE.replace(BASE.splitlines()[0 if first == "seed" else 1], line) + TWO_BOTS
    elif line.startswith("["):
        text = BASE + TWO_BOTS + line + "\n"
    else:
        text = BASE + line + "\n" + TWO_BOTS
    path = write(tmp_path, text)
    wanted = text.splitlines().index(line.splitlines()[-1]) + 1
    with pytest.raises(TournamentError) as info:
        load_tournament(path)
    message = str(info.value)
    assert message.startswith(f"{path}:{wanted}: {key}: "), message
    assert fragment in message, message
    assert "\n" not in message and len(message) < len(str(path)) + 300, message
    result = trash("tournament", "check", path, cwd=tmp_path, history=tmp_path / "h.sqlite3")
    assert one_line_error(result) == f"trash: error: {message}"


def test_too_many_bots_is_one_line(tmp_path: Path) -> None:
    bots = "".join(f'\n[[bots]]\nname = "b{i}"\nbot = "random"\n' for i in range(65))
    path = write(tmp_path, BASE + bots)
    with pytest.raises(TournamentError, match=r": bots: at most 64 bots; this file has 65$"):
        load_tournament(path)


# --- where runs go, and what reaches the terminal ---------------------------------------------

TINY = """\
name = "tiny"
seed = 2
deals = 1
duplicate = true

[rules]
start_size = 2
""" + TWO_BOTS


def test_runs_go_beside_the_history_database_unless_out_says(tmp_path: Path) -> None:
    """As the app's Tournaments screen does, whatever folder the command is run from; the
    folder is said when the run starts."""
    data = tmp_path / "data"
    data.mkdir()
    write(tmp_path / "files", TINY, "tiny.toml")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = trash("tournament", "run", tmp_path / "files" / "tiny.toml", cwd=elsewhere,
                   history=data / "history.sqlite3")
    assert result.returncode == 0, result.stderr
    out = data / "runs" / "tiny"
    assert (out / "games.jsonl").exists() and (out / "results.json").exists()
    assert list(elsewhere.iterdir()) == []
    assert f"tiny: 2 games; output folder {out}" in result.stderr
    assert f"results in {out / 'results.json'}" in result.stdout

    again = trash("tournament", "run", tmp_path / "files" / "tiny.toml", "--out", "mine",
                  cwd=elsewhere, history=data / "history.sqlite3")
    assert again.returncode == 0, again.stderr
    assert (elsewhere / "mine" / "games.jsonl").exists()
    assert "output folder mine" in again.stderr

    resumed = trash("tournament", "run", tmp_path / "files" / "tiny.toml", cwd=elsewhere,
                    history=data / "history.sqlite3")
    assert (f"tiny: 2 of 2 games already played, from {out / 'games.jsonl'}; --fresh starts "
            f"a new run; output folder {out}") in resumed.stderr


HOSTILE = """\
name = "cup\\u001b[2J\\u001b]0;owned\\u0007"
seed = 2
deals = 1

[rules]
start_size = 2

[[bots]]
name = "evil\\u001b[31m\\u202e"
bot = "greedy"

[[bots]]
name = "bell\\u0007\\r\\nforged line"
bot = "random"
"""


def assert_safe(text: str) -> None:
    assert not any(is_unsafe(c) for c in text.replace("\n", "")), repr(text)


def test_names_from_a_file_reach_the_terminal_without_control_characters(
        tmp_path: Path) -> None:
    history = tmp_path / "h.sqlite3"
    write(tmp_path, HOSTILE)
    for command in (["check", "t.toml"], ["run", "t.toml", "--out", "out"], ["list"],
                    ["show", "1"]):
        result = trash("tournament", *command, cwd=tmp_path, history=history)
        assert result.returncode == 0, result.stderr
        assert_safe(result.stdout)
        assert_safe(result.stderr)
        assert "evil" in result.stdout + result.stderr or command == ["list"]
    lines = trash("tournament", "run", "t.toml", "--out", "out", cwd=tmp_path,
                  history=history).stdout.splitlines()
    assert not any(line.startswith("forged line") for line in lines)


@pytest.mark.parametrize("line", [
    'gauntlet = "\\u001b]0;owned\\u0007"',
    'format = "\\u001b[2J"',
    '"\\u001b[2Jkey" = 1',
    'name = ["\\u202e", ' + "[" * 60 + "]" * 60 + "]",
])
def test_errors_quoting_the_file_escape_control_characters(tmp_path: Path, line: str) -> None:
    path = write(tmp_path, BASE + line + "\n" + TWO_BOTS)
    result = trash("tournament", "run", path, "--out", "out", cwd=tmp_path,
                   history=tmp_path / "h.sqlite3")
    message = one_line_error(result, "t.toml:3: ")
    assert_safe(message)
    assert len(message) < len(str(path)) + 300


def test_the_live_progress_bar_shows_bot_names_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal the bar names the leader; a name that looks like rich markup (or holds
    control characters) is shown as it is written, cleaned, and never breaks the bar."""
    from trash_tui.cli.tournament_cmd import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    progress = Progress(["[/x]\x1b[2J", "[bold]b"], 4)
    progress(1, 4, 0.5, {0: {"seats": [0, 1], "places": [1, 2]}})
    progress(4, 4, 1.0, {0: {"seats": [0, 1], "places": [1, 2]}})
    progress.close()
    shown = terminal.getvalue()
    assert "leader [/x][2J 100.0%" in shown and "\x1b[2J" not in shown


def test_lines_of_games_jsonl_that_are_not_games_are_played_again(
        tmp_path: Path, recorded_reference: dict[str, Any]) -> None:
    """An output folder is input too when a run continues: lines that are not games of this
    tournament (edited, repeated, other bytes) are dropped and their games played again,
    with no traceback and the same results."""
    path = write(tmp_path, RECORDED)
    out = tmp_path / "out"
    run_records(path, out, tmp_path / "h.sqlite3")
    lines = (out / "games.jsonl").read_bytes().splitlines(True)
    edited = dict(json.loads(lines[12]), places=[9, 9])
    damaged = [*lines[:3], b'{"index": 3, "seats": "x"}\n', *lines[4:7], b"[1, 2]\n",
               b"\xff\xfe not text\n", *lines[8:12], lines[10],
               json.dumps(dict(json.loads(lines[0]), index=999)).encode() + b"\n",
               json.dumps(edited).encode() + b"\n", *lines[13:]]
    (out / "games.jsonl").write_bytes(b"".join(damaged))

    result = trash("tournament", "run", path, "--out", out, "--records", cwd=tmp_path,
                   history=tmp_path / "fresh.sqlite3")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "3 games played now" in result.stdout  # games 3, 7 and 12
    assert games_by_index(out) == recorded_reference["games"]
    assert records_by_game(out) == recorded_reference["records"]


def test_a_full_disk_stops_the_run_in_one_line_and_the_run_continues_later(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        recorded_reference: dict[str, Any]) -> None:
    import errno

    path = write(tmp_path, RECORDED)
    history = tmp_path / "h.sqlite3"
    appends = Counter[str]()
    original_open = Path.open

    def open_until_full(self: Path, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if mode == "a" and self.name == "games.jsonl":
            appends[self.name] += 1
            if appends[self.name] > 2:
                raise OSError(errno.ENOSPC, "No space left on device")
        return original_open(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_until_full)
    full = trash("tournament", "run", path, "--out", "out", "--records", cwd=tmp_path,
                 history=history)
    monkeypatch.undo()
    # what the run said when it started, then the error in one line
    assert full.returncode == 2 and "Traceback" not in full.stderr, full.stderr
    started, error = full.stderr.splitlines()
    assert started == "recorded: 24 games; output folder out"
    assert error.startswith("trash: error: cannot write out/games.jsonl: No space left on "
                            "device; what was played is kept"), error
    result = trash("tournament", "run", path, "--out", "out", "--records", cwd=tmp_path,
                   history=history)
    assert result.returncode == 0, result.stderr
    assert games_by_index(tmp_path / "out") == recorded_reference["games"]
    assert records_by_game(tmp_path / "out") == recorded_reference["records"]
