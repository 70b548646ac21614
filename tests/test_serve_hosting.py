"""Hosting for real (issue 37): listening on every interface, dual-stack.

``host = "::"`` is "every interface" in the config: IPv4 clients reach it as well as IPv6
ones (the socket is made with ``IPV6_V6ONLY`` off).
"""

from __future__ import annotations

import socket
from pathlib import Path

import asyncssh
import pytest
from ssh_helpers import serving


def has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


async def reaches(address: str, port: int) -> bool:
    """Whether an SSH client gets through the handshake and logs in at ``address``."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    conn = await asyncssh.connect(address, port, known_hosts=None, agent_path=None,
                                  username="player", client_keys=[key])
    conn.close()
    await conn.wait_closed()
    return True


@pytest.mark.parametrize("client", ["127.0.0.1", "::1"])
async def test_host_double_colon_takes_ipv4_and_ipv6_clients(tmp_path: Path, client: str
                                                             ) -> None:
    if client == "::1" and not has_ipv6_loopback():
        pytest.skip("this machine has no ::1")
    async with serving(tmp_path, host="::") as server:
        assert await reaches(client, server.port)


async def test_the_history_database_and_its_wal_and_shm_are_for_their_owner_only(
        tmp_path: Path) -> None:
    """Reports, chat, bans and keys are in it: made 0600, and an old 0644 one is closed
    up at start."""
    async with serving(tmp_path):
        pass
    history = tmp_path / "history.sqlite3"
    for path in tmp_path.glob("history.sqlite3*"):
        path.chmod(0o644)  # as an older version left them
    async with serving(tmp_path) as server:
        await server.state.tables.run(lambda: None)
        files = [history, *(history.with_name(history.name + end) for end in ("-wal", "-shm"))]
        modes = {path.name: oct(path.stat().st_mode & 0o777) for path in files}
        assert modes == {path.name: "0o600" for path in files}
    fresh = tmp_path / "new"
    fresh.mkdir()
    async with serving(fresh) as server:
        files = sorted(fresh.glob("history.sqlite3*"))
        assert len(files) == 3
        assert {oct(path.stat().st_mode & 0o777) for path in files} == {"0o600"}
