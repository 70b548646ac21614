"""Shared tables under load: 10 tables of 4 scripted human players on one ``trash serve``.

The server runs as its own process (``trash serve --config``, its files in a temporary
folder), so its CPU and memory (the SSH server and, in the same process, the table
service) are its own; each player is an asyncssh client here whose session runs the real
app on a 100×32 PTY, and whose screen is read as text (escape sequences removed). Each
client answers the app's question as a terminal with synchronized output does, so the app
sends every frame whole between two markers, and a screen is read one whole frame at a
time: read in the pieces it arrives in, a frame shows half a move (an escape sequence cut
in two reads as text, ``Stock 63`` then ``38;2;...`` as the count 6338).

At each table the host connects, opens the Tables screen (``t``), fills in the new-table
form (``n``: four open seats, no turn clock) and creates it (ctrl+s); the three others
connect with the join code the host's screen shows as their SSH user name and go straight
to the table. Once every board is up, each player plays whenever their screen asks them
("Your move, <name> — s: draw from the stock": ``s``; a later question of the turn: the
first key offered; a deal's summary: enter) until every player at the table has drawn
``--moves`` times. A player answers ``--think`` seconds after a question shows (0.5 s by
default: a quick player; a person reads the board first). With ``--think 0`` every
player answers at once and the ten tables play as fast as the two cores let them: the
machine is saturated, and the times measure the queue for its CPU.

Measured: for every draw, the time from the key leaving this process to the end of the
frame that shows it (the stock's count changed) on each of the other three screens
(median, 99th percentile and worst, per screen and until all three have it), with
Python's ``time.perf_counter``;
at each table once the draws are done, the player to move presses esc (leave the table)
on their own turn (and again when the board asks whether to leave), and the time from
that key to the stand-in's move for them saved in
the history database (``matches.updated``, the server's ``time.time()`` on the same
machine; the server's bot delay, 0.8 s, is part of it) — median and worst over the tables;
failures (a stage that did not happen within its deadline, with why); actions lost; the
CPU seconds and memory (RSS, peak) of the server process and of the session apps.

Actions lost: each draw a player made and saw on their own screen (they pressed ``s``
when the board, not only the status line, showed it was their turn to draw, and the
stock's count then changed from the count it showed) is looked for in their table's match
in the history database, replayed action by action: a draw from the stock by their seat
with the stock at the count they saw when they pressed. Each saved draw answers for one
draw seen. A draw the table showed but did not save, saved for another seat, or lost with
a deal is a loss (listed, with the counts); another seat's draw shown late, or a new
deal's stock, is not taken for the player's own. Waiting for the board matters: the app's
status line can ask a player to move a frame (or, when a deal ends, a few hundred ms)
before the piles show the last player's draw or the new deal, and a count read then made
the next count change (that other draw) look like the player's own.
Target on this 2-core machine: 99th percentile under 500 ms, no failure, no action lost.

    python benchmarks/tables.py [--tables N] [--moves N] [--think SECONDS]
"""

from __future__ import annotations

import sys
from pathlib import Path

# benchmarks/bots.py shares its name with the ``bots`` package: never import it by mistake.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import time

import asyncssh

from trash_tui.engine.deal import IllegalAction
from trash_tui.history import History, MatchRow
from trash_tui.play.controller import MatchController, make_seats
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules, RulesError
from trash_tui.ssh.session import settings_file

