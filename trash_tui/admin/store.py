"""The operator's records in the history database: sanctions (bans and mutes), warnings
(told at once, or at the player's next arrival: ``told``), players' reports with their
status (open, dismissed, acted on: by whom, when, a note), the tables' chat kept for
``chat_days`` (``chat_log``: a report is judged past the 20 lines it holds) and the
server's settings (the message of the day).

Each is a table of its own in the same SQLite file as the matches, created on first use,
so a backup holds them too and a restarted server finds its bans. Lifting a sanction
keeps its row (``lifted`` is set): ``trash admin bans`` shows what is in force, the file
what happened. Every call is one short transaction on the caller's ``History``.
"""

from __future__ import annotations

import json
import sqlite3
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
CREATE TABLE IF NOT EXISTS chat_log (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    table_id INTEGER NOT NULL,
    table_code TEXT NOT NULL,
    identity TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_log_by_table ON chat_log (table_id, at);
CREATE INDEX IF NOT EXISTS chat_log_by_time ON chat_log (at);
CREATE TABLE IF NOT EXISTS server_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
MOTD = "motd"
OPEN, DISMISSED, ACTED = "open", "dismissed", "acted"
DECISIONS = {"dismiss": DISMISSED, "act": ACTED, "reopen": OPEN}
#: Columns ``reports`` gained after its first version (a database from before is given
#: them in place: every report in it is open, its table's id unknown).
_REPORT_COLUMNS = {"status": f"TEXT NOT NULL DEFAULT '{OPEN}'", "decided_by": "TEXT",
                   "decided_at": "REAL", "note": "TEXT NOT NULL DEFAULT ''",
                   "table_id": "INTEGER"}
CHAT_BEFORE, CHAT_AFTER = 200, 50  # kept lines shown before and after a report


def prepare(history: History) -> None:
    """Create the operator's tables if the database does not have them yet (the
    moderator's log's too)."""
    history.db.executescript(SCHEMA)
    columns = {row[1] for row in history.db.execute("PRAGMA table_info(reports)")}
    for name, declaration in _REPORT_COLUMNS.items():
        if name not in columns:
            try:
                history.db.execute(f"ALTER TABLE reports ADD COLUMN {name} {declaration}")
            except sqlite3.OperationalError as exc:  # another process did it first
                if "duplicate column" not in str(exc):
                    raise
    history.db.execute("CREATE INDEX IF NOT EXISTS reports_by_status ON reports (status)")
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
               chat: list[dict[str, Any]], table_id: int | None = None) -> int:
    with history.db:
        history.db.execute("BEGIN IMMEDIATE")
        cursor = history.db.execute(
            "INSERT INTO reports (created, reporter, reporter_name, reported, reported_name, "
            "table_code, reason, chat, table_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (time.time(), reporter, reporter_name, reported, reported_name, table_code,
             reason, json.dumps(chat), table_id))
    return int(cursor.lastrowid or 0)


_REPORT = ("SELECT id, created, reporter, reporter_name, reported, reported_name, table_code, "
           "reason, chat, status, decided_by, decided_at, note, table_id FROM reports")


def _report(r: Any) -> dict[str, Any]:
    try:
        chat = json.loads(r[8])
    except ValueError:
        chat = []
    return {"id": int(r[0]), "created": float(r[1]), "reporter": str(r[2]),
            "reporter_name": str(r[3]), "reported": str(r[4]), "reported_name": str(r[5]),
            "table": str(r[6]), "reason": str(r[7]),
            "chat": chat if isinstance(chat, list) else [], "status": str(r[9]),
            "decided_by": None if r[10] is None else str(r[10]),
            "decided_at": None if r[11] is None else float(r[11]), "note": str(r[12]),
            "table_id": None if r[13] is None else int(r[13])}


def reports(history: History, limit: int = 50, status: str | None = None
            ) -> list[dict[str, Any]]:
    """The latest ``limit`` reports (of ``status`` only, when given), newest first."""
    where, params = ("", ()) if status is None else (" WHERE status = ?", (status,))
    rows = history.db.execute(f"{_REPORT}{where} ORDER BY id DESC LIMIT ?",
                              (*params, limit)).fetchall()
    return [_report(r) for r in rows]


def report(history: History, number: int) -> dict[str, Any] | None:
    row = history.db.execute(f"{_REPORT} WHERE id = ?", (number,)).fetchone()
    return None if row is None else _report(row)


def decide_report(history: History, number: int, status: str, operator: str,
                  note: str) -> dict[str, Any] | None:
    """Set a report's status (by ``operator``, now, with ``note``); the report after, or
    None if there is no such report."""
    with history.db:
        history.db.execute("BEGIN IMMEDIATE")
        history.db.execute("UPDATE reports SET status = ?, decided_by = ?, decided_at = ?, "
                           "note = ? WHERE id = ?", (status, operator, time.time(), note,
                                                     number))
    return report(history, number)


def add_chat(history: History, table_id: int, table_code: str, identity: str, name: str,
             text: str) -> None:
    """Keep one chat line said at a table (for the operator's reports)."""
    with history.db:
        history.db.execute("BEGIN IMMEDIATE")
        history.db.execute("INSERT INTO chat_log (at, table_id, table_code, identity, name, "
                           "text) VALUES (?, ?, ?, ?, ?, ?)",
                           (time.time(), table_id, table_code, identity, name, text))


def prune_chat(history: History, before: float) -> int:
    """Forget the chat lines said before ``before`` (a time); how many."""
    with history.db:
        history.db.execute("BEGIN IMMEDIATE")
        return history.db.execute("DELETE FROM chat_log WHERE at < ?", (before,)).rowcount


def chat_around(history: History, row: dict[str, Any]) -> list[dict[str, Any]]:
    """The kept chat of a report's table around it: up to ``CHAT_BEFORE`` lines before
    it and ``CHAT_AFTER`` after, oldest first (the table by its id, or by its code for a
    report from before ids were kept)."""
    column, value = (("table_id", row["table_id"]) if row["table_id"] is not None
                     else ("table_code", row["table"]))
    query = (f"SELECT at, identity, name, text FROM chat_log WHERE {column} = ? AND at "
             "{} ? ORDER BY at {}, id {} LIMIT ?")
    before = history.db.execute(query.format("<=", "DESC", "DESC"),
                                (value, row["created"], CHAT_BEFORE)).fetchall()
    after = history.db.execute(query.format(">", "ASC", "ASC"),
                               (value, row["created"], CHAT_AFTER)).fetchall()
    return [{"at": float(r[0]), "identity": str(r[1]), "from": str(r[2]), "text": str(r[3])}
            for r in [*reversed(before), *after]]


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
