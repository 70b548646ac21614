"""One shared table on the SSH server: its settings, its seats and its match.

A table is created by a host with ``TableConfig`` (rules, 2–8 seats each open for a human
or a bot of a level, public or private, the turn clock and the stand-in bot's level). It
waits while humans sit down, then plays one match with the one controller the app uses
(``app.controller.MatchController``), saved action by action in the history database
(``app.saving``). A human seat whose player is away (the turn clock ran out, they left,
or the connection dropped) is played by the stand-in bot until the player is back; the
table plays on while anyone (a player or a spectator) is connected to it, and waits when
nobody is.

This module holds the table's state and rules of the game around the match (who may sit,
start, act); ``rooms.py`` who goes where, ``pacer.py`` its pace, ``service.py`` the
rest.
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from trash_tui.play.table_protocol import CODE_ALPHABET, CODE_LENGTH
from trash_tui.presets import PRESETS, preset_name_of
from trash_tui.rules import Rules, RulesError
from trash_tui.text import clean

HUMAN = "human"
#: The bots a shared table may seat (never a file or a command: the server's own bots).
TABLE_BOTS = ("random", "easy", "normal", "hard", "expert")
DEFAULT_STAND_IN = "normal"
DEFAULT_CLOCK = 60.0
MAX_CLOCK = 3600.0
MIN_SEATS, MAX_SEATS = 2, 8
NAME_LENGTH = 32
WAITING, PLAYING, FINISHED, CLOSED = "waiting", "playing", "finished", "closed"
CHAT_KEPT = 20  # chat lines a table keeps for those who arrive later
BEEN_KEPT = 64  # people a table remembers having been at it (to report them after they left)


class TableError(ValueError):
    """A request about a table that cannot be granted; the message says why (one line)."""


def new_code(taken: set[str]) -> str:
    """A join code no table in ``taken`` has."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def numbered(name: str, taken: Collection[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)``... the first that is not in ``taken``."""
    if name not in taken:
        return name
    number = 2
    while f"{name} ({number})" in taken:
        number += 1
    return f"{name} ({number})"


@dataclass(frozen=True)
class TableConfig:
    """What the host chose for a table."""

    name: str
    rules: Rules
    seats: tuple[str, ...]  # HUMAN or a bot level, seat by seat (the host sits at seat 0)
    public: bool = True
    clock: float = DEFAULT_CLOCK  # seconds per human decision (0: no clock)
    stand_in: str = DEFAULT_STAND_IN

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "rules": self.rules.to_dict(), "seats": list(self.seats),
                "public": self.public, "clock": self.clock, "stand_in": self.stand_in}

    @classmethod
    def from_request(cls, data: Any, default_name: str) -> TableConfig:
        """The config a client asked for; TableError (one line) if it is not a valid one."""
        if not isinstance(data, dict):
            raise TableError("a table needs its settings")
        name = clean(data.get("name") or default_name, NAME_LENGTH).strip() \
            if isinstance(data.get("name") or default_name, str) else ""
        if not name:
            raise TableError("a table needs a name")
        rules = _rules(data.get("preset"), data.get("rules"))
        seats = data.get("seats")
        if not isinstance(seats, list) or not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise TableError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats")
        for seat in seats:
            if seat != HUMAN and seat not in TABLE_BOTS:
                raise TableError(f"a seat is {HUMAN!r} or one of the bots "
                                 f"{', '.join(TABLE_BOTS)}")
        if seats[0] != HUMAN:
            raise TableError("the first seat is the host's")
        clock = data.get("clock", DEFAULT_CLOCK)
        if isinstance(clock, bool) or not isinstance(clock, int | float) or \
                not (clock == 0 or 5 <= clock <= MAX_CLOCK):
            raise TableError(f"the turn clock is 0 (none) or 5 to {MAX_CLOCK:g} seconds")
        stand_in = data.get("stand_in", DEFAULT_STAND_IN)
        if stand_in not in TABLE_BOTS:
            raise TableError(f"the stand-in is one of the bots {', '.join(TABLE_BOTS)}")
        public = data.get("public", True)
        if not isinstance(public, bool):
            raise TableError("public is true or false")
        return cls(name, rules, tuple(seats), public, float(clock), stand_in)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        """A config as ``to_dict`` stored it (TableError if it is not one)."""
        try:
            return replace(cls.from_request({**data, "preset": None}, "table"),
                           name=str(data["name"]))
        except (KeyError, TypeError) as exc:
            raise TableError(f"a stored table is broken: {exc}") from None

    def describe_rules(self) -> str:
        """The rules in short: the preset's name, and how many house rules differ."""
        name = preset_name_of(self.rules)
        if name is not None:
            return name
        base = PRESETS["standard"].rules.to_dict()
        changed = sum(1 for key, value in self.rules.to_dict().items() if base.get(key) != value)
        return f"standard + {changed} house rule{'s' if changed != 1 else ''}"


def _rules(preset: Any, rules: Any) -> Rules:
    try:
        if rules is not None:
            if not isinstance(rules, dict):
                raise TableError("rules are a table of house rules")
            return Rules.from_dict(rules).validate()
        name = preset if isinstance(preset, str) and preset else "standard"
        if name not in PRESETS:
            raise TableError(f"no preset {clean(name, 40)!r}")
        return PRESETS[name].rules
    except (RulesError, TypeError, ValueError, KeyError) as exc:
        if isinstance(exc, TableError):
            raise
        raise TableError(f"the rules are not valid: {clean(exc, 200)}") from None


