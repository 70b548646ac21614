"""Strangers' bots that stall the runner or remember one game in the next
(tests/hostile_bots/): a bot that never answers, closes its output, or writes half a line
forfeits with a one-line reason within its wall-clock limits (a default for every bot
process) and the tournament goes on; a sandboxed bot gets a fresh process, sandbox and
/tmp for every game, so a duplicate board's deck cannot be remembered from one seat
rotation to the next.

A match that could hang is played in a child process with a timeout: a hang fails the
test instead of stopping the suite.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_cli import assert_one_line_error, trash

from bots import external, process
from bots.cgroups import missing as group_missing
from bots.sandbox import problem
from trash_tui.players.rater import open_history
from trash_tui.tournament.config import load_tournament
from trash_tui.tournament.runner import run_tournament

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).with_name("hostile_bots")
SEED = 8731906650228510123
PROBLEM = problem()
NO_SANDBOX = PROBLEM is not None and ("kernel refuses" in PROBLEM or "needs Linux" in PROBLEM)
needs_sandbox = pytest.mark.skipif(NO_SANDBOX, reason=f"the sandbox cannot run here: {PROBLEM}")

MATCH = """\
import json, sys
sys.path.insert(0, {root!r})
from bots.external import external_bot
from bots.registry import make_bot
from bots.runner import BotFailure, play_match
from trash_tui.rules import Rules
bot = external_bot(json.loads({spec!r}), 1)
try:
    play_match(Rules(), [bot, make_bot("greedy", seed=2)], 7)
    print(json.dumps(None))
except BotFailure as exc:
    print(json.dumps([exc.kind, exc.detail]))
