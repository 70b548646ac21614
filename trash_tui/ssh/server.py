"""``trash serve``'s SSH server: asyncssh, one app process per session, nothing but the game.

``start_server(config)`` loads the host key and the auth files, opens the connection log,
listens, and returns a ``RunningServer`` (its ``port``, ``session_count``, ``sessions``,
``close()`` to stop accepting and ``await stop()`` to end every session and close).
``host = "::"`` listens on one dual-stack socket (``IPV6_V6ONLY`` off): IPv4 clients too.

What comes in:

- authentication by public key (``auth = "open"``: any key; ``"allow-list"``: the keys of
  ``authorized_keys``) or by password (only with a ``password_file``); host-based and GSS
  are off; after ``MAX_AUTH_FAILURES`` failures the connection is dropped. The player is
  the key's SHA256 fingerprint, or ``password:<user>``.
- a client with no key this server takes (OpenSSH offers its keys first) reaches
  keyboard-interactive, whose one prompt says so in words and how to make a key
  (``ssh-keygen -t ed25519``). With ``auth = "open"`` Enter lets them in as a **guest**
  (``guest:<random>``, new at each connection: no rating, nothing kept); with
  ``"allow-list"`` they are told to send the operator their public key, and refused.
  With a ``password_file`` the same prompt takes a password (checked as by password
  authentication). A guest goes through every limit and ban by address as anyone.
- per address, at most ``connections_per_minute`` new connections (the rest are closed
  at once), ``connections_per_ip`` open connections (``max_connections`` in all),
  ``sessions_per_ip`` sessions (``max_sessions`` in all). A connection has
  ``login_timeout`` s to log in, then ``session_open_timeout`` s to open a session (and
  again after its last session ends), or it is closed.
- a session needs a terminal; commands, subsystems (SFTP), port forwarding, agent and X11
  forwarding are refused. Its window is clamped (``child.clamp_size``), its resizes
  coalesced, its process limited in CPU time and memory (``child.SessionLimits``).

The operator's console (``trash_tui.admin``): bans (an address or network checked the
moment the TCP connection is made: closed before the server's version line, so nothing
of the key exchange is spent on it, logged at most ``BANNED_LINES_PER_MINUTE`` lines a
minute with the rest counted; a key or a password when it is offered: the connection
closes with one line saying the reason and the end, before any session or app), kicks
(the app is told why and says goodbye; its seat goes to the stand-in as for a dropped
connection), the admin socket in the data folder, the figures for ``trash admin stats``
and the optional Prometheus endpoint (``metrics``); watchers of a session's terminal
(``watch``, at most ``MAX_WATCHERS``), recordings of sessions (``record_sessions``,
``recording``) and, at each authenticated login of a key, its address counted
(``admin.seen``).

The server raises its soft descriptor limit to the hard one when it starts. Its notes to
the operator (``reporting.Reporter``) are escaped and a repeated one is written once with a
count; the event loop's and asyncssh's errors go through it too.

Each session's app runs in its own process (``child.PtyChild``); a crash anywhere in one
session is logged and ends that session only. Stopping holds every table still, then
ends each session from the server's side at once (``ServerState.end_for_stop``): the
terminal is taken back from the app and put back as the app found it, and the server
writes plain lines that stay after ``ssh`` returns (``goodbye.py``: the server is stopping
as its operator asked, the player's seat kept and what a restarted table does, the
``ssh`` command to come back) and closes the channel with exit status 75; nothing waits
for the app to draw, so a starved, stopped or booting app changes nothing. The apps get
SIGTERM (every match is saved after every action), ``STOP_GRACE`` seconds to exit, then
SIGKILL; then every connection is closed. The idle goodbye ends with the same kind of
lines, written once the app has left its screen.

The session runner (``serve_session``) is front-neutral: a session's client end
(``client_end.ClientEnd``) is an SSH channel here (``SshEnd``, from ``run_session``, the
process factory) or a browser's WebSocket (``trash_tui.web``, the web face, one of the
running server's ``fronts``): the same refusals, slots, table token, limits, recording,
goodbyes and log line for both, and ``Session.way`` says which.

This module never imports Textual: only the children load the app.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import signal
import socket
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TextIO

import asyncssh
from asyncssh.auth import KbdIntChallenge, KbdIntResponse

from trash_tui.admin import seen
from trash_tui.admin.commands import AdminCommands
from trash_tui.admin.console import AdminConsole
from trash_tui.admin.metrics import ServerMetrics
from trash_tui.admin.moderation import Moderation, Sanction
from trash_tui.admin.server_side import Place
from trash_tui.history import HistoryError
from trash_tui.history.records import MOTD
from trash_tui.play.table_protocol import (
    JOIN_ENV,
    SOCKET_ENV,
    TOKEN_ENV,
    WAY_ENV,
    WEB_URL_ENV,
    normal_code,
)
from trash_tui.players.identity import is_guest, new_guest
from trash_tui.players.rater import open_history
from trash_tui.ssh import recording
from trash_tui.ssh.auth import AllowList, PasswordFile, load_or_create_host_key
from trash_tui.ssh.check import temporary_folder_problem
from trash_tui.ssh.child import (
    IDLE_EXIT_STATUS,
    SESSION_COMMAND,
    PtyChild,
    SessionLimits,
    clamp_size,
    session_environment,
    start_fork_server,
)
from trash_tui.ssh.client_end import ClientEnd, SshEnd
from trash_tui.ssh.config import (
    ServeError,
    ServerConfig,
    load_server_config,
    public_address,
    public_host_problem,
    read_motd_file,
)
from trash_tui.ssh.connlog import ConnectionLog, LogEntry
from trash_tui.ssh.goodbye import (
    STOPPED_EXIT_STATUS,
    SeatKept,
    come_back,
    idle_text,
    lines,
    stopping_text,
)
from trash_tui.ssh.limits import (
    ADDRESS_FULL,
    BANNED_LINES_PER_MINUTE,
    FULL_MESSAGE,
    LogThrottle,
    RateLimiter,
    SessionSlots,
    address_full_message,
)
from trash_tui.ssh.reload import reload as reload_server
from trash_tui.ssh.reporting import Reporter
from trash_tui.ssh.watch import MAX_WATCHERS, Watcher
from trash_tui.tables.linking import LinkCodes
from trash_tui.tables.service import TableLimits, TableService
from trash_tui.tables.table import PLAYING, WAITING
from trash_tui.tables.worker import Worker
from trash_tui.text import clean

STOP_GRACE = 5.0  # seconds the apps have to exit when the server stops (the players are told)
CLOSE_WAIT = 2.0  # seconds for a client to close its channel after the exit status
MAX_AUTH_FAILURES = 6
SERVER_VERSION = "trash-tui"
NO_TERMINAL_MESSAGE = "trash: this is a game: connect with a terminal (ssh -t)"
COMMAND_MESSAGE = "trash: this is a game: commands cannot be run here (connect without one)"
SUBSYSTEM_MESSAGE = "trash: this is a game: subsystems such as {name} are not available"
ERROR_MESSAGE = "trash: something went wrong on the server, sorry; try again later"
STOPPING_MESSAGE = "trash: the server is stopping, try again later"
#: Said to a client with no key this server takes (keyboard-interactive's one prompt;
#: OpenSSH puts "(user@host) " before the first line), then the question.
NO_KEY_GUEST = """Welcome to Trash!
You have no SSH key, so this server cannot tell it is you next time.
You can play now as a guest: no rating, and a name asked at every visit.
To keep your name and get a rating, make a key once and connect again:
    ssh-keygen -t ed25519"""
NO_KEY_REFUSED = """Welcome to Trash!
This server lets in only the SSH keys its operator has listed, and this
connection offered none of them. If you have no key, make one:
    ssh-keygen -t ed25519