TARGET = 0.5  # seconds, the 99th percentile from a key to the other three screens
SEATS = 4
TERM_SIZE = (100, 32)
STAGE_TIMEOUT = 120.0  # seconds any one stage (a screen, a turn, a move seen) may take
THINK = 0.5  # seconds a player takes to answer each question the screen asks
QUIET = 0.5  # seconds with nothing new on a screen that asks for a move: the board is final
FORM_PAUSE = 0.05  # seconds after the form answered a key, before the next one
SAMPLE_EVERY = 0.5  # seconds between two samples of the processes' CPU and memory
SERVER_CODE = "from trash_tui.cli.main import main; main()"
_LISTENING = re.compile(r"listening on 127\.0\.0\.1:(\d+) ")
#: The waiting room's join code ("Join code: K7QX", or "Code K7QX: ..." with the hint)
_CODE = re.compile(r"(?:Joincode:|Code)([A-Z2-9]{4})(?![A-Za-z0-9])")
DEAL_OVER = re.compile(r"Deal\d+is(?:over|void)")  # a deal's summary (its title)
WARNING = re.compile(r"⚠[^⏱▁▔│]{0,60}")  # the board's line when a move is refused
STOCK = re.compile(r"Stock(\d+)")  # the stock pile's label, squeezed
TO_PLAY = "▶ to play".encode()  # after a name in its layout's title: whose turn it shows
#: Synchronized output (mode 2026): the app asks whether the terminal has it; a terminal
#: that says so gets every frame between FRAME_START and FRAME_END.
SYNC_QUERY, SYNC_REPLY = b"\x1b[?2026$p", b"\x1b[?2026;2$y"
FRAME_START, FRAME_END = b"\x1b[?2026h", b"\x1b[?2026l"
NEW_FRAME = "\x00"  # where a frame begins, in a screen's text
DOWN, UP, TAB, ENTER, CTRL_S, BACKSPACE = "\x1b[B", "\x1b[A", "\t", "\r", "\x13", "\x7f"
ESCAPE = "\x1b"  # the board's key to leave the table
LEAVE_TIMEOUT = 10.0  # seconds from esc to the stand-in's move at most
OPEN_SEAT = [ENTER, UP, UP, UP, ENTER]  # a seat's list: "a friend" is three above "normal"
#: The new-table form, from its name (where the cursor starts): the rules (standard), the
#: seats (4), seat 2 (open already), seats 3 and 4 opened, public, the turn clock (none).
NEW_TABLE_KEYS = [TAB, TAB, TAB, TAB, *OPEN_SEAT, TAB, *OPEN_SEAT, TAB, TAB,
                  BACKSPACE * 4, "0"]

#: Escape sequences: CSI, OSC, DCS/APC strings, charset selection and single-char escapes
#: (the same as tests/ssh_helpers.py).
_ESCAPES = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]"
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
    rb"|\x1b[P_^X][^\x1b]*\x1b\\"
    rb"|\x1b[()][0-9A-Za-z]"
    rb"|\x1b[ -/]*[0-~]"
)


def squeezed(text: str) -> str:
    """``text`` without spaces: the app positions words with cursor moves, not spaces."""
    return "".join(text.split())


def screen_text(data: bytes) -> str:
    """The text of terminal output, escape sequences and spaces removed; where a frame
    begins, NEW_FRAME."""
    data = _ESCAPES.sub(b"", data.replace(FRAME_START, NEW_FRAME.encode()))
    return squeezed(data.decode("utf-8", "replace"))


# --- processes --------------------------------------------------------------------------

def proc_stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name, None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as file:
            return file.read().rpartition(")")[2].split()
    except OSError:
        return None


def cpu_of(fields: list[str]) -> float:
    """CPU seconds (user + system) from a /proc/PID/stat line's fields."""
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as file:
            for line in file:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def descendants(root: int) -> list[int]:
    """Every process below ``root`` (children, their children...)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := proc_stat(int(entry))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, stack = [], [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


@dataclasses.dataclass
class Usage:
    """The server's and the session apps' CPU and memory, sampled while they run."""

    server_pid: int
    server_cpu_start: float = 0.0
    server_cpu: float = 0.0
    server_rss: float = 0.0
    apps_cpu: dict[int, float] = dataclasses.field(default_factory=dict)
    apps_rss: dict[int, float] = dataclasses.field(default_factory=dict)
    clients_cpu: float = 0.0  # this process: the scripted players reading their screens

    def take(self) -> None:
        fields = proc_stat(self.server_pid)
        if fields is not None:
            self.server_cpu = cpu_of(fields)
            self.server_rss = max(self.server_rss, rss_mb(self.server_pid) or 0.0)
        for pid in descendants(self.server_pid):
            fields = proc_stat(pid)
            if fields is None or int(fields[4]) == 0:  # no terminal: not a session's app
                continue
            self.apps_cpu[pid] = cpu_of(fields)
            self.apps_rss[pid] = max(self.apps_rss.get(pid, 0.0), rss_mb(pid) or 0.0)


class ServerProcess:
    """``trash serve`` in its own process, its files in ``folder``."""

    def __init__(self, folder: Path, sessions: int) -> None:
        self.folder = folder
        self.config = folder / "server.toml"
        self.config.write_text(
            '[server]\nhost = "127.0.0.1"\nport = 0\nhost_key = "host_key"\n'
            'history = "history.sqlite3"\nplayers_dir = "players"\nlog = "ssh.log"\n'
            f'idle_timeout = 0\nmax_sessions = {sessions}\nsessions_per_ip = {sessions}\n'
            f'max_connections = {2 * sessions}\nconnections_per_ip = {2 * sessions}\n'
            f'connections_per_minute = {4 * sessions}\nmax_tables = {sessions}\n',
            encoding="utf-8")
        self.history = folder / "history.sqlite3"
        self.players_dir = folder / "players"
        self.out = folder / "serve.out"
        self.err = folder / "serve.err"
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    async def start(self) -> None:
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-c", SERVER_CODE, "serve", "--config", str(self.config)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        deadline = time.monotonic() + STAGE_TIMEOUT
        while not (found := _LISTENING.search(self.out.read_text(errors="replace"))):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"trash serve did not start: {self.err.read_text()}")
            await asyncio.sleep(0.1)
        self.port = int(found.group(1))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


# --- players --------------------------------------------------------------------------

class Failure(Exception):
    """A player's script did not get through a stage; the message says which and why."""


