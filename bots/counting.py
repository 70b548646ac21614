"""Card counting from an observation: which cards are still unseen, and how many of each.

Everything face up (every layout, the discard pile, the card in hand) has been seen; the
rest of the table's cards are in the stock or face down somewhere. Bots use the count to
judge how likely a slot's natural card is to turn up.
"""

from __future__ import annotations

from functools import lru_cache

from trash_tui.cards import build_deck, decks_for, rank_of
from trash_tui.engine.observation import Observation
from trash_tui.rules import WILD


@lru_cache(maxsize=64)
def _rank_totals(players: int, jokers: bool) -> tuple[int, ...]:
    counts = [0] * 15
    for card in build_deck(decks_for(players), jokers):
        counts[rank_of(card)] += 1
    return tuple(counts)


def unseen_by_rank(observation: Observation) -> list[int]:
    """Copies of each rank (index 1..14) not visible to this seat now."""
    counts = list(_rank_totals(observation.players, observation.rules.jokers))
    for layout in observation.layouts:
        for card in layout:
            if card is not None:
                counts[rank_of(card)] -= 1
    for card in observation.discard:
        counts[rank_of(card)] -= 1
    if observation.hand is not None:
        counts[rank_of(observation.hand)] -= 1
    return counts


def unseen_fitting(observation: Observation, slot: int, unseen: list[int] | None = None) -> int:
    """Unseen cards that could fill ``slot`` naturally (its own rank; wilds not counted)."""
    counts = unseen if unseen is not None else unseen_by_rank(observation)
    return sum(n for rank, n in enumerate(counts)
               if rank and observation.roles[rank] == slot)


def scarcest_slot(observation: Observation, slots: list[int]) -> int:
    """Of ``slots``, the one whose natural card has the fewest unseen copies left (ties: the
    higher slot, the one dealt last and hardest to reach by chains)."""
    unseen = unseen_by_rank(observation)
    return min(slots, key=lambda s: (unseen_fitting(observation, s, unseen), -s))


def is_wild_card(observation: Observation, card: int) -> bool:
    """Whether ``card`` is wild under the observation's rules."""
    return observation.roles[card] == WILD


__all__ = ["is_wild_card", "scarcest_slot", "unseen_by_rank", "unseen_fitting"]
