"""The social side of a table: chat, ignoring someone, reporting someone to the operator.

A chat line (at most ``CHAT_LENGTH`` characters, cleaned) goes to everyone at the table
but those who hide its author (``ignore``: for that client alone), and is kept with the
table's last lines for those who arrive later; a player may say ``chat_per_minute`` lines
a minute. A muted player's lines reach nobody: they are told so at each line they try. The
server's bans and mutes are a declared interface (``Mutes``: ``trash_tui.admin.moderation``
has it), given in the constructor. ``report`` sends the operator (the log, through
``note``, and ``trash admin reports``) a report with the table's last chat lines, about
someone there or someone who was (``Table.been``: who sat, watched or chatted, bounded), at
most ``REPORTS_PER_WINDOW`` an hour per session. Every chat line is also kept in the
history database for ``chat_days`` (``keep``; older lines are pruned: ``prune``), so a
report can be judged past its last lines.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import Protocol

from trash_tui.tables.hub import Client, Report
from trash_tui.tables.rates import TokenBucket
from trash_tui.tables.rooms import audience
from trash_tui.tables.table import Table, TableError
from trash_tui.tables.worker import Worker
from trash_tui.text import clean

CHAT_LENGTH = 200
REPORTS_PER_WINDOW, REPORT_WINDOW = 5, 3600.0  # a session's reports to the operator


class Mute(Protocol):
    """A mute in force: the line its player is told."""

    def line(self) -> str: ...


class Mutes(Protocol):
    """Who may not chat (the server's moderation)."""

    def muted(self, key: str, address: str | None = None) -> Mute | None: ...


class NoMutes:
    """Nobody is muted (a service with no operator)."""

    def muted(self, key: str, address: str | None = None) -> Mute | None:
        return None


def warning_text(reason: str) -> str:
    """What a warned player is shown (at once, or when they next arrive)."""
    return f"Warning from the server's operator: {reason}"


class Social:
    """Chat, ignore and report at the tables."""

    def __init__(self, worker: Worker, mutes: Mutes, chat_per_minute: Callable[[], int],
                 chat_days: Callable[[], int], note: Report, report: Report,
                 reported: Callable[[], None]) -> None:
        self.worker = worker
        self.mutes = mutes
        self.chat_per_minute = chat_per_minute  # read at each line: a reload may change it
        self.chat_days = chat_days
        self.note = note  # the operator's log (a player's report is not an error)
        self.report = report  # the server's errors
        self.reported = reported  # a player reported one (the metrics)
        self.pruned = 0.0  # when the kept chat was last pruned (time.monotonic)

    async def chat(self, client: Client, text: str) -> None:
        table = client.table
        if table is None:
            raise TableError("chat is at a table")
        text = clean(text, CHAT_LENGTH).strip()
        if not text:
            return
        muted = self.mutes.muted(client.identity or "", client.address)
        if muted is not None:
            client.send({"op": "notice", "text": f"{muted.line()}: your chat lines reach "
                                                 "nobody."})
            return
        limit = self.chat_per_minute()
        if client.chat is None:
            client.chat = TokenBucket.per_minute(limit)
        elif client.chat.capacity != limit:  # (a reload changed it)
            client.chat.set_rate(limit, limit / 60.0)
        if not client.chat.take():
            raise TableError(f"at most {limit} chat lines a minute")
        name = client.name if client.seat is None else (table.seats[client.seat].name or
                                                        client.name)
        line = {"op": "chat", "from": name, "watching": client.seat is None, "text": text}
        table.chat.append({**line, "identity": client.identity})
        table.met(client.identity, name)
        for other in audience(table):
            if client.identity not in other.ignored:
                other.send(line)
        if self.chat_days() > 0:
            await self.keep(table, client.identity or "", name, text)

    async def keep(self, table: Table, identity: str, name: str, text: str) -> None:
        """Keep a chat line for the operator's reports (``chat_days``); a database that
        fails is reported, the line is said all the same."""
        try:
            await self.worker.db(lambda history: history.records.add_chat(
                table.id, table.code, identity, name, text))
        except sqlite3.Error as exc:
            self.report(f"tables: a chat line could not be kept: {exc}", "")

    async def prune(self) -> None:
        """Forget the kept chat older than ``chat_days`` (all of it when it is 0)."""
        before = time.time() - self.chat_days() * 86400.0
        try:
            await self.worker.db(lambda history: history.records.prune_chat(before))
        except sqlite3.Error as exc:
            self.report(f"tables: old chat could not be pruned: {exc}", "")
        self.pruned = time.monotonic()

    @staticmethod
    def named(table: Table, name: str) -> list[str]:
        """The identities at ``table`` (seated, or watching) shown as ``name``, then those
        who were at it as ``name`` and left (``Table.been``: a report still finds them)."""
        wanted = clean(name, 40).strip().casefold()
        found = [seat.identity for seat in table.seats
                 if seat.identity is not None and (seat.name or "").casefold() == wanted]
        found += [c.identity for c in table.spectators
                  if c.identity is not None and c.name.casefold() == wanted]
        found += [identity for identity, shown in reversed(table.been.items())
                  if shown.casefold() == wanted]
        return list(dict.fromkeys(found))

    def others_named(self, client: Client, name: str) -> tuple[Table, list[str]]:
        table = client.table
        if table is None:
            raise TableError("you are at no table")
        found = [who for who in self.named(table, name) if who != client.identity]
        if not found:
            raise TableError(f"nobody at this table is called {clean(name, 24)!r}")
        return table, found

    def ignore(self, client: Client, name: str, on: bool) -> None:
        """Hide (``on``) or show again one person's chat lines, for this client."""
        _table, found = self.others_named(client, name)
        shown = clean(name, 24)
        if on:
            client.ignored.update(found)
            client.send({"op": "notice", "text": f"You no longer see {shown}'s chat lines."})
        else:
            client.ignored.difference_update(found)
            client.send({"op": "notice", "text": f"You see {shown}'s chat lines again."})

    async def report_player(self, client: Client, name: str, reason: str) -> None:
        """Report a person at this table to the operator, with the table's last chat."""
        table, found = self.others_named(client, name)
        if client.reports is None:
            client.reports = TokenBucket(REPORTS_PER_WINDOW,
                                         REPORTS_PER_WINDOW / REPORT_WINDOW)
        if not client.reports.take():
            raise TableError("you have sent the operator enough reports for now")
        reason = clean(reason, CHAT_LENGTH).strip()
        chat = [{"from": line["from"], "text": line["text"]} for line in table.chat]
        reporter, shown = client.identity or "", clean(name, 24)
        number = await self.worker.db(lambda history: history.records.add_report(
            reporter, client.name, found[0], shown, table.code, reason, chat, table.id))
        self.reported()
        self.note(f"report #{number}: {client.name} ({reporter}) reported {shown} "
                  f"({found[0]}) at table {table.code}: {reason or '(no reason)'}", "")
        client.send({"op": "notice", "text": f"Your report about {shown} went to the "
                                             "server's operator."})
