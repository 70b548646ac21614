"""The operator's word on tables and players holds (issue 37): a table the operator
closed stays closed (its host's ``o`` is refused, and the host is told why), a player who
chatted and left can still be reported, and ``ban NAME`` never hits a stranger who took
the same name.

Through the real console (``trash admin``'s requests, ``admin_helpers``) and the real app
over SSH; the service's side with protocol clients.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import asyncssh
import pytest
from admin_helpers import admin, admin_ok, seat_two
from ssh_helpers import connect
from table_helpers import TableClient, ann_hosts, name_player, running_service
from table_ssh_helpers import open_tables, table_server, wait_until

from trash_tui.players.rater import open_history


async def test_a_table_the_operator_closed_stays_closed_and_its_host_is_told(
        tmp_path: Path) -> None:
    async with table_server(tmp_path) as server:
        ann, bob, table = await seat_two(server)
        mark = ann.mark()
        await admin_ok(server, "close", code=table.code, reason="abuse at this table")
        await ann.sees("abuse at this table", since=mark)
        await wait_until(lambda: table.id not in server.state.tables.tables)
        await ann.press("\x1b", pause=0.5)  # from the closed board back to the Tables
        await open_tables(ann)
        mark = ann.mark()
        await ann.press("o", pause=0.5)
        await ann.sees("stays closed", since=mark)
        await asyncio.sleep(1.0)
        assert table.id not in server.state.tables.tables
        assert not any(t.code == table.code for t in server.state.tables.tables.values())
        for player in (ann, bob):
            await player.close()
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.shared_tables(["closed"])
    assert row["config"]["closed"] == "abuse at this table"


async def test_the_service_refuses_to_reopen_an_operator_closed_table_and_says_so(
        tmp_path: Path) -> None:
    for identity, name in (("key:ann", "Ann"), ("key:bob", "Bob")):
        name_player(tmp_path, identity, name)
    async with running_service(tmp_path) as service:
        ann, created = await ann_hosts(service)
        bob = await TableClient.connect(service, "key:bob")
        await bob.send({"op": "join", "table": created["table"]})
        await bob.wait_for("update", lambda m: m["table"]["status"] == "playing")
        assert await service.close_by_code(created["code"].lower(), "cheating")
        await ann.wait_for("closed")
        await ann.send({"op": "list"})
        [closed] = (await ann.wait_for("tables"))["closed"]
        assert closed["operator"] is True
        await ann.send({"op": "reopen", "table": closed["id"]})
        refused = (await ann.wait_for("error"))["message"]
        assert refused == ("the server's operator closed that table (cheating): it stays "
                           "closed")
        assert not service.tables
        await ann.send({"op": "mine"})
        [told] = (await ann.wait_for("mine"))["closed"]
        assert told["operator"] is True and told["yours"] is True
        for client in (ann, bob):
            await client.close()


async def test_a_player_who_chatted_and_left_can_still_be_reported(tmp_path: Path) -> None:
    for identity, name in (("key:ann", "Ann"), ("key:bob", "Bob"), ("key:hit", "Hit"),
                           ("key:sly", "Sly")):
        name_player(tmp_path, identity, name)
    async with running_service(tmp_path) as service:
        ann, created = await ann_hosts(service, seats=["human", "human", "human"])
        hit = await TableClient.connect(service, "key:hit")
        await hit.send({"op": "watch", "table": created["table"]})
        await hit.wait_for("update")
        await hit.send({"op": "chat", "text": "you are all idiots"})
        await ann.wait_for("chat")
        await hit.send({"op": "leave"})
        sly = await TableClient.connect(service, "key:sly")  # sat, said nothing, stood up
        await sly.send({"op": "join", "table": created["table"]})
        await sly.wait_for("update")
        await sly.send({"op": "leave"})
        await sly.wait_for("left")
        await wait_until(lambda: not service.tables[created["table"]].spectators)
        for name, key in (("Hit", "key:hit"), ("sly", "key:sly")):
            await ann.send({"op": "report", "name": name, "reason": "abuse"})
            told = await ann.wait_for("notice", lambda m: "report" in m["text"])
            assert told["text"] == f"Your report about {name} went to the server's operator."
            with open_history(tmp_path / "history.sqlite3") as history:
                row, *_ = history.records.reports()  # newest first
            assert (row["reported"], row["reason"]) == (key, "abuse")
        await ann.send({"op": "report", "name": "Bob"})  # never at this table
        assert "nobody at this table" in (await ann.wait_for("error"))["message"]
        for client in (ann, hit, sly):
            await client.close()
    assert [line["text"] for line in row["chat"]] == ["you are all idiots"]


async def test_ban_by_a_name_two_players_took_is_refused_with_their_keys(
        tmp_path: Path) -> None:
    async with table_server(tmp_path) as server:
        with open_history(server.config.history) as history:
            for key in ("SHA256:samOne", "SHA256:samTwo"):
                history.players.register_player(key, "Sam")
            history.players.register_player("SHA256:solo", "Solo")
        reply = await admin(server, "ban", target="sam", reason="spam")
        assert not reply["ok"]
        assert reply["error"] == ("2 players are called 'sam': ban one by its key "
                                  "(SHA256:samOne, SHA256:samTwo)")
        assert "\n" not in reply["error"]
        assert (await admin_ok(server, "bans"))["data"] == []
        banned = (await admin_ok(server, "ban", target="SHA256:samTwo"))["data"]
        assert [row["target"] for row in banned] == ["SHA256:samTwo"]
        banned = (await admin_ok(server, "ban", target="solo"))["data"]
        assert [row["target"] for row in banned] == ["SHA256:solo"]
        mute = await admin(server, "mute", target="Sam")
        assert not mute["ok"] and "2 players are called 'Sam'" in mute["error"]

        mallory = asyncssh.generate_private_key("ssh-ed25519")
        key = mallory.get_fingerprint("sha256")
        await admin_ok(server, "ban", target=key, reason="cheating")
        with pytest.raises(asyncssh.DisconnectError):
            (await connect(server, mallory)).close()
    lines = [json.loads(line) for line in (tmp_path / "ssh.log").read_text().splitlines()]
    [refused] = [line for line in lines if line.get("ended") == "refused: banned"]
    assert refused["player"] == key  # which key came back, for the operator
