"""The table service: every shared table of the SSH server, in the server's own process.

Why here, not in a process of its own: a table must outlive the sessions of the people
at it, so it cannot live in a session's app; the server is already the one long-lived
process that knows who each session is (their key), so it can hand each session's app a
token (``register``) and needs no second trust boundary; and a table's work is small
(an engine step is microseconds, a saved action one short transaction). The engine, the
bots and the history database run on one worker thread (``run``), so a bot that thinks
never stalls the SSH connections, and the database connection is only ever used from that
thread. A session's app is a client on a Unix socket in a private folder (``hello`` with
its token first); what it sends is checked here (the server is the authority), what it
gets is its own seat's observation and the public events, never the seed or a deck.

Every table and every action is in the history database as it happens, so a restarted
server restores every unfinished table (``start``), and a player reconnecting finds their
seat (``welcome`` names it; ``mine`` lists every seat they hold). A restored match holds
still for up to ``empty_timeout`` at the turn of a player not back since the restart (no
stand-in plays for them: ``Table.held``), so nobody leaves a match because of the server.
A table plays on — bots, and the stand-in for each seat whose player is away — while
anyone is connected to it, a seated player or a spectator; with nobody connected it waits,
and after
``empty_timeout`` it is saved and closed. A step that fails (a bot, a stand-in, the clock)
is reported and tried again after the bot delay; after ``MAX_FAILURES`` failures in a row
the table is saved and closed with one line saying why (its host can reopen it).
Limits (``TableLimits``) bound what any one player can make the service spend: tables,
spectators, chat, message rate, bytes waiting to be sent.

The operator's side (``trash admin``, through the SSH server): a muted player's chat
lines reach nobody (they are told so at once, wherever they are, by ``tell_player``, and
again at each line they try); ``say`` is a notice to every session (one that
connects while it is still up gets it too), ``motd`` the lobby's line; a warning is told
at once, or (``hello``) when its player next arrives; ``kick`` tells a
session why and unseats it as a dropped connection; ``close_by_code`` saves and closes a
table for good (its host cannot reopen it, and is told so). Players protect themselves at a
table: ``ignore`` hides one person's chat lines from them alone, ``report`` sends the
operator (log and ``trash admin reports``) a report with the table's last chat lines, about
someone there or someone who was (``Table.been``: who sat, watched or chatted, bounded).
Every chat line is also kept in the history database for ``chat_days`` (``keep_chat``;
older lines are pruned at start and every ``PRUNE_EVERY`` s), so a report can be judged
past its last lines.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import sqlite3
import tempfile
import time
import traceback
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from bots.registry import make_bot
from trash_tui.engine.rng import derive_seed
from trash_tui.history import SHARED_OWNER, History, HistoryError
from trash_tui.players.identity import PLACEHOLDER_NAME, default_name
from trash_tui.players.rater import open_history
from trash_tui.players.rating import display
from trash_tui.tables.protocol import (
    MAX_LINE,
    VERSION,
    ProtocolError,
    decode,
    encode,
    match_state,
    normal_code,
)
from trash_tui.tables.table import (
    CLOSED,
    FINISHED,
    HUMAN,
    PLAYING,
    WAITING,
    SeatState,
    Table,
    TableConfig,
    TableError,
    new_code,
    numbered,
)
from trash_tui.text import clean, duration

T = TypeVar("T")

SNAPSHOT_EVENTS = 200  # events a newcomer to a table gets (the log's tail)
CHAT_LENGTH = 200
TOLD_SECONDS = 20.0  # how long a word from the operator to one player stays up
MAX_PENDING = 2 * 1024 * 1024  # bytes waiting for a slow client before it is dropped
MESSAGES_PER_SECOND = 20  # a client's sustained message rate (a burst of 40 is allowed)
FINISHED_KEPT = 120.0  # seconds a finished table stays listed
CLOSED_TOLD = 7 * 86400.0  # a seat at a table that closed is mentioned in the lobby this long
JANITOR_EVERY = 5.0
PRUNE_EVERY = 600.0  # seconds between two prunings of the kept chat
REPORTS_PER_WINDOW, REPORT_WINDOW = 5, 3600.0  # a session's reports to the operator
MAX_FAILURES = 3  # steps of a table failing in a row before it is saved and closed
BROKEN = ("the server hit an error at this table, so it is saved and closed (its host can "
          "reopen it)")
DEMOTED = "you sat down at this table in another session: it goes on there"
OPERATOR_CLOSED = "operator_closed"  # a closed table's config key: the operator closed it


def warning_text(reason: str) -> str:
    """What a warned player is shown (at once, or when they next arrive)."""
    return f"Warning from the server's operator: {reason}"


def closed_by_operator(row: dict[str, Any]) -> bool:
    """Whether the stored closed table ``row`` was closed by the server's operator (it
    stays closed: its host cannot reopen it)."""
    return isinstance(row.get("config"), dict) and row["config"].get(OPERATOR_CLOSED) is True


@dataclass(frozen=True)
class TableLimits:
    """What the server config allows (``[server]`` keys of the same names)."""

    max_tables: int = 50  # open tables on the server
    tables_per_player: int = 2  # open tables one player hosts
    spectators_per_table: int = 20
    chat_per_minute: int = 12  # chat lines one player may send a minute
    empty_timeout: float = 600.0  # seconds a table with nobody connected stays open
    chat_days: int = 3  # days the chat is kept for the operator's reports (0: not kept)
    bot_delay: float = 0.8  # seconds between two moves of bots or stand-ins
    deal_pause: float = 3.0  # more seconds before the first move of a new deal


@dataclass(eq=False)
class Client:
    """One session's app connected to the service."""

    writer: asyncio.StreamWriter
    identity: str | None = None
    name: str = "Player"
    table: Table | None = None
    seat: int | None = None  # None: watching (or at no table)
    sent_events: int = 0  # how many of the table's events it has been sent
    wants_list: bool = False
    chat_times: deque[float] = field(default_factory=deque)
    tokens: float = 2.0 * MESSAGES_PER_SECOND
    last_message: float = field(default_factory=time.monotonic)
    closed: bool = False
    token: str = ""  # the session's token (the server knows the session by it)
    address: str | None = None  # where its SSH connection comes from
    ignored: set[str] = field(default_factory=set)  # identities whose chat it does not get
    reported: deque[float] = field(default_factory=deque)  # when it sent its last reports

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

    def rate_ok(self) -> bool:
        """Take a token for one message (a bucket of 2 s worth, refilled continuously)."""
        now = time.monotonic()
        self.tokens = min(2.0 * MESSAGES_PER_SECOND,
                          self.tokens + (now - self.last_message) * MESSAGES_PER_SECOND)
        self.last_message = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class TableService:
    """Every shared table; ``await start()``, ``register(identity)`` per session,
    ``await stop()``."""

    def __init__(self, history_path: Path, limits: TableLimits | None = None,
                 report: Callable[[str, str], None] | None = None,
                 public_address: tuple[str, int] | None = None) -> None:
        self.history_path = history_path
        self.limits = limits or TableLimits()
        #: where players connect from outside ((host, port); the welcome tells it, so the
        #: waiting room can show ``ssh -p PORT CODE@HOST``); None: not known
        self.public_address = public_address
        self.report = report or (lambda message, detail="": None)
        self.tables: dict[int, Table] = {}
        self.tokens: dict[str, str] = {}  # token -> identity
        self.addresses: dict[str, str] = {}  # token -> the session's address
        self.clients: set[Client] = set()
        self.folder = Path(tempfile.mkdtemp(prefix="trash-tables-"))  # mode 0700
        self.socket_path = self.folder / "tables.sock"
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="tables")
        self.history: History | None = None
        self.server: asyncio.AbstractServer | None = None
        self.timers: dict[int, asyncio.TimerHandle] = {}
        self.locks: dict[int, asyncio.Lock] = {}
        self.janitor: asyncio.Task[None] | None = None
        self.list_pending = False
        self.stopping = False
        self.tasks: set[asyncio.Future[Any]] = set()
        self.moderation: Any = None  # the server's bans and mutes (admin.moderation)
        self.on_move: Callable[[], None] = lambda: None  # a move was played (metrics)
        self.on_report: Callable[[], None] = lambda: None  # a player reported one
        self.note: Callable[[str, str], None] = self.report  # the operator's log (reports)
        self.motd: str | None = None  # the line every lobby shows
        self.notice: tuple[str, float] | None = None  # the operator's notice, and its end
        self.pruned = 0.0  # when the kept chat was last pruned (time.monotonic)

    # --- the worker thread ------------------------------------------------------------
    async def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the service's one worker thread (engine, bots, database)."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, work)

    def spawn(self, work: Any) -> None:
        """Run the coroutine ``work`` as a task the service keeps until it is done."""
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    # --- starting and stopping ------------------------------------------------------
    async def start(self) -> None:
        """Open the database, restore every unfinished table, listen on the socket."""
        self.history = await self.run(lambda: open_history(self.history_path))
        await self.prune_chat()
        stored = await self.run(lambda: self._history().matches.shared_tables([WAITING, PLAYING]))
        for row in stored:
            await self.restore(row)
        self.server = await asyncio.start_unix_server(self.accept, path=str(self.socket_path),
                                                      limit=MAX_LINE)
        os.chmod(self.socket_path, 0o600)
        self.janitor = asyncio.ensure_future(self.sweep())

    def hold(self) -> None:
        """The server is stopping: no table moves any more (no bot, stand-in or turn
        clock), and a session that leaves now keeps its seat as it is (every table is
        saved; a restarted server restores it)."""
        self.stopping = True
        if self.janitor is not None:
            self.janitor.cancel()
        for timer in self.timers.values():
            timer.cancel()

    async def stop(self) -> None:
        """Stop: every table is already saved; close the clients, the socket, the thread."""
        self.hold()
        if self.server is not None:
            self.server.close()
        for client in list(self.clients):
            client.close()
        with contextlib.suppress(Exception):
            await self.run(lambda: self.history.close() if self.history else None)
        self.executor.shutdown(wait=False)
        shutil.rmtree(self.folder, ignore_errors=True)

    def _history(self) -> History:
        assert self.history is not None
        return self.history

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

    # --- restoring -------------------------------------------------------------------
    async def restore(self, row: dict[str, Any]) -> Table | None:
        """A stored table back in play (its match rebuilt exactly from its actions)."""
        from trash_tui.play.saving import resume_saved_match

        try:
            config = TableConfig.from_dict(row["config"])
            seats = [SeatState(s["spec"], s.get("identity"), s.get("name")) for s in row["seats"]]
            table = Table(row["id"], row["code"], row["host"], config, seats, row["status"],
                          row["match_id"])
            if table.match_id is not None:
                history = self._history()
                match_row = await self.run(lambda: history.matches.get_match(table.match_id or 0))
                if match_row.status != "playing":
                    table.status = FINISHED
                    await self.save(table)
                    return None
                table.controller = await self.run(lambda: resume_saved_match(history,
                                                                             match_row))
                table.deals_seen = len(table.controller.match.history)
                table.status = PLAYING
                self.tag_record(table)
            elif table.status == PLAYING:
                table.status = WAITING
        except (TableError, HistoryError, KeyError, TypeError, ValueError) as exc:
            self.report(f"table {row.get('id')} cannot be restored: {exc}", "")
            return None
        for index, seat in enumerate(table.seats):  # everyone dropped: away until back
            if seat.identity is not None:
                await self.set_away(table, index, True)
        now = asyncio.get_running_loop().time()
        if table.status == PLAYING:  # nobody left because of the server: the table waits
            table.held = {seat.identity for seat in table.seats if seat.identity}
            table.held_until = now + self.limits.empty_timeout
        table.empty_since = now
        self.tables[table.id] = table
        self.pump(table)
        return table

    @staticmethod
    def tag_record(table: Table) -> None:
        """The match's record will say where it was played and who sat where (the human
        seats by display name and key fingerprint)."""
        from trash_tui.play.saving import MatchSaver

        players = {str(index): {"name": seat.name, "key": seat.identity}
                   for index, seat in enumerate(table.seats) if seat.identity is not None}
        for listener in table.controller.listeners:
            if isinstance(listener, MatchSaver):
                listener.context = {"shared_table": table.code, "players": players}

    async def save(self, table: Table, closed: str | None = None,
                   by_operator: bool = False) -> None:
        """Store the table (``closed``: why it closes, kept with its settings for the
        lobby of those who hold a seat at it; ``by_operator``: the server's operator
        closed it, so it stays closed: its host cannot reopen it)."""
        history = self._history()
        config = table.config.to_dict() | ({"closed": closed} if closed else {}) | \
            ({OPERATOR_CLOSED: True} if by_operator else {})
        await self.run(lambda: history.matches.save_table(
            table.id, table.code, table.host, table.status, config,
            [seat.to_dict() for seat in table.seats], table.match_id))

    # --- clients ---------------------------------------------------------------------
    async def accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client = Client(writer)
        self.clients.add(client)
        try:
            while not client.closed and not self.stopping:
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):  # a line over MAX_LINE
                    client.send({"op": "error", "message": "message too long"})
                    break
                except (ConnectionError, OSError):
                    break
                if not line:
                    break
                if not client.rate_ok():
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
                if not self.stopping:
                    self.report(f"tables: a client's leaving failed: {type(exc).__name__}: "
                                f"{exc}", traceback.format_exc())

    async def handle(self, client: Client, message: dict[str, Any]) -> None:
        op = message["op"]
        if client.identity is None:
            if op != "hello":
                raise ProtocolError("say hello first")
            await self.hello(client, message)
            return
        handler = _HANDLERS.get(op)
        if handler is None:
            raise ProtocolError(f"no such request: {clean(op, 40)!r}")
        await handler(self, client, message)

    async def hello(self, client: Client, message: dict[str, Any]) -> None:
        identity = self.tokens.get(str(message.get("token")))
        if identity is None:
            client.send({"op": "error", "message": "not a session of this server"})
            client.close()
            return
        client.identity = identity
        client.token = str(message.get("token"))
        client.address = self.addresses.get(client.token)
        history = self._history()
        name, warnings = await self.run(lambda: (history.players.player_name(identity),
                                                 history.records.take_untold_warnings(identity)))
        # (a name never registered, or "You" from before it was refused: told apart)
        if not name or name.casefold() == PLACEHOLDER_NAME.casefold():
            name = default_name(identity)
        client.name = clean(name, 24) or default_name(identity)
        waiting = next((t for t in self.tables.values()
                        if t.seat_of(identity) is not None and t.status in (WAITING, PLAYING)),
                       None)
        address = None if self.public_address is None else {
            "host": self.public_address[0], "port": self.public_address[1]}
        client.send({"op": "welcome", "version": VERSION, "name": client.name,
                     "waiting": None if waiting is None else waiting.summary(),
                     "address": address})
        if self.motd:
            client.send({"op": "motd", "text": self.motd})
        if self.notice is not None:
            left = self.notice[1] - time.monotonic()
            if left > 1:
                client.send({"op": "say", "text": self.notice[0], "seconds": round(left, 1)})
        if warnings:  # given while they were away
            client.send({"op": "say", "text": warning_text("; ".join(warnings)),
                         "seconds": TOLD_SECONDS})

    async def gone(self, client: Client) -> None:
        """A client left (closed its app, or the connection dropped)."""
        table = client.table
        if table is not None and not self.stopping:  # stopping: every table is saved
            await self.leave_table(client, dropped=True)

    # --- the list ----------------------------------------------------------------------
    def visible_tables(self, client: Client) -> list[dict[str, Any]]:
        return [table.summary() for table in self.tables.values()
                if table.config.public or table.seat_of(client.identity or "") is not None]

    async def send_list(self, client: Client) -> None:
        history = self._history()
        identity = client.identity or ""
        closed = await self.run(lambda: history.matches.shared_tables([CLOSED], host=identity))
        client.send({"op": "tables", "tables": self.visible_tables(client),
                     "closed": [{"id": row["id"], "name": row["config"].get("name", "?"),
                                 "operator": closed_by_operator(row)}
                                for row in closed][-10:]})

    def tables_changed(self) -> None:
        """Push the list to those watching it (at most every 0.2 s)."""
        if self.list_pending:
            return
        self.list_pending = True

        async def push() -> None:
            await asyncio.sleep(0.2)
            self.list_pending = False
            for client in list(self.clients):
                if client.wants_list and not client.closed:
                    await self.send_list(client)

        self.spawn(push())

    # --- sending a table's state ---------------------------------------------------------
    def audience(self, table: Table) -> list[Client]:
        return [*table.members.values(), *table.spectators]

    def update_for(self, table: Table, client: Client, reset: bool = False) -> dict[str, Any]:
        """What ``client`` sees of ``table`` now: the table, and while playing its own
        seat's observation (a spectator: nobody's legal actions) and the new events."""
        message: dict[str, Any] = {"op": "update", "table": table.summary(),
                                   "seat": client.seat, "reset": reset,
                                   "names": [seat.name if seat.identity else None
                                             for seat in table.seats]}
        controller = table.controller
        if controller is not None:
            events = controller.match.events
            start = max(0, len(events) - SNAPSHOT_EVENTS) if reset else client.sent_events
            client.sent_events = len(events)
            seat = client.seat if client.seat is not None else 0
            observation = controller.observation(seat).to_dict()
            if client.seat is None or table.seats[seat].away:
                observation["legal"] = []
            message.update({
                "names": controller.names, "observation": observation,
                "events": [list(event) for event in events[start:]],
                "state": match_state(controller.match), "actions": len(controller.actions),
                "clock": self.clock_for(table)})
        return message

    def clock_for(self, table: Table) -> dict[str, Any] | None:
        if table.deadline is None or table.controller is None:
            return None
        left = max(0.0, table.deadline - asyncio.get_running_loop().time())
        return {"seat": table.controller.to_move, "left": round(left, 1),
                "total": table.config.clock}

    def broadcast(self, table: Table) -> None:
        for client in self.audience(table):
            client.send(self.update_for(table, client))
        self.tables_changed()

    def tell(self, table: Table, text: str, besides: Client | None = None) -> None:
        """A notice for everyone at ``table`` (but ``besides``, whom it is about)."""
        for client in self.audience(table):
            if client is not besides:
                client.send({"op": "notice", "text": text})

    # --- the requests --------------------------------------------------------------------
    async def req_list(self, client: Client, message: dict[str, Any]) -> None:
        client.wants_list = bool(message.get("follow", True))
        if client.wants_list:  # (a client that stops following needs no last list)
            await self.send_list(client)

    def find(self, client: Client, message: dict[str, Any]) -> Table:
        """The table a request names: by ``code``, by ``table`` id (a public table, or one
        the player sits at) or by the ``match`` it plays (one the player sits at)."""
        code = message.get("code")
        if code is not None:
            wanted = normal_code(str(code))
            table = next((t for t in self.tables.values() if t.code == wanted), None)
            if table is None:
                raise TableError(f"no open table has the code {clean(code, 8)!r}")
            return table
        match_id = message.get("match")
        if isinstance(match_id, int):  # a match of one's own history: back to its seat
            found = next((t for t in self.tables.values() if t.match_id == match_id and
                          t.seat_of(client.identity or "") is not None), None)
            if found is None:
                raise TableError("that match's table is not open now (its host can reopen "
                                 "it from the Tables screen)")
            return found
        table_id = message.get("table")
        table = self.tables.get(table_id) if isinstance(table_id, int) else None
        if table is None or (not table.config.public and
                             table.seat_of(client.identity or "") is None):
            raise TableError("no such table (a private table needs its code)")
        return table

    async def req_create(self, client: Client, message: dict[str, Any]) -> None:
        identity = client.identity or ""
        config = TableConfig.from_request(message.get("config"), f"{client.name}'s table")
        open_tables = [t for t in self.tables.values() if t.status in (WAITING, PLAYING)]
        # unique among the tables listed (a finished one is listed a while longer too)
        config = replace(config, name=numbered(config.name,
                                               {t.config.name for t in self.tables.values()}))
        if len(open_tables) >= self.limits.max_tables:
            raise TableError("the server has as many tables as it can hold: join one, or try "
                             "again later")
        if sum(1 for t in open_tables if t.host == identity) >= self.limits.tables_per_player:
            raise TableError(f"you host {self.limits.tables_per_player} open tables already")
        seats = [SeatState(spec) for spec in config.seats]
        code = new_code({t.code for t in self.tables.values()})
        history = self._history()
        table_id = await self.run(lambda: history.matches.save_table(
            None, code, identity, WAITING, config.to_dict(), [s.to_dict() for s in seats],
            None))
        table = Table(table_id, code, identity, config, seats)
        self.tables[table.id] = table
        table.sit(identity, client.name, 0)
        await self.leave_table(client)
        await self.enter(table, client, 0)
        client.send({"op": "created", "code": code, "table": table.id})
        await self.maybe_start(table)

    async def req_join(self, client: Client, message: dict[str, Any]) -> None:
        table = self.find(client, message)
        identity = client.identity or ""
        seat = message.get("seat")
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < len(table.seats)):
            raise TableError("no such seat")
        if table.status in (FINISHED, CLOSED):
            raise TableError("that table's match is over")
        if table.status != WAITING and table.seat_of(identity) is None:
            # no seat to take: the refusal offers to watch this table (the one asked for,
            # whichever way it was named), so the client watches it and no other
            client.send({"op": "error", "watch": True, "name": clean(table.config.name, 32),
                         "message": "the match has started: you can watch it"})
            return
        if table.seat_of(identity) is None:
            async with self.lock(table):  # (a refusal leaves the client where it was)
                index = table.sit(identity, client.name, seat)
        else:
            index = table.seat_of(identity) or 0
        if client.table is not None and client.table is not table:
            await self.leave_table(client)
        await self.enter(table, client, index)
        await self.maybe_start(table)

    async def req_watch(self, client: Client, message: dict[str, Any]) -> None:
        table = self.find(client, message)
        if table.seat_of(client.identity or "") is not None:
            await self.req_join(client, message)
            return
        if len(table.spectators) >= self.limits.spectators_per_table:
            raise TableError("that table has as many spectators as it can hold")
        if client.table is not table or client.seat is not None:
            await self.leave_table(client)
        waited = not table.connected
        client.table, client.seat = table, None
        table.spectators.add(client)
        table.met(client.identity, client.name)
        table.empty_since = None
        client.send(self.update_for(table, client, reset=True))
        self.send_earlier_chat(table, client)
        if table.result is not None:  # a finished match: its standing as kept
            client.send(table.result)
        if waited:  # a table nobody was at waited: it plays on now
            self.pump(table)
        self.broadcast(table)

    async def set_away(self, table: Table, seat: int, away: bool) -> bool:
        """The one door for whether the player of ``seat`` is away (the stand-in plays
        for them: they left, dropped, or their clock ran out) or back; returns whether it
        changed. While the match is in play the history keeps it too: whoever is away when
        the match ends has left it, last in its standing (``trash_tui/standing.py``)."""
        state = table.seats[seat]
        if state.away == away:
            return False
        state.away = away
        if table.status == PLAYING and table.match_id is not None and state.identity:
            match_id, identity, history = table.match_id, state.identity, self._history()
            await self.run(lambda: history.matches.mark_left(match_id, identity, away))
        return True

    async def enter(self, table: Table, client: Client, seat: int) -> None:
        """``client`` is at its seat ``seat`` of ``table`` now (and back from away)."""
        old = table.members.get(client.identity or "")
        if old is not None and old is not client:  # it gets no more of this table
            old.send({"op": "left", "why": DEMOTED})
            old.table = None
            old.seat = None
        table.members[client.identity or ""] = client
        table.spectators.discard(client)
        table.empty_since = None
        client.table, client.seat = table, seat
        state = table.seats[seat]
        table.met(client.identity, state.name or client.name)
        table.held.discard(client.identity or "")
        was_away = await self.set_away(table, seat, False)
        await self.save(table)
        client.send(self.update_for(table, client, reset=True))
        self.send_earlier_chat(table, client)
        if was_away and table.status == PLAYING:
            self.tell(table, f"{state.name} is back.", besides=client)
            text = "You are back at your seat: the stand-in stopped playing for you."
            held = self.still_held(table)
            if held:
                names = ", ".join(table.seats[index].name or "?" for index in held)
                left = table.held_until - asyncio.get_running_loop().time()
                text += (f" The server restarted: the table waits up to {duration(left)} "
                         f"for {names}, not back yet (no stand-in plays for them meanwhile).")
            client.send({"op": "notice", "text": text})
        self.pump(table)
        self.broadcast(table)

    def send_earlier_chat(self, table: Table, client: Client) -> None:
        """The table's last chat lines, said before ``client`` arrived."""
        for line in table.chat:
            said = {key: value for key, value in line.items() if key != "identity"}
            if line.get("identity") not in client.ignored:
                client.send({**said, "earlier": True})

    async def leave_table(self, client: Client, dropped: bool = False,
                          why: str | None = None) -> None:
        table = client.table
        if table is None:
            return
        client.table, seat, client.seat = None, client.seat, None
        table.spectators.discard(client)
        identity = client.identity or ""
        if table.members.get(identity) is client:
            del table.members[identity]
            if table.status == WAITING and not dropped:
                table.stand_up(identity)
                if identity == table.host and not table.humans:
                    await self.close_table(table, "the host left before the match began")
                    return
            elif seat is not None and table.status == PLAYING:
                await self.set_away(table, seat, True)  # left or dropped: until back
                how = why or ("lost the connection" if dropped else "left")
                self.tell(table, f"{table.seats[seat].name} {how}: the stand-in plays for "
                                 "them until they are back.")
            self.note_empty(table)
            await self.save(table)
            self.pump(table)
            self.broadcast(table)
        else:  # a spectator (or a session that sat down elsewhere meanwhile)
            self.note_empty(table)
            if not table.connected:
                self.pump(table)  # the last one gone: the table waits
            self.broadcast(table)

    @staticmethod
    def note_empty(table: Table) -> None:
        """Start the empty table's count when the last one connected has left."""
        if not table.connected and table.empty_since is None:
            table.empty_since = asyncio.get_running_loop().time()

    async def req_leave(self, client: Client, message: dict[str, Any]) -> None:
        await self.leave_table(client)
        client.send({"op": "left"})

    async def req_start(self, client: Client, message: dict[str, Any]) -> None:
        table = client.table
        if table is None or client.seat is None:
            raise TableError("you are at no table")
        if table.host != client.identity:
            raise TableError("only the host starts the match")
        if table.status != WAITING:
            raise TableError("the match has started already")
        await self.start_match(table)

    async def maybe_start(self, table: Table) -> None:
        """A waiting table starts by itself once every human seat is taken."""
        if table.status == WAITING and not table.free_seats():
            await self.start_match(table)

    async def start_match(self, table: Table) -> None:
        from trash_tui.play.saving import start_saved_match

        async with self.lock(table):
            if table.status != WAITING:
                return
            specs, names = table.match_specs()
            history = self._history()
            seed = secrets.randbelow(2**62)
            controller = await self.run(lambda: start_saved_match(
                history, SHARED_OWNER, table.config.rules, specs, seed, human_names=names))
            table.controller = controller
            table.match_id = controller.match_id
            self.tag_record(table)
            players = [(index, seat.identity) for index, seat in enumerate(table.seats)
                       if seat.identity is not None]
            match_id = controller.match_id or 0
            await self.run(lambda: history.matches.add_match_players(match_id, players))
            table.status = PLAYING
            for index, seat in enumerate(table.seats):  # dropped while it waited
                if seat.identity is not None and seat.identity not in table.members:
                    await self.set_away(table, index, True)
            await self.save(table)
        self.tell(table, "The match begins.")
        self.pump(table)
        self.broadcast(table)

    async def req_act(self, client: Client, message: dict[str, Any]) -> None:
        table = client.table
        action = message.get("action")
        if table is None or client.seat is None:
            raise TableError("you are not sitting at a table")
        if not isinstance(action, int) or isinstance(action, bool):
            raise ProtocolError("an action is a number")
        async with self.lock(table):
            controller = table.controller
            if table.status != PLAYING or controller is None or controller.over:
                raise TableError("there is no match in play at this table")
            if controller.to_move != client.seat:
                raise TableError("it is not your turn")
            seen = message.get("at")
            if seen is not None and seen != len(controller.actions):
                raise TableError("the table moved on meanwhile: look again")
            if action not in controller.legal():
                raise TableError("that move is not allowed now")
            await self.set_away(table, client.seat, False)
            table.deadline = None
            await self.run(lambda: controller.play(action))
        self.after_move(table)

    async def req_back(self, client: Client, message: dict[str, Any]) -> None:
        table = client.table
        if table is None or client.seat is None:
            return
        seat = table.seats[client.seat]
        if await self.set_away(table, client.seat, False):
            self.tell(table, f"{seat.name} is back.", besides=client)
            client.send({"op": "notice", "text": "You have your seat back."})
            self.pump(table)
            self.broadcast(table)

    async def req_chat(self, client: Client, message: dict[str, Any]) -> None:
        table = client.table
        if table is None:
            raise TableError("chat is at a table")
        text = clean(str(message.get("text", "")), CHAT_LENGTH).strip()
        if not text:
            return
        muted = (self.moderation.muted(client.identity, client.address)
                 if self.moderation else None)
        if muted is not None:
            client.send({"op": "notice", "text": f"{muted.line()}: your chat lines reach "
                                                 "nobody."})
            return
        now = time.monotonic()
        times = client.chat_times
        while times and now - times[0] > 60:
            times.popleft()
        if len(times) >= self.limits.chat_per_minute:
            raise TableError(f"at most {self.limits.chat_per_minute} chat lines a minute")
        times.append(now)
        name = client.name if client.seat is None else (table.seats[client.seat].name or
                                                        client.name)
        line = {"op": "chat", "from": name, "watching": client.seat is None, "text": text}
        table.chat.append({**line, "identity": client.identity})
        table.met(client.identity, name)
        for other in self.audience(table):
            if client.identity not in other.ignored:
                other.send(line)
        if self.limits.chat_days > 0:
            await self.keep_chat(table, client.identity or "", name, text)

    async def keep_chat(self, table: Table, identity: str, name: str, text: str) -> None:
        """Keep a chat line for the operator's reports (``chat_days``); a database that
        fails is reported, the line is said all the same."""
        history = self._history()
        try:
            await self.run(lambda: history.records.add_chat(table.id, table.code, identity,
                                                  name, text))
        except sqlite3.Error as exc:
            self.report(f"tables: a chat line could not be kept: {exc}", "")

    async def prune_chat(self) -> None:
        """Forget the kept chat older than ``chat_days`` (all of it when it is 0)."""
        history = self._history()
        before = time.time() - self.limits.chat_days * 86400.0
        try:
            await self.run(lambda: history.records.prune_chat(before))
        except sqlite3.Error as exc:
            self.report(f"tables: old chat could not be pruned: {exc}", "")
        self.pruned = time.monotonic()

    def named(self, table: Table, name: str) -> list[str]:
        """The identities at ``table`` (seated, or watching) shown as ``name``, then those
        who were at it as ``name`` and left (``Table.been``: a report still finds them)."""
        wanted = clean(name, 40).strip().casefold()
        found = [seat.identity for seat in table.seats
                 if seat.identity is not None and (seat.name or "").casefold() == wanted]
        found += [c.identity for c in table.spectators
                  if c.identity is not None and c.name.casefold() == wanted]
        found += [identity for identity, shown in reversed(table.been.items())
                  if shown.casefold() == wanted]
        return list(dict.fromkeys(found))

    async def req_ignore(self, client: Client, message: dict[str, Any]) -> None:
        """Hide (``"on": true``) or show again one person's chat lines, for this client."""
        table = client.table
        name = str(message.get("name", ""))
        if table is None:
            raise TableError("you are at no table")
        found = [who for who in self.named(table, name) if who != client.identity]
        if not found:
            raise TableError(f"nobody at this table is called {clean(name, 24)!r}")
        shown = clean(name, 24)
        if message.get("on", True):
            client.ignored.update(found)
            client.send({"op": "notice", "text": f"You no longer see {shown}'s chat lines."})
        else:
            client.ignored.difference_update(found)
            client.send({"op": "notice", "text": f"You see {shown}'s chat lines again."})

    async def req_report(self, client: Client, message: dict[str, Any]) -> None:
        """Report a person at this table to the operator, with the table's last chat."""
        table = client.table
        name = str(message.get("name", ""))
        if table is None:
            raise TableError("you are at no table")
        found = [who for who in self.named(table, name) if who != client.identity]
        if not found:
            raise TableError(f"nobody at this table is called {clean(name, 24)!r}")
        now = time.monotonic()
        while client.reported and now - client.reported[0] > REPORT_WINDOW:
            client.reported.popleft()
        if len(client.reported) >= REPORTS_PER_WINDOW:
            raise TableError("you have sent the operator enough reports for now")
        client.reported.append(now)
        reason = clean(str(message.get("reason", "")), CHAT_LENGTH).strip()
        chat = [{"from": line["from"], "text": line["text"]} for line in table.chat]
        history, reporter = self._history(), client.identity or ""
        shown = clean(name, 24)
        number = await self.run(lambda: history.records.add_report(
            reporter, client.name, found[0], shown, table.code, reason, chat,
            table.id))
        self.on_report()
        self.note(f"report #{number}: {client.name} ({reporter}) reported {shown} "
                    f"({found[0]}) at table {table.code}: {reason or '(no reason)'}", "")
        client.send({"op": "notice", "text": f"Your report about {shown} went to the "
                                             "server's operator."})

    # --- the operator's side -------------------------------------------------------------
    def client_of(self, token: str) -> Client | None:
        """The connected app of the session with ``token``, if it is connected."""
        if not token:
            return None
        return next((c for c in self.clients if c.token == token and not c.closed), None)

    def where_state(self, client: Client) -> str:
        """Where a session is, in one word: lobby, table or watching."""
        if client.table is None:
            return "lobby"
        return "watching" if client.seat is None else "table"

    def where(self, client: Client) -> str:
        """Where a session is, for ``trash admin who``."""
        table = client.table
        if table is None:
            return "lobby"
        if client.seat is None:
            return f"watching {table.code}"
        return f"table {table.code} seat {client.seat + 1}"

    def admin_tables(self) -> list[dict[str, Any]]:
        now = time.time()
        rows = []
        for table in self.tables.values():
            seats = []
            for seat in table.seats:
                if seat.identity is not None:
                    away = seat.away or seat.identity not in table.members
                    seats.append(clean(seat.name or "?", 24) + (" (away)" if away else ""))
                elif seat.spec == HUMAN:
                    seats.append("open")
                else:
                    seats.append(f"bot {seat.spec}")
            rows.append({"id": table.id, "code": table.code, "name": table.config.name,
                         "status": table.status_text(), "seats": ", ".join(seats),
                         "spectators": len(table.spectators), "age": round(now - table.opened),
                         "public": table.config.public})
        return rows

    def kick(self, token: str, why: str) -> bool:
        """Tell the session ``token`` it is kicked (``why``) and unseat it as a dropped
        connection (the stand-in plays its seat); whether its app was connected."""
        client = self.client_of(token)
        if client is None:
            return False
        client.send({"op": "kicked", "why": why})

        async def unseat() -> None:
            if client.table is not None:
                await self.leave_table(client, dropped=True, why="was removed by the "
                                                                  "server's operator")
            client.close()

        self.spawn(unseat())
        return True

    def tell_player(self, identity: str, text: str) -> int:
        """The operator's word to one player (a mute, its end, a message, a warning), on
        whatever screen each of their sessions has up: sent as a ``say`` (the lobby and
        the Tables screen show no table's notices), to them alone; how many sessions got
        it."""
        reached = 0
        for client in list(self.clients):
            if client.identity == identity and not client.closed:
                client.send({"op": "say", "text": text, "seconds": TOLD_SECONDS})
                reached += 1
        return reached

    def say(self, text: str, seconds: float) -> int:
        """The operator's notice to every connected session; how many got it."""
        self.notice = (text, time.monotonic() + seconds)
        reached = 0
        for client in list(self.clients):
            if client.identity is not None and not client.closed:
                client.send({"op": "say", "text": text, "seconds": seconds})
                reached += 1
        return reached

    def set_motd(self, text: str | None) -> None:
        self.motd = text
        for client in list(self.clients):
            if client.identity is not None:
                client.send({"op": "motd", "text": text or ""})

    async def close_by_code(self, code: str, why: str) -> bool:
        wanted = normal_code(code)
        table = next((t for t in self.tables.values() if t.code == wanted), None)
        if table is None or table.status not in (WAITING, PLAYING, FINISHED):
            return False
        self.tell(table, f"The server's operator closed this table: {why}. It stays closed.")
        await self.close_table(table, why, by_operator=True)
        return True

    async def req_mine(self, client: Client, message: dict[str, Any]) -> None:
        """The open tables (waiting or playing) where this player holds a seat, and the
        last one that closed in the last ``CLOSED_TOLD`` seconds (``closed``: its name, why
        it closed, its host's name and whether it is this player's own, which they can
        reopen)."""
        identity = client.identity or ""
        history = self._history()
        since = time.time() - CLOSED_TOLD
        row = await self.run(lambda: history.matches.last_closed_table_of(identity, since))
        closed = []
        if row is not None:
            config = row["config"] if isinstance(row["config"], dict) else {}
            host = next((seat.get("name") for seat in row["seats"] if isinstance(seat, dict)
                         and seat.get("identity") == row["host"]), None)
            closed.append({"id": row["id"], "name": clean(str(config.get("name", "?")), 32),
                           "why": clean(str(config.get("closed") or ""), 120),
                           "host": clean(str(host or "its host"), 24),
                           "yours": row["host"] == identity,
                           "operator": closed_by_operator(row)})
        client.send({"op": "mine", "closed": closed, "tables": [
            table.summary() for table in self.tables.values()
            if table.status in (WAITING, PLAYING) and table.seat_of(identity) is not None]})

    async def req_reopen(self, client: Client, message: dict[str, Any]) -> None:
        history = self._history()
        identity = client.identity or ""
        rows = await self.run(lambda: history.matches.shared_tables([CLOSED], host=identity))
        row = next((r for r in rows if r["id"] == message.get("table")), None)
        if row is None:
            raise TableError("you host no closed table of that number")
        if closed_by_operator(row):
            why = clean(str(row["config"].get("closed") or ""), 120)
            raise TableError(f"the server's operator closed that table"
                             f"{f' ({why})' if why else ''}: it stays closed")
        if sum(1 for t in self.tables.values() if t.host == identity and
               t.status in (WAITING, PLAYING)) >= self.limits.tables_per_player:
            raise TableError(f"you host {self.limits.tables_per_player} open tables already")
        row["status"] = PLAYING if row["match_id"] is not None else WAITING
        taken = {t.config.name for t in self.tables.values()}  # every table listed
        if isinstance(row["config"], dict) and isinstance(row["config"].get("name"), str):
            row["config"] = {**row["config"], "name": numbered(row["config"]["name"], taken)}
        table = await self.restore(row)
        if table is None:
            raise TableError("that table cannot be reopened")
        await self.save(table)
        await self.req_join(client, {"table": table.id})

    # --- the match's pace: bots, stand-ins and the clock -----------------------------------
    def after_move(self, table: Table) -> None:
        self.on_move()
        self.pump(table)
        self.broadcast(table)

    def pump(self, table: Table) -> None:
        """Set up the table's next step: a bot's or a stand-in's move after a short delay,
        or the turn clock of the human to move. The table plays on while anyone is
        connected to it (a seated player or a spectator); with nobody, it waits."""
        timer = self.timers.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        table.deadline = None
        controller = table.controller
        if self.stopping or table.status != PLAYING or controller is None:
            return
        loop = asyncio.get_running_loop()
        if not table.connected and not controller.over:
            return  # nobody is at the table: it waits for them (or closes when empty long)
        if controller.over:
            self.timers[table.id] = loop.call_soon(
                lambda: self.spawn(self.guarded(self.finish, table)))
            return
        delay = self.limits.bot_delay
        deals = len(controller.match.history)
        if deals > table.deals_seen:  # a deal has just ended: time to read its summary
            table.deals_seen = deals
            delay += self.limits.deal_pause
        seat = controller.to_move
        state = table.seats[seat]
        if not controller.seats[seat].is_human:
            self.later(table, delay, self.bot_step)
        elif seat in self.still_held(table):  # not back since a restart: wait for them
            self.later(table, table.held_until - loop.time(), self.stop_holding)
        elif state.away or state.identity not in table.members:
            self.later(table, delay, self.stand_in_step)
        elif table.config.clock > 0:
            table.deadline = loop.time() + table.config.clock
            self.later(table, table.config.clock, self.clock_out)

    @staticmethod
    def still_held(table: Table) -> list[int]:
        """The seats whose players the table still waits for after a server restart (not
        back since, and the wait of ``empty_timeout`` not over): no stand-in plays for
        them, so nobody has left a match because the server restarted."""
        if not table.held:
            return []
        if asyncio.get_running_loop().time() >= table.held_until:
            table.held.clear()
            return []
        return [index for index, seat in enumerate(table.seats) if seat.identity in table.held]

    async def stop_holding(self, table: Table) -> None:
        """The wait after a restart is over: the stand-in plays for whoever is not back."""
        table.held.clear()
        self.pump(table)

    def later(self, table: Table, delay: float, step: Callable[[Table], Any]) -> None:
        timer = self.timers.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        self.timers[table.id] = asyncio.get_running_loop().call_later(
            delay, lambda: self.spawn(self.guarded(step, table)))

    async def guarded(self, step: Callable[[Table], Any], table: Table) -> None:
        """Run one step of ``table``; a failure is reported and the step tried again after
        the bot delay, and after MAX_FAILURES in a row the table is saved and closed."""
        if self.tables.get(table.id) is not table:
            return  # closed meanwhile
        try:
            await step(table)
        except Exception as exc:
            table.failures += 1
            self.report(f"tables: table {table.id} failed ({table.failures} in a row): "
                        f"{type(exc).__name__}: {exc}", traceback.format_exc())
            if table.failures >= MAX_FAILURES or self.stopping:
                await self.close_broken(table)
                return
            try:
                self.retry(table, step)
            except Exception as again:
                self.report(f"tables: table {table.id} cannot go on: "
                            f"{type(again).__name__}: {again}", traceback.format_exc())
                await self.close_broken(table)
        else:
            table.failures = 0

    def retry(self, table: Table, step: Callable[[Table], Any]) -> None:
        """Try a failed step again after the bot delay (the match's end: its finishing)."""
        controller = table.controller
        if step == self.finish or (controller is not None and controller.over):
            timer = self.timers.pop(table.id, None)
            if timer is not None:
                timer.cancel()
            self.later(table, self.limits.bot_delay, self.finish)
        else:
            self.pump(table)  # the next step, whichever it is now, after the bot delay

    async def close_broken(self, table: Table) -> None:
        with contextlib.suppress(Exception):
            self.tell(table, f"Sorry: {BROKEN}.")
        try:
            await self.close_table(table, BROKEN)
        except Exception as exc:  # the database too: forget it here, it was saved before
            self.report(f"tables: table {table.id} cannot be closed: {type(exc).__name__}: "
                        f"{exc}", traceback.format_exc())
            for client in self.audience(table):
                client.send({"op": "closed", "why": BROKEN})
                client.table, client.seat = None, None
            self.tables.pop(table.id, None)
            self.locks.pop(table.id, None)
            self.tables_changed()

    async def bot_step(self, table: Table) -> None:
        async with self.lock(table):
            controller = table.controller
            if controller is None or controller.over or controller.waiting_for_human:
                return
            await self.run(controller.step_bot)
        self.after_move(table)

    def stand_in(self, table: Table, seat: int) -> Any:
        """The stand-in bot for ``seat`` in this deal (a new one for every deal)."""
        controller = table.controller
        deal = controller.match.deal_number
        bot, number = table.stand_ins.get(seat, (None, None))
        if bot is None or number != deal:
            seed = derive_seed(table.id, "stand-in", seat, deal) % 2**31
            bot = make_bot(table.config.stand_in, seed=seed)
            bot.start_match(seat, len(controller.seats), table.config.rules)
            bot.start_deal(controller.observation(seat))
            table.stand_ins[seat] = (bot, deal)
        return bot

    async def stand_in_step(self, table: Table) -> None:
        async with self.lock(table):
            controller = table.controller
            if controller is None or controller.over or not controller.waiting_for_human:
                return
            seat = controller.to_move
            bot = await self.run(lambda: self.stand_in(table, seat))
            await self.run(lambda: controller.step_stand_in(bot))
        self.after_move(table)

    async def clock_out(self, table: Table) -> None:
        controller = table.controller
        if controller is None or controller.over or not controller.waiting_for_human:
            return
        seat = table.seats[controller.to_move]
        await self.set_away(table, controller.to_move, True)  # (no key since: left)
        await self.save(table)
        self.tell(table, f"{seat.name} ran out of time: the stand-in plays for them "
                         "(any key takes the seat back).")
        await self.stand_in_step(table)

    async def finish(self, table: Table) -> None:
        if table.status != PLAYING:
            return
        table.status = FINISHED
        try:
            await self.save(table)
        except Exception:
            table.status = PLAYING  # tried again (``guarded``)
            raise
        table.empty_since = asyncio.get_running_loop().time()
        self.broadcast(table)
        await self.send_result(table)

    async def send_result(self, table: Table) -> None:
        """Tell the table the finished match's standing as the history keeps it: the
        seats whose players had left (last: ``trash_tui/standing.py``) and how the match
        moved the players' ratings (the shown rating, as on the leaderboard). Read from
        the history that rated it, so the standings box says what History, the statistics
        and the rating say. Kept for whoever comes to watch the finished table."""
        if table.match_id is None:
            return
        match_id, history = table.match_id, self._history()

        def read() -> tuple[frozenset[int], dict[str, Any]]:
            return (history.matches.get_match(match_id).left,
                    history.players.match_rating_changes(match_id))

        left, moved = await self.run(read)
        changes = [{"seat": index, "name": seat.name,
                    "before": float(display(moved[seat.identity][0].mu)),
                    "after": float(display(moved[seat.identity][1].mu))}
                   for index, seat in enumerate(table.seats)
                   if seat.identity is not None and seat.identity in moved]
        table.result = {"op": "result", "left": sorted(left), "changes": changes}
        for client in self.audience(table):
            client.send(table.result)

    async def close_table(self, table: Table, why: str, by_operator: bool = False) -> None:
        """Save and close ``table`` (its host can reopen it while it has a match, unless
        the server's operator closed it: ``by_operator``)."""
        timer = self.timers.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        if table.status in (WAITING, PLAYING):
            table.status = CLOSED
            await self.save(table, closed=why, by_operator=by_operator)
        for client in self.audience(table):
            client.send({"op": "closed", "why": why})
            client.table, client.seat = None, None
        self.tables.pop(table.id, None)
        self.locks.pop(table.id, None)
        self.tables_changed()

    async def sweep(self) -> None:
        """Close tables nobody has been at for ``empty_timeout`` s; forget finished ones;
        prune the kept chat now and then."""
        while True:
            await asyncio.sleep(JANITOR_EVERY)
            if time.monotonic() - self.pruned > PRUNE_EVERY:
                await self.prune_chat()
            now = asyncio.get_running_loop().time()
            for table in list(self.tables.values()):
                if table.connected or table.empty_since is None:
                    continue
                idle = now - table.empty_since
                if table.status == FINISHED and idle > FINISHED_KEPT:
                    await self.close_table(table, "the match is over")
                elif table.status in (WAITING, PLAYING) and idle > self.limits.empty_timeout:
                    await self.close_table(table, "nobody was at the table")


_HANDLERS: dict[str, Callable[[TableService, Client, dict[str, Any]], Any]] = {
    "list": TableService.req_list,
    "create": TableService.req_create,
    "join": TableService.req_join,
    "watch": TableService.req_watch,
    "leave": TableService.req_leave,
    "start": TableService.req_start,
    "act": TableService.req_act,
    "back": TableService.req_back,
    "chat": TableService.req_chat,
    "reopen": TableService.req_reopen,
    "mine": TableService.req_mine,
    "ignore": TableService.req_ignore,
    "report": TableService.req_report,
}
__all__ = ["HUMAN", "TableLimits", "TableService"]