"""


def entries(where: Path) -> Path:
    """``where`` holding a copy of the hostile bots."""
    shutil.copytree(HOSTILE, where)
    where.chmod(0o755)  # a root runner's sandboxed bot runs as another user: it must read
    return where


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return entries(tmp_path / "entries")


class Match:
    """One match of a hostile bot against greedy, played in a child process from now."""

    def __init__(self, where: Path, script: str, sandbox: bool, **keys: Any) -> None:
        spec = {"name": Path(script).stem, "command": [sys.executable, script],
                "cwd": str(where), **keys}
        if sandbox:
            spec["sandbox"] = True
        self.script = script
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-c", MATCH.format(root=str(ROOT), spec=json.dumps(spec))],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def forfeit(self, timeout: float) -> tuple[str, str] | None:
        """The bot's forfeit (kind, detail); the test fails if the match has not ended
        within ``timeout`` seconds of its start."""
        left = max(0.0, self.started + timeout - time.monotonic())
        try:
            out, err = self.process.communicate(timeout=left)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()
            pytest.fail(f"{self.script} hung the match: no end within {timeout:g} s")
        assert self.process.returncode == 0, err
        result = json.loads(out.strip().splitlines()[-1])
        return None if result is None else tuple(result)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()


def forfeit(where: Path, script: str, sandbox: bool, timeout: float,
            **keys: Any) -> tuple[str, str] | None:
    """The forfeit (kind, detail) of the hostile bot in one match against greedy, played
    in a child process; the test fails if the match has not ended within ``timeout``."""
    return Match(where, script, sandbox, **keys).forfeit(timeout)


# --- a bot that never answers ------------------------------------------------------------

@pytest.fixture(scope="module")
def silent_matches(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[bool, Match]]:
    """A never-answering bot's match in and (where it runs) out of the sandbox, both
    started at once: each waits out the default move limit, 10 s, and nothing else."""
    where = entries(tmp_path_factory.mktemp("silent") / "entries")
    matches = {sandbox: Match(where, "silent.py", sandbox)
               for sandbox in ([False] if NO_SANDBOX else [True, False])}
    yield matches
    for match in matches.values():
        match.stop()


@pytest.mark.parametrize("sandbox", [pytest.param(True, marks=needs_sandbox), False])
def test_a_bot_that_never_answers_forfeits_at_the_default_move_limit(
        silent_matches: dict[bool, Match], sandbox: bool) -> None:
    kind, detail = silent_matches[sandbox].forfeit(timeout=25)
    assert kind == "timeout"
    assert detail == "no answer within 10 s (its move limit, move_limit = 10)"


def test_a_bot_that_closes_its_output_forfeits_at_once(folder: Path) -> None:
    kind, detail = forfeit(folder, "close_stdout.py", False, timeout=8, move_limit=60)
    assert (kind, detail) == ("exit", "closed its output while still running")


@needs_sandbox
def test_a_sandboxed_bot_that_closes_its_output_forfeits_at_its_move_limit(
        folder: Path) -> None:
    # bwrap's own two processes hold the pipe too: the runner sees no end of file
    kind, detail = forfeit(folder, "close_stdout.py", True, timeout=8, move_limit=2)
    assert (kind, detail) == ("timeout", "no answer within 2 s (its move limit, "
                                         "move_limit = 2)")


@pytest.mark.parametrize("sandbox", [pytest.param(True, marks=needs_sandbox), False])
def test_a_bot_that_writes_half_a_line_forfeits_at_its_move_limit(
        folder: Path, sandbox: bool) -> None:
    kind, detail = forfeit(folder, "partial_line.py", sandbox, timeout=8, move_limit=1)
    assert (kind, detail) == ("timeout", "no answer within 1 s (its move limit, "
                                         "move_limit = 1); it wrote 15 bytes with no end "
                                         "of line")


def test_a_slow_bot_forfeits_when_its_game_limit_runs_out(folder: Path) -> None:
    kind, detail = forfeit(folder, "slow.py", False, timeout=20, game_limit=0.5,
                           env={"DELAY": "0.05"})
    assert kind == "timeout"
    assert detail.startswith("no answer within 0.")
    assert detail.endswith("(its game limit ran out: 0.5 s of answers in one game, "
                           "game_limit = 0.5)")


# --- the tournament goes on --------------------------------------------------------------

@pytest.mark.parametrize("sandbox", [pytest.param(True, marks=needs_sandbox), False])
def test_a_tournament_of_stalling_bots_goes_on_with_their_forfeits(
        folder: Path, sandbox: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # None of these bots answers a match_end, and close_stdout never exits: how long the
    # runner waits for either is not what this test checks (the tests above check the
    # forfeits' one-line reasons), so it waits less (a tenth of 5 s, of 1 s).
    monkeypatch.setattr(external, "NOTE_TIMEOUT", 0.5)
    monkeypatch.setattr(process, "EXIT_WAIT", 0.2)
    # the entrants' folder apart from the organiser's (which a sandbox never shows)
    bots = "".join(f'[[bots]]\nname = "{name}"\ncommand = ["{sys.executable}", "{name}.py"]\n'
                   f'cwd = "{folder}"\nmove_limit = 0.3\n\n'
                   for name in ("silent", "close_stdout", "partial_line"))
    organiser = folder.parent
    (organiser / "t.toml").write_text(
        f"seed = {SEED}\nmatches = 1\n\n[sandbox]\nenabled = {str(sandbox).lower()}\n\n"
        f'{bots}[[bots]]\nbot = "greedy"\n', encoding="utf-8")
    config = load_tournament(organiser / "t.toml")
    with open_history(organiser / "history.db") as history:
        outcome = run_tournament(config, organiser / "out", history=history)
    assert outcome.status == "finished" and len(outcome.games) == 6
    kinds = {(game["forfeit"]["bot"], game["forfeit"]["kind"]) for game in outcome.games
             if game["forfeit"]}
    stopped = "timeout" if sandbox else "exit"
    assert kinds == {("silent", "timeout"), ("close_stdout", stopped),
                     ("partial_line", "timeout")}
    forfeited = [game for game in outcome.games if game["forfeit"]]
    assert all("\n" not in game["forfeit"]["detail"] for game in forfeited)


# --- what check says -----------------------------------------------------------------------

def test_check_says_the_wall_clock_limits_of_every_bot_process(folder: Path) -> None:
    (folder / "t.toml").write_text(
        f'seed = {SEED}\nmatches = 1\ntime_limit = 4\n\n'
        f'[[bots]]\nname = "slow"\ncommand = ["{sys.executable}", "slow.py"]\n\n'
        f'[[bots]]\nname = "quick"\ncommand = ["{sys.executable}", "slow.py"]\n'
        'move_limit = 0.5\ngame_limit = 30\n\n[[bots]]\nbot = "greedy"\n', encoding="utf-8")
    done = trash("tournament", "check", str(folder / "t.toml"), cwd=folder)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert ("limits of bot slow: 4 s a move (time_limit), 600 s of answers a game (default), "
            "wall clock; then it forfeits") in lines
    assert ("limits of bot quick: 0.5 s a move (move_limit), 30 s of answers a game "
            "(game_limit), wall clock; then it forfeits") in lines
    assert not any("bot greedy" in line for line in lines)  # in the runner's process
    assert ("resources of bot slow: 600 s of CPU (default) and 1024 MiB (default) for each "
            "of its processes") in lines  # not sandboxed: per process


def test_check_says_what_a_sandboxed_bot_may_use_and_for_whom(folder: Path) -> None:
    (folder / "t.toml").write_text(
        f'seed = {SEED}\nmatches = 1\n\n[sandbox]\nenabled = true\nprocesses = 12\n\n'
        f'[[bots]]\nname = "slow"\ncommand = ["{sys.executable}", "slow.py"]\n'
        'cpu_limit = 30\nmemory_limit = 256\n\n[[bots]]\nbot = "greedy"\n',
        encoding="utf-8")
    done = trash("tournament", "check", str(folder / "t.toml"), cwd=folder)
    assert done.returncode == 0, done.stderr
    whose = ("each of its processes" if group_missing() else "its processes together")
    assert (f"resources of bot slow: 30 s of CPU (cpu_limit) and 256 MiB (memory_limit) for "
            f"{whose}; 12 processes, 256 open files, 64 MiB in /tmp and in /dev/shm"
            ) in done.stdout.splitlines(), done.stdout


def test_a_wrong_move_limit_is_one_line_with_exit_status_2(folder: Path) -> None:
    (folder / "t.toml").write_text(
        f'seed = {SEED}\nmatches = 1\n\n[[bots]]\nname = "slow"\n'
        f'command = ["{sys.executable}", "slow.py"]\nmove_limit = 0\n\n'
        '[[bots]]\nbot = "greedy"\n', encoding="utf-8")
    done = trash("tournament", "check", str(folder / "t.toml"), cwd=folder)
    assert_one_line_error(done, "t.toml:7: bots[1].move_limit: bot slow: move_limit must be a "
                                "number of seconds from 0.001 to 3600, got 0")


# --- memory of a duplicate board -----------------------------------------------------------

def _remember_tournament(folder: Path, sandbox: bool) -> str:
    """A duplicate tournament of the remembering bot against greedy (two boards, each in
    both seat rotations, one worker): the bot's log."""
    organiser = folder.parent  # apart from the entrant's folder
    (organiser / "t.toml").write_text(
        f"seed = {SEED}\nmatches = 2\nduplicate = true\n\n"
        f'[[bots]]\nname = "remember"\ncommand = ["{sys.executable}", "remember.py"]\n'
        f'cwd = "{folder}"\nsandbox = {str(sandbox).lower()}\n\n'
        '[[bots]]\nbot = "greedy"\n', encoding="utf-8")
    config = load_tournament(organiser / "t.toml")
    with open_history(organiser / "history.db") as history:
        outcome = run_tournament(config, organiser / "out", history=history)
    assert outcome.status == "finished" and len(outcome.games) == 4
    assert not any(game["forfeit"] for game in outcome.games)
    return (organiser / "out" / "logs" / "remember.log").read_text(errors="replace")


