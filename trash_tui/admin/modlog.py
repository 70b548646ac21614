"""The moderator's log: who did what to whom, when, through the admin console.

One row per act (``ACTS``: ban, unban, mute, unmute, kick, close, warn, tell, a report's
status, void, unvoid, say, motd) in the history database's ``moderator_log`` table
(created with the history's others: ``trash_tui.history.records``), so a
backup holds it. It is written by one door, ``AdminCommands.run``, after a command has
done what it was asked (a refused command did nothing and is not logged); the commands
only name the players they acted on (``Entry.subjects``, a key and the name it had).
"Who" is the operator's local user name, from the admin socket's peer credentials.
``entries`` lists and searches it (``trash admin log``).
"""

from __future__ import annotations

import contextvars
import json
import time
from dataclasses import dataclass, field
from typing import Any

from trash_tui.history import History
from trash_tui.text import clean

#: The console's commands that act (the rest only look); ``report`` and ``motd`` act only
#: when they change something (``Entry.acted``).
ACTS = ("ban", "unban", "mute", "unmute", "kick", "close", "warn", "tell", "report", "void",
        "unvoid", "say", "motd")
DETAIL_ARGS = ("reason", "text", "note")  # what the operator wrote, kept with the act
MAX_DETAIL = 600


@dataclass
class Entry:
    """One act being done: the command names whom it acted on (``subject``)."""

    operator: str
    action: str
    target: str = ""
    subjects: list[tuple[str, str]] = field(default_factory=list)
    acted: bool = True

    def subject(self, key: str, name: str = "") -> None:
        if key and all(key != known for known, _ in self.subjects):
            self.subjects.append((key, clean(name, 24)))


#: The act of the request being served (each console connection is a task of its own).
current: contextvars.ContextVar[Entry | None] = contextvars.ContextVar("modlog_entry",
                                                                       default=None)


def subject(key: str, name: str = "") -> None:
    """Name a player the command now being served acts on (no act: nothing)."""
    entry = current.get()
    if entry is not None:
        entry.subject(key, name)


def operator() -> str:
    """Who is doing the act now being served."""
    entry = current.get()
    return entry.operator if entry is not None else "?"


def looked() -> None:
    """The command now being served changed nothing after all (nothing is logged)."""
    entry = current.get()
    if entry is not None:
        entry.acted = False



def detail(text: str, args: dict[str, Any]) -> str:
    """What is kept about an act: the console's answer, then what the operator wrote."""
    parts = [text]
    for key in DETAIL_ARGS:
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            parts.append(f"{key}: {value.strip()}")
    return clean(" | ".join(parts), MAX_DETAIL)


def add_entry(history: History, entry: Entry, text: str) -> int:
    with history.db:
        history.db.execute("BEGIN IMMEDIATE")
        cursor = history.db.execute(
            "INSERT INTO moderator_log (at, operator, action, target, subjects, detail) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (time.time(), entry.operator, entry.action, clean(entry.target, 120),
             json.dumps(entry.subjects), text))
    return int(cursor.lastrowid or 0)


def entries(history: History, player: str | None = None, keys: list[str] | None = None,
            action: str | None = None, since: float | None = None, limit: int = 50
            ) -> list[dict[str, Any]]:
    """The latest ``limit`` acts, newest first: of ``action``, after ``since`` (a time), on
    ``player`` (a target written so, a subject's key or name, or one of ``keys``)."""
    sql = ("SELECT id, at, operator, action, target, subjects, detail FROM moderator_log "
           "WHERE 1")
    params: list[Any] = []
    if action:
        sql += " AND action = ?"
        params.append(action)
    if since is not None:
        sql += " AND at >= ?"
        params.append(since)
    sql += " ORDER BY id DESC"
    wanted = player.casefold() if player else None
    found: list[dict[str, Any]] = []
    for row in history.db.execute(sql, params):
        try:
            subjects = [(str(k), str(n)) for k, n in json.loads(row[5])]
        except (ValueError, TypeError):
            subjects = []
        if wanted is not None and not (
                str(row[4]).casefold() == wanted
                or any(k.casefold() == wanted or n.casefold() == wanted or k in (keys or ())
                       for k, n in subjects)):
            continue
        found.append({"id": int(row[0]), "at": float(row[1]), "operator": str(row[2]),
                      "action": str(row[3]), "target": str(row[4]),
                      "keys": [k for k, _ in subjects], "names": [n for _, n in subjects],
                      "detail": str(row[6])})
        if len(found) >= limit:
            break
    return found


def line(row: dict[str, Any]) -> str:
    """One act as ``trash admin log`` prints it."""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(row["at"]))
    whom = ", ".join(f"{clean(n, 24) or '?'} ({clean(k, 60)})"
                     for k, n in zip(row["keys"], row["names"], strict=True))
    target = clean(row["target"], 60)
    shown = whom if whom else target
    return (f"{stamp} UTC  {clean(row['operator'], 32)}  {row['action']}  "
            f"{shown or '-'}  {clean(row['detail'], MAX_DETAIL)}")
