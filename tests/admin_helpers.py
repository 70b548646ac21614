"""Helpers for the admin console tests: ``trash admin``'s requests sent to a server running
in the test's process (from a thread, as the real command is another process)."""

from __future__ import annotations

import asyncio
from typing import Any

from table_ssh_helpers import (
    ENTER,
    Player,
    create_table,
    enter_lobby,
    open_tables,
    table_of,
    wait_until,
)

from trash_tui.admin.console import request
from trash_tui.ssh.server import RunningServer
from trash_tui.tables.table import Table


async def admin(server: RunningServer, command: str, **args: Any) -> dict[str, Any]:
    """The server's answer to one admin request."""
    return await asyncio.to_thread(request, server.config.admin_path, command, args, 30.0)


async def admin_ok(server: RunningServer, command: str, **args: Any) -> dict[str, Any]:
    """The answer of a request that must succeed."""
    reply = await admin(server, command, **args)
    assert reply["ok"], reply
    return reply


async def seat_two(server: RunningServer) -> tuple[Player, Player, Table]:
    """Ann creates a 3-seat table (no clock) from the Tables screen; Bob comes in with its
    code as his SSH user name; the match begins."""
    ann, bob = Player(server, "Ann"), Player(server, "Bob")
    await enter_lobby(ann, server)
    await open_tables(ann)
    code = await create_table(ann, "standard", 3, 0)
    table = table_of(server, code)
    await bob.connect(server, username=code)
    await wait_until(lambda: table.status == "playing", what="the match to begin")
    for player in (ann, bob):
        await player.sees("Your move", "is playing")
    return ann, bob, table


async def chat(player: Player, text: str) -> None:
    """``player`` says ``text`` at the table (c, the line, enter)."""
    await player.press("c", pause=0.3)
    player.type(text)
    await player.press(ENTER, pause=0.2)
