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
