"""The server's notes to its operator (stderr): escaped, and never a flood.

Under abuse the same failure can happen thousands of times a second (every accept
failing with "Too many open files", say). ``Reporter.report`` writes a message the first
time; the same message again within ``QUIET_PERIOD`` seconds is only counted, and the count
is written (``… the same N more times``) when the period ends or the server stops. A
message may carry a traceback: the first line keys it (two tracebacks of one failure are
one message). Every line is escaped (``trash_tui.text.visible``), so nothing a client sent
can forge a line or reach the operator's terminal as an escape sequence; the lines after
the first are indented.

``Reporter.loop_handler`` is an asyncio exception handler and ``Reporter.log_handler()`` a
logging handler (for asyncssh's logger) that both report through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any, TextIO

from trash_tui.text import visible

QUIET_PERIOD = 60.0  # seconds during which a repeated message is only counted
MAX_KEYS = 1000  # messages remembered at once (the oldest are summed up and forgotten)
MAX_LINES = 60  # lines of one message (a longer traceback keeps its last lines)


class Reporter:
    """Writes operator notes to ``echo`` (default: stderr), each message once per quiet
    period."""

    def __init__(self, echo: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.echo = echo
        self.clock = clock
        # first line of a message -> (when it was first written, repeats since)
        self.seen: dict[str, tuple[float, int]] = {}

    def report(self, message: str, detail: str = "") -> None:
        """Write ``message`` (one line) and ``detail`` (more lines, e.g. a traceback),
        unless the same message was written in the last ``QUIET_PERIOD`` s."""
        key = visible(message, limit=500)
        now = self.clock()
        self._expire(now)
        if key in self.seen:
            first, repeats = self.seen[key]
            self.seen[key] = (first, repeats + 1)
            return
        if len(self.seen) >= MAX_KEYS:
            oldest = next(iter(self.seen))
            self._summarise(oldest, *self.seen.pop(oldest))
        self.seen[key] = (now, 0)
        lines = [f"trash serve: {key}"]
        if detail:
            more = detail.rstrip("\n").split("\n")[-MAX_LINES:]
            lines += ["    " + visible(line, limit=500) for line in more]
        self._write("\n".join(lines))

    def flush(self) -> None:
        """Write the counts of every repeated message (the server is stopping)."""
        for key, (first, repeats) in list(self.seen.items()):
            self._summarise(key, first, repeats)
        self.seen.clear()

    def _expire(self, now: float) -> None:
        for key, (first, repeats) in list(self.seen.items()):
            if now - first >= QUIET_PERIOD:
                del self.seen[key]
                self._summarise(key, first, repeats)

    def _summarise(self, key: str, first: float, repeats: int) -> None:
        if repeats:
            seconds = max(1, round(self.clock() - first))
            self._write(f"trash serve: {key} (the same {repeats} more "
                        f"time{'' if repeats == 1 else 's'} in {seconds} s)")

    def _write(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):  # stderr gone: nothing to do
            print(text, file=self.echo or sys.stderr, flush=True)

    # --- the asyncio loop's and asyncssh's errors ------------------------------------------
    def loop_handler(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """An asyncio exception handler: the message and the exception's type and text on
        the first line (its traceback below)."""
        exception = context.get("exception")
        message = str(context.get("message") or "error in the event loop")
        detail = ""
        if isinstance(exception, BaseException):
            message += f": {type(exception).__name__}: {exception}"
            detail = "".join(traceback.format_exception(exception))
        self.report(message, detail)

    def log_handler(self) -> logging.Handler:
        """A logging handler (warnings and errors) that reports through this reporter."""
        return _ReportingHandler(self)


class _ReportingHandler(logging.Handler):
    def __init__(self, reporter: Reporter) -> None:
        super().__init__(logging.WARNING)
        self.reporter = reporter

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # a malformed log call must not fail the server
            message = str(record.msg)
        detail = ""
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            message += f": {type(exc).__name__}: {exc}"
            detail = "".join(traceback.format_exception(exc))
        self.reporter.report(f"{record.name}: {message}", detail)
