"""The SQLite history database: the app's matches, tournament runs and their games.

One file in the user's data directory by default (``TRASH_TUI_HISTORY`` overrides it),
shared safely by several processes: WAL journaling, short transactions, a busy timeout.
Writes are idempotent (a game is keyed by its run and index, an action by its match and
number), so a resumed run never counts a game twice and a resumed match never plays an
action twice.

A match is stored when it starts (its game, rules, seats, seed) and then one row per
action, each in its own transaction, so a crash loses at most the move in progress: the
seed and the actions rebuild the match exactly. When it ends, its record
(``engine/record.py``, or ``neighbor/record.py`` for Help Your Neighbor) is kept for the
replay viewer. Matches belong to an ``owner`` (``"local"`` in the app; the SSH server uses
the player's key). A database written before matches had a ``game`` gets the column on
opening, every old match being a game of Trash.

A match is played in one place at a time: whoever starts or continues it holds it (a
random ``holder`` token), and an action from anybody else is refused (``MatchTaken``). So
when a player comes back over SSH while their dropped session is still winding down, or
opens the same match in two terminals, the latest one plays on and the other stops saving
instead of mixing two games in one.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from trash_tui.games import TRASH
from trash_tui.players.anchors import load_anchors
from trash_tui.players.model import RatedSeat, Rating, rate, rated_seats

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament_runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    out_dir TEXT NOT NULL,
    config TEXT NOT NULL,
    started REAL NOT NULL,
    updated REAL NOT NULL,
    status TEXT NOT NULL,
    results TEXT,
    UNIQUE (fingerprint, out_dir)
);
CREATE TABLE IF NOT EXISTS tournament_games (
    run_id INTEGER NOT NULL REFERENCES tournament_runs(id),
    game_index INTEGER NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (run_id, game_index)
);
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
CREATE TABLE IF NOT EXISTS players (
    identity TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    first_seen REAL NOT NULL,
    last_seen REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS matches_by_owner ON matches (owner, status, updated);
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
CREATE TABLE IF NOT EXISTS match_players (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    identity TEXT NOT NULL,
    seat INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS match_players_by_identity ON match_players (identity);
CREATE TABLE IF NOT EXISTS match_actions (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    number INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (match_id, number)
);
"""

#: The players' ratings (``trash_tui/players``). ``rated_matches`` keeps what each rated
#: match's result was for the rating (its seats: players and bot levels, with ranks), in
#: the order the matches finished (``finished`` grows with every rated match): it is the
#: rating's own record, so a match deleted from a history still counts, and
#: ``rebuild_ratings`` gives exactly the ratings kept match by match. ``ratings`` holds
#: each player's current rating per game, ``rating_changes`` the rating after each match
#: (the chart over time), ``match_leavers`` who is away from a shared table during its
#: match (they left it, or their connection dropped; coming back takes them out): those
#: still in it when the match ends abandoned it (last place, ``players.model``).
RATINGS_SCHEMA = """
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
CREATE TABLE IF NOT EXISTS match_leavers (
    match_id INTEGER NOT NULL,
    identity TEXT NOT NULL,
    PRIMARY KEY (match_id, identity)
);
"""

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


@dataclass(frozen=True)
class RunRow:
    """One tournament run as the history database keeps it."""

    id: int
    name: str
    fingerprint: str
    out_dir: str
    started: float
    updated: float
    status: str
    games: int
    results: dict[str, Any] | None


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

    @property
    def shared(self) -> bool:
        """Whether it is (or was) played at one of the SSH server's shared tables: its
        table service holds it, not a player's app."""
        return self.owner == SHARED_OWNER

    @property
    def outcome(self) -> str:
        """"unfinished", "abandoned" (given up by its player, or too many void deals),
        "won" (by ``winner``) or "no winner"."""
        if self.status == ABANDONED:
            return "abandoned"
        if self.status != FINISHED:
            return "unfinished"
        if self.result and self.result.get("abandoned"):
            return "abandoned"
        return "won" if self.winner else "no winner"

    @property
    def seconds(self) -> float:
        """How long the match has lasted, from its start to its last action."""
        return max(0.0, self.updated - self.started)


@dataclass(frozen=True)
class PlayerRating:
    """A player's current rating in one game, with their rated matches and the last."""

    identity: str
    game: str
    rating: Rating
    matches: int
    updated: float


