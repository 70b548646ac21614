"""Backups where an operator really puts them (issue 37): the README's systemd unit and its
backup recipe together, and a clear line when a place cannot take the file.

The unit runs ``trash serve`` as an unprivileged user with the home read-only
(``ProtectHome=read-only``) and only the data folder writable (``ReadWritePaths``). It is
imitated here as root: the server runs as ``nobody`` in a private mount namespace
(``unshare -m``) where the home is bound read-only and the data folder bound writable,
as systemd does; ``trash admin`` runs as the same user outside it, as cron runs it. The
console receives the backup and writes the file itself.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from other_user import ENV, SYSTEM_PYTHON, why_not

NOBODY = 65534
AS_NOBODY = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
ROOT = Path(__file__).resolve().parent.parent
TRASH = [str(SYSTEM_PYTHON), "-m", "trash_tui.cli.main"]

pytestmark = pytest.mark.skipif(why_not(mount_namespace=True) is not None,
                                reason="imitating the systemd unit: "
                                       f"{why_not(mount_namespace=True)}")


def admin(home: Path, *args: str, namespace: str = "") -> subprocess.CompletedProcess[str]:
    """``trash admin --config HOME/ssh-server.toml ARGS`` as the server's user (inside a
    mount namespace made by the shell line ``namespace`` when given)."""
    command = [*AS_NOBODY, *TRASH, "admin", "--config", str(home / "ssh-server.toml"), *args]
    if namespace:
        command = ["unshare", "-m", "sh", "-c", f'{namespace} && exec "$@"', "sh", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=120,
                          env={**ENV, "HOME": str(home)})


@contextlib.contextmanager
def unit_server() -> Iterator[Path]:
    """A ``trash serve`` as the README's unit runs it: its user's home (yielded) holds the
    config, the data folder (``data``, the only place it may write) and ``backups``."""
    home = Path(tempfile.mkdtemp(prefix="trash-home-"))
    home.chmod(0o755)
    data, backups = home / "data", home / "backups"
    data.mkdir()
    backups.mkdir()
    (home / "ssh-server.toml").write_text(
        '[server]\nhost = "127.0.0.1"\nport = 0\nhost_key = "data/host_key"\n'
        'history = "data/history.sqlite3"\nplayers_dir = "data/players"\n'
        'log = "data/ssh.log"\n', encoding="utf-8")
    for path in (home, data, backups, home / "ssh-server.toml"):
        os.chown(path, NOBODY, NOBODY)
    unit = (f"mount --bind {data} {data} && mount --rbind {home} {home} && "
            f"mount -o remount,bind,ro {home}")
    server = subprocess.Popen(
        ["unshare", "-m", "sh", "-c", f'{unit} && exec "$@"', "sh", *AS_NOBODY, *TRASH,
         "serve", "--config", str(home / "ssh-server.toml")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, env={**ENV, "HOME": str(home)})
    try:
        deadline = time.monotonic() + 60
        while admin(home, "stats").returncode != 0:
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start: {server.stderr.read()}")
            time.sleep(0.3)
        yield home
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server.stderr.close()
        shutil.rmtree(home, ignore_errors=True)


def test_the_readmes_backup_recipe_works_under_the_readmes_unit() -> None:
    with unit_server() as home:
        target = home / "backups" / f"history-{time.strftime('%F')}.sqlite3"
        ran = admin(home, "backup", str(target))
        assert ran.returncode == 0, ran.stderr
        assert f"to {target}" in ran.stdout
        assert target.stat().st_uid == NOBODY and target.stat().st_mode & 0o777 == 0o600
        db = sqlite3.connect(target)
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        db.close()
        assert not [p.name for p in (home / "data").iterdir() if "backup" in p.name]
        again = admin(home, "backup", str(target))  # never overwritten
        assert again.returncode == 2 and "exists" in again.stderr


def test_a_folder_the_user_may_not_enter_is_one_clear_line() -> None:
    with unit_server() as home:
        closed = home / "closed"
        closed.mkdir(mode=0o700)  # root's: nobody may not look into it
        ran = admin(home, "backup", str(closed / "history.sqlite3"))
        assert ran.returncode == 2
        assert ran.stderr.count("\n") == 1, ran.stderr
        line = ran.stderr
        assert str(closed) in line and "permission denied" in line
        assert "nobody" in line and "choose a folder" in line, line


def test_a_read_only_place_is_one_clear_line() -> None:
    with unit_server() as home:
        backups = home / "backups"
        ran = admin(home, "backup", str(backups / "history.sqlite3"),
                    namespace=f"mount --bind {backups} {backups} && "
                              f"mount -o remount,bind,ro {backups}")
        assert ran.returncode == 2
        assert ran.stderr.count("\n") == 1, ran.stderr
        line = ran.stderr
        assert str(backups) in line and "read-only file system" in line
        assert "choose a folder" in line, line
        assert not list(backups.iterdir())
