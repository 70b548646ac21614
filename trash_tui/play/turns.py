"""The pace of a match on a board: one turn driver for every board (no UI here).

A board shows one move at a time. Between two moves it may be busy: a chain shown step by
step, the summary of a deal waiting to be read, another screen over it. ``TurnDriver``
holds the next move while any such *hold* is on, and otherwise plays the next move its
``MoveSource`` has ready, after the delay the source asks for:

- ``BotTurns``: the local bots (and the dice game's), each decision after the animation's
  delay; nothing while a human is to move;
- the shared table's service updates (``trash_tui.app.shared.board.ServiceUpdates``): each
  update as soon as it arrives, a chain step apart when several wait.

The human's own moves go through the same door (``TurnDriver.play_now``), so a move is
shown the same way whoever made it. A move typed while the board is busy is kept (one at
most, the last) and played when the board is free again, if it is still legal
(``KeptMove``). Time comes from a ``Clock``: the board's timers in the app, a fake one in
the tests, so the driver is tested without Textual.

The timings are here too, for every board and the server's tables alike: ``BOT_DELAYS``
(a local bot's decision, by the animation setting) and ``TABLE_PACE`` (a shared table's:
the server's pacer plays a bot or a stand-in ``bot_delay`` after the last move, and the
first move of a new deal ``deal_pause`` after the last one of the deal before, while the
deal's summary is up on every screen; the welcome sends the server's ``Pace``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

Move = Callable[[], object]
#: Seconds before a local bot's decision, by the animation setting (both games' boards).
BOT_DELAYS = {"off": 0.0, "fast": 0.12, "normal": 0.45}


@dataclass(frozen=True)
class Pace:
    """A shared table's pace, the same on the server and on its clients' screens:
    ``bot_delay`` seconds before a bot's or a stand-in's move, and ``deal_pause`` seconds
    from a deal's last move to the next deal's first (the summary is up that long)."""

    bot_delay: float = 0.8
    deal_pause: float = 4.0

    def to_dict(self) -> dict[str, float]:
        return {"bot_delay": self.bot_delay, "deal_pause": self.deal_pause}

    @classmethod
    def from_dict(cls, data: Any) -> Pace:
        """The pace a welcome sent (the default for anything missing or wrong)."""
        found = data if isinstance(data, dict) else {}
        values = {key: float(value) for key, value in found.items()
                  if key in ("bot_delay", "deal_pause") and isinstance(value, int | float)
                  and not isinstance(value, bool) and 0 <= value <= 60}
        return cls(**values)


TABLE_PACE = Pace()


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """Calls ``callback`` after ``delay`` seconds (0: as soon as the current work is done);
    the handle cancels it."""

    def later(self, delay: float, callback: Callable[[], None]) -> Cancellable: ...


class MoveSource(Protocol):
    """Where a board's next move comes from when no human at this board makes it."""

    def ready(self, after_move: bool) -> float | None:
        """The delay before the next move (``after_move``: one has just been shown), or
        None when there is none to play now."""
        ...

    def take(self) -> Move | None:
        """The next move, to be played now (None: there is none any more)."""
        ...


class BotTurns:
    """The bots at a local table: the next decision is a bot's whenever no human is to
    move, played ``delay`` seconds after the table is free."""

    def __init__(self, controller: BotTable, delay: float) -> None:
        self.controller = controller
        self.delay = delay

    def ready(self, after_move: bool) -> float | None:
        controller = self.controller
        return None if controller.over or controller.waiting_for_human else self.delay

    def take(self) -> Move | None:
        controller = self.controller
        if controller.over or controller.waiting_for_human:
            return None
        return controller.step_bot


class BotTable(Protocol):
    """What ``BotTurns`` asks of a controller (both games' controllers have it)."""

    @property
    def over(self) -> bool: ...

    @property
    def waiting_for_human(self) -> bool: ...

    def step_bot(self) -> int: ...


class KeptMove:
    """A move typed while the board was busy: at most one (the last), taken once."""

    def __init__(self) -> None:
        self.action: int | None = None

    def keep(self, action: int) -> None:
        self.action = action

    def take(self) -> int | None:
        action, self.action = self.action, None
        return action


class TurnDriver:
    """Plays a board's moves one at a time, never while the board is held."""

    def __init__(self, source: MoveSource, play: Callable[[Move], None], clock: Clock,
                 when_free: Callable[[], bool] | None = None) -> None:
        self.source = source
        self._play = play  # shows a move; the board calls ``moved`` when it is shown
        self.clock = clock
        self.when_free = when_free  # the board's kept move, taken first (True: it was)
        self.holds: set[str] = set()
        self.pending: Cancellable | None = None
        self.stopped = False
        self.playing = False  # a move is being shown

    @property
    def free(self) -> bool:
        """Nothing holds the board and no move is being shown."""
        return not self.holds and not self.playing and not self.stopped

    def hold(self, reason: str) -> None:
        """Hold the next move for ``reason`` ("summary", "covered", ...)."""
        self.holds.add(reason)
        self.cancel_pending()

    def release(self, reason: str) -> None:
        """``reason`` holds the board no more: go on if nothing else does."""
        if reason in self.holds:
            self.holds.discard(reason)
            self.poke()

    def play_now(self, move: Move) -> None:
        """A move made at this board (the human's): shown like any other."""
        self.cancel_pending()
        self.playing = True
        self._play(move)

    def moved(self) -> None:
        """The board has shown the last move: the next one may come."""
        self.playing = False
        self.poke(after_move=True)

    def poke(self, after_move: bool = False) -> None:
        """Something changed (a move arrived, a hold ended): if the board is free, take
        its kept move, else schedule the source's next one."""
        if not self.free or self.pending is not None:
            return
        if self.when_free is not None and self.when_free():
            return
        delay = self.source.ready(after_move)
        if delay is not None:
            self.pending = self.clock.later(delay, self._step)

    def _step(self) -> None:
        self.pending = None
        if not self.free:
            return
        move = self.source.take()
        if move is not None:
            self.play_now(move)

    def cancel_pending(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None

    def stop(self) -> None:
        """The match is over or the board is gone: nothing more is played."""
        self.stopped = True
        self.cancel_pending()