then send the operator your public key (the line in ~/.ssh/id_ed25519.pub)
and connect again once they have added it."""
ENTER_FOR_GUEST = "Press Enter to play as a guest (ctrl+c to leave): "
ENTER_TO_CLOSE = "Press Enter to close: "
PASSWORD_OR_GUEST = "Your password if the operator gave you one, else Enter to play as a guest: "
PASSWORD_OR_CLOSE = "Your password if the operator gave you one, else Enter to close: "
_GAME = "trash_game_connection"  # the connection's extra-info key for its GameConnection
KICK_GRACE = 6.0  # seconds a kicked session's app has to say goodbye before it is killed
CPU_SAMPLE_EVERY = 5.0  # seconds between two samples of the sessions' CPU time
GAUGES_WAIT = 2.0  # seconds a scrape waits for the event loop to read the gauges
#: bytes an app has written once its first screen is up (a session with no table link yet
#: is booting before, in the lobby after)
FIRST_SCREEN_BYTES = 4096


@dataclass
class Session:
    """One session being played (or refused), over SSH or from a browser (``way``): what
    the log and the operator see."""

    peer: str
    address: str
    player: str | None
    term: str | None = None
    size: str | None = None
    username: str = ""  # the SSH user name or the web link's code (a table's join code?)
    started: float = field(default_factory=time.monotonic)
    child: PtyChild | None = None
    token: str = ""  # the session's token at the table service
    kicked: str | None = None  # why the operator ended it
    stopping: bool = False  # the server asked this session's app to stop
    done: asyncio.Event = field(default_factory=asyncio.Event)
    end: ClientEnd | None = None  # the client's end: its SSH channel's, its WebSocket's
    colorterm: str | None = None  # the client's COLORTERM, if it said
    told: bool = False  # the server has written its goodbye on the terminal

    @property
    def way(self) -> str:
        """How the player came in: "ssh" or "web"."""
        return self.end.way if self.end is not None else "ssh"

    @property
    def pid(self) -> int | None:
        """The app's process id (None before it has started)."""
        return self.child.pid if self.child is not None else None


