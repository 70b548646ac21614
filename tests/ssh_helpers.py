"""Helpers for the SSH server tests: a server in a tmp folder, an SSH client that reads the
app's screen as text, and waiting for things that happen in other processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncssh

from trash_tui.ssh.config import ServerConfig
from trash_tui.ssh.server import RunningServer, start_server
from trash_tui.ssh.session import settings_file

#: Escape sequences: CSI, OSC, DCS/APC strings, charset selection and single-char escapes.
_ESCAPES = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]"
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
    rb"|\x1b[P_^X][^\x1b]*\x1b\\"
    rb"|\x1b[()][0-9A-Za-z]"
    rb"|\x1b[ -/]*[0-~]"
)


def screen_text(data: bytes) -> str:
    """The text of terminal output with every escape sequence removed."""
    return _ESCAPES.sub(b"", data).decode("utf-8", "replace")


def server_config(folder: Path, **changes: Any) -> ServerConfig:
    """A config whose files all live in ``folder``, on a free port of 127.0.0.1."""
    config = ServerConfig(host="127.0.0.1", port=0, host_key=folder / "host_key",
                          history=folder / "history.sqlite3", players_dir=folder / "players",
                          log=folder / "ssh.log", idle_timeout=0)
    return replace(config, **changes)


@contextlib.asynccontextmanager
async def serving(folder: Path, echo: io.StringIO | None = None,
                  command: tuple[str, ...] | None = None, **changes: Any
                  ) -> AsyncIterator[RunningServer]:
    """A running server whose files live in ``folder`` (``changes`` override the config,
    ``command`` replaces the app, ``echo`` collects the human log lines); stopped at the
    end."""
    options: dict[str, Any] = {"command": command} if command is not None else {}
    server = await start_server(server_config(folder, **changes),
                                echo=echo if echo is not None else io.StringIO(), **options)
    try:
        yield server
    finally:
        await server.stop(grace=3.0)


def quiet_player(config: ServerConfig, key: asyncssh.SSHKey) -> None:
    """Give the key's player settings with animations off (bots move at once)."""
    path = settings_file(config.players_dir, key.get_fingerprint("sha256"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[app]\nanimation = "off"\nname = "Tester"\n', encoding="utf-8")


async def connect(server: RunningServer, key: asyncssh.SSHKey | None = None,
                  **options: Any) -> asyncssh.SSHClientConnection:
    """An SSH connection to ``server`` (no host key check) with ``key``."""
    options.setdefault("username", "player")
    if key is not None:
        options.setdefault("client_keys", [key])
    return await asyncssh.connect("127.0.0.1", server.port, known_hosts=None,
                                  agent_path=None, **options)


class Terminal:
    """A PTY session's process on the client side, with everything it printed so far."""

    def __init__(self, process: asyncssh.SSHClientProcess) -> None:
        self.process = process
        self.output = bytearray()

    @classmethod
    async def open(cls, conn: asyncssh.SSHClientConnection, size: tuple[int, int] = (100, 32)
                   ) -> Terminal:
        process = await conn.create_process(term_type="xterm-256color", term_size=size,
                                            encoding=None)
        return cls(process)

    def text(self, since: int = 0) -> str:
        return screen_text(bytes(self.output[since:]))

    async def read_until(self, *needles: str, since: int = 0, timeout: float = 20.0) -> str:
        """Read until the screen text (from byte ``since``) holds one of ``needles`` (spaces
        are ignored); the text. TimeoutError with the tail of the text otherwise."""
        wanted = [needle.replace(" ", "") for needle in needles]
        deadline = time.monotonic() + timeout
        while True:
            text = self.text(since)
            if any(needle in text.replace(" ", "") for needle in wanted):
                return text
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"none of {needles} in the output: ...{text[-600:]!r}")
            try:
                data = await asyncio.wait_for(self.process.stdout.read(65536), min(left, 0.5))
            except TimeoutError:
                continue
            if not data and self.process.stdout.at_eof():
                raise TimeoutError(f"the session ended without {needles}: ...{text[-600:]!r}")
            self.output += data

    async def drain(self, seconds: float = 0.2) -> None:
        """Read whatever arrives during ``seconds``."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                data = await asyncio.wait_for(self.process.stdout.read(65536), left)
            except TimeoutError:
                return
            if not data:
                return
            self.output += data

    async def press(self, *keys: str, pause: float = 0.05) -> None:
        """Type ``keys`` (each a string of characters), reading output in between."""
        for key in keys:
            self.process.stdin.write(key.encode())
            await self.drain(pause)


async def eventually(check: Callable[[], Any], timeout: float = 10.0, every: float = 0.1
                     ) -> Any:
    """Wait until ``check()`` returns something true; it. AssertionError at the timeout."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {check}")
        await asyncio.sleep(every)


def process_gone(pid: int) -> bool:
    """Whether process ``pid`` has exited (a zombie not yet reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            state = file.read().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")

