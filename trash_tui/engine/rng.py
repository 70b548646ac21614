"""Seeded randomness that gives the same deals on any machine and Python version.

Python promises only that ``random.Random(int).random()`` keeps its sequence across
versions; ``shuffle`` and ``randrange`` may change. So shuffles here are Fisher-Yates on
``random()``, and seeds for sub-streams (deal i of a match, game i of a tournament) are
derived with SHA-256, never with ``hash()``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from math import floor


def derive_seed(seed: int | str, *path: int | str) -> int:
    """A 64-bit seed for the sub-stream ``path`` of ``seed`` (stable everywhere)."""
    text = "/".join(str(part) for part in (seed, *path))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def generator_of(draw: Callable[[], float]) -> random.Random:
    """The ``random.Random`` whose ``random`` method ``draw`` is (an ``Rng``'s ``draw``)."""
    generator = getattr(draw, "__self__", None)
    if not isinstance(generator, random.Random):
        raise TypeError(f"not the random method of a random.Random: {draw!r}")
    return generator


class Rng:
    """A seeded generator for decks and reshuffles."""

    __slots__ = ("_random", "draw")

    def __init__(self, seed: int) -> None:
        self._random = self.draw = random.Random(seed).random

    def copy(self) -> Rng:
        """An independent generator in the same state: it gives the same numbers from here."""
        twin = Rng.__new__(Rng)
        generator = random.Random()
        generator.setstate(generator_of(self._random).getstate())
        twin._random = twin.draw = generator.random
        return twin

    def shuffle(self, cards: list[int]) -> list[int]:
        """Shuffle ``cards`` in place (Fisher-Yates on random()) and return it."""
        rnd = self._random
        for i in range(len(cards) - 1, 0, -1):
            j = floor(rnd() * (i + 1))  # the same as int() for x >= 0, and faster
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1."""
        return int(self._random() * n)

    def random(self) -> float:
        """A uniform float in [0, 1)."""
        return self._random()
