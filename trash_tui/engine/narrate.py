"""Turning engine events into sentences for logs: ``trash replay`` and the board's log."""

from __future__ import annotations

from collections.abc import Sequence

from trash_tui.cards import card_label


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_label(c) for c in cards) or "nothing"


_SECOND_PERSON = {"draws": "draw", "puts": "put", "swaps": "swap", "leaves": "leave",
                  "calls": "call", "forgets": "forget", "discards": "discard", "pays": "pay",
                  "completes": "complete", "turns": "turn", "wins": "win"}


def _agree(line: str) -> str:
    """'You draws' reads 'You draw': the verb after a leading 'You' takes no -s."""
    if line.startswith("You "):
        head, _, rest = line[4:].partition(" ")
        rest = rest.replace(" and wins ", " and win ").replace(" and turns ", " and turn ")
        return f"You {_SECOND_PERSON.get(head, head)} {rest}".rstrip()
    return line


def describe_event(event: tuple, names: Sequence[str]) -> str | None:
    """A sentence for ``event``; None for events that need no line of their own."""
    line = _describe(event, names)
    return _agree(line) if line else line


def _describe(event: tuple, names: Sequence[str]) -> str | None:
    kind = event[0]

    def who(seat: int | None) -> str:
        return "nobody" if seat is None else names[seat]

    if kind == "cut":
        draws, dealer = event[1], event[2]
        cut = ", ".join(f"{who(seat)} {card_label(card)}" for seat, card in draws)
        if dealer is None:
            return f"Cut: {cut} — a tie for lowest, cut again"
        return f"Cut: {cut} — {who(dealer)} deals"
    if kind == "deal":
        number, first, sizes = event[1], event[2], event[3]
        layout = ", ".join(f"{names[s]} {size}" for s, size in enumerate(sizes))
        return f"Deal {number}: {who(first)} plays first; layouts {layout}"
    if kind == "draw":
        source = "the stock" if event[2] == "stock" else "the discard pile"
        return f"{who(event[1])} draws {card_label(event[3])} from {source}"
    if kind == "reshuffle":
        return f"The stock is empty: {event[1]} discards are shuffled into a new stock"
    if kind == "place":
        return (f"{who(event[1])} puts {card_label(event[3])} on slot {event[2]} and turns "
                f"up {card_label(event[4])}")
    if kind == "swap":
        return (f"{who(event[1])} swaps {card_label(event[3])} for the wild "
                f"{card_label(event[4])} on slot {event[2]}")
    if kind == "keep":
        return f"{who(event[1])} leaves the wild on slot {event[2]}"
    if kind == "call":
        return f"{who(event[1])} calls \"Trash!\""
    if kind == "silent":
        return f"{who(event[1])} forgets to call \"Trash!\""
    if kind == "discard":
        return f"{who(event[1])} discards {card_label(event[2])}"
    if kind == "penalty":
        return (f"{who(event[1])} pays for the forgotten call: draws and discards "
                f"{card_label(event[2])}")
    if kind == "win":
        return f"{who(event[1])} completes the layout and wins the deal"
    if kind == "complete":
        return f"{who(event[1])} completes the layout too"
    if kind == "extra":
        seats = ", ".join(who(s) for s in dict.fromkeys(event[2]))
        what = "one last turn" if event[1] == "last-turn" else f"{len(event[2])} free draws"
        return f"Extra turns: {seats} get {what}"
    if kind == "reveal":
        verdict = "all in place: shrinks too" if event[3] else "no shrink"
        return f"{who(event[1])} turns up {_cards(event[2])} — {verdict}"
    if kind == "void":
        return f"The deal is void: {event[1]}; it is dealt again"
    if kind == "end":
        shrinking = ", ".join(who(s) for s in event[2]) or "nobody"
        return f"End of the deal: {who(event[1])} won; shrinking: {shrinking}"
    if kind == "match":
        places = ", ".join(f"{names[s]} {p}" for s, p in enumerate(event[2]))
        if event[1] is None:
            return "The match is abandoned: too many void deals in a row"
        return f"{who(event[1])} wins the match. Places: {places}"
    return None
