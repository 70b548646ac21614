"""The table service: every shared table of the SSH server, in the server's own process.

Why here, not in a process of its own: a table must outlive the sessions of the people
at it, so it cannot live in a session's app; the server is already the one long-lived
process that knows who each session is (their key), so it can hand each session's app a
token (``register``) and needs no second trust boundary; and a table's work is small
(an engine step is microseconds, a saved action one short transaction).

``TableService`` is a small facade over its parts, each given what it needs when it is made
(nothing is assigned onto them afterwards):

- ``worker.py``: the one thread of the engine, the bots and the history database (the SSH
  server and the admin console use the same ``Worker``);
- ``hub.py``: the Unix socket in a private folder, its framing, the sessions by token, each
  client's message rate (``rates.TokenBucket``, the SSH front's limiter too);
- ``rooms.py``: the open tables and who sits, watches and leaves where: synchronous, each
  change an ``Outbox`` of what to send to whom and what to save;
- ``pacer.py``: each table's pace on the boards' ``TurnDriver`` (bots, stand-ins, the turn
  clock), at the ``Pace`` the welcome tells every client;
- ``social.py``: chat, ignore, report, with the server's mutes as a declared interface;
- ``linking.py``: the one-time codes that link a browser to a player's key, made by the
  web face's maker the server passes in (``LinkCodes``, a declared interface);
- ``keeper.py``: the tables in the history database (every table and every action is kept
  as it happens, so a restarted server restores every unfinished table: ``start``);
- ``desk.py``: the operator's side (the motd, ``say``, a word to one player, the admin's
  views); ``requests.py``: what each message of the protocol does with all of them.

A session's app is a client on the socket (``hello`` with its token first); what it sends is
checked here (the server is the authority), what it gets is its own seat's observation and
the public events, never the seed or a deck. A player reconnecting finds their seat
(``welcome`` names it; ``mine`` lists every seat they hold). A restored match holds still
for up to ``empty_timeout`` at the turn of a player not back since the restart (no stand-in
plays for them: ``Table.held``), so nobody leaves a match because of the server. A table
plays on — bots, and the stand-in for each seat whose player is away — while anyone is
connected to it, a seated player or a spectator; with nobody connected it waits, and after
``empty_timeout`` it is saved and closed (``sweep``, every ``JANITOR_EVERY`` s). Limits
(``TableLimits``) bound what any one player can make the service spend: tables,
spectators, chat, message rate, bytes waiting to be sent.

The operator's side: ``kick`` tells a session why and unseats it as a dropped connection;
``close_by_code`` saves and closes a table for good (its host cannot reopen it, and is told
so); ``say``, ``set_motd``, ``tell_player`` are the desk's.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from trash_tui.play.turns import TABLE_PACE, Pace
from trash_tui.tables.desk import Desk
from trash_tui.tables.hub import Client, Hub, Report
from trash_tui.tables.keeper import Keeper
from trash_tui.tables.linking import LinkCodes, Linking, NoLinkCodes
from trash_tui.tables.requests import Requests
from trash_tui.tables.rooms import RoomLimits, Rooms
from trash_tui.tables.social import Mutes, NoMutes, Social
from trash_tui.tables.table import FINISHED, HUMAN, PLAYING, WAITING, Table, new_code
from trash_tui.tables.worker import Worker

T = TypeVar("T")
JANITOR_EVERY = 5.0
PRUNE_EVERY = 600.0  # seconds between two prunings of the kept chat


@dataclass(frozen=True)
class TableLimits:
    """What the server config allows (``[server]`` keys of the same names), and the pace."""

    max_tables: int = 50  # open tables on the server
    tables_per_player: int = 2  # open tables one player hosts
    spectators_per_table: int = 20
    chat_per_minute: int = 12  # chat lines one player may send a minute
    empty_timeout: float = 600.0  # seconds a table with nobody connected stays open
    chat_days: int = 3  # days the chat is kept for the operator's reports (0: not kept)
    bot_delay: float = TABLE_PACE.bot_delay  # seconds between two moves of bots or stand-ins
    deal_pause: float = TABLE_PACE.deal_pause  # seconds from a deal's end to the next move

    @property
    def pace(self) -> Pace:
        return Pace(self.bot_delay, self.deal_pause)

    @property
    def rooms(self) -> RoomLimits:
        return RoomLimits(self.max_tables, self.tables_per_player, self.spectators_per_table,
                          self.empty_timeout)


def _quiet(message: str, detail: str = "") -> None:
    """No one to report to."""


class TableService:
    """Every shared table; ``await start()``, ``register(identity)`` per session,
    ``await stop()``."""

    def __init__(self, history_path: Path, limits: TableLimits | None = None,
                 report: Report | None = None,
                 public_address: tuple[str, int] | None = None, *,
                 worker: Worker | None = None, mutes: Mutes | None = None,
                 on_move: Callable[[], None] = lambda: None,
                 on_report: Callable[[], None] = lambda: None,
                 note: Report | None = None, link_codes: LinkCodes | None = None) -> None:
        self.history_path = history_path
        #: the config's limits (a reload puts new ones here: every part reads them at use)
        self.limits = limits or TableLimits()
        #: where players connect from outside ((host, port); the welcome tells it, so the
        #: waiting room can show ``ssh -p PORT CODE@HOST``); None: not known
        self.public_address = public_address
        self.report = report or _quiet
        self.worker = worker or Worker(history_path)
        self.stopping = False
        self.janitor: asyncio.Task[None] | None = None
        self.hub = Hub(self.handle, self.gone, self.report, lambda: self.stopping)
        self.rooms = Rooms(lambda: self.limits.rooms, lambda: asyncio.get_running_loop().time())
        self.keeper = Keeper(self.worker, lambda: secrets.randbelow(2**62))
        self.desk = Desk(self.hub)
        self.social = Social(self.worker, mutes or NoMutes(),
                             lambda: self.limits.chat_per_minute, lambda: self.limits.chat_days,
                             note or self.report, self.report, on_report)
        self.requests = Requests(self.worker, self.hub, self.rooms, self.keeper, self.social,
                                 self.desk, lambda: self.limits.pace, self.report,
                                 lambda: self.public_address, on_move,
                                 lambda taken: new_code(taken),
                                 Linking(link_codes or NoLinkCodes()))
        self.pacer = self.requests.pacer

    # --- what the server and the tests look at ----------------------------------------------
    @property
    def tables(self) -> dict[int, Table]:
        return self.rooms.tables

    @property
    def clients(self) -> set[Client]:
        return self.hub.clients

    @property
    def socket_path(self) -> Path:
        return self.hub.socket_path

    @property
    def motd(self) -> str | None:
        return self.desk.motd

    async def handle(self, client: Client, message: dict[str, Any]) -> None:
        await self.requests.handle(client, message)

    async def gone(self, client: Client) -> None:
        await self.requests.gone(client)

    async def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the service's worker thread."""
        return await self.worker.run(work)

    def register(self, identity: str, address: str | None = None) -> str:
        """A session's token (``Hub.register``)."""
        return self.hub.register(identity, address)

    def unregister(self, token: str) -> None:
        self.hub.unregister(token)

    def reconfigure(self, limits: TableLimits,
                    public_address: tuple[str, int] | None) -> None:
        """New limits and public address (a reload of the config; every part reads them
        at its next use)."""
        self.limits, self.public_address = limits, public_address

    # --- starting and stopping ------------------------------------------------------------
    async def start(self) -> None:
        """Open the database, restore every unfinished table, listen on the socket."""
        await self.worker.open()
        await self.social.prune()
        for row in await self.keeper.open_rows():
            await self.requests.restore(row)
        await self.hub.listen()
        self.janitor = asyncio.ensure_future(self.sweep())

    def hold(self) -> None:
        """The server is stopping: no table moves any more (no bot, stand-in or turn
        clock), and a session that leaves now keeps its seat as it is (every table is
        saved; a restarted server restores it)."""
        self.stopping = self.requests.stopping = True
        if self.janitor is not None:
            self.janitor.cancel()
        self.pacer.hold()

    async def stop(self) -> None:
        """Stop: every table is already saved; close the clients, the socket, the thread."""
        self.hold()
        self.hub.close()
        await self.worker.close()

    async def sweep(self) -> None:
        """Close tables nobody has been at for ``empty_timeout`` s; forget finished ones;
        prune the kept chat now and then."""
        while True:
            await asyncio.sleep(JANITOR_EVERY)
            if time.monotonic() - self.social.pruned > PRUNE_EVERY:
                await self.social.prune()
            for table, why in list(self.rooms.expired(asyncio.get_running_loop().time())):
                await self.requests.close_table(table, why)

    # --- the operator's side ----------------------------------------------------------------
    def client_of(self, token: str) -> Client | None:
        """The connected app of the session with ``token``, if it is connected."""
        return self.hub.client_of(token)

    def where(self, client: Client) -> str:
        return self.desk.where(client)

    def admin_tables(self) -> list[dict[str, Any]]:
        return self.desk.rows(list(self.rooms.tables.values()))

    def kick(self, token: str, why: str) -> bool:
        """Tell the session ``token`` it is kicked (``why``) and unseat it as a dropped
        connection (the stand-in plays its seat); whether its app was connected."""
        client = self.hub.client_of(token)
        if client is None:
            return False
        client.send({"op": "kicked", "why": why})
        self.worker.spawn(self.requests.unseat(client, "was removed by the server's operator"))
        return True

    async def close_by_code(self, code: str, why: str) -> bool:
        table = self.rooms.by_code(code)
        if table is None or table.status not in (WAITING, PLAYING, FINISHED):
            return False
        for client in [*table.members.values(), *table.spectators]:
            client.send({"op": "notice", "text": f"The server's operator closed this table: "
                                                 f"{why}. It stays closed."})
        await self.requests.close_table(table, why, by_operator=True)
        return True

    def say(self, text: str, seconds: float) -> int:
        return self.desk.say(text, seconds)

    def set_motd(self, text: str | None) -> None:
        self.desk.set_motd(text)

    def tell_player(self, identity: str, text: str) -> int:
        return self.desk.tell_player(identity, text)


__all__ = ["HUMAN", "TableLimits", "TableService"]