class ServerState:
    """What all connections share: the config, limits, auth files, log and sessions."""

    def __init__(self, config: ServerConfig, log: ConnectionLog,
                 allow_list: AllowList | None, passwords: PasswordFile | None,
                 command: tuple[str, ...], echo: TextIO | None,
                 address: tuple[str, int] | None = None,
                 link_codes: Callable[[Worker], LinkCodes] | None = None) -> None:
        self.config = config
        self.log = log
        self.allow_list = allow_list
        self.passwords = passwords
        self.command = command
        self.echo = echo
        self.rate = RateLimiter(config.connections_per_minute)
        self.banned_lines = LogThrottle(BANNED_LINES_PER_MINUTE)
        self.slots = SessionSlots(config.max_sessions, config.sessions_per_ip)
        self.connection_slots = SessionSlots(config.max_connections, config.connections_per_ip)
        self.limits = SessionLimits(config.session_cpu_seconds,
                                    config.session_memory_mb * 1024 * 1024)
        self.sessions: list[Session] = []
        self.connections: set[GameConnection] = set()
        self.watchers: set[Watcher] = set()  # the operator's, on every session together
        self.max_watchers = MAX_WATCHERS
        self.stopping = False
        self.reporter = Reporter(echo)
        self.metrics = ServerMetrics()
        self.metrics_address: str | None = None  # "host:port" of the endpoint, if any
        self.moderation = Moderation()
        self.console: AdminConsole | None = None
        self.sampler: asyncio.Future[None] | None = None
        self.pruner: asyncio.Future[None] | None = None  # deletes recordings past their days
        #: the one thread of the engine, the bots and the history database: the table
        #: service's, the console's and this state's
        self.worker = Worker(config.history)
        self.tables = TableService(config.history, TableLimits(
            max_tables=config.max_tables, tables_per_player=config.tables_per_player,
            spectators_per_table=config.spectators_per_table,
            chat_per_minute=config.chat_per_minute, empty_timeout=config.table_empty_timeout,
            chat_days=config.chat_days),
            report=self.report, public_address=address, worker=self.worker,
            mutes=self.moderation, on_move=self.metrics.move,
            on_report=self.metrics.reports.inc,
            note=self.reporter.report,  # (a player's report is not an error)
            # the web face's maker of link codes (``trash_tui.web.identity.Browsers``),
            # on this worker; none: no web face
            link_codes=None if link_codes is None else link_codes(self.worker))
        self.metrics.read_gauges = self.gauges_from_any_thread
        self.loop: asyncio.AbstractEventLoop | None = None
        self.admin = AdminCommands(self)
        #: how a reload reads the config again (``trash serve`` gives its file and
        #: command line; default: the file the config came from)
        self.load_config: Callable[[], ServerConfig] = lambda: load_server_config(
            config.source) if config.source else config
        self.port = config.port  # the port listened on (known once listening)
        self.web_url: str | None = None  # the web face's page, when it is on

    def note(self, line: str) -> None:
        """A line for the operator on the server's log (stderr), as it is."""
        with contextlib.suppress(OSError, ValueError):
            print(line, file=self.echo if self.echo is not None else sys.stderr, flush=True)

    async def reload(self, how: str = "SIGHUP") -> str:
        """Read the config and the motd file again, reopen the log (``reload.py``); the
        one line saying what changed and what needs a restart."""
        return await reload_server(self, self.port, how)

    def report(self, message: str, detail: str = "") -> None:
        """A note on the server's stderr (an operator's, never a secret): escaped, and
        written once with a count when it repeats (``Reporter``)."""
        self.metrics.errors.inc()
        self.reporter.report(message, detail)

    def sum_up_banned(self) -> None:
        """One log line for the banned connections left out of the log since its last
        line about them, if any (every minute, and when the server stops)."""
        left_out = self.banned_lines.pending()
        if left_out:
            self.log.write(LogEntry("connection", "-", f"refused: banned ({left_out} more "
                                    "banned connections not logged)", 0.0))

    def watch(self, session: Session, name: str) -> Watcher | None:
        """A new watcher of ``session``'s terminal, its app asked to draw its whole
        screen again; None when ``MAX_WATCHERS`` are watching already."""
        child = session.child
        if child is None or child.output_ended or len(self.watchers) >= self.max_watchers:
            return None
        columns, rows = child.size[0], child.size[1]

        def gone(watcher: Watcher) -> None:
            self.watchers.discard(watcher)
            with contextlib.suppress(ValueError):
                child.taps.remove(watcher)

        watcher = Watcher({"name": name, "key": session.player or "", "width": columns,
                           "height": rows}, gone)
        self.watchers.add(watcher)
        child.taps.append(watcher)
        child.redraw()
        return watcher

    def record(self, session: Session) -> None:
        """Record ``session``'s terminal from its first byte (``record_sessions``)."""
        child, config = session.child, self.config
        if child is None or not config.record_sessions:
            return
        made = recording.Recording.start(config.recordings_path, session.player or "?",
                               session.address, child.size[0], child.size[1],
                               session.term or "", child.pid,
                               config.recording_max_mb * recording.MEGABYTE, self.report)
        if made is not None:
            child.taps.append(made)

    def saw(self, identity: str, address: str) -> None:
        """Count an authenticated connection of ``identity`` from ``address``
        (``admin.seen``: one row per pair; a guest, new at every connection, is not kept)."""
        if is_guest(identity) or self.stopping:
            return

        async def count() -> None:
            try:
                await self.worker.db(lambda history: seen.record(history, identity, address))
            except Exception as exc:  # (a full disk must not end the connection)
                self.report(f"cannot count a connection in the history: {exc}")

        self.worker.spawn(count())

    def refused(self, reason: str) -> None:
        """Count a refused connection or session (the reason is the server's own words)."""
        self.metrics.refused.labels(reason=reason).inc()

    @property
    def history_path(self) -> Path:
        return self.config.history

    def place(self, session: Session) -> Place | None:
        """Where a running session is (None before its app has started): at the table
        service, where its app is; with no link yet, booting, or in the lobby once its
        app has drawn a first screen (``FIRST_SCREEN_BYTES``)."""
        if session.child is None:
            return None
        client = self.tables.client_of(session.token)
        if client is not None:
            return Place(client.where(), self.tables.where(client), client.name)
        state = "lobby" if session.child.written >= FIRST_SCREEN_BYTES else "booting"
        return Place(state, state, "")

    def gauges(self) -> dict[str, dict[str, int]]:
        """Sessions by where they are, tables by status, sanctions in force."""
        sessions: dict[str, int] = {}
        for session in self.sessions:
            place = self.place(session)
            if place is not None:
                sessions[place.state] = sessions.get(place.state, 0) + 1
        tables: dict[str, int] = {}
        for table in self.tables.tables.values():
            tables[table.status] = tables.get(table.status, 0) + 1
        sanctions: dict[str, int] = {}
        for sanction in self.moderation.active():
            sanctions[sanction.action] = sanctions.get(sanction.action, 0) + 1
        return {"sessions": sessions, "tables": tables, "sanctions": sanctions}

    def gauges_from_any_thread(self) -> dict[str, dict[str, int]]:
        """``gauges`` read in the event loop's thread (the metrics endpoint scrapes from
        a thread of its own; the sessions and tables change in the loop's)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return {}
        try:
            if asyncio.get_running_loop() is loop:
                return self.gauges()
        except RuntimeError:
            pass

        async def read() -> dict[str, dict[str, int]]:
            return self.gauges()

        try:
            return asyncio.run_coroutine_threadsafe(read(), loop).result(GAUGES_WAIT)
        except Exception:
            return {}

    def kick(self, match: Callable[[Session], bool], why: str) -> int:
        """End every running session ``match`` picks: its app is told ``why`` (and says
        goodbye), its seat goes to the stand-in; killed after ``KICK_GRACE`` s. How many."""
        count = 0
        for session in list(self.sessions):
            if session.child is None or session.kicked is not None or not match(session):
                continue
            session.kicked = why
            count += 1
            self.metrics.kicks.inc()
            told = self.tables.kick(session.token, why)
            self.worker.spawn(self._end_kicked(session, KICK_GRACE if told else 0.0))
        return count

    def end_for_stop(self, session: Session) -> None:
        """The server is stopping: ``session``'s terminal is taken back from its app at
        once and told, in plain text that stays after ``ssh`` returns, that the server is
        stopping, what becomes of the player's seat and how to come back; the channel is
        closed with ``STOPPED_EXIT_STATUS``. The app is told to exit (SIGTERM); nothing
        waits for it to draw anything, so a starved or stopped app costs the player
        nothing. A session still waiting for its turn to start is told the same (its app,
        if it starts meanwhile, is killed at once: it has done nothing yet)."""
        session.stopping = True
        child, end = session.child, session.end
        if session.told:
            if child is not None:
                child.take_terminal()
                child.signal(signal.SIGKILL)
            return
        if child is None and not (session.token and end is not None):
            return  # not started: being refused, or about to be (with STOPPING_MESSAGE)
        session.told = True
        notice = self.tables.desk.notice
        said = clean(notice[0], 300) if notice and notice[1] > time.monotonic() else None
        seat = self.seat_kept(session)
        paragraphs = stopping_text(seat, self.come_back(session, seat), said)
        if child is None and end is not None:  # nothing drawn yet
            with contextlib.suppress(OSError):
                end.write(lines(paragraphs, clamp_size(*end.size())[0]))
                end.exit(STOPPED_EXIT_STATUS)
            return
        if child is not None:
            child.farewell(paragraphs, STOPPED_EXIT_STATUS)
            child.signal(signal.SIGTERM)

    def seat_kept(self, session: Session) -> SeatKept | None:
        """The seat ``session``'s player holds at an open shared table (the one its
        app is at first), if any: a returning player is sent back to it."""
        identity = session.player or ""
        client = self.tables.client_of(session.token)
        tables = list(self.tables.tables.values())
        if client is not None and client.table in tables:
            tables.remove(client.table)
            tables.insert(0, client.table)
        table = next((t for t in tables if t.status in (WAITING, PLAYING)
                      and t.seat_of(identity) is not None), None)
        if table is None:
            return None
        return SeatKept(clean(table.config.name, 32), table.code, table.status == PLAYING,
                        self.config.table_empty_timeout)

    def come_back(self, session: Session, seat: SeatKept | None) -> str | None:
        """The ``ssh`` command that brings ``session``'s player back (to their seat's
        table by its code, when they hold one); for a browser, the page's link."""
        if session.way == "web" and self.web_url:
            return f"{self.web_url}/t/{seat.code}" if seat else f"{self.web_url}/"
        return come_back(self.tables.public_address, seat.code if seat else None)

    async def _end_kicked(self, session: Session, grace: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(session.done.wait(), grace)
        if not session.done.is_set() and session.child is not None:
            session.child.signal(signal.SIGKILL)


class GameConnection(asyncssh.SSHServer):
    """One client connection: rate limit, authentication, refused forwarding."""

    def __init__(self, state: ServerState) -> None:
        self.state = state
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.address = "?"
        self.started = time.monotonic()
        self.candidate: str | None = None  # the identity the last accepted check gave
        self.player: str | None = None  # set once authentication succeeded
        self.username = ""  # the SSH user name: a table's join code, if it is one
        self.failures = 0
        self.told = False  # a client with no key was told how to make one
        self.sessions = 0  # sessions opened so far
        self.open_sessions = 0  # sessions open now
        self.holds_slot = False  # counted in the server's connection slots
        self.deadline: asyncio.TimerHandle | None = None  # to open a session
        self.refused: str | None = None
        self.refused_key: str | None = None  # the banned key this connection was refused
        self.quiet = False  # end without a log line
        self.early = False  # refused for a ban the moment the connection was made

    # --- the connection ------------------------------------------------------------------
    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        self.peer = f"[{peer[0]}]:{peer[1]}" if ":" in self.address else f"{peer[0]}:{peer[1]}"
        conn.set_extra_info(**{_GAME: self})
        self.state.connections.add(self)
        if self.state.stopping:
            self.refuse_at_once("server stopping")
            return
        if self.state.moderation.banned(None, self.address) is not None:
            self.early = True  # (logged at most BANNED_LINES_PER_MINUTE lines a minute)
            self.refuse_at_once("banned")
            return
        allowed, refusals = self.state.rate.take(self.address)
        if not allowed:
            self.quiet = refusals > 1  # log the first refusal of a run only
            self.refuse_at_once("rate limit")
        elif not self.state.connection_slots.acquire(self.address):
            self.refuse_at_once("too many connections")
        else:
            self.holds_slot = True

    def refuse_at_once(self, reason: str) -> None:
        """Close the connection being made before the server's version line: nothing of
        the key exchange is spent on it, and the client is sent nothing (an SSH packet
        now would come before the version line, which clients call an invalid banner;
        OpenSSH says "Connection closed by remote host")."""
        self.refused = reason
        if self.conn is not None:
            self.conn.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.quiet:
            self.state.refused("rate limit")
        self.state.connections.discard(self)
        self._cancel_deadline()
        if self.holds_slot:
            self.holds_slot = False
            self.state.connection_slots.release(self.address)
        if self.quiet or (self.sessions and not self.refused):
            return  # each session has logged its own line
        if self.early:
            self.state.refused("banned")
            left_out = self.state.banned_lines.admit()
            if left_out is None:
                return  # (counted: summed up in the next line or by ``sum_up_banned``)
            ended = "refused: banned" + (f" ({left_out} more banned connections not logged "
                                         "before this one)" if left_out else "")
        elif self.refused:
            ended = f"refused: {self.refused}"
            self.state.refused(self.refused if not self.refused.startswith("no session")
                               else "no session opened")
        elif self.player is None and self.failures:
            ended = "refused: authentication failed"
            self.state.refused("authentication failed")
        elif self.player is None and isinstance(exc, asyncssh.Error) and exc.reason:
            ended = f"disconnected before login: {exc.reason}"
        else:
            ended = "disconnected" + ("" if self.player else " before login")
        self.state.log.write(LogEntry("connection", self.peer, ended,
                                      time.monotonic() - self.started,
                                      self.player or self.refused_key))

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()

    # --- the deadline to open a session ----------------------------------------------------
    def start_deadline(self) -> None:
        """Give the logged-in connection ``session_open_timeout`` s to open a session."""
        self._cancel_deadline()
        self.deadline = asyncio.get_running_loop().call_later(
            self.state.config.session_open_timeout, self._no_session)

    def _cancel_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _no_session(self) -> None:
        self.deadline = None
        if self.open_sessions == 0 and self.conn is not None:
            self.refused = (f"no session opened in {self.state.config.session_open_timeout:g} s")
            self.conn.close()

    def session_opened(self) -> None:
        self.sessions += 1
        self.open_sessions += 1
        self._cancel_deadline()

    def session_closed(self) -> None:
        self.open_sessions -= 1
        if self.open_sessions == 0 and self.player is not None and self.conn is not None:
            self.start_deadline()

    # --- authentication ------------------------------------------------------------------
    def begin_auth(self, username: str) -> bool:
        self.username = username
        self.refuse_if_banned(None)
        return True  # everyone authenticates (a banned address is gone by now)

    def refuse_if_banned(self, key: str | None) -> bool:
        """Whether this address (or ``key``) is banned: then the connection is closed with
        one line saying the reason and the end (the disconnect's reason, which SSH clients
        show: OpenSSH's "Received disconnect from HOST: 1: trash: You are banned ...")."""
        sanction = self.state.moderation.banned(key, self.address)
        if sanction is None or self.conn is None:
            return False
        self.refused = "banned"
        self.refused_key = key  # logged: which key came back
        self.conn.disconnect(asyncssh.DISC_HOST_NOT_ALLOWED_TO_CONNECT,
                             f"trash: {sanction.line()}")
        return True

    def auth_completed(self) -> None:
        self.player = self.candidate
        if self.player is not None:
            self.state.saw(self.player, self.address)
        if self.open_sessions == 0:
            self.start_deadline()

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        allow_list = self.state.allow_list
        if allow_list is not None:
            before = allow_list.problem
            allow_list.refresh()
            if allow_list.problem and allow_list.problem != before:
                self.state.report("the authorized keys file is broken, the previous keys "
                                  f"stay in use: {allow_list.problem}")
            if not allow_list.allows(key, self.address, self.address):
                self.failed()
                return False
        fingerprint = key.get_fingerprint("sha256")
        if self.refuse_if_banned(fingerprint):
            return False
        self.candidate = fingerprint
        return True

    def password_auth_supported(self) -> bool:
        return self.state.passwords is not None

    async def validate_password(self, username: str, password: str) -> bool:
        passwords = self.state.passwords
        if passwords is None:
            return False
        ok = await asyncio.to_thread(passwords.check, username, password)
        if ok and self.refuse_if_banned(f"password:{username}"):
            return False
        if ok:
            self.candidate = f"password:{username}"
        else:
            self.failed()
        return ok

    # --- no key: keyboard-interactive, the words, a guest -----------------------------------
    # OpenSSH offers its keys first (publickey), so a client reaches keyboard-interactive
    # only when it has no key this server takes. Its one prompt carries the words (a
    # prompt is shown at any LogLevel; the instruction and banners are not).
    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str,
                             submethods: str) -> KbdIntChallenge:
        passwords = self.state.passwords is not None
        guests = self.state.allow_list is None
        if self.told and not (passwords or guests):
            self.failed()
            return False  # (OpenSSH asks again up to three times: said once is enough)
        self.told = True
        text = NO_KEY_GUEST if guests else NO_KEY_REFUSED
        last = (PASSWORD_OR_GUEST if guests else PASSWORD_OR_CLOSE) if passwords else \
            (ENTER_FOR_GUEST if guests else ENTER_TO_CLOSE)
        return "", "", "", [(f"{text}\n{last}", False)]

    async def validate_kbdint_response(self, username: str, responses: KbdIntResponse
                                       ) -> KbdIntChallenge:
        answer = responses[0] if responses else ""
        if answer and self.state.passwords is not None:
            return await self.validate_password(username, answer)
        if answer or self.state.allow_list is not None:
            # a password with no password file is refused as before; no guests with
            # an allow-list (the words were said)
            self.failed()
            return False
        if self.refuse_if_banned(None):  # (by address: a guest has nothing else)
            return False
        self.candidate = new_guest()
        return True

    def failed(self) -> None:
        """Count a failed attempt; too many close the connection."""
        self.failures += 1
        if self.failures >= MAX_AUTH_FAILURES and self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                 "too many authentication failures")

    # --- no forwarding of any kind -------------------------------------------------------
    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str,
                             orig_port: int) -> bool:
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False


