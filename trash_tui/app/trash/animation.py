"""Chains shown step by step: the table between one decision and the next, event by event.

The engine runs a whole chain (draw, place, turn up, place again, ... discard) inside one
``apply``. To show it as it happens, ``chain_frames`` starts from the viewer's observation
before the decision and replays the events that only move cards the viewer can see (a
draw, a card placed and the one turned up, a swap, a discard) on copies of it. An event
it cannot show exactly (a reshuffle, the end of a deal) stops the frames there; the
screen then shows the real observation. No frame ever shows a card the viewer's real
observation would not: cards come from the events, which are public.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from trash_tui.engine.observation import Observation

#: Events a frame can show; anything else ends the animation.
SHOWN = frozenset({"draw", "place", "swap", "keep", "discard", "call", "silent"})


def chain_frames(before: Observation, events: Sequence[tuple]) -> list[tuple[Observation, int]]:
    """Intermediate views after each shown event, with how many events each covers.

    ``before`` is the viewer's observation before the decision and ``events`` what the
    decision produced. Returns ``(observation, count)`` pairs: the table after the first
    ``count`` events. Empty when there is nothing worth animating (a single step).
    """
    frames = table_frames(before, events)
    return frames if len(frames) > 1 else []


def table_after(before: Observation, events: Sequence[tuple]) -> Observation | None:
    """The table after the shown events of a decision (up to the first it cannot show):
    for the move that ends a deal, the finished deal's table, before the next deal is
    dealt. None when no event of it can be shown."""
    frames = table_frames(before, events)
    return frames[-1][0] if frames else None


def table_frames(before: Observation, events: Sequence[tuple]
                 ) -> list[tuple[Observation, int]]:
    """Every view ``chain_frames`` would show, even a single one."""
    layouts = [list(layout) for layout in before.layouts]
    discard = list(before.discard)
    stock = before.stock_count
    hand = before.hand
    frames: list[tuple[Observation, int]] = []
    for count, event in enumerate(events, start=1):
        kind = event[0]
        if kind not in SHOWN:
            break
        if kind == "draw":
            _, seat, source, card = event
            if source == "stock":
                stock -= 1
            elif discard:
                discard.pop()
            hand = card
        elif kind == "place":
            _, seat, slot, card, revealed = event
            if not 1 <= slot <= len(layouts[seat]):
                break
            layouts[seat][slot - 1] = card
            hand = revealed
        elif kind == "swap":
            _, seat, slot, card, wild = event
            if not 1 <= slot <= len(layouts[seat]):
                break
            layouts[seat][slot - 1] = card
            hand = wild
        elif kind == "discard":
            discard.append(event[2])
            hand = None
        else:  # keep, call, silent: nothing moves
            continue
        frames.append((replace(before, layouts=tuple(tuple(row) for row in layouts),
                               discard=tuple(discard), stock_count=stock, hand=hand,
                               legal=()), count))
    return frames
