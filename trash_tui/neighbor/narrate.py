"""Help Your Neighbor's events as sentences, for the board's log and `trash neighbor replay`.

``narrate`` takes the events one decision produced (a roll with its whole consequence,
an uncover, or the opening rolls) and returns one line per step a player would say out
loud: "Ann rolls 3 and 4: 7!", "Ann covers 9 and rolls again", "9 passes to Bob, who
covers it and takes the dice", "Nobody can use 6: Ann rolls again", "Ann uncovers 8",
"Ann covers the last marker and wins!". Events that only restate a line already said
(the cover and the turn after a pass, the turn after the first player is found, after an
uncover or after a 7 with nothing to uncover) are folded into it. A seat named "You"
gets the verb without -s ("You roll"). Unknown events are skipped.
"""

from __future__ import annotations

from collections.abc import Sequence

_SECOND_PERSON = {"rolls": "roll", "covers": "cover", "takes": "take", "uncovers": "uncover",
                  "wins": "win", "goes": "go", "has": "have", "chooses": "choose"}


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _verb(name: str, verb: str) -> str:
    """``verb`` (third person) agreeing with ``name``: "You roll", "Ann rolls"."""
    return _SECOND_PERSON.get(verb, verb) if name == "You" else verb


def says(name: str, verb: str) -> str:
    """``name`` and ``verb`` (third person) agreeing: "Ann rolls", "You roll"."""
    return f"{name} {_verb(name, verb)}"


def _object(name: str) -> str:
    """``name`` inside a sentence: "you" for "You"."""
    return "you" if name == "You" else name


def _next(events: Sequence[tuple], index: int, kind: str) -> tuple | None:
    """``events[index]`` when it is of ``kind``, else None."""
    if index < len(events) and events[index][0] == kind:
        return events[index]
    return None


def narrate(events: Sequence[tuple], names: Sequence[str]) -> list[str]:
    """The log lines for ``events`` (the events of one decision), ``names`` per seat."""
    lines: list[str] = []
    roller: int | None = None
    opening: list[tuple] = []  # the current round of rolls for the first turn
    rounds = 0  # rounds of those rolls said so far
    index = 0
    while index < len(events):
        event = events[index]
        kind = event[0]
        index += 1
        if kind == "opening":
            if any(earlier[1] == event[1] for earlier in opening):  # the tied roll again
                lines.append(_opening_line(opening, names, rounds))
                opening, rounds = [], rounds + 1
            opening.append(event)
            continue
        if opening:
            lines.append(_opening_line(opening, names, rounds))
            opening, rounds = [], rounds + 1
        if kind == "first":
            who = _name(names, event[1])
            lines.append(f"{who} rolled highest and {_verb(who, 'goes')} first.")
            turn = _next(events, index, "turn")
            if turn is not None and turn[1] == event[1]:
                index += 1
        elif kind == "roll":
            roller = event[1]
            who = _name(names, roller)
            total = event[2] + event[3]
            ending = "!" if total == 7 else "."
            lines.append(f"{who} {_verb(who, 'rolls')} {event[2]} and {event[3]}: "
                         f"{total}{ending}")
        elif kind == "cover":
            who = _name(names, event[1])
            if _next(events, index, "win") is not None:
                index += 1
                lines.append(f"{who} {_verb(who, 'covers')} the last marker and "
                             f"{_verb(who, 'wins')}!")
            else:
                lines.append(f"{who} {_verb(who, 'covers')} {event[2]} and "
                             f"{_verb(who, 'rolls')} again.")
        elif kind == "pass":
            index = _pass_line(events, index, names, lines)
            roller = event[2]
        elif kind == "nobody":
            again = "the roller rolls again"
            if roller is not None:
                who = _name(names, roller)
                again = f"{who} {_verb(who, 'rolls')} again"
            lines.append(f"Nobody can use {event[1]}: {again}.")
        elif kind == "seven":
            who = _name(names, event[1])
            turn = _next(events, index, "turn")
            if turn is not None:
                index += 1
                taker = _name(names, turn[1])
                lines.append(f"{who} {_verb(who, 'has')} nothing to uncover: "
                             f"{_object(taker)} {_verb(taker, 'takes')} the dice.")
            else:
                lines.append(f"{who} {_verb(who, 'must')} uncover a marker.")
        elif kind == "uncover":
            who = _name(names, event[1])
            line = f"{who} {_verb(who, 'uncovers')} {event[2]}"
            turn = _next(events, index, "turn")
            if turn is not None:
                index += 1
                taker = _name(names, turn[1])
                line += f"; {_object(taker)} {_verb(taker, 'takes')} the dice"
            lines.append(line + ".")
        elif kind == "turn":
            taker = _name(names, event[1])
            lines.append(f"{taker} {_verb(taker, 'takes')} the dice.")
        elif kind == "win":
            who = _name(names, event[1])
            lines.append(f"{who} {_verb(who, 'covers')} all ten markers and "
                         f"{_verb(who, 'wins')}!")
        elif kind == "abandoned":
            lines.append(f"The game stops after {event[1]} rolls without a winner.")
    if opening:
        lines.append(_opening_line(opening, names, rounds))
    return lines


def _opening_line(rolls: Sequence[tuple], names: Sequence[str], round_: int) -> str:
    """One round of rolls for the first turn (``round_`` from 0), e.g. "Rolls for the
    first turn: Ann 7 (3+4), Bob 9 (4+5)."; later rounds are the tied rolling again."""
    parts = ", ".join(f"{_name(names, seat)} {d1 + d2} ({d1}+{d2})"
                      for _, seat, d1, d2 in rolls)
    head = "The tied roll again" if round_ else "Rolls for the first turn"
    return f"{head}: {parts}."


def _pass_line(events: Sequence[tuple], index: int, names: Sequence[str],
               lines: list[str]) -> int:
    """The line for the pass event at ``index - 1`` (with the cover, turn and win it
    brings, which it folds in); returns the index of the next event to narrate."""
    _, _, to_seat, total = events[index - 1]
    taker = _name(names, to_seat)
    cover = events[index] if index < len(events) else None
    if cover is not None and cover[0] == "cover" and cover[1] == to_seat:
        index += 1
    wins = _next(events, index, "win")
    if wins is not None:
        lines.append(f"{total} passes to {_object(taker)}, who "
                     f"{_verb(taker, 'covers')} the last marker and {_verb(taker, 'wins')}!")
        return index + 1
    turn = _next(events, index, "turn")
    if turn is not None and turn[1] == to_seat:
        index += 1
    lines.append(f"{total} passes to {_object(taker)}, who {_verb(taker, 'covers')} it "
                 f"and {_verb(taker, 'takes')} the dice.")
    return index