@needs_sandbox
def test_a_sandboxed_bot_remembers_nothing_of_the_board_it_played_before(
        folder: Path) -> None:
    log = _remember_tournament(folder, True)
    assert "LEARNED" not in log, log
    assert log.count("REFUSED no memory of an earlier game") == 4


def test_without_the_sandbox_a_kept_process_predicts_a_duplicate_boards_deck(
        folder: Path) -> None:
    memo = Path("/tmp/remember.json")  # without the sandbox, the host's /tmp
    memo.unlink(missing_ok=True)
    try:
        log = _remember_tournament(folder, False)
    finally:
        memo.unlink(missing_ok=True)
    lines = [line.removeprefix("| ") for line in log.splitlines()]  # (a bot's log lines)
    learned = [line for line in lines if line.startswith("LEARNED predicted")]
    assert len(learned) == 2, log  # the second game of each board
    counts = [tuple(map(int, line.split()[2:5:2])) for line in learned]
    right, tried = map(sum, zip(*counts, strict=True))
    assert right >= 10 and right >= 0.8 * tried, log  # cards known before it drew them


@needs_sandbox
def test_a_sandboxed_bot_kept_across_games_is_refused_in_one_line(folder: Path) -> None:
    (folder / "t.toml").write_text(
        f'seed = {SEED}\nmatches = 1\n\n[[bots]]\nname = "remember"\n'
        f'command = ["{sys.executable}", "remember.py"]\nsandbox = true\nrestart = "never"\n\n'
        '[[bots]]\nbot = "greedy"\n', encoding="utf-8")
    done = trash("tournament", "check", str(folder / "t.toml"), cwd=folder)
    assert_one_line_error(done, "bots[1].restart: bot remember: restart must be "
                                "\"per-match\" in the sandbox")
