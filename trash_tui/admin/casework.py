"""The console's commands for one player's case: a message to them (``tell``), a warning
(``warn``: told at once, or at their next arrival, and kept), their record (``player``),
the players' reports and their status (``reports``, ``report``: one with the table's kept
chat around it, dismissed or acted on), a cheater's rated results taken out of the rating
and put back (``void``, ``unvoid``: the ratings rebuilt as ``trash players rebuild`` does,
``History.void_player``) and the moderator's log (``log``).

A part of ``AdminCommands`` (``commands.py``), which gives it the server's state, the
database thread (``db``) and the name resolution (``identities``); each command returns
the text ``trash admin`` prints and the data ``--json`` prints, and raises ``AdminError``
with one line for bad input.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from trash_tui.admin import modlog
from trash_tui.admin.console import AdminError
from trash_tui.admin.moderation import parse_duration, when_text
from trash_tui.admin.server_side import ServerSide
from trash_tui.history import History
from trash_tui.history.records import ACTED, DECISIONS, DISMISSED, OPEN
from trash_tui.tables.social import warning_text
from trash_tui.text import clean

MAX_LIMIT = 10_000
MAX_TEXT = 300  # characters of a message or a reason


def _required(args: dict[str, Any], key: str) -> str:
    value = args.get(key)
    if not isinstance(value, str) or not clean(value, MAX_TEXT).strip():
        raise AdminError(f"{key} is required (text)")
    return clean(value, MAX_TEXT).strip()


def _stamp(when: float | None) -> str:
    return "-" if when is None else time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when))


def _report_line(row: dict[str, Any]) -> str:
    """A report in one line: who reported whom, where, why, and its status."""
    status = row["status"]
    if status != OPEN:
        said = {DISMISSED: "dismissed", ACTED: "acted on"}.get(status, status)
        note = f": {clean(row['note'], 200)}" if row["note"] else ""
        status = (f"{said} by {clean(row['decided_by'] or '?', 32)} "
                  f"{_stamp(row['decided_at'])}{note}")
    return (f"#{row['id']} {_stamp(row['created'])} at {clean(row['table'], 12)}: "
            f"{clean(row['reporter_name'], 24)} ({clean(row['reporter'], 60)}) reported "
            f"{clean(row['reported_name'], 24)} ({clean(row['reported'], 60)}): "
            f"{clean(row['reason'], 200) or '(no reason)'} [{status}]")


def _limit(args: dict[str, Any], default: int = 50) -> int:
    value = args.get("limit", default)
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_LIMIT:
        raise AdminError(f"limit is a whole number from 1 to {MAX_LIMIT}")
    return value


def _optional_text(args: dict[str, Any], key: str, length: int = 120) -> str | None:
    value = args.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise AdminError(f"{key} is text")
    return clean(value, length).strip() or None


class Casework:
    """The commands about one player's case, on the running server (``state``), the
    database thread (``db``) and the console's name resolution (``identities``)."""

    def __init__(self, state: ServerSide, db: Callable[[Callable[[History], Any]], Awaitable[Any]],
                 identities: Callable[[str], Awaitable[list[tuple[str, str]]]]) -> None:
        self.state = state
        self.db = db
        self.identities = identities

    async def one_player(self, target: str, connected: bool = False) -> tuple[str, str]:
        """The (key, name) ``target`` names (one player: a name two players took is
        refused with their keys); with ``connected``, among those connected now."""
        shown = clean(target, 60)
        pairs = await self.identities(target)
        if not pairs:
            raise AdminError(f"no player is called {shown!r} (give a key SHA256:...)")
        if connected:
            on = {client.identity for client in self.state.tables.clients
                  if not client.closed}
            pairs = [pair for pair in pairs if pair[0] in on]
            if not pairs:
                raise AdminError(f"{shown!r} is not connected")
        if len(pairs) > 1:
            keys = ", ".join(clean(key, 60) for key, _ in pairs)
            raise AdminError(f"{len(pairs)} players are called {shown!r}: give one by its "
                             f"key ({keys})")
        key, name = pairs[0]
        modlog.subject(key, name)
        return key, name

    async def do_tell(self, args: dict[str, Any]) -> tuple[str, Any]:
        """A message to one connected player, on whatever screen they are."""
        target = _required(args, "target")
        text = _required(args, "text")
        key, name = await self.one_player(target, connected=True)
        reached = self.state.tables.tell_player(key, text)
        if not reached:
            raise AdminError(f"{clean(target, 60)!r} is not connected")
        shown = clean(name, 24) or key
        return (f"told {shown} ({reached} session{'s' if reached != 1 else ''})",
                {"sessions": reached, "key": key})

    async def do_warn(self, args: dict[str, Any]) -> tuple[str, Any]:
        """A warning to one player: shown now if they are on (else at their next arrival),
        kept with their record."""
        target = _required(args, "target")
        reason = _required(args, "reason")
        key, name = await self.one_player(target)
        reached = self.state.tables.tell_player(key, warning_text(reason))
        who = modlog.operator()
        number = await self.db(lambda history: history.records.add_warning(
            key, name, reason, who, told=reached > 0))
        shown = clean(name, 24) or key
        when = "shown now" if reached else "shown at their next arrival"
        return f"warned {shown} ({when})", {"id": number, "key": key, "told": reached > 0}

    async def do_player(self, args: dict[str, Any]) -> tuple[str, Any]:
        """A player's record: their keys, when seen, bans and mutes, warnings, reports."""
        target = _required(args, "target")
        pairs = await self.identities(target)
        if not pairs:
            raise AdminError(f"no player is called {clean(target, 60)!r} (give a key "
                             "SHA256:...)")
        keys = [key for key, _ in pairs]
        on = {client.identity for client in self.state.tables.clients if not client.closed}

        def read(history: Any) -> dict[str, Any]:
            seen = {identity: (first, last) for identity, _, first, last in
                    history.players.registered() if identity in keys}
            return {"keys": [{"key": key, "name": name,
                              "first_seen": seen.get(key, (None, None))[0],
                              "last_seen": seen.get(key, (None, None))[1],
                              "connected": key in on} for key, name in pairs],
                    "sanctions": history.records.sanctions_of(keys),
                    "warnings": history.records.warnings_of(keys),
                    "reports": [row for row in history.records.reports(10_000)
                                if row["reported"] in keys],
                    "voided": sum(len(history.players.voided_matches_of(key))
                                  for key in keys)}

        record = await self.db(read)
        lines = []
        for row in record["keys"]:
            lines.append(f"{clean(row['name'], 24) or '?'}  {clean(row['key'], 80)}  first "
                         f"seen {_stamp(row['first_seen'])}, last {_stamp(row['last_seen'])}"
                         f"{'  (on now)' if row['connected'] else ''}")
        for row in record["sanctions"]:
            ended = f", lifted {_stamp(row['lifted'])}" if row["lifted"] else ""
            lines.append(f"  {row['action']} {_stamp(row['created'])} "
                         f"{when_text(row['until'])}{ended}: "
                         f"{clean(row['reason'], 120) or '(no reason)'}")
        for row in record["warnings"]:
            told = (f"shown {_stamp(row['told'])}" if row["told"] is not None
                    else "not shown yet")
            lines.append(f"  warned {_stamp(row['created'])} by {clean(row['operator'], 32)} "
                         f"({told}): {clean(row['reason'], 200)}")
        for row in record["reports"]:
            lines.append(f"  report #{row['id']} {_stamp(row['created'])} by "
                         f"{clean(row['reporter_name'], 24)}: "
                         f"{clean(row['reason'], 120) or '(no reason)'} [{row['status']}]")
        if record["voided"]:
            lines.append(f"  {record['voided']} rated match"
                         f"{'es' if record['voided'] != 1 else ''} void (trash admin unvoid)")
        return "\n".join(lines), record

    async def do_void(self, args: dict[str, Any]) -> tuple[str, Any]:
        """Take a player's rated matches so far out of the rating: everyone's ratings are
        rebuilt as if those matches had never been played."""
        return await self._void(args, True)

    async def do_unvoid(self, args: dict[str, Any]) -> tuple[str, Any]:
        """Put a player's voided matches back in the rating (rebuilt again)."""
        return await self._void(args, False)

    async def _void(self, args: dict[str, Any], void: bool) -> tuple[str, Any]:
        key, name = await self.one_player(_required(args, "target"))
        shown = clean(name, 24) or key
        count = await self.db(lambda history: history.void_player(key) if void
                              else history.unvoid_player(key))
        if not count:
            raise AdminError(f"{shown!r} has no rated match left to void" if void
                             else f"{shown!r} has no void match")
        matches = f"{count} rated match{'es' if count != 1 else ''}"
        text = (f"voided {matches} of {shown}: the ratings are rebuilt without them" if void
                else f"put {matches} of {shown} back: the ratings are rebuilt with them")
        return text, {"key": key, "matches": count}

    async def do_reports(self, args: dict[str, Any]) -> tuple[str, Any]:
        """The players' reports, newest first (``open``: only those not decided yet)."""
        status = OPEN if args.get("open") else None
        limit = _limit(args)
        rows = await self.db(lambda history: history.records.reports(limit, status))
        lines = []
        for row in rows:
            lines.append(_report_line(row))
            for line in row["chat"][-10:]:
                if isinstance(line, dict):
                    lines.append(f"    {clean(line.get('from', '?'), 24)}: "
                                 f"{clean(line.get('text', ''), 200)}")
        empty = "no open reports" if status else "no reports"
        return "\n".join(lines) or empty, rows

    async def do_report(self, args: dict[str, Any]) -> tuple[str, Any]:
        """One report with its table's kept chat around it; with ``decision`` (dismiss,
        act, reopen) its status is set, by this operator, now, with ``note``."""
        number = args.get("id")
        if isinstance(number, str) and number.lstrip("#").isdigit():
            number = int(number.lstrip("#"))
        if not isinstance(number, int) or isinstance(number, bool):
            raise AdminError("id is a report's number (trash admin reports)")
        decision = _optional_text(args, "decision", 20)
        note = _optional_text(args, "note", MAX_TEXT) or ""
        if decision is None:
            modlog.looked()
            row = await self.db(lambda history: history.records.report(number))
        elif decision not in DECISIONS:
            raise AdminError(f"a report is decided with dismiss or act (or reopen), not "
                             f"{decision!r}")
        else:
            status, who = DECISIONS[decision], modlog.operator()
            row = await self.db(lambda history: history.records.report(number) and
                                history.records.decide_report(number, status, who, note))
        if row is None:
            raise AdminError(f"no report #{number}")
        modlog.subject(row["reported"], row["reported_name"])
        if decision is not None:
            said = {DISMISSED: "dismissed", ACTED: "acted on",
                    OPEN: "open again"}[row["status"]]
            return (f"report #{row['id']} {said}: {clean(row['reported_name'], 24)}, "
                    f"reported by {clean(row['reporter_name'], 24)}"), row
        kept = await self.db(lambda history: history.records.chat_around(row))
        chat = kept or [{"from": line.get("from", "?"), "text": line.get("text", "")}
                        for line in row["chat"] if isinstance(line, dict)]
        lines = [_report_line(row)]
        source = "kept chat of the table" if kept else "the chat the report holds"
        lines.append(f"  {len(chat)} line{'s' if len(chat) != 1 else ''} ({source}):")
        marked = False
        for line in chat:
            if not marked and line.get("at", 0.0) > row["created"]:
                lines.append(f"  -- the report was sent here ({_stamp(row['created'])}) --")
                marked = True
            stamp = (time.strftime("%Y-%m-%d %H:%M:%S ", time.gmtime(line["at"]))
                     if "at" in line else "")
            lines.append(f"  {stamp}{clean(line.get('from', '?'), 24)}: "
                         f"{clean(line.get('text', ''), 200)}")
        return "\n".join(lines), {**row, "chat": chat}

    async def do_log(self, args: dict[str, Any]) -> tuple[str, Any]:
        """The moderator's log, newest first: ``player``, ``action``, ``since`` (a
        duration back from now), ``limit``."""
        player = _optional_text(args, "player")
        action = _optional_text(args, "action", 20)
        if action is not None and action not in modlog.ACTS:
            raise AdminError(f"no such action: {action!r} (one of {', '.join(modlog.ACTS)})")
        spec = _optional_text(args, "since", 40)
        since = None if spec is None else time.time() - parse_duration(spec)
        limit = _limit(args)
        keys = [key for key, _ in await self.identities(player)] if player else []
        rows = await self.db(lambda history: modlog.entries(history, player, keys, action,
                                                            since, limit))
        return "\n".join(modlog.line(row) for row in rows) or "nothing in the log", rows
