"""``trash serve`` under abuse (issue 12): what a hostile or careless client can make the
server spend is bounded, and the other players do not notice.

Each test drives asyncssh clients against a real server on 127.0.0.1 in this process, so
the server's CPU time is this process's and its descriptors are ``/proc/self/fd``. Loops
are bounded and stop by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pytest
from ssh_helpers import Terminal, connect, eventually, quiet_player, serving

from trash_tui.ssh import child as child_module
from trash_tui.ssh.child import MAX_COLUMNS, MAX_ROWS, clamp_size
from trash_tui.ssh.connlog import LogEntry
from trash_tui.ssh.reporting import QUIET_PERIOD, Reporter
from trash_tui.ssh.server import raise_descriptor_limit

#: A stand-in app that prints its terminal size and resource limits, then echoes one
#: line of input back and exits.
REPORTER_APP = (sys.executable, "-c", """
import os, resource, sys
size = os.get_terminal_size(0)
cpu = resource.getrlimit(resource.RLIMIT_CPU)
memory = resource.getrlimit(resource.RLIMIT_AS)
print(f"SIZE {size.columns}x{size.lines} CPU {cpu[0]} {cpu[1]} AS {memory[0]}", flush=True)
sys.stdin.readline()
""")
#: A stand-in app that reads one byte, then exits: whatever else was typed stays queued.
ONE_KEY_APP = (sys.executable, "-c", "import os; os.read(0, 1)")
#: A stand-in app that draws nothing and waits.
SILENT_APP = (sys.executable, "-c", "import time; time.sleep(30)")


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


def descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


async def cpu_while_idle(seconds: float = 1.0) -> float:
    """This process's CPU seconds (the server's) over ``seconds`` of waiting."""
    before = time.process_time()
    await asyncio.sleep(seconds)
    return time.process_time() - before


def log_entries(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# --- 1. input still queued when a session ends ---------------------------------------------

async def test_input_left_queued_after_the_app_exits_costs_no_cpu_and_no_descriptor(
        tmp_path: Path) -> None:
    """Issue 12, item 1: 200 KB typed after the app's last read, then the channel closes:
    the server is idle afterwards and holds no descriptor of that session."""
    async with serving(tmp_path, command=ONE_KEY_APP) as server:
        baseline = descriptors()
        for _ in range(3):  # it would add up with every such session
            async with await connect(server, new_key()) as conn:
                term = await Terminal.open(conn)
                term.process.stdin.write(b"q" + b"x" * 200_000)
                await eventually(lambda: server.session_count == 0, 10)
                term.process.close()
        await eventually(lambda: not server.state.sessions, 10)
        await asyncio.sleep(0.3)
        assert await cpu_while_idle(1.0) < 0.15
        assert descriptors() <= baseline


async def test_the_real_app_quitting_with_100_kb_typed_leaves_the_server_idle(
        tmp_path: Path) -> None:
    """Issue 12, item 1, as found: a name, then ``q`` and 100 KB, then the client closes."""
    async with serving(tmp_path) as server:
        key = new_key()
        quiet_player(server.config, key)
        baseline = descriptors()
        async with await connect(server, key) as conn:
            term = await Terminal.open(conn)
            await term.read_until("Sit down")
            await term.press("\r", pause=0.3)
            await term.read_until("New match", "Newmatch")
            term.process.stdin.write(b"q" + b"\x1b[A" * 33_000)
            await asyncio.sleep(0.5)
            term.process.close()
        await eventually(lambda: not server.state.sessions, 15)
        await asyncio.sleep(0.3)
        assert await cpu_while_idle(1.0) < 0.15
        assert descriptors() <= baseline


# --- 2. giant terminal sizes ---------------------------------------------------------------

def test_window_sizes_are_clamped_to_a_sane_terminal() -> None:
    """Issue 12, item 2: no number from a client reaches the PTY (or a struct) as it is."""
    assert clamp_size(65535, 65535) == (MAX_COLUMNS, MAX_ROWS, 0, 0)
    assert clamp_size(2**32 - 1, 2**31, 2**32 - 1, 70_000) == (MAX_COLUMNS, MAX_ROWS,
                                                                65535, 65535)
    assert clamp_size(0, 0) == (80, 24, 0, 0)
    assert clamp_size(100, 32, 800, 600) == (100, 32, 800, 600)


@pytest.mark.parametrize("size", [(65535, 65535), (70_000, 4_000_000_000)])
async def test_a_giant_window_is_drawn_at_the_largest_size_with_limits(
        tmp_path: Path, size: tuple[int, int]) -> None:
    """Issue 12, item 2: the app sees at most MAX_COLUMNS x MAX_ROWS, with its CPU-time and
    memory limits set; a giant resize later is clamped too, and nothing reaches a
    traceback."""
    echo = io.StringIO()
    async with serving(tmp_path, echo=echo, command=REPORTER_APP, session_cpu_seconds=600,
                       session_memory_mb=768) as server, \
            await connect(server, new_key()) as conn:
        term = await Terminal.open(conn, size=size)
        text = await term.read_until("SIZE")
        assert f"SIZE {MAX_COLUMNS}x{MAX_ROWS} " in text
        assert f"CPU 600 {600 + child_module.SessionLimits.CPU_GRACE} " in text
        assert f"AS {768 * 1024 * 1024}" in text
        child = server.sessions[0].child
        assert child is not None
        term.process.change_terminal_size(100_000, 100_000)
        await eventually(lambda: child.size[:2] == (MAX_COLUMNS, MAX_ROWS), 5)
        term.process.stdin.write(b"bye\n")
        await asyncio.wait_for(term.process.wait(), 10)
    [entry] = log_entries(tmp_path / "ssh.log")
    assert entry["size"] == f"{MAX_COLUMNS}x{MAX_ROWS}" and entry["ended"] == "quit"
    assert "Traceback" not in echo.getvalue() and "struct.error" not in echo.getvalue()


def test_a_command_starts_with_its_limits_already_in_place() -> None:
    """A session's limits hold from its first instruction (set after it started, a session
    could run unlimited for a moment): the command runs under util-linux prlimit."""
    limits = child_module.SessionLimits(cpu_seconds=600, memory_bytes=768 * 1024 * 1024)
    prefix = limits.command_prefix()
    if not prefix:
        pytest.skip("no prlimit on this machine")
    probe = ("import resource; print(resource.getrlimit(resource.RLIMIT_CPU), "
             "resource.getrlimit(resource.RLIMIT_AS))")
    shown = subprocess.run([*prefix, sys.executable, "-c", probe], capture_output=True,
                           text=True, check=True, timeout=30).stdout.split(")", 1)
    assert shown[0] == f"(600, {600 + limits.CPU_GRACE}"
    assert shown[1].strip() == f"({768 * 1024 * 1024}, {768 * 1024 * 1024})"


async def test_a_forked_session_of_the_app_runs_within_its_limits(tmp_path: Path) -> None:
    """The real app, forked from the fork server, has its CPU and memory limits (set in the
    forked process before it runs any of the app)."""
    async with serving(tmp_path, session_cpu_seconds=600, session_memory_mb=768) as server, \
            await connect(server, new_key()) as conn:
        term = await Terminal.open(conn)
        await term.read_until("Sit down")
        pid = server.sessions[0].pid
        assert pid is not None
        limits = Path(f"/proc/{pid}/limits").read_text()
        cpu = next(line for line in limits.splitlines() if line.startswith("Max cpu time"))
        memory = next(line for line in limits.splitlines()
                      if line.startswith("Max address space"))
        assert cpu.split()[3:5] == ["600", str(600 + child_module.SessionLimits.CPU_GRACE)]
        assert memory.split()[3:5] == [str(768 * 1024 * 1024)] * 2
        term.process.close()


async def test_a_session_that_draws_nothing_steps_to_the_back_of_the_cpu_queue(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12, item 2: a session with no first screen after BOOT_TIMEOUT gets niceness 19,
    so it cannot starve the sessions that draw."""
    monkeypatch.setattr(child_module, "BOOT_TIMEOUT", 0.5)
    async with serving(tmp_path, command=SILENT_APP) as server, \
            await connect(server, new_key()) as conn:
        await Terminal.open(conn)
        await eventually(lambda: server.session_count == 1, 10)
        pid = server.sessions[0].pid
        assert pid is not None

        def niceness() -> int:
            return os.getpriority(os.PRIO_PROCESS, pid)

        await eventually(lambda: niceness() == child_module.STALLED_NICENESS, 5)


