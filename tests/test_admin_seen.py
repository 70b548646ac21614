"""Which keys came from an address, which addresses a key came from (issue 37, ban
evasion): each authenticated SSH connection keeps one row per (key, address) pair in the
history database, and ``trash admin seen KEY|NAME|ADDRESS|NETWORK`` looks both ways.

Real SSH connections (asyncssh clients) from two loopback addresses (127.0.0.1 and
127.0.0.2: Linux routes all of 127/8 to this machine).
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from admin_helpers import admin, admin_ok
from ssh_helpers import connect, serving

from trash_tui.players.rater import open_history
from trash_tui.ssh.server import RunningServer

SLEEPER = (sys.executable, "-c", "import time; time.sleep(30)")  # a session's stand-in app


async def visit(server: RunningServer, key: asyncssh.SSHKey, source: str) -> None:
    """One authenticated connection from ``source``, closed at once."""
    conn = await connect(server, key, local_addr=(source, 0))
    conn.close()
    await conn.wait_closed()


async def seen_rows(server: RunningServer, target: str) -> dict[str, Any]:
    return (await admin_ok(server, "seen", target=target))["data"]


async def wait_for_count(server: RunningServer, key: str, count: int) -> None:
    for _ in range(100):
        rows = (await seen_rows(server, key))["rows"]
        if sum(row["count"] for row in rows) >= count:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{key} was not counted {count} times")


async def test_seen_looks_up_the_addresses_of_a_key_and_the_keys_of_an_address(
        tmp_path: Path) -> None:
    mallory, mallory2, carol = (asyncssh.generate_private_key("ssh-ed25519")
                                for _ in range(3))
    m1, m2, c = (key.get_fingerprint("sha256") for key in (mallory, mallory2, carol))
    async with serving(tmp_path, command=SLEEPER) as server:
        with open_history(server.config.history) as history:
            history.players.register_player(m1, "Mallory\x1b[31m")
            history.players.register_player(m2, "Eve")
        await visit(server, mallory, "127.0.0.1")
        await visit(server, mallory, "127.0.0.1")
        await visit(server, mallory, "127.0.0.2")
        await visit(server, mallory2, "127.0.0.2")  # the new key from the same address
        await visit(server, carol, "127.0.0.1")
        await wait_for_count(server, m1, 3)
        await wait_for_count(server, c, 1)

        by_key = await seen_rows(server, m1)
        assert {(r["address"], r["count"]) for r in by_key["rows"]} == {
            ("127.0.0.1", 2), ("127.0.0.2", 1)}
        assert all(r["first"] <= r["last"] for r in by_key["rows"])
        # the other keys from those addresses: the evasion shows
        assert {(r["key"], r["address"]) for r in by_key["others"]} == {
            (m2, "127.0.0.2"), (c, "127.0.0.1")}

        text = (await admin_ok(server, "seen", target=m1))["text"]
        assert "\x1b" not in text and "Mallory[31m" in text and m2 in text

        by_name = await admin_ok(server, "seen", target="eve")
        assert {r["key"] for r in by_name["data"]["rows"]} == {m2}
        assert {r["key"] for r in by_name["data"]["others"]} == {m1}

        by_address = await seen_rows(server, "127.0.0.2")
        assert {(r["key"], r["count"]) for r in by_address["rows"]} == {(m1, 1), (m2, 1)}
        by_network = await seen_rows(server, "127.0.0.0/24")
        assert {(r["key"], r["address"]) for r in by_network["rows"]} == {
            (m1, "127.0.0.1"), (m1, "127.0.0.2"), (m2, "127.0.0.2"), (c, "127.0.0.1")}
        assert (await seen_rows(server, "10.0.0.0/8"))["rows"] == []

        nobody = await admin(server, "seen", target="Nobody")
        assert not nobody["ok"] and "no player is called 'Nobody'" in nobody["error"]

        # the real command: a table of rows, one-line errors with exit status 2
        command = [sys.executable, "-m", "trash_tui.cli.main", "admin", "--socket",
                   str(server.config.admin_path), "seen"]
        ran = await asyncio.to_thread(subprocess.run, [*command, "127.0.0.2"],
                                      capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0, ran.stderr
        assert m2 in ran.stdout and m1 in ran.stdout and "COUNT" in ran.stdout
        ran = await asyncio.to_thread(subprocess.run, [*command, "Nobody"],
                                      capture_output=True, text=True, timeout=60)
        assert ran.returncode == 2 and ran.stderr.count("\n") == 1, ran.stderr

    # one row per pair, however many connections
    with sqlite3.connect(tmp_path / "history.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM key_addresses").fetchone()[0] == 4


async def test_a_database_from_before_gets_the_table_and_a_banned_key_is_not_counted(
        tmp_path: Path) -> None:
    """A history database as the previous version left it (no ``key_addresses``) is
    upgraded in place when the server opens it; a refused (banned) connection is not an
    authenticated one."""
    key, banned = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    async with serving(tmp_path, command=SLEEPER):
        pass
    with sqlite3.connect(tmp_path / "history.sqlite3") as db:
        db.execute("DROP TABLE IF EXISTS key_addresses")
    async with serving(tmp_path, command=SLEEPER) as server:
        await admin_ok(server, "ban", target=banned.get_fingerprint("sha256"))
        with pytest.raises(asyncssh.DisconnectError):
            await visit(server, banned, "127.0.0.1")
        await visit(server, key, "127.0.0.1")
        await wait_for_count(server, key.get_fingerprint("sha256"), 1)
        assert (await seen_rows(server, banned.get_fingerprint("sha256")))["rows"] == []
