"""A finished match's standing: its places once the players who left are put last.

The one rule every place that shows or counts a result reads (the standings box at a
shared table, the history, the statistics and the rating): a human who is not at their
seat of a shared table when its match ends has left it — they pressed esc, their
connection dropped, or their turn clock ran out and they pressed no key since (the
stand-in was playing for them). Whatever the stand-in did, they are last; several such
players share the last place, and the others keep their order above them. A player who
left wins nothing: when everybody left, nobody won.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def ranked(keys: Sequence[tuple[float, ...]]) -> list[int]:
    """Places from sort keys (lower is better); equal keys share a place (1, 2, 2, 4).
    (Also how a tournament's games and the dice game's results are placed.)"""
    order = sorted(range(len(keys)), key=lambda s: keys[s])
    places = [0] * len(keys)
    for position, seat in enumerate(order):
        if position and keys[seat] == keys[order[position - 1]]:
            places[seat] = places[order[position - 1]]
        else:
            places[seat] = position + 1
    return places


def final_places(places: Sequence[int], left: Collection[int]) -> list[int]:
    """The places of a match's seats once the seats in ``left`` are put last: the others
    keep their order, and every leaver shares the last place (4 seats, 2 leavers: 1, 2, 3,
    3)."""
    return ranked([(1, 0) if seat in left else (0, place) for seat, place in enumerate(places)])


def winners(places: Sequence[int], left: Collection[int]) -> list[int]:
    """The seats that won: first once the leavers are last, and not leavers themselves
    (several on a tie for first; none when everybody left)."""
    final = final_places(places, left)
    return [seat for seat, place in enumerate(final) if place == 1 and seat not in left]


def won(places: Sequence[int], left: Collection[int], seat: int) -> bool:
    """Whether ``seat`` won the match (see ``winners``)."""
    return seat in winners(places, left)