class Refused(Exception):
    """The table refused a player's move (the board's warning, and where it ends)."""

    def __init__(self, message: str, end: int) -> None:
        super().__init__(message)
        self.end = end


class Player:
    """One scripted player: their key and name, their session and everything it printed."""

    def __init__(self, table: Table, letter: str) -> None:
        self.table = table
        self.name = f"P{table.number:02d}{letter}"
        self.key = asyncssh.generate_private_key("ssh-ed25519")
        self.identity = self.key.get_fingerprint("sha256")
        self.output = bytearray()
        self.changed = asyncio.Event()
        self.process: asyncssh.SSHClientProcess | None = None
        self.conn: asyncssh.SSHClientConnection | None = None
        self.reader: asyncio.Future[None] | None = None
        self.draws = 0  # draws this player made and saw on their own screen
        #: each of those draws: the stock's count when this player pressed ``s`` and the
        #: first other count their screen showed after it
        self.seen: list[tuple[int, int]] = []
        self.asked = False  # the app asked whether the terminal frames its output
        self.framed = False  # it does: the output comes in whole frames
        self.texts: dict[int, str] = {}  # the text from a byte on, as ``text`` read it
        self.texts_end = 0  # ... up to this byte
        self.arrived = False  # at the board, waiting for the moves to begin
        self.ended = False

    async def read(self) -> None:
        assert self.process is not None
        with contextlib.suppress(asyncssh.Error, ConnectionError):
            while data := await self.process.stdout.read(65536):
                self.output += data
                if not self.framed and FRAME_START in self.output[-len(data) - 16:]:
                    self.framed = True
                if not self.asked and SYNC_QUERY in self.output[-len(data) - 16:]:
                    self.asked = True  # as a terminal with synchronized output answers
                    self.process.stdin.write(SYNC_REPLY)
                self.changed.set()
        self.ended = True
        self.changed.set()

    def text(self, since: int = 0) -> str:
        """The screen's text from byte ``since`` to the end of the last whole frame: a
        frame arrives in pieces, and a piece read alone would show half a move (the
        status line asking this player to move, while the stock's count, further down the
        same frame, still shows the count before the last player's draw). Until the app
        frames its output, up to the last escape sequence (what follows may be cut short:
        ``Stock 63`` then the parameters ``38;2;...`` of an escape sequence still on its
        way read as ``Stock6338``; the app ends every run of text with one)."""
        shown = self.shown()
        if shown != self.texts_end:  # the texts read so far stand until a frame ends
            self.texts, self.texts_end = {}, shown
        if (text := self.texts.get(since)) is None:
            text = self.texts[since] = screen_text(bytes(self.output[since:max(since,
                                                                               shown)]))
        return text

    def shown(self) -> int:
        """Where the output this player has seen ends (see ``text``)."""
        if self.framed:
            end = self.output.rfind(FRAME_END)
            return end + len(FRAME_END) if end >= 0 else 0
        return max(0, self.output.rfind(b"\x1b"))

    def press(self, keys: str) -> None:
        assert self.process is not None
        self.process.stdin.write(keys.encode())

    async def sees(self, needle: str | re.Pattern[str], since: int, what: str,
                   timeout: float = STAGE_TIMEOUT) -> tuple[float, str]:
        """Wait for ``needle`` (squeezed; or a pattern of the squeezed text) in the output
        since byte ``since``; when the data that holds it arrived (perf_counter) and the
        text. Failure at the deadline."""
        if isinstance(needle, str):
            needle = re.compile(re.escape(squeezed(needle)))
        deadline = time.perf_counter() + timeout
        while True:
            self.changed.clear()
            text = self.text(since)
            if needle.search(text):
                return time.perf_counter(), text
            if self.ended:
                raise Failure(f"{self.name}: the session ended waiting for {what}")
            left = deadline - time.perf_counter()
            if left <= 0:
                raise Failure(f"{self.name}: no {what} after {timeout:g} s (the screen's "
                              f"last words: {text[-160:]!r})")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    async def sees_stock_change(self, before: int, since: int, what: str,
                                timeout: float = STAGE_TIMEOUT, mine: bool = False
                                ) -> tuple[float, int, int]:
        """Wait until the stock's count shown since byte ``since`` is not ``before`` (one
        less after a draw; more when a new deal or a reshuffle came with it); when the
        data that shows it arrived (perf_counter), where the count ends in the text since
        ``since``, and the count. ``mine``: Refused if the board says the table refused
        the move."""
        deadline = time.perf_counter() + timeout
        while True:
            self.changed.clear()
            text = self.text(since)
            for count in STOCK.finditer(text):
                if int(count.group(1)) not in (before, before + 1):
                    return time.perf_counter(), count.end(), int(count.group(1))
            if mine and (warning := WARNING.search(text)):
                raise Refused(warning.group(0), warning.end())
            if self.ended:
                raise Failure(f"{self.name}: the session ended waiting for {what}")
            left = deadline - time.perf_counter()
            if left <= 0:
                raise Failure(f"{self.name}: no {what} after {timeout:g} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    async def connect(self, port: int, username: str) -> None:
        self.conn = await asyncssh.connect("127.0.0.1", port, username=username,
                                           client_keys=[self.key], known_hosts=None,
                                           agent_path=None)
        self.process = await self.conn.create_process(
            term_type="xterm-256color", term_size=TERM_SIZE, encoding=None)
        self.reader = asyncio.ensure_future(self.read())

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.wait_closed(), 10)


