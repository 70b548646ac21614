"""A sandboxed bot's processes counted together (bots/cgroups.py): at most one CPU however
many of them spin, no group left behind when the bot ends or its runner is killed with
``kill -9``, and `trash bots check` naming what this machine does not give.

The tests that need a cgroup are skipped, with what is missing, on a machine that gives
the runner none (an ordinary user without a delegated cgroup v2, a container without
cgroup delegation); the hostile bots that spend CPU and memory through children are in
tests/test_hostile_bots.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots import cgroups
from bots.process import BotProcess, Limits
from bots.sandbox import ALWAYS, CHANNELS, TOGETHER, Sandbox, problem, protections
from trash_tui.cli.main import cli

PROBLEM = problem()
MISSING = cgroups.missing()
needs_sandbox = pytest.mark.skipif(
    PROBLEM is not None and ("kernel refuses" in PROBLEM or "needs Linux" in PROBLEM),
    reason=f"the sandbox cannot run here: {PROBLEM}")


def needs(what: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(what in MISSING, reason=f"no cgroup here for the {what}")


SPINNERS = ("for i in 1 2 3 4; do (while :; do :; done) & done; echo ready; "
            "exec sleep 3600")


def group_folders() -> list[Path]:
    """Every bot group this test process made that is still there."""
    return [folder / f for place in cgroups.places() for folder in [place.base]
            for f in os.listdir(folder)
            if f.startswith(f"{cgroups.GROUP}{os.getpid()}-")]


@needs_sandbox
@needs("one CPU at most")
@needs("CPU time of its processes together")
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one CPU: nothing to cap")
def test_four_spinning_processes_of_a_bot_get_one_cpu_between_them(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    bot = BotProcess(["sh", "-c", SPINNERS], tmp_path, {"PATH": "/usr/bin:/bin"},
                     Limits(cpu_seconds=600), Sandbox())
    try:
        assert bot.read_line(30) == b"ready"
        before, started = bot.cpu_seconds(), time.monotonic()
        time.sleep(1.5)
        used, wall = bot.cpu_seconds() - before, time.monotonic() - started
        assert used <= 1.25 * wall, f"{used:.2f} s of CPU in {wall:.2f} s"
        assert used >= 0.3 * wall, f"the spinners hardly ran: {used:.2f} s in {wall:.2f} s"
    finally:
        bot.kill()
    assert group_folders() == []


@needs_sandbox
@needs("processes by group")
def test_a_bots_group_is_gone_with_the_bot_and_counts_what_it_started(
        tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    bot = BotProcess(["sh", "-c", "(setsid sleep 3600 &); echo ready; exec sleep 3600"],
                     tmp_path, {"PATH": "/usr/bin:/bin"}, Limits(), Sandbox(processes=8))
    try:
        assert bot.read_line(30) == b"ready"
        folders = group_folders()
        assert folders, "no group was made"
        pids = (bot.group.needs["pids"] / "pids.max").read_text().strip()
        assert pids == "10"  # the sandbox's 8, bwrap and its init
        procs = (bot.group.needs["pids"] / "cgroup.procs").read_text().split()
        assert len(procs) >= 4  # bwrap, its init, the shell's sleep, the setsid sleep
    finally:
        bot.kill()
    assert not any(folder.exists() for folder in folders)


RUNNER = """\
import sys
sys.path.insert(0, {root!r})
from bots.process import BotProcess, Limits
from bots.sandbox import Sandbox
bot = BotProcess(["sh", "-c", "echo ready; exec sleep 3600"], {cwd!r},
                 {{"PATH": "/usr/bin:/bin"}}, Limits(), Sandbox())
print(bot.read_line(30).decode(), *bot.group.folders.values(), flush=True)
sys.stdin.read()
"""


@needs_sandbox
@needs("processes by group")
def test_a_runner_killed_with_kill_9_leaves_no_group_behind(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    code = RUNNER.format(root=str(Path(__file__).resolve().parent.parent), cwd=str(tmp_path))
    runner = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert runner.stdout is not None
        said = runner.stdout.readline().split()
        assert said[0] == "ready"
        folders = [Path(folder) for folder in said[1:]]
        assert folders and all(folder.is_dir() for folder in folders)
        os.kill(runner.pid, 9)
        runner.wait()
        deadline = time.monotonic() + 5
        while any(folder.exists() for folder in folders):
            assert time.monotonic() < deadline, f"left behind: {folders}"
            time.sleep(0.05)
    finally:
        runner.kill()


def test_the_check_names_each_missing_group_protection(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.setattr(cgroups, "plan", lambda: {})
    lines = protections()
    missing = [line for line in lines if line.startswith("NOT protected") and "cgroup" in line]
    assert len(missing) == 1, lines
    for what in cgroups.WHAT.values():
        assert what in missing[0]


def test_the_check_says_what_the_groups_hold_where_they_are_made() -> None:
    lines = protections()
    held = [line for line in lines if line.startswith("holds") and "cgroup" in line]
    if cgroups.plan():
        assert held, lines
    result = CliRunner().invoke(cli, ["bots", "check"])
    for line in lines:
        assert line in result.output


def test_bots_readme_lists_every_point_the_check_prints() -> None:
    """bots/README.md says what the sandbox protects in the same words as `check`."""
    readme = " ".join((Path(__file__).resolve().parent.parent / "bots" / "README.md")
                      .read_text(encoding="utf-8").split())
    for point in (*ALWAYS, CHANNELS, TOGETHER):
        assert f"- {point}." in readme, point


V2 = [place for place in cgroups.places() if place.version == 2]


@pytest.mark.skipif(not V2, reason="no cgroup v2 this runner may write")
def test_a_v2_group_counts_cpu_time_and_kills_what_is_in_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """cgroup v2's own files (cpu.stat, cgroup.kill), on whatever v2 hierarchy is here
    (on a hybrid machine it has no controllers, but it counts and kills)."""
    monkeypatch.setattr(cgroups, "plan", lambda: {"usage": V2[0]})
    group = cgroups.BotGroup(None, None, None)
    folders = list(group.folders.values())
    assert folders and all(folder.is_dir() for folder in folders)
    spinner = subprocess.Popen(["sh", "-c", "while :; do :; done"], preexec_fn=group.join)
    try:
        time.sleep(0.5)
        used = group.cpu_seconds()
        assert used is not None and used > 0.1, used
        group.kill()
        assert spinner.wait(timeout=5) == -9
    finally:
        spinner.kill()
        group.remove()
    assert not any(folder.exists() for folder in folders)


def test_without_libseccomp_the_check_says_the_channels_are_not_closed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from bots import seccomp

    monkeypatch.setattr(seccomp, "_library", lambda: (_ for _ in ()).throw(
        OSError("libseccomp.so.2: cannot open shared object file")))
    monkeypatch.setattr(seccomp, "_built", [])
    monkeypatch.setattr(seccomp, "_why", [])
    assert seccomp.program() is None
    lines = protections()
    assert any(line.startswith(f"NOT protected: {CHANNELS} — libseccomp cannot build the "
                               "filter here (libseccomp.so.2: cannot open shared object "
                               "file); install libseccomp2") for line in lines), lines
