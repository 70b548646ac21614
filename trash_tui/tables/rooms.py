"""The rooms: every open table and who is at it. Synchronous, no socket, no timer.

``Rooms`` holds the open tables (``tables``) and the rules of who goes where: a new table
(its limits: ``max_tables``, ``tables_per_player``; its name unique among those listed),
joining (by code, by id for a public table or one's own seat, by the match it plays),
watching (``spectators_per_table``), leaving (a seat at a waiting table is open again, and
the table closes when its host leaves it empty; at a match in play the stand-in plays the
seat until its player is back), taking one's seat back, and what each client sees of a table
(``update_for``: the table, and while playing its own seat's observation and the new events;
a spectator gets nobody's legal actions).

Each change returns an ``Outbox``: which tables to save and which seats' "away" to keep in
the history (whoever is away when the match ends has left it), then in order what to send
to whom, whose pace may have changed and which tables everyone at them is sent again, then
which tables to close or start. The service (``requests.py``) does that; so the rules are
tested without a socket, a thread or asyncio (``tests/test_tables_rooms.py``). Time is the
``now`` given (the event loop's clock in the service).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from trash_tui.play.table_protocol import match_state, normal_code
from trash_tui.players.identity import is_guest
from trash_tui.tables.hub import Client
from trash_tui.tables.table import (
    CLOSED,
    FINISHED,
    PLAYING,
    WAITING,
    SeatState,
    Table,
    TableConfig,
    TableError,
    numbered,
)
from trash_tui.text import clean, duration

SNAPSHOT_EVENTS = 200  # events a newcomer to a table gets (the log's tail)
DEMOTED = "you sat down at this table in another session: it goes on there"
FINISHED_KEPT = 120.0  # seconds a finished table stays listed


@dataclass(frozen=True)
class RoomLimits:
    """The limits the rooms keep (the server config's ``[server]`` keys)."""

    max_tables: int = 50
    tables_per_player: int = 2
    spectators_per_table: int = 20
    empty_timeout: float = 600.0


@dataclass
class Outbox:
    """What one change of the rooms asks of the service, done in this order: ``marks``
    (a seat's player away or back, kept in the history while the match is in play) and
    ``saves`` (tables stored); then ``steps`` in the order they were asked: a message to a
    client (``send``), a table's pace set up afresh (``pace``), a table's state sent to
    everyone at it (``show``); then ``closes`` and ``starts``."""

    marks: list[tuple[int, str, bool]] = field(default_factory=list)  # match, identity, away
    saves: list[Table] = field(default_factory=list)
    steps: list[tuple[str, Any, Any]] = field(default_factory=list)
    closes: list[tuple[Table, str]] = field(default_factory=list)
    starts: list[Table] = field(default_factory=list)

    def send(self, client: Client, message: dict[str, Any]) -> None:
        self.steps.append(("send", client, message))

    def save(self, table: Table) -> None:
        if table not in self.saves:
            self.saves.append(table)

    def pace(self, table: Table) -> None:
        self.steps.append(("pace", table, None))

    def show(self, table: Table) -> None:
        self.steps.append(("show", table, None))

    @property
    def sends(self) -> list[tuple[Client, dict[str, Any]]]:
        return [(whom, message) for kind, whom, message in self.steps if kind == "send"]

    def to(self, client: Client) -> list[dict[str, Any]]:
        """The messages for ``client``, in order."""
        return [message for whom, message in self.sends if whom is client]

    def tables(self, kind: str) -> list[Table]:
        """The tables to ``pace`` or to ``show``."""
        return [table for step, table, _ in self.steps if step == kind]


def audience(table: Table) -> list[Client]:
    """Everyone connected to ``table``: its seated players, then its spectators."""
    return [*table.members.values(), *table.spectators]


def still_held(table: Table, now: float) -> list[int]:
    """The seats whose players the table still waits for after a server restart (not back
    since, and the wait of ``empty_timeout`` not over): no stand-in plays for them, so
    nobody has left a match because the server restarted."""
    if not table.held:
        return []
    if now >= table.held_until:
        table.held.clear()
        return []
    return [index for index, seat in enumerate(table.seats) if seat.identity in table.held]


class Rooms:
    """The open tables and the rules of who sits, watches and leaves where."""

    def __init__(self, limits: Callable[[], RoomLimits], now: Callable[[], float]) -> None:
        self.limits = limits  # read at each use: a reload may change them
        self.now = now
        self.tables: dict[int, Table] = {}

    # --- finding tables ---------------------------------------------------------------
    def find(self, client: Client, message: dict[str, Any]) -> Table:
        """The table a request names: by ``code``, by ``table`` id (a public table, or one
        the player sits at) or by the ``match`` it plays (one the player sits at)."""
        code = message.get("code")
        if code is not None:
            table = self.by_code(str(code))
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

    def by_code(self, code: str) -> Table | None:
        wanted = normal_code(code)
        return next((t for t in self.tables.values() if t.code == wanted), None)

    def open_tables(self) -> list[Table]:
        return [t for t in self.tables.values() if t.status in (WAITING, PLAYING)]

    def seated(self, identity: str) -> list[Table]:
        """The open tables where ``identity`` holds a seat."""
        return [t for t in self.open_tables() if t.seat_of(identity) is not None]

    def visible(self, client: Client) -> list[dict[str, Any]]:
        """The Tables screen's list for ``client``: the public tables and its own."""
        return [table.summary() for table in self.tables.values()
                if table.config.public or table.seat_of(client.identity or "") is not None]

    def codes(self) -> set[str]:
        return {t.code for t in self.tables.values()}

    def listed_names(self) -> set[str]:
        return {t.config.name for t in self.tables.values()}

    def may_host(self, identity: str) -> None:
        """TableError if ``identity`` hosts as many open tables as one player may."""
        limit = self.limits().tables_per_player
        if sum(1 for t in self.open_tables() if t.host == identity) >= limit:
            raise TableError(f"you host {limit} open tables already")

    # --- what a client sees --------------------------------------------------------------
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
        left = max(0.0, table.deadline - self.now())
        return {"seat": table.controller.to_move, "left": round(left, 1),
                "total": table.config.clock}

    @staticmethod
    def tell(out: Outbox, table: Table, text: str, besides: Client | None = None) -> None:
        """A notice for everyone at ``table`` (but ``besides``, whom it is about)."""
        for client in audience(table):
            if client is not besides:
                out.send(client, {"op": "notice", "text": text})

    @staticmethod
    def earlier_chat(out: Outbox, table: Table, client: Client) -> None:
        """The table's last chat lines, said before ``client`` arrived."""
        for line in table.chat:
            said = {key: value for key, value in line.items() if key != "identity"}
            if line.get("identity") not in client.ignored:
                out.send(client, {**said, "earlier": True})

    # --- the rules -----------------------------------------------------------------------
    def new_config(self, client: Client, message: dict[str, Any]) -> TableConfig:
        """The settings of the table ``client`` asks to create (TableError: refused)."""
        config = TableConfig.from_request(message.get("config"), f"{client.name}'s table")
        # unique among the tables listed (a finished one is listed a while longer too)
        config = replace(config, name=numbered(config.name, self.listed_names()))
        if len(self.open_tables()) >= self.limits().max_tables:
            raise TableError("the server has as many tables as it can hold: join one, or try "
                             "again later")
        self.may_host(client.identity or "")
        return config

    def create(self, client: Client, table: Table) -> Outbox:
        """``client`` made ``table`` (stored, so it has its id): it sits at seat 0."""
        out = Outbox()
        self.tables[table.id] = table
        table.sit(client.identity or "", client.name, 0)
        self.leave(client, out)
        self.enter(table, client, 0, out)
        out.send(client, {"op": "created", "code": table.code, "table": table.id})
        self.maybe_start(table, out)
        return out

    def add(self, table: Table) -> None:
        """A restored table is open again."""
        self.tables[table.id] = table

    def join(self, client: Client, message: dict[str, Any]) -> Outbox:
        return self.join_table(client, self.find(client, message), message.get("seat"))

    def join_table(self, client: Client, table: Table, seat: Any = None) -> Outbox:
        out = Outbox()
        identity = client.identity or ""
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < len(table.seats)):
            raise TableError("no such seat")
        if table.status in (FINISHED, CLOSED):
            raise TableError("that table's match is over")
        started = table.status != WAITING or table.starting
        if started and table.seat_of(identity) is None:
            # no seat to take: the refusal offers to watch this table (the one asked for,
            # whichever way it was named), so the client watches it and no other
            out.send(client, {"op": "error", "watch": True, "name": clean(table.config.name, 32),
                              "message": "the match has started: you can watch it"})
            return out
        index = table.sit(identity, client.name, seat)  # (its seat, if it has one)
        if client.table is not None and client.table is not table:
            self.leave(client, out)
        self.enter(table, client, index, out)
        self.maybe_start(table, out)
        return out

    def watch(self, client: Client, message: dict[str, Any]) -> Outbox:
        table = self.find(client, message)
        if table.seat_of(client.identity or "") is not None:
            return self.join(client, message)
        if len(table.spectators) >= self.limits().spectators_per_table:
            raise TableError("that table has as many spectators as it can hold")
        out = Outbox()
        if client.table is not table or client.seat is not None:
            self.leave(client, out)
        waited = not table.connected
        client.table, client.seat = table, None
        table.spectators.add(client)
        table.met(client.identity, client.name)
        table.empty_since = None
        out.send(client, self.update_for(table, client, reset=True))
        self.earlier_chat(out, table, client)
        if table.result is not None:  # a finished match: its standing as kept
            out.send(client, table.result)
        if waited:  # a table nobody was at waited: it plays on now
            out.pace(table)
        out.show(table)
        return out

    def mark(self, table: Table, seat: int, away: bool, out: Outbox) -> bool:
        """The one door for whether the player of ``seat`` is away (the stand-in plays
        for them: they left, dropped, or their clock ran out) or back; returns whether it
        changed. While the match is in play the history keeps it too: whoever is away when
        the match ends has left it, last in its standing (``trash_tui/standing.py``)."""
        state = table.seats[seat]
        if state.away == away:
            return False
        state.away = away
        if table.status == PLAYING and table.match_id is not None and state.identity:
            out.marks.append((table.match_id, state.identity, away))
        return True

    def enter(self, table: Table, client: Client, seat: int, out: Outbox) -> None:
        """``client`` is at its seat ``seat`` of ``table`` now (and back from away)."""
        old = table.members.get(client.identity or "")
        if old is not None and old is not client:  # it gets no more of this table
            out.send(old, {"op": "left", "why": DEMOTED})
            old.table = None
            old.seat = None
        table.members[client.identity or ""] = client
        table.spectators.discard(client)
        table.empty_since = None
        client.table, client.seat = table, seat
        state = table.seats[seat]
        table.met(client.identity, state.name or client.name)
        table.held.discard(client.identity or "")
        was_away = self.mark(table, seat, False, out)
        out.save(table)
        out.send(client, self.update_for(table, client, reset=True))
        self.earlier_chat(out, table, client)
        if was_away and table.status == PLAYING:
            self.tell(out, table, f"{state.name} is back.", besides=client)
            text = "You are back at your seat: the stand-in stopped playing for you."
            held = still_held(table, self.now())
            if held:
                names = ", ".join(table.seats[index].name or "?" for index in held)
                left = table.held_until - self.now()
                text += (f" The server restarted: the table waits up to {duration(left)} "
                         f"for {names}, not back yet (no stand-in plays for them meanwhile).")
            out.send(client, {"op": "notice", "text": text})
        out.pace(table)
        out.show(table)

    def leave(self, client: Client, out: Outbox, dropped: bool = False,
              why: str | None = None) -> None:
        """``client`` leaves its table (``dropped``: its connection did)."""
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
                    out.closes.append((table, "the host left before the match began"))
                    return
            elif seat is not None and table.status == PLAYING:
                self.mark(table, seat, True, out)  # left or dropped: until back
                how = why or ("lost the connection" if dropped else "left")
                self.tell(out, table, f"{table.seats[seat].name} {how}: the stand-in plays "
                                      "for them until they are back.")
            self.note_empty(table)
            out.save(table)
            out.pace(table)
            out.show(table)
        else:  # a spectator (or a session that sat down elsewhere meanwhile)
            self.note_empty(table)
            if not table.connected:
                out.pace(table)  # the last one gone: the table waits
            out.show(table)

    def back(self, client: Client) -> Outbox:
        """A key from a player the stand-in plays for: their seat is theirs again."""
        out = Outbox()
        table = client.table
        if table is None or client.seat is None:
            return out
        seat = table.seats[client.seat]
        if self.mark(table, client.seat, False, out):
            self.tell(out, table, f"{seat.name} is back.", besides=client)
            out.send(client, {"op": "notice", "text": "You have your seat back."})
            out.pace(table)
            out.show(table)
        return out

    def note_empty(self, table: Table) -> None:
        """Start the empty table's count when the last one connected has left."""
        if not table.connected and table.empty_since is None:
            table.empty_since = self.now()

    @staticmethod
    def maybe_start(table: Table, out: Outbox) -> None:
        """A waiting table starts by itself once every human seat is taken."""
        if table.status == WAITING and not table.free_seats():
            out.starts.append(table)

    def may_start(self, client: Client) -> Table:
        """The table ``client`` (its host) asks to start now (TableError: it may not)."""
        table = client.table
        if table is None or client.seat is None:
            raise TableError("you are at no table")
        if table.host != client.identity:
            raise TableError("only the host starts the match")
        if table.status != WAITING:
            raise TableError("the match has started already")
        return table

    def remove(self, table: Table, why: str) -> Outbox:
        """``table`` is closed: everyone at it is told ``why`` and is at no table."""
        out = Outbox()
        for client in audience(table):
            out.send(client, {"op": "closed", "why": why})
            client.table, client.seat = None, None
        self.tables.pop(table.id, None)
        return out

    def expired(self, now: float) -> Iterable[tuple[Table, str]]:
        """The tables to close now: finished ones listed long enough, open ones nobody has
        been at for ``empty_timeout``."""
        for table in list(self.tables.values()):
            if table.connected or table.empty_since is None:
                continue
            idle = now - table.empty_since
            if table.status == FINISHED and idle > FINISHED_KEPT:
                yield table, "the match is over"
            elif table.status in (WAITING, PLAYING) and idle > self.limits().empty_timeout:
                yield table, "nobody was at the table"

    def restored(self, table: Table, out: Outbox) -> None:
        """A table back after a restart: everyone is away until back, and a match in play
        waits ``empty_timeout`` for those who were at it when the server stopped (no
        stand-in plays for them meanwhile): not for one already away then (they left, or
        their clock ran out: the stand-in played for them and plays on), nor for a guest
        (a new identity at every connection: never back at this seat)."""
        were_here = {seat.identity for seat in table.seats if seat.identity
                     and not seat.away and not is_guest(seat.identity)}
        for index, seat in enumerate(table.seats):  # everyone dropped: away until back
            if seat.identity is not None:
                self.mark(table, index, True, out)
        now = self.now()
        if table.status == PLAYING:  # nobody left because of the server: the table waits
            table.held = were_here
            table.held_until = now + self.limits().empty_timeout
        table.empty_since = now
        self.tables[table.id] = table
        out.pace(table)


def seats_from(rows: list[dict[str, Any]]) -> list[SeatState]:
    """The seats of a stored table."""
    return [SeatState(s["spec"], s.get("identity"), s.get("name")) for s in rows]