def _client_status(status: int) -> int:
    """The exit status to send the client: the app's, or 128 + signal like a shell."""
    return status if status >= 0 else 128 - status


def _ending(status: int, stopping: bool) -> str:
    if stopping:
        return "server stopping"
    if status == 0:
        return "quit"
    if status == IDLE_EXIT_STATUS:
        return "idle"
    if status < 0:
        return f"error: the app was killed by signal {-status}"
    return f"error: the app exited with status {status}"


def _ssh_refusal(process: asyncssh.SSHServerProcess) -> tuple[str, str, str] | None:
    """What an SSH session must be refused before anything else (a subsystem, a command,
    no terminal): (the line said, the metrics' reason, the log's ending); None: go on."""
    if process.subsystem is not None:  # (never the client's name in a label: ours)
        return (SUBSYSTEM_MESSAGE.format(name=process.subsystem), "subsystem",
                f"refused: subsystem {process.subsystem}")
    if process.command is not None:
        return COMMAND_MESSAGE, "command", "refused: command"
    if process.get_terminal_type() is None:
        return NO_TERMINAL_MESSAGE, "no terminal", "refused: no terminal"
    return None


async def _play(state: ServerState, session: Session,
                refusal: tuple[str, str, str] | None) -> tuple[str, int | None]:
    """Run one session; returns how it ended and the app's exit status (if it ran)."""
    end = session.end
    assert end is not None
    if refusal is not None:
        message, reason, ended = refusal
        end.refuse(message)
        state.refused(reason)
        return ended, None
    if state.stopping:
        end.refuse(STOPPING_MESSAGE)
        state.refused("server stopping")
        return "refused: server stopping", None
    refused = state.slots.take(session.address)
    if refused == ADDRESS_FULL:  # the server may have room: it is this address that has not
        end.refuse(f"trash: {address_full_message(state.slots.per_address)}")
        state.refused("too many sessions from this address")
        return "refused: too many sessions from this address", None
    if refused is not None:
        end.refuse(f"trash: {FULL_MESSAGE}")
        state.refused("server full")
        return "refused: server full", None
    token = state.tables.register(session.player or "", session.address)
    session.token = token
    try:
        env = session_environment(state.config, session.player or "", session.term or "",
                                  session.colorterm)
        env[SOCKET_ENV] = str(state.tables.socket_path)
        env[TOKEN_ENV] = token
        code = normal_code(session.username)
        if code is not None:
            env[JOIN_ENV] = code
        env[WAY_ENV] = session.way
        if state.web_url:
            env[WEB_URL_ENV] = state.web_url
        session.child = await PtyChild.start(end, env, state.command, state.limits)
        state.record(session)  # (before the app's first byte is read)
        state.metrics.sessions.labels(way=session.way).inc()
        if state.stopping:  # stop() began while the app was starting
            state.end_for_stop(session)
        disconnected, status = await session.child.run()
    finally:
        state.slots.release(session.address)
        state.tables.unregister(token)
    if disconnected:
        return ("server stopping" if session.stopping else "disconnected"), status
    child = session.child
    if session.kicked is not None:
        with contextlib.suppress(OSError):
            end.write(child.take_terminal() + b"\r\n")
        end.refuse("trash: the server's operator ended this session: "
                   f"{clean(session.kicked, 300)}")
        return f"kicked: {clean(session.kicked, 200)}", status
    if status == IDLE_EXIT_STATUS and not session.stopping:
        seat = state.seat_kept(session)
        child.farewell(idle_text(state.config.idle_timeout, seat,
                                 state.come_back(session, seat)), status)
    with contextlib.suppress(OSError):
        end.exit(_client_status(status))
    return _ending(status, session.stopping), status


