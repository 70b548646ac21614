"""An example bot written outside the project: it plays like ``greedy`` but keeps its
wilds for the highest open slot, and it can be told to forget the "Trash!" call.

Load it by path:  trash simulate --bot bots/examples/cautious.py --bot greedy --matches 50
or with parameters:  --bot '{ name = "bots/examples/cautious.py", forget = 0.5 }'
"""

from typing import ClassVar

from bots.base import Bot, Param
from trash_tui.engine.actions import CALL, DRAW_DISCARD, DRAW_STOCK, SILENT, SWAP


class CautiousBot(Bot):
    name = "cautious"
    description = "greedy, but saves wilds for the highest open slot"
    params: ClassVar[dict[str, Param]] = {
        "forget": Param(0.0, "chance to forget the \"Trash!\" call", 0.0, 1.0),
    }

    def choose(self, observation, legal):
        if observation.decision == "draw":
            top = observation.discard_top
            if DRAW_DISCARD in legal and top is not None and observation.fits(top):
                return DRAW_DISCARD
            return DRAW_STOCK
        if observation.decision == "swap":
            return SWAP
        if observation.decision == "call":
            return SILENT if self.rng.random() < self.forget else CALL
        return legal[-1]  # wild slots come in ascending order: take the highest
