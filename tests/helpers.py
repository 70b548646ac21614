"""Helpers for scenario tests: card names, stacked decks, a stacked card source for matches.

Dealing convention (``Deal.__init__``): ``deck[0]`` is the top card; cards are dealt one at
a time clockwise from seat ``first`` (slot 1 of each player, then slot 2, ...), skipping a
player whose layout is already full; the rest of the deck is the stock, drawn in order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from trash_tui.cards import parse_card
from trash_tui.engine.deal import Deal
from trash_tui.rules import Rules

Cards = str | Iterable[str | int]


def card(text: str | int) -> int:
    """The code of a card named like 'QS', '10H', 'AS' or '*R' (a code passes through)."""
    return text if isinstance(text, int) else parse_card(text)


def cards(spec: Cards) -> list[int]:
    """Codes for 'QS 2H 10D' (space-separated) or for a sequence of names/codes."""
    if isinstance(spec, str):
        spec = spec.split()
    return [card(c) for c in spec]


def stack(layouts: Sequence[Cards], stock: Cards, first: int = 0) -> list[int]:
    """A deck that deals ``layouts[s][k-1]`` to slot k of seat s; ``stock`` is drawn in order.

    The layout sizes are the lengths of ``layouts``; pass the same sizes and ``first`` to
    ``Deal``.
    """
    lays = [cards(layout) for layout in layouts]
    players = len(lays)
    order = [(first + i) % players for i in range(players)]
    deck: list[int] = []
    for slot in range(max(len(layout) for layout in lays)):
        for seat in order:
            if slot < len(lays[seat]):
                deck.append(lays[seat][slot])
    return deck + cards(stock)


def complete(deck: Sequence[int], multiset: Sequence[int]) -> list[int]:
    """``deck`` followed by the cards of ``multiset`` it lacks (in ``multiset`` order).

    Raises ValueError if ``deck`` uses a card more often than ``multiset`` holds it.
    """
    rest = Counter(multiset)
    rest.subtract(deck)
    extra = [c for c, n in rest.items() if n < 0]
    if extra:
        raise ValueError(f"the stacked deck uses cards the match does not have: {extra}")
    tail: list[int] = []
    for c in multiset:
        if rest[c] > 0:
            rest[c] -= 1
            tail.append(c)
    return [*deck, *tail]


def make_deal(rules: Rules, layouts: Sequence[Cards], stock: Cards, first: int = 0,
              events: list[tuple] | None = None) -> Deal:
    """A bare ``Deal`` of a stacked deck (``stock`` must hold at least one card)."""
    sizes = [len(cards(layout)) for layout in layouts]
    return Deal(rules, sizes, first, stack(layouts, stock, first), events=events)


def play(deal, *actions: int) -> None:
    """Apply ``actions`` in order (to a ``Deal`` or a ``Match``)."""
    for action in actions:
        deal.apply(action)


def kinds(deal: Deal, kind: str) -> list[tuple]:
    """The events of ``deal`` whose first element is ``kind``."""
    return [e for e in deal.events if e[0] == kind]


def since(deal: Deal, start: int) -> list[tuple]:
    """The events appended from index ``start`` on."""
    return deal.events[start:]


def first_legal(deal) -> int:
    """A simple deterministic policy: the first legal action (stock, swap, call, lowest slot)."""
    return deal.legal[0]


def chain_layout(size: int, suit: str = "S", last: str = "Q") -> list[str]:
    """A layout that an Ace completes in one chain: slot k holds rank k+1, the last a trash card.

    Slots 1..size-1 hold 2..size of ``suit``; slot ``size`` holds ``last`` + ``suit``.
    """
    return [f"{rank}{suit}" for rank in range(2, size + 1)] + [f"{last}{suit}"]


class StackedSource:
    """A ``CardSource`` dealing stacked decks: ``cut`` for the cut, then one entry per deal.

    Each entry is ``(layouts, stock)``: built with the first player the match asks for and
    completed with the rest of the match's cards (so the multiset is right), or
    ``(layouts, stock, False)`` to use the stacked cards alone (a deliberately odd deck),
    or ``None`` to deal the match's cards unshuffled.
    ``dealt`` records ``(sizes, first)`` of every deal started.
    """

    def __init__(self, deals: Sequence[tuple | None], cut: Cards = ()) -> None:
        self.cut = cards(cut)
        self.deals = list(deals)
        self.dealt: list[tuple[tuple[int, ...], int]] = []

    def cut_cards(self, count: int) -> list[int]:
        return self.cut[:count]

    def start_deal(self, rules: Rules, sizes: Sequence[int], first: int,
                   cards_: list[int], events: list[tuple]) -> Deal:
        if not self.deals:
            raise AssertionError("the test did not stack a deck for this deal")
        entry = self.deals.pop(0)
        self.dealt.append((tuple(sizes), first))
        if entry is None:
            return Deal(rules, sizes, first, cards_, events=events)
        layouts, stock, *flag = entry
        got = [len(cards(layout)) for layout in layouts]
        if got != list(sizes):
            raise AssertionError(f"stacked layouts of sizes {got}, the match deals {list(sizes)}")
        deck = stack(layouts, stock, first)
        if not flag or flag[0]:
            deck = complete(deck, cards_)
        return Deal(rules, sizes, first, deck, events=events)