async def serve_session(state: ServerState, session: Session,
                        refusal: tuple[str, str, str] | None = None,
                        finished: Callable[[], None] | None = None) -> None:
    """One session of any front (``session.end``: SSH or web), isolated: refused (with
    ``refusal`` first, if given) or played, then logged; any failure is logged, never
    raised. ``finished`` runs once the session has ended, before its log line."""
    end = session.end
    assert end is not None
    state.sessions.append(session)
    status: int | None = None
    ended = "error"
    try:
        ended, status = await _play(state, session, refusal)
        with contextlib.suppress(TimeoutError, OSError):
            await asyncio.wait_for(end.wait_closed(), CLOSE_WAIT)
    except asyncio.CancelledError:
        ended = "server stopping" if state.stopping else "disconnected"
        raise
    except Exception as exc:
        ended = " ".join(f"error: {type(exc).__name__}: {exc}".split())
        state.report(f"a session failed: {type(exc).__name__}: {exc}",
                     f"(the session of {session.peer})\n" + traceback.format_exc())
        with contextlib.suppress(Exception):
            end.refuse(ERROR_MESSAGE)
    finally:
        state.sessions.remove(session)
        session.done.set()
        if finished is not None:
            finished()
        with contextlib.suppress(Exception):
            state.log.write(LogEntry("session", session.peer, ended,
                                     time.monotonic() - session.started, session.player,
                                     session.term, session.size, status))


