"""SSH server load: concurrent sessions that each sit down, start a match and play moves.

Starts the server in this process (``start_server``) on a free port of 127.0.0.1, with its
host key, log, players folder and history database in a temporary folder, its limits
raised so that every session may come from 127.0.0.1 (sessions, connections, connections
a minute), and no idle timeout. Then N asyncssh clients connect, each with a key of its own
(so each is a new player) and a 100×32 xterm-256color terminal, at default settings
(animation normal, the bots replying). Each one waits for the name prompt ("Welcome to
Trash!"), accepts the suggested name (enter), waits for the lobby, starts a match (``n``,
again every 5 s while the board does not show: the lobby drops keys until it is ready),
plays its moves (at each "Your move": ``s``, or what the decision needs: keep, call, a
wild's slot; enter at the end of a deal; back to the lobby and ``n`` if the match ends),
goes back to the lobby (escape) and quits (``q``), expecting exit status 0.

Two modes:

* Default (``--sessions N --moves N``): all N connect at once and each plays N moves; a
  move counts once the history database holds it (the keys are tried in turn until one
  is saved). Target on this 2-core machine: all served with no failure, the first screen
  in under 3 s at the median.
* ``--crowd`` (``--sessions N --seconds S --every E --ramp R``): N sessions arrive spread
  over R seconds, and each plays a move every E seconds (3 by default, or as soon as the
  game lets it when its bots and the animation take longer) until S seconds after the
  last one arrived. The key is read from the status line ("Your move, NAME — s: draw from
  the stock; d: ..."), pressed once the screen has settled on it (the status line shown
  after the answer to the previous key, then no output for ``QUIET`` s). Measures the
  **key-to-screen latency**: from writing the key to the arrival of the output chunk that
  shows the status line answering it: the move being shown ("You play a chain…"), a bot
  deciding ("… is playing…"), the end of the deal or match, or a "Your move" offering
  other choices (the next decision). The board's frames come with that status line or just
  before it; output that only repaints the screen from before the key (a late part of a
  frame drawn before it) does not count. A move counts for the client when its key is
  answered (or, if no such status line comes within 30 s, when the database holds it:
  counted apart, without a latency). At the end, each player's human moves in the history
  database (the saved actions replayed, counting those taken at a human's turn) are
  compared with the moves the client made: a move answered on the screen but missing from
  the database is a move lost. Target (issue 14): p95 under 250 ms with 100 sessions on
  this 2-core machine, no failure, no move lost.

Prints, in both modes: the sessions served and failed (with why), the time to the first
screen (from starting the connection to the output showing the name prompt: median and
worst), the moves made and the human moves in the history database, the wall time, and
the cost of a session's app (issue 14; the apps are forked from the fork server, so their
CPU is read from /proc/PID/stat — user + system — of each session's app, whose pid the
server knows):

* **CPU per human move**: the sum over sessions of the app's CPU from the moment it starts
  the match (just before ``n``, the lobby drawn) to the moment the client sees its last
  move made, divided by the human moves the history database holds for those sessions.
  It includes what a human move sets off: the bots' replies and the animation.
* **CPU per first screen**: an app's CPU at the moment its first screen is complete (the
  name prompt shown and then no output for ``QUIET`` s; the app is idle then): median
  and max. What a connection that never types costs; the lobby is built at the player's
  first key, so the CPU from the name to the lobby, and in all to the lobby, are printed
  under it.
* **Proportional memory per session** (PSS from /proc/PID/smaps_rollup: the pages shared
  by the forked apps split between them) and RSS, sampled at the last moment the most
  sessions were up at once: median and max.

and this process's CPU (the server and the clients), the machine's CPU over the run (the
others' share included: other work on the machine slows the sessions) and the targets:
≤ 40 ms of CPU per human move, ≤ 60 ms per first screen, ≤ 25 MB PSS per session.

Before and after the load it measures this machine's speed for the app (a short local
match played headless, ``local_play.py``): the ms of CPU above move with it from one hour
to the next on a shared machine.

With ``--pages`` (as root) it also says where a session's private memory comes from, for
up to ``PAGES_SAMPLE`` sessions at each memory sample: pages copied from the fork server
(those that hold the same bytes again included) and the app's own (``fork_pages.py``).

With ``--web N`` (issue 39), N of the sessions come from browsers instead: the server
has its web face on, and each such client loads the page (its cookie is a new player) and
opens the page's WebSocket as textual.js does (``["stdin", KEY]`` frames in, the PTY's
bytes out), with the same terminal size and the same script. Its first screen is timed
from the page's request (the browser's own loading and drawing of the page are not in
it); the figures are then also given for each way in (ssh, web): the first screen, the
CPU per human move and per first screen, and the key-to-screen latency.

    python benchmarks/ssh.py [--sessions N] [--moves N] [--pages] [--web N]
    python benchmarks/ssh.py --crowd [--sessions N] [--seconds S] [--every E] [--ramp R]
    python benchmarks/ssh.py --crowd --sessions 50 --web 50   # 50 browsers at once
"""

from __future__ import annotations

import sys
from pathlib import Path

# benchmarks/bots.py shares its name with the ``bots`` package: never import it by mistake.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import asyncio
import bisect
import codecs
import contextlib
import dataclasses
import importlib.util
import io
import json
import math
import os
import random
import re
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import aiohttp
import asyncssh

from trash_tui.engine.match import Match
from trash_tui.games import TRASH
from trash_tui.history import History
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules
from trash_tui.settings import HUMAN
from trash_tui.ssh.config import ServerConfig, WebConfig
from trash_tui.ssh.server import RunningServer, start_server
from trash_tui.web.front import COOKIE, start_web
from trash_tui.web.identity import Browsers

