"""The operator's moderation over SSH (issue 26): asyncssh clients against a real server.

At a table in play (the real app in each session): the message of the day, ``say``, a
mute (the muted line reaches nobody, the muted player is told), a kick (the session ends
with the reason, the seat is the stand-in's), ``close``. Bans by key, name and address are
refused at login, before any session (no app is started; an address ban as the connection
is made), survive a restart, and a ban ``--for`` a while ends by itself.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import asyncssh
import pytest
from admin_helpers import admin, admin_ok, chat, seat_two
from ssh_helpers import connect, serving
from table_ssh_helpers import (
    Player,
    create_table,
    enter_lobby,
    open_tables,
    play,
    table_of,
    table_server,
    wait_until,
)

from trash_tui.players.rater import open_history
from trash_tui.ssh.server import RunningServer

SLEEPER = (sys.executable, "-c", "import time; time.sleep(30)")  # a session's stand-in app


async def test_say_mute_kick_and_close_at_a_table_in_play(tmp_path: Path) -> None:
    async with table_server(tmp_path) as server:
        await admin_ok(server, "motd", text="Cup final at 8 pm\x07!")
        ann, bob, table = await seat_two(server)
        assert ann.saw("Cup final at 8 pm!")  # under the Tables screen's title, cleaned
        who = (await admin_ok(server, "who"))["data"]
        assert {(row["name"], row["where"]) for row in who} == {
            ("Ann", f"table {table.code} seat 1"), ("Bob", f"table {table.code} seat 2")}
        assert all(row["cpu"] > 0 and row["address"] == "127.0.0.1" for row in who)
        tables = (await admin_ok(server, "tables"))["data"]
        assert [row["code"] for row in tables] == [table.code]
        assert "Ann" in tables[0]["seats"] and "Bob" in tables[0]["seats"]

        marks = ann.mark(), bob.mark()
        said = await admin_ok(server, "say", text="Restart in five minutes", seconds=3)
        assert said["data"] == {"sessions": 2}
        for player, mark in zip((ann, bob), marks, strict=True):
            await player.sees("Restart in five minutes", since=mark)
            assert player.saw("From the server", since=mark), player.text(mark)[-3000:]

        mark = ann.mark()
        await admin_ok(server, "mute", target="Ann", reason="spam", **{"for": "1h"})
        await ann.sees("You are muted on this", since=mark)  # in the notice box
        bob_mark = bob.mark()
        await chat(ann, "cheap gold here")
        await ann.sees("your chat lines reach nobody", since=mark)
        await asyncio.sleep(1.0)
        assert not bob.saw("cheap gold", since=bob_mark)
        assert not any("cheap gold" in line["text"] for line in table.chat)
        await admin_ok(server, "unmute", target="Ann")
        await chat(ann, "sorry everyone")
        await bob.sees("sorry everyone", since=bob_mark)

        bob_seat = table.seat_of(bob.identity)
        marks = ann.mark(), bob.mark()
        kicked = await admin_ok(server, "kick", target="Bob", reason="rude to others")
        assert kicked["data"] == {"kicked": 1}
        await bob.sees("rude to others", since=marks[1])
        await wait_until(lambda: bob.ended, 15, what="Bob's session to end")
        assert "ended this session: rude to others" in bob.text(marks[1])
        await ann.sees("Bob was removed by the server's operator", since=marks[0])
        assert table.seats[bob_seat].away and table.seats[bob_seat].identity == bob.identity
        turns = {"bob": False}

        def stand_in_moved() -> bool:
            if table.controller.to_move == bob_seat:
                turns["bob"] = True
                return False
            return turns["bob"] or table.controller.over

        await play(table, [ann], stand_in_moved, timeout=30)

        mark = ann.mark()
        await admin_ok(server, "close", code=table.code.lower(), reason="maintenance")
        await ann.sees("maintenance", since=mark)
        assert table.id not in server.state.tables.tables
        stats = (await admin_ok(server, "stats"))["data"]
        assert stats["kicks"] == 1 and stats["moves"] > 0
        await ann.close()
    log = (tmp_path / "ssh.log").read_text()
    assert "kicked: rude to others" in log
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.shared_tables(["closed"])
        assert row["code"] == table.code


async def test_a_motd_with_brackets_is_shown_as_typed_and_the_tables_screen_works(
        tmp_path: Path) -> None:
    """``trash admin motd "Cup final [/] 8pm"``: a player over SSH sees it as typed in
    the lobby and under the Tables screen's title, and goes on (creates a table)."""
    async with table_server(tmp_path) as server:
        await admin_ok(server, "motd", text="Cup final [/] 8pm [link=x]")
        ann = Player(server, "Ann")
        await enter_lobby(ann, server)
        await ann.sees("Cup final [/] 8pm [link=x]")
        mark = ann.mark()
        await open_tables(ann)
        await ann.sees("Cup final [/] 8pm [link=x]", since=mark)
        code = await create_table(ann, "standard", 3, 0)
        assert not ann.ended and table_of(server, code).status == "waiting"
        assert "MarkupError" not in ann.text()
        await ann.close()


