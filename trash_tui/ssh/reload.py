"""A running server's reload (SIGHUP, or ``trash admin reload``): the config read again,
the message of the day's file read again, the connection log reopened.

- The config is read by the reader that started the server (the same file and command
  line). A broken one changes nothing: the running config stays, and the one line says
  why.
- What the server reads live takes effect at once: the session and connection limits,
  the rate of new connections, the timeouts read when they start, each new session's CPU,
  memory and idle limits, the shared tables' limits, the join hint's host and port, the
  message of the day's file, the web face's public URL and trusted proxies. What was
  fixed when the server began listening needs a restart (``RESTART_KEYS``, and the web
  face's ``WEB_RESTART_KEYS``): it is named, and its running value kept.
- The connection log is reopened at its path, so after logrotate renames ``ssh.log``
  (without ``copytruncate``) the next lines go to a new file; a log that cannot be
  reopened keeps the old one, and the line says so.

``reload`` returns the one line that tells it all (also written to the server's log).
"""

from __future__ import annotations

import asyncio
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

from trash_tui.ssh.child import SessionLimits
from trash_tui.ssh.config import (
    ServeError,
    ServerConfig,
    WebConfig,
    public_address,
    read_motd_file,
)
from trash_tui.text import visible

if TYPE_CHECKING:
    from trash_tui.ssh.server import ServerState

#: Keys whose change takes a restart: the listening socket and its SSH options, the files
#: and sockets opened at start, who may come in.
RESTART_KEYS = ("host", "port", "host_key", "auth", "authorized_keys", "password_file",
                "history", "players_dir", "admin_socket", "metrics", "login_timeout",
                "keepalive_interval", "keepalive_count_max")
#: Keys of [web] whose change takes a restart (its listening socket).
WEB_RESTART_KEYS = ("host", "port", "tls_certificate", "tls_key")
_LOCK = "trash_reload_lock"


def _shown(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, tuple) and value and all(isinstance(part, str | int) for part in value):
        value = ":".join(map(str, value))
    elif isinstance(value, tuple):
        value = ", ".join(map(str, value)) or "none"
    return visible("none" if value is None else str(value), limit=80)


def changes(old: ServerConfig, new: ServerConfig) -> list[str]:
    """The keys whose value differs, as ``key OLD → NEW`` (``web.key`` for [web])."""
    found = [f"{f.name} {_shown(getattr(old, f.name))} → {_shown(getattr(new, f.name))}"
             for f in fields(ServerConfig) if f.name not in ("source", "web")
             and getattr(old, f.name) != getattr(new, f.name)]
    return found + [f"web.{f.name} {_shown(getattr(old.web, f.name))} → "
                    f"{_shown(getattr(new.web, f.name))}" for f in fields(WebConfig)
                    if getattr(old.web, f.name) != getattr(new.web, f.name)]


async def reload(state: ServerState, port: int, how: str = "SIGHUP") -> str:
    """Reload ``state``'s server (listening on ``port``; asked by ``how``) and return
    the one line saying what changed, what needs a restart and whether the log was
    reopened; reloads are one at a time."""
    lock: asyncio.Lock = state.__dict__.setdefault(_LOCK, asyncio.Lock())
    async with lock:
        line = await _reload(state, port, how)
    state.note(line)
    return line


async def _reload(state: ServerState, port: int, how: str) -> str:
    old = state.config
    parts: list[str] = []
    try:
        new = await asyncio.to_thread(state.load_config)
    except ServeError as exc:
        new = None
        parts.append(f"the config has a problem, the running config stays: {exc}")
    if new is not None:
        restart = [key for key in RESTART_KEYS if getattr(old, key) != getattr(new, key)]
        web_restart = [key for key in WEB_RESTART_KEYS
                       if getattr(old.web, key) != getattr(new.web, key)]
        kept = replace(new, **{key: getattr(old, key) for key in restart},
                       web=replace(new.web, **{key: getattr(old.web, key)
                                               for key in web_restart}))
        changed = changes(old, kept)
        await _apply(state, kept, port)
        if changed:
            parts.append("changed " + ", ".join(changed))
        if restart or web_restart:
            parts.append("needs a restart (the running value stays): " + ", ".join(
                [f"{key} {_shown(getattr(old, key))} → {_shown(getattr(new, key))}"
                 for key in restart] + [f"web.{key} {_shown(getattr(old.web, key))} → "
                                        f"{_shown(getattr(new.web, key))}"
                                        for key in web_restart]))
    motd = await _motd(state)
    if motd:
        parts.append(motd)
    parts.append(_reopen_log(state))
    if new is not None and len(parts) == 1:
        parts.insert(0, "nothing changed")
    return f"trash serve: reloaded ({how}): " + "; ".join(parts)


async def _apply(state: ServerState, config: ServerConfig, port: int) -> None:
    """Put ``config``'s live values in force."""
    state.config = config
    state.slots.total, state.slots.per_address = config.max_sessions, config.sessions_per_ip
    state.connection_slots.total = config.max_connections
    state.connection_slots.per_address = config.connections_per_ip
    state.rate.set_rate(config.connections_per_minute)
    state.limits = SessionLimits(config.session_cpu_seconds,
                                 config.session_memory_mb * 1024 * 1024)
    tables = state.tables
    # (the machine's name may take a DNS look-up)
    tables.reconfigure(replace(tables.limits, max_tables=config.max_tables,
                               tables_per_player=config.tables_per_player,
                               spectators_per_table=config.spectators_per_table,
                               chat_per_minute=config.chat_per_minute,
                               empty_timeout=config.table_empty_timeout),
                       await asyncio.to_thread(public_address, config, port))


async def _motd(state: ServerState) -> str | None:
    """The message of the day's file read again: what changed, or None."""
    path = state.config.motd_file
    if path is None:
        return None
    try:
        text = await asyncio.to_thread(read_motd_file, path)
    except ServeError as exc:
        return f"the message of the day stays: {exc}"
    if text == state.tables.motd:
        return None
    state.tables.set_motd(text)
    return "motd changed" if text else "motd cleared (its file is empty)"


def _reopen_log(state: ServerState) -> str:
    try:
        state.log.reopen(state.config.log)
    except OSError as exc:
        return (f"the connection log {state.config.log} cannot be reopened, the old one "
                f"stays: {exc.strerror or exc}")
    return "connection log reopened"
