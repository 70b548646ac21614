"""Players and their ratings in the history database.

``players`` holds the SSH identities (key fingerprints) with their display names.
``rated_matches`` keeps what each rated match's result was for the rating (its seats:
players and bot levels, with ranks), in the order the matches finished (``finished``
grows with every rated match): it is the rating's own record, so a match deleted from a
history still counts, and ``rebuild_ratings`` gives exactly the ratings kept match by
match. ``ratings`` holds each player's current rating per game, ``rating_changes`` the
rating after each match (the chart over time). ``voided_matches`` takes rated matches out
of the rating (the operator voided a cheater's results: ``void_player``): a rebuild skips
them, so the ratings are exactly those of a history where they were never played, and
``unvoid_player`` puts them back (rebuilt again). A kept result that is not what the app
wrote (a file edited by hand, or damaged: seats that are not a list of seats, a rank that
is not a whole number, ...) makes ``rebuild_ratings`` a one-line HistoryError naming the
match, and leaves the ratings as they were.

The store keeps ratings; it does not compute them. The rating model is handed in from
above as a ``MatchRater`` (``trash_tui/players/rater.py``): it says how a finished match
is rated (its seats, or not rated) and what the players' ratings become. A history
opened without one (``rater=None``) can read everything but refuses to finish a match,
so a forgotten model fails loudly instead of leaving a match unrated.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from trash_tui.history.database import GUEST_PREFIX, LOCAL_OWNER, SHARED_OWNER, HistoryError
from trash_tui.players.rating import Rating

GUEST_DAYS = 1.0  # a guest's name is kept this long after their last visit

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    identity TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    first_seen REAL NOT NULL,
    last_seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rated_matches (
    match_id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    finished REAL NOT NULL,
    seats TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rated_matches_in_order ON rated_matches (finished, match_id);
CREATE TABLE IF NOT EXISTS ratings (
    identity TEXT NOT NULL,
    game TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    matches INTEGER NOT NULL,
    updated REAL NOT NULL,
    PRIMARY KEY (identity, game)
);
CREATE TABLE IF NOT EXISTS rating_changes (
    match_id INTEGER NOT NULL,
    identity TEXT NOT NULL,
    game TEXT NOT NULL,
    finished REAL NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (match_id, identity)
);
CREATE INDEX IF NOT EXISTS rating_changes_by_player ON rating_changes (identity, game, finished);
CREATE TABLE IF NOT EXISTS voided_matches (
    match_id INTEGER NOT NULL,
    identity TEXT NOT NULL,
    voided REAL NOT NULL,
    PRIMARY KEY (match_id, identity)
);
"""
#: ``PRAGMA user_version`` once every finished match of the file has been offered to the
#: rating (a database from before ratings has 0: it is rated when first opened with a
#: rater).
RATED_VERSION = 1


@dataclass(frozen=True)
class FinishedMatch:
    """What the rating may read of a finished match: its game, owner and seats (the
    specs: ``"human"`` or a bot), its result, who sat where at a shared table and who left
    it before the end."""

    id: int
    game: str
    owner: str
    seats: Sequence[Any]
    result: Mapping[str, Any] | None
    identities: Mapping[int, str]
    leavers: Collection[str]
    shared: bool
    finished: float  # when it finished


class MatchRater(Protocol):
    """The rating model, as the history uses it."""

    def rated_seats(self, match: FinishedMatch) -> list[dict[str, Any]] | None:
        """The match's seats as the rating sees them (JSON values: they are kept), or None
        when it is not rated."""

    def rate(self, game: str, seats: Sequence[Mapping[str, Any]],
             before: Mapping[str, Rating]) -> dict[str, Rating] | None:
        """The players' ratings after a match with these rated ``seats`` (``before``:
        their ratings before it, a new player missing), or None when it cannot be rated."""