class Table:
    """Four players at one table, and what their moves measured."""

    def __init__(self, number: int, moves: int, everyone_seated: asyncio.Event,
                 seated: list[int], total: int, think: float = 0.0) -> None:
        self.number = number
        self.moves = moves
        self.think = think  # seconds a player takes to answer a question
        self.players = [Player(self, letter) for letter in "abcd"]
        self.code: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.everyone_seated = everyone_seated
        self.seated = seated  # one counter for all the tables
        self.total = total
        self.latencies: list[float] = []  # a key to one other screen
        self.all_three: list[float] = []  # a key to the last of the other three screens
        self.failure: str | None = None
        self.refused: list[str] = []  # moves the table refused (the board's warnings)
        self.measures: set[asyncio.Future[None]] = set()
        self.leave: float | None = None  # esc on one's turn to the stand-in's move, seconds
        self.leave_failure: str | None = None

    @property
    def done(self) -> bool:
        return self.failure is not None or all(p.draws >= self.moves for p in self.players)

    async def run(self, port: int, history_path: Path) -> None:
        try:
            await asyncio.gather(*(self.play(player, port) for player in self.players))
            if self.measures:
                await asyncio.gather(*self.measures)
            if self.failure is None:
                await self.leave_on_turn(history_path)
        except Failure as failure:
            self.failure = self.failure or str(failure)
        finally:
            for measure in self.measures:
                measure.cancel()
            await asyncio.gather(*(player.close() for player in self.players))

    async def leave_on_turn(self, history_path: Path) -> None:
        """The player to move presses esc (leave the table) on their turn: the time until
        the stand-in's move for them is saved (``matches.updated``, the server's clock)."""
        await asyncio.sleep(1.0)  # every key pressed before the draws were done is played
        names = {player.name for player in self.players}

        def where() -> tuple[int, int, int] | None:  # (match, seat to move, actions)
            with open_history(history_path) as history:
                rows = [row for row in history.matches.of_player(self.players[0].identity)
                        if set(row.names) == names]
                if len(rows) != 1:
                    return None
                row = rows[0]
                controller = MatchController(Rules.from_dict(row.rules),
                                             make_seats(row.seats, row.seed), row.seed)
                actions = history.matches.match_actions(row.id)
                controller.replay(actions)
                if controller.over:
                    return None
                mover = row.names[controller.to_move]
                return row.id, next(i for i, p in enumerate(self.players)
                                    if p.name == mover), len(actions)

        found = await asyncio.to_thread(where)
        if found is None:
            self.leave_failure = "no match in play to leave"
            return
        match_id, index, actions = found
        leaver = self.players[index]
        mark = leaver.shown()
        pressed = time.time()
        leaver.press(ESCAPE)
        with contextlib.suppress(Failure):  # the board may ask first: esc again leaves
            await leaver.sees("Leave the table?", mark, "the question to leave",
                              timeout=3.0)
            pressed = time.time()
            leaver.press(ESCAPE)
        db = sqlite3.connect(f"file:{history_path}?mode=ro", uri=True, timeout=5.0)
        try:
            while time.time() - pressed < LEAVE_TIMEOUT:
                row = db.execute("SELECT actions, updated FROM matches WHERE id = ?",
                                 (match_id,)).fetchone()
                if row is not None and row[0] > actions:
                    self.leave = float(row[1]) - pressed
                    return
                await asyncio.sleep(0.01)
        finally:
            db.close()
        self.leave_failure = (f"{self.players[index].name} pressed esc: no stand-in move in "
                              f"{LEAVE_TIMEOUT:g} s (the screen's last words: "
                              f"{self.players[index].text()[-160:]!r})")

    def arrive(self) -> None:
        """One more player is at their board (or will never be): the moves begin once
        every player of every table has arrived."""
        self.seated[0] += 1
        if self.seated[0] >= self.total:
            self.everyone_seated.set()

    async def play(self, player: Player, port: int) -> None:
        """One player's script: sit down, then play until the table is done."""
        try:
            if player is self.players[0]:
                await self.create(player, port)
            else:
                await player.connect(port, await self.code)
            await player.sees("Discard", 0, "the board")
            player.arrived = True
            self.arrive()
            await self.everyone_seated.wait()
            await self.take_turns(player)
        except Failure as failure:
            self.failure = self.failure or str(failure)
        except (OSError, asyncssh.Error, asyncio.CancelledError) as exc:
            self.failure = self.failure or f"{player.name}: {type(exc).__name__}: {exc}"
        if not self.code.done():
            self.code.cancel()
        if not player.arrived:
            self.arrive()
        for other in self.players:  # the others stop waiting for their turn
            other.changed.set()

    async def create(self, host: Player, port: int) -> None:
        await host.connect(port, "player")
        await host.sees("New match", 0, "the lobby")
        mark = len(host.output)
        host.press("t")
        await host.sees("Tables on this server", mark, "the Tables screen")
        mark = len(host.output)
        host.press("n")
        await host.sees("A new table", mark, "the new-table form")
        for key in NEW_TABLE_KEYS:  # each once the form has answered the one before
            mark = len(host.output)
            host.press(key)
            deadline = time.perf_counter() + STAGE_TIMEOUT
            while len(host.output) == mark and time.perf_counter() < deadline:
                await asyncio.sleep(0.02)
            await asyncio.sleep(FORM_PAUSE)
        mark = len(host.output)
        host.press(CTRL_S)
        _, text = await host.sees(_CODE, mark, "the join code")
        found = _CODE.search(text)
        if found is None or "○open,○open,○open" not in text:
            raise Failure(f"{host.name}: the waiting room is not a table of four open seats")
        self.code.set_result(found.group(1))

    async def take_turns(self, player: Player) -> None:
        name = re.escape(squeezed(player.name))
        prompt = re.compile(rf"Yourmove,{name}—(.):")
        wild = re.compile(rf"Yourmove,{name}—Wild:.*?\(free:(\d+)")
        consumed, skip = 0, 0  # a question may have come before everyone sat down
        quiet = False  # nothing came for QUIET seconds since the last question
        thought = False  # the player thought THINK seconds over the question
        while not self.done:
            player.changed.clear()
            full = player.text(consumed)
            if "Thematchisover" in full:
                raise Failure(f"{player.name}: the match ended before every player drew "
                              f"{self.moves} times")
            if DEAL_OVER.search(full):  # a deal's summary is up: enter, then the board
                if self.think and not thought:
                    thought = True
                    await asyncio.sleep(self.think)
                    continue
                thought = False
                consumed, skip = player.shown(), 0
                player.press(ENTER)
                continue
            # before ``skip``, a question to draw is the one just answered, drawn again;
            # any other question is new (the status line can ask it a frame before the
            # piles show the draw that brought it)
            asked = [found for found in prompt.finditer(full)
                     if found.group(1) != "s" or found.start() >= skip]
            wilds = list(wild.finditer(full))
            key = None
            if wilds and wilds[-1].start() > (asked[-1].start() if asked else -1):
                key = str(int(wilds[-1].group(1)) % 10)
            elif asked and (asked[-1].group(1) != "s" or quiet or
                            self.board_shows_turn(player, full, asked[-1].start())):
                key = asked[-1].group(1)
            if key is not None:
                if self.think and not thought:  # read it, think, then read it again
                    thought = True
                    await asyncio.sleep(self.think)
                    continue
                quiet = thought = False
                mark = player.shown()
                consumed, skip = mark, 0  # the next question is one asked after this key
                if key == "s":
                    skip = await self.draw(player, mark)
                else:
                    player.press(key)
                continue
            if player.ended:
                raise Failure(f"{player.name}: the session ended")
            try:  # asked, but the board may be a frame behind: it is not once it is quiet
                await asyncio.wait_for(player.changed.wait(), QUIET if asked and not quiet
                                       else STAGE_TIMEOUT)
                quiet = False
            except TimeoutError:
                if asked and not quiet:
                    quiet = True
                elif not self.done:
                    raise Failure(f"{player.name}: no turn for {STAGE_TIMEOUT:g} s") from None

    @staticmethod
    def board_shows_turn(player: Player, text: str, asked: int) -> bool:
        """Whether the board, not only the status line, shows the turn that ``player`` is
        asked to draw in (at ``asked`` in ``text``): the stock's count is drawn in the
        frame of that question or a later one, and the last layout marked "▶ to play" is
        theirs. The status line can show a turn a frame or more before the piles do (the
        turn after the last player's draw, or a new deal's first turn), and the count
        read then would be the one before that draw, or the last deal's. (A question that
        stays QUIET seconds with nothing after it is taken too: the app waits for this
        player, so its board is final; the count may have been drawn frames before.)"""
        frame = text.rfind(NEW_FRAME, 0, asked)
        if frame >= 0 and not STOCK.search(text, frame):
            return False
        at = player.output.rfind(TO_PLAY, 0, player.shown())
        return at < 0 or screen_text(bytes(player.output[max(0, at - 300):at])).endswith(
            squeezed(player.name))

    async def draw(self, player: Player, mark: int) -> int:
        """``s``, timed until the draw shows on the other three screens: their stock's
        count ("Stock 31" over the pile) changes from the one the mover saw (a log line
        would not do: the log draws its older lines again as it scrolls). Where the frame
        that shows the draw begins in the mover's text since ``mark``: a question before
        that is an old one drawn again; one in that frame (drawn whole, after the draw)
        or later is new, and may be drawn only once."""
        counts = STOCK.findall(player.text(max(0, mark - 200_000)))
        if not counts:
            raise Failure(f"{player.name}: no stock count on the board")
        before = int(counts[-1])
        others = [other for other in self.players if other is not player]
        marks = [other.shown() for other in others]
        pressed = time.perf_counter()
        player.press("s")

        async def measure() -> None:
            seen = await asyncio.gather(*(other.sees_stock_change(before, at,
                                                                  f"{player.name}'s draw")
                                          for other, at in zip(others, marks, strict=True)))
            times = [when - pressed for when, _, _ in seen]
            self.latencies.extend(times)
            self.all_three.append(max(times))

        task = asyncio.ensure_future(measure())
        self.measures.add(task)
        task.add_done_callback(self._measured)
        try:
            _, shown, after = await player.sees_stock_change(before, mark, "its own draw",
                                                             mine=True)
        except Refused as refused:
            task.cancel()
            self.refused.append(f"{player.name}: {refused}")
            return refused.end
        player.draws += 1
        player.seen.append((before, after))
        if self.done:  # wake the others: they stop too
            for other in others:
                other.changed.set()
        frame = player.text(mark).rfind(NEW_FRAME, 0, shown)  # a whole frame: what it
        return shown if frame < 0 else frame  # asks is asked after the draw

    def _measured(self, task: asyncio.Future[None]) -> None:
        self.measures.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.failure = self.failure or str(task.exception())