async def run_session(state: ServerState, process: asyncssh.SSHServerProcess) -> None:
    """The SSH process factory: one session over ``process`` (``serve_session``)."""
    game: GameConnection | None = process.get_extra_info(_GAME)
    colorterm = process.env.get("COLORTERM")
    session = Session(game.peer if game else "?", game.address if game else "?",
                      game.player if game else None,
                      username=game.username if game else "", end=SshEnd(process),
                      colorterm=colorterm if isinstance(colorterm, str) else None)
    if game is not None:
        game.session_opened()
    session.term = process.get_terminal_type()
    if session.term is not None:
        columns, rows, _, _ = clamp_size(*process.get_terminal_size())
        session.size = f"{columns}x{rows}"

    def finished() -> None:
        if game is not None:
            game.session_closed()
            if session.kicked is not None:
                game.close()

    await serve_session(state, session, _ssh_refusal(process), finished)


class Front(Protocol):
    """Another face of the server (the web's): ``close`` stops accepting, ``stop`` closes
    what is left once the sessions have ended."""

    def close(self) -> None: ...

    async def stop(self) -> None: ...


class RunningServer:
    """A listening server: ``port``, ``session_count``, ``close()``, ``await stop()``."""

    def __init__(self, acceptor: asyncssh.SSHAcceptor, state: ServerState,
                 host_key: asyncssh.SSHKey) -> None:
        self.acceptor = acceptor
        self.state = state
        self.config = state.config
        self.host_key_fingerprint = host_key.get_fingerprint("sha256")
        self.port: int = acceptor.get_port()
        self.stopped = asyncio.Event()
        self.fronts: list[Front] = []  # the other faces (the web's), closed with it
        self._stop_task: asyncio.Task[int] | None = None
        self._previous_handler: Any = None
        self._log_handler: logging.Handler | None = None
        self._previous_propagate = True

    @property
    def sessions(self) -> list[Session]:
        """The sessions whose app is running now (not those being refused)."""
        return [session for session in self.state.sessions if session.child is not None]

    @property
    def session_count(self) -> int:
        """How many sessions have their app running now."""
        return len(self.sessions)

    def describe(self) -> str:
        """The one line ``trash serve`` prints when it starts."""
        config = self.config
        auth = config.auth
        if self.state.allow_list is not None:
            auth += f" ({self.state.allow_list.count} keys)"
        passwords = (f"passwords for {len(self.state.passwords.users)} users"
                     if self.state.passwords is not None else "passwords off")
        host = f"[{config.host}]" if ":" in config.host else config.host
        return (f"trash serve: listening on {host}:{self.port} (host key "
                f"{self.host_key_fingerprint}; auth {auth}; {passwords}; at most "
                f"{config.max_sessions} sessions, {config.sessions_per_ip} per address, "
                f"{config.max_connections} connections, {config.connections_per_ip} per "
                f"address; log {config.log}; admin socket {config.admin_path}"
                + (f"; metrics http://{self.state.metrics_address}/metrics"
                   if self.state.metrics_address else "") + ")")

    def warnings(self) -> list[str]:
        """The lines ``trash serve`` prints after ``describe`` about what players would
        find wrong (``public_host`` unset where the join hint names a container)."""
        problem = public_host_problem(self.config, self.port)
        return [f"trash serve: warning: {problem}"] if problem else []

    def close(self) -> None:
        """Stop accepting new connections (running sessions go on)."""
        self.acceptor.close()
        for front in self.fronts:
            front.close()

    async def stop(self, grace: float = STOP_GRACE) -> int:
        """Stop: tell every app (SIGTERM), wait up to ``grace`` s, SIGKILL the rest,
        close every connection. Returns the number of sessions it ended. Calling it again
        waits for the first call."""
        if self._stop_task is None:
            self._stop_task = asyncio.ensure_future(self._stop(grace))
        return await asyncio.shield(self._stop_task)

    async def _stop(self, grace: float) -> int:
        state = self.state
        state.stopping = True
        self.close()
        state.tables.hold()  # no table moves while its players are being sent away
        sessions = list(state.sessions)  # with those being refused: wait for them too
        playing = 0
        for session in sessions:
            if session.child is not None:
                playing += 1
            state.end_for_stop(session)
        waits = [asyncio.ensure_future(session.done.wait()) for session in sessions]
        if waits:
            _, late = await asyncio.wait(waits, timeout=grace)
            if late:
                for session in sessions:
                    if not session.done.is_set() and session.child is not None:
                        session.child.signal(signal.SIGKILL)
                _, late = await asyncio.wait(late, timeout=2.0)
                for waiting in late:
                    waiting.cancel()
        for connection in list(state.connections):
            connection.close()
        for front in self.fronts:
            with contextlib.suppress(Exception):
                await front.stop()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.acceptor.wait_closed(), 2.0)
        for _ in range(40):  # let connection_lost log the last lines
            if not state.connections:
                break
            await asyncio.sleep(0.05)
        await _stop_operator_side(state)
        await state.tables.stop()
        state.sum_up_banned()
        state.log.close()
        state.reporter.flush()
        self._restore_error_handlers()
        self.stopped.set()
        return playing

    def take_error_handlers(self) -> None:
        """Route the event loop's and asyncssh's errors through the server's reporter."""
        loop = asyncio.get_running_loop()
        self._previous_handler = loop.get_exception_handler()
        loop.set_exception_handler(self.state.reporter.loop_handler)
        self._log_handler = self.state.reporter.log_handler()
        logger = logging.getLogger("asyncssh")
        self._previous_propagate = logger.propagate
        logger.addHandler(self._log_handler)
        logger.propagate = False

    def _restore_error_handlers(self) -> None:
        if self._log_handler is None:
            return
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().set_exception_handler(self._previous_handler)
        logger = logging.getLogger("asyncssh")
        logger.removeHandler(self._log_handler)
        logger.propagate = self._previous_propagate
        self._log_handler = None


