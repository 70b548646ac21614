"""One session's app: a child process on its own pseudo-terminal, wired to an SSH channel.

The child (``python -m trash_tui.ssh.session``) gets the PTY's slave side as stdin,
stdout and stderr, leads a new session and makes the PTY its controlling terminal, so the
kernel sends it SIGWINCH when asyncssh resizes the PTY (the channel's input is redirected
to the master, and asyncssh sets the master's size on every window change) and SIGHUP on
hang-up. Its output is pumped from the master to the channel here, so the server knows
when the last byte has gone out before it reports the exit status.

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
import fcntl
import multiprocessing
import multiprocessing.context
import multiprocessing.process
import multiprocessing.spawn as spawn
import os
import pty
import re
import signal
import struct
import sys
import termios
import tty
from collections.abc import Mapping

import asyncssh

from trash_tui.ssh.config import ServerConfig
from trash_tui.ssh.session import IDLE_ENV, MAIN_PATH_ENV, PLAYER_ENV, PLAYERS_DIR_ENV

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
    """Set the size of the terminal ``fd`` (character cells, and pixels when known)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, width, height))


def _prepare_terminal(fd: int) -> None:
    """Raw input (no echo, no signal keys) before the app starts, so nothing the client
    sends is echoed or turned into a signal; output still turns \\n into \\r\\n."""
    tty.setraw(fd)
    attributes = termios.tcgetattr(fd)
    attributes[1] |= termios.OPOST | termios.ONLCR
    termios.tcsetattr(fd, termios.TCSANOW, attributes)


class ForkedProcess:
    """A session forked by the fork server, with the parts of ``asyncio``'s Process the
    server uses: ``pid``, ``returncode`` and ``wait()``."""

    def __init__(self, process: multiprocessing.process.BaseProcess) -> None:
        self.process = process
        self._done: asyncio.Future[int] | None = None

    @property
    def pid(self) -> int:
        return int(self.process.pid or 0)

    @property
    def returncode(self) -> int | None:
        return self.process.exitcode

    async def wait(self) -> int:
        """The exit status (negative: the signal that ended it), once it has exited."""
        if self._done is None:
            loop = asyncio.get_running_loop()
            self._done = loop.create_future()
            sentinel = self.process.sentinel

            def ended() -> None:
                loop.remove_reader(sentinel)
                self.process.join()
                if self._done is not None and not self._done.done():
                    self._done.set_result(int(self.process.exitcode or 0))

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
    """A running child on its own PTY, its output flowing to an SSH channel."""

    def __init__(self, process: asyncio.subprocess.Process | ForkedProcess,
                 ssh: asyncssh.SSHServerProcess, master: int, slave: int | None = None,
                 booting: asyncio.Semaphore | None = None) -> None:
        self.process = process
        self.ssh = ssh
        self.slave = slave  # held open (forked children) until the child's first output
        self.booting = booting  # released at the first screen (or the boot timeout)
        self.written = 0  # bytes of output so far
        if booting is not None:
            asyncio.get_running_loop().call_later(BOOT_TIMEOUT, self._booted)
        self.pump = asyncio.ensure_future(self._pump_output(master))

    def _booted(self) -> None:
        """The child has drawn its first screen (or had its time): close our side of the
        slave and let the next session start."""
        if self.slave is not None:
            with contextlib.suppress(OSError):
                os.close(self.slave)
            self.slave = None
        if self.booting is not None:
            self.booting.release()
            self.booting = None

    @classmethod
    async def start(cls, ssh: asyncssh.SSHServerProcess, env: Mapping[str, str],
                    command: tuple[str, ...] = SESSION_COMMAND) -> PtyChild:
        """Open a PTY of the client's size, start ``command`` on it (the app: forked from
        the fork server) and connect it to ``ssh`` (input to the PTY master, the master's
        output to the channel). Waits for a boot slot first."""
        booting = _boot_slots()
        await booting.acquire()
        columns, rows, width, height = ssh.get_terminal_size()
        master, slave = pty.openpty()
        held: int | None = None
        try:
            set_window_size(master, columns or 80, rows or 24, width, height)
            _prepare_terminal(slave)
            context = fork_context() if tuple(command) == SESSION_COMMAND else None
            process: asyncio.subprocess.Process | ForkedProcess
            if context is not None:
                from trash_tui.ssh.session import serve_terminal

                forked = context.Process(target=serve_terminal,
                                         args=(os.ttyname(slave), dict(env)), daemon=True)
                await asyncio.get_running_loop().run_in_executor(None, forked.start)
                process = ForkedProcess(forked)
                held = slave  # the child opens the terminal by name: keep it open till then
            else:
                process = await asyncio.create_subprocess_exec(
                    *command, stdin=slave, stdout=slave, stderr=slave, env=dict(env),
                    start_new_session=True)
        except BaseException:
            os.close(master)
            os.close(slave)
            booting.release()
            raise
        if held is None:
            os.close(slave)
        child = cls(process, ssh, master, held, booting)
        try:
            await ssh.redirect(stdin=os.dup(master))
        except BaseException:
            child.signal(signal.SIGKILL)
            raise
        return child

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

    async def _pump_output(self, master: int) -> None:
        """Forward the master's output to the channel until the last writer of the slave
        has gone (EIO); once the channel is closed, keep reading and drop the output so
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
                if not forwarding:
                    continue
                try:
                    self.ssh.stdout.write(data)
                    await self.ssh.stdout.drain()
                except (ConnectionError, asyncssh.Error):
                    forwarding = False
        finally:
            transport.close()

    async def wait(self, grace: float) -> int:
        """The child's exit status; SIGKILL for its group if it takes longer than
        ``grace`` seconds."""
        try:
            return await asyncio.wait_for(asyncio.shield(self.process.wait()), grace)
        except TimeoutError:
            self.signal(signal.SIGKILL)
            return await self.process.wait()

    async def run(self) -> tuple[bool, int]:
        """Wait until the child exits or the channel closes. A closed channel hangs up the
        child (SIGHUP, then SIGKILL after ``HANGUP_GRACE`` s). Returns (whether the
        client went away first, the child's exit status)."""
        exited = asyncio.ensure_future(self.process.wait())
        closed = asyncio.ensure_future(self.ssh.channel.wait_closed())
        try:
            await asyncio.wait({exited, closed}, return_when=asyncio.FIRST_COMPLETED)
            disconnected = not exited.done()
            if disconnected:
                self.signal(signal.SIGHUP)
                status = await self.wait(HANGUP_GRACE)
            else:
                status = exited.result()
                self._booted()  # our side of the slave must not keep the output open
                with contextlib.suppress(TimeoutError):  # output held open by a grandchild
                    await asyncio.wait_for(asyncio.shield(self.pump), OUTPUT_DRAIN)
            return disconnected, status
        finally:
            closed.cancel()
            if self.process.returncode is None:  # cancelled: never leave the child behind
                self.signal(signal.SIGKILL)
            self._booted()
            self.pump.cancel()
