"""Stepping through a recorded match, forwards and back, one action at a time.

A ``ReplayCursor`` holds a match record and a position (how many of its actions have been
played). Going forwards applies the next actions to a ``Match`` dealt from the record's
cards; going back rebuilds the match from the start (the engine replays thousands of
actions a millisecond, so no snapshots are kept). Used by the app's history screen.
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

from trash_tui.engine.record import replay_start


class ReplayCursor:
    """A position in a recorded match; ``match`` is the match after ``position`` actions."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.match, per_deal = replay_start(document)
        self.actions = [action for deal in per_deal for action in deal]
        #: The position at which each deal starts (its first action is the next one).
        self.deal_starts = [0, *accumulate(len(deal) for deal in per_deal)][:len(per_deal)]
        self.position = 0

    @property
    def length(self) -> int:
        """How many actions the record holds."""
        return len(self.actions)

    @property
    def deals(self) -> int:
        return len(self.deal_starts)

    @property
    def deal_index(self) -> int:
        """The deal being shown (0-based): the last deal that starts at or before here."""
        index = 0
        for number, start in enumerate(self.deal_starts):
            if start <= self.position:
                index = number
        if self.position == self.length:
            return self.deals - 1
        return index

    def seek(self, position: int) -> None:
        """Go to ``position`` (clamped to the record)."""
        position = max(0, min(self.length, position))
        if position < self.position:
            self.match, _ = replay_start(self.document, check=False)
            self.position = 0
        while self.position < position:
            self.match.apply(self.actions[self.position])
            self.position += 1

    def forward(self, steps: int = 1) -> None:
        self.seek(self.position + steps)

    def back(self, steps: int = 1) -> None:
        self.seek(self.position - steps)

    def next_deal(self) -> None:
        """To the start of the next deal (or the end)."""
        later = [s for s in self.deal_starts if s > self.position]
        self.seek(later[0] if later else self.length)

    def previous_deal(self) -> None:
        """To the start of this deal, or of the one before when already at a start."""
        earlier = [s for s in self.deal_starts if s < self.position]
        self.seek(earlier[-1] if earlier else 0)
