"""The lobby's proposal of an opponent: the bot level whose rating is nearest yours."""

from __future__ import annotations

from collections.abc import Collection

from trash_tui.history import History
from trash_tui.players.anchors import load_anchors, tied_levels
from trash_tui.players.model import as_strong, nearest_level
from trash_tui.players.rating import shown_rating


def suggestion_text(history: History, identity: str, game: str,
                    offered: Collection[str]) -> str:
    """"Your rating 1540?: nearest bot normal (1532)", or "" before the player's first
    rated match in ``game``. Levels that share one anchor are named together, as one
    strength ("nearest bots greedy = hard = expert (1684)"): none is proposed as harder
    than the others."""
    rated = history.players.rating(identity, game)
    if rated is None:
        return ""
    anchors = load_anchors().get(game, {})
    prefer = tied_levels(game)
    level = nearest_level(rated.rating, anchors, offered, prefer)
    if level is None:
        return ""
    same = sorted(as_strong(level, anchors, offered),
                  key=lambda other: (prefer.index(other) if other in prefer else len(prefer),
                                     other))
    names = " = ".join([level, *same])
    return (f"Your rating {shown_rating(rated.rating, rated.matches)}: nearest "
            f"bot{'s' if same else ''} {names} ({anchors[level].shown})")  # one line
