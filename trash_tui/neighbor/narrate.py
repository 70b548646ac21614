"""Help Your Neighbor events as sentences, for logs (``trash neighbor replay``, a game log).

``names[seat]`` names each seat; a seat named "You" reads in the second person ("You roll
3 and 4", not "You rolls").
"""

from __future__ import annotations

from collections.abc import Sequence

_SECOND_PERSON = {"rolls": "roll", "covers": "cover", "passes": "pass", "uncovers": "uncover",
                  "wins": "win", "starts": "start", "holds": "hold", "has": "have"}


def _agree(line: str) -> str:
    if line.startswith("You "):
        head, _, rest = line[4:].partition(" ")
        rest = rest.replace(" and wins", " and win").replace(" and starts", " and start")
        return f"You {_SECOND_PERSON.get(head, head)} {rest}".rstrip()
    return line


def describe_neighbor_event(event: tuple, names: Sequence[str]) -> str | None:
    """A sentence for ``event``; None for an event this module does not know."""
    kind = event[0]
    if kind == "opening":
        _, seat, d1, d2 = event
        line = f"{names[seat]} rolls {d1} and {d2} ({d1 + d2}) for the first turn."
    elif kind == "first":
        line = f"{names[event[1]]} rolled highest and starts."
    elif kind == "roll":
        _, seat, d1, d2 = event
        line = f"{names[seat]} rolls {d1} and {d2}: {d1 + d2}."
    elif kind == "cover":
        line = f"{names[event[1]]} covers {event[2]}."
    elif kind == "pass":
        _, giver, taker, total = event
        line = (f"{names[giver]} has {total} covered already: it goes to {names[taker]}, "
                "who rolls next.")
    elif kind == "nobody":
        line = f"Nobody shows {event[1]}: roll again."
    elif kind == "seven":
        line = f"{names[event[1]]} rolled a 7."
    elif kind == "uncover":
        line = f"{names[event[1]]} uncovers {event[2]}."
    elif kind == "turn":
        line = f"{names[event[1]]} holds the dice."
    elif kind == "win":
        line = f"{names[event[1]]} covers all ten markers and wins!"
    elif kind == "abandoned":
        line = f"The game is abandoned after {event[1]:,} rolls, without a winner."
    else:
        return None
    return _agree(line)
