"""One bot process, contained: started in its own process group with resource limits and
no descriptors but its pipes, spoken to with deadlines, killed with its whole group.

- **Group**: each bot leads a new session (``start_new_session``), so its process group is
  its own; whatever it starts stays in that group unless it leaves it on purpose, and is
  killed with it (``killpg(SIGKILL)``).
- **Limits**: CPU seconds (RLIMIT_CPU: the soft limit N sends SIGXCPU, the hard limit N+1
  SIGKILL), address space (RLIMIT_AS, hard = soft) and open files (RLIMIT_NOFILE, hard =
  soft) are set in the child before it runs the command; no core files. A process cannot
  raise a hard limit, so a bot cannot undo them.
- **Sandbox** (``sandbox``, ``bots/sandbox.py``): the command runs inside bubblewrap, with
  its own PID, user and network namespaces, a read-only view of its folder and program,
  a private /tmp and a process limit. The bot's process is then bwrap's: killing it ends
  the whole sandbox, whatever the bot started. Where the machine allows, a sandboxed bot
  also gets a cgroup (``bots/cgroups.py``) that it joins between fork and exec: the limits
  then hold for its processes together (``check_limits`` after each answer: CPU time past
  ``cpu_limit``, a process killed for ``memory_limit``), and the group is killed and
  removed with the bot.
- **Descriptors**: standard input and output are the protocol's pipes; standard error is
  a third pipe the runner reads into the bot's log (``BotLog``, bounded; each line marked
  as the bot's, its escape sequences escaped) and a tail kept in memory. Everything else
  is closed (``close_fds``). The environment is a few harmless variables (PATH, HOME,
  LANG, ...) plus what the bot's spec sets.
- **The runner** turns ``PR_SET_DUMPABLE`` off before its first bot starts
  (``sandbox.protect_runner``): no process of the same user reads its memory or environ.
- **No orphans, no zombies**: rather than ``PR_SET_PDEATHSIG`` (Linux only, fired when the
  *thread* that started the child exits, and only for that one child, not its group), every
  runner process has one reaper (``bots/reaper.py``) holding a pipe from it. Each bot's
  group is registered with it; when the runner dies, even by ``kill -9``, the pipe closes
  and the reaper kills every registered group. While the runner lives, it kills and waits
  for its bots itself.
"""

from __future__ import annotations

import contextlib
import os
import resource
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bots.cgroups import BotGroup, CgroupError
from bots.cgroups import plan as group_plan
from bots.protocol import EXIT, MALFORMED, MAX_LINE, QUIT, BotProtocolError, BotSilent
from bots.sandbox import (
    Sandbox,
    SandboxError,
    protect_runner,
    sandbox_command,
    sandboxed_process,
)
from trash_tui.text import visible

REAPER = Path(__file__).with_name("reaper.py")
PASSED_ENV = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ")
DEFAULT_CPU_LIMIT = 600.0  # seconds of CPU for one bot process
DEFAULT_MEMORY_LIMIT = 1024  # MiB of address space
DEFAULT_FILE_LIMIT = 256  # open files
QUIT_GRACE = 0.5  # seconds a bot has to exit by itself after quit
EXIT_WAIT = 1.0  # seconds a bot that closed its output has to exit (else: still running)
STDERR_TAIL = 4096  # bytes of standard error kept in memory
LOG_LIMIT = 1 << 20  # bytes a bot's log file may grow to
RUNNER_LINE = "=== "  # how the runner's own lines in a bot's log start
BOT_LINE = "| "  # how each line of the bot's standard error in its log starts
_READ = select.POLLIN | select.POLLHUP | select.POLLERR


