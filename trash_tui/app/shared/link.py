"""The app's line to the SSH server's table service (shared tables).

Over SSH, the server gives each session's app the service's socket and a token in its
environment (``trash_tui.tables.protocol``). ``TablesLink.from_environment`` reads them;
``connect`` says hello (the token proves who the player is) and returns the welcome
(``waiting`` names a table where the player holds a seat). Every message that arrives is
handed to the current listeners (screens add themselves while they are shown), in the
app's own event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Mapping
from typing import Any

from trash_tui.tables.protocol import (
    JOIN_ENV,
    MAX_LINE,
    SOCKET_ENV,
    TOKEN_ENV,
    ProtocolError,
    decode,
    encode,
    normal_code,
)

Listener = Callable[[dict[str, Any]], None]


class TablesLink:
    """A connection to the table service; ``send`` requests, ``listen`` for messages."""

    def __init__(self, socket_path: str, token: str, join_code: str | None = None) -> None:
        self.socket_path = socket_path
        self.token = token
        self.join_code = join_code  # from the SSH user name: go straight to that table
        self.writer: asyncio.StreamWriter | None = None
        self.listeners: list[Listener] = []
        self.welcome: dict[str, Any] | None = None
        self.reader_task: asyncio.Task[None] | None = None
        self.closed = False
        self.motd: str | None = None  # the server's message of the day (``notices``)

    @classmethod
    def from_environment(cls, env: Mapping[str, str] = os.environ) -> TablesLink | None:
        """The link the server set up for this session, or None (not over SSH)."""
        socket_path, token = env.get(SOCKET_ENV), env.get(TOKEN_ENV)
        if not socket_path or not token:
            return None
        return cls(socket_path, token, normal_code(env.get(JOIN_ENV, "")))

    @property
    def connected(self) -> bool:
        return self.writer is not None and not self.closed

    async def connect(self, timeout: float = 5.0) -> dict[str, Any]:
        """Connect and say hello; the welcome. OSError or ProtocolError on failure."""
        reader, writer = await asyncio.wait_for(
            asyncio.open_unix_connection(self.socket_path, limit=MAX_LINE), timeout)
        writer.write(encode({"op": "hello", "token": self.token}))
        line = await asyncio.wait_for(reader.readline(), timeout)
        welcome = decode(line)
        if welcome["op"] != "welcome":
            writer.close()
            raise ProtocolError(str(welcome.get("message", "the table service refused")))
        self.writer = writer
        self.welcome = welcome
        self.reader_task = asyncio.ensure_future(self._read(reader))
        return welcome

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                try:
                    message = decode(line)
                except ProtocolError:
                    continue
                for listener in list(self.listeners):
                    listener(message)
        except (ConnectionError, OSError, ValueError):
            pass
        finally:
            self.closed = True
            for listener in list(self.listeners):
                listener({"op": "disconnected"})

    def send(self, message: dict[str, Any]) -> bool:
        """Send a request; False when the link is down."""
        if not self.connected or self.writer is None:
            return False
        try:
            self.writer.write(encode(message))
        except (ConnectionError, OSError, RuntimeError):
            self.closed = True
            return False
        return True

    def listen(self, listener: Listener) -> None:
        if listener not in self.listeners:
            self.listeners.append(listener)

    def ignore(self, listener: Listener) -> None:
        with contextlib.suppress(ValueError):
            self.listeners.remove(listener)

    def close(self) -> None:
        self.closed = True
        if self.reader_task is not None:
            self.reader_task.cancel()
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()
