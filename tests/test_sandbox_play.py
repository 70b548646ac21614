"""The sandbox changes nothing in play: a sandboxed bot and the same bot outside play the
identical games, and a tournament's results are the same with ``[sandbox]`` on or off.
A sandbox that cannot run, or a broken ``sandbox`` key, is one clear line, never a
traceback. Skipped, with the reason, only where the kernel refuses namespaces."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bots.external import close_idle, external_bot
from bots.protocol import BotProtocolError
from bots.registry import make_bot
from bots.runner import play_match
from bots.sandbox import Sandbox, problem, sandbox_command
from trash_tui.engine.record import match_record
from trash_tui.rules import Rules
from trash_tui.tournament.config import (
    TournamentError,
    config_fingerprint,
    load_tournament,
)
from trash_tui.tournament.runner import run_tournament

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "bots" / "examples"
PROBLEM = problem()
#: Skipped only where the kernel refuses namespaces (or this is not Linux); a machine that
#: lacks bwrap fails these tests with the sandbox's own one-line error (install bubblewrap).
needs_sandbox = pytest.mark.skipif(
    PROBLEM is not None and ("kernel refuses" in PROBLEM or "needs Linux" in PROBLEM),
    reason=f"the sandbox cannot run here: {PROBLEM}")


def _records(bots: list, matches: int = 6) -> list[dict]:
    records = []
    for seed in range(matches):
        match = play_match(Rules(), bots, 100 + seed)
        records.append(match_record(match, ["a", "b"]))
    return records


@needs_sandbox
@pytest.mark.parametrize("command", [[sys.executable, "greedy_bot.py"],
                                     ["sh", "greedy_awk.sh"]], ids=["python", "awk"])
def test_a_sandboxed_bot_plays_exactly_as_outside(command: list[str]) -> None:
    spec = {"name": "g", "command": command, "cwd": str(EXAMPLES)}
    outside = _records([external_bot(spec, 1), make_bot("greedy", seed=2)])
    inside = _records([external_bot({**spec, "sandbox": True}, 1), make_bot("greedy", seed=2)])
    close_idle()
    assert inside == outside


@needs_sandbox
def test_an_isolated_bot_in_the_sandbox_plays_as_in_process() -> None:
    sandboxed = {"bot": "greedy", "isolate": True, "sandbox": True}
    inside = _records([external_bot(sandboxed, 1), make_bot("greedy", seed=2)])
    local = _records([make_bot("greedy", seed=1), make_bot("greedy", seed=2)])
    close_idle()
    assert inside == local


def _tournament(folder: Path, sandbox: bool) -> Path:
    folder.mkdir()
    folder.chmod(0o755)
    shutil.copy(EXAMPLES / "greedy_bot.py", folder)
    path = folder / "t.toml"
    path.write_text(f"""seed = 4611686018427387903
