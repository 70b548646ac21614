"""The turn driver on its own (no Textual): the pace of a board's moves, with a fake clock.

A board's moves come from a source (the local bots, a shared table's updates), one at a
time, after the source's delay, never while something holds the board (a chain being
shown, a deal's summary, another screen over it); a key pressed while the board is busy
is kept and played as soon as it is free.
"""

from __future__ import annotations

from collections.abc import Callable

from trash_tui.play.controller import MatchController, make_seats
from trash_tui.play.turns import BotTurns, KeptMove, Move, TurnDriver
from trash_tui.rules import Rules


class FakeClock:
    """Time that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0
        self.calls: list[tuple[float, int, Callable[[], None], list[bool]]] = []
        self.count = 0

    def later(self, delay: float, callback: Callable[[], None]) -> FakeHandle:
        cancelled = [False]
        self.count += 1
        self.calls.append((self.now + delay, self.count, callback, cancelled))
        return FakeHandle(cancelled)

    def advance(self, seconds: float) -> None:
        end = self.now + seconds
        while True:
            due = sorted((c for c in self.calls if c[0] <= end and not c[3][0]),
                         key=lambda c: (c[0], c[1]))
            if not due:
                break
            when, _, callback, _cancelled = due[0]
            self.calls.remove(due[0])
            self.now = max(self.now, when)
            callback()
        self.now = end


class FakeHandle:
    def __init__(self, cancelled: list[bool]) -> None:
        self.cancelled = cancelled

    def cancel(self) -> None:
        self.cancelled[0] = True


class Queue:
    """A move source like a shared table's: moves that arrive, each played at once when
    the board is idle and ``step`` apart when they wait behind one just shown."""

    def __init__(self, step: float = 0.2) -> None:
        self.waiting: list[str] = []
        self.step = step

    def ready(self, after_move: bool) -> float | None:
        if not self.waiting:
            return None
        return self.step if after_move else 0.0

    def take(self) -> Move | None:
        if not self.waiting:
            return None
        name = self.waiting.pop(0)
        return lambda: name


class Board:
    """A board that shows each move at once (or, with ``frames``, over a few steps)."""

    def __init__(self, source: Queue | BotTurns, clock: FakeClock, frames: int = 0,
                 step: float = 0.1) -> None:
        self.shown: list[object] = []
        self.clock = clock
        self.frames = frames
        self.step = step
        self.kept = KeptMove()
        self.driver = TurnDriver(source, self.show, clock, when_free=self.take_kept)

    def show(self, move: Move) -> None:
        self.shown.append(move())
        if not self.frames:
            self.driver.moved()
            return
        self.clock.later(self.frames * self.step, self.driver.moved)

    def take_kept(self) -> bool:
        action = self.kept.take()
        if action is None:
            return False
        self.driver.play_now(lambda: f"human {action}")
        return True

    def press(self, action: int) -> None:
        if self.driver.playing or self.driver.holds:
            self.kept.keep(action)
        else:
            self.driver.play_now(lambda: f"human {action}")


def test_an_update_arriving_at_an_idle_board_is_shown_at_once_and_the_next_a_step_later(
        ) -> None:
    clock = FakeClock()
    queue = Queue(step=0.2)
    board = Board(queue, clock)
    queue.waiting += ["a", "b"]
    board.driver.poke()
    clock.advance(0.0)
    assert board.shown == ["a"]
    clock.advance(0.1)
    assert board.shown == ["a"]  # a chain's step after the last move
    clock.advance(0.1)
    assert board.shown == ["a", "b"]


def test_nothing_is_played_while_the_board_is_held_and_it_goes_on_when_released() -> None:
    clock = FakeClock()
    queue = Queue()
    board = Board(queue, clock)
    board.driver.hold("summary")
    queue.waiting.append("a")
    board.driver.poke()
    clock.advance(10)
    assert board.shown == []
    board.driver.hold("covered")
    board.driver.release("summary")
    clock.advance(10)
    assert board.shown == []  # still covered
    board.driver.release("covered")
    clock.advance(0)
    assert board.shown == ["a"]


def test_a_hold_cancels_a_move_already_scheduled() -> None:
    clock = FakeClock()
    queue = Queue(step=0.5)
    board = Board(queue, clock)
    queue.waiting += ["a", "b"]
    board.driver.poke()
    clock.advance(0)  # "a" shown, "b" due in 0.5 s
    board.driver.hold("covered")
    clock.advance(5)
    assert board.shown == ["a"]
    board.driver.release("covered")
    clock.advance(0)
    assert board.shown == ["a", "b"]


def test_a_key_pressed_during_a_moves_frames_is_kept_and_played_when_it_ends() -> None:
    clock = FakeClock()
    queue = Queue()
    board = Board(queue, clock, frames=3, step=0.1)
    queue.waiting.append("bot chain")
    board.driver.poke()
    clock.advance(0)
    assert board.driver.playing
    board.press(1)
    board.press(2)  # at most one is kept: the last
    clock.advance(0.29)
    assert board.shown == ["bot chain"]
    clock.advance(0.02)
    assert board.shown == ["bot chain", "human 2"]
    clock.advance(1)
    assert board.shown == ["bot chain", "human 2"]


def test_a_stopped_driver_plays_nothing_more() -> None:
    clock = FakeClock()
    queue = Queue()
    board = Board(queue, clock)
    queue.waiting += ["a", "b"]
    board.driver.poke()
    clock.advance(0)
    board.driver.stop()
    clock.advance(5)
    board.driver.poke()
    clock.advance(5)
    assert board.shown == ["a"]


def test_local_bots_play_at_their_delay_until_the_human_is_to_move() -> None:
    controller = MatchController(Rules(), make_seats(["greedy", "greedy", "human"], 5), 5)
    clock = FakeClock()
    board = Board(BotTurns(controller, 0.45), clock)
    board.driver.poke()
    assert controller.actions == []
    clock.advance(0.44)
    assert controller.actions == []
    clock.advance(0.01)
    assert len(controller.actions) == 1
    for _ in range(200):
        if controller.waiting_for_human:
            break
        clock.advance(0.45)
    assert controller.waiting_for_human
    played = len(controller.actions)
    clock.advance(60)  # nobody plays for the human
    assert len(controller.actions) == played
    assert board.driver.pending is None
