"""One session's app: a child process on its own pseudo-terminal, wired to an SSH channel.

The child (``python -m trash_tui.ssh.session``) gets the PTY's slave side as stdin,
stdout and stderr, leads a new session and makes the PTY its controlling terminal, so the
kernel sends it SIGWINCH when asyncssh resizes the PTY (the channel's input is redirected
to the master, and asyncssh sets the master's size on every window change) and SIGHUP on
hang-up. Its output is pumped from the master to the channel here, so the server knows
when the last byte has gone out before it reports the exit status.

Only the child imports the app; this module stays small.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
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
from trash_tui.ssh.session import IDLE_ENV, PLAYER_ENV, PLAYERS_DIR_ENV

SESSION_COMMAND: tuple[str, ...] = (sys.executable, "-m", "trash_tui.ssh.session")
#: The exit status the app uses when it says goodbye to an idle player.
IDLE_EXIT_STATUS = 3
HANGUP_GRACE = 5.0  # seconds a hung-up child has before SIGKILL
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


class PtyChild:
    """A running child on its own PTY, its output flowing to an SSH channel."""

    def __init__(self, process: asyncio.subprocess.Process, ssh: asyncssh.SSHServerProcess,
                 master: int) -> None:
        self.process = process
        self.ssh = ssh
        self.pump = asyncio.ensure_future(self._pump_output(master))

    @classmethod
    async def start(cls, ssh: asyncssh.SSHServerProcess, env: Mapping[str, str],
                    command: tuple[str, ...] = SESSION_COMMAND) -> PtyChild:
        """Open a PTY of the client's size, start ``command`` on it and connect it to
        ``ssh`` (input to the PTY master, the master's output to the channel)."""
        columns, rows, width, height = ssh.get_terminal_size()
        master, slave = pty.openpty()
        try:
            set_window_size(master, columns or 80, rows or 24, width, height)
            _prepare_terminal(slave)
            process = await asyncio.create_subprocess_exec(
                *command, stdin=slave, stdout=slave, stderr=slave, env=dict(env),
                start_new_session=True)
        except BaseException:
            os.close(master)
            os.close(slave)
            raise
        os.close(slave)
        child = cls(process, ssh, master)
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
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, number)

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
                with contextlib.suppress(TimeoutError):  # output held open by a grandchild
                    await asyncio.wait_for(asyncio.shield(self.pump), OUTPUT_DRAIN)
            return disconnected, status
        finally:
            closed.cancel()
            if self.process.returncode is None:  # cancelled: never leave the child behind
                self.signal(signal.SIGKILL)
            self.pump.cancel()
