"""How players reach the server and why they are turned away (issue 29): a session over
the per-address limit is told that it is its address that has too many sessions (not that
the server is full), and the connection log says so; ``public_host`` and ``public_port``
say where players connect from outside (the waiting room's join hint), with defaults that
work on a server listening on every interface or on a free port."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import asyncssh
import pytest
from ssh_helpers import connect, eventually, serving

from trash_tui.ssh.config import (
    ServeError,
    ServerConfig,
    is_local_or_wildcard,
    load_server_config,
    public_address,
)
from trash_tui.ssh.limits import ADDRESS_FULL, SERVER_FULL, SessionSlots

SLEEPER = (sys.executable, "-c", "import time; time.sleep(30)")


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


def test_the_slots_say_which_limit_turned_a_session_away() -> None:
    slots = SessionSlots(total=3, per_address=2)
    assert slots.take("10.0.0.1") is None and slots.take("10.0.0.1") is None
    assert slots.take("10.0.0.1") == ADDRESS_FULL  # 2 of 3 in use: the address is full
    assert slots.take("10.0.0.2") is None
    assert slots.take("10.0.0.3") == SERVER_FULL
    slots.release("10.0.0.2")
    assert slots.acquire("10.0.0.3")


async def test_a_session_over_the_per_address_limit_is_told_its_address_is_full(
        tmp_path: Path) -> None:
    async with serving(tmp_path, command=SLEEPER, max_sessions=20,
                       sessions_per_ip=1) as server, \
            await connect(server, new_key()) as first, \
            await connect(server, new_key()) as second:
        await first.create_process(term_type="xterm")
        await eventually(lambda: server.session_count == 1)
        refused = await second.run(term_type="xterm", encoding="utf-8")
        assert refused.exit_status == 1
        assert "this address has 1 session open, the most one address may have" in \
            refused.stderr
        assert "server is full" not in refused.stderr
    entries = [json.loads(line) for line in
               server.config.log.read_text(encoding="utf-8").splitlines()]
    assert any(e.get("ended") == "refused: too many sessions from this address"
               for e in entries)
    assert not any(e.get("ended") == "refused: server full" for e in entries)


def test_public_host_and_port_are_read_and_checked_in_one_located_line(
        tmp_path: Path) -> None:
    path = tmp_path / "server.toml"
    path.write_text('[server]\nhost = "0.0.0.0"\npublic_host = "games.example.org"\n'
                    'public_port = 22\n', encoding="utf-8")
    config = load_server_config(path)
    assert (config.public_host, config.public_port) == ("games.example.org", 22)
    assert public_address(config, 2222) == ("games.example.org", 22)
    for text, key in (('public_port = 0', "server.public_port"),
                      ('public_port = "22"', "server.public_port"),
                      ('public_host = "evil\\u001b[2J"', "server.public_host"),
                      ('public_host = ""', "server.public_host")):
        path.write_text(f"[server]\n{text}\n", encoding="utf-8")
        with pytest.raises(ServeError) as caught:
            load_server_config(path)
        message = str(caught.value)
        assert message.startswith(f"{path}:2: {key}: ") and "\n" not in message
        assert "\x1b" not in message


def test_the_public_address_defaults_to_the_host_or_this_machines_name() -> None:
    assert public_address(ServerConfig(host="203.0.113.7", port=2200), 2200) == (
        "203.0.113.7", 2200)
    for wildcard in ("0.0.0.0", "::", "127.0.0.1", "::1", "localhost"):
        assert is_local_or_wildcard(wildcard)
        assert public_address(ServerConfig(host=wildcard), 41234) == (socket.getfqdn(),
                                                                       41234)
    assert not is_local_or_wildcard("games.example.org")


async def test_the_table_service_is_told_the_address_players_connect_to(
        tmp_path: Path) -> None:
    async with serving(tmp_path, command=SLEEPER) as server:  # port 0: a free one
        assert server.state.tables.public_address == (socket.getfqdn(), server.port)
    async with serving(tmp_path, command=SLEEPER, public_host="games.example.org",
                       public_port=22) as server:
        assert server.state.tables.public_address == ("games.example.org", 22)
