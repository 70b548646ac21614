"""A shared table's match as the board drives it: the client side of ``MatchController``.

The match lives in the server's table service; this controller holds what the service
sent (``apply`` one ``update`` message at a time): the seat's own observation, the public
events, the deal summaries and the result, in a ``PublicMatch``. It offers the board what
``MatchController`` offers (names, whose turn, the legal actions, ``play``), so the board,
its animations and its end-of-deal screens are the same at a shared table; ``play`` sends
the action to the service, whose answer comes back as the next update.
"""

from __future__ import annotations

import time
from typing import Any

from trash_tui.engine.observation import Observation
from trash_tui.play.controller import TrashTable
from trash_tui.play.table_protocol import (
    PublicMatch,
    apply_match_state,
    event_from_json,
    observation_of,
)
from trash_tui.rules import Rules
from trash_tui.text import clean


class SharedTableController(TrashTable):
    """The board's view of a match at a shared table (``seat`` None: watching). It has
    no seed (that stays on the server), no savers (the service saves the match) and no
    bots to step (they play at the service)."""

    def __init__(self, send: Any, rules: Rules, update: dict[str, Any]) -> None:
        self.send = send
        self.rules = rules
        self.seat: int | None = update.get("seat")
        self.table: dict[str, Any] = update["table"]
        players = len(update["table"]["seats"])
        self.match = PublicMatch(rules, players)
        self.names: list[str] = [f"Seat {n + 1}" for n in range(players)]
        self.move_count = 0  # the match's actions so far, as the service counts them
        self._observation: Observation | None = None
        self.sent_at: int | None = None  # the action count when this seat last moved
        self.clock: tuple[int, float, float] | None = None  # seat, deadline, total seconds
        self.apply(update)

    # --- the service's updates -------------------------------------------------------------
    def apply(self, update: dict[str, Any]) -> int:
        """Take one update; returns how many new events it brought."""
        self.table = update["table"]
        self.seat = update.get("seat")
        if "observation" not in update:
            return 0
        self.names = [clean(name, 32) or f"Seat {n + 1}"
                      for n, name in enumerate(update["names"])]
        self._observation = observation_of(update["observation"], self.rules)
        events = [event_from_json(event) for event in update["events"]]
        if update.get("reset"):
            self.match.events = events
        else:
            self.match.events.extend(events)
        apply_match_state(self.match, update["state"])
        self.move_count = int(update["actions"])
        clock = update.get("clock")
        self.clock = None if not clock else (int(clock["seat"]), time.monotonic() +
                                             float(clock["left"]), float(clock["total"]))
        return len(events)

    # --- what the board asks ---------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def to_move(self) -> int:
        return self._observation.to_move if self._observation is not None else 0

    @property
    def viewer(self) -> int:
        return self.seat if self.seat is not None else 0

    @property
    def watching(self) -> bool:
        return self.seat is None

    @property
    def playing(self) -> bool:
        return self._observation is not None

    @property
    def waiting_for_human(self) -> bool:
        """Whether this player is to move now (and has not sent a move yet)."""
        observation = self._observation
        return (observation is not None and not self.over and self.seat is not None
                and observation.to_move == self.seat and bool(observation.legal)
                and self.sent_at != self.move_count)

    @property
    def away(self) -> bool:
        """Whether the stand-in plays for this player now."""
        if self.seat is None:
            return False
        seats = self.table["seats"]
        return self.seat < len(seats) and seats[self.seat].get("state") == "away"

    def observation(self, seat: int | None = None) -> Observation:
        assert self._observation is not None
        return self._observation

    def legal(self) -> tuple[int, ...]:
        return self._observation.legal if self.waiting_for_human and self._observation else ()

    def play(self, action: int) -> int:
        """Send ``action``; the service's update shows it (no event here yet)."""
        self.sent_at = self.move_count
        self.send({"op": "act", "action": action, "at": self.move_count})
        return 0

    def seconds_left(self) -> float | None:
        """The turn clock of the seat to move, if one runs."""
        if self.clock is None:
            return None
        return max(0.0, self.clock[1] - time.monotonic())
