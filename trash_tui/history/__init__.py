"""The SQLite history database: the app's matches, the shared tables, tournament runs,
players and their ratings, in one file.

One file in the user's data directory by default (``TRASH_TUI_HISTORY`` overrides it),
shared safely by several processes: WAL journaling, short transactions, a busy timeout
(``database.py``). ``History`` is the connection; each concern is a store of its own on
it:

- ``history.matches`` (``matches.py``): matches of either game, action by action, who
  holds a match, the shared tables and who sat and left at them;
- ``history.tournaments`` (``runs.py``): tournament runs and their games;
- ``history.players`` (``players.py``): players' names and their ratings;
- ``history.records`` (``records.py``): the SSH server's records (sanctions, warnings,
  reports, kept chat, settings, the moderator's log, keys by address).

The rating model is not here: it is passed in from above (``rater``, a ``MatchRater``;
``trash_tui.players.rater.open_history`` opens a history with the app's), and a finished
match is rated in the transaction that finishes it.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from trash_tui.history.database import (
    ABANDONED,
    FINISHED,
    LOCAL_OWNER,
    PLAYING,
    SHARED_OWNER,
    HistoryError,
    MatchInPlay,
    MatchTaken,
    default_history_path,
    open_connection,
)
from trash_tui.history.matches import Matches, MatchRow
from trash_tui.history.players import FinishedMatch, MatchRater, PlayerRating, Players
from trash_tui.history.records import SanctionRow, ServerRecords
from trash_tui.history.runs import RunRow, TournamentRuns

__all__ = [
    "ABANDONED", "FINISHED", "LOCAL_OWNER", "PLAYING", "SHARED_OWNER", "FinishedMatch",
    "History", "HistoryError", "MatchInPlay", "MatchRater", "MatchRow", "MatchTaken",
    "Matches", "PlayerRating", "Players", "RunRow", "SanctionRow", "ServerRecords",
    "TournamentRuns", "default_history_path",
]


class History:
    """A connection to the history database, with its stores. ``rater`` is the rating
    model (required: ``None`` only where no match is ever finished, and then finishing
    one is refused)."""

    def __init__(self, path: str | Path | None = None, *, rater: MatchRater | None) -> None:
        self.path = Path(path) if path is not None else default_history_path()
        #: told how many seconds each write of a move, a table or a match's end took
        #: (the SSH server's metrics)
        self.write_observer: Callable[[float], None] | None = None
        try:
            self.db = open_connection(self.path)
            self.players = Players(self.db, rater, self.path)
            self.matches = Matches(self.db, self.path, self.players, self._timed)
            self.tournaments = TournamentRuns(self.db, self.path)
            self.records = ServerRecords(self.db)
            if rater is not None and self.players.needs_rating():
                self.rebuild_ratings()
        except (OSError, sqlite3.Error) as exc:
            raise HistoryError(f"history database {self.path}: {exc}") from None

    def rebuild_ratings(self) -> int:
        """Recompute every rating from the kept rated results and the finished matches not
        rated yet (``Players.rebuild_ratings``); the number of rated matches."""
        return self.players.rebuild_ratings(self.matches.finished_matches)

    def void_player(self, identity: str) -> int:
        """Take ``identity``'s rated matches so far out of the rating and rebuild it
        (``Players.void_player``); how many matches."""
        return self.players.void_player(identity, self.matches.finished_matches)

    def unvoid_player(self, identity: str) -> int:
        """Put ``identity``'s voided matches back in the rating and rebuild it."""
        return self.players.unvoid_player(identity, self.matches.finished_matches)

    def close(self) -> None:
        self.db.close()

    def _timed(self, started: float) -> None:
        if self.write_observer is not None:
            self.write_observer(time.perf_counter() - started)

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
