"""The connection log: one JSON line per ended session or session-less connection, and a
short human line on stderr for each. ``reopen`` opens it again at its path (after
logrotate renamed it: SIGHUP).

A line holds when it ended (UTC), the peer address, the player (key fingerprint or
``password:<user>``; never a password), the terminal type and size, how long it lasted
and how it ended: ``quit``, ``disconnected``, ``idle``, ``server stopping``,
``refused: <reason>`` or ``error: <what>``. Every string in it is escaped
(``trash_tui.text.visible``): a terminal type or user name sent by a client can neither
forge a line nor put an escape sequence on the operator's terminal.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from trash_tui.text import visible

#: The longest a client-supplied string is logged (a longer one is cut, marked "…").
MAX_FIELD = 200


@dataclass(frozen=True)
class LogEntry:
    """What is logged when a session (or a connection without one) ends."""

    event: str  # "session" or "connection"
    peer: str
    ended: str
    seconds: float
    player: str | None = None
    term: str | None = None
    size: str | None = None  # "COLUMNSxROWS"
    exit_status: int | None = None

    def escaped(self) -> LogEntry:
        """The entry with every string escaped and cut to ``MAX_FIELD`` characters."""
        def safe(value: str | None) -> str | None:
            return None if value is None else visible(value, limit=MAX_FIELD)

        return LogEntry(self.event, visible(self.peer, limit=MAX_FIELD),
                        visible(self.ended, limit=MAX_FIELD), self.seconds,
                        safe(self.player), safe(self.term), safe(self.size), self.exit_status)

    def human(self) -> str:
        """The entry as one short line for a person watching the server (escaped)."""
        entry = self.escaped()
        parts = [entry.peer, entry.player or "-"]
        if entry.term:
            parts.append(f"{entry.term} {entry.size or '?'}")
        parts.append(f"{entry.seconds:.1f}s")
        parts.append(entry.ended)
        return "trash serve: " + " ".join(parts)


class ConnectionLog:
    """Appends entries to the log file (created with mode 0600) and echoes them."""

    def __init__(self, path: Path, echo: TextIO | None = None) -> None:
        self.path = path
        self.echo = echo
        self.file = self._open(path)
        self.failed = False

    @staticmethod
    def _open(path: Path) -> TextIO:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        return os.fdopen(fd, "a", encoding="utf-8", buffering=1)

    def reopen(self, path: Path | None = None) -> None:
        """Open the log at ``path`` (default: its path) again, a new file if it was
        renamed (logrotate without copytruncate); OSError leaves the old one in use."""
        path = path or self.path
        file = self._open(path)
        old, self.file, self.path, self.failed = self.file, file, path, False
        with contextlib.suppress(OSError):
            old.close()

    def write(self, entry: LogEntry) -> None:
        """Log ``entry``; a failing log file is reported once and never stops the server."""
        record = {"time": datetime.now(UTC).isoformat(timespec="seconds"),
                  **asdict(entry.escaped()), "seconds": round(entry.seconds, 1)}
        echo = self.echo if self.echo is not None else sys.stderr
        try:
            self.file.write(json.dumps(record, ensure_ascii=False) + "\n")
        except (OSError, ValueError) as exc:
            if not self.failed:
                self.failed = True
                print(f"trash serve: cannot write the connection log {self.path}: {exc}",
                      file=echo, flush=True)
        with contextlib.suppress(OSError, ValueError):  # stderr gone: the file has it
            print(entry.human(), file=echo, flush=True)

    def close(self) -> None:
        self.file.close()
