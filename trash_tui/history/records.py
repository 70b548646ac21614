"""The SSH server's records in the history database, beside the matches, the players and the
runs: sanctions (bans and mutes), warnings (told at once, or at the player's next arrival:
``told``), players' reports with their status (open, dismissed, acted on: by whom, when, a
note), the tables' chat kept for ``chat_days`` (``chat_log``: a report is judged past the 20
lines it holds), the server's settings (the message of the day, the web face's token key),
the moderator's log (``moderator_log``, written by ``trash_tui.admin.modlog``), which keys
came from which addresses (``key_addresses``, ``trash_tui.admin.seen``), and the web face's
browsers: which identity a browser's token is (``browsers``: only the token's sha256 is
kept, never the token; a browser whose player never chose a name nor played is forgotten
after a day) and the one-time codes that link a browser to an SSH key (``link_codes``);
their rules are ``trash_tui.web.identity``'s.

Each is a table of its own in the same SQLite file as the matches, created with the other
schemas when the history is opened (``History.records``), so a backup holds them too and a
restarted server finds its bans. Lifting a sanction keeps its row (``lifted`` is set):
``trash admin bans`` shows what is in force, the file what happened. Every call is one short
transaction on the history's one connection (the table service's worker thread on the
server). A sanction comes back as a ``SanctionRow``; what it means (whom it covers, what the
player is told) is the operator's side's (``trash_tui.admin.moderation``).
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any, NamedTuple

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

CREATE TABLE IF NOT EXISTS moderator_log (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    operator TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL DEFAULT '',
    subjects TEXT NOT NULL DEFAULT '[]',
    detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS moderator_log_by_time ON moderator_log (at);

CREATE TABLE IF NOT EXISTS key_addresses (
    identity TEXT NOT NULL,
    address TEXT NOT NULL,
    first_seen REAL NOT NULL,
    last_seen REAL NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (identity, address)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS key_addresses_by_address ON key_addresses (address);

CREATE TABLE IF NOT EXISTS browsers (
    token_hash TEXT PRIMARY KEY,
    identity TEXT NOT NULL,
    created REAL NOT NULL,
    last_seen REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS browsers_by_identity ON browsers (identity);
CREATE INDEX IF NOT EXISTS browsers_by_last_seen ON browsers (last_seen);
CREATE TABLE IF NOT EXISTS link_codes (
    code TEXT PRIMARY KEY,
    identity TEXT NOT NULL,
    expires REAL NOT NULL,
    used REAL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS link_codes_by_identity ON link_codes (identity, expires);
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
_REPORT = ("SELECT id, created, reporter, reporter_name, reported, reported_name, table_code, "
           "reason, chat, status, decided_by, decided_at, note, table_id FROM reports")


class SanctionRow(NamedTuple):
    """One stored ban or mute (``until`` None: for good)."""

    id: int
    action: str
    kind: str
    target: str
    name: str
    reason: str
    created: float
    until: float | None


class LinkCodeRow(NamedTuple):
    """One kept link code: whose, until when, and when it was used (None: not yet)."""

    code: str
    identity: str
    expires: float
    used: float | None


class ServerRecords:
    """The server's tables on the history's connection ``db`` (created if missing)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.prepare()

    def prepare(self) -> None:
        """Create the server's tables if the database does not have them yet (an older
        database's ``reports`` is given its later columns in place)."""
        self.db.executescript(SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(reports)")}
        for name, declaration in _REPORT_COLUMNS.items():
            if name not in columns:
                try:
                    self.db.execute(f"ALTER TABLE reports ADD COLUMN {name} {declaration}")
                except sqlite3.OperationalError as exc:  # another process did it first
                    if "duplicate column" not in str(exc):
                        raise
        self.db.execute("CREATE INDEX IF NOT EXISTS reports_by_status ON reports (status)")

    def add_sanction(self, action: str, kind: str, target: str, name: str,
                     reason: str, until: float | None) -> SanctionRow:
        now = time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            cursor = self.db.execute(
                "INSERT INTO sanctions (action, kind, target, name, reason, created, until) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)", (action, kind, target, name, reason, now, until))
        return SanctionRow(int(cursor.lastrowid or 0), action, kind, target, name, reason, now,
                           until)

    def lift_sanctions(self, ids: list[int]) -> None:
        if not ids:
            return
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany("UPDATE sanctions SET lifted = ? WHERE id = ?",
                                   [(time.time(), number) for number in ids])

    def sanctions_in_force(self) -> list[SanctionRow]:
        """Every sanction neither lifted nor over, oldest first."""
        rows = self.db.execute(
            "SELECT id, action, kind, target, name, reason, created, until FROM sanctions "
            "WHERE lifted IS NULL AND (until IS NULL OR until > ?) ORDER BY id",
            (time.time(),)).fetchall()
        return [SanctionRow(int(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]),
                         float(r[6]), None if r[7] is None else float(r[7])) for r in rows]

    def sanctions_of(self, keys: list[str]) -> list[dict[str, Any]]:
        """Every ban and mute ever made on one of ``keys`` (lifted and over ones too), oldest
        first."""
        marks = ", ".join("?" for _ in keys)
        rows = self.db.execute(
            "SELECT id, action, kind, target, name, reason, created, until, lifted FROM "
            f"sanctions WHERE kind = 'key' AND target IN ({marks}) ORDER BY id", keys).fetchall()
        return [{**SanctionRow(int(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]),
                               str(r[5]), float(r[6]),
                               None if r[7] is None else float(r[7]))._asdict(),
                 "lifted": None if r[8] is None else float(r[8])} for r in rows]

    def add_warning(self, identity: str, name: str, reason: str, operator: str,
                    told: bool) -> int:
        now = time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            cursor = self.db.execute(
                "INSERT INTO warnings (created, identity, name, reason, operator, told) "
                "VALUES (?, ?, ?, ?, ?, ?)", (now, identity, name, reason, operator,
                                              now if told else None))
        return int(cursor.lastrowid or 0)

    def take_untold_warnings(self, identity: str) -> list[str]:
        """The reasons of the warnings ``identity`` has not been shown yet, oldest first,
        marked as shown now (they are about to be)."""
        rows = self.db.execute("SELECT id, reason FROM warnings WHERE identity = ? AND "
                                  "told IS NULL ORDER BY id", (identity,)).fetchall()
        if not rows:
            return []
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany("UPDATE warnings SET told = ? WHERE id = ?",
                                   [(time.time(), int(r[0])) for r in rows])
        return [str(r[1]) for r in rows]

    def warnings_of(self, keys: list[str]) -> list[dict[str, Any]]:
        """The warnings given to one of ``keys``, oldest first."""
        marks = ", ".join("?" for _ in keys)
        rows = self.db.execute(
            "SELECT id, created, identity, name, reason, operator, told FROM warnings WHERE "
            f"identity IN ({marks}) ORDER BY id", keys).fetchall()
        return [{"id": int(r[0]), "created": float(r[1]), "key": str(r[2]), "name": str(r[3]),
                 "reason": str(r[4]), "operator": str(r[5]),
                 "told": None if r[6] is None else float(r[6])} for r in rows]

    def add_report(self, reporter: str, reporter_name: str, reported: str,
                   reported_name: str, table_code: str, reason: str,
                   chat: list[dict[str, Any]], table_id: int | None = None) -> int:
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            cursor = self.db.execute(
                "INSERT INTO reports (created, reporter, reporter_name, reported, reported_name, "
                "table_code, reason, chat, table_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (time.time(), reporter, reporter_name, reported, reported_name, table_code,
                 reason, json.dumps(chat), table_id))
        return int(cursor.lastrowid or 0)

    @staticmethod
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

    def reports(self, limit: int = 50, status: str | None = None
                ) -> list[dict[str, Any]]:
        """The latest ``limit`` reports (of ``status`` only, when given), newest first."""
        where, params = ("", ()) if status is None else (" WHERE status = ?", (status,))
        rows = self.db.execute(f"{_REPORT}{where} ORDER BY id DESC LIMIT ?",
                                  (*params, limit)).fetchall()
        return [self._report(r) for r in rows]

    def report(self, number: int) -> dict[str, Any] | None:
        row = self.db.execute(f"{_REPORT} WHERE id = ?", (number,)).fetchone()
        return None if row is None else self._report(row)

    def decide_report(self, number: int, status: str, operator: str,
                      note: str) -> dict[str, Any] | None:
        """Set a report's status (by ``operator``, now, with ``note``); the report after, or
        None if there is no such report."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("UPDATE reports SET status = ?, decided_by = ?, decided_at = ?, "
                               "note = ? WHERE id = ?", (status, operator, time.time(), note,
                                                         number))
        return self.report(number)

    def add_chat(self, table_id: int, table_code: str, identity: str, name: str,
                 text: str) -> None:
        """Keep one chat line said at a table (for the operator's reports)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT INTO chat_log (at, table_id, table_code, identity, name, "
                               "text) VALUES (?, ?, ?, ?, ?, ?)",
                               (time.time(), table_id, table_code, identity, name, text))

    def prune_chat(self, before: float) -> int:
        """Forget the chat lines said before ``before`` (a time); how many."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            return self.db.execute("DELETE FROM chat_log WHERE at < ?", (before,)).rowcount

    def chat_around(self, row: dict[str, Any]) -> list[dict[str, Any]]:
        """The kept chat of a report's table around it: up to ``CHAT_BEFORE`` lines before
        it and ``CHAT_AFTER`` after, oldest first (the table by its id, or by its code for a
        report from before ids were kept)."""
        column, value = (("table_id", row["table_id"]) if row["table_id"] is not None
                         else ("table_code", row["table"]))
        query = (f"SELECT at, identity, name, text FROM chat_log WHERE {column} = ? AND at "
                 "{} ? ORDER BY at {}, id {} LIMIT ?")
        before = self.db.execute(query.format("<=", "DESC", "DESC"),
                                    (value, row["created"], CHAT_BEFORE)).fetchall()
        after = self.db.execute(query.format(">", "ASC", "ASC"),
                                   (value, row["created"], CHAT_AFTER)).fetchall()
        return [{"at": float(r[0]), "identity": str(r[1]), "from": str(r[2]), "text": str(r[3])}
                for r in [*reversed(before), *after]]

    def setting(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM server_settings WHERE key = ?",
                                 (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str | None) -> None:
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if value is None:
                self.db.execute("DELETE FROM server_settings WHERE key = ?", (key,))
            else:
                self.db.execute("INSERT OR REPLACE INTO server_settings (key, value) "
                                   "VALUES (?, ?)", (key, value))

    def browser(self, token_hash: str, now: float) -> str | None:
        """The identity of the browser whose token hashes to ``token_hash`` (its
        ``last_seen`` set to ``now``), or None if it is not known."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            row = self.db.execute("SELECT identity FROM browsers WHERE token_hash = ?",
                                  (token_hash,)).fetchone()
            if row is not None:
                self.db.execute("UPDATE browsers SET last_seen = ? WHERE token_hash = ?",
                                (now, token_hash))
        return None if row is None else str(row[0])

    def keep_browser(self, token_hash: str, identity: str, now: float) -> str:
        """Keep the browser whose token hashes to ``token_hash`` as ``identity`` unless it
        is kept already (then only its last visit is noted); the identity it is."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT INTO browsers (token_hash, identity, created, last_seen) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (token_hash) DO UPDATE SET "
                "last_seen = excluded.last_seen", (token_hash, identity, now, now))
            row = self.db.execute("SELECT identity FROM browsers WHERE token_hash = ?",
                                  (token_hash,)).fetchone()
        return str(row[0])

    def forget_browsers(self, before: float, unnamed_before: float | None = None,
                        prefix: str = "web:") -> int:
        """Forget the browsers last seen before ``before`` (their cookie is gone), and
        those whose identity starts with ``prefix`` (a browser's own player, not a key's)
        last seen before ``unnamed_before`` whose player never chose a name nor played a
        match; how many."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            count = self.db.execute("DELETE FROM browsers WHERE last_seen < ?",
                                    (before,)).rowcount
            if unnamed_before is not None:
                # (a range of the identity's index, not LIKE)
                count += self.db.execute(
                    "DELETE FROM browsers WHERE identity >= ? AND identity < ? AND "
                    "last_seen < ? AND identity NOT IN (SELECT identity FROM players) AND "
                    "identity NOT IN (SELECT identity FROM match_players) AND "
                    "identity NOT IN (SELECT identity FROM ratings)",
                    (prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1),
                     unnamed_before)).rowcount
            return count

    def add_link_code(self, code: str, identity: str, expires: float, now: float,
                      alive: int) -> None:
        """Keep ``code`` for ``identity`` until ``expires``; of ``identity``'s codes still
        alive at ``now`` only the ``alive`` newest stay so (the older ones expire now).
        Codes over for a day are forgotten."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM link_codes WHERE expires < ?", (now - 86400,))
            self.db.execute("INSERT INTO link_codes (code, identity, expires) VALUES (?, ?, ?)",
                            (code, identity, expires))
            self.db.execute(
                "UPDATE link_codes SET expires = ? WHERE code IN (SELECT code FROM link_codes "
                "WHERE identity = ? AND used IS NULL AND expires > ? "
                "ORDER BY expires DESC LIMIT -1 OFFSET ?)", (now, identity, now, alive))

    def link_codes(self) -> list[LinkCodeRow]:
        """Every kept link code (alive, used or over for less than a day)."""
        rows = self.db.execute("SELECT code, identity, expires, used FROM link_codes").fetchall()
        return [LinkCodeRow(str(r[0]), str(r[1]), float(r[2]),
                            None if r[3] is None else float(r[3])) for r in rows]

    def use_link_code(self, code: str, token_hash: str, now: float) -> str | None:
        """Use ``code`` at ``now``, if it is alive (one use only): the browser whose token
        hashes to ``token_hash`` is its identity from now on, in the same transaction. That
        identity, or None if the code was not alive."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            row = self.db.execute("SELECT identity FROM link_codes WHERE code = ? AND "
                                  "used IS NULL AND expires > ?", (code, now)).fetchone()
            if row is None:
                return None
            identity = str(row[0])
            self.db.execute("UPDATE link_codes SET used = ? WHERE code = ?", (now, code))
            self.db.execute(
                "INSERT INTO browsers (token_hash, identity, created, last_seen) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (token_hash) DO UPDATE SET "
                "identity = excluded.identity, last_seen = excluded.last_seen",
                (token_hash, identity, now, now))
        return identity