@dataclass(frozen=True)
class Limits:
    """A bot process's resource limits: CPU seconds and memory (MiB of address space)."""

    cpu_seconds: float = DEFAULT_CPU_LIMIT
    memory_mb: int = DEFAULT_MEMORY_LIMIT
    files: int = DEFAULT_FILE_LIMIT

    def apply(self) -> None:
        """Set the limits on this process (run in the child, before the command starts)."""
        cpu = max(1, int(self.cpu_seconds + 0.999))
        _set_limit(resource.RLIMIT_CPU, cpu, cpu + 1)
        _set_limit(resource.RLIMIT_AS, self.memory_mb << 20, self.memory_mb << 20)
        _set_limit(resource.RLIMIT_NOFILE, self.files, self.files)
        _set_limit(resource.RLIMIT_CORE, 0, 0)


def _set_limit(limit: int, soft: int, hard: int) -> None:
    """Lower a limit to (soft, hard), never above the hard limit this process already has."""
    current = resource.getrlimit(limit)[1]
    if current != resource.RLIM_INFINITY:
        hard = min(hard, current)
        soft = min(soft, hard)
    resource.setrlimit(limit, (soft, hard))


# --- the reaper ---------------------------------------------------------------------------

class _Reaper:
    """This process's reaper (see the module docs): ``watch`` and ``forget`` groups."""

    def __init__(self) -> None:
        self.popen = subprocess.Popen(
            [sys.executable, "-S", "-E", str(REAPER)], stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True,
            start_new_session=True)
        assert self.popen.stdin is not None
        self.fd = self.popen.stdin.fileno()
        self.owner = os.getpid()

    def tell(self, line: str) -> None:
        with contextlib.suppress(OSError):
            os.write(self.fd, line.encode())


_reaper: _Reaper | None = None
_reaper_lock = threading.Lock()


def reaper() -> _Reaper:
    """This process's reaper, started on first use."""
    global _reaper
    with _reaper_lock:
        if _reaper is None or _reaper.owner != os.getpid():
            _reaper = _Reaper()
        return _reaper


def _forget_inherited() -> None:
    """In a forked child: the parent's reaper and bots are the parent's (their descriptors
    are closed here, the processes are left alone)."""
    global _reaper
    if _reaper is not None:
        with contextlib.suppress(OSError):
            os.close(_reaper.fd)
        _reaper = None
    for process in list(BotProcess.live):
        process.forget()


# --- the bot's log ------------------------------------------------------------------------

class BotLog:
    """A bot's log file: its standard error and the runner's notes, up to ``limit`` bytes
    (then one line says the rest was dropped). Several processes may append to one file.

    The runner's own lines start with ``=== ``; every line of the bot's is written after
    ``| ``, its control characters and escape sequences escaped (``visible``: ``\\x1b``,
    ``\\r``), so no line of a bot looks like the runner's or acts on a terminal."""

    def __init__(self, path: Path, limit: int = LOG_LIMIT) -> None:
        self.path = path
        self.limit = limit
        self.full = False

    def write(self, data: bytes) -> None:
        """Lines of the bot's standard error (a last line without its newline is ended)."""
        if self.full or not data:
            return
        lines = data.decode("utf-8", "replace").split("\n")
        if lines[-1] == "":
            lines.pop()
        self._append("".join(f"{BOT_LINE}{visible(line)}\n" for line in lines)
                     .encode("utf-8"))

    def note(self, text: str) -> None:
        """A line of the runner's own (a forfeit, a restart) in the log."""
        self._append(f"{RUNNER_LINE}{text}\n".encode("utf-8", "replace"))

    def _append(self, data: bytes) -> None:
        if self.full or not data:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("ab") as handle:
                size = handle.tell()
                if size + len(data) > self.limit:
                    self.full = True
                    data = data[: max(0, self.limit - size)] + (
                        b"\n[log full: the rest of this bot's output is dropped]\n")
                handle.write(data)
        except OSError:
            self.full = True


# --- the process --------------------------------------------------------------------------

def bot_environment(extra: Mapping[str, str]) -> dict[str, str]:
    """The environment a bot starts with: a few harmless variables and ``extra``."""
    env = {key: os.environ[key] for key in PASSED_ENV if key in os.environ}
    env.update(extra)
    return env