TARGET = 3.0  # seconds to the first screen, at the median
TARGET_MOVE_CPU = 0.040  # seconds of the apps' CPU per human move (issue 14)
TARGET_FIRST_SCREEN_CPU = 0.060  # seconds of an app's CPU to its first screen (issue 14)
TARGET_PSS = 25.0  # MB of proportional memory per session (issue 14)
TARGET_LATENCY_P95 = 0.250  # seconds from a key to the screen answering it (issue 14)
TERM_SIZE = (100, 32)
NAME_PROMPT = "Welcome to Trash!"
LOBBY = "New match"  # the lobby's first button and footer key
YOUR_MOVE = "Your move"  # the board's status line when the human decides
DEAL_OVER = "Next deal"  # the deal-over summary's button and footer key
MATCH_OVER = "Back to the lobby"  # the standings at the end of a match
BOARD = "Stock"  # the board's stock pile (the lobby has no such word)
NOT_SAVED = "no longer saved"  # the board's line when the history database stops saving
PLAYING = "is playing…"  # the status line while a bot decides
CHAIN = "a chain…"  # the status line while a move's chain is shown ("You play a chain…")
MATCH_IS_OVER = "The match is over."  # the status line at the end of the match
#: Status lines (or screens) that answer a human's move; another "Your move" does too.
ANSWERS = (CHAIN, PLAYING, DEAL_OVER, MATCH_IS_OVER, MATCH_OVER)
UNSEEN = "(the human to move, as saved)"  # no screen seen, but the database waits for a key
#: Keys tried at "Your move", in order: the stock, keep the wild, call "Trash!", a slot.
MOVE_KEYS = ("s", "k", "t", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0")
#: The choices of the status line by preference (the crowd mode reads them from it).
PREFERRED_CHOICES = ("s", "k", "t", "x", "w", "d")
QUIET = 0.3  # seconds without output after which the screen counts as settled
RECHECK_AFTER = 10.0  # seconds without the expected change before reading recent output
KEY_WAIT = 1.5  # seconds for a key's move to reach the history database
ANSWER_WAIT = 30.0  # seconds for the screen to answer a key (the crowd mode)
NEW_MATCH_WAIT = 5.0  # seconds for a new match to reach it before pressing n again
SAMPLE_EVERY = 0.2  # seconds between two CPU samples of the session apps
MEMORY_EVERY = 2.0  # seconds between two memory samples (smaps_rollup costs more)
PAGES_SAMPLE = 5  # sessions whose pages --pages compares with the fork server's
STAGE_TIMEOUT = 120.0  # seconds any one stage (first screen, a move, quitting) may take
T = TypeVar("T")

#: Escape sequences: CSI, OSC, DCS/APC strings, charset selection and single-char escapes
#: (the same as tests/ssh_helpers.py).
_ESCAPES = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]"
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
    rb"|\x1b[P_^X][^\x1b]*\x1b\\"
    rb"|\x1b[()][0-9A-Za-z]"
    rb"|\x1b[ -/]*[0-~]"
)
_CSI = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]")
_CONTROLS = dict.fromkeys(range(32))  # C0 control characters (a bell, a carriage return)
#: A choice of the status line: "— s: draw from the stock; d: take the top discard".
_CHOICE = re.compile(r"[—;]([a-z]):")
_FREE_SLOT = re.compile(r"Wild:.*?\(free:(\d+)")
_FREE_SLOTS = re.compile(r"Wild:.*?\(free:([^)]*)\)")


def squeezed(text: str) -> str:
    """``text`` without spaces: the app positions words with cursor moves, not spaces."""
    return "".join(text.split())


def screen_text(data: bytes) -> str:
    """The text of terminal output, escape sequences, control characters and spaces
    removed."""
    return squeezed(_ESCAPES.sub(b"", data).decode("utf-8", "replace").translate(_CONTROLS))


def cut_before_partial_escape(data: bytes) -> tuple[bytes, bytes]:
    """``data`` split into what can be read now and an escape sequence it ends in the
    middle of (kept for the next chunk, so its tail is not read as text)."""
    start = data.rfind(b"\x1b", max(0, len(data) - 64))
    if start < 0:
        return data, b""
    tail = data[start:]
    if len(tail) == 1:
        complete = False
    elif tail[1:2] == b"[":
        complete = _CSI.match(tail) is not None
    elif tail[1:2] in (b"]", b"P", b"_", b"^", b"X"):
        complete = _ESCAPES.match(tail) is not None
    elif tail[1:2] in (b"(", b")"):
        complete = len(tail) >= 3
    else:
        complete = True
    return (data, b"") if complete else (data[:start], tail)


def status_choice(text: str) -> str | None:
    """The key to press for the last "Your move" status line in ``text`` (squeezed screen
    text): the first of ``PREFERRED_CHOICES`` it offers, else the first free slot of a
    wild ("Wild: 1–9, 0 for slot 10 (free: 2, 5, 7)"); None if it cannot be read."""
    start = text.rfind(squeezed(YOUR_MOVE) + ",")
    if start < 0:
        return None
    status = text[start:]
    offered = _CHOICE.findall(status)
    for key in PREFERRED_CHOICES:
        if key in offered:
            return key
    free = _FREE_SLOT.search(status)
    if free is not None:
        return str(int(free.group(1)) % 10)
    return None


