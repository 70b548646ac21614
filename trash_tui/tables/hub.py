"""The table service's front door: the socket, its framing, the sessions by token.

A session's app is a client on a Unix socket in a private folder (mode 0700, the socket
0600). The SSH server hands each session a token (``register``: the player's identity and
the address its connection comes from); the app's first line is ``hello`` with it. Each
line is one JSON message (``protocol.py``) of at most ``MAX_LINE`` bytes; a client may send
``MESSAGES_PER_SECOND`` a second (a burst of twice as many), and one that lets
``MAX_PENDING`` bytes pile up unread is dropped. What a client sends is handed to the
service's ``handle``; a refusal (``ProtocolError``, ``TableError``) is one ``error`` line
back to it, a database failure is reported and the client told it could not be saved, and
no failure of one client stops the others. When a client goes, ``gone`` is told.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import tempfile
import traceback
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trash_tui.history import HistoryError
from trash_tui.play.table_protocol import MAX_LINE, ProtocolError, decode, encode
from trash_tui.tables.rates import TokenBucket
from trash_tui.tables.table import TableError
from trash_tui.text import clean

if TYPE_CHECKING:
    from trash_tui.tables.table import Table

MAX_PENDING = 2 * 1024 * 1024  # bytes waiting for a slow client before it is dropped
MESSAGES_PER_SECOND = 20  # a client's sustained message rate (a burst of 40 is allowed)
Report = Callable[[str, str], None]


@dataclass(eq=False)
class Client:
    """One session's app connected to the service: its connection, who it is, where it is
    (``table``, ``seat``: the rooms'), what it hides and how fast it may talk."""

    writer: asyncio.StreamWriter
    identity: str | None = None
    name: str = "Player"
    table: Table | None = None
    seat: int | None = None  # None: watching (or at no table)
    sent_events: int = 0  # how many of the table's events it has been sent
    wants_list: bool = False
    closed: bool = False
    token: str = ""  # the session's token (the server knows the session by it)
    address: str | None = None  # where its SSH connection comes from
    ignored: set[str] = field(default_factory=set)  # identities whose chat it does not get
    messages: TokenBucket = field(default_factory=lambda: TokenBucket(
        2 * MESSAGES_PER_SECOND, MESSAGES_PER_SECOND))
    chat: TokenBucket | None = None  # its chat lines' limit (``social.py``)
    reports: TokenBucket | None = None  # its reports' limit (``social.py``)

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message``; a client that lets MAX_PENDING bytes pile up is dropped."""
        if self.closed:
            return
        transport = self.writer.transport
        if transport.is_closing():
            self.closed = True
            return
        if transport.get_write_buffer_size() > MAX_PENDING:
            self.close()
            return
        self.writer.write(encode(message))

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.close()

    def where(self) -> str:
        """Where the session is, in one word: lobby, table or watching."""
        if self.table is None:
            return "lobby"
        return "watching" if self.seat is None else "table"


class Hub:
    """The socket and the clients on it; ``await listen()``, ``close()``."""

    def __init__(self, handle: Callable[[Client, dict[str, Any]], Awaitable[None]],
                 gone: Callable[[Client], Awaitable[None]], report: Report,
                 stopping: Callable[[], bool]) -> None:
        self.handle = handle
        self.gone = gone
        self.report = report
        self.stopping = stopping
        self.tokens: dict[str, str] = {}  # token -> identity
        self.addresses: dict[str, str] = {}  # token -> the session's address
        self.clients: set[Client] = set()
        self.folder = Path(tempfile.mkdtemp(prefix="trash-tables-"))  # mode 0700
        self.socket_path = self.folder / "tables.sock"
        self.server: asyncio.AbstractServer | None = None

    def register(self, identity: str, address: str | None = None) -> str:
        """A token a session's app proves it is ``identity`` with (``address``: where
        its SSH connection comes from, for the sanctions that follow an address)."""
        token = secrets.token_urlsafe(24)
        self.tokens[token] = identity
        if address is not None:
            self.addresses[token] = address
        return token

    def unregister(self, token: str) -> None:
        self.tokens.pop(token, None)
        self.addresses.pop(token, None)

    def identify(self, client: Client, token: str) -> bool:
        """``client`` said hello with ``token``: whether it is a session of this server
        (its identity and address are then the session's)."""
        identity = self.tokens.get(token)
        if identity is None:
            return False
        client.identity, client.token = identity, token
        client.address = self.addresses.get(token)
        return True

    def client_of(self, token: str) -> Client | None:
        """The connected app of the session with ``token``, if it is connected."""
        if not token:
            return None
        return next((c for c in self.clients if c.token == token and not c.closed), None)

    def everyone(self) -> Iterator[Client]:
        """Every client that said hello and is still connected."""
        return (c for c in list(self.clients) if c.identity is not None and not c.closed)

    async def listen(self) -> None:
        self.server = await asyncio.start_unix_server(self.accept, path=str(self.socket_path),
                                                      limit=MAX_LINE)
        os.chmod(self.socket_path, 0o600)

    def close(self) -> None:
        """Stop listening and close every client; the folder goes."""
        if self.server is not None:
            self.server.close()
        for client in list(self.clients):
            client.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    async def accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client = Client(writer)
        self.clients.add(client)
        try:
            while not client.closed and not self.stopping():
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):  # a line over MAX_LINE
                    client.send({"op": "error", "message": "message too long"})
                    break
                except (ConnectionError, OSError):
                    break
                if not line:
                    break
                if not client.messages.take():
                    client.send({"op": "error", "message": "too many messages: slow down"})
                    continue
                try:
                    await self.handle(client, decode(line))
                except (ProtocolError, TableError) as exc:
                    client.send({"op": "error", "message": clean(exc, 300)})
                except HistoryError as exc:
                    self.report(f"tables: the history database failed: {exc}", "")
                    client.send({"op": "error", "message": "the server could not save that"})
        except Exception as exc:  # one client never stops the service
            self.report(f"tables: a client failed: {type(exc).__name__}: {exc}",
                        traceback.format_exc())
        finally:
            self.clients.discard(client)
            client.close()
            try:
                await self.gone(client)
            except Exception as exc:  # (stopping: the database may be closed meanwhile)
                if not self.stopping():
                    self.report(f"tables: a client's leaving failed: {type(exc).__name__}: "
                                f"{exc}", traceback.format_exc())
