"""The operator's records in the history database: sanctions (bans and mutes), warnings
(told at once, or at the player's next arrival: ``told``), players' reports and the
server's settings (the message of the day).

Each is a table of its own in the same SQLite file as the matches, created on first use,
so a backup holds them too and a restarted server finds its bans. Lifting a sanction
keeps its row (``lifted`` is set): ``trash admin bans`` shows what is in force, the file
what happened. Every call is one short transaction on the caller's ``History``.
"""

from __future__ import annotations

import json
import time
from typing import Any

from trash_tui.admin import modlog
from trash_tui.admin.moderation import Sanction
from trash_tui.history import History

SCHEMA = """
CREATE TABLE IF NOT EXISTS sanctions (
    id INTEGER PRIMARY KEY,
    action TEXT NOT NULL,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    until REAL,
    lifted REAL
);
CREATE INDEX IF NOT EXISTS sanctions_in_force ON sanctions (lifted, action);
CREATE TABLE IF NOT EXISTS reports (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    reporter TEXT NOT NULL,
    reporter_name TEXT NOT NULL,
    reported TEXT NOT NULL,
    reported_name TEXT NOT NULL,
    table_code TEXT NOT NULL,
    reason TEXT NOT NULL,
    chat TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS warnings (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    identity TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL,
    operator TEXT NOT NULL DEFAULT '',
    told REAL
);
CREATE INDEX IF NOT EXISTS warnings_by_player ON warnings (identity, told);
CREATE TABLE IF NOT EXISTS server_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
MOTD = "motd"


def prepare(history: History) -> None:
    """Create the operator's tables if the database does not have them yet (the
    moderator's log's too)."""
    history.db.executescript(SCHEMA)
    modlog.prepare(history)


def add_sanction(history: History, action: str, kind: str, target: str, name: str,
                 reason: str, until: float | None) -> Sanction:
    now = time.time()
    with history.db:
        history.db.execute("BEGIN IMMEDIATE")
        cursor = history.db.execute(
            "INSERT INTO sanctions (action, kind, target, name, reason, created, until) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", (action, kind, target, name, reason, now, until))
    return Sanction(int(cursor.lastrowid or 0), action, kind, target, name, reason, now, until)


def lift_sanctions(history: History, ids: list[int]) -> None:
    if not ids:
        return
    with history.db:
        history.db.execute("BEGIN IMMEDIATE")
        history.db.executemany("UPDATE sanctions SET lifted = ? WHERE id = ?",
                               [(time.time(), number) for number in ids])


def sanctions_in_force(history: History) -> list[Sanction]:
    """Every sanction neither lifted nor over, oldest first."""
    rows = history.db.execute(
        "SELECT id, action, kind, target, name, reason, created, until FROM sanctions "
        "WHERE lifted IS NULL AND (until IS NULL OR until > ?) ORDER BY id",
        (time.time(),)).fetchall()
    return [Sanction(int(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]),
                     float(r[6]), None if r[7] is None else float(r[7])) for r in rows]


def sanctions_of(history: History, keys: list[str]) -> list[dict[str, Any]]:
    """Every ban and mute ever made on one of ``keys`` (lifted and over ones too), oldest
    first."""
    marks = ", ".join("?" for _ in keys)
    rows = history.db.execute(
        "SELECT id, action, kind, target, name, reason, created, until, lifted FROM "
        f"sanctions WHERE kind = 'key' AND target IN ({marks}) ORDER BY id", keys).fetchall()
    return [{**Sanction(int(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]),
                        float(r[6]), None if r[7] is None else float(r[7])).to_dict(),
             "lifted": None if r[8] is None else float(r[8])} for r in rows]


def warning_text(reason: str) -> str:
    """What a warned player is shown (at once, or when they next arrive)."""
    return f"Warning from the server's operator: {reason}"


def add_warning(history: History, identity: str, name: str, reason: str, operator: str,
                told: bool) -> int:
    now = time.time()
    with history.db:
        history.db.execute("BEGIN IMMEDIATE")
        cursor = history.db.execute(
            "INSERT INTO warnings (created, identity, name, reason, operator, told) "
            "VALUES (?, ?, ?, ?, ?, ?)", (now, identity, name, reason, operator,
                                          now if told else None))
    return int(cursor.lastrowid or 0)


def take_untold_warnings(history: History, identity: str) -> list[str]:
    """The reasons of the warnings ``identity`` has not been shown yet, oldest first,
    marked as shown now (they are about to be)."""
    rows = history.db.execute("SELECT id, reason FROM warnings WHERE identity = ? AND "
                              "told IS NULL ORDER BY id", (identity,)).fetchall()
    if not rows:
        return []
    with history.db:
        history.db.execute("BEGIN IMMEDIATE")
        history.db.executemany("UPDATE warnings SET told = ? WHERE id = ?",
                               [(time.time(), int(r[0])) for r in rows])
    return [str(r[1]) for r in rows]


def warnings_of(history: History, keys: list[str]) -> list[dict[str, Any]]:
    """The warnings given to one of ``keys``, oldest first."""
    marks = ", ".join("?" for _ in keys)
    rows = history.db.execute(
        "SELECT id, created, identity, name, reason, operator, told FROM warnings WHERE "
        f"identity IN ({marks}) ORDER BY id", keys).fetchall()
    return [{"id": int(r[0]), "created": float(r[1]), "key": str(r[2]), "name": str(r[3]),
             "reason": str(r[4]), "operator": str(r[5]),
             "told": None if r[6] is None else float(r[6])} for r in rows]


def add_report(history: History, reporter: str, reporter_name: str, reported: str,
               reported_name: str, table_code: str, reason: str,
               chat: list[dict[str, Any]]) -> int:
    with history.db:
        history.db.execute("BEGIN IMMEDIATE")
        cursor = history.db.execute(
            "INSERT INTO reports (created, reporter, reporter_name, reported, reported_name, "
            "table_code, reason, chat) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (time.time(), reporter, reporter_name, reported, reported_name, table_code,
             reason, json.dumps(chat)))
    return int(cursor.lastrowid or 0)


def reports(history: History, limit: int = 50) -> list[dict[str, Any]]:
    """The latest ``limit`` reports, newest first."""
    rows = history.db.execute(
        "SELECT id, created, reporter, reporter_name, reported, reported_name, table_code, "
        "reason, chat FROM reports ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
    return [{"id": int(r[0]), "created": float(r[1]), "reporter": str(r[2]),
             "reporter_name": str(r[3]), "reported": str(r[4]), "reported_name": str(r[5]),
             "table": str(r[6]), "reason": str(r[7]), "chat": json.loads(r[8])} for r in rows]


def setting(history: History, key: str) -> str | None:
    row = history.db.execute("SELECT value FROM server_settings WHERE key = ?",
                             (key,)).fetchone()
    return None if row is None else str(row[0])


def set_setting(history: History, key: str, value: str | None) -> None:
    with history.db:
        history.db.execute("BEGIN IMMEDIATE")
        if value is None:
            history.db.execute("DELETE FROM server_settings WHERE key = ?", (key,))
        else:
            history.db.execute("INSERT OR REPLACE INTO server_settings (key, value) "
                               "VALUES (?, ?)", (key, value))
