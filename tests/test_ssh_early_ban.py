"""A banned address or network is refused as early as the protocol allows (issue 37): its
TCP connection is closed the moment it is made, before the server sends its version line
or its KEXINIT (nothing of the key exchange is spent on it), and the log says why in one
line; a flood of banned connections writes a bounded number of lines (the rest are
counted in the next line and in the metrics)."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import asyncssh
import pytest
from admin_helpers import admin_ok
from ssh_helpers import connect, serving

from trash_tui.ssh.limits import BANNED_LINES_PER_MINUTE


async def raw_bytes(port: int, first_line: bool = False) -> bytes:
    """Everything the server sends a TCP client that sends nothing, until it closes (or
    its first line)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        return await asyncio.wait_for(reader.readline() if first_line else reader.read(), 5)
    finally:
        writer.close()


def log_lines(folder: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (folder / "ssh.log").read_text().splitlines()]


async def test_a_banned_network_is_closed_before_the_version_line(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        assert (await raw_bytes(server.port, True)).startswith(b"SSH-2.0-trash-tui")  # unbanned
        await admin_ok(server, "ban", target="127.0.0.0/8", reason="a flood")
        assert await raw_bytes(server.port) == b""  # no version line, no KEXINIT
        started = asyncio.get_running_loop().time()
        ssh = await asyncio.to_thread(
            subprocess.run, ["ssh", "-p", str(server.port), "-o", "BatchMode=yes",
                             "-o", "StrictHostKeyChecking=no", "-o",
                             "UserKnownHostsFile=/dev/null", "player@127.0.0.1", "true"],
            capture_output=True, text=True, timeout=20)
        assert ssh.returncode == 255
        assert "closed by remote host" in ssh.stderr or "reset by peer" in ssh.stderr
        assert asyncio.get_running_loop().time() - started < 5
        await admin_ok(server, "unban", target="127.0.0.0/8")
        (await connect(server, asyncssh.generate_private_key("ssh-ed25519"))).close()
        stats = (await admin_ok(server, "stats"))["data"]
        assert stats["refused"]["banned"] == 2
    refused = [line for line in log_lines(tmp_path) if line["ended"] == "refused: banned"]
    assert len(refused) == 2 and all(line["peer"].startswith("127.0.0.1:")
                                     for line in refused)


async def test_a_flood_of_banned_connections_writes_a_bounded_log(tmp_path: Path) -> None:
    flood = 300
    async with serving(tmp_path, connections_per_minute=100_000,
                       max_connections=100_000, connections_per_ip=10_000) as server:
        await admin_ok(server, "ban", target="127.0.0.1", reason="a flood")
        for start in range(0, flood, 50):
            answers = await asyncio.gather(*(raw_bytes(server.port)
                                             for _ in range(min(50, flood - start))))
            assert set(answers) == {b""}
        stats = (await admin_ok(server, "stats"))["data"]
        assert stats["refused"]["banned"] == flood  # every one counted
    lines = [line for line in log_lines(tmp_path)
             if str(line["ended"]).startswith("refused: banned")]
    assert 1 <= len(lines) <= BANNED_LINES_PER_MINUTE + 1
    assert any("not logged" in str(line["ended"]) for line in lines), lines[-1]


@pytest.mark.parametrize("limit", ["connections_per_minute", "connections_per_ip"])
async def test_every_refusal_as_a_connection_is_made_sends_nothing(tmp_path: Path,
                                                                   limit: str) -> None:
    """Over a connection limit the connection is closed the same way as a banned one: not
    a binary SSH packet before the version line (OpenSSH: "banner exchange: invalid
    format"), nothing at all."""
    async with serving(tmp_path, **{limit: 1}) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        assert (await reader.readline()).startswith(b"SSH-2.0-")  # the one allowed
        assert await raw_bytes(server.port) == b""
        ssh = await asyncio.to_thread(
            subprocess.run, ["ssh", "-p", str(server.port), "-o", "BatchMode=yes",
                             "-o", "StrictHostKeyChecking=no", "-o",
                             "UserKnownHostsFile=/dev/null", "player@127.0.0.1", "true"],
            capture_output=True, text=True, timeout=20)
        writer.close()
    assert ssh.returncode == 255 and "invalid format" not in ssh.stderr, ssh.stderr
