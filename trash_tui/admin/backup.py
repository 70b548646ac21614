"""A consistent copy of the live history database, made with SQLite's online backup API.

A file copy of a database in WAL mode can miss what is still in the ``-wal`` file or catch
a page half written. ``backup_database`` opens its own connection, copies every page in
one step of the backup API (a read transaction: the copy is the database as it was when
the backup began, every committed move included, while the tables go on writing), into a
temporary file beside the target, checks it (``PRAGMA quick_check``) and renames it into
place. An existing file is never overwritten.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path
from typing import Any


class BackupError(RuntimeError):
    """The backup cannot be made; one line saying why."""


def backup_database(source: Path, target: Path) -> dict[str, Any]:
    """Copy the database ``source`` to the new file ``target``; what it holds (bytes,
    matches, actions, seconds taken)."""
    if target.exists():
        raise BackupError(f"{target}: the file exists (a backup never overwrites one)")
    if not target.parent.is_dir():
        raise BackupError(f"{target.parent}: no such folder")
    temporary = target.with_name(f".{target.name}.{os.getpid()}.partial")
    started = time.monotonic()
    try:
        reader = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30.0)
        try:
            writer = sqlite3.connect(temporary)
            try:
                reader.backup(writer)  # every page in one step: one read snapshot
                checked = writer.execute("PRAGMA quick_check").fetchone()
                if not checked or checked[0] != "ok":
                    raise BackupError(f"the copy does not check: {checked}")
                counts = {name: _count(writer, name) for name in ("matches", "match_actions")}
            finally:
                writer.close()
        finally:
            reader.close()
        os.chmod(temporary, 0o600)
        if target.exists():
            raise BackupError(f"{target}: the file exists (a backup never overwrites one)")
        os.replace(temporary, target)
    except (OSError, sqlite3.Error) as exc:
        raise BackupError(f"cannot back up {source} to {target}: "
                          f"{getattr(exc, 'strerror', None) or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
    return {"file": str(target), "bytes": target.stat().st_size,
            "matches": counts["matches"], "actions": counts["match_actions"],
            "seconds": round(time.monotonic() - started, 3)}


def _count(db: sqlite3.Connection, table: str) -> int:
    try:
        return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.Error:
        return 0
