"""What a sandboxed bot can take and whom it can reach (bots/sandbox.py), tried with
hostile bots (tests/hostile_bots/) as the runner is root and as an ordinary user.

Each test runs its bots through tests/sandbox_driver.py, in a process of the chosen user:
the runner's own (root here, or an ordinary user in CI) and, where the tests run as root,
an ordinary user too (``setpriv`` to uid 65534, with the system's Python). The bots' folder
is a fresh one every user may read.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots.sandbox import problem

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).with_name("hostile_bots")
DRIVER = Path(__file__).with_name("sandbox_driver.py")
SYSTEM_PYTHON = "/usr/bin/python3"
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
PROBLEM = problem()
needs_sandbox = pytest.mark.skipif(
    PROBLEM is not None and ("kernel refuses" in PROBLEM or "needs Linux" in PROBLEM),
    reason=f"the sandbox cannot run here: {PROBLEM}")
#: the runner's own user, and an ordinary user when the tests run as root
USERS = ["runner", "ordinary"] if os.geteuid() == 0 else ["runner"]


@functools.cache
def _ordinary_user_problem() -> str | None:
    """Why the tests cannot run the sandbox as an ordinary user here (None if they can)."""
    if shutil.which("setpriv") is None:
        return "setpriv is not installed"
    try:
        done = subprocess.run([*NOBODY, SYSTEM_PYTHON, "-c", "import bots.sandbox"],
                              capture_output=True, text=True, check=False, timeout=60,
                              env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    except OSError as exc:
        return f"{SYSTEM_PYTHON} cannot run as uid 65534: {exc.strerror}"
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["?"])[-1]
        return f"the project cannot be imported as uid 65534 with {SYSTEM_PYTHON}: {said}"
    return None


@pytest.fixture
def folder() -> Iterator[Path]:
    """The hostile bots in a folder every user may read (not under pytest's private one)."""
    where = Path(tempfile.mkdtemp(prefix="trash-hostile-"))
    try:
        where.chmod(0o755)
        for path in HOSTILE.glob("*.py"):
            shutil.copy(path, where)
            (where / path.name).chmod(0o644)
        yield where
    finally:
        shutil.rmtree(where, ignore_errors=True)


def attack(user: str, where: Path, bots: list[tuple[str, dict[str, str]]],
           tmp_mb: int = 64) -> list[str]:
    """Run ``bots`` (script, environment) at once, each in its sandbox, started by a
    process of ``user``; what each wrote."""
    order = json.dumps({"cwd": str(where), "tmp_mb": tmp_mb, "bots": bots})
    command = [sys.executable, str(DRIVER), order]
    if user == "ordinary":
        reason = _ordinary_user_problem()
        if reason is not None:
            pytest.skip(f"cannot run the sandbox as an ordinary user here: {reason}")
        command = [*NOBODY, SYSTEM_PYTHON, str(DRIVER), order]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=180,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                               "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# --- route 9: the bot's view is read-only but for its sized /tmp and /dev/shm ----------------

@needs_sandbox
@pytest.mark.parametrize("user", USERS)
def test_a_sandboxed_bot_writes_only_in_its_sized_tmp_and_dev_shm(user: str,
                                                                  folder: Path) -> None:
    said = attack(user, folder, [("write_everywhere.py", {"FILL_MB": "4"})], tmp_mb=2)[0]
    for place in ("/", "/etc", "/dev", str(folder)):
        assert f"REFUSED write in {place}: " in said, said
    for place in ("/tmp", "/dev/shm"):  # each a tmpfs of tmp_mb MiB
        assert f"MiB in {place}: No space left on device" in said, said
        assert f"REFUSED more than 2 MiB in {place}" in said or (
            f"REFUSED more than 1 MiB in {place}" in said), said
    assert "LEARNED" not in said
    assert not (folder / "filled").exists()


# --- route 8: filesystem sockets --------------------------------------------------------------

@needs_sandbox
@pytest.mark.parametrize("user", USERS)
def test_a_unix_socket_file_in_the_bots_folder_reaches_nothing_outside(
        user: str, folder: Path) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as stream, \
            socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as dgram:
        stream.bind(str(folder / "stream.sock"))
        stream.listen()
        stream.settimeout(0)
        dgram.bind(str(folder / "dgram.sock"))
        dgram.settimeout(0)
        for name in ("stream.sock", "dgram.sock"):
            (folder / name).chmod(0o777)
        said = attack(user, folder, [("unix_socket.py", {})])[0]
        with pytest.raises(BlockingIOError):
            stream.accept()
        with pytest.raises(BlockingIOError):
            dgram.recv(100)
    for what in ("connect to stream.sock", "send to dgram.sock",
                 "send to dgram.sock from a socketpair"):
        assert f"REFUSED {what}: Permission denied" in said, said
    assert "LEARNED a stream socketpair carries b'x'" in said, said
    assert "LEARNED connected" not in said and "LEARNED sent" not in said


# --- route 7: file locks on a shared file ----------------------------------------------------

@needs_sandbox
@pytest.mark.parametrize("user", USERS)
def test_two_sandboxed_bots_cannot_talk_through_locks_on_a_shared_file(
        user: str, folder: Path) -> None:
    sender, receiver = attack(user, folder, [("lock_channel.py", {"ROLE": "send"}),
                                             ("lock_channel.py", {"ROLE": "receive"})])
    for name in ("flock", "fcntl"):
        assert f"REFUSED {name} lock on /etc/ld.so.cache: No locks available" in sender, sender
    assert "REFUSED flock on /etc/ld.so.cache: No locks available" in receiver, receiver
    if platform.machine() in ("x86_64", "aarch64"):  # (the bot knows these two's numbers)
        assert ("REFUSED fcntl with high bits on /etc/ld.so.cache: No locks available"
                in sender), sender
    assert "REFUSED fcntl F_GETLK on /etc/ld.so.cache: No locks available" in receiver
    for said in (sender, receiver):
        assert "REFUSED inotify: Operation not permitted" in said, said
        assert "LEARNED" not in said, said


# --- route 6: memory its limit does not count --------------------------------------------------

@needs_sandbox
@pytest.mark.parametrize("user", USERS)
def test_a_sandboxed_bot_holds_no_memory_outside_its_address_space(user: str,
                                                                   folder: Path) -> None:
    said = attack(user, folder, [("hoard_memory.py", {"HOARD_MB": "32"})])[0]
    assert "REFUSED memfd: Operation not permitted" in said, said
    assert "REFUSED shmget: Operation not permitted" in said, said
    assert "LEARNED" not in said, said


@needs_sandbox
@pytest.mark.parametrize("user", USERS)
def test_a_sandboxed_bot_makes_no_namespace_of_its_own(user: str, folder: Path) -> None:
    """In a user namespace of its own the bot would be root: a tmpfs it mounts there is
    room no tmp_mb caps (80 MiB written here, with tmp_mb at its default)."""
    said = attack(user, folder, [("nested_namespace.py", {"FILL_MB": "80"})])[0]
    assert "REFUSED unshare:" in said, said
    assert "LEARNED" not in said, said


# --- what check says of this machine ---------------------------------------------------------

@needs_sandbox
def test_check_says_per_protection_whether_it_holds_on_this_machine(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('seed = 5460346262413911927\nmatches = 1\n[[bots]]\nbot = "greedy"\n'
                    'sandbox = true\n[[bots]]\nbot = "random"\n', encoding="utf-8")
    for words in (["bots", "check"], ["tournament", "check", str(path)]):
        done = subprocess.run([sys.executable, "-m", "trash_tui.cli.main", *words],
                              capture_output=True, text=True, check=False, cwd=ROOT,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert ("sandbox holds: nowhere to write but its own /tmp and /dev/shm (tmp_mb MiB "
                "each), whoever the runner is") in lines
        assert any(line.startswith("sandbox holds: no channel to another bot or to the "
                                   "outside: no Unix socket, file lock, inotify, memfd or "
                                   "System V shared memory") for line in lines)
        assert any(line.startswith(("sandbox holds: its processes together",
                                    "sandbox NOT protected: its processes together"))
                   for line in lines)
