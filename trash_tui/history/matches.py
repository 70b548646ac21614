"""The matches in the history database: the app's matches of either game and the SSH
server's shared tables.

A match is stored when it starts (its game, rules, seats, seed) and then one row per
action, each in its own transaction, so a crash loses at most the move in progress: the
seed and the actions rebuild the match exactly. Writes are idempotent (an action is keyed
by its match and number), so a resumed match never plays an action twice. When it ends,
its record (``engine/record.py``, or ``neighbor/record.py`` for Help Your Neighbor) is
kept for the replay viewer, and it is rated in the same transaction (``players.py``: the
rating of a finished match is atomic with its end). Matches belong to an ``owner``
(``"local"`` in the app; the SSH server uses the player's key). A database written before
matches had a ``game`` gets the column on opening, every old match being a game of Trash.

A match is played in one place at a time: whoever starts or continues it holds it (a
random ``holder`` token), and an action from anybody else is refused (``MatchTaken``). So
when a player comes back over SSH while their dropped session is still winding down, or
opens the same match in two terminals, the latest one plays on and the other stops saving
instead of mixing two games in one.

A shared table's match records who sat where (``match_players``: it is in each of their
histories) and who is away from it (``match_leavers``: they left it, their connection
dropped, or their turn clock ran out; coming back takes them out); those still away when
it ends left it, and its standing puts them last (``trash_tui/standing.py``: a row's
``left`` seats, its ``winner_names``).

Deleting a finished match from a history hides it there (``hidden_matches``): its replay
is gone from that player's list, its result still counts in their statistics as it does
in their rating. Only an unfinished match of the app is deleted for good (it has no
result).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trash_tui.games import TRASH
from trash_tui.history.database import (
    ABANDONED,
    FINISHED,
    PLAYING,
    SHARED_OWNER,
    HistoryError,
    MatchInPlay,
    MatchTaken,
)
from trash_tui.history.players import FinishedMatch, Players
from trash_tui.standing import winners

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    owner TEXT NOT NULL,
    game TEXT NOT NULL DEFAULT 'trash',
    holder TEXT,
    started REAL NOT NULL,
    updated REAL NOT NULL,
    status TEXT NOT NULL,
    rules TEXT NOT NULL,
    seats TEXT NOT NULL,
    names TEXT NOT NULL,
    seed INTEGER NOT NULL,
    actions INTEGER NOT NULL DEFAULT 0,
    deals INTEGER NOT NULL DEFAULT 0,
    winner TEXT,
    result TEXT,
    record TEXT
);
CREATE INDEX IF NOT EXISTS matches_by_owner ON matches (owner, status, updated);
CREATE TABLE IF NOT EXISTS match_actions (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    number INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (match_id, number)
);
CREATE TABLE IF NOT EXISTS shared_tables (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL,
    host TEXT NOT NULL,
    status TEXT NOT NULL,
    config TEXT NOT NULL,
    seats TEXT NOT NULL,
    match_id INTEGER,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS shared_tables_by_status ON shared_tables (status);
CREATE INDEX IF NOT EXISTS shared_tables_by_status_updated ON shared_tables (status, updated);
CREATE TABLE IF NOT EXISTS match_players (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    identity TEXT NOT NULL,
    seat INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS match_players_by_identity ON match_players (identity);
CREATE TABLE IF NOT EXISTS match_leavers (
    match_id INTEGER NOT NULL,
    identity TEXT NOT NULL,
    PRIMARY KEY (match_id, identity)
);
CREATE TABLE IF NOT EXISTS hidden_matches (
    match_id INTEGER NOT NULL,
    identity TEXT NOT NULL,
    PRIMARY KEY (identity, match_id)
);
"""


