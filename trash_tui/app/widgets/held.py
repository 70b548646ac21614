"""Whether this window still holds the match it shows, or another window took it.

A saved match is held by the session that started or last continued it (the history's
``holder`` token): opening it in a second terminal makes that one its holder, and the
first window's moves would no longer be saved. The boards ask ``taken_elsewhere`` now and
then (and before a move): once the match is taken, the old window is read-only and says
so in one line (``TAKEN_LINE``), rather than play on unsaved.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

#: Every few seconds a board looks whether its match was taken by another window.
CHECK_EVERY = 2.0


def taken_elsewhere(listeners: Sequence[object]) -> int | None:
    """The id of the match these listeners save, if another session has taken it since
    (None while this one holds it, or when it is not saved with a holder)."""
    for listener in listeners:
        history = getattr(listener, "history", None)
        match_id = getattr(listener, "match_id", None)
        holder = getattr(listener, "holder", None)
        if history is None or match_id is None or holder is None:
            continue
        try:
            row = history.db.execute("SELECT holder FROM matches WHERE id = ?",
                                     (match_id,)).fetchone()
        except sqlite3.Error:  # (a broken database is the saver's to say)
            return None
        return int(match_id) if row is None or row[0] != holder else None
    return None


def taken_line(match_id: int, what: str = "match") -> str:
    """The one line a read-only board shows."""
    return (f"This {what} ({match_id}) is now being played in another window: this one only "
            "shows it. esc: lobby.")
