"""Stepping through a recorded Help Your Neighbor game, forwards and back, one action at a time.

A ``NeighborReplayCursor`` checks a record with ``replay_neighbor`` (a ``RecordError``
propagates), then holds a position: how many of the record's actions have been applied to
``game``, a ``NeighborGame`` whose dice are the record's rolls (``FixedDice``; rolls beyond
the position simply stay unused). Going back rebuilds the game from the start: games are a
few hundred actions at most. A turn is one player's hold of the dice: it starts where the
engine emits a ``("turn", seat)`` event (position 0 is the first player's turn), and
``next_turn``/``previous_turn`` jump between those starts. No UI here.
"""

from __future__ import annotations

from typing import Any

from trash_tui.neighbor.engine import FixedDice, NeighborGame, parse_action
from trash_tui.neighbor.record import parse_rolls, replay_neighbor


class NeighborReplayCursor:
    """A position in a recorded game; ``game`` is the game after ``position`` actions."""

    def __init__(self, document: dict[str, Any]) -> None:
        replay_neighbor(document)  # RecordError at the first difference
        self.document = document
        self.rolls = parse_rolls(document["rolls"])
        self.actions = [parse_action(token) for token in document["actions"].split()]
        game = self._start()
        #: How many events the game has after each position (0..length).
        self.event_counts = [len(game.events)]
        #: The positions at which a turn starts (0 first, then after each action that
        #: hands the dice over).
        self.turn_starts = [0]
        for position, action in enumerate(self.actions, start=1):
            before = len(game.events)
            game.apply(action)
            self.event_counts.append(len(game.events))
            if any(event[0] == "turn" for event in game.events[before:]):
                self.turn_starts.append(position)
        self.game = self._start()
        self.position = 0

    def _start(self) -> NeighborGame:
        """The game before any action: the record's players, seed and dice."""
        seed = self.document.get("seed", 0)
        return NeighborGame(self.document["players"],
                            seed if isinstance(seed, int | str) else 0,
                            dice=FixedDice(self.rolls))

    @property
    def length(self) -> int:
        """How many actions the record holds."""
        return len(self.actions)

    @property
    def turns(self) -> int:
        """How many turns the game has."""
        return len(self.turn_starts)

    @property
    def turn_index(self) -> int:
        """The turn being shown (0-based): the last one starting at or before here."""
        return sum(1 for start in self.turn_starts if start <= self.position) - 1

    def seek(self, position: int) -> None:
        """Go to ``position`` (clamped to 0..length)."""
        position = max(0, min(self.length, position))
        if position < self.position:
            self.game = self._start()
            self.position = 0
        while self.position < position:
            self.game.apply(self.actions[self.position])
            self.position += 1

    def forward(self, steps: int = 1) -> None:
        self.seek(self.position + steps)

    def back(self, steps: int = 1) -> None:
        self.seek(self.position - steps)

    def next_turn(self) -> None:
        """To the start of the next turn (or the end)."""
        later = [start for start in self.turn_starts if start > self.position]
        self.seek(later[0] if later else self.length)

    def previous_turn(self) -> None:
        """To the start of this turn, or of the one before when already at a start."""
        earlier = [start for start in self.turn_starts if start < self.position]
        self.seek(earlier[-1] if earlier else 0)
