"""Actions and decision kinds: small integers on the hot path, names in records and UIs.

An action answers the decision the engine is waiting for:

* draw decision: ``DRAW_STOCK`` or ``DRAW_DISCARD``;
* wild decision: ``wild_action(slot)`` puts the wild in hand on face-down ``slot``;
* swap decision: ``SWAP`` (the natural card replaces the wild in its slot) or ``KEEP``;
* call decision: ``CALL`` ("Trash!") or ``SILENT`` (forget to call).
"""

from __future__ import annotations

DRAW_STOCK, DRAW_DISCARD, SWAP, KEEP, CALL, SILENT = 0, 1, 2, 3, 4, 5
WILD_BASE = 10  # wild_action(slot) == WILD_BASE + slot

# decision kinds (the deal's phase while it waits for an action)
DRAW, WILD_SLOT, SWAP_CHOICE, CALL_CHOICE, OVER = 0, 1, 2, 3, 4
DECISION_NAMES = {DRAW: "draw", WILD_SLOT: "wild", SWAP_CHOICE: "swap", CALL_CHOICE: "call",
                  OVER: "over"}

_NAMES = {DRAW_STOCK: "stock", DRAW_DISCARD: "discard", SWAP: "swap", KEEP: "keep",
          CALL: "call", SILENT: "silent"}
_BY_NAME = {name: action for action, name in _NAMES.items()}


def wild_action(slot: int) -> int:
    """The action placing the wild in hand on ``slot``."""
    return WILD_BASE + slot


def wild_slot(action: int) -> int:
    """The slot of a wild action (0 if ``action`` is not one)."""
    return action - WILD_BASE if action > WILD_BASE else 0


def action_name(action: int) -> str:
    """'stock', 'discard', 'swap', 'keep', 'call', 'silent' or 'wild:N'."""
    if action > WILD_BASE:
        return f"wild:{action - WILD_BASE}"
    try:
        return _NAMES[action]
    except KeyError:
        raise ValueError(f"not an action: {action!r}") from None


def parse_action(name: str) -> int:
    """The action for a name produced by ``action_name``; ValueError otherwise."""
    if name in _BY_NAME:
        return _BY_NAME[name]
    if isinstance(name, str) and name.startswith("wild:") and name[5:].isdigit():
        slot = int(name[5:])
        if 1 <= slot <= 10:
            return wild_action(slot)
    raise ValueError(f"not an action: {name!r} (expected stock, discard, swap, keep, call, "
                     "silent or wild:1..wild:10)")


def describe_action(action: int) -> str:
    """A phrase for people: 'draw from the stock', 'put the wild on slot 3', ..."""
    if action > WILD_BASE:
        return f"put the wild on slot {action - WILD_BASE}"
    return {DRAW_STOCK: "draw from the stock", DRAW_DISCARD: "take the top discard",
            SWAP: "swap the card for the wild", KEEP: "leave the wild in place",
            CALL: "call \"Trash!\"", SILENT: "stay silent"}[action]
