"""The history database's file: where it lives, how a connection to it is opened (WAL
journaling, a busy timeout, short transactions), its errors and its status words.

Every store of the history (``runs.py``, ``matches.py``, ``players.py``) works on the one
connection opened here, so a write that spans two of them (a match's last action and its
rating) is one transaction. Its files are for their owner only (``owner_only``).
"""

from __future__ import annotations

import contextlib
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
#: how a guest's identity starts (``players.identity``: a new one at every connection);
#: the players table forgets guests not seen for a while (``history.players``)
GUEST_PREFIX = "guest:"


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
    owner_only(path)
    db = sqlite3.connect(path, timeout=30.0, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db


def owner_only(path: Path) -> None:
    """Make the database at ``path`` (and its ``-wal`` and ``-shm`` files) readable by its
    owner only: created 0600 if new (SQLite gives the other two the database's mode), an
    existing one's group and other bits taken away. It holds chat, reports, bans and keys.
    A file of another user is left as it is (opening it says what is wrong)."""
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    for name in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        with contextlib.suppress(OSError):
            mode = name.stat().st_mode & 0o777
            if mode & 0o077:
                name.chmod(mode & 0o700)