_MATCH_COLUMNS = ("id, owner, started, updated, status, rules, seats, names, seed, actions, "
                  "deals, winner, result, game")


def _match_row(row: Sequence[Any], record: str | None = None) -> MatchRow:
    return MatchRow(int(row[0]), row[1], row[2], row[3], row[4], json.loads(row[5]),
                    json.loads(row[6]), json.loads(row[7]), int(row[8]), int(row[9]),
                    int(row[10]), row[11], json.loads(row[12]) if row[12] else None,
                    json.loads(record) if record else None, row[13])


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


class History:
    """A connection to the history database."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_history_path()
        #: told how many seconds each write of a move, a table or a match's end took
        #: (the SSH server's metrics)
        self.write_observer: Callable[[float], None] | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            _add_new_columns(self.db)
            self._add_ratings()
        except (OSError, sqlite3.Error) as exc:
            raise HistoryError(f"history database {self.path}: {exc}") from None

    def close(self) -> None:
        self.db.close()

    def _timed(self, started: float) -> None:
        if self.write_observer is not None:
            self.write_observer(time.perf_counter() - started)

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- tournament runs ---------------------------------------------------------------
    def open_run(self, name: str, fingerprint: str, out_dir: str, config: dict[str, Any]) -> int:
        """The id of the run of this configuration into this folder (created if new)."""
        now = time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT OR IGNORE INTO tournament_runs (name, fingerprint, out_dir, config, "
                "started, updated, status) VALUES (?, ?, ?, ?, ?, ?, 'running')",
                (name, fingerprint, out_dir, json.dumps(config), now, now))
            row = self.db.execute(
                "SELECT id FROM tournament_runs WHERE fingerprint = ? AND out_dir = ?",
                (fingerprint, out_dir)).fetchone()
        return int(row[0])

    def add_games(self, run_id: int, games: Iterable[tuple[int, dict[str, Any]]]) -> None:
        """Store finished games (index, result); a game already stored is left as it is."""
        rows = [(run_id, index, json.dumps(result)) for index, result in games]
        if not rows:
            return
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany(
                "INSERT OR IGNORE INTO tournament_games (run_id, game_index, result) "
                "VALUES (?, ?, ?)", rows)
            self.db.execute("UPDATE tournament_runs SET updated = ? WHERE id = ?",
                            (time.time(), run_id))

    def finish_run(self, run_id: int, status: str, results: dict[str, Any] | None) -> None:
        """Mark a run finished (or stopped) and keep its results."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "UPDATE tournament_runs SET status = ?, results = ?, updated = ? WHERE id = ?",
                (status, json.dumps(results) if results is not None else None, time.time(),
                 run_id))

    def game_results(self, run_id: int) -> dict[int, dict[str, Any]]:
        """Every stored game of a run, by index."""
        rows = self.db.execute(
            "SELECT game_index, result FROM tournament_games WHERE run_id = ? "
            "ORDER BY game_index", (run_id,)).fetchall()
        return {int(index): json.loads(text) for index, text in rows}

    def runs(self) -> list[RunRow]:
        """Every tournament run, newest first."""
        rows = self.db.execute(
            "SELECT r.id, r.name, r.fingerprint, r.out_dir, r.started, r.updated, r.status, "
            "(SELECT COUNT(*) FROM tournament_games g WHERE g.run_id = r.id), r.results "
            "FROM tournament_runs r ORDER BY r.started DESC, r.id DESC").fetchall()
        return [RunRow(int(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], int(r[7]),
                       json.loads(r[8]) if r[8] else None) for r in rows]

    def find_run(self, reference: str) -> RunRow:
        """A run by id, or the newest run with this name or output folder."""
        runs = self.runs()
        for run in runs:
            if reference.isdigit() and run.id == int(reference):
                return run
        for run in runs:
            if reference in (run.name, run.out_dir) or (
                    Path(reference).resolve().as_posix() == run.out_dir):
                return run
        known = ", ".join(f"{r.id} ({r.name})" for r in runs[:10]) or "none yet"
        raise HistoryError(f"no tournament run {reference!r} in {self.path}; runs: {known}")

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
        """Mark a match finished and keep its result and record; MatchTaken if
        ``holder`` no longer holds it."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._check_holder(match_id, holder)
            self.db.execute(
                "UPDATE matches SET status = ?, winner = ?, deals = ?, result = ?, record = ?, "
                "updated = ? WHERE id = ?",
                (FINISHED, winner, deals, json.dumps(result), json.dumps(record), time.time(),
                 match_id))
            self._rate_finished_match(match_id)

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

    def matches(self, owner: str, status: str | None = None, limit: int = 500,
                shared: bool = True) -> list[MatchRow]:
        """An owner's matches (all, or those with ``status``), the latest played first;
        with ``shared``, also the shared tables' matches the owner sat at."""
        where = "(owner = ?" + (" OR id IN (SELECT match_id FROM match_players WHERE "
                                "identity = ?))" if shared else ")")
        params: tuple[Any, ...] = (owner, owner) if shared else (owner,)
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
        """Forget a match and its actions."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM match_actions WHERE match_id = ?", (match_id,))
            self.db.execute("DELETE FROM matches WHERE id = ?", (match_id,))

    def forget_match_player(self, match_id: int, identity: str) -> None:
        """Take a shared table's match out of one player's history (the others keep it).
        MatchInPlay (one line) while the match is being played: who sat where is what the
        rating reads when it ends, so it stays until then."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            row = self.db.execute("SELECT status FROM matches WHERE id = ?",
                                  (match_id,)).fetchone()
            if row is not None and row[0] == PLAYING:
                raise MatchInPlay(f"match {match_id} is still being played at its table: it "
                                  "can be deleted once it is over")
            self.db.execute("DELETE FROM match_players WHERE match_id = ? AND identity = ?",
                            (match_id, identity))

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
        return [{"id": int(r[0]), "code": str(r[1]), "host": str(r[2]), "status": str(r[3]),
                 "config": json.loads(r[4]), "seats": json.loads(r[5]),
                 "match_id": None if r[6] is None else int(r[6])} for r in rows]

    def add_match_players(self, match_id: int, players: Sequence[tuple[int, str]]) -> None:
        """Record who sat where at a shared table's match ((seat, identity) pairs): the
        match is in each of their histories."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany("INSERT OR REPLACE INTO match_players (match_id, identity, seat) "
                                "VALUES (?, ?, ?)",
                                [(match_id, identity, seat) for seat, identity in players])

    # --- players (SSH identities) --------------------------------------------------------
    def player_name(self, identity: str) -> str | None:
        """The display name registered for ``identity`` (a key fingerprint), or None."""
        row = self.db.execute("SELECT name FROM players WHERE identity = ?",
                              (identity,)).fetchone()
        return None if row is None else str(row[0])

    def players(self) -> list[tuple[str, str, float, float]]:
        """Every registered player: (identity, name, first seen, last seen), the latest
        seen first."""
        rows = self.db.execute("SELECT identity, name, first_seen, last_seen FROM players "
                               "ORDER BY last_seen DESC, identity").fetchall()
        return [(str(r[0]), str(r[1]), float(r[2]), float(r[3])) for r in rows]

    def register_player(self, identity: str, name: str) -> None:
        """Register ``identity`` with a display name, or update its name and last visit."""
        now = time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT INTO players (identity, name, first_seen, last_seen) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(identity) DO UPDATE SET name = excluded.name, "
                "last_seen = excluded.last_seen", (identity, name, now, now))

    # --- ratings (trash_tui/players) -----------------------------------------------------
    def _add_ratings(self) -> None:
        """The rating tables; a database from before them gets its finished matches rated
        (another process may be doing the same: the result is the same)."""
        new = self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                              "name = 'rated_matches'").fetchone() is None
        self.db.executescript(RATINGS_SCHEMA)
        if new:
            self.rebuild_ratings()

    def _rated_seats(self, match_id: int) -> list[RatedSeat] | None:
        """How the rating sees a finished match (None: not rated; ``players.model``)."""
        row = self.db.execute("SELECT owner, game, status, seats, result FROM matches "
                              "WHERE id = ?", (match_id,)).fetchone()
        if row is None or row[2] != FINISHED:
            return None
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
        return rated_seats(game, owner, specs, result, identities, leavers,
                           load_anchors().get(game, {}), owner == SHARED_OWNER)

    def _rate_finished_match(self, match_id: int) -> None:
        """Rate a match that has just finished (inside the caller's transaction): keep its
        rated result, after every earlier one, and update its players' ratings."""
        seats = self._rated_seats(match_id)
        if seats is None:
            return
        game = str(self.db.execute("SELECT game FROM matches WHERE id = ?",
                                   (match_id,)).fetchone()[0])
        last = self.db.execute("SELECT MAX(finished) FROM rated_matches").fetchone()[0]
        finished = time.time() if last is None else max(time.time(), float(last) + 1e-6)
        inserted = self.db.execute(
            "INSERT OR IGNORE INTO rated_matches (match_id, game, finished, seats) "
            "VALUES (?, ?, ?, ?)", (match_id, game, finished,
                                    json.dumps([seat.to_dict() for seat in seats])))
        if inserted.rowcount:
            self._apply_rating(match_id, game, finished, seats)

    def _apply_rating(self, match_id: int, game: str, finished: float,
                      seats: Sequence[RatedSeat]) -> None:
        """Move the ratings of the players of one rated match (inside a transaction)."""
        players = [seat.player for seat in seats if seat.player is not None]
        before: dict[str, Rating] = {}
        counts: dict[str, int] = {}
        for identity in players:
            row = self.db.execute("SELECT mu, sigma, matches FROM ratings WHERE identity = ? "
                                  "AND game = ?", (identity, game)).fetchone()
            if row is not None:
                before[identity] = Rating(float(row[0]), float(row[1]))
                counts[identity] = int(row[2])
        after = rate(seats, before, load_anchors().get(game, {}))
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

    def rebuild_ratings(self) -> int:
        """Recompute every rating from scratch, in the order the matches finished (ties by
        id), from the kept rated results (and those of finished matches not rated yet, as
        in a database from before ratings); the number of rated matches."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            kept = {int(r[0]) for r in self.db.execute("SELECT match_id FROM rated_matches")}
            for match_id, game, updated in self.db.execute(
                    "SELECT id, game, updated FROM matches WHERE status = ? ORDER BY id",
                    (FINISHED,)).fetchall():
                if int(match_id) in kept:
                    continue
                seats = self._rated_seats(int(match_id))
                if seats is not None:
                    self.db.execute(
                        "INSERT INTO rated_matches (match_id, game, finished, seats) "
                        "VALUES (?, ?, ?, ?)", (match_id, game, float(updated),
                                                json.dumps([s.to_dict() for s in seats])))
            self.db.execute("DELETE FROM ratings")
            self.db.execute("DELETE FROM rating_changes")
            rows = self.db.execute("SELECT match_id, game, finished, seats FROM rated_matches "
                                   "ORDER BY finished, match_id").fetchall()
            for match_id, game, finished, seats in rows:
                self._apply_rating(int(match_id), str(game), float(finished),
                                   [RatedSeat.from_dict(seat) for seat in json.loads(seats)])
        return len(rows)

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

    def left_matches(self, identity: str) -> set[int]:
        """The shared tables' matches ``identity`` left before their end (abandoned)."""
        return {int(r[0]) for r in self.db.execute(
            "SELECT match_id FROM match_leavers WHERE identity = ?", (identity,))}

    def leaver_seats(self, match_ids: Sequence[int]) -> dict[int, set[int]]:
        """The seats of those who abandoned each of these shared tables' matches (not back
        when it ended), by match."""
        found: dict[int, set[int]] = {}
        for start in range(0, len(match_ids), 500):
            chunk = list(match_ids[start:start + 500])
            marks = ", ".join("?" for _ in chunk)
            for match_id, seat in self.db.execute(
                    "SELECT l.match_id, p.seat FROM match_leavers l JOIN match_players p ON "
                    f"p.match_id = l.match_id AND p.identity = l.identity WHERE l.match_id IN "
                    f"({marks})", chunk):
                found.setdefault(int(match_id), set()).add(int(seat))
        return found

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

    def match_seats_of(self, identity: str) -> dict[int, int]:
        """The seat ``identity`` had at each shared table's match they played."""
        return {int(r[0]): int(r[1]) for r in self.db.execute(
            "SELECT match_id, seat FROM match_players WHERE identity = ?", (identity,))}
