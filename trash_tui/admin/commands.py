"""What ``trash admin`` can ask the running server, done on the server's side.

``AdminCommands(server_state)`` answers one command at a time (``run``): each returns the
text ``trash admin`` prints and the data ``--json`` prints. ``run`` is the one door of
every command: an act that did something (``modlog.ACTS``) is then written to the
moderator's log, with the operator's user name. The SSH server's state is used
through the interface it declares (``server_side.ServerSide``: its sessions, its table
service, the moderation list, the metrics); the database is only touched on the server's
one worker thread (``tables.worker.Worker``). Everything a player
typed (names) is cleaned before it is shown; keys and addresses are the server's own.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from typing import Any, TypeVar

from trash_tui.admin import modlog, seen
from trash_tui.admin.backup import BackupError, backup_database, spool_file
from trash_tui.admin.casework import Casework
from trash_tui.admin.console import AdminError, Stream
from trash_tui.admin.metrics import process_cpu_seconds
from trash_tui.admin.moderation import (
    ADDRESS,
    BAN,
    KEY,
    MUTE,
    ModerationError,
    Sanction,
    address_network,
    is_key,
    parse_duration,
    when_text,
)
from trash_tui.admin.server_side import ServerSide
from trash_tui.history import History
from trash_tui.history.records import MOTD
from trash_tui.players.identity import is_guest
from trash_tui.text import clean

T = TypeVar("T")
SAY_SECONDS = 15.0  # how long a notice stays on the players' screens
MAX_TEXT = 300  # characters of a notice, a reason or the message of the day


def _text(args: dict[str, Any], key: str, required: bool = False) -> str:
    value = args.get(key)
    if value is None or value == "":
        if required:
            raise AdminError(f"{key} is required")
        return ""
    if not isinstance(value, str):
        raise AdminError(f"{key} is text")
    return clean(value, MAX_TEXT).strip()


def _ago(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 120:
        return f"{seconds}s"
    if seconds < 7200:
        return f"{seconds // 60}m"
    if seconds < 172800:
        return f"{seconds // 3600}h"
    return f"{seconds // 86400}d"


def _columns(rows: list[list[str]], header: list[str]) -> str:
    if not rows:
        return ""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(str(cell).ljust(width)
                       for cell, width in zip(line, widths, strict=True)).rstrip()
             for line in [header, *rows]]
    return "\n".join(lines)


class AdminCommands:
    """The console's commands on one running server (``ServerSide``: the SSH server's
    ``ServerState``); those about one player's case are in ``casework.py``."""

    def __init__(self, state: ServerSide) -> None:
        self.state = state
        self.service = state.tables
        self.casework = Casework(state, self.db, self.identities)

    async def run(self, command: str, args: dict[str, Any], operator: str = "?"
                  ) -> tuple[str, Any]:
        """The one door of every console command: done, then (an act that did something)
        written to the moderator's log with ``operator``, whom it acted on and what the
        operator wrote."""
        method = getattr(self, f"do_{command}", None) or getattr(self.casework,
                                                                f"do_{command}", None)
        if method is None or command.startswith("_"):
            raise AdminError(f"no such command: {command!r}")
        target = next((args[k] for k in ("target", "code", "id") if
                       isinstance(args.get(k), str | int) and not isinstance(args[k], bool)),
                      "")
        entry = modlog.Entry(operator, command, str(target)) if command in modlog.ACTS \
            else None
        modlog.current.set(entry)
        try:
            text, data = await method(args)
        except ModerationError as exc:
            raise AdminError(str(exc)) from None
        if entry is not None and entry.acted:
            kept = modlog.detail(text, args)
            try:
                await self.db(lambda history: modlog.add_entry(history, entry, kept))
            except sqlite3.Error as exc:  # done all the same: say it is not in the log
                self.state.report(f"admin: the moderator's log failed: {exc}", "")
                text += f" (not in the moderator's log: {exc})"
        return text, data

    async def db(self, work: Callable[[History], T]) -> T:
        """Run ``work(history)`` on the server's database thread."""
        return await self.state.worker.db(work)

    # --- who is on, which tables ---------------------------------------------------------
    def sessions(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        found = []
        for session in self.state.sessions:
            place = self.state.place(session)
            if place is None:
                continue
            cpu = process_cpu_seconds(session.pid or 0)
            found.append({"name": clean(place.name, 24), "key": session.player or "",
                          "address": session.address, "since": round(now - session.started, 1),
                          "where": place.where, "cpu": None if cpu is None else round(cpu, 2),
                          "pid": session.pid, "way": session.way})
        return found

    async def do_who(self, args: dict[str, Any]) -> tuple[str, Any]:
        rows = self.sessions()
        text = _columns([[r["name"] or "?", r["key"], r["way"], r["address"], _ago(r["since"]),
                          r["where"], "?" if r["cpu"] is None else f"{r['cpu']:.1f}s"]
                         for r in rows],
                        ["NAME", "KEY", "WAY", "ADDRESS", "SINCE", "WHERE", "CPU"])
        return text or "nobody is on", rows

    async def do_tables(self, args: dict[str, Any]) -> tuple[str, Any]:
        rows = self.service.admin_tables()
        text = _columns([[r["code"], clean(r["name"], 24), r["status"], r["seats"],
                          str(r["spectators"]), _ago(r["age"])] for r in rows],
                        ["CODE", "NAME", "STATUS", "SEATS", "WATCHING", "AGE"])
        return text or "no table is open", rows

    # --- kick, ban, mute -------------------------------------------------------------------
    async def identities(self, target: str) -> list[tuple[str, str]]:
        """The (key, name) pairs ``target`` names: a key itself, or every key registered
        (or on now) with that display name."""
        if is_key(target) or is_guest(target):
            name = await self.db(lambda history: history.players.player_name(target)) or ""
            return [(target, name)]
        wanted = target.casefold()
        players = await self.db(lambda history: history.players.registered())
        found = {identity: name for identity, name, _, _ in players
                 if name.casefold() == wanted}
        for client in list(self.service.clients):
            if client.identity and client.name.casefold() == wanted:
                found.setdefault(client.identity, client.name)
        return sorted(found.items())

    async def do_kick(self, args: dict[str, Any]) -> tuple[str, Any]:
        target = _text(args, "target", True)
        reason = _text(args, "reason") or "no reason given"
        pairs = await self.identities(target)
        keys = {key for key, _ in pairs}
        for key, name in pairs:
            if any(session.player == key for session in self.state.sessions):
                modlog.subject(key, name)
        network = None if keys else address_network(target)
        kicked = self.state.kick(lambda session: session.player in keys or (
            network is not None and _in(session.address, network)), reason)
        if not kicked:
            raise AdminError(f"no session of {clean(target, 60)!r} is on")
        return f"kicked {kicked} session{'s' if kicked != 1 else ''}", {"kicked": kicked}

    async def sanction(self, action: str, args: dict[str, Any]) -> tuple[str, Any]:
        target = _text(args, "target", True)
        reason = _text(args, "reason")
        spec = args.get("for")
        until = time.time() + parse_duration(spec) if isinstance(spec, str) and spec else None
        made: list[Sanction] = []
        guests: list[str] = []  # guests sanctioned through their address
        if is_key(target) or address_network(target) is None:
            pairs = await self.identities(target)
            if not pairs:
                raise AdminError(f"no player is called {clean(target, 60)!r} (give a key "
                                 "SHA256:... or an address)")
            if len(pairs) > 1:  # a name is anyone's to take: never sanction a stranger
                keys = ", ".join(clean(key, 60) for key, _ in pairs)
                raise AdminError(f"{len(pairs)} players are called {clean(target, 60)!r}: "
                                 f"{action} one by its key ({keys})")
            for key, name in pairs:
                if is_guest(key):
                    # a guest is new at every connection: its address is what comes back
                    # (a ban of the address; a mute of the guests from it)
                    guests.append(key)
                    for address in sorted({c.address for c in self.state.connections
                                           if c.player == key}):
                        made.append(await self.db(lambda history, a=address, n=name:
                                                  Sanction(*history.records.add_sanction(
                                                      action, ADDRESS, a, n, reason, until))))
                    continue
                made.append(await self.db(lambda history, key=key, name=name: Sanction(
                    *history.records.add_sanction(action, KEY, key, name, reason, until))))
            if not made:
                raise AdminError(f"{clean(target, 60)!r} is a guest who is not connected: "
                                 "ban the address they came from (trash admin who, the log)")
        elif action == MUTE:
            raise AdminError("a mute is for a player (a name or a key), not an address")
        else:
            network = address_network(target)
            made.append(await self.db(lambda history: Sanction(*history.records.add_sanction(
                action, ADDRESS, str(network), "", reason, until))))
        for sanction in made:
            self.state.moderation.add(sanction)
            modlog.subject(sanction.target if sanction.kind == KEY else "", sanction.name)
        if action == BAN:
            self.state.metrics.bans.inc(len(made))
            for sanction in made:
                self.state.kick(lambda session, s=sanction: s.covers(session.player,
                                                                     session.address),
                                sanction.line())
        else:
            for sanction in made:
                if sanction.kind == KEY:
                    self.service.tell_player(sanction.target, sanction.line())
            for guest in guests:
                for sanction in made:
                    if sanction.kind == ADDRESS:
                        self.service.tell_player(guest, sanction.line())
        shown = ", ".join(f"{s.target}{f' ({clean(s.name, 24)})' if s.name else ''}"
                          for s in made)
        return (f"{'banned' if action == BAN else 'muted'} {shown} {when_text(until)}",
                [s.to_dict() for s in made])

    async def lift(self, action: str, args: dict[str, Any]) -> tuple[str, Any]:
        target = _text(args, "target", True)
        network = address_network(target)
        lifted = self.state.moderation.lift(action, str(network) if network and
                                            not is_key(target) else target)
        if not lifted:
            what = "banned" if action == BAN else "muted"
            raise AdminError(f"{clean(target, 60)!r} is not {what}")
        ids = [s.id for s in lifted]
        for sanction in lifted:
            modlog.subject(sanction.target if sanction.kind == KEY else "", sanction.name)
        await self.db(lambda history: history.records.lift_sanctions(ids))
        if action == MUTE:
            for sanction in lifted:
                self.service.tell_player(sanction.target, "You are no longer muted.")
        return f"lifted {len(lifted)}", [s.to_dict() for s in lifted]

    async def do_ban(self, args: dict[str, Any]) -> tuple[str, Any]:
        return await self.sanction(BAN, args)

    async def do_unban(self, args: dict[str, Any]) -> tuple[str, Any]:
        return await self.lift(BAN, args)

    async def do_mute(self, args: dict[str, Any]) -> tuple[str, Any]:
        return await self.sanction(MUTE, args)

    async def do_unmute(self, args: dict[str, Any]) -> tuple[str, Any]:
        return await self.lift(MUTE, args)

    async def do_bans(self, args: dict[str, Any]) -> tuple[str, Any]:
        rows = self.state.moderation.active()
        text = _columns([[s.action, s.kind, s.target, clean(s.name, 24), when_text(s.until),
                          clean(s.reason, 60)] for s in rows],
                        ["WHAT", "BY", "TARGET", "NAME", "ENDS", "REASON"])
        return text or "no ban or mute is in force", [s.to_dict() for s in rows]

    # --- tables and notices ----------------------------------------------------------------
    async def do_close(self, args: dict[str, Any]) -> tuple[str, Any]:
        code = _text(args, "code", True)
        reason = _text(args, "reason") or "the server's operator closed it"
        if not await self.service.close_by_code(code, reason):
            raise AdminError(f"no open table has the code {code!r}")
        return f"closed {code.upper()}", {"code": code.upper()}

    async def do_say(self, args: dict[str, Any]) -> tuple[str, Any]:
        text = _text(args, "text", True)
        seconds = args.get("seconds", SAY_SECONDS)
        if not isinstance(seconds, int | float) or isinstance(seconds, bool) or \
                not 1 <= seconds <= 3600:
            raise AdminError("seconds is a number from 1 to 3600")
        reached = self.service.say(text, float(seconds))
        return f"said to {reached} session{'s' if reached != 1 else ''}", {"sessions": reached}

    async def do_motd(self, args: dict[str, Any]) -> tuple[str, Any]:
        text = None if args.get("clear") else (_text(args, "text") or None)
        if text is None and not args.get("clear"):  # no text: what it is now
            modlog.looked()
            current = self.service.motd
            return (current or "no message of the day"), {"motd": current}
        await self.db(lambda history: history.records.set_setting(MOTD, text))
        self.service.set_motd(text)
        return ("message of the day cleared" if text is None else
                f"message of the day: {text}"), {"motd": text}

    async def do_reload(self, args: dict[str, Any]) -> tuple[str, Any]:
        line = await self.state.reload("trash admin reload")
        return line, {"reload": line}

    # --- figures and backups ------------------------------------------------------------
    def figures(self) -> dict[str, Any]:
        """Everything ``stats`` shows (the metrics endpoint's figures, as one object)."""
        state, metrics = self.state, self.state.metrics
        pids = [s.pid for s in state.sessions if s.pid is not None]
        metrics.sample_cpu(pids)
        gauges = state.gauges()
        return {
            "uptime": round(time.time() - metrics.started, 1),
            "sessions": gauges["sessions"], "tables": gauges["tables"],
            "connections": len(state.connections),
            "refused": metrics.refused_by_reason(),
            "sessions_started": int(metrics.value(metrics.sessions)),
            "web_sessions_started": int(metrics.value(metrics.sessions, way="web")),
            "moves": int(metrics.value(metrics.moves)),
            "moves_per_second": round(metrics.moves_per_second(), 3),
            "session_cpu_seconds": round(metrics.value(metrics.cpu), 2),
            "history_writes": metrics.write_latency(),
            "bans_in_force": gauges["sanctions"].get(BAN, 0),
            "mutes_in_force": gauges["sanctions"].get(MUTE, 0),
            "bans": int(metrics.value(metrics.bans)),
            "kicks": int(metrics.value(metrics.kicks)),
            "reports": int(metrics.value(metrics.reports)),
            "errors_logged": int(metrics.value(metrics.errors)),
            "metrics": state.metrics_address,
        }

    async def do_stats(self, args: dict[str, Any]) -> tuple[str, Any]:
        f = self.figures()

        def counts(values: dict[str, int]) -> str:
            return ", ".join(f"{k} {v}" for k, v in sorted(values.items())) or "none"

        lines = [
            f"up {_ago(f['uptime'])}; {sum(f['sessions'].values())} sessions "
            f"({counts(f['sessions'])}); {f['connections']} connections",
            f"tables: {counts(f['tables'])}",
            f"moves: {f['moves']} ({f['moves_per_second']:.2f}/s over the last minute)",
            f"sessions started: {f['sessions_started']} ({f['web_sessions_started']} in a "
            f"browser); their CPU: "
            f"{f['session_cpu_seconds']:.1f} s",
            f"history writes: {f['history_writes']['count']} (mean "
            f"{f['history_writes']['mean_ms']} ms)",
            f"refused: {counts(f['refused'])}",
            f"bans in force {f['bans_in_force']}, mutes {f['mutes_in_force']}; bans made "
            f"{f['bans']}, kicks {f['kicks']}, reports {f['reports']}; errors logged "
            f"{f['errors_logged']}",
        ]
        if f["metrics"]:
            lines.append(f"metrics: http://{f['metrics']}/metrics")
        return "\n".join(lines), f

    async def do_backup(self, args: dict[str, Any]) -> tuple[str, Any]:
        """A checked copy of the database in a spool file of its folder (the one place the
        server may surely write); ``trash admin backup FILE`` copies it to FILE itself and
        removes it."""
        if args.get("file") is not None:
            raise AdminError("the console writes the backup file itself: run trash admin "
                             "backup FILE")
        database = self.state.history_path
        try:
            spool = await asyncio.to_thread(spool_file, database)
            info = await asyncio.to_thread(backup_database, database, spool)
        except BackupError as exc:
            raise AdminError(f"{exc} (the server writes the backup in its data folder "
                             "first: it needs room there)") from None
        return (f"backed up {info['matches']} matches, {info['actions']} moves "
                f"({info['bytes']} bytes, {info['seconds']} s)", info)

    # --- watching a player's terminal -------------------------------------------------
    async def do_watch(self, args: dict[str, Any]) -> tuple[str, Any]:
        """A copy of what the player's session draws, from a whole screen on (their
        newest session, if they have several); read-only."""
        target = _text(args, "target", True)
        pairs = await self.identities(target)
        if not pairs:
            raise AdminError(f"no player is called {clean(target, 60)!r} (give a name or a "
                             "key SHA256:...)")
        names = dict(pairs)
        running = [s for s in self.state.sessions if s.player in names and
                   s.child is not None and not s.child.output_ended]
        if not running:
            raise AdminError(f"{clean(target, 60)!r} is not connected")
        session = max(running, key=lambda s: s.started)
        client = self.service.client_of(session.token) if session.token else None
        name = clean(client.name if client is not None else names[session.player], 24)
        watcher = self.state.watch(session, name or session.player or "?")
        if watcher is None:
            raise AdminError(f"at most {self.state.max_watchers} watchers at once: one must stop "
                             "first")
        info = watcher.info
        text = (f"watching {info['name']} ({info['width']}x{info['height']}): "
                "q or ctrl-c to stop")
        return text, Stream(info, watcher.frames(), watcher.close)

    # --- which keys from which addresses ------------------------------------------------
    async def do_seen(self, args: dict[str, Any]) -> tuple[str, Any]:
        """The addresses a key (or the keys of a name) came from and the other keys seen
        from them; or the keys that came from an address or a network."""
        target = _text(args, "target", True)
        network = None if is_key(target) else address_network(target)
        if network is not None:
            rows = await self.db(lambda history: seen.in_network(history, network))
            text = _seen_table(rows) or f"no key came from {network}"
            return text, {"rows": rows, "others": []}
        pairs = await self.identities(target)
        if not pairs:
            raise AdminError(f"no player is called {clean(target, 60)!r} (give a key "
                             "SHA256:..., a name, an address or a network)")
        keys = [key for key, _ in pairs]
        rows = await self.db(lambda history: seen.of_identities(history, keys))
        addresses = sorted({row["address"] for row in rows})
        others = await self.db(lambda history: seen.of_addresses(history, addresses, keys))
        who = ", ".join(f"{key}{f' ({clean(name, 24)})' if name else ''}" for key, name in pairs)
        if not rows:
            return f"{who}: no connection counted", {"rows": [], "others": []}
        text = f"{who} came from:\n{_seen_table(rows)}"
        text += (f"\nother keys from these addresses:\n{_seen_table(others)}" if others else
                 "\nno other key came from these addresses")
        return text, {"rows": rows, "others": others}


def _stamp(when: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(when))


def _seen_table(rows: list[dict[str, Any]]) -> str:
    return _columns([[r["key"], clean(r["name"], 24) or "-", r["address"], _stamp(r["first"]),
                      _stamp(r["last"]), str(r["count"])] for r in rows],
                    ["KEY", "NAME", "ADDRESS", "FIRST (UTC)", "LAST (UTC)", "COUNT"])


def _in(address: str, network: Any) -> bool:
    host = address_network(address)
    return host is not None and host.version == network.version and \
        host.network_address in network
