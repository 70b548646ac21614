"""The table service (issue 13): shared tables where humans sit down with bots, watch,
chat, run out of time, drop and come back, and find their tables after a restart.

The clients here speak the service's protocol directly, as a session's app does; the
SSH tests (test_tables_ssh.py) drive the same through the real app.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from table_helpers import FAST, TableClient, name_player, play_out, running_service

from trash_tui.cards import card_id
from trash_tui.engine.record import replay
from trash_tui.history import FINISHED
from trash_tui.players.rater import open_history
from trash_tui.tables.service import TableLimits

TWO_AND_A_BOT = {"name": "Friday game", "preset": "standard",
                 "seats": ["human", "human", "normal"], "public": True, "clock": 0}


async def create(client: TableClient, **changes: object) -> dict:
    await client.send({"op": "create", "config": {**TWO_AND_A_BOT, **changes}})
    return await client.wait_for("created")


async def test_two_humans_and_a_bot_play_a_whole_match_saved_in_both_histories(
        tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        created = await create(ann)
        await bob.send({"op": "join", "code": created["code"].lower()})
        update = await bob.wait_for("update", lambda m: m["table"]["status"] == "playing")
        assert update["names"][:2] == ["Ann", "Bob"] and update["seat"] == 1
        last = await play_out([ann, bob])
        assert last["state"]["result"] is not None
    with open_history(tmp_path / "history.sqlite3") as history:
        [ann_row] = history.matches.of_player("key:ann")
        [bob_row] = history.matches.of_player("key:bob")
        assert ann_row.id == bob_row.id and ann_row.status == FINISHED and ann_row.shared
        assert ann_row.names[:2] == ["Ann", "Bob"]
        assert history.matches.of_player("key:ann", shared=False) == []
        record = history.matches.get_match(ann_row.id).record
        assert replay(record).over
        assert record["context"]["shared_table"] == created["code"]
        assert record["context"]["players"] == {"0": {"name": "Ann", "key": "key:ann"},
                                                "1": {"name": "Bob", "key": "key:bob"}}


async def test_four_humans_at_one_table(tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        clients = [await TableClient.connect(service, f"key:{n}") for n in range(4)]
        created = await create(clients[0], seats=["human"] * 4)
        for client in clients[1:]:
            await client.send({"op": "join", "code": created["code"]})
        last = await play_out(clients)
        assert len(last["names"]) == 4


async def test_the_host_starts_and_open_seats_go_to_the_stand_in(tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await create(ann, seats=["human", "human", "human"], stand_in="easy")
        await ann.send({"op": "start"})
        update = await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        assert [s["kind"] for s in update["table"]["seats"]] == ["human", "bot", "bot"]
        assert update["table"]["seats"][1]["level"] == "easy"


async def test_join_refusals_and_private_tables(tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        created = await create(ann, public=False, seats=["human", "human"])
        await bob.send({"op": "list"})
        listing = await bob.wait_for("tables")
        assert listing["tables"] == []  # a private table is not listed
        await bob.send({"op": "join", "table": created["table"]})
        assert "private table needs its code" in (await bob.wait_for("error"))["message"]
        await bob.send({"op": "join", "code": "ZZZZ"})
        assert "no open table has the code" in (await bob.wait_for("error"))["message"]
        await bob.send({"op": "join", "code": created["code"]})
        await bob.wait_for("update", lambda m: m["table"]["status"] == "playing")
        carl = await TableClient.connect(service, "key:carl")
        await carl.send({"op": "join", "code": created["code"]})
        assert "the match has started" in (await carl.wait_for("error"))["message"]


async def test_illegal_and_out_of_turn_actions_are_refused_with_a_message(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        created = await create(ann, seats=["human", "human"])
        await bob.send({"op": "join", "code": created["code"]})
        update = await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        to_move = update["observation"]["to_move"]
        mover, other = (ann, bob) if to_move == 0 else (bob, ann)
        await other.send({"op": "act", "action": 1})
        assert (await other.wait_for("error"))["message"] == "it is not your turn"
        await mover.send({"op": "act", "action": 999})
        assert (await mover.wait_for("error"))["message"] == "that move is not allowed now"
        await mover.send({"op": "act", "action": "draw"})
        assert "an action is a number" in (await mover.wait_for("error"))["message"]
        await mover.send({"op": "teleport"})
        assert "no such request" in (await mover.wait_for("error"))["message"]
        mover.writer.write(b"{not json\n")
        assert "not JSON" in (await mover.wait_for("error"))["message"]
        await mover.drain()
        await mover.send({"op": "act", "action": mover.my_turn()[0]})
        await other.wait_for("update", lambda m: m["actions"] >= 1)


async def test_a_session_without_a_valid_token_is_turned_away(tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        reader, writer = await asyncio.open_unix_connection(str(service.socket_path))
        writer.write(b'{"op": "create", "config": {}}\n')
        assert b"say hello first" in await reader.readline()
        writer.write(b'{"op": "hello", "token": "forged"}\n')
        assert b"not a session of this server" in await reader.readline()
        assert await reader.readline() == b""


async def test_the_turn_clock_hands_the_turn_to_the_stand_in_and_a_key_takes_it_back(
        tmp_path: Path) -> None:
    limits = TableLimits(bot_delay=0.0, deal_pause=0.0)
    async with running_service(tmp_path, limits) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        created = await create(ann, seats=["human", "human"], clock=5)
        await bob.send({"op": "join", "code": created["code"]})
        update = await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        assert update["clock"]["total"] == 5 and update["clock"]["left"] > 4
        sleeper = update["observation"]["to_move"]
        service_table = next(iter(service.tables.values()))
        service_table.deadline = None
        # the clock runs out now rather than in five seconds
        await service.pacer.clock_out(service_table)
        notice = await ann.wait_for("notice", lambda m: "ran out of time" in m["text"])
        assert "stand-in" in notice["text"]
        assert service_table.seats[sleeper].away
        summary = await ann.wait_for("update", lambda m: any(
            s.get("state") == "away" for s in m["table"]["seats"]))
        assert summary["actions"] >= 1
        sleeping = ann if sleeper == 0 else bob
        await sleeping.send({"op": "back"})
        await ann.wait_for("notice", lambda m: "back" in m["text"])
        assert not service_table.seats[sleeper].away


async def test_a_dropped_player_is_stood_in_for_and_finds_the_seat_again(
        tmp_path: Path) -> None:
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        created = await create(ann, seats=["human", "human"])
        await bob.send({"op": "join", "code": created["code"]})
        await bob.wait_for("update", lambda m: m["table"]["status"] == "playing")
        await bob.close()  # the connection drops
        await ann.wait_for("notice", lambda m: "Bob lost the connection" in m["text"])
        # the stand-in plays Bob's turns meanwhile: Ann can go on alone
        for _ in range(6):
            await ann.drain(0.05)
            legal = ann.my_turn()
            if legal:
                await ann.send({"op": "act", "action": legal[0]})
        before = ann.last_update()["actions"]
        bob = await TableClient.connect(service, "key:bob")
        welcome = bob.messages[-1]
        assert welcome["waiting"]["code"] == created["code"]
        await bob.send({"op": "join", "table": welcome["waiting"]["id"]})
        update = await bob.wait_for("update", lambda m: m["reset"])
        assert update["seat"] == 1 and update["actions"] >= before
        assert not service.tables[welcome["waiting"]["id"]].seats[1].away


async def test_spectators_see_the_match_and_can_chat_with_limits(tmp_path: Path) -> None:
    limits = TableLimits(bot_delay=0.0, deal_pause=0.0, spectators_per_table=1,
                         chat_per_minute=2)
    async with running_service(tmp_path, limits) as service:
        ann = await TableClient.connect(service, "key:ann")
        created = await create(ann, seats=["human", "normal"])
        eve = await TableClient.connect(service, "key:eve")
        await eve.send({"op": "watch", "table": created["table"]})
        update = await eve.wait_for("update")
        assert update["seat"] is None and update["observation"]["legal"] == []
        zed = await TableClient.connect(service, "key:zed")
        await zed.send({"op": "watch", "code": created["code"]})
        assert "as many spectators" in (await zed.wait_for("error"))["message"]
        await eve.send({"op": "chat", "text": "hi\x1b[2J there\n" + "x" * 500})
        line = await ann.wait_for("chat")
        assert line["watching"] and "\x1b" not in line["text"] and len(line["text"]) <= 200
        await eve.send({"op": "chat", "text": "two"})
        await eve.send({"op": "chat", "text": "three"})
        assert "chat lines a minute" in (await eve.wait_for("error"))["message"]


async def test_a_restarted_service_restores_the_table_and_the_player_continues(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        created = await create(ann, seats=["human", "human", "easy"])
        await bob.send({"op": "join", "code": created["code"]})
        for _ in range(30):
            for client in (ann, bob):
                await client.drain(0.02)
                legal = client.my_turn()
                if legal:
                    await client.send({"op": "act", "action": legal[0]})
        await ann.drain(0.2)
        before = ann.last_update()
        assert before["actions"] >= 5
    async with running_service(tmp_path) as service:
        [table] = service.tables.values()
        assert table.code == created["code"] and table.status == "playing"
        assert len(table.controller.actions) >= before["actions"]
        ann = await TableClient.connect(service, "key:ann")
        assert ann.messages[-1]["waiting"]["id"] == table.id
        await ann.send({"op": "join", "table": table.id})
        update = await ann.wait_for("update", lambda m: m["reset"])
        assert update["seat"] == 0 and update["actions"] >= before["actions"]


async def test_an_empty_table_is_saved_and_closed_and_its_host_reopens_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trash_tui.tables import service as service_module

    monkeypatch.setattr(service_module, "JANITOR_EVERY", 0.05)
    limits = TableLimits(bot_delay=0.0, deal_pause=0.0, empty_timeout=0.2)
    async with running_service(tmp_path, limits) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        created = await create(ann, seats=["human", "human"])
        await bob.send({"op": "join", "code": created["code"]})
        await bob.wait_for("update", lambda m: m["table"]["status"] == "playing")
        await ann.send({"op": "leave"})
        await bob.send({"op": "leave"})
        for _ in range(100):
            if not service.tables:
                break
            await asyncio.sleep(0.05)
        assert not service.tables
        await ann.send({"op": "list"})
        listing = await ann.wait_for("tables")
        [closed] = listing["closed"]
        await ann.send({"op": "reopen", "table": closed["id"]})
        update = await ann.wait_for("update", lambda m: m["reset"])
        assert update["table"]["status"] == "playing" and update["seat"] == 0


async def test_table_limits_per_player_and_server(tmp_path: Path) -> None:
    limits = TableLimits(bot_delay=0.0, deal_pause=0.0, max_tables=3, tables_per_player=1)
    async with running_service(tmp_path, limits) as service:
        ann = await TableClient.connect(service, "key:ann")
        await create(ann, seats=["human", "human"])
        await ann.send({"op": "create", "config": {**TWO_AND_A_BOT}})
        assert "you host 1 open tables already" in (await ann.wait_for("error"))["message"]
        for n in range(2):
            other = await TableClient.connect(service, f"key:{n}")
            await create(other, seats=["human", "human"])
        last = await TableClient.connect(service, "key:last")
        await last.send({"op": "create", "config": {**TWO_AND_A_BOT}})
        assert "as many tables as it can hold" in (await last.wait_for("error"))["message"]
        await last.send({"op": "create", "config": {**TWO_AND_A_BOT, "seats": ["./cmd"]}})
        await last.drain()


async def test_names_are_unique_at_a_table_and_cleaned(tmp_path: Path) -> None:
    name_player(tmp_path, "key:a", "Sam")
    name_player(tmp_path, "key:b", "Sam")
    async with running_service(tmp_path) as service:
        a = await TableClient.connect(service, "key:a")
        b = await TableClient.connect(service, "key:b")
        created = await create(a, seats=["human", "human"], name="\x1b]0;owned\x07Night")
        await b.send({"op": "join", "code": created["code"]})
        update = await b.wait_for("update", lambda m: m["table"]["status"] == "playing")
        assert update["names"] == ["Sam", "Sam (2)"]
        assert update["table"]["name"] == "]0;ownedNight"


async def test_no_byte_a_player_or_spectator_gets_holds_a_face_down_card(
        tmp_path: Path) -> None:
    """Plant known cards: the engine's face-down cards of the deal are known here; no byte
    sent to either player or to a spectator names one of them, nor the seed or the deck."""
    async with running_service(tmp_path, FAST) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        eve = await TableClient.connect(service, "key:eve")
        created = await create(ann, seats=["human", "human"])
        await bob.send({"op": "join", "code": created["code"]})
        await eve.send({"op": "watch", "code": created["code"]})
        await bob.wait_for("update", lambda m: m["table"]["status"] == "playing")
        table = next(iter(service.tables.values()))
        match = table.controller.match
        deal = match.deal
        hidden = {card_id(deal.down[seat][slot]) for seat in range(2)
                  for slot in range(1, len(deal.down[seat])) if not deal.up[seat][slot]}
        assert len(hidden) >= 10  # the planted cards: every face-down card of the deal
        for client in (ann, bob, eve):
            await client.drain(0.1)
            updates = [m for m in client.messages if m["op"] == "update" and
                       "observation" in m]
            assert updates
            for message in updates:
                observation = message["observation"]
                shown = {c for layout in observation["layouts"] for c in layout if c}
                shown |= set(observation["discard"]) | {observation["hand"]}
                assert not hidden & shown
                for seat, layout in enumerate(observation["layouts"]):
                    assert layout.count(None) == deal.face_down[seat]
                assert str(table.controller.seed) not in json.dumps(message)
                assert "deck" not in json.dumps(message["state"])
