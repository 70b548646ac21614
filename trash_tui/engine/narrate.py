"""Turning engine events into sentences for logs: ``trash replay`` and the board's log.

The human at the keyboard is named "You" and is spoken to in the second person ("You
draw", "Deal 2: you play first"); every other name takes the third person ("Ann draws").
Each name is said once, as it is given.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from trash_tui.cards import card_label
from trash_tui.standing import final_places, winners


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_label(c) for c in cards) or "nothing"


#: The human at the keyboard is "You": verbs after it lose their -s ("You draw").
YOU = "You"
_SECOND_PERSON = {"has": "have", "is": "are", "was": "were"}


def verb(name: str, third_person: str) -> str:
    """``third_person`` ("draws") agreeing with ``name``: "draw" after "You" (exactly:
    "You 2" is a name, not the second person), else as it is."""
    if name != YOU:
        return third_person
    return _SECOND_PERSON.get(third_person, third_person.removesuffix("s"))


def says(name: str, third_person: str) -> str:
    """The name and its verb, agreeing: "Ann draws", "You draw"."""
    return f"{name} {verb(name, third_person)}"


def inside(name: str) -> str:
    """``name`` inside a sentence: "you" for "You"."""
    return "you" if name == YOU else name


def describe_event(event: tuple, names: Sequence[str], left: Collection[int] = ()
                   ) -> str | None:
    """A sentence for ``event``; None for events that need no line of their own. A seat
    named "You" is spoken to in the second person ("You draw", "you play first").
    ``left``: the seats of a shared table's players who were away when its match ended,
    whom the end of the match puts last (``trash_tui/standing.py``)."""
    return _describe(event, names, left)


def match_end_line(places: Sequence[int], names: Sequence[str], left: Collection[int]
                   ) -> str:
    """The end of a shared match where players left: who wins (those first once the
    leavers are last), who left, and the places as every screen counts them."""
    final = final_places(places, left)
    won = winners(places, left)
    gone = _join([names[seat] for seat in sorted(left)])
    standing = ", ".join(f"{names[s]} {p}" for s, p in enumerate(final))
    if not won:
        return f"Everyone left the table: nobody wins the match. Places: {standing}"
    who = _join([names[seat] for seat in won])
    wins = verb(who, "wins") if len(won) == 1 else "win"
    return f"★ {who} {wins} the match; {gone} left the table: last. Places: {standing}"


def _describe(event: tuple, names: Sequence[str], left: Collection[int] = ()) -> str | None:
    kind = event[0]

    def who(seat: int | None) -> str:
        return "nobody" if seat is None else names[seat]

    def does(seat: int | None, third_person: str) -> str:
        """The seat and its verb, agreeing: "Ann draws", "You draw"."""
        return says(who(seat), third_person)

    def then(seat: int | None, third_person: str) -> str:
        """The same inside a sentence: "Ann deals", "you deal"."""
        name = who(seat)
        return f"{inside(name)} {verb(name, third_person)}"

    if kind == "cut":
        draws, dealer = event[1], event[2]
        cut = ", ".join(f"{who(seat)} {card_label(card)}" for seat, card in draws)
        if dealer is None:
            return f"Cut: {cut} — a tie for lowest, cut again"
        return f"Cut: {cut} — {then(dealer, 'deals')}"
    if kind == "deal":
        number, first, sizes = event[1], event[2], event[3]
        layout = ", ".join(f"{names[s]} {size}" for s, size in enumerate(sizes))
        return f"Deal {number}: {then(first, 'plays')} first; layouts {layout}"
    if kind == "draw":
        source = "the stock" if event[2] == "stock" else "the discard pile"
        return f"{does(event[1], 'draws')} {card_label(event[3])} from {source}"
    if kind == "reshuffle":
        return f"The stock is empty: {event[1]} discards are shuffled into a new stock"
    if kind == "place":
        return (f"{does(event[1], 'puts')} {card_label(event[3])} on slot {event[2]} and "
                f"{verb(who(event[1]), 'turns')} up {card_label(event[4])}")
    if kind == "swap":
        return (f"{does(event[1], 'swaps')} {card_label(event[3])} for the wild "
                f"{card_label(event[4])} on slot {event[2]}")
    if kind == "keep":
        return f"{does(event[1], 'leaves')} the wild on slot {event[2]}"
    if kind == "call":
        return f"{does(event[1], 'calls')} \"Trash!\""
    if kind == "silent":
        return f"{does(event[1], 'forgets')} to call \"Trash!\""
    if kind == "discard":
        return f"{does(event[1], 'discards')} {card_label(event[2])}"
    if kind == "penalty":
        name = who(event[1])
        return (f"{does(event[1], 'pays')} for the forgotten call: {verb(name, 'draws')} "
                f"and {verb(name, 'discards')} {card_label(event[2])}")
    if kind == "win":
        return (f"{does(event[1], 'completes')} the layout and "
                f"{verb(who(event[1]), 'wins')} the deal")
    if kind == "complete":
        return f"{does(event[1], 'completes')} the layout too"
    if kind == "extra":
        seats = list(dict.fromkeys(event[2]))
        if event[1] == "last-turn":
            what = "one last turn"
        else:
            count = len(event[2])
            what = f"{count} free draw{'s' if count != 1 else ''}"
        if len(seats) == 1:
            return f"Extra turns: {then(seats[0], 'gets')} {what}"
        return f"Extra turns: {_join([inside(who(s)) for s in seats])} get {what}"
    if kind == "reveal":
        name = who(event[1])
        verdict = (f"all in place: {inside(name)} {verb(name, 'shrinks')} too" if event[3]
                   else "no shrink")
        return f"{does(event[1], 'turns')} up {_cards(event[2])} — {verdict}"
    if kind == "void":
        return f"The deal is void: {event[1]}; it is dealt again"
    if kind == "end":
        shrinking = ", ".join(who(s) for s in event[2]) or "nobody"
        return f"End of the deal: {who(event[1])} won; shrinking: {shrinking}"
    if kind == "match":
        places = ", ".join(f"{names[s]} {p}" for s, p in enumerate(event[2]))
        if event[1] is None:
            return "The match is abandoned: too many void deals in a row"
        if left:
            return match_end_line(event[2], names, left)
        return f"{does(event[1], 'wins')} the match. Places: {places}"
    return None


def _join(names: Sequence[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