async def test_giant_sessions_do_not_keep_a_normal_player_from_the_lobby(
        tmp_path: Path) -> None:
    """Issue 12, item 2: four 65535x65535 sessions from one connection (the per-address
    limit) while a normal player arrives: the normal player's name prompt comes promptly
    and the giant ones are drawn at the clamped size."""
    async with serving(tmp_path) as server:
        giant_conn = await connect(server, new_key())
        try:
            giants = [await Terminal.open(giant_conn, size=(65535, 65535)) for _ in range(4)]
            started = time.monotonic()
            async with await connect(server, new_key(),
                                     local_addr=("127.0.0.2", 0)) as conn:  # another address
                player = await Terminal.open(conn)
                await player.read_until("Sit down", timeout=20)
                waited = time.monotonic() - started
            assert waited < 10, f"the normal player waited {waited:.1f} s"
            for giant in giants:
                await giant.read_until("Sit down", timeout=20)
            assert all(s.size == f"{MAX_COLUMNS}x{MAX_ROWS}" for s in server.state.sessions
                       if s.child is not None and s.size != "100x32")
        finally:
            giant_conn.close()


# --- 3. connections that never open a session ------------------------------------------------

async def test_a_logged_in_connection_without_a_session_is_closed_at_its_deadline(
        tmp_path: Path) -> None:
    """Issue 12, item 3: after login a connection has session_open_timeout seconds to open
    a session; then it is closed and logged."""
    async with serving(tmp_path, session_open_timeout=0.5) as server:
        baseline = descriptors()
        conns = [await connect(server, new_key()) for _ in range(3)]
        for conn in conns:
            await asyncio.wait_for(conn.wait_closed(), 5)
        await eventually(lambda: not server.state.connections, 5)
        assert descriptors() <= baseline
    entries = log_entries(tmp_path / "ssh.log")
    assert [e["ended"] for e in entries] == ["refused: no session opened in 0.5 s"] * 3