async def test_a_player_muted_in_the_lobby_or_the_tables_screen_is_told_there(
        tmp_path: Path) -> None:
    """The README's promise (she is told) wherever the muted player is: Ann in the
    lobby and Bob on the Tables screen see the mute, its reason and its end at once, and
    its lifting, without having to chat at a table first."""
    async with table_server(tmp_path) as server:
        ann, bob = Player(server, "Ann"), Player(server, "Bob")
        await enter_lobby(ann, server)
        await enter_lobby(bob, server)
        await open_tables(bob)
        marks = ann.mark(), bob.mark()
        await admin_ok(server, "mute", target="Ann", reason="spam", **{"for": "1h"})
        await admin_ok(server, "mute", target="Bob", reason="insults")
        await ann.sees("You are muted on this server until", since=marks[0])
        await ann.sees("spam", since=marks[0])
        await bob.sees("You are muted on this server", since=marks[1])
        await bob.sees("insults", since=marks[1])
        marks = ann.mark(), bob.mark()
        await admin_ok(server, "unmute", target="Ann")
        await admin_ok(server, "unmute", target="Bob")
        await ann.sees("You are no longer muted", since=marks[0])
        await bob.sees("You are no longer muted", since=marks[1])
        for player in (ann, bob):
            await player.close()


async def refused(server: RunningServer, key: asyncssh.SSHKey) -> str:
    """The one line a banned client is told as the connection closes."""
    with pytest.raises(asyncssh.DisconnectError) as caught:
        conn = await connect(server, key)
        conn.close()
    return str(caught.value.reason)


async def test_bans_by_key_name_and_address_are_refused_before_any_session(
        tmp_path: Path) -> None:
    mallory, eve, carol = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(3))
    async with serving(tmp_path, command=SLEEPER) as server:
        with open_history(server.config.history) as history:
            history.players.register_player(eve.get_fingerprint("sha256"), "Eve")
        key = mallory.get_fingerprint("sha256")
        playing = await connect(server, mallory)  # on when the ban comes: kicked with it
        session = await playing.create_process(term_type="xterm", encoding=None)
        await wait_until(lambda: server.session_count == 1, what="the session")
        await admin_ok(server, "ban", target=key, reason="cheating")
        told = await asyncio.wait_for(session.stderr.read(), 10)
        assert b"ended this session: You are banned from this server for good: cheating" \
            in told
        await asyncio.wait_for(playing.wait_closed(), 10)
        line = await refused(server, mallory)
        assert line.startswith("trash: You are banned from this server for good: cheating")
        await admin_ok(server, "ban", target="eve", reason="flooding", **{"for": "2s"})
        assert "until" in await refused(server, eve)
        (await connect(server, carol)).close()  # others come in
        bans = (await admin_ok(server, "bans"))["data"]
        assert {b["target"] for b in bans} == {key, eve.get_fingerprint("sha256")}
        await asyncio.sleep(2.1)  # Eve's ban ends by itself
        (await connect(server, eve)).close()
        await admin_ok(server, "ban", target="127.0.0.0/8", reason="a flood")
        for someone in (carol, asyncssh.generate_private_key("ssh-ed25519")):
            # closed as it is made, before the key exchange (test_ssh_early_ban)
            with pytest.raises((ConnectionError, asyncssh.Error)):
                (await connect(server, someone)).close()
        await admin_ok(server, "unban", target="127.0.0.0/8")
        (await connect(server, carol)).close()
        stats = (await admin_ok(server, "stats"))["data"]
        assert stats["sessions_started"] == 1 and server.session_count == 0  # no other app
        assert stats["kicks"] == 1
        assert stats["refused"]["banned"] == 4 and stats["bans_in_force"] == 1
    lines = [json.loads(line) for line in (tmp_path / "ssh.log").read_text().splitlines()]
    assert sum(1 for line in lines if line.get("ended") == "refused: banned") == 4
    async with serving(tmp_path) as server:  # a restart keeps the ban in force
        assert "cheating" in await refused(server, mallory)
        (await connect(server, eve)).close()
        assert not (await admin(server, "unban", target="eve"))["ok"]  # (it ended)
        await admin_ok(server, "unban", target=key)
        (await connect(server, mallory)).close()
