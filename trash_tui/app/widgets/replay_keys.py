"""The keys both replay screens share: step forwards and back, jump to the start or the
end, close. A screen mixes ``ReplayKeys`` in before ``Screen``, holds a ``cursor`` (Trash's
``ReplayCursor`` or the dice game's ``NeighborReplayCursor``) and draws it in ``show``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class SteppingCursor(Protocol):
    """What the shared keys need of a replay cursor."""

    @property
    def length(self) -> int: ...

    def forward(self, steps: int = 1) -> None: ...

    def back(self, steps: int = 1) -> None: ...

    def seek(self, position: int) -> None: ...


class ReplayKeys:
    """Key actions that move the cursor, then redraw (``show``)."""

    cursor: SteppingCursor
    show: Callable[[], None]  # the screen's: draw the cursor's position

    def action_forward(self) -> None:
        self.cursor.forward()
        self.show()

    def action_back(self) -> None:
        self.cursor.back()
        self.show()

    def action_start(self) -> None:
        self.cursor.seek(0)
        self.show()

    def action_end(self) -> None:
        self.cursor.seek(self.cursor.length)
        self.show()
