"""The server's one rate limiter: a token bucket, ``capacity`` at once, refilled at
``per_second``. The table service gives each client one for its messages, one for its chat
lines and one for its reports; the SSH front (``trash_tui.ssh.limits``) keeps one per
address for new connections and one for the log's lines about banned connections. It takes
a clock, so tests drive time."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """``capacity`` tokens at once, refilled continuously at ``per_second``."""

    def __init__(self, capacity: float, per_second: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = float(capacity)
        self.per_second = per_second
        self.clock = clock
        self.tokens = self.capacity
        self.last = clock()

    @classmethod
    def per_minute(cls, count: float, clock: Callable[[], float] = time.monotonic
                   ) -> TokenBucket:
        """``count`` at once, and ``count`` a minute after that."""
        return cls(count, count / 60.0, clock)

    def take(self) -> bool:
        """Take one token; False (nothing taken) when there is none."""
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def set_rate(self, capacity: float, per_second: float) -> None:
        """New limits (a reload), the tokens held kept within the new capacity."""
        self.capacity, self.per_second = float(capacity), per_second
        self.tokens = min(self.tokens, self.capacity)
