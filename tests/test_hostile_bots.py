"""Strangers' bots that attack the runner (tests/hostile_bots/, one tiny script per attack),
each played with and without the sandbox (``sandbox = true``, bots/sandbox.py).

In the sandbox every attack learns nothing, leaves nothing running and is refused, and a
tournament of them all finishes with the one forfeit it should have. Without the sandbox
the tests write down what is protected anyway (the runner is not dumpable; a bot's group
is killed) and what is not (the runner's command line, the tournament file and its seed,
a sleeper in a session of its own, the network, the file system).

Each bot's folder lies in the tournament file's folder, beside the run's output and the
history database (a bot whose folder holds them sees only the files its command names
there: tests/test_sandbox_view.py). The sandboxed tests are skipped, with the reason, only where the
kernel refuses user namespaces; without bwrap they fail with the line saying to install it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from bots.cgroups import missing
from bots.external import external_bot
from bots.process import BotLog
from bots.registry import make_bot
from bots.runner import BotFailure, play_match
from bots.sandbox import is_dumpable, problem
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules
from trash_tui.tournament.config import load_tournament
from trash_tui.tournament.runner import run_tournament

HOSTILE = Path(__file__).with_name("hostile_bots")
SEED = 8731906650228510123  # a tournament seed no bot can guess
PROBLEM = problem()
#: Skipped only where the kernel refuses namespaces (or this is not Linux); a machine that
#: lacks bwrap fails these tests with the sandbox's own one-line error (install bubblewrap).
needs_sandbox = pytest.mark.skipif(
    PROBLEM is not None and ("kernel refuses" in PROBLEM or "needs Linux" in PROBLEM),
    reason=f"the sandbox cannot run here: {PROBLEM}")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The hostile bots in a folder inside the folder of a tournament file, a run's files
    and a history database."""
    where = tmp_path / "entries"
    shutil.copytree(HOSTILE, where)
    where.chmod(0o755)  # a root runner's sandboxed bot runs as another user: it must read
    tmp_path.chmod(0o755)
    (tmp_path / "t.toml").write_text(f"seed = {SEED}\nmatches = 1\n", encoding="utf-8")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "games.jsonl").write_text('{"index": 0}\n', encoding="utf-8")
    (tmp_path / "history.db").write_bytes(b"SQLite format 3\0" + bytes(100))
    return where


def _hidden(where: Path) -> list[str]:
    return [str(where.parent / "t.toml"), str(where.parent / "out"),
            str(where.parent / "history.db")]


def play(where: Path, script: str, sandbox: bool, env: dict[str, str] | None = None,
         **limits: int) -> tuple[BotFailure | None, str]:
    """One match of the hostile bot against greedy: its failure (or None) and its log."""
    command = [sys.executable, script] if script.endswith(".py") else ["sh", script]
    spec: dict = {"name": Path(script).stem, "command": command, "cwd": str(where),
                  "env": env or {}, "restart": "per-match"}
    if sandbox:
        spec["sandbox"] = {"hidden": _hidden(where), **limits}
    bot = external_bot(spec, 1)
    log = where.parent / f"{Path(script).stem}-{'in' if sandbox else 'out'}.log"
    bot.log = BotLog(log)
    failure = None
    try:
        play_match(Rules(), [bot, make_bot("greedy", seed=2)], 7)
    except BotFailure as exc:
        failure = exc
    return failure, log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""


def running(word: str) -> list[int]:
    """The processes whose command line holds ``word``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(word.encode() in part for part in words):
            found.append(int(entry.name))
    return found


def gone(word: str, wait: float = 3.0) -> bool:
    deadline = time.monotonic() + wait
    while running(word):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _may_trace() -> bool:
    """Whether this process may read a non-dumpable process of its user (CAP_SYS_PTRACE)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("CapEff:"):
            return bool(int(line.split()[1], 16) >> 19 & 1)
    return False


# --- the runner's /proc --------------------------------------------------------------------

