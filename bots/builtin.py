"""Fast built-in policies for headless play: ``random`` and ``greedy``.

A policy is a function ``(deal, seat, rng) -> action``. These two read only public facts
through the deal's public queries (the legal actions, the discard pile's top card, the
face-up cards of the seat's layout), never a face-down card or the stock, and they keep no
state, so ``trash simulate`` and the engine benchmark can run them at full engine speed.
"""

from __future__ import annotations

from collections.abc import Callable

from trash_tui.engine.actions import CALL, DRAW, DRAW_DISCARD, DRAW_STOCK, SWAP, SWAP_CHOICE
from trash_tui.engine.deal import Deal
from trash_tui.engine.rng import Rng

Policy = Callable[[Deal, int, Rng], int]


def random_policy(deal: Deal, seat: int, rng: Rng) -> int:
    """A uniformly random legal action."""
    legal = deal.legal
    return legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0]


def greedy_policy(deal: Deal, seat: int, rng: Rng) -> int:
    """Take a playable discard; put a wild on the lowest open slot; always swap and call."""
    phase = deal.phase
    if phase == DRAW:
        if len(deal.legal) > 1:
            roles = deal.roles
            value = roles[deal.discard[-1]]
            if not value:  # a wild fits any face-down slot
                return DRAW_DISCARD
            if value <= deal.sizes[seat]:
                held = deal.up[seat][value]
                if not held or not roles[held]:
                    return DRAW_DISCARD
        return DRAW_STOCK
    if phase == SWAP_CHOICE:
        return SWAP
    legal = deal.legal
    if CALL in legal:
        return CALL
    return legal[0]  # wild slots are offered in ascending order


POLICIES: dict[str, tuple[Policy, str]] = {
    "random": (random_policy, "a uniformly random legal action"),
    "greedy": (greedy_policy, "takes a playable discard, wild on the lowest open slot, "
               "always swaps and calls"),
}