matches = 3
[sandbox]
enabled = {'true' if sandbox else 'false'}
[[bots]]
name = "py"
command = ["{sys.executable}", "greedy_bot.py"]
[[bots]]
name = "iso"
bot = "normal"
isolate = true
[[bots]]
bot = "greedy"
""", encoding="utf-8")
    return path


@needs_sandbox
@pytest.mark.parametrize("workers", [1, 2])
def test_a_tournament_gives_the_same_results_in_the_sandbox(tmp_path: Path,
                                                            workers: int) -> None:
    """With the same secret: a run with sandboxed bots draws one (tests/
    test_tournament_secret.py), here both runs are given the same in their run.json."""
    games = {}
    secret = "0123456789abcdef" * 2
    for sandbox in (False, True):
        config = load_tournament(_tournament(tmp_path / f"s{sandbox}", sandbox))
        assert config.sandboxed == (("py", "iso") if sandbox else ())
        out = tmp_path / f"s{sandbox}" / "out"
        out.mkdir()
        (out / "run.json").write_text(json.dumps({
            "fingerprint": config_fingerprint(config), "seating": "balanced",
            "secret": secret}), encoding="utf-8")
        outcome = run_tournament(config, out, workers=workers)
        assert outcome.status == "finished"
        games[sandbox] = [(g["seats"], g["places"], g["turns"], g["forfeit"])
                          for g in outcome.games]
    assert games[True] == games[False]


@needs_sandbox
def test_the_sandbox_shows_its_first_process_no_path() -> None:
    """bwrap, the sandbox's first process, reads its options from a pipe: its command line
    (which every process inside may read) names no folder, file or setting."""
    prepared = sandbox_command(["cat", "/proc/1/cmdline"], "/tmp", {"PATH": "/usr/bin:/bin"},
                               Sandbox(hidden=("/secret/tournament.toml",)))
    popen = subprocess.Popen(prepared.argv, pass_fds=prepared.pass_fds,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    prepared.started(popen.pid)  # a root runner's namespace gets its maps here
    out, _ = popen.communicate(timeout=30)
    words = out.split(b"\0")
    assert words[:2] == [b"bwrap", b"--args"]
    assert b"/secret" not in out and b"--ro-bind" not in out


# --- clear errors ---------------------------------------------------------------------------

def test_a_sandbox_that_is_not_true_or_false_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('seed = 1\nmatches = 1\n[[bots]]\nbot = "greedy"\n'
                    '[[bots]]\nbot = "random"\nsandbox = "yes"\n', encoding="utf-8")
    with pytest.raises(TournamentError, match=r"t.toml:7: bots\[2\]\.sandbox: expected true "
                                              "or false"):
        load_tournament(path)


@pytest.mark.parametrize(("line", "message"), [
    ("processes = 0", r"t.toml:4: sandbox.processes: must be an integer from 1 to 4096"),
    ("tmp_mb = true", r"t.toml:4: sandbox.tmp_mb: must be an integer"),
    ("color = 1", r"t.toml:4: sandbox.color: unknown key; known keys are enabled"),
    ("enabled = 1", r"t.toml:4: sandbox.enabled: expected true or false"),
])
def test_a_broken_sandbox_table_is_a_located_error(tmp_path: Path, line: str,
                                                   message: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(f'seed = 1\nmatches = 1\n[sandbox]\n{line}\n[[bots]]\nbot = "greedy"\n'
                    '[[bots]]\nbot = "random"\n', encoding="utf-8")
    with pytest.raises(TournamentError, match=message):
        load_tournament(path)


def test_without_bwrap_a_sandboxed_bot_is_one_line_saying_what_to_install(
        tmp_path: Path) -> None:
    """The CLI in a process whose PATH has no bwrap: exit code 2, one line, no traceback."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("prlimit", "setpriv", "sh"):
        found = shutil.which(tool)
        if found:
            (tools / tool).symlink_to(found)
    path = tmp_path / "t.toml"
    path.write_text(f'seed = 1\nmatches = 1\n[[bots]]\nname = "py"\ncommand = '
                    f'["{sys.executable}", "x.py"]\nsandbox = true\n[[bots]]\nbot = "random"\n',
                    encoding="utf-8")
    (tmp_path / "x.py").write_text("", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "trash_tui.cli.main", "tournament", "check",
                           str(path)], capture_output=True, text=True, check=False,
                          cwd=ROOT, env={**os.environ, "PATH": str(tools)}, timeout=120)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "bots[1].sandbox" in lines[0]
    assert "the sandbox needs bwrap, which is not installed: install bubblewrap" in lines[0]
    assert "or set sandbox = false" in lines[0]


