"""Chess clocks for bots: ``time_control = "60+0.5"`` is 60 seconds for the match plus
0.5 seconds added after each decision.

Every seat has its own clock. A decision's thinking time (measured by the runner) is taken
off the seat's remaining time; if it took longer than what was left, the flag falls (the
bot forfeits with the reason "time"); otherwise the increment is added.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_FORMAT = re.compile(r"\s*([0-9]+(?:\.[0-9]*)?)\s*(?:\+\s*([0-9]+(?:\.[0-9]*)?)\s*)?")


@dataclass(frozen=True)
class TimeControl:
    """Seconds per match (``base``) and seconds added after each decision (``increment``)."""

    base: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"60+0.5"``, ``"90"``; ValueError (one line) otherwise."""
        found = _FORMAT.fullmatch(text) if isinstance(text, str) else None
        if not found:
            raise ValueError(f"expected \"SECONDS+INCREMENT\" such as \"60+0.5\", got {text!r}")
        base, increment = float(found.group(1)), float(found.group(2) or 0)
        if not (math.isfinite(base) and base > 0 and math.isfinite(increment)):
            raise ValueError(f"expected more than 0 seconds per match, got {text!r}")
        return cls(base, increment)

    def __str__(self) -> str:
        return f"{self.base:g}+{self.increment:g}"


class Clock:
    """The remaining time of every seat in one match."""

    def __init__(self, control: TimeControl, seats: int) -> None:
        self.control = control
        self.remaining = [control.base] * seats

    def spend(self, seat: int, seconds: float) -> bool:
        """Take ``seconds`` off ``seat``'s clock; False if its flag fell."""
        left = self.remaining[seat] - seconds
        if left < 0:
            self.remaining[seat] = 0.0
            return False
        self.remaining[seat] = left + self.control.increment
        return True