def status_choices(text: str) -> str | None:
    """What the last "Your move" status line in ``text`` (squeezed screen text) offers:
    its keys and a wild's free slots, e.g. "s d|" or "|2–5,7"; None if there is none."""
    start = text.rfind(squeezed(YOUR_MOVE) + ",")
    if start < 0:
        return None
    status = text[start:]
    free = _FREE_SLOTS.search(status)
    return " ".join(_CHOICE.findall(status)) + "|" + (free.group(1) if free else "")


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` (0–1) percentile of ``values`` by nearest rank."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def rss_mb(pid: int | str) -> float | None:
    """The resident memory of process ``pid`` (or "self") in MB, None if it is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as file:
            for line in file:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def pss_mb(pid: int) -> float | None:
    """The proportional memory of process ``pid`` in MB (pages shared with other processes,
    such as those of sessions forked from one fork server, split between them)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as file:
            for line in file:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_of(pid: int | None) -> float | None:
    """CPU seconds process ``pid`` has used so far (user + system), None if it is gone."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            fields = file.read().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, all cores (/proc/stat)."""
    with open("/proc/stat", encoding="ascii") as file:
        fields = [int(field) for field in file.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    ticks = os.sysconf("SC_CLK_TCK")
    return (sum(fields) - idle) / ticks, sum(fields) / ticks


def reference_workload() -> float | None:
    """This machine's speed now, for the app: the CPU per action of a short seeded local
    match played headless (``local_play.py``, in a process of its own), in seconds; None
    if it failed. The ms of CPU this benchmark prints move with it: on this machine the
    same code measured 19 ms an action one evening and 34 ms the next night, while a
    small loop of pure Python ran as fast as before."""
    import subprocess

    script = Path(__file__).with_name("local_play.py")
    try:
        done = subprocess.run([sys.executable, str(script), "--moves", "15", "--runs", "1"],
                              capture_output=True, text=True, timeout=120, check=True)
        return float(done.stdout.split(": ")[1].split(" ms")[0]) / 1000
    except (OSError, ValueError, IndexError, subprocess.SubprocessError):
        return None


def process_gone(pid: int) -> bool:
    """Whether process ``pid`` has exited (a zombie not yet reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            state = file.read().rpartition(")")[2].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


class HumanMoves:
    """A player's human moves in the history database: the actions of their matches of
    Trash taken at a human's turn, each match replayed from its seed (incrementally: only
    the actions saved since the last look are applied)."""

    def __init__(self, history: History, owner: str) -> None:
        self.history = history
        self.owner = owner
        self.count = 0
        self.actions = 0  # every seat's actions, the bots' included
        self.human_to_move = False  # the latest match waits for a human (as saved)
        self._matches: dict[int, tuple[Match, set[int]]] = {}
        self._applied: dict[int, int] = {}

    def refresh(self) -> int:
        """Read the database again; the human moves it holds now."""
        rows = self.history.matches.of_player(self.owner, shared=False)
        for row in reversed(rows):  # the oldest first: the latest match is looked at last
            if row.game != TRASH:
                continue
            if row.id not in self._matches:
                humans = {seat for seat, spec in enumerate(row.seats) if spec == HUMAN}
                self._matches[row.id] = (Match(Rules.from_dict(row.rules), len(row.seats),
                                               row.seed), humans)
                self._applied[row.id] = 0
            match, humans = self._matches[row.id]
            if row.actions > self._applied[row.id]:
                for action in self.history.matches.match_actions(row.id)[self._applied[row.id]:]:
                    self.count += not match.over and match.to_move in humans
                    self.actions += 1
                    match.apply(action)
                    self._applied[row.id] += 1
            self.human_to_move = not match.over and match.to_move in humans
        return self.count


async def until(check: Callable[[], T | None], timeout: float) -> T | None:
    """Poll ``check()`` until it gives something other than None; that (None: timeout)."""
    deadline = time.monotonic() + timeout
    while (result := check()) is None and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return result


class SessionFailed(Exception):
    """A session did not get through its script; the message says at what and why."""


@dataclasses.dataclass
class Pace:
    """The crowd mode's rhythm: a key every ``every`` seconds until ``end`` (perf_counter)."""

    every: float
    end: float


class Player:
    """One client: its connection, what its terminal printed, and how far it got."""

    way = "ssh"

    def __init__(self, number: int, key: asyncssh.SSHKey, history: History,
                 pid_of: Callable[[str], int | None], pace: Pace | None = None) -> None:
        self.number = number
        self.username = f"bench{number}"
        self.key = key
        self.owner = key.get_fingerprint("sha256")
        self.history = history
        self.human_moves = HumanMoves(history, owner=self.owner)
        self.pid_of = pid_of
        self.pace = pace
        # The output as text (escape sequences and spaces removed), chunk by chunk, with
        # where each chunk starts in the bytes and when it arrived: reading the screen
        # costs this process little (it also runs the server).
        self.received = 0  # bytes of output so far
        self.chunks: list[str] = []
        self.starts: list[int] = []
        self.arrivals: list[float] = []
        self.arrived = asyncio.Event()  # set whenever output arrives or the session ends
        self.ended = False
        self.process: asyncssh.SSHClientProcess | None = None
        self.started = 0.0
        self.connected: float | None = None  # seconds from the start to an open terminal
        self.first_screen: float | None = None  # seconds from the start to the name prompt
        self.first_screen_cpu: float | None = None  # the app's CPU once it has settled
        self.match_cpu: float | None = None  # the app's CPU when it starts the match
        self.last_move_cpu: float | None = None  # the app's CPU when its last move was made
        self.latencies: list[float] = []  # seconds from a key to the screen answering it
        self.moves = 0
        self.saved_moves: int | None = None  # human moves in the history database
        self.saved_actions = 0  # all the actions of their matches (the bots' too)
        self.saving_problem: str | None = None  # what the board said when saving stopped
        self.unrecognised = 0  # moves made whose answer the screen did not show as expected
        self.found_at = 0  # where the chunk showing what ``wait_for`` found starts
        self.stage = "connecting"
        self.failure: str | None = None
        self._pid: int | None = None
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = b""

    @property
    def pid(self) -> int | None:
        """The process id of this session's app (None until the server has started it)."""
        if self._pid is None:
            self._pid = self.pid_of(self.owner)
        return self._pid

    # --- the terminal --------------------------------------------------------------------
    def feed(self, chunk: bytes) -> None:
        """Take the next chunk of output; note when the name prompt shows."""
        now = time.perf_counter()
        readable, self._pending = cut_before_partial_escape(self._pending + chunk)
        text = squeezed(self._decoder.decode(_ESCAPES.sub(b"", readable)).translate(_CONTROLS))
        self.starts.append(self.received)
        self.chunks.append(text)
        self.arrivals.append(now)
        self.received += len(chunk)
        if self.first_screen is None and squeezed(NAME_PROMPT) in "".join(self.chunks):
            self.first_screen = now - self.started
        self.arrived.set()

    async def read_output(self) -> None:
        """Collect the session's output until it ends."""
        assert self.process is not None
        try:
            while chunk := await self.process.stdout.read(65536):
                self.feed(chunk)
        except (asyncssh.Error, ConnectionError):
            pass
        finally:
            self.ended = True
            self.arrived.set()

    def first_chunk_from(self, since: int) -> int:
        """The index of the first chunk that holds bytes from ``since`` on (the number of
        chunks if none does yet)."""
        if since >= self.received:
            return len(self.chunks)
        return max(0, bisect.bisect_right(self.starts, since) - 1)

    def text_since(self, since: int) -> str:
        """The text of the output from the chunk that holds byte ``since`` on."""
        return "".join(self.chunks[self.first_chunk_from(since):])

    def excerpt(self, needle: str) -> str | None:
        """The text around the first place the output shows ``needle`` (None: nowhere)."""
        text = "".join(self.chunks)
        found = text.find(squeezed(needle))
        return None if found < 0 else text[max(0, found - 40):found + 80]

    async def next_output(self, timeout: float) -> None:
        """Wait for more output (or the end of the session) for up to ``timeout`` s."""
        self.arrived.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.arrived.wait(), max(0.0, timeout))

    def latest(self, needles: Sequence[str], since: int) -> tuple[str, int] | None:
        """Which of ``needles`` the output from byte ``since`` shows last, and where the
        chunk showing it starts (in bytes); None if it shows none."""
        first = self.first_chunk_from(since)
        text = "".join(self.chunks[first:])
        found = max(((text.rfind(squeezed(needle)), needle) for needle in needles),
                    default=(-1, ""))
        if found[0] < 0:
            return None
        offset, index = 0, first
        while offset + len(self.chunks[index]) <= found[0]:
            offset += len(self.chunks[index])
            index += 1
        return found[1], self.starts[index]

    async def wait_for(self, *needles: str, since: int, timeout: float = STAGE_TIMEOUT) -> str:
        """Wait until the output from byte ``since`` shows one of ``needles``; the one it
        shows last (``found_at``: where the chunk showing it starts)."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.latest(needles, since)
            if found is not None:
                needle, self.found_at = found
                return needle
            text = self.text_since(since)
            if self.ended:
                raise SessionFailed(f"the session ended while waiting for {needles[0]!r}: "
                                    f"...{text[-120:]!r}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise SessionFailed(f"no {needles[0]!r} on screen after {timeout:.0f} s: "
                                    f"...{text[-120:]!r}")
            await self.next_output(left)

    async def settled(self, quiet: float = QUIET) -> None:
        """Wait until no output has arrived for ``quiet`` seconds."""
        deadline = time.monotonic() + STAGE_TIMEOUT
        while not self.ended and time.monotonic() < deadline:
            last = self.arrivals[-1] if self.arrivals else self.started
            left = last + quiet - time.perf_counter()
            if left <= 0:
                return
            await asyncio.sleep(left)

    async def answered(self, since: int, status: str, timeout: float
                       ) -> tuple[float, int] | None:
        """When the screen first answered a key written at byte ``since`` of the output,
        the status line being ``status`` (``status_choices``): the arrival (perf_counter)
        and start (bytes) of the first chunk from which the output after the key shows a
        status line of a move being made or over (``ANSWERS``) or another "Your move"
        (other choices); None if none came within ``timeout`` s."""
        deadline = time.monotonic() + timeout
        first = index = len(self.starts)  # chunks before the key was written are not answers
        answers = [squeezed(answer) for answer in ANSWERS]
        while True:
            while index < len(self.chunks):
                text = "".join(self.chunks[first:index + 1])
                choices = status_choices(text)
                if any(answer in text for answer in answers) or \
                        (choices is not None and choices != status):
                    return self.arrivals[index], self.starts[index]
                index += 1
            left = deadline - time.monotonic()
            if self.ended or left <= 0:
                return None
            await self.next_output(left)

    def press(self, key: str) -> None:
        assert self.process is not None
        self.process.stdin.write(key.encode())

    # --- the history database -----------------------------------------------------------
    async def human_move_saved(self, before: int, timeout: float) -> bool:
        """Wait until the database holds more than ``before`` human moves of this player."""
        return await until(lambda: True if self.human_moves.refresh() > before else None,
                           timeout) is not None

    # --- the script ----------------------------------------------------------------------
    async def run(self, port: int, moves: int) -> None:
        """Connect, sit down, play ``moves`` moves (or until the pace's end), quit;
        ``failure`` says what went wrong."""
        self.started = time.perf_counter()
        try:
            async with await asyncssh.connect(
                    "127.0.0.1", port, username=self.username, known_hosts=None,
                    agent_path=None, client_keys=[self.key]) as conn:
                self.stage = "opening the terminal"
                self.process = await conn.create_process(
                    term_type="xterm-256color", term_size=TERM_SIZE, encoding=None)
                self.connected = time.perf_counter() - self.started
                reader = asyncio.ensure_future(self.read_output())
                try:
                    await self.script(moves)
                    self.stage = "waiting for the exit status"
                    await asyncio.wait_for(reader, STAGE_TIMEOUT)
                    result = await asyncio.wait_for(self.process.wait(), STAGE_TIMEOUT)
                    if result.exit_status != 0:
                        raise SessionFailed(f"exit status {result.exit_status}")
                finally:
                    reader.cancel()
        except SessionFailed as exc:
            self.failure = f"{self.stage}: {exc}"
        except (OSError, asyncssh.Error, TimeoutError) as exc:
            self.failure = f"{self.stage}: {type(exc).__name__}: {exc}"

    async def script(self, moves: int) -> None:
        self.stage = "the name prompt"
        await self.wait_for(NAME_PROMPT, since=0)
        await self.settled()
        self.first_screen_cpu = cpu_of(self.pid)
        self.stage = "sitting down"
        mark = self.received
        self.press("\r")  # the name is registered once the prompt has closed
        if await until(lambda: self.history.players.player_name(self.owner), STAGE_TIMEOUT) is None:
            raise SessionFailed("the name never reached the history database")
        mark = await self.start_match(mark)
        self.stage = "playing"
        await self.play(moves, mark)
        self.stage = "going back to the lobby"
        await self.back_to_the_lobby()
        self.stage = "quitting"
        self.press("q")

    async def start_match(self, mark: int) -> int:
        """Wait for the lobby drawn from byte ``mark`` on (keys typed before it are
        dropped), then start a match (``n``) and wait for it in the history database;
        where the output stood when ``n`` was pressed."""
        self.stage = "waiting for the lobby"
        await self.wait_for(LOBBY, since=mark)
        await self.settled()
        self.stage = "starting a match"
        if self.match_cpu is None:
            self.match_cpu = cpu_of(self.pid)
        before = self.saved_matches()
        mark = self.received
        deadline = time.monotonic() + STAGE_TIMEOUT
        while time.monotonic() < deadline:
            if squeezed(BOARD) not in self.text_since(mark):  # the lobby may have been
                self.press("n")  # drawn before it takes keys: press again
            if await until(lambda: True if self.saved_matches() > before else None,
                           NEW_MATCH_WAIT) is not None:
                return mark
        raise SessionFailed("no new match in the history database")

    def saved_matches(self) -> int:
        return len(self.history.matches.of_player(self.owner))

    def playing(self, moves: int) -> bool:
        if self.pace is not None:
            return time.perf_counter() < self.pace.end
        return self.moves < moves

    async def play(self, moves: int, mark: int) -> None:
        """Make moves, reading the output from byte ``mark`` on: at each "Your move", a key
        (the crowd mode's from the status line, at its pace) or keys in turn until one is
        saved; enter at the end of a deal; a new match at the end of one."""
        next_key = time.perf_counter() + (random.uniform(0, self.pace.every)
                                          if self.pace is not None else 0.0)
        while self.playing(moves):
            self.stage = (f"playing (move {self.moves + 1})" if self.pace is not None
                          else f"playing (move {self.moves + 1} of {moves})")
            shown = await self.next_screen(mark)
            if shown == DEAL_OVER:  # the deal ended: its summary waits for enter
                mark = await self.close_summary()
                continue
            if shown == MATCH_OVER:  # the standings: back to the lobby, and a new match
                mark = self.received
                self.press("\r")
                mark = await self.start_match(mark)
                continue
            if self.pace is not None:
                await self.settled()
                await asyncio.sleep(max(0.0, next_key - time.perf_counter()))
                if not self.playing(moves):
                    break
                next_key = time.perf_counter() + self.pace.every
                status = self.text_since(mark) if shown == YOUR_MOVE else ""
                key = status_choice(status)
                if key is not None:
                    mark = await self.timed_move(key, status_choices(status) or "")
                    continue
            await self.try_keys()
            mark = self.received

    async def next_screen(self, mark: int) -> str:
        """What the output from byte ``mark`` on shows next: "Your move", the end of a
        deal or of the match. Every ``RECHECK_AFTER`` s without one, the history database
        is asked: if the saved match waits for the human (a key the app ignored while it
        was busy, a status line drawn again unchanged), ``UNSEEN``. Output from before
        ``mark`` is never read again (it would be the screen from before the last key)."""
        needles = (DEAL_OVER, YOUR_MOVE, MATCH_OVER)
        deadline = time.monotonic() + STAGE_TIMEOUT
        while True:
            try:
                return await self.wait_for(*needles, since=mark, timeout=RECHECK_AFTER)
            except SessionFailed:
                if self.ended or time.monotonic() > deadline:
                    raise
            self.human_moves.refresh()
            if self.human_moves.human_to_move:
                return UNSEEN

    async def timed_move(self, key: str, status: str) -> int:
        """Press ``key`` (offered by the settled status line, whose choices are
        ``status``) and time the answer; where the output stood at the answer."""
        mark = self.received
        before = self.human_moves.refresh()
        pressed = time.perf_counter()
        self.press(key)
        answer = await self.answered(mark, status, ANSWER_WAIT)
        if answer is not None:
            self.latencies.append(answer[0] - pressed)
            self.made_a_move()
            return answer[1]
        if self.ended or not await self.human_move_saved(before, KEY_WAIT):
            raise SessionFailed(f"no answer to {key!r} on screen")
        self.unrecognised += 1  # made, but the screen did not say so as expected
        self.made_a_move()
        return self.received

    async def close_summary(self) -> int:
        """Close the summary of a deal (enter, again if the board does not come back);
        where the output stood when the board showed again."""
        for _ in range(5):
            mark = self.received
            self.press("\r")
            with contextlib.suppress(SessionFailed):
                await self.wait_for(YOUR_MOVE, PLAYING, CHAIN, MATCH_OVER, since=mark,
                                    timeout=RECHECK_AFTER)
                return self.found_at
            if self.ended:
                break
        raise SessionFailed("enter did not close the summary of the deal")

    async def try_keys(self) -> None:
        """Press keys in turn until one's move reaches the history database as a human
        move (a bot's action saved meanwhile does not count)."""
        before = self.human_moves.refresh()
        for key in MOVE_KEYS:
            self.press(key)
            if await self.human_move_saved(before, KEY_WAIT):
                self.made_a_move()
                return
        self.press("\r")  # no key was taken: a dialog may be in front of the board

    def made_a_move(self) -> None:
        self.moves += 1
        self.last_move_cpu = cpu_of(self.pid)

    async def back_to_the_lobby(self) -> None:
        """Escape until the lobby shows (the first escape may close a summary)."""
        for _ in range(5):
            mark = self.received
            self.press("\x1b")
            with contextlib.suppress(SessionFailed):
                await self.wait_for(LOBBY, since=mark, timeout=10)
                return
            if self.ended:
                break
        raise SessionFailed("escape did not lead back to the lobby")

    @property
    def move_cpu(self) -> float | None:
        """The app's CPU from the start of the match to its last move (None: not known)."""
        if self.match_cpu is None or self.last_move_cpu is None:
            return None
        return self.last_move_cpu - self.match_cpu


class WebPlayer(Player):
    """A browser without a browser: the page's request (its cookie: a new player), then
    the page's WebSocket, spoken as textual.js does."""

    way = "web"

    def __init__(self, number: int, history: History, pid_of: Callable[[str], int | None],
                 browsers: Browsers, web_port: int, pace: Pace | None = None) -> None:
        super().__init__(number, asyncssh.generate_private_key("ssh-ed25519"), history,
                         pid_of, pace)
        self.owner = ""  # the browser's player, once the page has been loaded
        self.browsers = browsers
        self.web_port = web_port
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.sending: set[asyncio.Task[None]] = set()

    async def read_output(self) -> None:
        assert self.socket is not None
        try:
            async for message in self.socket:
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.feed(message.data)
        except (aiohttp.ClientError, ConnectionError):
            pass
        finally:
            self.ended = True
            self.arrived.set()

    def press(self, key: str) -> None:
        assert self.socket is not None
        task = asyncio.ensure_future(self.socket.send_str(json.dumps(["stdin", key])))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def run(self, port: int, moves: int) -> None:
        self.started = time.perf_counter()
        base = f"http://127.0.0.1:{self.web_port}"
        try:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                self.stage = "loading the page"
                async with http.get(base + "/") as answer:
                    await answer.read()
                    if answer.status != 200:
                        raise SessionFailed(f"the page answered {answer.status}")
                token = next(c.value for c in http.cookie_jar if c.key == COOKIE)
                self.owner = await self.browsers.known(token) or ""
                self.human_moves = HumanMoves(self.history, owner=self.owner)
                self.stage = "opening the socket"
                self.socket = await http.ws_connect(
                    f"ws://127.0.0.1:{self.web_port}/ws?width={TERM_SIZE[0]}&"
                    f"height={TERM_SIZE[1]}", origin=base, max_msg_size=0)
                await self.socket.send_str(json.dumps(
                    ["resize", {"width": TERM_SIZE[0], "height": TERM_SIZE[1]}]))
                self.connected = time.perf_counter() - self.started
                reader = asyncio.ensure_future(self.read_output())
                try:
                    await self.script(moves)
                    self.stage = "waiting for the end"
                    await asyncio.wait_for(reader, STAGE_TIMEOUT)
                    if self.socket.close_code != 1000:
                        raise SessionFailed(f"closed with {self.socket.close_code}")
                finally:
                    reader.cancel()
        except SessionFailed as exc:
            self.failure = f"{self.stage}: {exc}"
        except (OSError, aiohttp.ClientError, TimeoutError, StopIteration) as exc:
            self.failure = f"{self.stage}: {type(exc).__name__}: {exc}"


@dataclasses.dataclass
class MemorySample:
    """The memory of every session's app at the last moment the most sessions were up."""

    sessions: dict[int, float] = dataclasses.field(default_factory=dict)
    proportional: dict[int, float] = dataclasses.field(default_factory=dict)
    this_process: float = 0.0
    #: The CPU seconds of every session app, as last seen (forked apps are not children
    #: of this process, so the operating system's child accounting misses them).
    cpu: dict[int, float] = dataclasses.field(default_factory=dict)
    #: ``--pages``: the module comparing pages (``fork_pages.py``), and its splits of the
    #: private memory of up to ``PAGES_SAMPLE`` sessions at the sample kept.
    pages_module: Any = None
    pages: list[Any] = dataclasses.field(default_factory=list)

    def take_cpu(self, server: RunningServer) -> None:
        for session in server.sessions:
            used = cpu_of(session.pid)
            if used is not None and session.pid is not None:
                self.cpu[session.pid] = used

    def take_memory(self, server: RunningServer) -> None:
        """Sample now if at least as many sessions are up as in the sample kept so far
        (the latest such moment wins: the apps have grown the most by then)."""
        pids = [session.pid for session in server.sessions if session.pid is not None]
        if not pids or len(pids) < len(self.sessions):
            return
        sizes = {pid: rss_mb(pid) for pid in pids}
        if len(pids) > len(self.sessions) or None not in sizes.values():
            self.sessions = {pid: size for pid, size in sizes.items() if size is not None}
            shares = {pid: pss_mb(pid) for pid in self.sessions}
            self.proportional = {pid: size for pid, size in shares.items() if size is not None}
            self.this_process = rss_mb("self") or 0.0
            if self.pages_module is not None:
                splits = [self.pages_module.split(pid) for pid in list(self.sessions)[
                    :PAGES_SAMPLE]]
                self.pages = [page_split for page_split in splits if page_split is not None]


async def sample_apps(server: RunningServer, sample: MemorySample) -> None:
    """Sample the apps' CPU every ``SAMPLE_EVERY`` s and their memory every
    ``MEMORY_EVERY`` s."""
    memory_due = 0.0
    while True:
        sample.take_cpu(server)
        if time.monotonic() >= memory_due:
            sample.take_memory(server)
            memory_due = time.monotonic() + MEMORY_EVERY
        await asyncio.sleep(SAMPLE_EVERY)


def bench_config(folder: Path, sessions: int) -> ServerConfig:
    """The server's config: its files in ``folder``, limits for ``sessions`` from one
    address (sessions, open connections, new connections a minute), a free port, no idle
    timeout."""
    connections = max(100, 2 * sessions)
    return ServerConfig(host="127.0.0.1", port=0, host_key=folder / "host_key",
                        history=folder / "history.sqlite3", players_dir=folder / "players",
                        log=folder / "ssh.log", max_sessions=sessions,
                        sessions_per_ip=sessions, max_connections=connections,
                        connections_per_ip=connections,
                        connections_per_minute=2 * sessions + 10, idle_timeout=0)


@dataclasses.dataclass
class Outcome:
    """What one run of the benchmark measured."""

    players: list[Player]
    moves: int  # moves each session plays (the default mode)
    pace: Pace | None  # the crowd mode's rhythm
    seconds: float  # the crowd mode's playing time after the last arrival
    ramp: float  # seconds over which the crowd arrived
    wall: float  # seconds from the first connection to the last session's end
    memory: MemorySample
    apps_cpu: float  # CPU seconds of the session apps (user + system)
    own_cpu: float  # CPU seconds of this process: the server and the clients
    machine_busy: float  # CPU seconds the whole machine was busy during the run
    machine_total: float  # CPU seconds the machine had during the run (all cores)
    notes: list[str]  # the server's lines about errors
    left: int  # session apps still running after the server stopped
    reference: tuple[float | None, float | None]  # ``reference_workload``: before, after


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def fork_pages() -> Any:
    """``benchmarks/fork_pages.py``, loaded from beside this file (this folder is not on
    the import path: its ``bots.py`` would hide the ``bots`` package)."""
    spec = importlib.util.spec_from_file_location(
        "fork_pages", Path(__file__).with_name("fork_pages.py"))
    assert spec is not None and spec.loader is not None
    module = sys.modules["fork_pages"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def bench(sessions: int, moves: int, crowd: bool = False, seconds: float = 60.0,
                every: float = 3.0, ramp: float = 0.0, pages: bool = False, web: int = 0
                ) -> Outcome:
    """Serve ``sessions`` players, each playing ``moves`` moves (or, in a crowd arriving
    over ``ramp`` s, a move every ``every`` s for ``seconds`` s after the last arrival);
    ``web`` of them from browsers (every other one, from the first)."""
    with tempfile.TemporaryDirectory() as folder:
        config = bench_config(Path(folder), sessions)
        if web:
            config = dataclasses.replace(config, web=WebConfig(port=0))
        echo = io.StringIO()
        server = await start_server(config, echo=echo, link_codes=Browsers if web else None)
        front = await start_web(server) if web else None
        history = open_history(config.history)
        memory = MemorySample(pages_module=fork_pages() if pages else None)
        sampler = asyncio.ensure_future(sample_apps(server, memory))
        pids: set[int] = set()

        def pid_of(owner: str) -> int | None:
            return next((session.pid for session in server.sessions
                         if owner and session.player == owner), None)

        try:
            keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(sessions)]
            reference_before = reference_workload()  # (before this process's CPU count)
            apps_cpu, own_cpu = cpu_seconds(resource.RUSAGE_CHILDREN), \
                cpu_seconds(resource.RUSAGE_SELF)
            machine = machine_cpu()
            started = time.perf_counter()
            pace = Pace(every, started + ramp + seconds) if crowd else None
            browsers = set(range(1, sessions + 1, 2)[:web])  # (every other one)
            browsers |= set(range(2, sessions + 1, 2)[:max(0, web - len(browsers))])
            players = [WebPlayer(number, history, pid_of, Browsers(server.state.worker),
                                 front.port, pace)
                       if front is not None and number in browsers else
                       Player(number, key, history, pid_of, pace)
                       for number, key in enumerate(keys, 1)]

            async def arrive(player: Player, delay: float) -> None:
                await asyncio.sleep(delay)
                await player.run(server.port, moves)

            runs = [asyncio.ensure_future(arrive(player, ramp * index / sessions))
                    for index, player in enumerate(players)]
            while not all(run.done() for run in runs):
                pids.update(s.pid for s in server.sessions if s.pid is not None)
                await asyncio.wait(runs, timeout=SAMPLE_EVERY)
            wall = time.perf_counter() - started
            machine_busy, machine_total = (now - before for now, before
                                           in zip(machine_cpu(), machine, strict=True))
            memory.take_cpu(server)
        finally:
            sampler.cancel()
            await server.stop(grace=3.0)
        try:
            for player in players:
                saved = HumanMoves(history, player.owner)
                player.saved_moves = saved.refresh()
                player.saved_actions = saved.actions
                player.saving_problem = player.excerpt(NOT_SAVED)
        finally:
            history.close()
        apps_cpu = max(cpu_seconds(resource.RUSAGE_CHILDREN) - apps_cpu,
                       sum(memory.cpu.values()))  # forked apps are not our children
        own_cpu = cpu_seconds(resource.RUSAGE_SELF) - own_cpu
        notes = [line for line in echo.getvalue().splitlines()
                 if " error" in line or "failed" in line]
        left = sum(not process_gone(pid) for pid in pids)
        reference = (reference_before, reference_workload())
    return Outcome(players, moves, pace, seconds, ramp, wall, memory, apps_cpu, own_cpu,
                   machine_busy, machine_total, notes, left, reference)


def by_way(players: Sequence[Player]) -> None:
    """The first screen, the CPU per human move and per first screen, and the key-to-screen
    latency of the SSH sessions and of the browsers' apart (issue 39)."""
    for way, what in (("ssh", "over SSH"), ("web", "from browsers")):
        group = [player for player in players if player.way == way]
        if not group:
            continue
        served = [p.first_screen for p in group if p.first_screen is not None]
        timed = [p for p in group if p.move_cpu is not None]
        timed_moves = sum(p.saved_moves or 0 for p in timed)
        first_cpu = [p.first_screen_cpu for p in group if p.first_screen_cpu is not None]
        latencies = [latency for p in group for latency in p.latencies]
        parts = [f"{len(group)} sessions {what}:"]
        if served:
            parts.append(f"first screen median {statistics.median(served):.2f} s, worst "
                         f"{max(served):.2f} s" + (" (from the page's request)"
                                                   if way == "web" else ""))
        if timed_moves:
            parts.append(f"CPU per human move "
                         f"{sum(p.move_cpu or 0.0 for p in timed) / timed_moves * 1000:.0f} ms")
        if first_cpu:
            parts.append(f"per first screen median {statistics.median(first_cpu) * 1000:.0f} ms")
        if latencies:
            parts.append(f"key to screen median {statistics.median(latencies) * 1000:.0f} ms, "
                         f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms")
        print(f"  {parts[0]} " + "; ".join(parts[1:]))


def verdict(met: bool) -> str:
    return "meets it" if met else "misses it"


def report(outcome: Outcome) -> None:
    """Print the figures and the verdicts against the targets."""
    players = outcome.players
    count = len(players)
    served = [p.first_screen for p in players if p.first_screen is not None]
    connected = [p.connected for p in players if p.connected is not None]
    failed = [p for p in players if p.failure is not None]
    terminal = f"{TERM_SIZE[0]}×{TERM_SIZE[1]} xterm-256color"
    browsers = sum(player.way == "web" for player in players)
    sessions = "SSH sessions" if not browsers else \
        f"sessions ({count - browsers} over SSH, {browsers} from browsers)"
    if outcome.pace is None:
        print(f"{count} concurrent {sessions}, {outcome.moves} moves each, {terminal}")
    else:
        print(f"a crowd of {count} {sessions} arriving over {outcome.ramp:.0f} s, each "
              f"playing a move every {outcome.pace.every:g} s until {outcome.seconds:.0f} s "
              f"after the last arrival, {terminal}")
    print(f"sessions served (name prompt shown): {len(served)} of {count}; "
          f"completed (played, quit with status 0): {count - len(failed)}; "
          f"failed: {len(failed)}")
    for player in failed[:20]:
        print(f"  session {player.number} failed at {player.failure} "
              f"({player.moves} moves made)")
    if len(failed) > 20:
        print(f"  ... and {len(failed) - 20} more")
    for note in outcome.notes[:10]:
        print(f"  server: {note}")
    if connected:
        print(f"connection and terminal open: median {statistics.median(connected):.2f} s, "
              f"worst {max(connected):.2f} s")
    if served:
        print(f"time to first screen: median {statistics.median(served):.2f} s, "
              f"worst {max(served):.2f} s, best {min(served):.2f} s")
    made = sum(player.moves for player in players)
    saved = sum(player.saved_moves or 0 for player in players)
    lost = sum(max(0, player.moves - (player.saved_moves or 0)) for player in players)
    wanted = f" of {count * outcome.moves}" if outcome.pace is None else ""
    print(f"moves made: {made}{wanted}; human moves in the history database: {saved}; "
          f"moves lost (made on the screen, not in the database): {lost}")
    for player in [p for p in players if p.moves != (p.saved_moves or 0)][:10]:
        print(f"  session {player.number}: {player.moves} moves made, "
              f"{player.saved_moves or 0} in the database")
    unsaved = [player for player in players if player.saving_problem]
    for player in unsaved[:5]:
        print(f"  session {player.number}'s board says: ...{player.saving_problem}...")
    if len(unsaved) > 5:
        print(f"  ... and {len(unsaved) - 5} more sessions whose board says so")
    unrecognised = sum(player.unrecognised for player in players)
    if unrecognised:
        print(f"  moves made (in the database) whose answer the screen did not show as "
              f"expected within {ANSWER_WAIT:.0f} s (no latency for them): {unrecognised}")
    latencies = [latency for player in players for latency in player.latencies]
    p95 = percentile(latencies, 0.95) if latencies else math.inf
    if latencies:
        print(f"key to screen ({len(latencies)} moves): median "
              f"{statistics.median(latencies) * 1000:.0f} ms, 95th percentile "
              f"{p95 * 1000:.0f} ms, 99th {percentile(latencies, 0.99) * 1000:.0f} ms, "
              f"worst {max(latencies) * 1000:.0f} ms")
    busy = outcome.machine_busy / outcome.machine_total if outcome.machine_total else 0.0
    cores = os.cpu_count() or 1
    print(f"total wall time: {outcome.wall:.1f} s; CPU: session apps {outcome.apps_cpu:.1f} s "
          f"({outcome.apps_cpu / count:.2f} s each), this process (server and clients) "
          f"{outcome.own_cpu:.1f} s; the machine's {cores} cores were {busy:.0%} busy "
          f"({outcome.machine_busy:.0f} s, of which other processes "
          f"{max(0.0, outcome.machine_busy - outcome.apps_cpu - outcome.own_cpu):.0f} s)")
    before, after = (f"{value * 1000:.0f} ms" if value is not None else "(failed)"
                     for value in outcome.reference)
    print(f"this machine's speed now (the ms of CPU below move with it): a local match "
          f"played headless takes {before} of CPU an action before the run, {after} after "
          f"it (benchmarks/local_play.py)")
    timed = [player for player in players if player.move_cpu is not None]
    timed_moves = sum(player.saved_moves or 0 for player in timed)
    move_cpu = (sum(player.move_cpu or 0.0 for player in timed) / timed_moves
                if timed_moves else math.inf)
    if timed_moves:
        print(f"CPU of the session apps per human move (from starting the match to the last "
              f"move, {len(timed)} sessions, {timed_moves} human moves in the database): "
              f"{move_cpu * 1000:.0f} ms")
        actions = sum(player.saved_actions for player in timed)
        print(f"  the matches differ from run to run (random seeds): {actions / timed_moves:.1f} "
              f"actions a human move (the bots' included), "
              f"{sum(p.move_cpu or 0.0 for p in timed) / max(1, actions) * 1000:.1f} ms of "
              f"CPU an action")
    first_cpu = [p.first_screen_cpu for p in players if p.first_screen_cpu is not None]
    if first_cpu:
        print(f"CPU per first screen (an app's CPU when its name prompt is drawn): median "
              f"{statistics.median(first_cpu) * 1000:.0f} ms, max {max(first_cpu) * 1000:.0f} ms")
    to_lobby = [p.match_cpu for p in players if p.match_cpu is not None]
    sitting = [p.match_cpu - p.first_screen_cpu for p in players
               if p.match_cpu is not None and p.first_screen_cpu is not None]
    if to_lobby and sitting:
        print(f"  then from the name to the lobby (built at the player's first key): median "
              f"{statistics.median(sitting) * 1000:.0f} ms; in all to the lobby: median "
              f"{statistics.median(to_lobby) * 1000:.0f} ms, max {max(to_lobby) * 1000:.0f} ms")
    memory = outcome.memory
    shares: list[float] = list(memory.proportional.values())
    if memory.sessions:
        sizes = list(memory.sessions.values())
        print(f"memory per session app (RSS with {len(sizes)} up at once): median "
              f"{statistics.median(sizes):.1f} MB, max {max(sizes):.1f} MB, "
              f"all together {sum(sizes):.0f} MB")
        if shares:
            print(f"  proportional (PSS: pages shared by the forked apps split between them): "
                  f"median {statistics.median(shares):.1f} MB, max {max(shares):.1f} MB, "
                  f"all together {sum(shares):.0f} MB")
        print(f"this process (server and {count} clients) at that moment: "
              f"{memory.this_process:.1f} MB")
        if memory.pages_module is not None:
            print(f"  where a session's private memory comes from: "
                  f"{memory.pages_module.summary(memory.pages)}" if memory.pages else
                  "  where a session's private memory comes from: unknown (run as root to "
                  "read the page frame numbers)")
    if outcome.left:
        print(f"session apps still running after the server stopped: {outcome.left}")
    if outcome.pace is None:
        median = statistics.median(served) if served else math.inf
        met = len(served) == count and not failed and median < TARGET
        print(f"target: all {count} served with no failure, first screen under {TARGET:.0f} s "
              f"at the median — {verdict(met)}")
    else:
        met = not failed and not lost and p95 < TARGET_LATENCY_P95
        print(f"target (issue 14): key to screen under {TARGET_LATENCY_P95 * 1000:.0f} ms at "
              f"the 95th percentile, no failure, no move lost — {verdict(met)}")
    if browsers:
        by_way(players)
    print(f"targets (issue 14): CPU per human move ≤ {TARGET_MOVE_CPU * 1000:.0f} ms — "
          f"{verdict(move_cpu <= TARGET_MOVE_CPU)}; per first screen ≤ "
          f"{TARGET_FIRST_SCREEN_CPU * 1000:.0f} ms (max) — "
          f"{verdict(bool(first_cpu) and max(first_cpu) <= TARGET_FIRST_SCREEN_CPU)}; "
          f"PSS per session ≤ {TARGET_PSS:.0f} MB (max) — "
          f"{verdict(bool(shares) and max(shares) <= TARGET_PSS)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=None,
                        help="concurrent sessions (20; 100 with --crowd)")
    parser.add_argument("--moves", type=int, default=5, help="moves each session plays")
    parser.add_argument("--crowd", action="store_true",
                        help="a crowd playing at a pace, with the key-to-screen latency")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="--crowd: seconds of play after the last arrival")
    parser.add_argument("--every", type=float, default=3.0,
                        help="--crowd: seconds between two moves of a session")
    parser.add_argument("--ramp", type=float, default=None,
                        help="--crowd: seconds over which the sessions arrive "
                             "(default: a tenth of a second each)")
    parser.add_argument("--web", type=int, default=0,
                        help="how many of the sessions come from browsers (the web face)")
    parser.add_argument("--pages", action="store_true",
                        help="say where a session's private memory comes from (as root)")
    args = parser.parse_args()
    sessions = args.sessions if args.sessions is not None else (100 if args.crowd else 20)
    ramp = args.ramp if args.ramp is not None else (sessions / 10 if args.crowd else 0.0)
    if sessions < 1 or args.moves < 0 or not 0 <= args.web <= sessions:
        parser.error("--sessions must be at least 1, --moves at least 0 and --web from 0 "
                     "to --sessions")
    if not all(math.isfinite(value) and value >= 0
               for value in (args.seconds, args.every, ramp)) or args.every <= 0:
        parser.error("--seconds and --ramp must be 0 or more, --every more than 0")
    report(asyncio.run(bench(sessions, args.moves, args.crowd, args.seconds, args.every,
                             ramp if args.crowd else 0.0, args.pages, args.web)))


if __name__ == "__main__":
    main()