async def test_connections_per_address_are_capped_not_only_sessions(tmp_path: Path) -> None:
    """Issue 12, item 3: over connections_per_ip, a new connection is closed at once; the
    cap frees up when connections end, and every descriptor is given back."""
    async with serving(tmp_path, connections_per_ip=3, connections_per_minute=100) as server:
        baseline = descriptors()
        held = [await connect(server, new_key()) for _ in range(3)]
        for _ in range(5):
            with pytest.raises((OSError, asyncssh.Error)):
                await connect(server, new_key())
        assert len(server.state.connections) == 3
        held.pop().close()
        await eventually(lambda: len(server.state.connections) == 2, 5)
        async with await connect(server, new_key()) as again:
            assert again is not None
        for conn in held:
            conn.close()
        await eventually(lambda: not server.state.connections, 5)
        await asyncio.sleep(0.2)
        assert descriptors() <= baseline
    ended = [e["ended"] for e in log_entries(tmp_path / "ssh.log")]
    assert ended.count("refused: too many connections") == 5


async def test_held_connections_from_many_addresses_leave_room_for_a_player(
        tmp_path: Path) -> None:
    """Issue 12, item 3: ten addresses each holding connections without sessions: they are
    capped per address and closed at the deadline, and a real player still plays."""
    addresses = [f"127.0.0.{n}" for n in range(2, 12)]
    async with serving(tmp_path, connections_per_ip=2, session_open_timeout=1.0,
                       connections_per_minute=100) as server:
        idlers: list[asyncssh.SSHClientConnection] = []
        for address in addresses:
            for _ in range(4):
                with contextlib.suppress(OSError, asyncssh.Error):
                    idlers.append(await connect(server, new_key(), local_addr=(address, 0)))
        assert len(idlers) == 2 * len(addresses)
        async with await connect(server, new_key()) as conn:
            player = await Terminal.open(conn)
            await player.read_until("Sit down", timeout=20)
        for idler in idlers:
            await asyncio.wait_for(idler.wait_closed(), 5)


