"""Ratings that went missing are rebuilt before they are shown.

The history keeps every rated result (``rated_matches``) apart from the ratings computed
from them (``ratings``, ``rating_changes``). Should the computed tables be emptied or
dropped (a database edited by hand, or copied without them; the history creates them
again, empty, when it opens), the leaderboard would be silently empty while the results
are there: ``ensure_ratings`` notices (rated results, no rating at all) and rebuilds
them with the history's own ``rebuild_ratings``, which gives exactly the ratings kept
match by match.
"""

from __future__ import annotations

import sqlite3

from trash_tui.history import History


def ensure_ratings(history: History) -> bool:
    """Rebuild the ratings when results are kept but no rating is (True if it did)."""
    try:
        results = history.db.execute("SELECT EXISTS (SELECT 1 FROM rated_matches)").fetchone()
        ratings = history.db.execute("SELECT EXISTS (SELECT 1 FROM ratings)").fetchone()
    except sqlite3.Error:  # (the history says what is wrong when it is read)
        return False
    if not results[0] or ratings[0]:
        return False
    history.rebuild_ratings()
    return True
