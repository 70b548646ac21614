"""Watching a player's terminal from the console (issue 37; as dgamelaunch's watchers do):
``trash admin watch NAME`` gets a copy of what the player's session draws, starting with
the whole screen, read-only; a watcher that lags is dropped, never slowing the session;
a limited number of watchers; one line when the player is not connected.

The players are asyncssh clients running the real app on a real server in the test's
process; the watcher is the console's own client, and ``trash admin watch`` itself runs
in a tmux pane.
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import sys
import time
from pathlib import Path

import pytest
from admin_helpers import admin
from ssh_helpers import screen_text
from table_ssh_helpers import Player, enter_lobby, table_server, wait_until
from test_ssh_openssh import TmuxPane

from trash_tui.cli.watching import WatchRefused, WatchStream
from trash_tui.ssh import watch as server_watch
from trash_tui.ssh.server import RunningServer

TABLES_TITLE = "Tables on this server"


class Watcher:
    """A console client watching a player, its frames read by a thread."""

    def __init__(self, stream: WatchStream) -> None:
        self.stream = stream
        self.data = bytearray()
        self.sizes: list[str] = []
        self.ended: str | None = None

    @classmethod
    async def open(cls, server: RunningServer, target: str, read: bool = True) -> Watcher:
        stream = await asyncio.to_thread(WatchStream.open, server.config.admin_path, target)
        watcher = cls(stream)
        if read:
            asyncio.get_running_loop().run_in_executor(None, watcher.read)
        return watcher

    def read(self) -> None:
        for kind, payload in self.stream.frames():
            if kind == "D":
                self.data += payload
            elif kind == "R":
                self.sizes.append(payload.decode())
            elif kind == "E":
                self.ended = payload.decode()
        if self.ended is None:
            self.ended = "closed"

    def text(self) -> str:
        return "".join(screen_text(bytes(self.data)).split())

    async def sees(self, needle: str, timeout: float = 15.0) -> None:
        wanted = "".join(needle.split())
        await wait_until(lambda: wanted in self.text(), timeout,
                         what=f"the watcher to see {needle!r}")


async def test_a_watcher_sees_the_whole_screen_then_each_change_and_types_nothing(
        tmp_path: Path) -> None:
    async with table_server(tmp_path) as server:
        ann = Player(server, "Ann")
        Player(server, "Bob")  # registered, never connected
        await enter_lobby(ann, server)
        await asyncio.sleep(1.0)  # the lobby is drawn and still: nothing more is sent
        watcher = await Watcher.open(server, "ann")
        assert watcher.stream.info["width"] == 100 and watcher.stream.info["height"] == 32
        assert watcher.stream.info["name"] == "Ann"
        await watcher.sees("New match")  # the whole screen, drawn again for the watcher

        mark = ann.mark()
        watcher.stream.sock.sendall(b"t\r\x1b[B\r")  # typed at the console: goes nowhere
        await asyncio.sleep(1.5)
        assert not ann.saw(TABLES_TITLE, since=mark)
        await ann.press("t")
        await ann.sees(TABLES_TITLE, since=mark)
        await watcher.sees(TABLES_TITLE)

        refused = await admin(server, "watch", target="Bob")  # registered, not on
        assert not refused["ok"] and refused["error"] == "'Bob' is not connected"
        with pytest.raises(WatchRefused, match="no player is called 'Nobody'"):
            await asyncio.to_thread(WatchStream.open, server.config.admin_path, "Nobody")

        more = [await Watcher.open(server, ann.identity)
                for _ in range(server_watch.MAX_WATCHERS - 1)]
        with pytest.raises(WatchRefused, match=f"at most {server_watch.MAX_WATCHERS}"):
            await asyncio.to_thread(WatchStream.open, server.config.admin_path, "Ann")
        more[0].stream.close()  # a watcher who leaves gives its place back
        await wait_until(lambda: len(server.state.watchers) == server_watch.MAX_WATCHERS - 1,
                         what="the watcher to be gone")
        more.append(await Watcher.open(server, "Ann"))

        await ann.close()  # the session ends: every watcher is told
        for each in (watcher, *more[1:]):
            await wait_until(lambda each=each: each.ended is not None, 15,
                             what="the watcher to be told")
            assert each.ended == "the session ended"
        assert not server.state.watchers


async def test_a_watcher_that_does_not_read_is_dropped_and_the_player_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_watch, "WATCH_BUFFER", 64 * 1024)
    async with table_server(tmp_path) as server:
        ann = Player(server, "Ann")
        await enter_lobby(ann, server)
        stuck = await Watcher.open(server, "Ann", read=False)  # reads nothing at all
        assert server.state.watchers
        assert ann.process is not None
        for turn in range(40):  # every size change draws the whole screen again
            ann.process.change_terminal_size(*((120, 40) if turn % 2 else (100, 32)))
            await asyncio.sleep(0.15)
            if not server.state.watchers:
                break
        await wait_until(lambda: not server.state.watchers, 15,
                         what="the lagging watcher to be dropped")
        reading = asyncio.get_running_loop().run_in_executor(None, stuck.read)
        mark = ann.mark()
        started = time.monotonic()
        await ann.press("t")
        await ann.sees(TABLES_TITLE, since=mark, timeout=5)
        assert time.monotonic() - started < 5
        await asyncio.wait_for(reading, 15)  # what had been sent, then why it ended
        assert stuck.ended is not None and "fell behind" in stuck.ended
        await ann.close()


async def test_trash_admin_watch_in_a_terminal_shows_the_player_and_q_detaches(
        tmp_path: Path) -> None:
    async with table_server(tmp_path) as server:
        ann = Player(server, "Ann")
        await enter_lobby(ann, server)
        pane = TmuxPane(tmp_path)
        command = shlex.join([sys.executable, "-m", "trash_tui.cli.main", "admin",
                              "--socket", str(server.config.admin_path), "watch", "Ann"])
        try:
            pane.start(f"{command}; echo EXIT=$?; sleep 30", 100, 32)
            await asyncio.to_thread(pane.wait_for, "New match", timeout=20)
            mark = ann.mark()
            await asyncio.to_thread(pane.press, "t")
            await asyncio.sleep(1.0)
            assert not ann.saw(TABLES_TITLE, since=mark)
            await ann.press("t")
            await asyncio.to_thread(pane.wait_for, TABLES_TITLE, timeout=20)
            await asyncio.to_thread(pane.press, "q")
            text = await asyncio.to_thread(pane.wait_for, "EXIT=0", timeout=20)
            assert "stopped watching Ann" in text
            await wait_until(lambda: not server.state.watchers, what="the watcher to go")
            pane.kill()
            pane = TmuxPane(tmp_path)  # ctrl-c stops it as well
            pane.start(f"{command}; echo EXIT=$?; sleep 30", 100, 32)
            await asyncio.to_thread(pane.wait_for, TABLES_TITLE, timeout=20)
            await asyncio.to_thread(pane.press, "C-c")
            text = await asyncio.to_thread(pane.wait_for, "EXIT=0", timeout=20)
            assert "stopped watching Ann" in text
            pane.kill()
            pane = TmuxPane(tmp_path)
            pane.start(f"{command.replace('Ann', 'Nobody')}; echo EXIT=$?; sleep 30", 100, 32)
            text = await asyncio.to_thread(pane.wait_for, "EXIT=2", timeout=20)
            assert "no player is called 'Nobody'" in text
        finally:
            pane.kill()
            with contextlib.suppress(Exception):
                await ann.close()


def test_watch_finds_the_servers_socket_from_its_config_like_every_command(
        tmp_path: Path) -> None:
    """`trash admin --config FILE watch` looks for the console where every other command
    does (it once looked for a socket called None)."""
    from click.testing import CliRunner

    from trash_tui.cli.main import cli

    config = tmp_path / "server.toml"
    config.write_text(f'[server]\nadmin_socket = "{tmp_path / "console.sock"}"\n',
                      encoding="utf-8")
    for command in (["who"], ["watch", "Ann"]):
        result = CliRunner().invoke(cli, ["admin", "--config", str(config), *command])
        assert result.exit_code != 0
        assert str(tmp_path / "console.sock") in result.output, result.output
        assert "None" not in result.output