# --- the run ----------------------------------------------------------------------------

@dataclasses.dataclass
class SavedCheck:
    """The players' draws against the history database (``count_saved_draws``)."""

    lost: int = 0  # draws a player made and saw that its seat's saved draws lack
    saved: int = 0  # the stock draws the database holds for the tables' seats
    details: list[str] = dataclasses.field(default_factory=list)  # each loss, and why


@dataclasses.dataclass
class Outcome:
    tables: list[Table]
    moves: int
    think: float
    wall: float
    usage: Usage
    saved: SavedCheck
    server_errors: list[str]


def saved_stock_draws(history: History, row: MatchRow) -> dict[int, list[int]]:
    """The saved match ``row`` replayed action by action: for each seat, the stock's count
    before each of its draws from the stock (what its screen showed when it drew)."""
    controller = MatchController(Rules.from_dict(row.rules), make_seats(row.seats, row.seed),
                                 row.seed)
    draws: dict[int, list[int]] = {}
    for action in history.matches.match_actions(row.id):
        deal = controller.match.deal
        count = deal.stock_count if deal is not None else -1
        first = len(controller.match.events)
        controller.replay([action])
        for event in controller.match.events[first:]:
            if event[0] == "draw" and event[2] == "stock":
                draws.setdefault(event[1], []).append(count)
    return draws


