"""The app on a real terminal (a PTY) with its quiet keyboard thread (issue 14), which the
settings turn on (``textual_speedups``, issue 30; the SSH server always does): idle, the
app does not wake ten times a second; keys still come, a lone escape key included, and
``q`` quits. Without it the app runs Textual's own keyboard thread."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a PTY")

ESCAPES = re.compile(rb"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)"
                     rb"|[PX^_].*?\x1b\\|.)")


def squeezed(data: bytes) -> str:
    return ESCAPES.sub(b"", data).decode("utf-8", "replace").replace(" ", "")


class Terminal:
    """The app on a PTY of 100×32: what it printed, keys to type."""

    def __init__(self, home: Path, speedups: bool) -> None:
        config = home / "config.toml"
        config.write_text(f'[app]\nname = "Robin"\ntextual_speedups = {str(speedups).lower()}\n',
                          encoding="utf-8")
        env = {"HOME": str(home), "TRASH_TUI_CONFIG": str(config),
               "PATH": os.environ.get("PATH", ""), "TERM": "xterm-256color",
               "COLORTERM": "truecolor", "TRASH_TUI_HISTORY": str(home / "h.sqlite3"),
               "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
               **({"TEXTUAL_DRIVER": os.environ["TEXTUAL_DRIVER"]}
                  if "TEXTUAL_DRIVER" in os.environ else {})}
        pid, fd = pty.fork()
        if pid == 0:  # the app, on the PTY
            import fcntl
            import struct
            import termios
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
            os.execve(sys.executable, [sys.executable, "-m", "trash_tui"], env)
        self.pid, self.fd = pid, fd
        self.output = bytearray()

    def read(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return
                if not data:
                    return
                self.output += data

    def wait_for(self, text: str, since: int = 0, limit: float = 20.0) -> None:
        deadline = time.monotonic() + limit
        while squeezed(bytes(self.output[since:])).find(text.replace(" ", "")) < 0:
            assert time.monotonic() < deadline, f"the screen never showed {text!r}"
            self.read(0.1)

    def press(self, keys: bytes) -> int:
        mark = len(self.output)
        os.write(self.fd, keys)
        return mark

    def wakeups(self) -> int:
        """How many times the app's threads have run so far."""
        total = 0
        for task in os.listdir(f"/proc/{self.pid}/task"):
            with open(f"/proc/{self.pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[2])
        return total

    def exit_code(self, limit: float) -> int | None:
        """The app's exit code once it ends (within ``limit`` seconds), else None."""
        deadline = time.monotonic() + limit
        while True:
            waited, status = os.waitpid(self.pid, os.WNOHANG)
            if waited:
                self.pid = 0
                return os.waitstatus_to_exitcode(status)
            if time.monotonic() > deadline:
                return None
            self.read(0.1)

    def close(self) -> None:
        if self.pid:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="Linux's /proc")
def test_an_idle_app_sleeps_and_still_takes_keys(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, speedups=True)
    try:
        terminal.wait_for("New match")
        terminal.read(2.0)  # a second after the last input, the keyboard thread sleeps
        before = terminal.wakeups()
        terminal.read(2.0)
        assert terminal.wakeups() - before <= 4  # Textual's own driver: 20 or more
        mark = terminal.press(b"s")
        terminal.wait_for("Settings", mark)
        terminal.read(2.0)  # asleep again: the escape key alone wakes it and is a key
        mark = terminal.press(b"\x1b")
        terminal.wait_for("New match", mark)
        terminal.press(b"q")
        assert terminal.exit_code(10) == 0
    finally:
        terminal.close()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="Linux's /proc")
def test_without_the_speedups_the_app_runs_textuals_own_keyboard_thread(tmp_path: Path
                                                                        ) -> None:
    terminal = Terminal(tmp_path, speedups=False)
    try:
        terminal.wait_for("New match")
        terminal.read(1.5)
        before = terminal.wakeups()
        terminal.read(2.0)
        assert terminal.wakeups() - before >= 15  # ten times a second
        terminal.press(b"q")
        assert terminal.exit_code(10) == 0
    finally:
        terminal.close()
