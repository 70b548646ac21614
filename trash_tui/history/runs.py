"""Tournament runs in the history database: one row per run (its configuration's
fingerprint and output folder, its status and results) and one per finished game, keyed
by the run and the game's index, so a resumed run never counts a game twice."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trash_tui.history.database import HistoryError

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
"""


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


class TournamentRuns:
    """The tournament runs of one history database (``History.tournaments``)."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db = db
        self.path = path
        db.executescript(SCHEMA)

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

    def run_details(self, fingerprint: str, out_dir: str) -> dict[str, Any] | None:
        """What ``open_run`` kept of the run of this configuration into this folder (its
        ``config``), or None if there is no such run."""
        row = self.db.execute(
            "SELECT config FROM tournament_runs WHERE fingerprint = ? AND out_dir = ?",
            (fingerprint, out_dir)).fetchone()
        if row is None:
            return None
        try:
            details = json.loads(row[0])
        except ValueError:
            return {}
        return details if isinstance(details, dict) else {}

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