def test_the_soft_descriptor_limit_is_raised_to_the_hard_one() -> None:
    """Issue 12, item 3: the server starts with as many descriptors as it may have."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 512), hard))
        limit = raise_descriptor_limit()
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == hard == limit
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_repeated_error_is_written_once_with_a_count() -> None:
    """Issue 12, item 3: 190,000 identical errors are one line, then one count."""
    echo = io.StringIO()
    now = [0.0]
    reporter = Reporter(echo, clock=lambda: now[0])
    trace = "Traceback (most recent call last):\n  ...\nOSError: [Errno 24] Too many open files"
    for n in range(190_000):
        now[0] = n * 40 / 190_000
        reporter.report("accept failed: OSError: [Errno 24] Too many open files", trace)
    reporter.report("something else")
    now[0] = QUIET_PERIOD + 1
    reporter.report("a third thing")
    reporter.flush()
    lines = echo.getvalue().splitlines()
    assert sum("Too many open files" in line and line.startswith("trash serve:")
               for line in lines) == 2
    assert any("(the same 189999 more times in" in line for line in lines)
    assert len(lines) < 12


async def test_the_event_loops_errors_go_through_the_reporter(tmp_path: Path) -> None:
    """Issue 12, item 3: an error the event loop reports a thousand times (an accept
    failing) is written once while the server runs, and counted when it stops."""
    echo = io.StringIO()
    async with serving(tmp_path, echo=echo):
        loop = asyncio.get_running_loop()
        for _ in range(1000):
            loop.call_exception_handler({
                "message": "socket.accept() out of system resource",
                "exception": OSError(24, "Too many open files")})
    text = echo.getvalue()
    assert text.count("socket.accept() out of system resource: OSError") == 2
    assert "(the same 999 more times in" in text


# --- 4. resize storms ------------------------------------------------------------------------

async def test_a_resize_storm_is_coalesced_and_the_session_answers_right_after(
        tmp_path: Path) -> None:
    """Issue 12, item 4: 3,000 random resizes (up to 400x200): only a few reach the app,
    the last size wins, and the session answers a key at once."""
    rng = random.Random(12)
    async with serving(tmp_path) as server:
        key = new_key()
        quiet_player(server.config, key)
        async with await connect(server, key) as conn:
            term = await Terminal.open(conn)
            await term.read_until("Sit down")
            await term.press("\r", pause=0.3)
            await term.read_until("New match", "Newmatch")
            for _ in range(3000):
                term.process.change_terminal_size(rng.randint(1, 400), rng.randint(1, 200))
            term.process.change_terminal_size(100, 32)
            child = server.sessions[0].child
            assert child is not None
            await eventually(lambda: child.size[:2] == (100, 32), 5)
            assert child.resizes < 100
            mark = len(term.output)
            started = time.monotonic()
            await term.press("r")
            await term.read_until("Rules", since=mark, timeout=15)
            assert time.monotonic() - started < 10


# --- 5. client strings in the server's own log -----------------------------------------------

def test_log_entries_escape_every_string_a_client_sent() -> None:
    """Issue 12, item 5: a terminal type with a newline or an escape cannot forge a log
    line or reach the operator's terminal."""
    entry = LogEntry("session", "127.0.0.1:5", "quit", 1.0, "password:eve\x1b[2J",
                     "xterm\n{\"forged\": true}\x1b]0;owned\x07", "80x24", 0)
    human = entry.human()
    assert "\n" not in human and "\x1b" not in human and "\x07" not in human
    assert "xterm\\n" in human and "\\x1b]0;owned\\x07" in human
    escaped = entry.escaped()
    assert escaped.term is not None and "\n" not in escaped.term


async def test_a_forged_terminal_type_stays_on_its_own_log_line(tmp_path: Path) -> None:
    """Issue 12, item 5, end to end: the JSON log and the human lines hold the terminal type
    escaped, one line per entry."""
    echo = io.StringIO()
    forged = 'xterm\n{"time": "forged", "ended": "quit"}\x1b[2J'
    async with serving(tmp_path, echo=echo, command=ONE_KEY_APP) as server, \
            await connect(server, new_key()) as conn:
        process = await conn.create_process(term_type=forged, encoding=None)
        process.stdin.write(b"x")
        await asyncio.wait_for(process.wait(), 10)
    lines = (tmp_path / "ssh.log").read_text(encoding="utf-8").splitlines()
    [entry] = [json.loads(line) for line in lines]
    assert entry["term"] == 'xterm\\n{"time": "forged", "ended": "quit"}\\x1b[2J'
    assert "\x1b" not in echo.getvalue()
    assert not any(line.startswith("{") for line in echo.getvalue().splitlines())
