"""The bot ladder below the expert: random, greedy, easy, normal, hard and counter.

``easy``, ``normal`` and ``hard`` play the counter's sensible game but make human mistakes
with set probabilities: missing a playable discard, stopping a chain early by leaving a
wild in place, forgetting to call "Trash!", and putting a wild on a poor slot.
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


class SkilledBot(CounterBot):
    """The counter's game with human mistakes at set rates (``mistakes`` sets all four)."""

    name = "skilled"
    level_rate: ClassVar[float] = 0.2
    params: ClassVar[dict[str, Param]] = {}

    def __init__(self, seed: int = 0, **options: object) -> None:
        rate = options.pop("mistakes", None)
        if rate is not None:
            for key in ("miss_discard", "stop_chain", "forget_call", "bad_wild"):
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
    params = _mistake_params(0.5)


class NormalBot(SkilledBot):
    name = "normal"
    description = "a casual player: makes each kind of mistake one time in five"
    params = _mistake_params(0.2)


class HardBot(SkilledBot):
    name = "hard"
    description = "a careful player: makes each kind of mistake one time in twenty"
    params = _mistake_params(0.05)
