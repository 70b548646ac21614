"""The turn driver's clock on a screen: its timers (``trash_tui.play.turns.Clock``)."""

from __future__ import annotations

from collections.abc import Callable

from textual.dom import DOMNode
from textual.timer import Timer


class _Soon:
    """A call at the next turn of the screen's message loop, cancellable."""

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback: Callable[[], None] | None = callback

    def __call__(self) -> None:
        callback, self.callback = self.callback, None
        if callback is not None:
            callback()

    def cancel(self) -> None:
        self.callback = None


class _TimerHandle:
    def __init__(self, timer: Timer) -> None:
        self.timer = timer

    def cancel(self) -> None:
        self.timer.stop()


class ScreenClock:
    """Timers of ``node`` (they stop with it)."""

    def __init__(self, node: DOMNode) -> None:
        self.node = node

    def later(self, delay: float, callback: Callable[[], None]) -> _Soon | _TimerHandle:
        if delay <= 0:
            soon = _Soon(callback)
            self.node.call_later(soon)
            return soon
        return _TimerHandle(self.node.set_timer(delay, callback))
