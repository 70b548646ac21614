"""The bot ladder below the expert: random, greedy, easy, normal, hard and counter.

``easy``, ``normal`` and ``hard`` are the ladder's levels: the counter's sensible game with
human mistakes at set probabilities (``LEVEL_RATES``): missing a playable discard, stopping
a chain early by leaving a wild in place, forgetting to call "Trash!", and putting a wild
on a random open slot. ``hard`` makes none, so it plays exactly as well as the counter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from bots.base import Bot, Param
from bots.counting import scarcest_slot
from trash_tui.engine.actions import (
    CALL,
    DRAW_DISCARD,
    DRAW_STOCK,
    KEEP,
    SILENT,
    SWAP,
    WILD_BASE,
)
from trash_tui.engine.observation import Observation


class RandomBot(Bot):
    """Uniformly random legal actions."""

    name = "random"
    description = "a uniformly random legal action"

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        return legal[self.rng.below(len(legal))]


def takes_discard(observation: Observation, legal: Sequence[int]) -> bool:
    """Whether the top discard may be drawn and fits this seat's layout."""
    top = observation.discard_top
    return DRAW_DISCARD in legal and top is not None and observation.fits(top)


class GreedyBot(Bot):
    """The obvious play, with no memory and no counting."""

    name = "greedy"
    description = ("takes a playable discard, puts a wild on its lowest open slot, always "
                   "swaps, always calls \"Trash!\"")

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        if observation.decision == "draw":
            return DRAW_DISCARD if takes_discard(observation, legal) else DRAW_STOCK
        if observation.decision == "swap":
            return SWAP
        if observation.decision == "call":
            return CALL
        return legal[0]  # wild slots come in ascending order


class CounterBot(Bot):
    """Counts the cards it has seen and puts wilds where naturals are scarcest."""

    name = "counter"
    description = ("counts every card it has seen; puts a wild on the open slot whose "
                   "natural card has the fewest unseen copies left")

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        decision = observation.decision
        if decision == "draw":
            return DRAW_DISCARD if takes_discard(observation, legal) else DRAW_STOCK
        if decision == "swap":
            return SWAP  # the wild moves on to a face-down slot: one more card turns up
        if decision == "call":
            return CALL
        return self.best_wild(observation, legal)

    @staticmethod
    def best_wild(observation: Observation, legal: Sequence[int]) -> int:
        slots = [action - WILD_BASE for action in legal]
        return WILD_BASE + scarcest_slot(observation, slots)


MISTAKES = ("miss_discard", "stop_chain", "forget_call", "bad_wild")

# Each level's default rate for every kind of mistake. The levels must stay clearly apart
# in paired matches (benchmarks/bots.py): easy beats random, normal beats easy, hard beats
# normal, each with a 95% interval above 50%. Any mistake that costs something makes a bot
# measurably weaker than the counter, so the top level makes none (see bots/README.md).
LEVEL_RATES: dict[str, float] = {"easy": 0.5, "normal": 0.2, "hard": 0.0}


class SkilledBot(CounterBot):
    """The counter's game with human mistakes at set rates (``mistakes`` sets all four)."""

    name = "skilled"
    params: ClassVar[dict[str, Param]] = {}

    def __init__(self, seed: int = 0, **options: object) -> None:
        rate = options.pop("mistakes", None)
        if rate is not None:
            for key in MISTAKES:
                options.setdefault(key, rate)
            options["mistakes"] = rate
        super().__init__(seed, **options)

    def _slip(self, rate: float) -> bool:
        return rate > 0 and self.rng.random() < rate

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        decision = observation.decision
        if decision == "draw":
            if takes_discard(observation, legal) and not self._slip(self.miss_discard):
                return DRAW_DISCARD
            return DRAW_STOCK
        if decision == "swap":
            return KEEP if self._slip(self.stop_chain) else SWAP
        if decision == "call":
            return SILENT if self._slip(self.forget_call) else CALL
        if self._slip(self.bad_wild):
            return legal[self.rng.below(len(legal))]
        return self.best_wild(observation, legal)


def _mistake_params(rate: float) -> dict[str, Param]:
    def p(meaning: str) -> Param:
        return Param(rate, meaning, 0.0, 1.0)

    return {
        "mistakes": p("sets all four mistake rates at once"),
        "miss_discard": p("chance to miss a playable discard and draw from the stock"),
        "stop_chain": p("chance to stop a chain early by leaving a wild in place"),
        "forget_call": p("chance to forget to call \"Trash!\""),
        "bad_wild": p("chance to put a wild on a random open slot"),
    }


class EasyBot(SkilledBot):
    name = "easy"
    description = "a careless child: makes each kind of mistake half the time"
    params = _mistake_params(LEVEL_RATES["easy"])


class NormalBot(SkilledBot):
    name = "normal"
    description = "a casual player: makes each kind of mistake one time in five"
    params = _mistake_params(LEVEL_RATES["normal"])


class HardBot(SkilledBot):
    name = "hard"
    description = ("a careful player: the counter's game with no mistakes (set mistakes "
                   "to make it slip)")
    params = _mistake_params(LEVEL_RATES["hard"])