async def _start_operator_side(state: ServerState) -> None:
    """The bans and the message of the day from the history database, its writes timed,
    the admin socket, the metrics endpoint (if configured) and the CPU sampler."""
    service = state.tables
    state.loop = asyncio.get_running_loop()
    try:
        for row in await state.worker.db(lambda history: history.records.sanctions_in_force()):
            state.moderation.add(Sanction(*row))
        service.set_motd(await state.worker.db(lambda history: history.records.setting(MOTD)))
    except Exception as exc:
        raise ServeError(f"{state.config.history}: cannot read the bans: {exc}") from None
    if state.config.motd_file is not None:  # (the file's wins over the last one set)
        service.set_motd(read_motd_file(state.config.motd_file))
    if state.worker.history is not None:
        state.worker.history.write_observer = state.metrics.write_timed
    console = AdminConsole(state.config.admin_path, state.admin.run, state.report)
    try:
        await console.start()
    except (OSError, RuntimeError) as exc:
        raise ServeError(f"{state.config.admin_path}: cannot open the admin socket: "
                         f"{getattr(exc, 'strerror', None) or exc}") from None
    state.console = console
    if state.config.metrics is not None:
        host, port = state.config.metrics
        try:
            port = await state.metrics.serve(host, port)
        except OSError as exc:
            raise ServeError(f"metrics: cannot listen on {host}:{port}: "
                             f"{exc.strerror or exc}") from None
        state.metrics_address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    state.sampler = asyncio.ensure_future(_sample_cpu(state))
    await _prune_recordings(state)
    state.pruner = asyncio.ensure_future(_prune_recordings(state, recording.PRUNE_EVERY))


