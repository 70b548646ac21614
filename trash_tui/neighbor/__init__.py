"""Help Your Neighbor (RULES.md 003), the dice game with Trash's goal: engine and records.

No UI imports and no global random state, like ``trash_tui.engine``.
"""

from trash_tui.neighbor.engine import (
    MARKERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROLL,
    ROWS,
    DiceExhausted,
    DiceSource,
    FixedDice,
    IllegalAction,
    NeighborGame,
    NeighborObservation,
    SeededDice,
    action_name,
    parse_action,
    uncover_action,
    uncover_marker,
)

__all__ = [
    "MARKERS", "MAX_PLAYERS", "MIN_PLAYERS", "ROLL", "ROWS", "DiceExhausted", "DiceSource",
    "FixedDice", "IllegalAction", "NeighborGame", "NeighborObservation", "SeededDice",
    "action_name", "parse_action", "uncover_action", "uncover_marker",
]
