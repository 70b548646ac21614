"""SSH server load: 20 concurrent sessions that each sit down, start a match and play moves.

Starts the server in this process (``start_server``) on a free port of 127.0.0.1, with its
host key, log, players folder and history database in a temporary folder, its limits
raised so that every session may come from 127.0.0.1, and no idle timeout. Then N asyncssh
clients connect at once, each with a key of its own (so each is a new player) and a
100×32 xterm-256color terminal. Each one waits for the name prompt ("Welcome to Trash!"),
accepts the suggested name (enter), starts a match (``n``), plays its moves (``s``, or
what the decision needs: keep, call, a wild's slot; each move is counted once the history
database holds it), goes back to the lobby (escape) and quits (``q``), expecting exit
status 0.

Prints the sessions served and failed (with why), the time to first screen (from starting
the connection to the first output showing the name prompt: median and worst), the total
wall time, the memory of each session's app (its RSS while the most sessions were up at
once: median and max) and this process's own RSS (the server and the clients). Target on
this 2-core machine: all 20 served with no failure, first screen in under 3 s at the
median.

    python benchmarks/ssh.py [--sessions N] [--moves N]
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
import contextlib
import dataclasses
import io
import os
import re
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import TypeVar

import asyncssh

from trash_tui.history import History
from trash_tui.ssh.config import ServerConfig
from trash_tui.ssh.server import RunningServer, start_server

TARGET = 3.0  # seconds to the first screen, at the median
TERM_SIZE = (100, 32)
NAME_PROMPT = "Welcome to Trash!"
LOBBY = "New match"  # the lobby's first button and footer key
YOUR_MOVE = "Your move"  # the board's status line when the human decides
DEAL_OVER = "Next deal"  # the deal-over summary's button and footer key
#: Keys tried at "Your move", in order: the stock, keep the wild, call "Trash!", a slot.
MOVE_KEYS = ("s", "k", "t", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0")
RECHECK_AFTER = 10.0  # seconds without the expected change before reading recent output
RECENT_OUTPUT = 24_000  # bytes: more than one full redraw of a 100x32 screen
KEY_WAIT = 1.5  # seconds for a key's move to reach the history database
SAMPLE_EVERY = 0.2  # seconds between two memory samples
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


def squeezed(text: str) -> str:
    """``text`` without spaces: the app positions words with cursor moves, not spaces."""
    return "".join(text.split())


def screen_text(data: bytes) -> str:
    """The text of terminal output, escape sequences and spaces removed."""
    return squeezed(_ESCAPES.sub(b"", data).decode("utf-8", "replace"))


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


def cpu_of(pid: int) -> float | None:
    """CPU seconds process ``pid`` has used so far (user + system), None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            fields = file.read().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_gone(pid: int) -> bool:
    """Whether process ``pid`` has exited (a zombie not yet reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            state = file.read().rpartition(")")[2].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


async def until(check: Callable[[], T | None], timeout: float) -> T | None:
    """Poll ``check()`` until it gives something other than None; that (None: timeout)."""
    deadline = time.monotonic() + timeout
    while (result := check()) is None and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return result


class SessionFailed(Exception):
    """A session did not get through its script; the message says at what and why."""


class Player:
    """One client: its connection, everything its terminal printed, and how far it got."""

    def __init__(self, number: int, key: asyncssh.SSHKey, history: History) -> None:
        self.number = number
        self.key = key
        self.owner = key.get_fingerprint("sha256")
        self.history = history
        self.output = bytearray()
        # The output as text (escape sequences and spaces removed), built chunk by chunk so
        # reading the screen costs this process little (it also runs the server), and
        # where each chunk starts in the bytes and in the text.
        self.text = ""
        self.chunk_starts: list[tuple[int, int]] = [(0, 0)]
        self.arrived = asyncio.Event()  # set whenever output arrives or the session ends
        self.ended = False
        self.process: asyncssh.SSHClientProcess | None = None
        self.started = 0.0
        self.connected: float | None = None  # seconds from the start to an open terminal
        self.first_screen: float | None = None  # seconds from the start to the name prompt
        self.moves = 0
        self.stage = "connecting"
        self.failure: str | None = None

    # --- the terminal --------------------------------------------------------------------
    async def read_output(self) -> None:
        """Collect the session's output until it ends; note when the name prompt shows."""
        assert self.process is not None
        wanted = squeezed(NAME_PROMPT)
        try:
            while chunk := await self.process.stdout.read(65536):
                self.output += chunk
                self.text += screen_text(chunk)
                self.chunk_starts.append((len(self.output), len(self.text)))
                if self.first_screen is None and wanted in self.text:
                    self.first_screen = time.perf_counter() - self.started
                self.arrived.set()
        except (asyncssh.Error, ConnectionError):
            pass
        finally:
            self.ended = True
            self.arrived.set()

    async def wait_for(self, *needles: str, since: int, timeout: float = STAGE_TIMEOUT) -> str:
        """Wait until the output from byte ``since`` shows one of ``needles``; that one."""
        wanted = {squeezed(needle): needle for needle in needles}
        deadline = time.monotonic() + timeout
        while True:
            self.arrived.clear()
            text = self.text_since(since)
            for squeezed_needle, needle in wanted.items():
                if squeezed_needle in text:
                    return needle
            if self.ended:
                raise SessionFailed(f"the session ended while waiting for {needles[0]!r}: "
                                    f"...{text[-120:]!r}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise SessionFailed(f"no {needles[0]!r} on screen after {timeout:.0f} s: "
                                    f"...{text[-120:]!r}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), left)

    def text_since(self, since: int) -> str:
        """The text of the output from the chunk that holds byte ``since`` on."""
        index = bisect.bisect_right(self.chunk_starts, (since, len(self.text) + 1)) - 1
        return self.text[self.chunk_starts[max(0, index)][1]:]

    def press(self, key: str) -> None:
        assert self.process is not None
        self.process.stdin.write(key.encode())

    # --- the history database -----------------------------------------------------------
    def saved_actions(self) -> int | None:
        """How many actions this player's latest match has in the database (None: no match)."""
        rows = self.history.matches(self.owner, limit=1)
        return rows[0].actions if rows else None

    async def action_saved(self, before: int | None, timeout: float) -> int | None:
        """Wait until the saved actions go past ``before``; the new count (None: never)."""
        def past() -> int | None:
            now = self.saved_actions()
            return now if now is not None and (before is None or now > before) else None
        return await until(past, timeout)

    # --- the script ----------------------------------------------------------------------
    async def run(self, port: int, moves: int) -> None:
        """Connect, sit down, play ``moves`` moves, quit; ``failure`` says what went wrong."""
        self.started = time.perf_counter()
        try:
            async with await asyncssh.connect(
                    "127.0.0.1", port, username=f"bench{self.number}", known_hosts=None,
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
        self.stage = "sitting down"
        self.press("\r")  # the name is registered once the prompt has closed
        if await until(lambda: self.history.player_name(self.owner), STAGE_TIMEOUT) is None:
            raise SessionFailed("the name never reached the history database")
        self.stage = "starting a match"
        mark = len(self.output)
        self.press("n")
        if await self.action_saved(None, STAGE_TIMEOUT) is None:
            raise SessionFailed("no match in the history database")
        self.stage = "playing"
        await self.play(moves, mark)
        self.stage = "going back to the lobby"
        await self.back_to_the_lobby()
        self.stage = "quitting"
        self.press("q")

    async def play(self, moves: int, mark: int) -> None:
        """Make ``moves`` moves: at each "Your move", press keys until one is saved."""
        while self.moves < moves:
            self.stage = f"playing (move {self.moves + 1} of {moves})"
            try:  # what changed since the last key; a screen that did not change (a key
                # the app ignored while it was busy) is read from the recent output
                shown = await self.wait_for(DEAL_OVER, YOUR_MOVE, since=mark,
                                            timeout=RECHECK_AFTER)
            except SessionFailed:
                if self.ended:
                    raise
                shown = await self.wait_for(DEAL_OVER, YOUR_MOVE,
                                            since=max(0, len(self.output) - RECENT_OUTPUT))
            if shown == DEAL_OVER:  # the deal ended: its summary waits for enter
                mark = len(self.output)
                self.press("\r")
                continue
            before = self.saved_actions()  # the bots wait for this decision
            for key in MOVE_KEYS:
                self.press(key)
                if await self.action_saved(before, KEY_WAIT) is not None:
                    self.moves += 1
                    break
            else:  # no key was taken: a dialog may be in front of the board
                self.press("\r")
            mark = len(self.output)

    async def back_to_the_lobby(self) -> None:
        """Escape until the lobby shows (the first escape may close a summary)."""
        for _ in range(5):
            mark = len(self.output)
            self.press("\x1b")
            with contextlib.suppress(SessionFailed):
                await self.wait_for(LOBBY, since=mark, timeout=10)
                return
            if self.ended:
                break
        raise SessionFailed("escape did not lead back to the lobby")


@dataclasses.dataclass
class MemorySample:
    """The RSS of every session's app at the moment the most sessions were up."""

    sessions: dict[int, float] = dataclasses.field(default_factory=dict)
    proportional: dict[int, float] = dataclasses.field(default_factory=dict)
    this_process: float = 0.0
    #: The CPU seconds of every session app, as last seen (forked apps are not children
    #: of this process, so the operating system's child accounting misses them).
    cpu: dict[int, float] = dataclasses.field(default_factory=dict)

    def take(self, server: RunningServer) -> None:
        """Sample now if at least as many sessions are up as in the sample kept so far
        (the latest such moment wins: the apps have grown the most by then)."""
        pids = [session.pid for session in server.sessions if session.pid is not None]
        for pid in pids:
            used = cpu_of(pid)
            if used is not None:
                self.cpu[pid] = used
        if not pids or len(pids) < len(self.sessions):
            return
        sizes = {pid: rss_mb(pid) for pid in pids}
        if len(pids) > len(self.sessions) or None not in sizes.values():
            self.sessions = {pid: size for pid, size in sizes.items() if size is not None}
            shares = {pid: pss_mb(pid) for pid in self.sessions}
            self.proportional = {pid: size for pid, size in shares.items() if size is not None}
            self.this_process = rss_mb("self") or 0.0


async def sample_memory(server: RunningServer, sample: MemorySample) -> None:
    while True:
        sample.take(server)
        await asyncio.sleep(SAMPLE_EVERY)


def bench_config(folder: Path, sessions: int) -> ServerConfig:
    """The server's config: its files in ``folder``, limits for ``sessions`` from one
    address, a free port, no idle timeout."""
    return ServerConfig(host="127.0.0.1", port=0, host_key=folder / "host_key",
                        history=folder / "history.sqlite3", players_dir=folder / "players",
                        log=folder / "ssh.log", max_sessions=sessions,
                        sessions_per_ip=sessions, connections_per_minute=2 * sessions + 10,
                        idle_timeout=0)


@dataclasses.dataclass
class Outcome:
    """What one run of the benchmark measured."""

    players: list[Player]
    moves: int
    wall: float  # seconds from the first connection to the last session's end
    memory: MemorySample
    apps_cpu: float  # CPU seconds of the session apps (user + system)
    own_cpu: float  # CPU seconds of this process: the server and the clients
    notes: list[str]  # the server's lines about errors
    left: int  # session apps still running after the server stopped


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


async def bench(sessions: int, moves: int) -> Outcome:
    """Serve ``sessions`` players at once, each playing ``moves`` moves."""
    with tempfile.TemporaryDirectory() as folder:
        config = bench_config(Path(folder), sessions)
        echo = io.StringIO()
        server = await start_server(config, echo=echo)
        history = History(config.history)
        memory = MemorySample()
        sampler = asyncio.ensure_future(sample_memory(server, memory))
        pids: set[int] = set()
        try:
            keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(sessions)]
            players = [Player(number, key, history) for number, key in enumerate(keys, 1)]
            apps_cpu, own_cpu = cpu_seconds(resource.RUSAGE_CHILDREN), \
                cpu_seconds(resource.RUSAGE_SELF)
            started = time.perf_counter()
            runs = [asyncio.ensure_future(player.run(server.port, moves))
                    for player in players]
            while not all(run.done() for run in runs):
                pids.update(s.pid for s in server.sessions if s.pid is not None)
                await asyncio.wait(runs, timeout=SAMPLE_EVERY)
            wall = time.perf_counter() - started
        finally:
            sampler.cancel()
            await server.stop(grace=3.0)
            history.close()
        apps_cpu = max(cpu_seconds(resource.RUSAGE_CHILDREN) - apps_cpu,
                       sum(memory.cpu.values()))  # forked apps are not our children
        own_cpu = cpu_seconds(resource.RUSAGE_SELF) - own_cpu
        notes = [line for line in echo.getvalue().splitlines()
                 if " error" in line or "failed" in line]
        left = sum(not process_gone(pid) for pid in pids)
    return Outcome(players, moves, wall, memory, apps_cpu, own_cpu, notes, left)


def report(outcome: Outcome) -> None:
    """Print the figures and the verdict against the target."""
    players = outcome.players
    count = len(players)
    served = [p.first_screen for p in players if p.first_screen is not None]
    connected = [p.connected for p in players if p.connected is not None]
    failed = [p for p in players if p.failure is not None]
    print(f"{count} concurrent SSH sessions, {outcome.moves} moves each, "
          f"{TERM_SIZE[0]}×{TERM_SIZE[1]} xterm-256color")
    print(f"sessions served (name prompt shown): {len(served)} of {count}; "
          f"completed (played, quit with status 0): {count - len(failed)}; "
          f"failed: {len(failed)}")
    for player in failed:
        print(f"  session {player.number} failed at {player.failure} "
              f"({player.moves} moves made)")
    for note in outcome.notes[:10]:
        print(f"  server: {note}")
    if connected:
        print(f"SSH connection and terminal open: median {statistics.median(connected):.2f} s, "
              f"worst {max(connected):.2f} s")
    if served:
        print(f"time to first screen: median {statistics.median(served):.2f} s, "
              f"worst {max(served):.2f} s, best {min(served):.2f} s")
    made = sum(player.moves for player in players)
    print(f"moves saved in the history database: {made} of {count * outcome.moves}")
    print(f"total wall time: {outcome.wall:.1f} s; CPU: session apps {outcome.apps_cpu:.1f} s "
          f"({outcome.apps_cpu / count:.2f} s each), this process {outcome.own_cpu:.1f} s")
    memory = outcome.memory
    if memory.sessions:
        sizes = list(memory.sessions.values())
        print(f"memory per session app (RSS with {len(sizes)} up at once): median "
              f"{statistics.median(sizes):.1f} MB, max {max(sizes):.1f} MB, "
              f"all together {sum(sizes):.0f} MB")
        if memory.proportional:
            shares = list(memory.proportional.values())
            print(f"  proportional (PSS: pages shared by the forked apps split between them): "
                  f"median {statistics.median(shares):.1f} MB, all together "
                  f"{sum(shares):.0f} MB")
        print(f"this process (server and {count} clients) at that moment: "
              f"{memory.this_process:.1f} MB")
    if outcome.left:
        print(f"session apps still running after the server stopped: {outcome.left}")
    median = statistics.median(served) if served else float("inf")
    met = len(served) == count and not failed and median < TARGET
    print(f"target: all {count} served with no failure, first screen under {TARGET:.0f} s "
          f"at the median — {'meets' if met else 'misses'} it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20, help="concurrent sessions")
    parser.add_argument("--moves", type=int, default=5, help="moves each session plays")
    args = parser.parse_args()
    if args.sessions < 1 or args.moves < 0:
        parser.error("--sessions must be at least 1 and --moves at least 0")
    report(asyncio.run(bench(args.sessions, args.moves)))


if __name__ == "__main__":
    main()