async def _prune_recordings(state: ServerState, every: float = 0.0) -> None:
    """Delete the recordings older than ``recordings_days``: once, or every ``every``
    seconds (also when recording is off: what was recorded goes in its time)."""
    while True:
        if every:
            await asyncio.sleep(every)
        await asyncio.to_thread(recording.prune, state.config.recordings_path,
                                state.config.recordings_days)
        if not every:
            return


async def _sample_cpu(state: ServerState) -> None:
    """Count the sessions' CPU time every few seconds (a process's is gone once it ends)."""
    summed_up = time.monotonic()
    while True:
        await asyncio.sleep(CPU_SAMPLE_EVERY)
        state.metrics.sample_cpu([s.pid for s in state.sessions if s.pid is not None])
        if time.monotonic() - summed_up >= 60.0:
            summed_up = time.monotonic()
            state.sum_up_banned()


async def _stop_operator_side(state: ServerState) -> None:
    if state.sampler is not None:
        state.sampler.cancel()
    if state.pruner is not None:
        state.pruner.cancel()
    if state.console is not None:
        await state.console.stop()
        state.console = None
    state.metrics.stop()


def raise_descriptor_limit() -> int:
    """Raise the soft limit on open descriptors to the hard one (every connection and
    session holds some); the limit now."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    except (OSError, ValueError):
        return -1
    return soft


def dual_stack_socket(port: int) -> socket.socket:
    """A listening TCP socket on every interface, IPv6 and IPv4 alike: ``::`` with
    ``IPV6_V6ONLY`` off (asyncio turns it on for an IPv6 wildcard, refusing IPv4 clients).
    OSError when it cannot be made or bound."""
    sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(("::", port))
        sock.listen(100)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def _prepare_folders(config: ServerConfig) -> None:
    try:
        config.players_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise ServeError(f"{config.players_dir}: cannot create the players folder: "
                         f"{exc.strerror or exc}") from None
    try:
        open_history(config.history).close()
    except HistoryError as exc:
        raise ServeError(f"{config.history}: {exc}") from None


async def start_server(config: ServerConfig, echo: TextIO | None = None,
                       command: tuple[str, ...] = SESSION_COMMAND,
                       link_codes: Callable[[Worker], LinkCodes] | None = None
                       ) -> RunningServer:
    """Start listening as ``config`` says. ``echo`` receives the human log lines (default
    stderr); ``command`` is the child each session runs; ``link_codes`` makes, on the
    server's worker, the web face's maker of link codes (the web face's ``Browsers``; none:
    no web face). ServeError on any start-up problem (host key, auth files, folders, no
    temporary folder, log, address in use)."""
    temporary = temporary_folder_problem()
    if temporary:  # (a read-only container without a tmpfs: say what to add)
        raise ServeError(temporary)
    host_key = load_or_create_host_key(config.host_key)
    allow_list = AllowList(config.authorized_keys) if config.auth == "allow-list" and \
        config.authorized_keys is not None else None
    passwords = PasswordFile(config.password_file) if config.password_file else None
    _prepare_folders(config)
    try:
        log = ConnectionLog(config.log, echo)
    except OSError as exc:
        raise ServeError(f"{config.log}: cannot open the connection log: "
                         f"{exc.strerror or exc}") from None
    raise_descriptor_limit()
    loop = asyncio.get_running_loop()  # (the machine's name may take a DNS look-up)
    address = await loop.run_in_executor(None, public_address, config, config.port)
    state = ServerState(config, log, allow_list, passwords, command, echo, address,
                        link_codes)
    try:
        await state.tables.start()
    except (OSError, HistoryError) as exc:
        log.close()
        raise ServeError(f"cannot start the shared tables: {exc}") from None
    try:
        await _start_operator_side(state)
    except ServeError:
        log.close()
        await _stop_operator_side(state)
        await state.tables.stop()
        raise
    factory: Callable[[], GameConnection] = lambda: GameConnection(state)  # noqa: E731
    if tuple(command) == SESSION_COMMAND:  # the app's fork server imports it meanwhile
        await asyncio.get_running_loop().run_in_executor(None, start_fork_server)

    async def process_factory(process: asyncssh.SSHServerProcess) -> None:
        await run_session(state, process)

    options: dict[str, Any] = {
        "server_factory": factory, "process_factory": process_factory,
        "server_host_keys": [host_key], "server_version": SERVER_VERSION,
        "encoding": None, "line_editor": False, "allow_pty": True,
        "agent_forwarding": False, "x11_forwarding": False, "allow_scp": False,
        "public_key_auth": True, "password_auth": passwords is not None,
        "kbdint_auth": True, "host_based_auth": False, "gss_host": None,
        "rdns_lookup": False, "login_timeout": config.login_timeout,
        "keepalive_interval": config.keepalive_interval,
        "keepalive_count_max": config.keepalive_count_max,
    }
    try:
        if config.host.strip("[]") == "::":  # every interface: IPv6 and IPv4 clients
            options["sock"] = dual_stack_socket(config.port)
            acceptor = await asyncssh.listen(**options)
        else:
            acceptor = await asyncssh.listen(config.host, config.port, **options)
    except OSError as exc:
        log.close()
        await _stop_operator_side(state)
        await state.tables.stop()
        raise ServeError(f"cannot listen on {config.host}:{config.port}: "
                         f"{exc.strerror or exc}") from None
    server = RunningServer(acceptor, state, host_key)
    state.port = server.port
    if config.public_port is None:  # (port 0: the port listened on is known now)
        state.tables.reconfigure(state.tables.limits, (address[0], server.port))
    server.take_error_handlers()
    return server