@dataclass
class SeatState:
    """A seat: a bot level, an open human seat, or a human (identity and name)."""

    spec: str  # HUMAN or a bot level
    identity: str | None = None
    name: str | None = None
    away: bool = False  # the stand-in plays for this human

    @property
    def open(self) -> bool:
        return self.spec == HUMAN and self.identity is None

    def to_dict(self) -> dict[str, Any]:
        return {"spec": self.spec, "identity": self.identity, "name": self.name,
                "away": self.away}


@dataclass
class Table:
    """A table's state (the service drives it)."""

    id: int
    code: str
    host: str  # the host's identity
    config: TableConfig
    seats: list[SeatState]
    status: str = WAITING
    match_id: int | None = None
    controller: Any = None  # the MatchController while playing
    stand_ins: dict[int, Any] = field(default_factory=dict)  # seat -> its stand-in bot
    spectators: set[Any] = field(default_factory=set)  # the clients watching
    members: dict[str, Any] = field(default_factory=dict)  # identity -> client (connected)
    deadline: float | None = None  # when the human to move runs out of time (loop time)
    empty_since: float | None = None  # when the last one connected left (loop time)
    deals_seen: int = 0  # finished deals the service has paced (a pause after each)
    failures: int = 0  # steps (bots, stand-ins, the clock) that failed in a row
    result: dict[str, Any] | None = None  # the finished match's ``result`` message
    opened: float = field(default_factory=time.time)  # when it was opened (or restored)
    chat: deque[dict[str, Any]] = field(  # the last chat lines, for those who arrive later
        default_factory=lambda: deque(maxlen=CHAT_KEPT))
    been: dict[str, str] = field(default_factory=dict)  # identity -> name, who was here
    # after a server restart: the players not back yet, whose turn the table waits at (no
    # stand-in plays for them) until ``held_until`` (loop time)
    held: set[str] = field(default_factory=set)
    held_until: float = 0.0
    starting: bool = False  # its match is being set up (nobody else sits down now)
    resume_at: float = 0.0  # a deal has ended: no move before this (loop time; the summary)

    def met(self, identity: str | None, name: str) -> None:
        """``identity`` was at the table (sat, watched or chatted) as ``name``: a report
        finds them after they left. The last ``BEEN_KEPT`` people are kept."""
        if not identity:
            return
        self.been.pop(identity, None)
        self.been[identity] = name
        while len(self.been) > BEEN_KEPT:
            del self.been[next(iter(self.been))]

    @property
    def connected(self) -> bool:
        """Whether anyone is at the table: a seated player or a spectator. The table plays
        on (bots and stand-ins) while someone is; with nobody it waits."""
        return bool(self.members or self.spectators)

    # --- who sits where ----------------------------------------------------------------
    def seat_of(self, identity: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.identity == identity:
                return index
        return None

    def free_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat.open]

    def unique_name(self, name: str, identity: str) -> str:
        """``name``, or ``name (2)``... if another human at the table has it."""
        taken = {seat.name or "" for seat in self.seats
                 if seat.identity not in (None, identity)}
        return numbered(name, taken)

    def sit(self, identity: str, name: str, seat: int | None = None) -> int:
        """Seat ``identity`` (at ``seat``, or the first free one); its seat. TableError if
        the table has started or has no such free seat."""
        held = self.seat_of(identity)
        if held is not None:
            return held
        if self.status != WAITING:
            raise TableError("the match has started: you can watch it")
        free = self.free_seats()
        if not free:
            raise TableError("every seat is taken")
        if seat is None:
            seat = free[0]
        if seat not in free:
            raise TableError(f"seat {seat + 1} is not free")
        self.seats[seat] = SeatState(HUMAN, identity, self.unique_name(name, identity))
        return seat

    def stand_up(self, identity: str) -> None:
        """Leave a table that has not started (the seat is open again)."""
        seat = self.seat_of(identity)
        if seat is not None and self.status == WAITING:
            self.seats[seat] = SeatState(HUMAN)

    @property
    def humans(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.identity is not None]

    @property
    def connected_humans(self) -> int:
        return sum(1 for seat in self.seats if seat.identity in self.members)

    def match_specs(self) -> tuple[list[str], list[str]]:
        """The seats as the match plays them: (specs, the humans' names in order); an open
        human seat is the stand-in bot's from now on."""
        specs, names = [], []
        for index, seat in enumerate(self.seats):
            if seat.identity is not None:
                specs.append(HUMAN)
                names.append(seat.name or f"Player {index + 1}")
            elif seat.spec == HUMAN:
                self.seats[index] = SeatState(self.config.stand_in)
                specs.append(self.config.stand_in)
            else:
                specs.append(seat.spec)
        return specs, names

    # --- what the Tables screen shows ----------------------------------------------------
    def status_text(self) -> str:
        controller = self.controller
        if self.status == PLAYING and controller is not None:
            return f"playing deal {controller.match.deal_number}"
        return self.status

    def summary(self) -> dict[str, Any]:
        """One line of the Tables screen (public: no identity but the host's name)."""
        seats = []
        for seat in self.seats:
            if seat.identity is not None:
                state = "away" if seat.away or seat.identity not in self.members else "here"
                seats.append({"kind": "human", "name": seat.name, "state": state})
            elif seat.spec == HUMAN:
                seats.append({"kind": "open"})
            else:
                seats.append({"kind": "bot", "level": seat.spec})
        host = next((seat.name for seat in self.seats if seat.identity == self.host), None)
        return {"id": self.id, "code": self.code if self.config.public else None,
                "name": self.config.name, "host": host, "rules": self.config.describe_rules(),
                "public": self.config.public, "clock": self.config.clock,
                "seats": seats, "status": self.status, "status_text": self.status_text(),
                "spectators": len(self.spectators)}
