"""The pace of the shared tables' matches: the boards' ``TurnDriver``, one per table.

At a table, what moves when nobody at it does comes from ``TableMoves``, the driver's move
source: a bot's move, the stand-in's for a player who is away (left, dropped, or out of
time), the turn clock running out for the human to move (the stand-in plays for them from
then), the end of the wait for the players not back since a restart, the match's end. Each
comes after the pace the server and its clients share (``play.turns.Pace``: the bot delay,
and after a deal the summary's time, which the welcome tells every client, so a deal's
summary ends on every screen when the table resumes). The table plays on while anyone is
connected to it (a seated player or a spectator); with nobody, it waits; while the server
stops (``hold``), nothing moves.

A step runs on the worker thread, under the table's lock (a player's own move takes it
too). A step that fails is reported and tried again after the bot delay; after
``MAX_FAILURES`` in a row the table is closed with one line saying why (``Steps.broken``).
What a step means for the rest of the service (everyone sees the move, the match's end, a
player out of time) is the ``Steps`` given in the constructor.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bots.registry import make_bot
from trash_tui.engine.rng import derive_seed
from trash_tui.play.turns import Cancellable, Move, Pace, TurnDriver
from trash_tui.tables.hub import Report
from trash_tui.tables.rooms import still_held
from trash_tui.tables.table import PLAYING, Table
from trash_tui.tables.worker import Worker

MAX_FAILURES = 3  # steps of a table failing in a row before it is saved and closed
Step = Callable[[Table], Awaitable[bool | None]]  # True: a move was played


class Steps(Protocol):
    """What the pacer's steps mean for the rest of the service."""

    def moved(self, table: Table) -> None:
        """A move was played at ``table``: everyone there sees it."""

    async def finish(self, table: Table) -> None:
        """``table``'s match is over: save it and tell its standing."""

    async def timed_out(self, table: Table, seat: int) -> None:
        """The clock of ``seat`` ran out: its player is away now (saved, told)."""

    async def broken(self, table: Table) -> None:
        """``table`` cannot go on: close it, saying why."""

    def is_open(self, table: Table) -> bool:
        """Whether ``table`` is still open (not closed meanwhile)."""


class LoopClock:
    """The turn driver's clock on the event loop."""

    def later(self, delay: float, callback: Callable[[], None]) -> Cancellable:
        return asyncio.get_running_loop().call_later(max(0.0, delay), callback)


class TableMoves:
    """The driver's move source at one table: its next step and when (``ready``)."""

    def __init__(self, pacer: Pacer, table: Table) -> None:
        self.pacer = pacer
        self.table = table
        self.step: Step | None = None

    def ready(self, after_move: bool) -> float | None:
        """The delay before the table's next step (None: nothing moves now). A clock
        running out is a step too: its deadline is set here."""
        pacer, table = self.pacer, self.table
        table.deadline = None
        self.step = None
        controller = table.controller
        if pacer.stopping or table.status != PLAYING or controller is None:
            return None
        if not table.connected and not controller.over:
            return None  # nobody is at the table: it waits for them (or closes when empty)
        now = pacer.now()
        pace = pacer.pace()
        if controller.over:
            self.step = pacer.finish
            return pace.bot_delay if table.failures else 0.0
        deals = len(controller.match.history)
        if deals > table.deals_seen:  # a deal has just ended: time to read its summary
            table.deals_seen = deals
            table.resume_at = now + pace.deal_pause
        delay = max(pace.bot_delay, table.resume_at - now)
        seat = controller.to_move
        state = table.seats[seat]
        if not controller.seats[seat].is_human:
            self.step = pacer.bot_step
        elif seat in still_held(table, now):  # not back since a restart: wait for them
            self.step = pacer.stop_holding
            delay = table.held_until - now
        elif state.away or state.identity not in table.members:
            self.step = pacer.stand_in_step
        elif table.config.clock > 0:
            table.deadline = now + table.config.clock
            self.step = pacer.clock_out
            delay = table.config.clock
        else:
            return None  # the human's move
        return delay

    def take(self) -> Move | None:
        step, self.step = self.step, None
        if step is None:
            return None
        return lambda: self.pacer.worker.spawn(self.pacer.guarded(step, self.table))


