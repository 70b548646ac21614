"""Playing cards as small integers: codes, names, decks.

A card is ``rank | suit << 4``: rank 1 (Ace) .. 13 (King), 14 for a Joker; suit 0..3 for
spades, hearts, diamonds, clubs (for a Joker: 0 black, 1 red). Identical cards from
different decks share a code, because in Trash only the rank matters. This module is part
of the rules layer: it knows nothing of games, only of cards.
"""

from __future__ import annotations

ACE, JACK, QUEEN, KING, JOKER = 1, 11, 12, 13, 14
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
MAX_CODE = 64  # every code is below this; tables indexed by code use this length


def make_card(rank: int, suit: int) -> int:
    """The code of the card of ``rank`` (1..14) and ``suit`` (0..3)."""
    return rank | (suit << 4)


def rank_of(card: int) -> int:
    """The rank of a card: 1 (Ace) .. 13 (King), 14 for a Joker."""
    return card & 15


def suit_of(card: int) -> int:
    """The suit index of a card (0..3; for a Joker 0 black, 1 red)."""
    return card >> 4


def is_red(card: int) -> bool:
    """Hearts, diamonds and the red Joker are red."""
    return suit_of(card) in (1, 2) if rank_of(card) != JOKER else suit_of(card) == 1


def rank_name(rank: int) -> str:
    """'A', '2'..'10', 'J', 'Q', 'K' or 'Joker'."""
    if rank == JOKER:
        return "Joker"
    return RANK_NAMES.get(rank, str(rank))


def card_id(card: int) -> str:
    """A short ASCII name used in records: 'AS', '10H', 'QC', '*B' / '*R' for Jokers."""
    rank, suit = rank_of(card), suit_of(card)
    if rank == JOKER:
        return "*R" if suit == 1 else "*B"
    return rank_name(rank) + SUITS[suit]


def card_label(card: int) -> str:
    """A short display name with a suit symbol: 'A♠', '10♥', 'Joker'."""
    rank, suit = rank_of(card), suit_of(card)
    if rank == JOKER:
        return "Joker"
    return rank_name(rank) + SUIT_SYMBOLS[suit]


_ID_TO_CARD = {card_id(make_card(r, s)): make_card(r, s) for r in range(1, 14) for s in range(4)}
_ID_TO_CARD.update({"*B": make_card(JOKER, 0), "*R": make_card(JOKER, 1)})


def parse_card(text: str) -> int:
    """The code for a record name such as 'AS', '10h' or '*R'; ValueError if it is not one."""
    key = text.strip().upper()
    try:
        return _ID_TO_CARD[key]
    except KeyError:
        raise ValueError(f"not a card: {text!r} (expected e.g. 'AS', '10H', 'QC', '*R')") from None


def standard_deck() -> list[int]:
    """One 52-card deck in a fixed order (spades, hearts, diamonds, clubs; Ace to King)."""
    return [make_card(r, s) for s in range(4) for r in range(1, 14)]


def build_deck(decks: int, jokers: bool) -> list[int]:
    """``decks`` standard decks, with two Jokers each when ``jokers``; unshuffled."""
    one = standard_deck()
    if jokers:
        one += [make_card(JOKER, 0), make_card(JOKER, 1)]
    return one * decks


def decks_for(players: int) -> int:
    """Decks used by ``players`` players: one per two players, rounded up (RULES.md)."""
    return (players + 1) // 2
