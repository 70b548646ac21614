"""A consistent copy of the live history database, made with SQLite's online backup API,
and its delivery to the file the operator named.

A file copy of a database in WAL mode can miss what is still in the ``-wal`` file or catch
a page half written. On the server's side ``backup_database`` opens its own connection,
copies every page in one step of the backup API (a read transaction: the copy is the
database as it was when the backup began, every committed move included, while the tables
go on writing), into a temporary file, checks it (``PRAGMA quick_check``) and renames it
into place; ``spool_file`` names that place in the database's own folder, which the server
may always write (a systemd unit with ``ProtectHome=read-only`` makes only the data folder
writable).

The console (``trash admin backup FILE``, the operator's process, outside the unit's
sandbox) writes ``FILE`` itself: ``open_target`` makes sure the place can take the file
before the server works (one line saying what, where, why and what to do when it cannot),
``deliver`` copies the server's spooled backup into it and removes the spool. An existing
file is never overwritten.
"""

from __future__ import annotations

import contextlib
import errno
import os
import pwd
import secrets
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

SPOOL_PREFIX = ".backup-"
SPOOL_AGE = 3600.0  # seconds after which a spooled backup nobody took is removed


class BackupError(RuntimeError):
    """The backup cannot be made; one line saying why."""


def spool_file(database: Path) -> Path:
    """A new file name for a backup beside ``database`` (removing old ones left behind by
    a console that went away)."""
    now = time.time()
    with contextlib.suppress(OSError):
        for old in database.parent.glob(f"{SPOOL_PREFIX}*.sqlite3"):
            with contextlib.suppress(OSError):
                if now - old.stat().st_mtime > SPOOL_AGE:
                    old.unlink()
    return database.parent / f"{SPOOL_PREFIX}{secrets.token_hex(6)}.sqlite3"


def backup_database(source: Path, target: Path) -> dict[str, Any]:
    """Copy the database ``source`` to the new file ``target``; what it holds (bytes,
    matches, actions, seconds taken)."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}.partial")
    started = time.monotonic()
    try:
        if target.exists():
            raise BackupError(f"{target}: the file exists (a backup never overwrites one)")
        if not target.parent.is_dir():
            raise BackupError(f"{target.parent}: no such folder")
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
        size = target.stat().st_size
    except (OSError, sqlite3.Error) as exc:
        raise BackupError(f"cannot back up {source} to {target}: "
                          f"{getattr(exc, 'strerror', None) or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
    return {"file": str(target), "bytes": size,
            "matches": counts["matches"], "actions": counts["match_actions"],
            "seconds": round(time.monotonic() - started, 3)}


def _count(db: sqlite3.Connection, table: str) -> int:
    try:
        return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.Error:
        return 0


def _user() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return f"uid {os.geteuid()}"


def place_error(target: Path, exc: OSError) -> BackupError:
    """One line for a place that cannot take the backup ``target``: what, where, why and
    what to do."""
    folder, user = target.parent, _user()
    what = f"cannot write the backup {target}"
    if isinstance(exc, FileExistsError):
        return BackupError(f"{target}: the file exists (a backup never overwrites one: "
                           "choose a new name)")
    if isinstance(exc, FileNotFoundError):
        return BackupError(f"{what}: the folder {folder} does not exist (make it first: "
                           f"mkdir -p {folder})")
    if isinstance(exc, PermissionError):
        return BackupError(f"{what}: permission denied: user {user} may not write in "
                           f"{folder} (choose a folder {user} may write, or give it that "
                           "user)")
    if exc.errno == errno.EROFS:
        return BackupError(f"{what}: {folder} is on a read-only file system (choose a "
                           f"folder {user} may write)")
    if exc.errno == errno.ENOSPC:
        return BackupError(f"{what}: no space left on the device of {folder} (free some, "
                           "or choose a folder on another device)")
    if exc.errno == errno.ENOTDIR:
        return BackupError(f"{what}: {folder} is not a folder (choose a folder {user} may "
                           "write)")
    return BackupError(f"{what}: {exc.strerror or exc} (choose a folder {user} may write)")


def partial_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}.partial")


def open_target(target: Path) -> int:
    """Make sure ``target`` can be written (it does not exist, its folder takes a new
    file): the descriptor of a new temporary file beside it, mode 0600. BackupError (one
    line) when the place cannot take it."""
    try:
        if target.exists() or target.is_symlink():
            raise FileExistsError(errno.EEXIST, "exists")
        return os.open(partial_name(target), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise place_error(target, exc) from None


def deliver(spool: Path, partial: int, target: Path) -> None:
    """Copy the server's spooled backup into the temporary file ``partial`` (from
    ``open_target``), put it in place as ``target`` (never over a file) and remove the
    spool and the temporary file. BackupError (one line) when it cannot."""
    temporary = partial_name(target)
    try:
        try:
            source = open(spool, "rb")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise BackupError(f"cannot read the server's backup {spool}: "
                              f"{exc.strerror or exc} (run trash admin as the user who runs "
                              "the server, on its machine)") from None
        try:
            with source, os.fdopen(os.dup(partial), "wb") as copy:
                shutil.copyfileobj(source, copy, 1 << 20)
                copy.flush()
                os.fsync(copy.fileno())
            _put_in_place(temporary, target)
        except OSError as exc:
            raise place_error(target, exc) from None
    finally:
        for path in (temporary, spool):
            with contextlib.suppress(OSError):
                path.unlink()


def _put_in_place(temporary: Path, target: Path) -> None:
    """Rename ``temporary`` to ``target``, never over a file (a hard link where the file
    system has them, so a file that appeared meanwhile is kept)."""
    try:
        os.link(temporary, target)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP):
            raise
        if target.exists():
            raise FileExistsError(errno.EEXIST, "exists") from None
        os.rename(temporary, target)


def abandon(partial: int, target: Path) -> None:
    """Remove the temporary file of a backup that did not happen."""
    with contextlib.suppress(OSError):
        os.close(partial)
    with contextlib.suppress(OSError):
        partial_name(target).unlink()