@needs_sandbox
def test_check_says_which_bots_are_sandboxed_and_that_the_sandbox_works(
        tmp_path: Path) -> None:
    path = _tournament(tmp_path / "t", True)
    text = path.read_text(encoding="utf-8").replace("seed = 4611686018427387903", "seed = 7")
    path.write_text(text + '[[bots]]\nname = "open"\ncommand = ["sh", "x.sh"]\n'
                    "sandbox = false\n", encoding="utf-8")
    (path.parent / "x.sh").write_text("", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "trash_tui.cli.main", "tournament", "check",
                           str(path)], capture_output=True, text=True, check=False, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "sandboxed: py, iso (the sandbox works on this machine)" in done.stdout
    assert "not sandboxed (they can read this file, its seed and the runner's processes): " \
        "open" in done.stdout
    assert "warning: seed" not in done.stdout  # the run's secret makes any seed safe
    assert "deals: from the seed and a secret drawn when a run starts" in done.stdout
    # its folder holds this file: it sees only the file its command names there
    folder = path.parent.resolve()
    reads = next(line for line in done.stdout.splitlines() if line.startswith("bot py reads"))
    assert f" {folder / 'greedy_bot.py'}," in reads and f" {folder}," not in reads
    assert f"note: bot py sees only the files its command names in {folder}: " in done.stdout


def test_a_bot_file_sandbox_key_is_no_bot_parameter() -> None:
    """``sandbox`` never reaches the bot's hello as a parameter."""
    bot = external_bot({"name": "g", "command": ["sh", "x"], "sandbox": False, "depth": 3})
    assert bot.params == {"depth": 3}
    assert json.loads(json.dumps(bot.params)) == {"depth": 3}


@needs_sandbox
def test_a_bot_file_outside_the_working_folder_loads_in_the_sandbox(tmp_path: Path) -> None:
    """An isolated bot file is read from its own folder, whatever ``cwd`` is."""
    entries = tmp_path / "entries"
    entries.mkdir(mode=0o755)
    entries.chmod(0o755)
    shutil.copy(EXAMPLES / "cautious.py", entries)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    elsewhere.chmod(0o755)
    spec = {"bot": str(entries / "cautious.py"), "isolate": True, "cwd": str(elsewhere)}
    local = _records([make_bot(str(entries / "cautious.py"), seed=1),
                      make_bot("greedy", seed=2)], 3)
    inside = _records([external_bot({**spec, "sandbox": True}, 1),
                       make_bot("greedy", seed=2)], 3)
    close_idle()
    assert inside == local


@needs_sandbox
def test_bots_check_says_how_each_bot_runs(tmp_path: Path) -> None:
    path = _tournament(tmp_path / "t", True)
    here = subprocess.run([sys.executable, "-m", "trash_tui.cli.main", "bots", "check"],
                          capture_output=True, text=True, check=False, cwd=ROOT, timeout=120)
    assert here.returncode == 0
    assert here.stdout.splitlines()[0] == ("the sandbox works on this machine (bubblewrap: "
                                           "sandbox = true)")
    done = subprocess.run([sys.executable, "-m", "trash_tui.cli.main", "bots", "check",
                           str(path)], capture_output=True, text=True, check=False, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:4] == [
        "py      command, sandboxed",
        "iso     isolated Python bot, sandboxed",
        "greedy  built in: runs in the runner's process",
        "sandboxed: py, iso (the sandbox works on this machine)"]


