"""The lobby's proposal of an opponent: the bot level whose rating is nearest yours."""

from __future__ import annotations

from collections.abc import Collection

from trash_tui.history import History
from trash_tui.players.anchors import load_anchors
from trash_tui.players.model import nearest_level, shown_rating


def suggestion_text(history: History, identity: str, game: str,
                    offered: Collection[str]) -> str:
    """"Your rating 1540?: nearest bot normal (1532)", or "" before the player's first
    rated match in ``game``."""
    rated = history.rating(identity, game)
    if rated is None:
        return ""
    anchors = load_anchors().get(game, {})
    level = nearest_level(rated.rating, anchors, offered)
    if level is None:
        return ""
    return (f"Your rating {shown_rating(rated.rating, rated.matches)}: nearest bot "
            f"{level} ({anchors[level].shown})")  # one line of the lobby's form
