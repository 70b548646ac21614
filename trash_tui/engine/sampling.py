"""Sampling hidden cards: a full deal consistent with what one seat has seen.

Look-ahead bots (the ``expert``) cannot see face-down cards or the stock's order. They
sample them, and the resulting ``Deal`` plays on from the observed position:

* before the deal's first reshuffle nothing tells the unseen cards apart (nobody sees
  their own face-down cards either), so every unseen card is equally likely in any
  face-down slot or anywhere in the stock: they are dealt uniformly among those places;
* after a reshuffle the stock is a known set (``Observation.stock_cards``: the discards
  turned over, less the cards drawn since, each of which was turned face up). Those cards
  are shuffled into the stock, and the rest of the unseen cards, uniformly, into the
  face-down slots.

Either way a sample is uniform over the deals that agree with everything the seat has
seen (``tests/test_sampling.py`` checks it against the public events).
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


def face_down_pool(observation: Observation, unseen: list[int]) -> list[int]:
    """The cards that may lie face down: the unseen ones, less those known to be in the
    stock after a reshuffle (sorted). ValueError if the stock's cards are not unseen."""
    if observation.stock_cards is None:
        return list(unseen)
    pool = Counter(unseen)
    pool.subtract(observation.stock_cards)
    if any(n < 0 for n in pool.values()):
        raise ValueError("the observation's stock holds cards it shows elsewhere")
    return sorted(pool.elements())


def sample_deal(observation: Observation, rng: Rng,
                unseen: list[int] | None = None) -> Deal:
    """A deal with the observed public state and hidden cards drawn at random (see the
    module's docstring for what may lie where).

    ``unseen`` is ``unseen_cards(observation)`` when the caller has it already (a bot
    sampling many deals from one observation); the sample is the same either way."""
    if unseen is None:
        unseen = unseen_cards(observation)
    known_stock = observation.stock_cards
    hidden = rng.shuffle(face_down_pool(observation, unseen))
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
    if known_stock is None:
        stock = hidden[position:]
    elif position == len(hidden):
        stock = rng.shuffle(list(known_stock))
    else:  # more unseen cards than face-down slots for them
        stock = []
    if len(stock) != observation.stock_count or position + len(stock) != len(
            unseen):
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
        reshuffled=known_stock is not None,
    )
