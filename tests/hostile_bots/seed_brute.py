"""Finds a weak tournament seed from its own ``hello`` seed, with nothing but what a
sandboxed bot legitimately sees, and rebuilds its match with the engine the sandbox lends
an isolated bot (``bot = "seed_brute.py:SeedBrute"``, ``isolate = true``).

Made for a tournament of two bots and one match (pairing 0, board 0, no ``duplicate``)
against greedy: it tries every tournament seed below 2**17 (about a second), derives the
game's seed and each bot's hello seed from it as the runner does, and, when one gives its
own hello seed, plays the whole match in its head (it plays greedy itself, so the match it
imagines is the match played). Then it predicts every card it will hold before it sees it.
It says what it found on standard error: ``LEARNED seed ...`` or ``REFUSED ...``, and at
the match's end ``PREDICTED H of N cards`` (H = N: full sight of the stock).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from bots.ladder import GreedyBot
from bots.runner import play_match
from trash_tui.engine.observation import Observation
from trash_tui.engine.rng import derive_seed

LIMIT = 2**17


def say(word: str, what: str) -> None:
    print(word, what, file=sys.stderr, flush=True)


def find_seed(hello_seed: int) -> tuple[int, int] | None:
    """(tournament seed, game seed) that give ``hello_seed`` to bot 0 or 1, if any."""
    for seed in range(LIMIT):
        game = derive_seed(seed, "game", 0, 0)
        for bot in (0, 1):
            if derive_seed(game, "bot", bot, 0) % 2**31 == hello_seed:
                return seed, game
    return None


class Recorder(GreedyBot):
    """Greedy, writing down the card it holds at each of its decisions."""

    def __init__(self) -> None:
        super().__init__(0)
        self.held: list[int | None] = []

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        self.held.append(observation.hand)
        return super().choose(observation, legal)


class SeedBrute(GreedyBot):
    name = "seed_brute"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        super().__init__(seed, **options)
        found = find_seed(seed)
        if found is None:
            say("REFUSED", f"no tournament seed below {LIMIT} gives hello seed {seed}")
            self.game = derive_seed(0, "game", 0, 0)  # a guess, as good as any other
        else:
            say("LEARNED", f"seed {found[0]} (game seed {found[1]}) from hello seed {seed}")
            self.game = found[1]
        self.predicted: list[int | None] | None = None
        self.step = self.hits = self.tries = 0

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        if self.predicted is None:
            seats = [Recorder() for _ in range(observation.players)]
            play_match(observation.rules, seats, self.game)
            self.predicted = seats[observation.seat].held
        guess = self.predicted[self.step] if self.step < len(self.predicted) else None
        self.step += 1
        if observation.hand is not None:
            self.tries += 1
            self.hits += guess == observation.hand
        return super().choose(observation, legal)

    def end_match(self, places: Sequence[int]) -> None:
        say("PREDICTED", f"{self.hits} of {self.tries} cards")