@dataclass(frozen=True)
class MatchRow:
    """One of the app's matches as the history database keeps it (``record`` only for
    finished matches, and only when asked for)."""

    id: int
    owner: str
    started: float
    updated: float
    status: str
    rules: dict[str, Any]
    seats: list[Any]
    names: list[str]
    seed: int
    actions: int
    deals: int
    winner: str | None
    result: dict[str, Any] | None
    record: dict[str, Any] | None = None
    game: str = TRASH  # trash_tui.games: "trash" or "help-your-neighbor"
    left: frozenset[int] = frozenset()  # a shared table's seats whose players left it

    @property
    def shared(self) -> bool:
        """Whether it is (or was) played at one of the SSH server's shared tables: its
        table service holds it, not a player's app."""
        return self.owner == SHARED_OWNER

    @property
    def winner_names(self) -> list[str]:
        """Who won a finished match: its winner's name, or at a shared table where
        players left, the first once they are last (``trash_tui/standing.py``: none when
        everybody left, several on a tie)."""
        if self.status != FINISHED or (self.result and self.result.get("abandoned")):
            return []
        places = self.result.get("places") if self.result else None
        if (self.left and isinstance(places, list) and len(places) == len(self.names)
                and all(isinstance(p, int) and not isinstance(p, bool) for p in places)):
            return [str(self.names[seat]) for seat in winners(places, self.left)]
        return [self.winner] if self.winner else []

    @property
    def outcome(self) -> str:
        """"unfinished", "abandoned" (given up by its player, or too many void deals),
        "won" (by ``winner_names``), "everyone left" (a shared table where every player
        left before the end) or "no winner"."""
        if self.status == ABANDONED:
            return "abandoned"
        if self.status != FINISHED:
            return "unfinished"
        if self.result and self.result.get("abandoned"):
            return "abandoned"
        if self.winner_names:
            return "won"
        return "everyone left" if self.left else "no winner"

    @property
    def seconds(self) -> float:
        """How long the match has lasted, from its start to its last action."""
        return max(0.0, self.updated - self.started)


_MATCH_COLUMNS = ("id, owner, started, updated, status, rules, seats, names, seed, actions, "
                  "deals, winner, result, game, (SELECT group_concat(p.seat) FROM "
                  "match_leavers l JOIN match_players p ON p.match_id = l.match_id AND "
                  "p.identity = l.identity WHERE l.match_id = matches.id)")


def _match_row(row: Sequence[Any], record: str | None = None) -> MatchRow:
    left = frozenset(int(seat) for seat in str(row[14]).split(",")) if row[14] else frozenset()
    return MatchRow(int(row[0]), row[1], row[2], row[3], row[4], json.loads(row[5]),
                    json.loads(row[6]), json.loads(row[7]), int(row[8]), int(row[9]),
                    int(row[10]), row[11], json.loads(row[12]) if row[12] else None,
                    json.loads(record) if record else None, row[13], left)


def _table_row(r: Sequence[Any]) -> dict[str, Any]:
    return {"id": int(r[0]), "code": str(r[1]), "host": str(r[2]), "status": str(r[3]),
            "config": json.loads(r[4]), "seats": json.loads(r[5]),
            "match_id": None if r[6] is None else int(r[6])}


#: Columns added to ``matches`` after its first version, with how they are declared.
_ADDED_COLUMNS = {"game": f"TEXT NOT NULL DEFAULT '{TRASH}'", "holder": "TEXT"}