def _kept_seats(text: Any) -> list[Mapping[str, Any]]:
    """A kept rated result's seats (JSON: a list of objects, a player's identity a text);
    ValueError saying what is wrong otherwise (the rater checks the rest)."""
    if not isinstance(text, str):
        raise ValueError("its seats are not a text")
    try:
        seats = json.loads(text)
    except RecursionError:
        raise ValueError("its seats are nested too deep") from None
    except ValueError:
        raise ValueError("its seats are not JSON") from None
    if not isinstance(seats, list):
        raise ValueError("its seats are not a list")
    for number, seat in enumerate(seats, 1):
        if not isinstance(seat, dict):
            raise ValueError(f"seat {number}: not an object")
        if not isinstance(seat.get("player", ""), str | None):
            raise ValueError(f"seat {number}: its player is not a name")
    return seats


#: All finished matches of the history, except those whose ids are given, in id order.
FinishedMatches = Callable[[Collection[int]], Iterable[FinishedMatch]]


@dataclass(frozen=True)
class PlayerRating:
    """A player's current rating in one game, with their rated matches and the last."""

    identity: str
    game: str
    rating: Rating
    matches: int
    updated: float


class Players:
    """The players and ratings of one history database (``History.players``)."""

    def __init__(self, db: sqlite3.Connection, rater: MatchRater | None,
                 path: Path | None = None) -> None:
        self.db = db
        self.path = path  # (named in errors)
        self.rater = rater
        #: a file from before ratings (or whose rated results were dropped)
        self._unrated = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                   "name = 'rated_matches'").fetchone() is None
        db.executescript(SCHEMA)

    # --- players (SSH identities) --------------------------------------------------------
    def player_name(self, identity: str) -> str | None:
        """The display name registered for ``identity`` (a key fingerprint), or None."""
        row = self.db.execute("SELECT name FROM players WHERE identity = ?",
                              (identity,)).fetchone()
        return None if row is None else str(row[0])

    def name_taken(self, name: str, besides: str) -> bool:
        """Whether a player other than ``besides`` is registered with ``name`` (in any
        case)."""
        return self.db.execute("SELECT 1 FROM players WHERE name = ? COLLATE NOCASE AND "
                               "identity != ? LIMIT 1", (name, besides)).fetchone() is not None

    def registered(self) -> list[tuple[str, str, float, float]]:
        """Every registered player: (identity, name, first seen, last seen), the latest
        seen first."""
        rows = self.db.execute("SELECT identity, name, first_seen, last_seen FROM players "
                               "ORDER BY last_seen DESC, identity").fetchall()
        return [(str(r[0]), str(r[1]), float(r[2]), float(r[3])) for r in rows]

    def identities(self) -> list[str]:
        """Every SSH player's identity the history knows, sorted: registered, rated, at a
        shared table's match or owning matches (a player who never chose a name is known
        by their key only)."""
        rows = self.db.execute(
            "SELECT identity FROM players UNION SELECT identity FROM ratings UNION "
            "SELECT identity FROM match_players UNION SELECT owner FROM matches").fetchall()
        return sorted({str(r[0]) for r in rows} - {LOCAL_OWNER, SHARED_OWNER})

    def register_player(self, identity: str, name: str) -> None:
        """Register ``identity`` with a display name, or update its name and last visit.
        A guest (a new identity at every connection) is registered only for the tables
        to know the name: guests not seen for ``GUEST_DAYS`` are forgotten here, so a
        stream of keyless connections does not grow the table for ever."""
        now = time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT INTO players (identity, name, first_seen, last_seen) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(identity) DO UPDATE SET name = excluded.name, "
                "last_seen = excluded.last_seen", (identity, name, now, now))
            # (a range of the primary key, not LIKE: the index finds the guests)
            self.db.execute("DELETE FROM players WHERE identity >= ? AND identity < ? AND "
                            "last_seen < ?", (GUEST_PREFIX, GUEST_PREFIX[:-1] + ";",
                                              now - GUEST_DAYS * 86400))

    # --- rating matches ------------------------------------------------------------------
    def _rater(self) -> MatchRater:
        if self.rater is None:
            raise HistoryError("this history was opened without the rating model: it cannot "
                               "rate a match (open it with trash_tui.players.rater)")
        return self.rater

    def rate_finished_match(self, match: FinishedMatch) -> None:
        """Rate a match that has just finished (inside the caller's transaction, the one
        that finishes it): keep its rated result, after every earlier one, and update its
        players' ratings."""
        seats = self._rater().rated_seats(match)
        if seats is None:
            return
        last = self.db.execute("SELECT MAX(finished) FROM rated_matches").fetchone()[0]
        finished = time.time() if last is None else max(time.time(), float(last) + 1e-6)
        inserted = self.db.execute(
            "INSERT OR IGNORE INTO rated_matches (match_id, game, finished, seats) "
            "VALUES (?, ?, ?, ?)", (match.id, match.game, finished, json.dumps(seats)))
        if inserted.rowcount:
            self._apply_rating(match.id, match.game, finished, seats)

    def _apply_rating(self, match_id: int, game: str, finished: float,
                      seats: Sequence[Mapping[str, Any]]) -> None:
        """Move the ratings of the players of one rated match (inside a transaction)."""
        players = [str(seat["player"]) for seat in seats if seat.get("player") is not None]
        before: dict[str, Rating] = {}
        counts: dict[str, int] = {}
        for identity in players:
            row = self.db.execute("SELECT mu, sigma, matches FROM ratings WHERE identity = ? "
                                  "AND game = ?", (identity, game)).fetchone()
            if row is not None:
                before[identity] = Rating(float(row[0]), float(row[1]))
                counts[identity] = int(row[2])
        after = self._rater().rate(game, seats, before)
        if after is None:
            return
        for identity, rating in after.items():
            self.db.execute(
                "INSERT INTO ratings (identity, game, mu, sigma, matches, updated) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(identity, game) DO UPDATE SET "
                "mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches, "
                "updated = excluded.updated",
                (identity, game, rating.mu, rating.sigma, counts.get(identity, 0) + 1,
                 finished))
            self.db.execute(
                "INSERT OR REPLACE INTO rating_changes (match_id, identity, game, finished, "
                "mu, sigma) VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, identity, game, finished, rating.mu, rating.sigma))

    def rebuild_ratings(self, finished_matches: FinishedMatches) -> int:
        """Recompute every rating from scratch, in the order the matches finished (ties by
        id), from the kept rated results (and those of ``finished_matches`` not rated yet,
        as in a database from before ratings), but the voided ones; the number of rated
        matches counted."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            return self._rebuild(finished_matches)

    def rated_matches_of(self, identity: str) -> list[int]:
        """The rated matches ``identity`` sat at, in the order they finished."""
        return [int(r[0]) for r in self.db.execute(
            "SELECT r.match_id FROM (SELECT match_id, finished, seats FROM rated_matches "
            "WHERE json_valid(seats)) AS r, json_each(r.seats) AS s WHERE "
            "json_extract(s.value, '$.player') = ? GROUP BY r.match_id "
            "ORDER BY r.finished, r.match_id", (identity,))]

    def voided_matches_of(self, identity: str) -> list[int]:
        """The rated matches voided because of ``identity``."""
        return [int(r[0]) for r in self.db.execute(
            "SELECT match_id FROM voided_matches WHERE identity = ? ORDER BY match_id",
            (identity,))]

    def void_player(self, identity: str, finished_matches: FinishedMatches) -> int:
        """Take every rated match ``identity`` sat at so far out of the rating (the other
        players' too) and rebuild the ratings, in one transaction; how many matches were
        voided now."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            now = time.time()
            done = self.db.executemany(
                "INSERT OR IGNORE INTO voided_matches (match_id, identity, voided) VALUES "
                "(?, ?, ?)", [(number, identity, now)
                              for number in self.rated_matches_of(identity)]).rowcount
            if done:
                self._rebuild(finished_matches)
        return max(0, done)

    def unvoid_player(self, identity: str, finished_matches: FinishedMatches) -> int:
        """Put the matches voided because of ``identity`` back in the rating (a match
        another voided player sat at stays out) and rebuild; how many."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            done = self.db.execute("DELETE FROM voided_matches WHERE identity = ?",
                                   (identity,)).rowcount
            if done:
                self._rebuild(finished_matches)
        return max(0, done)

    def _rebuild(self, finished_matches: FinishedMatches) -> int:
        """``rebuild_ratings`` inside the caller's transaction."""
        rater = self._rater()
        kept = {int(r[0]) for r in self.db.execute("SELECT match_id FROM rated_matches")}
        for match in finished_matches(kept):
            seats = rater.rated_seats(match)
            if seats is not None:
                self.db.execute(
                    "INSERT INTO rated_matches (match_id, game, finished, seats) "
                    "VALUES (?, ?, ?, ?)", (match.id, match.game, match.finished,
                                            json.dumps(seats)))
        self.db.execute("DELETE FROM ratings")
        self.db.execute("DELETE FROM rating_changes")
        rows = self.db.execute("SELECT match_id, game, finished, seats FROM rated_matches "
                               "WHERE match_id NOT IN (SELECT match_id FROM "
                               "voided_matches) ORDER BY finished, match_id").fetchall()
        for match_id, game, finished, seats in rows:
            try:
                self._apply_rating(int(match_id), str(game), float(finished),
                                   _kept_seats(seats))
            except (ValueError, TypeError, LookupError, ArithmeticError,
                    RecursionError) as exc:
                reason = exc if isinstance(exc, ValueError) else type(exc).__name__
                raise HistoryError(
                    f"history database {self.path}: rated match {match_id} is damaged "
                    f"({str(reason)[:120]}): restore a copy of the file, or delete that "
                    "match from its table rated_matches") from None
        self.db.execute(f"PRAGMA user_version = {RATED_VERSION}")
        self._unrated = False
        return len(rows)

    def needs_rating(self) -> bool:
        """Whether the finished matches of this file have never been offered to the rating
        (a database from before ratings, or one only ever opened without a rater)."""
        return (self._unrated or
                int(self.db.execute("PRAGMA user_version").fetchone()[0]) < RATED_VERSION)

    # --- reading ratings -----------------------------------------------------------------
    def ratings(self, game: str) -> list[PlayerRating]:
        """Every rated player of ``game``, the highest rated first."""
        rows = self.db.execute("SELECT identity, mu, sigma, matches, updated FROM ratings "
                               "WHERE game = ? ORDER BY mu DESC, identity", (game,)).fetchall()
        return [PlayerRating(str(r[0]), game, Rating(float(r[1]), float(r[2])), int(r[3]),
                             float(r[4])) for r in rows]

    def rating(self, identity: str, game: str) -> PlayerRating | None:
        """One player's rating in ``game``, or None before their first rated match."""
        row = self.db.execute("SELECT mu, sigma, matches, updated FROM ratings WHERE "
                              "identity = ? AND game = ?", (identity, game)).fetchone()
        if row is None:
            return None
        return PlayerRating(identity, game, Rating(float(row[0]), float(row[1])), int(row[2]),
                            float(row[3]))

    def rating_changes(self, identity: str, game: str) -> list[tuple[int, float, Rating]]:
        """A player's rating after each of their rated matches of ``game``, in order:
        (match id, when it finished, rating)."""
        rows = self.db.execute("SELECT match_id, finished, mu, sigma FROM rating_changes "
                               "WHERE identity = ? AND game = ? ORDER BY finished, match_id",
                               (identity, game)).fetchall()
        return [(int(r[0]), float(r[1]), Rating(float(r[2]), float(r[3]))) for r in rows]

    def match_rating_changes(self, match_id: int) -> dict[str, tuple[Rating, Rating]]:
        """How a rated match moved each of its players' ratings: identity -> (the rating
        before it, after it); a first rated match starts from the default rating. Empty
        when the match was not rated."""
        changes: dict[str, tuple[Rating, Rating]] = {}
        for identity, game, finished, mu, sigma in self.db.execute(
                "SELECT identity, game, finished, mu, sigma FROM rating_changes WHERE "
                "match_id = ?", (match_id,)).fetchall():
            before = self.db.execute(
                "SELECT mu, sigma FROM rating_changes WHERE identity = ? AND game = ? AND "
                "(finished < ? OR (finished = ? AND match_id < ?)) ORDER BY finished DESC, "
                "match_id DESC LIMIT 1", (identity, game, finished, finished, match_id)
            ).fetchone()
            changes[str(identity)] = (Rating() if before is None else
                                      Rating(float(before[0]), float(before[1])),
                                      Rating(float(mu), float(sigma)))
        return changes