def count_saved_draws(history_path: Path, tables: list[Table]) -> SavedCheck:
    """Each draw a player made and saw, against the saved match of their table: the
    stock's count the player saw when they pressed ``s`` must be the count before one of
    the draws the database holds for their seat (each saved draw answers for one draw
    seen). So a draw shown but not saved, saved for another seat, or lost with a deal is
    a loss; another seat's draw, or a new deal's stock, is never taken for one."""
    check = SavedCheck()
    with open_history(history_path) as history:
        for table in tables:
            names = {player.name for player in table.players}
            rows = [row for row in history.matches.of_player(table.players[0].identity)
                    if set(row.names) == names]
            if len(rows) != 1:
                made = sum(player.draws for player in table.players)
                check.lost += made
                check.details.append(f"table {table.number}: {len(rows)} saved matches of "
                                     f"its four players, not one ({made} draws made)")
                continue
            try:
                saved = saved_stock_draws(history, rows[0])
            except (IllegalAction, RulesError, ValueError) as exc:
                made = sum(player.draws for player in table.players)
                check.lost += made
                check.details.append(f"table {table.number}: its saved match cannot be "
                                     f"replayed: {exc}")
                continue
            for player in table.players:
                seat = rows[0].names.index(player.name)
                held = saved.get(seat, [])
                check.saved += len(held)
                left = collections.Counter(held)
                for before, after in player.seen:
                    if left[before] > 0:
                        left[before] -= 1
                        continue
                    check.lost += 1
                    check.details.append(
                        f"{player.name} drew at a stock of {before} (then saw {after}): "
                        f"seat {seat + 1}'s saved draws are at "
                        f"{', '.join(map(str, held)) or 'none'}")
    return check