@needs_sandbox
def test_the_runners_proc_is_out_of_a_sandboxed_bots_reach(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = f"secret-{uuid.uuid4().hex}"
    monkeypatch.setenv("TRASH_TEST_SECRET", secret)
    runner = str(os.getpid())
    failure, log = play(folder, "proc_parent.py", True, {"RUNNER_PID": runner})
    assert failure is None, failure
    assert f"REFUSED cmdline of {runner}: No such file or directory" in log  # not in sight
    for what in ("cmdline", "environ", "mem"):
        assert f"LEARNED {what} of {runner}" not in log
    # its parent is the sandbox's first process (bwrap, started with PATH alone, its
    # options read from a pipe): an ordinary user's bot may read it, and learns nothing
    # (its log shows the line as written, each backslash doubled)
    assert "LEARNED cmdline of 1: b'bwrap\\\\x00--args\\\\x00" in log
    assert secret not in log and str(SEED) not in log and str(folder) not in log
    assert is_dumpable() is False  # the runner that started a bot is not dumpable


def test_without_the_sandbox_the_runners_command_line_is_open_its_memory_is_not(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = f"secret-{uuid.uuid4().hex}"
    monkeypatch.setenv("TRASH_TEST_SECRET", secret)
    runner = str(os.getpid())
    failure, log = play(folder, "proc_parent.py", False, {"RUNNER_PID": runner})
    assert failure is None, failure
    assert f"LEARNED cmdline of {runner}:" in log  # not protected without the sandbox
    assert is_dumpable() is False
    if _may_trace():  # root with CAP_SYS_PTRACE reads any process: only the sandbox helps
        assert f"LEARNED mem of {runner}" in log
    else:  # PR_SET_DUMPABLE off: the environment and the memory are refused
        assert f"REFUSED environ of {runner}" in log
        assert f"REFUSED mem of {runner}" in log
        assert secret not in log


# --- the tournament file and its seed ----------------------------------------------------

@needs_sandbox
def test_a_sandboxed_bot_finds_no_tournament_file_seed_run_or_history(folder: Path) -> None:
    failure, log = play(folder, "seed_hunt.py", True)
    assert failure is None, failure
    assert "LEARNED" not in log, log
    assert str(SEED) not in log  # the folder above, which holds them, is out of sight


def test_without_the_sandbox_a_bot_reads_the_seed_and_the_run(folder: Path) -> None:
    failure, log = play(folder, "seed_hunt.py", False)
    assert failure is None, failure
    assert f"LEARNED seed {SEED} from" in log
    assert "LEARNED run file" in log


# --- processes that outlive the bot ------------------------------------------------------

@needs_sandbox
def test_a_sleeper_in_its_own_session_dies_with_the_sandbox(folder: Path) -> None:
    seconds = f"3604.{uuid.uuid4().int % 10**6:06d}"
    failure, log = play(folder, "double_fork.sh", True, {"SLEEP_SECONDS": seconds})
    assert failure is not None and failure.kind == "exit"
    assert "exited with status 3" in failure.detail
    assert "started a sleeper" in log
    assert gone(seconds), "the sleeper survived the sandbox"


def test_without_the_sandbox_a_sleeper_in_its_own_session_survives(folder: Path) -> None:
    seconds = f"3604.{uuid.uuid4().int % 10**6:06d}"
    failure, _ = play(folder, "double_fork.sh", False, {"SLEEP_SECONDS": seconds})
    try:
        assert failure is not None and failure.kind == "exit"
        assert not gone(seconds, wait=0.3)  # it left the bot's group: not protected
    finally:
        for pid in running(seconds):
            os.kill(pid, 9)


@needs_sandbox
def test_a_fork_bomb_is_refused_in_the_sandbox_and_leaves_nothing(folder: Path) -> None:
    failure, log = play(folder, "fork_bomb.py", True, {"FORK_CAP": "500"}, processes=24)
    assert failure is None, failure
    assert "REFUSED fork after" in log, log
    count = int(log.split("REFUSED fork after ")[1].split()[0])
    assert count < 24
    assert gone(str(folder / "fork_bomb.py"))


def test_without_the_sandbox_nothing_refuses_forks_but_the_group_is_killed(
        folder: Path) -> None:
    failure, log = play(folder, "fork_bomb.py", False, {"FORK_CAP": "60"})
    assert failure is None, failure
    assert "LEARNED forked 60 processes, never refused" in log
    assert gone(str(folder / "fork_bomb.py"))


# --- the network and the file system ---------------------------------------------------

@pytest.fixture
def listener() -> socket.socket:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    yield server
    server.close()


@needs_sandbox
def test_a_sandboxed_bot_has_no_network(folder: Path, listener: socket.socket) -> None:
    port = str(listener.getsockname()[1])
    failure, log = play(folder, "connect.py", True, {"PORT": port})
    assert failure is None, failure
    assert f"REFUSED connect to 127.0.0.1:{port}" in log


def test_without_the_sandbox_a_bot_reaches_the_network(folder: Path,
                                                       listener: socket.socket) -> None:
    port = str(listener.getsockname()[1])
    failure, log = play(folder, "connect.py", False, {"PORT": port})
    assert failure is None, failure
    assert f"LEARNED connected to 127.0.0.1:{port}" in log


@needs_sandbox
def test_a_sandboxed_bot_writes_only_in_its_private_tmp(folder: Path, tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir(mode=0o777)
    token = uuid.uuid4().hex
    failure, log = play(folder, "write_outside.py", True,
                        {"TARGET": str(target), "TOKEN": token})
    assert failure is None, failure
    assert f"REFUSED write {folder / f'written-{token}'}" in log
    assert f"REFUSED write {target / f'written-{token}'}" in log
    assert f"LEARNED wrote /tmp/written-{token}" in log  # its own /tmp, gone with it
    assert not Path(f"/tmp/written-{token}").exists()
    assert not (folder / f"written-{token}").exists()
    assert not (target / f"written-{token}").exists()


def test_without_the_sandbox_a_bot_writes_anywhere_it_may(folder: Path,
                                                          tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    token = uuid.uuid4().hex
    try:
        failure, log = play(folder, "write_outside.py", False,
                            {"TARGET": str(target), "TOKEN": token})
        assert failure is None, failure
        assert f"LEARNED wrote {target / f'written-{token}'}" in log
        assert (folder / f"written-{token}").exists()
        assert (target / f"written-{token}").exists()
        assert Path(f"/tmp/written-{token}").exists()
    finally:
        Path(f"/tmp/written-{token}").unlink(missing_ok=True)


# --- a whole tournament of them -----------------------------------------------------------

@needs_sandbox
def test_a_tournament_of_hostile_bots_in_the_sandbox(folder: Path, tmp_path: Path,
                                                      listener: socket.socket,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    secret = f"secret-{uuid.uuid4().hex}"
    monkeypatch.setenv("TRASH_TEST_SECRET", secret)
    seconds = f"3604.{uuid.uuid4().int % 10**6:06d}"
    target = tmp_path / "target"
    target.mkdir(mode=0o777)
    env = (f'{{ RUNNER_PID = "{os.getpid()}", SLEEP_SECONDS = "{seconds}", FORK_CAP = "500", '
           f'PORT = "{listener.getsockname()[1]}", TARGET = "{target}", TOKEN = "t" }}')
    bots = "".join(
        f'[[bots]]\nname = "{Path(script).stem}"\n'
        f'command = [{"sh" if script.endswith(".sh") else sys.executable!r}, "{script}"]\n'
        f'cwd = "entries"\nenv = {env}\n\n'.replace("'", '"')
        for script in ("proc_parent.py", "seed_hunt.py", "double_fork.sh", "fork_bomb.py",
                       "connect.py", "write_outside.py"))
    top = folder.parent
    (top / "t.toml").write_text(
        f"seed = {SEED}\nmatches = 1\n\n[sandbox]\nenabled = true\nprocesses = 24\n\n"
        f'{bots}[[bots]]\nbot = "greedy"\n', encoding="utf-8")
    config = load_tournament(top / "t.toml")
    assert len(config.sandboxed) == 6
    (top / "history.db").unlink()
    shutil.rmtree(top / "out")
    with open_history(top / "history.db") as history:
        outcome = run_tournament(config, top / "out", history=history)
    assert outcome.status == "finished"
    assert len(outcome.games) == 21
    forfeits = {(game["forfeit"]["bot"], game["forfeit"]["kind"])
                for game in outcome.games if game["forfeit"]}
    assert forfeits == {("double_fork", "exit")}
    logs = "".join(path.read_text(errors="replace")
                   for path in (top / "out" / "logs").glob("*.log"))
    assert "REFUSED" in logs
    runner = os.getpid()
    for learned in ("LEARNED seed", "LEARNED run file", f"LEARNED cmdline of {runner}",
                    f"LEARNED environ of {runner}", f"LEARNED mem of {runner}",
                    "LEARNED connected", f"LEARNED wrote {folder}", f"LEARNED wrote {target}",
                    "LEARNED forked", secret, str(SEED)):
        assert learned not in logs
    assert gone(seconds) and gone(str(folder / "fork_bomb.py"))


RUNNER = """\
import sys
sys.path.insert(0, {root!r})
from bots.external import external_bot
from trash_tui.rules import Rules
bot = external_bot({{"name": "sleeper", "command": ["sh", "-c", {script!r}], "cwd": {cwd!r},
                    "sandbox": True}}, 1)
process = bot.launch.start()
print(process.read_line(30).decode(), flush=True)
sys.stdin.read()
"""


@needs_sandbox
def test_nothing_of_a_sandbox_survives_a_runner_killed_with_kill_9(folder: Path) -> None:
    seconds = f"3604.{uuid.uuid4().int % 10**6:06d}"
    script = (f"( setsid sleep {seconds} </dev/null >/dev/null 2>&1 & ); sleep 0.2; "
              "echo ready; exec sleep 3600")
    code = RUNNER.format(root=str(Path(__file__).resolve().parent.parent), script=script,
                         cwd=str(folder))
    runner = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert runner.stdout is not None
        assert runner.stdout.readline().strip() == "ready"
        assert running(seconds), "the sleeper never started"
        os.kill(runner.pid, 9)
        runner.wait()
        assert gone(seconds), "the sandbox's sleeper survived its runner's kill -9"
    finally:
        runner.kill()
        for pid in running(seconds):
            os.kill(pid, 9)


# --- a bot's processes together ---------------------------------------------------------
#: where this machine gives the runner no cgroup for a need, `trash bots check` says so
#: (tests/test_sandbox_cgroups.py) and these are skipped with the same words
MISSING = missing()


def needs_group(what: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(what in MISSING, reason=f"no cgroup here for the {what}")


@needs_sandbox
@needs_group("CPU time of its processes together")
def test_spinning_children_cannot_spend_more_cpu_than_the_bots_limit(folder: Path) -> None:
    """Each child stays under the CPU limit a process gets; together they are far over
    it: the bot forfeits once its processes together pass ``cpu_limit``."""
    failure, log = play_limited(folder, "spin_children.py", {"SPIN": "4", "PAUSE": "0.05"},
                                cpu_limit=2)
    assert failure is not None, log
    assert failure.kind == "exit", failure
    assert "its processes together used" in failure.detail, failure
    assert "over its CPU limit of 2 s" in failure.detail, failure
    assert "LEARNED spun" not in log
    assert gone(str(folder / "spin_children.py"))


@needs_sandbox
@needs_group("memory of its processes together")
def test_children_cannot_hold_more_memory_together_than_the_bots_limit(
        folder: Path) -> None:
    failure, log = play_limited(folder, "hoard_children.py",
                                {"CHILDREN": "4", "CHILD_MB": "48"}, memory_limit=128)
    assert "LEARNED 4 children hold 192 MiB together" not in log, log
    assert failure is not None, log
    assert "over its memory limit of 128 MiB" in failure.detail, failure
    assert gone(str(folder / "hoard_children.py"))


def play_limited(where: Path, script: str, env: dict[str, str], **limits: int
                 ) -> tuple[BotFailure | None, str]:
    """One sandboxed match of a hostile bot with the bot's own limits (``cpu_limit``,
    ``memory_limit``) against greedy."""
    spec: dict = {"name": Path(script).stem, "command": [sys.executable, script],
                  "cwd": str(where), "env": env, "restart": "per-match",
                  "sandbox": {"hidden": _hidden(where)}, **limits}
    bot = external_bot(spec, 1)
    log = where.parent / f"{Path(script).stem}-limited.log"
    bot.log = BotLog(log)
    failure = None
    try:
        play_match(Rules(), [bot, make_bot("greedy", seed=2)], 7)
    except BotFailure as exc:
        failure = exc
    return failure, log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
