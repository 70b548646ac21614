"""What the table service does for each message of the protocol, and for each step of a
table's pace.

``Requests`` is handed every message a client sends (``handle``: ``hello`` first, then one
of ``HANDLERS``). The rules of who goes where are the rooms' (``rooms.py``): a request asks
them, then does what their ``Outbox`` says (``apply``: keep and save, send, close, start,
pace, show). The rest is here: the list of tables (pushed to those following it, at most
every ``LIST_EVERY`` s), creating and reopening a table, starting its match, a player's
move, the match's end and its standing, closing a table (``close_table``), and what the
pacer's steps mean (``pacer.Steps``: a move everyone sees, a clock run out, a table broken).
The social requests (chat, ignore, report) go to ``social.py``, a link code for a browser
(``link_code``) to ``linking.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

from trash_tui.history import HistoryError
from trash_tui.play.table_protocol import VERSION, ProtocolError
from trash_tui.play.turns import Pace
from trash_tui.players.identity import PLACEHOLDER_NAME, default_name
from trash_tui.tables.desk import Desk
from trash_tui.tables.hub import Client, Hub, Report
from trash_tui.tables.keeper import Keeper, closed_by_operator
from trash_tui.tables.linking import Linking
from trash_tui.tables.pacer import Pacer
from trash_tui.tables.rooms import Outbox, Rooms, audience
from trash_tui.tables.social import Social
from trash_tui.tables.table import (
    CLOSED,
    FINISHED,
    PLAYING,
    WAITING,
    Table,
    TableError,
    numbered,
)
from trash_tui.tables.worker import Worker
from trash_tui.text import clean

LIST_EVERY = 0.2  # seconds between two pushes of the tables' list
BROKEN = ("the server hit an error at this table, so it is saved and closed (its host can "
          "reopen it)")
Handler = Callable[["Requests", Client, dict[str, Any]], Awaitable[None]]


class Requests:
    """The protocol's requests and the tables' steps, on the service's parts."""

    def __init__(self, worker: Worker, hub: Hub, rooms: Rooms, keeper: Keeper, social: Social,
                 desk: Desk, pace: Callable[[], Pace], report: Report,
                 address: Callable[[], tuple[str, int] | None],
                 on_move: Callable[[], None], new_code: Callable[[set[str]], str],
                 linking: Linking) -> None:
        self.worker = worker
        self.hub = hub
        self.rooms = rooms
        self.keeper = keeper
        self.social = social
        self.desk = desk
        self.pace = pace
        self.report = report
        self.address = address  # where players connect from outside (host, port), if known
        self.on_move = on_move  # a move was played (the metrics)
        self.new_code = new_code
        self.linking = linking  # the link codes of the web face (``link_code``)
        self.pacer = Pacer(worker, pace, self, report)
        self.list_pending = False
        self.stopping = False

    # --- the door --------------------------------------------------------------------------
    async def handle(self, client: Client, message: dict[str, Any]) -> None:
        op = message["op"]
        if client.identity is None:
            if op != "hello":
                raise ProtocolError("say hello first")
            await self.hello(client, message)
            return
        handler = HANDLERS.get(op)
        if handler is None:
            raise ProtocolError(f"no such request: {clean(op, 40)!r}")
        await handler(self, client, message)

    async def hello(self, client: Client, message: dict[str, Any]) -> None:
        if not self.hub.identify(client, str(message.get("token"))):
            client.send({"op": "error", "message": "not a session of this server"})
            client.close()
            return
        identity = client.identity or ""
        name, warnings = await self.worker.db(lambda history: (
            history.players.player_name(identity),
            history.records.take_untold_warnings(identity)))
        # (a name never registered, or "You" from before it was refused: told apart)
        if not name or name.casefold() == PLACEHOLDER_NAME.casefold():
            name = default_name(identity)
        client.name = clean(name, 24) or default_name(identity)
        seated = self.rooms.seated(identity)
        public = self.address()
        address = None if public is None else {"host": public[0], "port": public[1]}
        client.send({"op": "welcome", "version": VERSION, "name": client.name,
                     "waiting": seated[0].summary() if seated else None,
                     "address": address, "pace": self.pace().to_dict()})
        self.desk.greet(client, warnings)  # (warnings: given while they were away)

    async def gone(self, client: Client) -> None:
        """A client left (closed its app, or the connection dropped)."""
        if client.table is not None and not self.stopping:  # stopping: every table is saved
            out = Outbox()
            self.rooms.leave(client, out, dropped=True)
            await self.apply(out)

    async def apply(self, out: Outbox) -> None:
        """Do what a change of the rooms asks, in its order."""
        await self.keeper.mark(out.marks)
        for table in out.saves:
            await self.keeper.save(table)
        for kind, whom, message in out.steps:
            if kind == "send":
                whom.send(message)
            elif kind == "pace" and self.is_open(whom):
                self.pacer.pump(whom)
            elif kind == "show":
                self.broadcast(whom)
        for table, why in out.closes:
            await self.close_table(table, why)
        for table in out.starts:
            await self.start_match(table)

    # --- the list and the table's state --------------------------------------------------
    async def send_list(self, client: Client) -> None:
        closed = await self.keeper.closed_hosted(client.identity or "")
        client.send({"op": "tables", "tables": self.rooms.visible(client),
                     "closed": [{"id": row["id"], "name": row["config"].get("name", "?"),
                                 "operator": closed_by_operator(row)}
                                for row in closed][-10:]})

    def tables_changed(self) -> None:
        """Push the list to those following it (at most every LIST_EVERY s)."""
        if self.list_pending:
            return
        self.list_pending = True

        async def push() -> None:
            await asyncio.sleep(LIST_EVERY)
            self.list_pending = False
            for client in list(self.hub.clients):
                if client.wants_list and not client.closed:
                    await self.send_list(client)

        self.worker.spawn(push())

    def broadcast(self, table: Table) -> None:
        for client in audience(table):
            client.send(self.rooms.update_for(table, client))
        self.tables_changed()

    # --- the requests ------------------------------------------------------------------------
    async def list(self, client: Client, message: dict[str, Any]) -> None:
        client.wants_list = bool(message.get("follow", True))
        if client.wants_list:  # (a client that stops following needs no last list)
            await self.send_list(client)

    async def create(self, client: Client, message: dict[str, Any]) -> None:
        config = self.rooms.new_config(client, message)
        table = await self.keeper.create(self.new_code(self.rooms.codes()),
                                         client.identity or "", config)
        await self.apply(self.rooms.create(client, table))

    async def mine(self, client: Client, message: dict[str, Any]) -> None:
        """The open tables where this player holds a seat, and the last one that closed
        lately (``Keeper.last_closed``: its name, why, its host, whether it is theirs)."""
        identity = client.identity or ""
        closed = await self.keeper.last_closed(identity)
        client.send({"op": "mine", "closed": closed,
                     "tables": [table.summary() for table in self.rooms.seated(identity)]})

    async def reopen(self, client: Client, message: dict[str, Any]) -> None:
        identity = client.identity or ""
        rows = await self.keeper.closed_hosted(identity)
        row = next((r for r in rows if r["id"] == message.get("table")), None)
        if row is None:
            raise TableError("you host no closed table of that number")
        if closed_by_operator(row):
            why = clean(str(row["config"].get("closed") or ""), 120)
            raise TableError(f"the server's operator closed that table"
                             f"{f' ({why})' if why else ''}: it stays closed")
        self.rooms.may_host(identity)
        row["status"] = PLAYING if row["match_id"] is not None else WAITING
        if isinstance(row["config"], dict) and isinstance(row["config"].get("name"), str):
            row["config"] = {**row["config"], "name": numbered(row["config"]["name"],
                                                               self.rooms.listed_names())}
        table = await self.restore(row)
        if table is None:
            raise TableError("that table cannot be reopened")
        await self.keeper.save(table)
        await self.apply(self.rooms.join_table(client, table))

    async def restore(self, row: dict[str, Any]) -> Table | None:
        """A stored table back in play (``Keeper.rebuild``); None if it cannot be."""
        try:
            table = await self.keeper.rebuild(row)
        except (TableError, HistoryError, KeyError, TypeError, ValueError) as exc:
            self.report(f"table {row.get('id')} cannot be restored: {exc}", "")
            return None
        if table is None:
            return None
        out = Outbox()
        self.rooms.restored(table, out)
        await self.apply(out)
        return table

    async def start(self, client: Client, message: dict[str, Any]) -> None:
        await self.start_match(self.rooms.may_start(client))

    async def start_match(self, table: Table) -> None:
        async with self.pacer.lock(table):
            if table.status != WAITING or table.starting:
                return
            table.starting = True
            try:
                await self.keeper.start(table)
            finally:
                table.starting = False
            table.status = PLAYING
            out = Outbox()
            for index, seat in enumerate(table.seats):  # dropped while it waited
                if seat.identity is not None and seat.identity not in table.members:
                    self.rooms.mark(table, index, True, out)
            self.rooms.tell(out, table, "The match begins.")
            out.save(table)
            out.pace(table)
            out.show(table)
        await self.apply(out)

    async def act(self, client: Client, message: dict[str, Any]) -> None:
        table = client.table
        action = message.get("action")
        if table is None or client.seat is None:
            raise TableError("you are not sitting at a table")
        if not isinstance(action, int) or isinstance(action, bool):
            raise ProtocolError("an action is a number")
        async with self.pacer.lock(table):
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
            out = Outbox()
            self.rooms.mark(table, client.seat, False, out)
            await self.keeper.mark(out.marks)
            table.deadline = None
            await self.worker.run(lambda: controller.play(action))
        self.moved(table)

    async def chat(self, client: Client, message: dict[str, Any]) -> None:
        await self.social.chat(client, str(message.get("text", "")))

    async def ignore(self, client: Client, message: dict[str, Any]) -> None:
        self.social.ignore(client, str(message.get("name", "")), bool(message.get("on", True)))

    async def report_player(self, client: Client, message: dict[str, Any]) -> None:
        await self.social.report_player(client, str(message.get("name", "")),
                                        str(message.get("reason", "")))

    async def link_code(self, client: Client, message: dict[str, Any]) -> None:
        await self.linking.link_code(client)

    # --- closing -------------------------------------------------------------------------------
    async def close_table(self, table: Table, why: str, by_operator: bool = False) -> None:
        """Save and close ``table`` (its host can reopen it while it has a match, unless
        the server's operator closed it: ``by_operator``)."""
        self.pacer.forget(table)
        if table.status in (WAITING, PLAYING):
            table.status = CLOSED
            await self.keeper.save(table, closed=why, by_operator=by_operator)
        await self.apply(self.rooms.remove(table, why))
        self.tables_changed()

    async def unseat(self, client: Client, why: str) -> None:
        """The operator removed ``client``'s session: its seat is the stand-in's."""
        if client.table is not None:
            out = Outbox()
            self.rooms.leave(client, out, dropped=True, why=why)
            await self.apply(out)
        client.close()

    # --- what the pacer's steps mean (``pacer.Steps``) ------------------------------------------
    def moved(self, table: Table) -> None:
        # the next step first: a player whose turn it is now has their clock set, so the
        # update that gives them the turn carries it
        self.pacer.pump(table)
        self.on_move()
        self.broadcast(table)

    async def finish(self, table: Table) -> None:
        if table.status != PLAYING:
            return
        table.status = FINISHED
        try:
            await self.keeper.save(table)
        except Exception:
            table.status = PLAYING  # tried again (``Pacer.guarded``)
            raise
        table.empty_since = self.pacer.now()
        self.broadcast(table)
        # the standing as the history that rated it keeps it, so the standings box says
        # what History, the statistics and the rating say; kept for whoever comes to watch
        table.result = await self.keeper.result(table)
        if table.result is not None:
            for client in audience(table):
                client.send(table.result)

    async def timed_out(self, table: Table, seat: int) -> None:
        out = Outbox()
        self.rooms.mark(table, seat, True, out)  # (no key since: left)
        out.save(table)
        self.rooms.tell(out, table, f"{table.seats[seat].name} ran out of time: the stand-in "
                                    "plays for them (any key takes the seat back).")
        await self.apply(out)

    async def broken(self, table: Table) -> None:
        with contextlib.suppress(Exception):
            out = Outbox()
            self.rooms.tell(out, table, f"Sorry: {BROKEN}.")
            await self.apply(out)
        try:
            await self.close_table(table, BROKEN)
        except Exception as exc:  # the database too: forget it here, it was saved before
            self.report(f"tables: table {table.id} cannot be closed: {type(exc).__name__}: "
                        f"{exc}", traceback.format_exc())
            for client, message in self.rooms.remove(table, BROKEN).sends:
                client.send(message)
            self.tables_changed()

    def is_open(self, table: Table) -> bool:
        return self.rooms.tables.get(table.id) is table


async def _join(requests: Requests, client: Client, message: dict[str, Any]) -> None:
    await requests.apply(requests.rooms.join(client, message))


async def _watch(requests: Requests, client: Client, message: dict[str, Any]) -> None:
    await requests.apply(requests.rooms.watch(client, message))


async def _leave(requests: Requests, client: Client, message: dict[str, Any]) -> None:
    out = Outbox()
    requests.rooms.leave(client, out)
    out.send(client, {"op": "left"})
    await requests.apply(out)


async def _back(requests: Requests, client: Client, message: dict[str, Any]) -> None:
    await requests.apply(requests.rooms.back(client))


HANDLERS: dict[str, Handler] = {
    "list": Requests.list,
    "create": Requests.create,
    "join": _join,
    "watch": _watch,
    "leave": _leave,
    "start": Requests.start,
    "act": Requests.act,
    "back": _back,
    "chat": Requests.chat,
    "reopen": Requests.reopen,
    "mine": Requests.mine,
    "ignore": Requests.ignore,
    "report": Requests.report_player,
    "link_code": Requests.link_code,
}