async def sample(usage: Usage, tables: list[Table]) -> None:
    """Sample the processes; say how far the run is on stderr every 10 s."""
    said = time.monotonic()
    while True:
        await asyncio.to_thread(usage.take)
        await asyncio.sleep(SAMPLE_EVERY)
        if time.monotonic() - said > 10:
            said = time.monotonic()
            draws = sum(p.draws for table in tables for p in table.players)
            failed = sum(table.failure is not None for table in tables)
            print(f"  ... {tables[0].seated[0]} of {tables[0].total} players at their "
                  f"board, {draws} draws, {failed} table(s) failed", file=sys.stderr)


async def bench(tables_count: int, moves: int, think: float) -> Outcome:
    folder = Path(tempfile.mkdtemp(prefix="trash-bench-tables-"))
    server = ServerProcess(folder, tables_count * SEATS + 4)
    try:
        await server.start()
        assert server.process is not None
        usage = Usage(server.process.pid)
        usage.take()
        usage.server_cpu_start = usage.server_cpu
        everyone = asyncio.Event()
        seated = [0]
        tables = [Table(number, moves, everyone, seated, tables_count * SEATS, think)
                  for number in range(1, tables_count + 1)]
        with open_history(server.history) as history:
            for table in tables:
                for player in table.players:
                    history.players.register_player(player.identity, player.name)
        for table in tables:
            for player in table.players:  # animations off: a move shows at once
                path = settings_file(server.players_dir, player.identity)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text('[app]\nanimation = "off"\n', encoding="utf-8")
        sampler = asyncio.ensure_future(sample(usage, tables))
        started, own = time.perf_counter(), time.process_time()
        await asyncio.gather(*(table.run(server.port, server.history) for table in tables))
        wall = time.perf_counter() - started
        usage.clients_cpu = time.process_time() - own
        sampler.cancel()
        usage.take()
        server.stop()
        saved = count_saved_draws(server.history, tables)
        errors = [line for line in server.err.read_text(errors="replace").splitlines()
                  if "error" in line.lower() or "failed" in line.lower()
                  or "Traceback" in line]
        return Outcome(tables, moves, think, wall, usage, saved, errors)
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def report(outcome: Outcome) -> None:
    tables = outcome.tables
    latencies = [value for table in tables for value in table.latencies]
    all_three = [value for table in tables for value in table.all_three]
    failed = [table for table in tables if table.failure is not None]
    players = len(tables) * SEATS
    print(f"{len(tables)} tables of {SEATS} human players ({players} SSH sessions running "
          f"the app, {TERM_SIZE[0]}×{TERM_SIZE[1]}), {outcome.moves} draws each, "
          + (f"each answer {outcome.think:g} s after its question shows" if outcome.think
             else "each answer at once"))
    print(f"draws measured: {len(all_three)}; screens that showed them: {len(latencies)}")
    if latencies:
        print(f"key to the move on another player's screen: median "
              f"{statistics.median(latencies) * 1000:.0f} ms, 99th percentile "
              f"{percentile(latencies, 0.99) * 1000:.0f} ms, worst "
              f"{max(latencies) * 1000:.0f} ms")
        print(f"key to the move on all three other screens: median "
              f"{statistics.median(all_three) * 1000:.0f} ms, 99th percentile "
              f"{percentile(all_three, 0.99) * 1000:.0f} ms, worst "
              f"{max(all_three) * 1000:.0f} ms")
    leaves = [table.leave for table in tables if table.leave is not None]
    if leaves:
        print(f"esc (leave) on one's own turn to the stand-in's move, saved: median "
              f"{statistics.median(leaves) * 1000:.0f} ms, worst {max(leaves) * 1000:.0f} ms "
              f"({len(leaves)} tables; the server's bot delay of 0.8 s included)")
    for table in tables:
        if table.leave_failure is not None:
            print(f"  table {table.number}: {table.leave_failure}")
    refused = [line for table in tables for line in table.refused]
    print(f"moves refused by the table: {len(refused)}")
    for line in refused[:5]:
        print(f"  {line}")
    print(f"failures: {len(failed)} table(s)")
    for table in failed:
        print(f"  table {table.number}: {table.failure}")
    made = sum(player.draws for table in tables for player in table.players)
    print(f"actions lost: {outcome.saved.lost} (draws made and seen: {made}; draws from "
          f"the stock in the history database: {outcome.saved.saved})")
    for line in outcome.saved.details[:10]:
        print(f"  {line}")
    for line in outcome.server_errors[:10]:
        print(f"  server: {line}")
    usage = outcome.usage
    server_cpu = usage.server_cpu - usage.server_cpu_start
    apps_cpu = sum(usage.apps_cpu.values())
    rss = list(usage.apps_rss.values())
    print(f"wall time {outcome.wall:.1f} s; CPU: server process (SSH and the table service) "
          f"{server_cpu:.1f} s ({server_cpu / outcome.wall * 100:.0f}% of a core), "
          f"session apps {apps_cpu:.1f} s together ({apps_cpu / max(1, len(rss)):.2f} s each), "
          f"the scripted clients (this process) {usage.clients_cpu:.1f} s")
    if rss:
        print(f"memory (peak RSS): server process {usage.server_rss:.0f} MB; session apps "
              f"median {statistics.median(rss):.0f} MB, max {max(rss):.0f} MB "
              f"({len(rss)} apps; shared pages counted in each)")
    p99 = percentile(latencies, 0.99) if latencies else float("inf")
    met = p99 < TARGET and not failed and outcome.saved.lost == 0
    print(f"target: 99th percentile under {TARGET * 1000:.0f} ms, no failure, no action lost "
          f"— {'meets' if met else 'misses'} it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10, help="tables of four players")
    parser.add_argument("--moves", type=int, default=8, help="draws each player makes")
    parser.add_argument("--think", type=float, default=THINK,
                        help=f"seconds a player takes to answer (default {THINK:g}; 0: at "
                             "once, the tables then play as fast as the CPU lets them)")
    args = parser.parse_args()
    if args.tables < 1 or args.moves < 1 or args.think < 0:
        parser.error("--tables and --moves must be at least 1, --think at least 0")
    report(asyncio.run(bench(args.tables, args.moves, args.think)))


if __name__ == "__main__":
    main()
