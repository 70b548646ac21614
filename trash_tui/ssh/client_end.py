"""A session's client end: what a session's app process is wired to, whatever the front.

``PtyChild`` and the session runner (``server.serve_session``) talk to the player through a
``ClientEnd``: the window's size, what the player types (bytes) or a window change
(``Resize``), the app's output written back, the end of the session (``exit``), and a
refusal in one line (``refuse``) before any app ran. ``SshEnd`` here is the SSH one, over an
``asyncssh.SSHServerProcess``; the web front has its own over a WebSocket
(``trash_tui.web.socket_end``). An end's ``write``, ``drain`` and ``exit`` raise only
``ConnectionError`` (or ``OSError``) once the client has gone.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import asyncssh

READ_SIZE = 65536


class Resize(NamedTuple):
    """A window change from the client (character cells; pixels, 0 when unknown)."""

    columns: int
    rows: int
    width: int = 0
    height: int = 0


class ClientEnd(Protocol):
    """The player's side of one session, as ``PtyChild`` and the runner use it."""

    #: "ssh" or "web": how the player came in (``trash admin who``, the app's TRASH_WAY)
    way: str

    def size(self) -> tuple[int, int, int, int]:
        """The window's size now: columns, rows, pixel width and height (0: unknown)."""
        ...

    async def read(self) -> bytes | Resize | None:
        """What the player typed next, a window change, or None once the client is gone."""
        ...

    def write(self, data: bytes) -> None:
        """Send the app's output (or the server's own words) to the player's terminal."""
        ...

    async def drain(self) -> None:
        """Until what was written has gone out (flow control)."""
        ...

    async def wait_closed(self) -> None:
        """Until the client's side has closed."""
        ...

    def exit(self, status: int) -> None:
        """End the session with ``status`` (the client is told, then the end closes)."""
        ...

    def refuse(self, message: str) -> None:
        """Refuse the session in one line (no app ran), then end it with status 1."""
        ...


class SshEnd:
    """The client end of an SSH session: its channel's standard streams and window."""

    way = "ssh"

    def __init__(self, process: asyncssh.SSHServerProcess) -> None:
        self.process = process

    def size(self) -> tuple[int, int, int, int]:
        return self.process.get_terminal_size()

    async def read(self) -> bytes | Resize | None:
        """Breaks and signals from the client are skipped (only the server signals the app)."""
        while True:
            try:
                data = await self.process.stdin.read(READ_SIZE)
            except asyncssh.TerminalSizeChanged as change:
                return Resize(change.width, change.height, change.pixwidth, change.pixheight)
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (ConnectionError, asyncssh.Error):
                return None
            if not data:
                return None
            return data.encode() if isinstance(data, str) else data

    def write(self, data: bytes) -> None:
        try:
            self.process.stdout.write(data)
        except asyncssh.Error as exc:
            raise ConnectionError(str(exc)) from None

    async def drain(self) -> None:
        try:
            await self.process.stdout.drain()
        except asyncssh.Error as exc:
            raise ConnectionError(str(exc)) from None

    async def wait_closed(self) -> None:
        try:
            await self.process.wait_closed()
        except asyncssh.Error as exc:
            raise ConnectionError(str(exc)) from None

    def exit(self, status: int) -> None:
        try:
            self.process.exit(status)
        except asyncssh.Error as exc:
            raise ConnectionError(str(exc)) from None

    def refuse(self, message: str) -> None:
        """The line on the client's standard error (``\\r\\n`` on a terminal), status 1."""
        newline = "\r\n" if self.process.get_terminal_type() is not None else "\n"
        try:
            self.process.stderr.write((message + newline).encode())
            self.process.exit(1)
        except (ConnectionError, asyncssh.Error):
            pass