class Pacer:
    """Every table's pace: ``pump(table)`` when something changed at it."""

    def __init__(self, worker: Worker, pace: Callable[[], Pace], steps: Steps,
                 report: Report) -> None:
        self.worker = worker
        self.pace = pace  # read at each step: a reload or a test may change it
        self.steps = steps
        self.report = report
        self.drivers: dict[int, TurnDriver] = {}
        self.locks: dict[int, asyncio.Lock] = {}
        self.stopping = False

    @staticmethod
    def now() -> float:
        return asyncio.get_running_loop().time()

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    def driver(self, table: Table) -> TurnDriver:
        driver = self.drivers.get(table.id)
        if driver is None:
            driver = TurnDriver(TableMoves(self, table), lambda move: move(), LoopClock())
            self.drivers[table.id] = driver
        return driver

    def pending(self, table: Table) -> bool:
        """Whether a step of ``table`` is waiting for its time."""
        driver = self.drivers.get(table.id)
        return driver is not None and driver.pending is not None

    def pump(self, table: Table) -> None:
        """Set up the table's next step afresh (a step being played goes on, and the next
        is set up when it is done)."""
        driver = self.driver(table)
        driver.cancel_pending()
        table.deadline = None
        driver.poke()

    def hold(self) -> None:
        """The server is stopping: no table moves any more."""
        self.stopping = True
        for driver in self.drivers.values():
            driver.cancel_pending()

    def forget(self, table: Table) -> None:
        """``table`` is closed: nothing more is played there."""
        driver = self.drivers.pop(table.id, None)
        if driver is not None:
            driver.stop()
        self.locks.pop(table.id, None)

    async def guarded(self, step: Step, table: Table) -> None:
        """Run one step of ``table``; a failure is reported and the step tried again after
        the bot delay, and after MAX_FAILURES in a row the table is saved and closed."""
        driver = self.drivers.get(table.id)
        moved = False
        try:
            if not self.steps.is_open(table):
                return  # closed meanwhile
            try:
                moved = bool(await step(table))
            except Exception as exc:
                table.failures += 1
                self.report(f"tables: table {table.id} failed ({table.failures} in a row): "
                            f"{type(exc).__name__}: {exc}", traceback.format_exc())
                if table.failures >= MAX_FAILURES or self.stopping:
                    await self.steps.broken(table)
                    return
            else:
                table.failures = 0
        finally:
            if driver is not None and self.drivers.get(table.id) is driver:
                try:
                    driver.moved()  # the next step (after the bot delay if this one failed)
                except Exception as again:
                    self.report(f"tables: table {table.id} cannot go on: "
                                f"{type(again).__name__}: {again}", traceback.format_exc())
                    self.worker.spawn(self.steps.broken(table))
            if moved:  # told once the next step is set: a player's turn comes with its clock
                try:
                    self.steps.moved(table)
                except Exception as exc:
                    self.report(f"tables: table {table.id}: its move could not be shown: "
                                f"{type(exc).__name__}: {exc}", traceback.format_exc())

    # --- the steps -----------------------------------------------------------------------
    async def bot_step(self, table: Table) -> bool:
        async with self.lock(table):
            controller = table.controller
            if controller is None or controller.over or controller.waiting_for_human:
                return False
            await self.worker.run(controller.step_bot)
        return True

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

    async def stand_in_step(self, table: Table) -> bool:
        async with self.lock(table):
            controller = table.controller
            if controller is None or controller.over or not controller.waiting_for_human:
                return False
            seat = controller.to_move
            bot = await self.worker.run(lambda: self.stand_in(table, seat))
            await self.worker.run(lambda: controller.step_stand_in(bot))
        return True

    async def clock_out(self, table: Table) -> bool:
        controller = table.controller
        if controller is None or controller.over or not controller.waiting_for_human:
            return False
        await self.steps.timed_out(table, controller.to_move)
        return await self.stand_in_step(table)

    async def stop_holding(self, table: Table) -> None:
        """The wait after a restart is over: the stand-in plays for whoever is not back."""
        table.held.clear()

    async def finish(self, table: Table) -> None:
        await self.steps.finish(table)
