"""Recordings of sessions, opt-in (``record_sessions = true``): what each session draws, as
an asciicast v2 file that common players replay (``asciinema play FILE``).

A ``Recording`` is a tap of the session's output pump (``trash_tui.ssh.watch.Tap``): it
gets every chunk the player is sent, from the first, and each window change. The file
is one JSON header line (``version`` 2, ``width``, ``height``, ``timestamp``, the
terminal type and a title naming the player's key and address), then one line per event:
``[seconds since the start, "o", text]`` for output, ``[..., "r", "COLSxROWS"]`` for a
window change. Output is decoded as UTF-8 across chunks (a character cut between two
chunks is whole in the file).

Files live in ``recordings/`` of the data folder (``ServerConfig.recordings_path``, mode
0700), each 0600, named ``YYYYmmdd-HHMMSS-<hash of the key>-<pid>.cast`` (UTC); the
header holds the key itself, so ``grep -l KEY recordings/*.cast`` finds a player's. A
recording stops at ``recording_max_mb`` (the events so far stay whole), so one session
cannot fill the disk; ``prune`` deletes the ``.cast`` files older than
``recordings_days`` (when the server starts, then every hour). A failed write (a full
disk) ends that recording only, with one line to the operator.
"""

from __future__ import annotations

import codecs
import contextlib
import hashlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

MEGABYTE = 1024 * 1024
SUFFIX = ".cast"
PRUNE_EVERY = 3600.0  # seconds between two looks for recordings past their days


class Recording:
    """One session's recording (a tap of its output); ``close`` ends it."""

    def __init__(self, path: Path, columns: int, rows: int, term: str, title: str,
                 max_bytes: int, report: Callable[[str], None]) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.report = report
        self.started = time.monotonic()
        self.written = 0
        self.full = False
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                             0o600)
        self.file: TextIO | None = os.fdopen(descriptor, "w", encoding="utf-8", newline="\n")
        header = {"version": 2, "width": columns, "height": rows,
                  "timestamp": int(time.time()), "env": {"TERM": term}, "title": title}
        self._write(json.dumps(header, ensure_ascii=False) + "\n")

    @classmethod
    def start(cls, folder: Path, identity: str, address: str, columns: int, rows: int,
              term: str, pid: int, max_bytes: int, report: Callable[[str], None]
              ) -> Recording | None:
        """A new recording in ``folder`` (made 0700 if need be); None, with one line to
        the operator, when it cannot be made."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        who = hashlib.sha256(identity.encode()).hexdigest()[:12]
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if folder.stat().st_mode & 0o077:  # (made by hand, or by an older umask)
                folder.chmod(0o700)
            return cls(folder / f"{stamp}-{who}-{pid}{SUFFIX}", columns, rows, term,
                       f"trash session of {identity} from {address}", max_bytes, report)
        except OSError as exc:
            report(f"cannot record a session in {folder}: {exc.strerror or exc}")
            return None

    def _write(self, line: str) -> None:
        if self.file is None:
            return
        size = len(line.encode("utf-8"))
        if self.written + size > self.max_bytes:
            self.full = True
            self.close("full")
            return
        try:
            self.file.write(line)
        except OSError as exc:
            self.report(f"a recording stopped: {self.path}: {exc.strerror or exc}")
            self.close("failed")
            return
        self.written += size

    def _event(self, kind: str, text: str) -> None:
        seconds = round(time.monotonic() - self.started, 6)
        self._write(json.dumps([seconds, kind, text], ensure_ascii=False) + "\n")

    def feed(self, data: bytes) -> None:
        text = self.decoder.decode(data)
        if text:
            self._event("o", text)

    def resized(self, columns: int, rows: int) -> None:
        self._event("r", f"{columns}x{rows}")

    def close(self, why: str) -> None:
        if self.file is None:
            return
        rest = self.decoder.decode(b"", final=True)
        if rest and not self.full and why != "failed":
            self._event("o", rest)
        file, self.file = self.file, None
        if file is not None:
            with contextlib.suppress(OSError):
                file.close()


def prune(folder: Path, days: float, now: float | None = None) -> int:
    """Delete the recordings (``*.cast``) in ``folder`` last written more than ``days``
    ago; how many."""
    limit = (time.time() if now is None else now) - days * 86400
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if not entry.name.endswith(SUFFIX):
            continue
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False) and \
                    entry.stat(follow_symlinks=False).st_mtime < limit:
                os.unlink(entry.path)
                removed += 1
    return removed
