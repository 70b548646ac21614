"""One session's app: a child process on its own pseudo-terminal, wired to its client end.

The child (``python -m trash_tui.ssh.session``) gets the PTY's slave side as stdin,
stdout and stderr, leads a new session and makes the PTY its controlling terminal, so the
kernel sends it SIGWINCH when the server resizes the PTY and SIGHUP on hang-up. The client
is a front-neutral ``ClientEnd`` (``client_end.py``: an SSH channel, or a browser's
WebSocket). Two pumps run here: the client's input to the master (``_pump_input``: it also
takes the client's
window changes, clamped to ``MAX_COLUMNS`` x ``MAX_ROWS`` and coalesced to one every
``RESIZE_INTERVAL`` s), and the master's output to the
client (and to the session's taps, ``trash_tui.ssh.watch``: the operator's watchers, a
recording; a tap never blocks the pump), so the server knows when the last byte has
gone out before it reports the exit status. Both stop, and the master is closed, as soon
as the child has exited or the client has gone, whatever input is still queued.

The server can take the terminal back from the app at any moment (``take_terminal``:
the app's output is dropped from then on, and the bytes that put the terminal back as
the app found it are given; ``farewell``: those, the server's own plain lines, the exit
status and the client's end closed, without waiting for the app).

Each session process gets resource limits (``SessionLimits``: CPU seconds and memory) and,
if it has not drawn its first screen in ``BOOT_TIMEOUT`` s, the lowest CPU priority, so a
session that cannot get going never starves the others.

Sessions of the real app are forked from a fork server (``multiprocessing``'s
"forkserver", started once, which imports the app before it forks anything): a session
then skips a third of a second of imports, and its pages are shared with its siblings.
The forked child opens the PTY by name and so makes it its controlling terminal; the
server holds the slave side open until the child's first screen. Any other command (the
tests' stand-ins) is started as a fresh process. At most ``BOOTING`` sessions (four per
core) start at once: the others wait their turn, so in a crowd most players see their
screen early instead of everybody seeing it late; and a session that has drawn its first
screen steps back in the CPU queue (``TrashApp.yield_to_newcomers``), so newcomers go
first.

Only the child imports the app; this module stays small.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import multiprocessing
import multiprocessing.context
import multiprocessing.process
import multiprocessing.spawn as spawn
import os
import pty
import re
import resource
import shutil
import signal
import struct
import sys
import termios
import tty
from collections.abc import Mapping
from dataclasses import dataclass

from trash_tui.ssh.client_end import ClientEnd, Resize
from trash_tui.ssh.config import ServerConfig
from trash_tui.ssh.goodbye import ScreenTracker, lines, reset
from trash_tui.ssh.session import IDLE_ENV, MAIN_PATH_ENV, PLAYER_ENV, PLAYERS_DIR_ENV
from trash_tui.ssh.watch import ENDED, Tap

SESSION_COMMAND: tuple[str, ...] = (sys.executable, "-m", "trash_tui.ssh.session")
#: The exit status the app uses when it says goodbye to an idle player.
IDLE_EXIT_STATUS = 3
HANGUP_GRACE = 5.0  # seconds a hung-up child has before SIGKILL
#: Sessions starting at the same time (until their first screen, or BOOT_TIMEOUT): four
#: per core measured best for 20 players arriving at once on 2 cores (benchmarks/ssh.py).
BOOTING = max(1, 4 * (os.cpu_count() or 1))
BOOT_TIMEOUT = 5.0
BOOT_OUTPUT = 4096  # bytes of output that mean the first screen has been drawn
#: What the fork server imports once, before it forks sessions ("__main__": the server's
#: own main module, which multiprocessing would otherwise import again in every child;
#: then the app, with the garbage collector told to leave those objects alone).
PRELOAD = ["__main__", "trash_tui.ssh.preload"]
OUTPUT_DRAIN = 2.0  # seconds to forward the last output after the child exits
READ_SIZE = 65536
#: Variables of the server's environment a child keeps (everything else is built anew).
KEPT_VARIABLES = ("PATH", "HOME", "PYTHONPATH")
_SAFE_VALUE = re.compile(r"[A-Za-z0-9._+-]{1,64}")
DEFAULT_TERM = "xterm-256color"
DEFAULT_COLORTERM = "truecolor"
#: The largest terminal a session gets (a larger window is drawn at this size): drawing
#: costs grow with the area, and a client's numbers must never cost the server more.
MAX_COLUMNS = 500
MAX_ROWS = 200
DEFAULT_COLUMNS = 80
DEFAULT_ROWS = 24
MAX_PIXELS = 65535
#: Window changes are applied at most once in this many seconds (the latest one wins).
RESIZE_INTERVAL = 0.1
#: After a write to the terminal finds it full, wait at least this long before the next
#: try (a hung-up terminal says "writable" forever while refusing every byte).
WRITE_RETRY = 0.05
#: Niceness of a session that has not drawn its first screen in BOOT_TIMEOUT seconds.
STALLED_NICENESS = 19


@dataclass(frozen=True)
class SessionLimits:
    """Resource limits of one session's process: CPU seconds in all (the app says goodbye
    at the soft limit, SIGXCPU; the kernel kills it ``CPU_GRACE`` s later) and memory
    (address space, bytes; an allocation beyond it fails). 0: no limit."""

    cpu_seconds: int = 0
    memory_bytes: int = 0

    CPU_GRACE = 10

    def rlimits(self) -> tuple[tuple[int, int, int], ...]:
        """The limits as ``(resource, soft, hard)`` triples for ``setrlimit``."""
        limits: list[tuple[int, int, int]] = []
        if self.cpu_seconds:
            limits.append((resource.RLIMIT_CPU, self.cpu_seconds,
                           self.cpu_seconds + self.CPU_GRACE))
        if self.memory_bytes:
            limits.append((resource.RLIMIT_AS, self.memory_bytes, self.memory_bytes))
        return tuple(limits)

    def command_prefix(self) -> tuple[str, ...]:
        """util-linux ``prlimit`` with these limits, to put before a command so they hold
        from its first instruction; () when there are none or no ``prlimit``."""
        options = {resource.RLIMIT_CPU: "--cpu", resource.RLIMIT_AS: "--as"}
        limits = self.rlimits()
        program = shutil.which("prlimit")
        if not limits or program is None:
            return ()
        return (program, *(f"{options[kind]}={soft}:{hard}" for kind, soft, hard in limits),
                "--")

    def apply(self, pid: int) -> None:
        """Set the limits of the running process ``pid`` (best effort: a process that has
        already gone, or a system without ``prlimit``, keeps what it has)."""
        with contextlib.suppress(OSError, ValueError, AttributeError):
            for kind, soft, hard in self.rlimits():
                resource.prlimit(pid, kind, (soft, hard))


def clamp_size(columns: int, rows: int, width: int = 0, height: int = 0
               ) -> tuple[int, int, int, int]:
    """A client's window size made safe: character cells within 1..MAX (0, "unknown",
    becomes 80x24), pixels within 0..65535."""
    columns = min(MAX_COLUMNS, columns) if columns > 0 else DEFAULT_COLUMNS
    rows = min(MAX_ROWS, rows) if rows > 0 else DEFAULT_ROWS
    return (columns, rows, min(MAX_PIXELS, max(0, width)), min(MAX_PIXELS, max(0, height)))


def session_environment(config: ServerConfig, player: str, term: str,
                        colorterm: str | None) -> dict[str, str]:
    """The child's whole environment: the client's terminal, the player and the paths."""
    env = {name: os.environ[name] for name in KEPT_VARIABLES if name in os.environ}
    env.update({
        "TERM": term if _SAFE_VALUE.fullmatch(term) else DEFAULT_TERM,
        "LANG": "C.UTF-8",
        "COLORTERM": (colorterm if colorterm and _SAFE_VALUE.fullmatch(colorterm)
                      else DEFAULT_COLORTERM),
        "TEXTUAL_FPS": "30",
        PLAYER_ENV: player,
        "TRASH_TUI_HISTORY": str(config.history),
        PLAYERS_DIR_ENV: str(config.players_dir),
        IDLE_ENV: f"{config.idle_timeout:g}",
    })
    return env


def set_window_size(fd: int, columns: int, rows: int, width: int = 0, height: int = 0
                    ) -> None:
    """Set the size of the terminal ``fd`` (character cells, and pixels when known), clamped
    by ``clamp_size``."""
    columns, rows, width, height = clamp_size(columns, rows, width, height)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, width, height))


def lower_priority(pid: int, niceness: int = STALLED_NICENESS) -> None:
    """Put process ``pid`` (and its autogroup, where Linux groups a session's processes) at
    the back of the CPU queue; best effort."""
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, pid, niceness)
    with contextlib.suppress(OSError), open(f"/proc/{pid}/autogroup", "w") as group:
        group.write(str(niceness))


def _prepare_terminal(fd: int) -> None:
    """Raw input (no echo, no signal keys) before the app starts, so nothing the client
    sends is echoed or turned into a signal; output still turns \\n into \\r\\n."""
    tty.setraw(fd)
    attributes = termios.tcgetattr(fd)
    attributes[1] |= termios.OPOST | termios.ONLCR
    termios.tcsetattr(fd, termios.TCSANOW, attributes)


class ForkedProcess:
    """A session forked by the fork server, with the parts of ``asyncio``'s Process the
    server uses: ``pid``, ``returncode`` and ``wait()``. Once it has exited, the
    multiprocessing object is closed (its sentinel and pipes are given back at once)."""

    def __init__(self, process: multiprocessing.process.BaseProcess) -> None:
        self.process = process
        self.pid = int(process.pid or 0)
        self.returncode: int | None = None
        self._done: asyncio.Future[int] | None = None

    async def wait(self) -> int:
        """The exit status (negative: the signal that ended it), once it has exited."""
        if self._done is None:
            loop = asyncio.get_running_loop()
            self._done = loop.create_future()
            sentinel = self.process.sentinel

            def ended() -> None:
                loop.remove_reader(sentinel)
                self.process.join()
                self.returncode = int(self.process.exitcode or 0)
                with contextlib.suppress(ValueError):
                    self.process.close()
                if self._done is not None and not self._done.done():
                    self._done.set_result(self.returncode)

            loop.add_reader(sentinel, ended)
        return await asyncio.shield(self._done)


_fork_context: multiprocessing.context.BaseContext | None = None


def fork_context() -> multiprocessing.context.BaseContext | None:
    """The fork server's context, started (with the app imported) on first use; None where
    there is no fork server (sessions are then fresh processes)."""
    global _fork_context
    if _fork_context is None:
        try:
            context = multiprocessing.get_context("forkserver")
        except ValueError:
            return None
        os.environ.setdefault("TEXTUAL_FPS", "30")  # read when the fork server imports
        main_path = spawn.get_preparation_data("fork server").get("init_main_from_path")
        if main_path:
            # for the fork server to import once: Python before 3.13.8 never passes it on
            # for the "__main__" preload (CPython gh-126631), so every forked session
            # would run the script again (0.1-0.25 s of imports each)
            os.environ[MAIN_PATH_ENV] = main_path
        multiprocessing.set_forkserver_preload(PRELOAD)
        _fork_context = context
    return _fork_context


def start_fork_server() -> None:
    """Start the fork server and wait until it can fork sessions: it has imported the app
    (and the server's main script), so the first player does not wait for that."""
    context = fork_context()
    if context is not None:
        ready = context.Process(target=os.getpid, daemon=True)
        ready.start()
        ready.join()


_booting: asyncio.Semaphore | None = None


def _boot_slots() -> asyncio.Semaphore:
    global _booting
    if _booting is None:
        _booting = asyncio.Semaphore(BOOTING)
    return _booting


class PtyChild:
    """A running child on its own PTY, wired to its client's end by two pumps."""

    def __init__(self, process: asyncio.subprocess.Process | ForkedProcess,
                 end: ClientEnd, master: int, slave: int | None = None,
                 booting: asyncio.Semaphore | None = None) -> None:
        self.process = process
        self.end = end
        self.master = master
        self.slave = slave  # held open (forked children) until the child's first output
        self.booting = booting  # released at the first screen (or the boot timeout)
        self.written = 0  # bytes of output so far
        self.ended = False  # the child has exited or the client has gone
        self.screen = ScreenTracker()  # the app's output left the alternate screen on?
        self.taken = False  # the server has taken the terminal back: output is dropped
        self.size = clamp_size(*end.size())  # the size the PTY has now
        self.resizes = 0  # window changes applied to the PTY (after coalescing)
        self._pending_size: tuple[int, int, int, int] | None = None
        self._resize_timer: asyncio.TimerHandle | None = None
        self._last_resize = -RESIZE_INTERVAL
        self.taps: list[Tap] = []  # copies of the output: watchers, a recording
        self.output_ended = False  # the pump has stopped (and closed its taps)
        loop = asyncio.get_running_loop()
        self._boot_timer: asyncio.TimerHandle | None = None
        if booting is not None:
            self._boot_timer = loop.call_later(BOOT_TIMEOUT, self._boot_timed_out)
        self.pump = asyncio.ensure_future(self._pump_output(os.dup(master)))
        self.input = asyncio.ensure_future(self._pump_input())

    def _booted(self) -> None:
        """The child has drawn its first screen (or had its time): close our side of the
        slave and let the next session start."""
        if self._boot_timer is not None:
            self._boot_timer.cancel()
            self._boot_timer = None
        if self.slave is not None:
            with contextlib.suppress(OSError):
                os.close(self.slave)
            self.slave = None
        if self.booting is not None:
            self.booting.release()
            self.booting = None

    def _boot_timed_out(self) -> None:
        """No first screen after ``BOOT_TIMEOUT`` s: the next session may start, and this
        one goes to the back of the CPU queue so it cannot starve those that draw."""
        self._boot_timer = None
        if self.written < BOOT_OUTPUT and self.process.returncode is None:
            lower_priority(self.pid)
        self._booted()

    @classmethod
    async def start(cls, end: ClientEnd, env: Mapping[str, str],
                    command: tuple[str, ...] = SESSION_COMMAND,
                    limits: SessionLimits | None = None) -> PtyChild:
        """Open a PTY of the client's size (clamped), start ``command`` on it (the app:
        forked from the fork server) with ``limits``, and connect it to ``end``. Waits for
        a boot slot first."""
        booting = _boot_slots()
        await booting.acquire()
        master, slave = pty.openpty()
        held: int | None = None
        try:
            set_window_size(master, *end.size())
            _prepare_terminal(slave)
            os.set_blocking(master, False)
            context = fork_context() if tuple(command) == SESSION_COMMAND else None
            process: asyncio.subprocess.Process | ForkedProcess
            limits = limits or SessionLimits()
            # The limits hold before any of the session's code runs (set afterwards, a
            # session would run unlimited for a moment).
            if context is not None:
                from trash_tui.ssh.session import serve_terminal

                forked = context.Process(target=serve_terminal,
                                         args=(os.ttyname(slave), dict(env), limits.rlimits()),
                                         daemon=True)
                await asyncio.get_running_loop().run_in_executor(None, forked.start)
                process = ForkedProcess(forked)
                held = slave  # the child opens the terminal by name: keep it open till then
            else:
                prefix = limits.command_prefix()
                if prefix and shutil.which(command[0]) is None:  # as exec would say it
                    raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), command[0])
                process = await asyncio.create_subprocess_exec(
                    *prefix, *command, stdin=slave, stdout=slave, stderr=slave,
                    env=dict(env), start_new_session=True)
                if not prefix:  # no prlimit here: as soon as it runs
                    limits.apply(process.pid)
        except BaseException:
            os.close(master)
            os.close(slave)
            booting.release()
            raise
        if held is None:
            os.close(slave)
        return cls(process, end, master, held, booting)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        return self.process.returncode

    def signal(self, number: int) -> None:
        """Send ``number`` to the child's process group (it and anything it started)."""
        if self.process.returncode is not None:
            return
        try:
            os.killpg(self.process.pid, number)
        except ProcessLookupError:  # not yet its own group leader: the process itself
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.process.pid, number)
        except PermissionError:
            pass

    # --- input: the client to the terminal ------------------------------------------------
    async def _pump_input(self) -> None:
        """Forward what the client types to the master until the client's input ends or
        the session ends. Window changes resize the PTY (coalesced)."""
        while not self.ended:
            data = await self.end.read()
            if data is None:
                return
            if isinstance(data, Resize):
                self.resize(*data)
                continue
            if not await self._write_input(data):
                return

    async def _write_input(self, data: bytes) -> bool:
        """Write ``data`` to the master, waiting while the terminal's input queue is full
        (the client's end is not read meanwhile: flow control). False once the terminal
        can take no more (the child has gone, or the session has ended)."""
        view = memoryview(data)
        while view and not self.ended:
            try:
                written = os.write(self.master, view)
            except BlockingIOError:
                await self._writable()
                await asyncio.sleep(WRITE_RETRY)
                continue
            except OSError:  # EIO, EBADF: the terminal is gone
                return False
            view = view[written:]
        return not self.ended

    async def _writable(self) -> None:
        """Until the master is writable (or the session ends)."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        try:
            loop.add_writer(self.master, wake)
        except (OSError, ValueError):
            return
        try:
            await asyncio.wait_for(ready, 1.0)
        except TimeoutError:
            pass
        finally:
            with contextlib.suppress(OSError, ValueError):
                loop.remove_writer(self.master)

    def resize(self, columns: int, rows: int, width: int = 0, height: int = 0) -> None:
        """A window change from the client: applied now if none was in the last
        ``RESIZE_INTERVAL`` s, else the latest one is applied when the interval ends."""
        self._pending_size = clamp_size(columns, rows, width, height)
        if self._resize_timer is not None:
            return
        loop = asyncio.get_running_loop()
        wait = self._last_resize + RESIZE_INTERVAL - loop.time()
        if wait <= 0:
            self._apply_resize()
        else:
            self._resize_timer = loop.call_later(wait, self._apply_resize)

    def _apply_resize(self) -> None:
        self._resize_timer = None
        size, self._pending_size = self._pending_size, None
        if size is None or self.ended or size == self.size:
            return
        self._last_resize = asyncio.get_running_loop().time()
        with contextlib.suppress(OSError):
            set_window_size(self.master, *size)  # the kernel sends the child SIGWINCH
            self.size = size
            self.resizes += 1
            for tap in list(self.taps):
                tap.resized(size[0], size[1])

    # --- output: the terminal to the client ------------------------------------------------
    async def _pump_output(self, master: int) -> None:
        """Forward the master's output to the client until the last writer of the slave
        has gone (EIO); once the client has gone, keep reading and drop the output so
        the child never blocks on a full terminal."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=READ_SIZE)
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(master, "rb", buffering=0))
        forwarding = True
        try:
            while True:
                try:
                    data = await reader.read(READ_SIZE)
                except OSError:  # EIO: nobody has the terminal open any more
                    break
                if not data:
                    break
                self.written += len(data)
                if self.written >= BOOT_OUTPUT and (self.booting is not None or
                                                    self.slave is not None):
                    self._booted()
                if not forwarding or self.taken:
                    continue
                self.screen.feed(data)
                if self.taps:  # (a tap never blocks: it queues or drops)
                    for tap in list(self.taps):
                        tap.feed(data)
                try:
                    self.end.write(data)
                    await self.end.drain()
                except OSError:  # (ConnectionError: the client has gone)
                    forwarding = False
        finally:
            transport.close()
            self.output_ended = True
            for tap in list(self.taps):
                tap.close(ENDED)
            self.taps.clear()

    def redraw(self) -> bool:
        """Ask the app to draw its whole screen again (SIGUSR1, to the app's process
        only), for a watcher who has just joined. Only once it has drawn something: by
        then it ignores or handles the signal (``session.serve_terminal``). Whether it
        was asked."""
        if self.written == 0 or self.process.returncode is not None:
            return False
        try:
            os.kill(self.process.pid, signal.SIGUSR1)
        except (ProcessLookupError, PermissionError):
            return False
        return True

    async def wait(self, grace: float) -> int:
        """The child's exit status; SIGKILL for its group if it takes longer than
        ``grace`` seconds."""
        try:
            return await asyncio.wait_for(asyncio.shield(self.process.wait()), grace)
        except TimeoutError:
            self.signal(signal.SIGKILL)
            return await self.process.wait()

    async def run(self) -> tuple[bool, int]:
        """Wait until the child exits or the client's end closes. A closed end hangs up the
        child (SIGHUP, then SIGKILL after ``HANGUP_GRACE`` s; no SIGHUP when the server
        closed it with its ``farewell``: it signals the app itself). Returns (whether the
        client went away first, the child's exit status). The pumps are stopped and the
        master closed before it returns, whatever is still queued."""
        exited = asyncio.ensure_future(self.process.wait())
        closed = asyncio.ensure_future(self.end.wait_closed())
        try:
            await asyncio.wait({exited, closed}, return_when=asyncio.FIRST_COMPLETED)
            disconnected = not exited.done()
            self.ended = True  # nothing more goes to the terminal
            self.input.cancel()
            if disconnected:
                if not self.taken:  # (taken: the server has told the app why it ends)
                    self.signal(signal.SIGHUP)
                status = await self.wait(HANGUP_GRACE)
            else:
                status = exited.result()
                self._booted()  # our side of the slave must not keep the output open
                with contextlib.suppress(TimeoutError):  # output held open by a grandchild
                    await asyncio.wait_for(asyncio.shield(self.pump), OUTPUT_DRAIN)
            return disconnected, status
        finally:
            self.ended = True
            closed.cancel()
            self.input.cancel()
            if self.process.returncode is None:  # cancelled: never leave the child behind
                self.signal(signal.SIGKILL)
            self._booted()
            self.pump.cancel()
            self.close()

    def take_terminal(self) -> bytes:
        """Take the client's terminal back from the app: none of the app's output goes to
        the client any more; the bytes that put the terminal back as the app found it
        (``goodbye.reset``), for the server to write before its own words."""
        self.taken = True
        return reset(self.screen.alternate)

    def farewell(self, paragraphs: list[str], status: int) -> None:
        """End the session on the server's side: the terminal taken back from the app,
        ``paragraphs`` written on it in plain text wrapped to the window (they stay after
        ``ssh`` returns), then ``status`` sent and the client's end closed. The app is not
        waited for (``run`` then lets it exit, without a hang-up)."""
        data = self.take_terminal() + lines(paragraphs, self.size[0])
        with contextlib.suppress(OSError):
            self.end.write(data)
            self.end.exit(status)

    def close(self) -> None:
        """Close the master (the pumps have stopped or are stopping) and drop a pending
        resize."""
        if self._resize_timer is not None:
            self._resize_timer.cancel()
            self._resize_timer = None
        if self.master >= 0:
            with contextlib.suppress(OSError, ValueError):
                asyncio.get_running_loop().remove_writer(self.master)
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = -1