def _add_new_columns(db: sqlite3.Connection) -> None:
    """Give a database from an earlier version the columns ``matches`` has gained (every
    match in it was Trash, held by nobody). Another process may be doing the same."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(matches)")}
    for name, declaration in _ADDED_COLUMNS.items():
        if name in columns:
            continue
        try:
            db.execute(f"ALTER TABLE matches ADD COLUMN {name} {declaration}")
        except sqlite3.OperationalError as exc:
            if "duplicate column" not in str(exc):
                raise


class Matches:
    """The matches and shared tables of one history database (``History.matches``);
    a finished match is rated by ``players`` in the transaction that finishes it."""

    def __init__(self, db: sqlite3.Connection, path: Path, players: Players,
                 timed: Callable[[float], None]) -> None:
        self.db = db
        self.path = path
        self.players = players
        self._timed = timed
        db.executescript(SCHEMA)
        _add_new_columns(db)

    # --- the app's matches -------------------------------------------------------------
    def start_match(self, owner: str, rules: dict[str, Any], seats: Sequence[Any],
                    names: Sequence[str], seed: int, game: str = TRASH,
                    holder: str | None = None) -> int:
        """Store a new match of ``game`` (before its first action), held by ``holder``
        when given; returns its id."""
        now = time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            cursor = self.db.execute(
                "INSERT INTO matches (owner, game, holder, started, updated, status, rules, "
                "seats, names, seed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (owner, game, holder, now, now, PLAYING, json.dumps(rules),
                 json.dumps(list(seats)), json.dumps(list(names)), seed))
        return int(cursor.lastrowid or 0)

    def take_match(self, match_id: int) -> str:
        """Hold the match from now on (whoever held it before can no longer add to it);
        returns the new holder token."""
        holder = secrets.token_hex(8)
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("UPDATE matches SET holder = ? WHERE id = ?", (holder, match_id))
        return holder

    def _check_holder(self, match_id: int, holder: str | None) -> None:
        """MatchTaken unless ``holder`` (when given) still holds the match (inside the
        caller's transaction)."""
        if holder is None:
            return
        row = self.db.execute("SELECT holder FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None or row[0] != holder:
            raise MatchTaken(f"match {match_id} has been continued in another session: "
                             "it is saved there, not here")

    def add_action(self, match_id: int, number: int, action: int, deals: int,
                   holder: str | None = None) -> None:
        """Store the ``number``-th action (0-based) of a match, in one transaction;
        MatchTaken (nothing stored) if ``holder`` no longer holds it."""
        started = time.perf_counter()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._check_holder(match_id, holder)
            self.db.execute("INSERT OR IGNORE INTO match_actions (match_id, number, action) "
                            "VALUES (?, ?, ?)", (match_id, number, action))
            self.db.execute("UPDATE matches SET updated = ?, actions = MAX(actions, ?), "
                            "deals = ? WHERE id = ?", (time.time(), number + 1, deals,
                                                       match_id))
        self._timed(started)

    def finish_match(self, match_id: int, winner: str | None, deals: int,
                     result: dict[str, Any], record: dict[str, Any],
                     holder: str | None = None) -> None:
        """Mark a match finished, keep its result and record and rate it, in one
        transaction; MatchTaken if ``holder`` no longer holds it. A history opened
        without the rating model refuses (HistoryError) and changes nothing."""
        started = time.perf_counter()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._check_holder(match_id, holder)
            self.db.execute(
                "UPDATE matches SET status = ?, winner = ?, deals = ?, result = ?, record = ?, "
                "updated = ? WHERE id = ?",
                (FINISHED, winner, deals, json.dumps(result), json.dumps(record), time.time(),
                 match_id))
            match = self.finished_match(match_id)
            if match is not None:
                self.players.rate_finished_match(match)
        self._timed(started)

    def match_actions(self, match_id: int) -> list[int]:
        """The stored actions of a match, in order (stops at the first missing number)."""
        rows = self.db.execute("SELECT number, action FROM match_actions WHERE match_id = ? "
                               "ORDER BY number", (match_id,)).fetchall()
        actions = []
        for expected, (number, action) in enumerate(rows):
            if number != expected:
                break
            actions.append(int(action))
        return actions

    def of_player(self, owner: str, status: str | None = None, limit: int = 500,
                shared: bool = True, hidden: bool = False) -> list[MatchRow]:
        """An owner's matches (all, or those with ``status``), the latest played first;
        with ``shared``, also the shared tables' matches the owner sat at; with
        ``hidden``, also those the owner deleted from their history (their results still
        count: the statistics read them)."""
        where = "(owner = ?" + (" OR id IN (SELECT match_id FROM match_players WHERE "
                                "identity = ?))" if shared else ")")
        params: tuple[Any, ...] = (owner, owner) if shared else (owner,)
        if not hidden:
            where += " AND id NOT IN (SELECT match_id FROM hidden_matches WHERE identity = ?)"
            params = (*params, owner)
        if status:
            where += " AND status = ?"
            params = (*params, status)
        rows = self.db.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE {where} "
                               "ORDER BY updated DESC, id DESC LIMIT ?",
                               (*params, limit)).fetchall()
        return [_match_row(row) for row in rows]

    def get_match(self, match_id: int) -> MatchRow:
        """One match with its record (HistoryError if there is no such match)."""
        row = self.db.execute(f"SELECT {_MATCH_COLUMNS}, record FROM matches WHERE id = ?",
                              (match_id,)).fetchone()
        if row is None:
            raise HistoryError(f"no match {match_id} in {self.path}")
        return _match_row(row[:-1], row[-1])

    def abandon_match(self, match_id: int) -> None:
        """Mark an unfinished match abandoned: its player gave it up (nobody holds it any
        more; its moves stay, for its replay). A finished match is left as it is."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("UPDATE matches SET status = ?, holder = NULL WHERE id = ? AND "
                            "status = ?", (ABANDONED, match_id, PLAYING))

    def delete_match(self, match_id: int) -> None:
        """Forget a match and its actions (an unfinished match of the app: one with a
        result is hidden instead, ``hide_match``)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM match_actions WHERE match_id = ?", (match_id,))
            self.db.execute("DELETE FROM matches WHERE id = ?", (match_id,))

    def remove_from_history(self, match_id: int, identity: str) -> bool:
        """Take a match out of ``identity``'s history. An unfinished match of their own
        (the app's) is deleted for good; any other is hidden from their list, its result
        still counting in their statistics and rating (and the other players keep it).
        Returns whether it was deleted for good. MatchInPlay (one line) while a shared
        table's match is being played: who sat where is what the rating reads when it
        ends, so it stays until then."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            row = self.db.execute("SELECT status, owner FROM matches WHERE id = ?",
                                  (match_id,)).fetchone()
            if row is None:
                return False
            status, owner = row
            if status == PLAYING and owner == SHARED_OWNER:
                raise MatchInPlay(f"match {match_id} is still being played at its table: it "
                                  "can be deleted once it is over")
            if status == PLAYING and owner == identity:
                self.db.execute("DELETE FROM match_actions WHERE match_id = ?", (match_id,))
                self.db.execute("DELETE FROM matches WHERE id = ?", (match_id,))
                return True
            self.db.execute("INSERT OR IGNORE INTO hidden_matches (match_id, identity) "
                            "VALUES (?, ?)", (match_id, identity))
            return False

    # --- the SSH server's shared tables -------------------------------------------------
    def save_table(self, table_id: int | None, code: str, host: str, status: str,
                   config: dict[str, Any], seats: Sequence[Any], match_id: int | None
                   ) -> int:
        """Store a shared table (a new one when ``table_id`` is None); its id."""
        now = time.time()
        started = time.perf_counter()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if table_id is None:
                cursor = self.db.execute(
                    "INSERT INTO shared_tables (code, host, status, config, seats, match_id, "
                    "created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (code, host, status, json.dumps(config), json.dumps(list(seats)),
                     match_id, now, now))
                table_id = int(cursor.lastrowid or 0)
            else:
                self.db.execute(
                    "UPDATE shared_tables SET code = ?, host = ?, status = ?, config = ?, "
                    "seats = ?, match_id = ?, updated = ? WHERE id = ?",
                    (code, host, status, json.dumps(config), json.dumps(list(seats)),
                     match_id, now, table_id))
        self._timed(started)
        return table_id

    def shared_tables(self, statuses: Sequence[str], host: str | None = None
                      ) -> list[dict[str, Any]]:
        """The stored shared tables with one of ``statuses`` (of ``host`` only, if given),
        oldest first: dicts with id, code, host, status, config, seats, match_id."""
        marks = ", ".join("?" for _ in statuses)
        query = (f"SELECT id, code, host, status, config, seats, match_id FROM shared_tables "
                 f"WHERE status IN ({marks})")
        params: list[Any] = list(statuses)
        if host is not None:
            query += " AND host = ?"
            params.append(host)
        rows = self.db.execute(query + " ORDER BY id", params).fetchall()
        return [_table_row(r) for r in rows]

    def last_closed_table_of(self, identity: str, since: float) -> dict[str, Any] | None:
        """The closed shared table where ``identity`` held a seat that closed last, if
        it closed after ``since`` (a time.time()); as ``shared_tables`` gives a row. One
        indexed query, whatever the number of closed tables."""
        row = self.db.execute(
            "SELECT id, code, host, status, config, seats, match_id FROM shared_tables "
            "WHERE status = ? AND updated >= ? AND EXISTS (SELECT 1 FROM json_each(CASE "
            "WHEN json_valid(shared_tables.seats) THEN shared_tables.seats ELSE '[]' END) "
            "WHERE type = 'object' AND json_extract(value, '$.identity') = ?) "
            "ORDER BY updated DESC, id DESC LIMIT 1",
            ("closed", since, identity)).fetchone()
        return None if row is None else _table_row(row)

    def add_match_players(self, match_id: int, players: Sequence[tuple[int, str]]) -> None:
        """Record who sat where at a shared table's match ((seat, identity) pairs): the
        match is in each of their histories."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany("INSERT OR REPLACE INTO match_players (match_id, identity, seat) "
                                "VALUES (?, ?, ?)",
                                [(match_id, identity, seat) for seat, identity in players])

    def mark_left(self, match_id: int, identity: str, left: bool = True) -> None:
        """``identity`` is away from a shared table during its match (``left``: they left
        it or their connection dropped), or is back at it: not being back when it ends is
        abandoning it (last place for the rating and the statistics). Only while the
        match is in play: its end decides."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            row = self.db.execute("SELECT status FROM matches WHERE id = ?",
                                  (match_id,)).fetchone()
            if row is None or row[0] != PLAYING:
                return
            if left:
                self.db.execute("INSERT OR IGNORE INTO match_leavers (match_id, identity) "
                                "VALUES (?, ?)", (match_id, identity))
            else:
                self.db.execute("DELETE FROM match_leavers WHERE match_id = ? AND "
                                "identity = ?", (match_id, identity))

    def away_from(self, match_id: int) -> set[str]:
        """Who is away from the shared match ``match_id`` now (``mark_left``)."""
        return {str(row[0]) for row in self.db.execute(
            "SELECT identity FROM match_leavers WHERE match_id = ?", (match_id,))}

    def finished_match(self, match_id: int) -> FinishedMatch | None:
        """What the rating may read of a finished match (None: not finished, or its seats
        or result are unreadable)."""
        row = self.db.execute("SELECT owner, game, status, seats, result, updated FROM "
                              "matches WHERE id = ?", (match_id,)).fetchone()
        if row is None or row[2] != FINISHED:
            return None
        return self._facts(match_id, row)

    def _facts(self, match_id: int, row: Sequence[Any]) -> FinishedMatch | None:
        owner, game = str(row[0]), str(row[1])
        try:
            specs, result = json.loads(row[3]), json.loads(row[4]) if row[4] else None
        except ValueError:
            return None
        if not isinstance(specs, list):
            return None
        identities = {int(seat): str(identity) for identity, seat in self.db.execute(
            "SELECT identity, seat FROM match_players WHERE match_id = ?", (match_id,))}
        leavers = {str(r[0]) for r in self.db.execute(
            "SELECT identity FROM match_leavers WHERE match_id = ?", (match_id,))}
        return FinishedMatch(match_id, game, owner, specs, result, identities, leavers,
                             owner == SHARED_OWNER, float(row[5]))

    def finished_matches(self, skip: Collection[int] = ()) -> Iterator[FinishedMatch]:
        """Every finished match (but those in ``skip``) as the rating reads it, by id."""
        for row in self.db.execute("SELECT id, owner, game, status, seats, result, updated "
                                   "FROM matches WHERE status = ? ORDER BY id",
                                   (FINISHED,)).fetchall():
            if int(row[0]) not in skip:
                match = self._facts(int(row[0]), row[1:])
                if match is not None:
                    yield match

    def first_players(self, match_ids: Sequence[int]) -> dict[int, int]:
        """The seat that moved first in each of these finished matches (from its record)."""
        found: dict[int, int] = {}
        for start in range(0, len(match_ids), 500):
            chunk = list(match_ids[start:start + 500])
            marks = ", ".join("?" for _ in chunk)
            for match_id, first in self.db.execute(
                    f"SELECT id, json_extract(record, '$.first') FROM matches WHERE id IN "
                    f"({marks}) AND json_valid(record)", chunk):
                if isinstance(first, int):
                    found[int(match_id)] = first
        return found

    def match_seats_of(self, identity: str) -> dict[int, int]:
        """The seat ``identity`` had at each shared table's match they played."""
        return {int(r[0]): int(r[1]) for r in self.db.execute(
            "SELECT match_id, seat FROM match_players WHERE identity = ?", (identity,))}
