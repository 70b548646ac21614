"""Backups while the server runs, and the Prometheus endpoint (issue 26).

Four tables play (a host each and three bots, moving as fast as the service goes) while
``trash admin backup`` copies the history database: the copy is a valid database holding
every move saved before the backup began. The metrics endpoint answers in the Prometheus
text format, its counters move as the tables play, and it names no player.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import subprocess
import sys
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest
from admin_helpers import admin_ok
from prometheus_client.parser import text_string_to_metric_families
from ssh_helpers import connect, serving
from table_helpers import TableClient, play_out
from table_ssh_helpers import make_fast, wait_until

from trash_tui.ssh.config import ServeError, load_server_config
from trash_tui.ssh.server import RunningServer


def saved_moves(path: Path) -> dict[int, list[int]]:
    """Each match's saved move numbers, read with a connection of its own."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        rows = db.execute("SELECT match_id, number FROM match_actions ORDER BY match_id, "
                          "number").fetchall()
    finally:
        db.close()
    moves: dict[int, list[int]] = {}
    for match_id, number in rows:
        moves.setdefault(match_id, []).append(number)
    return moves


@contextlib.asynccontextmanager
async def four_tables(server: RunningServer) -> AsyncIterator[list[TableClient]]:
    """Four hosts, each at a table with three bots, each playing its moves: the four
    matches play at once."""
    hosts, playing = [], []
    for number in range(4):
        host = await TableClient.connect(server.state.tables, f"SHA256:host{number}")
        await host.send({"op": "create", "config": {
            "seats": ["human", "random", "random", "random"], "clock": 0}})
        await host.wait_for("created")
        hosts.append(host)
        playing.append(asyncio.ensure_future(play_out([host], timeout=120)))
    try:
        yield hosts
    finally:
        for task in playing:
            task.cancel()
        for host in hosts:
            await host.close()


def scrape(address: str) -> dict[str, float]:
    """The endpoint's samples (name and labels -> value), parsed as Prometheus text."""
    with urllib.request.urlopen(f"http://{address}/metrics", timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("text/plain")
        text = answer.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}"] = sample.value
    samples["text"] = text  # type: ignore[assignment]
    return samples


async def test_a_backup_while_four_tables_play_holds_every_move_saved_before_it(
        tmp_path: Path) -> None:
    async with serving(tmp_path, metrics=("127.0.0.1", 0)) as server:
        make_fast(server, 0.0)
        async with four_tables(server):
            await backup_while_playing(server, tmp_path)


async def backup_while_playing(server: RunningServer, tmp_path: Path) -> None:
    """Back up once every match has moves; check the copy against the database."""
    database = server.config.history
    await wait_until(lambda: len(saved_moves(database)) == 4 and
                     min(map(len, saved_moves(database).values())) >= 20, 30,
                     what="four matches under way")
    before = saved_moves(database)
    copy = tmp_path / "copy.sqlite3"
    ran = await asyncio.to_thread(trash_admin_backup, server, copy)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("backed up 4 matches") and f"to {copy}" in ran.stdout
    after = saved_moves(database)
    moves = sum(map(len, before.values()))  # the tables play on (a backup stops nothing)
    await wait_until(lambda: sum(map(len, saved_moves(database).values())) > moves + 8, 20,
                     what="the tables to play on")
    db = sqlite3.connect(copy)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()
    copied = saved_moves(copy)
    for match_id, numbers in before.items():
        assert copied[match_id][:len(numbers)] == numbers  # every move saved before
        assert copied[match_id] == list(range(len(copied[match_id])))  # and whole
        assert len(copied[match_id]) <= len(after[match_id])
    again = await asyncio.to_thread(trash_admin_backup, server, copy)
    assert again.returncode == 2 and "exists" in again.stderr  # never overwritten
    assert not [p.name for p in database.parent.iterdir() if p.name.startswith(".backup")]


def trash_admin_backup(server: RunningServer, file: Path) -> subprocess.CompletedProcess[str]:
    """``trash admin backup FILE``, the real console: it writes the file itself."""
    return subprocess.run([sys.executable, "-m", "trash_tui.cli.main", "admin", "--socket",
                           str(server.config.admin_path), "backup", str(file)],
                          capture_output=True, text=True, timeout=120)


async def test_the_metrics_endpoint_speaks_prometheus_and_its_counters_move(
        tmp_path: Path) -> None:
    async with serving(tmp_path, metrics=("127.0.0.1", 0)) as server:
        make_fast(server, 0.0)
        address = server.state.metrics_address
        assert address is not None and address.startswith("127.0.0.1:")
        first = await asyncio.to_thread(scrape, address)
        assert first["trash_moves_total{}"] == 0
        banned = asyncssh.generate_private_key("ssh-ed25519")
        await admin_ok(server, "ban", target=banned.get_fingerprint("sha256"))
        with pytest.raises(asyncssh.DisconnectError):
            await connect(server, banned)
        async with four_tables(server):
            await counters_move(server, address, first)


async def counters_move(server: RunningServer, address: str, first: dict[str, float]
                        ) -> None:
    """Scrape while the tables play: the counters moved since ``first``."""
    await wait_until(lambda: server.state.metrics.value(server.state.metrics.moves) > 50,
                     30, what="moves")
    second = await asyncio.to_thread(scrape, address)
    assert second["trash_moves_total{}"] > 50
    assert second["trash_tables{status=playing}"] == 4
    assert second["trash_history_write_seconds_count{}"] > first[
        "trash_history_write_seconds_count{}"]
    await wait_until(lambda: server.state.metrics.refused_by_reason(), 10)
    third = await asyncio.to_thread(scrape, address)
    assert third["trash_connections_refused_total{reason=banned}"] == 1
    assert third["trash_bans_total{}"] == 1 and third["trash_sanctions{action=ban}"] == 1
    assert third["trash_moves_total{}"] >= second["trash_moves_total{}"]
    assert "host" not in str(third["text"])  # no player's key or name
    stats = (await admin_ok(server, "stats"))["data"]
    assert stats["tables"] == {"playing": 4} and stats["moves"] > 50
    assert stats["metrics"] == address


def test_the_metrics_key_listens_on_loopback_unless_told_and_is_checked(
        tmp_path: Path) -> None:
    config = tmp_path / "server.toml"
    config.write_text('[server]\nmetrics = "9464"\n')
    assert load_server_config(config).metrics == ("127.0.0.1", 9464)
    config.write_text('[server]\nmetrics = "[::1]:9100"\n')
    assert load_server_config(config).metrics == ("::1", 9100)
    assert load_server_config(None).metrics is None  # off by default
    config.write_text('[server]\nmetrics = "localhost:99999"\n')
    with pytest.raises(ServeError, match=r"server.toml:2: server.metrics: expected"):
        load_server_config(config)
