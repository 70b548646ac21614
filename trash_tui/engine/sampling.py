"""Sampling hidden cards: a full deal consistent with what one seat has seen.

Look-ahead bots (the ``expert``) cannot see face-down cards or the stock. They sample
them: every card the observation does not show is dealt at random to the face-down slots
and the stock, and the resulting ``Deal`` plays on from the observed position. With no
other knowledge every hidden card is equally likely anywhere, so a uniform sample is
exactly consistent with the observation.
"""

from __future__ import annotations

from collections import Counter

from trash_tui.cards import build_deck, decks_for
from trash_tui.engine.deal import Deal
from trash_tui.engine.observation import Observation
from trash_tui.engine.rng import Rng

_PHASES = {"draw": 0, "wild": 1, "swap": 2, "call": 3, "over": 4}


def unseen_cards(observation: Observation) -> list[int]:
    """The cards this seat cannot see (face down or in the stock), as a sorted list."""
    counts = Counter(build_deck(decks_for(observation.players), observation.rules.jokers))
    seen = [card for layout in observation.layouts for card in layout if card is not None]
    seen.extend(observation.discard)
    if observation.hand is not None:
        seen.append(observation.hand)
    counts.subtract(seen)
    if any(n < 0 for n in counts.values()):
        raise ValueError("the observation shows more copies of a card than the decks hold")
    return sorted(counts.elements())


def sample_deal(observation: Observation, rng: Rng,
                unseen: list[int] | None = None) -> Deal:
    """A deal with the observed public state and hidden cards drawn at random.

    ``unseen`` is ``unseen_cards(observation)`` when the caller has it already (a bot
    sampling many deals from one observation); the sample is the same either way."""
    hidden = rng.shuffle(list(unseen) if unseen is not None else unseen_cards(observation))
    players = observation.players
    sizes = [len(layout) for layout in observation.layouts]
    up = [[0] + [card or 0 for card in layout] for layout in observation.layouts]
    down = [[0] * (size + 1) for size in sizes]
    position = 0
    for seat in range(players):
        for slot in range(1, sizes[seat] + 1):
            if not up[seat][slot]:
                down[seat][slot] = hidden[position]
                position += 1
    stock = hidden[position:]
    if len(stock) != observation.stock_count:
        raise ValueError("the observation's card counts do not add up")
    pending = [seat in observation.forgot_call for seat in range(players)]
    return Deal.restore(
        observation.rules, sizes, observation.first, up, down, stock,
        observation.discard, observation.hand or 0, observation.to_move,
        _PHASES[observation.decision],
        observation.legal if observation.to_move == observation.seat else (),
        turns=observation.turn, winner=observation.winner, completed=observation.completed,
        pending=pending, extra=observation.extra_turns,
        free_draws_left=observation.free_draws_left, reshuffle=rng.shuffle,
    )
