"""The quiet terminal driver (see ``keyboard``): Textual's ``LinuxDriver`` with a keyboard
thread that sleeps while nothing is typed, and Textual's own loop when Textual's parser or
driver is not what it expects (``textual_fits``).

It looks only while it may matter: for a second after anything was typed, at Textual's
pace; then it sleeps until the next input, or until the app stops it (its stop event wakes
the thread through a pipe). It never falls asleep before it has looked once a while after
the last input (``keep_looking``): on a busy server a thread that got the processor late
could otherwise sleep with a lone escape key not yet told to the app.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import threading
import time
from codecs import getincrementaldecoder
from typing import Any

from textual import constants
from textual.drivers.linux_driver import LinuxDriver

try:  # Textual's private parser: without it, Textual's own loop (``textual_fits``)
    from textual._parser import ParseError
    from textual._xterm_parser import XTermParser
except ImportError:  # pragma: no cover - a Textual that moved them
    XTermParser = None  # type: ignore[assignment,misc]

TICK = 0.1  # seconds between two looks for a lone escape key (as Textual's driver)
AWAKE = max(1.0, 4 * constants.ESCAPE_DELAY)  # seconds it looks after the last input
SETTLED = 2 * constants.ESCAPE_DELAY  # a look this long after the input has told any escape


def keep_looking(now: float, last_input: float, last_look: float) -> bool:
    """Whether the keyboard thread must wake again to look for a lone escape key: for
    ``AWAKE`` seconds after the last input, and in any case until it has looked once
    ``SETTLED`` seconds after it (the parser tells an escape key ``ESCAPE_DELAY`` after
    it came)."""
    return now < last_input + AWAKE or last_look < last_input + SETTLED


def textual_fits() -> bool:
    """Whether Textual's parser and driver are as this driver uses them."""
    return (XTermParser is not None
            and all(callable(getattr(XTermParser, name, None)) for name in ("feed", "tick"))
            and all(callable(getattr(LinuxDriver, name, None))
                    for name in ("run_input_thread", "process_message", "close")))


class _WakingEvent(threading.Event):
    """The driver's stop event: setting it also wakes the sleeping keyboard thread."""

    def __init__(self, wake_fd: int) -> None:
        super().__init__()
        self.wake_fd = wake_fd

    def set(self) -> None:
        super().set()
        if self.wake_fd >= 0:  # (-1 once the driver closed it: the number may be reused)
            with contextlib.suppress(OSError):
                os.write(self.wake_fd, b"!")


class QuietLinuxDriver(LinuxDriver):
    """``LinuxDriver`` with a keyboard thread that sleeps while nothing is typed."""

    def __init__(self, app: Any, *, debug: bool = False, mouse: bool = True,
                 size: tuple[int, int] | None = None) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_read, False)
        os.set_blocking(self._wake_write, False)
        self._quiet = textual_fits() and isinstance(getattr(self, "exit_event", None),
                                            threading.Event)
        if self._quiet:
            self.exit_event = _WakingEvent(self._wake_write)

    def close(self) -> None:
        super().close()
        if isinstance(getattr(self, "exit_event", None), _WakingEvent):
            self.exit_event.wake_fd = -1
        for fd in (self._wake_read, self._wake_write):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._wake_read = self._wake_write = -1

    def run_input_thread(self) -> None:
        """Read keys and send them to the app until the stop event is set."""
        if not self._quiet:
            super().run_input_thread()
            return
        selector = selectors.DefaultSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        selector.register(self._wake_read, selectors.EVENT_READ)
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode
        last_input = last_look = time.monotonic()
        try:
            while not self.exit_event.is_set():
                looking = keep_looking(time.monotonic(), last_input, last_look)
                timeout = TICK if looking else None
                for key, _mask in selector.select(timeout):
                    if key.fd == self._wake_read:
                        with contextlib.suppress(OSError):
                            os.read(self._wake_read, 64)
                        continue
                    data = os.read(self.fileno, 4096)
                    if not data:  # the end of the input: nothing more will come
                        selector.unregister(self.fileno)
                        continue
                    last_input = time.monotonic()
                    for event in parser.feed(decode(data)):
                        self.process_message(event)
                last_look = time.monotonic()
                for event in parser.tick():
                    self.process_message(event)
        finally:
            selector.close()
            with contextlib.suppress(EOFError, ParseError):
                for _event in parser.feed(""):
                    pass