@needs_sandbox
def test_a_bot_whose_folder_is_the_root_sees_only_the_system(tmp_path: Path) -> None:
    prepared = sandbox_command(["ls", str(tmp_path)], "/", {"PATH": "/usr/bin:/bin"},
                               Sandbox())
    popen = subprocess.Popen(prepared.argv, pass_fds=prepared.pass_fds,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    prepared.started(popen.pid)
    out, _ = popen.communicate(timeout=30)
    assert b"No such file or directory" in out


@needs_sandbox
def test_a_sandboxed_cpu_burner_is_stopped_as_outside_and_its_time_is_counted() -> None:
    """The bot's own CPU time (not bwrap's) decides when a kept process is replaced, and a
    bot over its CPU limit is told so, as outside the sandbox (bwrap exits 128 + signal)."""
    spec = {"name": "burner", "command": ["sh", "-c", "while :; do :; done"], "cwd": "/tmp",
            "sandbox": True, "cpu_limit": 1}
    process = external_bot(spec, 1).launch.start()
    try:
        deadline = time.monotonic() + 10
        while process.cpu_seconds() < 0.2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert process.cpu_seconds() >= 0.2
        with pytest.raises(BotProtocolError) as failure:
            process.read_line(30)
        assert failure.value.kind == "exit"
        assert failure.value.detail == "killed by SIGXCPU: over its CPU limit of 1 s"
    finally:
        process.kill()


def test_a_kernel_that_refuses_namespaces_is_one_line_saying_what_to_do(
        tmp_path: Path) -> None:
    """bwrap is there but fails as it does where user namespaces are off: exit code 2,
    one line with bwrap's own words and what to do, no traceback."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("prlimit", "setpriv", "sh"):
        found = shutil.which(tool)
        if found:
            (tools / tool).symlink_to(found)
    fake = tools / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace, likely "
                    "because the kernel does not allow non-privileged user namespaces' >&2\n"
                    "exit 1\n", encoding="utf-8")
    fake.chmod(0o755)
    path = tmp_path / "t.toml"
    path.write_text('seed = 1\nmatches = 1\n[[bots]]\nbot = "greedy"\nsandbox = true\n'
                    '[[bots]]\nbot = "random"\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "trash_tui.cli.main", "tournament", "check",
                           str(path)], capture_output=True, text=True, check=False,
                          cwd=ROOT, env={**os.environ, "PATH": str(tools)}, timeout=120)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "bots[1].sandbox" in lines[0]
    assert ("the kernel refuses the sandbox's namespaces (bwrap: No permissions to creating "
            "new namespace") in lines[0]
    assert "allow unprivileged user namespaces" in lines[0]
    assert lines[0].endswith("or set sandbox = false")


def _inside(command: str, sandbox: Sandbox) -> str:
    prepared = sandbox_command(["sh", "-c", command], "/tmp", {"PATH": "/usr/bin:/bin"},
                               sandbox)
    popen = subprocess.Popen(prepared.argv, pass_fds=prepared.pass_fds,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    prepared.started(popen.pid)
    return popen.communicate(timeout=30)[0].decode()


@needs_sandbox
def test_the_sandboxs_limits_are_hard_and_its_tmp_is_capped() -> None:
    said = _inside("awk '/^Max (processes|open files)/ {print $(NF-2), $(NF-1)}' "
                   "/proc/self/limits; id -u; "
                   "head -c 3145728 /dev/zero > /tmp/big 2>/dev/null; echo wrote $?; "
                   "ls -l /tmp/big | awk '{print $5}'",
                   Sandbox(processes=12, files=40, tmp_mb=2))
    lines = said.split()
    assert lines[:5] == ["12", "12", "40", "40", "65534"]  # soft = hard
    assert lines[5:7] == ["wrote", "1"]  # no space left after 2 MiB
    assert int(lines[7]) <= 2 << 20


@needs_sandbox
def test_the_sandbox_table_reaches_every_process_bot_with_absolute_paths(
        tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # the bots' folder: a root runner's sandboxed bot must read it
    path = tmp_path / "t.toml"
    (tmp_path / "x.sh").write_text("", encoding="utf-8")
    path.write_text('seed = 1\nmatches = 1\n[sandbox]\nenabled = true\nprocesses = 9\n'
                    'read_only = ["data"]\n[[bots]]\nname = "a"\ncommand = ["sh", "x.sh"]\n'
                    '[[bots]]\nname = "b"\ncommand = ["sh", "x.sh"]\nsandbox = false\n'
                    '[[bots]]\nbot = "greedy"\n', encoding="utf-8")
    config = load_tournament(path)
    assert config.sandboxed == ("a",)
    spec = config.bots[0].spec
    assert spec["sandbox"] == {"processes": 9, "read_only": [str(tmp_path / "data")],
                               "hidden": [str(path.resolve())]}
    assert "sandbox" not in config.bots[1].spec and "sandbox" not in config.bots[2].spec
