"""The server's own goodbye on a player's terminal (``trash_tui.ssh.goodbye``): the terminal
put back as the app found it, the words wrapped to any window, and a server that stops
telling a session whose app draws nothing (it ignores SIGTERM) at once."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import asyncssh
import pytest
from ssh_helpers import Terminal, connect, eventually, screen_text, serving

import trash_tui.ssh.child as child_module
from trash_tui.ssh.goodbye import (
    STOPPED_EXIT_STATUS,
    ScreenTracker,
    SeatKept,
    come_back,
    lines,
    reset,
    stopping_text,
)

#: A session's stand-in app that switches to the alternate screen, draws, and then never
#: answers SIGTERM (as a starved or stopped app would not).
STUCK = (sys.executable, "-c",
         "import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
         "sys.stdout.write('\\x1b[?1049h\\x1b[?25l\\x1b[1;31mthe board'); sys.stdout.flush(); "
         "time.sleep(60)")


def test_the_tracker_follows_the_last_screen_switch_even_cut_between_two_chunks() -> None:
    screen = ScreenTracker()
    screen.feed(b"hello \x1b[?10")
    assert not screen.alternate
    screen.feed(b"49h the board")
    assert screen.alternate
    screen.feed(b"\x1b[?1049l")
    assert not screen.alternate
    screen.feed(b"x")  # the switch left in the tail is not counted again
    assert not screen.alternate
    screen.feed(b"\x1b[?1049h\x1b[?1049l\x1b[?1049h")
    assert screen.alternate


def test_the_reset_leaves_the_alternate_screen_only_when_the_app_is_on_it() -> None:
    assert reset(True).endswith(b"\x1b[?1049l\x1b[?25h")
    assert b"\x1b[?1049l" not in reset(False)  # (it would move the shell's cursor)
    for alternate in (True, False):
        data = reset(alternate)
        assert data.startswith(b"\x18")  # an escape sequence cut short ends here
        assert b"\x1b[?1000l" in data and b"\x1b[?2004l" in data and b"\x1b[0m" in data


def test_the_command_to_come_back_names_the_port_and_the_table() -> None:
    assert come_back(("games.example.org", 2222), "K7QX") == "ssh -p 2222 K7QX@games.example.org"
    assert come_back(("games.example.org", 22)) == "ssh games.example.org"
    assert come_back(None) is None


@pytest.mark.parametrize("columns", [20, 30, 80, 500])
def test_the_words_fit_any_window_and_the_command_is_never_cut(columns: int) -> None:
    seat = SeatKept("Ann's table", "K7QX", True, 600)
    command = "ssh -p 2222 K7QX@games.example.org"
    text = lines(stopping_text(seat, command, "back in five minutes"), columns).decode()
    assert text.startswith("\r\n") and text.endswith("\r\n")
    rows = text.split("\r\n")
    assert all(len(row) <= max(columns - 1, 20) for row in rows if command not in row)
    assert any(row.strip() == command or row == f"Come back with: {command}" for row in rows)
    flat = " ".join(" ".join(rows).split())
    assert "seat at Ann's table (code K7QX) is kept" in flat
    assert "waits up to 10 minutes" in flat and "The operator says: back in five" in flat


async def test_a_stopping_server_tells_a_session_whose_app_draws_nothing_at_once(
        tmp_path: Path) -> None:
    async with serving(tmp_path, command=STUCK) as server:
        conn = await connect(server, asyncssh.generate_private_key("ssh-ed25519"))
        term = await Terminal.open(conn, size=(30, 12))
        await term.read_until("the board")
        mark = len(term.output)
        started = time.monotonic()
        stopping = asyncio.ensure_future(server.stop(grace=1.0))
        said = await term.read_until("Come back with:", since=mark, timeout=5)
        result = await asyncio.wait_for(term.process.wait(), 5)
        assert time.monotonic() - started < 1.0  # not waiting for the app
        assert result.exit_status == STOPPED_EXIT_STATUS
        told = bytes(term.output[mark:])
        assert told.startswith(reset(True))  # the normal screen back, then the words
        assert all(len(row) < 30 for row in screen_text(told).split("\r\n")[1:4])
        assert "the server is stopping" in " ".join(said.split())
        assert await asyncio.wait_for(stopping, 10) == 1  # the app killed at the grace
        conn.close()


async def test_a_session_still_waiting_for_its_turn_to_start_is_told_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(child_module, "_booting", asyncio.Semaphore(1))  # one at a time
    async with serving(tmp_path, command=STUCK) as server:
        first = await connect(server, asyncssh.generate_private_key("ssh-ed25519"))
        await (await Terminal.open(first)).read_until("the board")  # holds the only slot
        second = await connect(server, asyncssh.generate_private_key("ssh-ed25519"))
        term = await Terminal.open(second, size=(80, 24))
        await eventually(lambda: len(server.state.sessions) == 2 and all(
            session.token for session in server.state.sessions))
        assert server.session_count == 1  # the second has no app yet
        stopping = asyncio.ensure_future(server.stop(grace=3.0))
        # told before the first session's app is killed (which would free the slot)
        said = await term.read_until("Come back with:", timeout=1.5)
        assert "the server is stopping" in " ".join(said.split())
        result = await asyncio.wait_for(term.process.wait(), 1.5)
        assert result.exit_status == STOPPED_EXIT_STATUS
        await asyncio.wait_for(stopping, 10)
        first.close()
        second.close()