def _describe_exit(status: int, limits: Limits) -> str:
    if status >= 0:
        return f"exited with status {status}"
    try:
        name = signal.Signals(-status).name
    except ValueError:
        name = f"signal {-status}"
    if -status == signal.SIGXCPU:
        return f"killed by {name}: over its CPU limit of {limits.cpu_seconds:g} s"
    return f"killed by {name}"


class BotProcess:
    """A running bot: its pipes, its group, its stderr tail and log."""

    live: set[BotProcess] = set()  # noqa: RUF012 - every bot process of this runner

    def __init__(self, command: Sequence[str], cwd: str | Path, env: Mapping[str, str],
                 limits: Limits, sandbox: Sandbox | None = None, python: bool = False
                 ) -> None:
        self.command = list(command)
        self.limits = limits
        self.sandbox = sandbox
        self.log: BotLog | None = None
        self.stderr_tail = bytearray()
        self.stderr_line = bytearray()  # the start of a line for the log, not yet ended
        self.buffer = bytearray()
        self.killed = False
        protect_runner()
        watcher = reaper()
        argv, where, environment, keep = self.command, str(cwd), dict(env), ()
        prepared = None
        self.group: BotGroup | None = None  # the sandboxed bot's processes together
        if sandbox is not None:
            try:
                prepared = sandbox_command(self.command, str(cwd), environment, sandbox,
                                           python)
            except SandboxError as exc:  # (a folder it may not read, arguments too long)
                raise BotProtocolError(EXIT, str(exc)) from None
            argv, where, keep = prepared.argv, "/", prepared.pass_fds
            environment = {"PATH": environment.get("PATH", "/usr/bin:/bin")}
            try:  # (bwrap, its init and the bot: two more than the bot's own processes)
                if group_plan():
                    self.group = BotGroup(limits.memory_mb, sandbox.processes + 2)
            except CgroupError as exc:
                prepared.close()
                raise BotProtocolError(EXIT, str(exc)) from None
        group = self.group
        start = limits.apply if group is None else lambda: (limits.apply(), group.join())
        try:
            self.popen = subprocess.Popen(
                argv, cwd=where, env=environment, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, close_fds=True,
                pass_fds=keep, start_new_session=True, preexec_fn=start, bufsize=0)
        except (OSError, subprocess.SubprocessError) as exc:
            if group is not None:
                group.remove()
            if prepared is not None:
                prepared.close()
            raise BotProtocolError(EXIT, f"cannot start {argv[0]!r}: "
                                         f"{exc.strerror or exc}") from None
        self.sandbox_init: int | None = None  # the sandbox's first process (bwrap's init)
        self.inner: int | None = None  # the bot's own process in its sandbox, once found
        if prepared is not None:
            try:
                prepared.started(self.popen.pid)
            except SandboxError as exc:
                self.popen.kill()
                self.popen.wait()
                raise BotProtocolError(EXIT, str(exc)) from None
            self.sandbox_init = prepared.child_pid
        self.pid = self.pgid = self.popen.pid
        folders = "" if group is None else "".join(f"\t{f}" for f in group.folders.values())
        watcher.tell(f"+{self.pgid}{folders}\n")
        self.reaper = watcher
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        self.stdin = self.popen.stdin.fileno()
        self.stdout = self.popen.stdout.fileno()
        self.stderr: int | None = self.popen.stderr.fileno()
        for fd in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(fd, False)
        self.poller = select.poll()
        self.poller.register(self.stdout, _READ)
        self.poller.register(self.stderr, _READ)
        self.writer = select.poll()
        self.writer.register(self.stdin, select.POLLOUT | select.POLLERR)
        BotProcess.live.add(self)

    # --- talking ---------------------------------------------------------------------------
    def send(self, data: bytes, timeout: float | None) -> None:
        """Write ``data`` to the bot's standard input within ``timeout`` seconds."""
        try:  # a message is smaller than the pipe: one write, as a rule
            written = os.write(self.stdin, data)
        except BlockingIOError:
            written = 0
        except (BrokenPipeError, OSError):
            raise self.exited() from None
        if written == len(data):
            return
        deadline = None if timeout is None else time.monotonic() + timeout
        view = memoryview(data)[written:]
        while view:
            try:
                written = os.write(self.stdin, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, OSError):
                raise self.exited() from None
            view = view[written:]
            if view:
                wait = self._left(deadline, timeout)
                self.writer.poll(wait)
                self.drain_stderr()

    def read_line(self, timeout: float | None) -> bytes:
        """The next line the bot writes, within ``timeout`` seconds (None: no limit)."""
        buffer = self.buffer
        if not buffer:  # the answer is often there already: no poll for it
            try:
                data = os.read(self.stdout, 65536)
            except BlockingIOError:
                data = None
            except OSError:
                data = b""
            if data is not None:
                if not data:
                    raise self.exited()
                if data.find(b"\n") == len(data) - 1:  # exactly one line
                    return data[:-1]
                buffer += data
        end = buffer.find(b"\n")
        if end < 0:
            started = time.monotonic()
            deadline = None if timeout is None else started + timeout
            while end < 0:
                if len(buffer) > MAX_LINE:
                    raise BotProtocolError(MALFORMED, f"a line longer than {MAX_LINE} bytes")
                wait = self._left(deadline, timeout, started)
                for fd, _event in self.poller.poll(wait):
                    if fd == self.stdout:
                        try:
                            data = os.read(fd, 65536)
                        except BlockingIOError:
                            continue
                        if not data:
                            raise self.exited()
                        start = len(buffer)
                        buffer += data
                        end = buffer.find(b"\n", start)
                    else:
                        self.drain_stderr()
        line = bytes(buffer[:end])
        del buffer[: end + 1]
        return line

    def _left(self, deadline: float | None, timeout: float | None,
              started: float | None = None) -> int:
        """Milliseconds left before ``deadline`` for poll (-1: none); BotSilent if none."""
        if deadline is None:
            return -1
        left = deadline - time.monotonic()
        if left <= 0:
            raise BotSilent(timeout if timeout is not None else 0.0)
        return max(1, int(left * 1000 + 0.999))

    def drain_stderr(self) -> None:
        """Move what the bot wrote to standard error into its tail and log."""
        if self.stderr is None:
            return
        while True:
            try:
                data = os.read(self.stderr, 65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self.poller.unregister(self.stderr)
                self.stderr = None
                self.flush_stderr()
                return
            self.stderr_tail += data
            del self.stderr_tail[:-STDERR_TAIL]
            if self.log is not None and not self.log.full:  # whole lines, each marked
                line = self.stderr_line
                line += data
                end = line.rfind(b"\n")
                if end >= 0:
                    self.log.write(bytes(line[:end + 1]))
                    del line[:end + 1]
                if len(line) > STDERR_TAIL:  # a line too long to wait for: cut
                    self.flush_stderr()

    def flush_stderr(self) -> None:
        """The bot's last line of standard error without its newline, into its log."""
        if self.stderr_line and self.log is not None:
            self.log.write(bytes(self.stderr_line))
        self.stderr_line.clear()

    def last_stderr_line(self) -> str:
        """The last line the bot wrote to standard error (printable, at most 160 chars)."""
        lines = [line for line in bytes(self.stderr_tail).splitlines() if line.strip()]
        if not lines:
            return ""
        return visible(lines[-1].decode("utf-8", "replace").strip(), 160)

    def exited(self) -> BotProtocolError:
        """The error for a bot that closed its output or its input: how it ended."""
        try:
            status = self.popen.wait(timeout=EXIT_WAIT)
        except subprocess.TimeoutExpired:
            self.kill()
            detail = "closed its output while still running"
        else:
            over = self.over_limits()  # (before the kill ends its group)
            self.kill()
            if self.sandbox is not None and status > 128:  # bwrap: 128 + the bot's signal
                status = 128 - status
            detail = _describe_exit(status, self.limits)
            if over is not None and -status != signal.SIGXCPU:  # (the kernel's own word
                detail = over  # on its CPU limit stands; an OOM kill is only a SIGKILL)
        last = self.last_stderr_line()
        return BotProtocolError(EXIT, detail + (f"; its last error line: {last}" if last else ""))

    # --- its state ---------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return not self.killed and self.popen.poll() is None

    def over_limits(self) -> str | None:
        """Why the bot's processes together are over its limits (its group: CPU time
        past ``cpu_limit``, or a process the kernel killed for ``memory_limit``), or
        None; always None without a group."""
        group = self.group
        if group is None:
            return None
        if group.oom_kills():
            return (f"killed: over its memory limit of {self.limits.memory_mb} MiB "
                    "(its processes together)")
        used = group.cpu_seconds()
        if used is not None and used > self.limits.cpu_seconds:
            return (f"killed: its processes together used {used:.1f} s of CPU, over its "
                    f"CPU limit of {self.limits.cpu_seconds:g} s")
        return None

    def check_limits(self) -> None:
        """BotProtocolError (``exit``) if the bot's processes together are over its
        limits (read after each answer; the process is then killed)."""
        over = self.over_limits()
        if over is not None:
            self.kill()
            raise BotProtocolError(EXIT, over)

    def cpu_seconds(self) -> float:
        """CPU time the bot has used (0 where /proc cannot tell): its processes together
        where it has a group, else its main process's (in a sandbox, the bot's own
        process's, not bwrap's)."""
        if self.group is not None:
            used = self.group.cpu_seconds()
            if used is not None:
                return used
        pid = self.pid
        if self.sandbox_init is not None:
            if self.inner is None:
                self.inner = sandboxed_process(self.sandbox_init)
            if self.inner is None:
                return 0.0
            pid = self.inner
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                fields = handle.read().rpartition(b")")[2].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return 0.0

    # --- the end -----------------------------------------------------------------------------
    def kill(self) -> None:
        """Kill the bot's whole group and wait for it (idempotent)."""
        if self.killed:
            return
        self.killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            self.popen.wait()
        if self.group is not None:  # what left its process group: killed, and the group gone
            self.group.remove()
        if self.stderr is not None:
            self.drain_stderr()
        self.flush_stderr()
        for handle in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if handle is not None:
                with contextlib.suppress(OSError):
                    handle.close()
        if self.reaper.owner == os.getpid():
            self.reaper.tell(f"-{self.pgid}\n")
        BotProcess.live.discard(self)

    def quit(self, grace: float = QUIT_GRACE) -> None:
        """Say ``quit`` and give the bot ``grace`` seconds to exit by itself, then kill
        the group."""
        if not self.killed:
            self.say_quit()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=grace)
        self.kill()

    def say_quit(self) -> None:
        """Send ``quit`` (and close the bot's input); the caller kills it later."""
        if not self.killed:
            with contextlib.suppress(BotProtocolError, OSError):
                self.send(QUIT, 0.05)
            if self.popen.stdin is not None:  # end of input: a bot reading it stops too
                with contextlib.suppress(OSError):
                    self.popen.stdin.close()

    def forget(self) -> None:
        """In a forked child: drop this (the parent's) bot without touching it."""
        self.killed = True
        for handle in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if handle is not None:
                with contextlib.suppress(OSError):
                    handle.close()
        BotProcess.live.discard(self)


def kill_all() -> None:
    """Kill every bot process of this runner (at exit)."""
    for process in list(BotProcess.live):
        with contextlib.suppress(Exception):
            process.kill()


os.register_at_fork(after_in_child=_forget_inherited)
