"""The games trash-tui plays, by the names its files and its database use.

``"trash"`` is the card game; ``"help-your-neighbor"`` the dice game of RULES.md (003).
Tournament files say ``game = ...``, the history database keeps each match's game, and
Help Your Neighbor records carry the same name as their ``kind``.
"""

from __future__ import annotations

TRASH, NEIGHBOR = "trash", "help-your-neighbor"
GAMES = (TRASH, NEIGHBOR)
TITLES = {TRASH: "Trash", NEIGHBOR: "Help Your Neighbor"}
SHORT_TITLES = {TRASH: "Trash", NEIGHBOR: "Neighbor"}  # for table columns
