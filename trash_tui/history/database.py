"""The history database's file: where it lives, how a connection to it is opened (WAL
journaling, a busy timeout, short transactions), its errors and its status words.

Every store of the history (``runs.py``, ``matches.py``, ``players.py``) works on the one
connection opened here, so a write that spans two of them (a match's last action and its
rating) is one transaction.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import platformdirs

PLAYING, FINISHED = "playing", "finished"
#: An unfinished match its player gave up (it is no longer offered to continue; its
#: moves are kept). A status value only: databases of every version read it.
ABANDONED = "abandoned"
LOCAL_OWNER = "local"  # the owner of the matches played in the app on this computer
#: The owner of the matches of the SSH server's shared tables: they belong to the table
#: service, and are in the history of every human who sat at them (``match_players``).
SHARED_OWNER = "shared"


class HistoryError(RuntimeError):
    """The history database cannot be opened or read."""


class MatchInPlay(HistoryError):
    """A shared table's match that is still being played cannot leave a history."""


class MatchTaken(HistoryError):
    """The match has been continued somewhere else since this session took it."""


def default_history_path() -> Path:
    """Where the history database lives: $TRASH_TUI_HISTORY or the user data directory."""
    override = os.environ.get("TRASH_TUI_HISTORY")
    if override:
        return Path(override)
    return platformdirs.user_data_path("trash-tui") / "history.sqlite3"


def open_connection(path: Path) -> sqlite3.Connection:
    """A connection to the database at ``path`` (created with its folder if new), in WAL
    mode with a 30 s busy timeout; transactions are the callers' (``BEGIN IMMEDIATE``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=30.0, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db
