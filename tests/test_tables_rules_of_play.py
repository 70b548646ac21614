"""What players and spectators see at a shared table (issue 29): the table plays on while
anyone is at it and waits when nobody is, a failing table is retried and then closed with
one line, a session replaced by another one is told it left, a player back after a drop
is announced, late arrivals read the chat, the ratings a match moved are told, two tables
never share a name, ``mine`` lists the seats a player holds, the welcome says where the
server is reached.

The clients speak the service's protocol directly, as a session's app does.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from players_helpers import fixed_anchors
from table_helpers import FAST, TableClient, name_player, play_out, running_service

from trash_tui.players.identity import default_name
from trash_tui.players.rater import open_history
from trash_tui.players.rating import display
from trash_tui.rules import Rules
from trash_tui.tables.service import TableLimits, TableService

ONE_AND_A_BOT = {"name": "Solo", "preset": "standard", "seats": ["human", "normal"],
                 "public": True, "clock": 0}
TWO = {**ONE_AND_A_BOT, "name": "Pair", "seats": ["human", "human"]}


async def create(client: TableClient, **changes: object) -> dict[str, Any]:
    await client.send({"op": "create", "config": {**ONE_AND_A_BOT, **changes}})
    return await client.wait_for("created")


async def actions_now(service: TableService, table_id: int) -> int:
    await asyncio.sleep(0)
    return len(service.tables[table_id].controller.actions)


async def eventually(check: Any, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("it never happened")


# --- the table plays on while anyone is at it -------------------------------------------

async def test_a_spectator_watches_the_stand_in_play_for_a_dropped_player(
        tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        created = await create(ann)
        await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        eve = await TableClient.connect(service, "key:eve")
        await eve.send({"op": "watch", "code": created["code"]})
        await eve.wait_for("update", lambda m: m["reset"])
        await ann.close()  # Ann's connection drops: only Eve is at the table
        await eve.wait_for("notice", lambda m: "Ann lost the connection" in m["text"])
        before = await actions_now(service, created["table"])
        # the stand-in and the bot play on for Eve to watch, as the notice says
        await eve.wait_for("update", lambda m: m.get("actions", 0) >= before + 4)
        assert service.tables[created["table"]].empty_since is None


async def test_a_table_nobody_is_at_waits_from_when_the_last_spectator_left(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        created = await create(ann)
        eve = await TableClient.connect(service, "key:eve")
        await eve.send({"op": "watch", "code": created["code"]})
        await eve.wait_for("update", lambda m: m["reset"])
        await ann.send({"op": "leave"})
        await ann.wait_for("left")
        table = service.tables[created["table"]]
        assert table.empty_since is None  # Eve is still there
        await eve.send({"op": "leave"})
        await eve.wait_for("left")
        await eventually(lambda: table.empty_since is not None)
        await asyncio.sleep(0.1)  # (a step under way when Eve left ends)
        stopped = await actions_now(service, table.id)
        await asyncio.sleep(0.3)
        assert len(table.controller.actions) == stopped  # nobody there: it waits
        assert not service.pacer.pending(table)


# --- a failing table ----------------------------------------------------------------------

async def test_a_step_that_fails_is_tried_again_and_the_match_goes_on(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        failures = [2]
        real = service.pacer.bot_step

        async def flaky(table: Any) -> bool:
            if failures[0] > 0:
                failures[0] -= 1
                raise RuntimeError("the disk hiccuped")
            return await real(table)  # (True: it moved, and everyone is shown)

        service.pacer.bot_step = flaky  # type: ignore[method-assign]
        ann = await TableClient.connect(service, "key:ann")
        created = await create(ann)
        last = await play_out([ann])
        assert last["state"]["result"] is not None and failures[0] == 0
        assert service.tables[created["table"]].failures == 0


async def test_a_table_that_keeps_failing_is_saved_and_closed_with_one_line(
        tmp_path: Path) -> None:
    reports: list[str] = []
    service = TableService(tmp_path / "history.sqlite3", FAST,
                           report=lambda message, detail="": reports.append(message))
    await service.start()
    try:
        async def broken(table: Any) -> None:
            raise RuntimeError("the bot is broken")

        ann = await TableClient.connect(service, "key:ann")
        created = await create(ann, seats=["human", "normal", "normal"])
        await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        await ann.send({"op": "leave"})  # nobody is there: the table waits
        await ann.wait_for("left")
        service.pacer.bot_step = broken  # type: ignore[method-assign]
        service.pacer.stand_in_step = broken  # type: ignore[method-assign]
        eve = await TableClient.connect(service, "key:eve")  # whoever is to move fails
        await eve.send({"op": "watch", "code": created["code"]})
        closed = await eve.wait_for("closed")
        assert "error" in closed["why"] and "reopen" in closed["why"]
        assert "\n" not in closed["why"]
        assert created["table"] not in service.tables
        assert sum("failed" in line for line in reports) == 3
        await ann.send({"op": "list"})
        listing = await ann.wait_for("tables")
        assert [t["id"] for t in listing["closed"]] == [created["table"]]  # reopenable
    finally:
        await service.stop()


# --- sessions told what they no longer get ------------------------------------------------

async def test_a_session_replaced_by_another_session_at_the_seat_is_told_it_left(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        first = await TableClient.connect(service, "key:ann")
        created = await create(first)
        await first.wait_for("update", lambda m: m["table"]["status"] == "playing")
        second = await TableClient.connect(service, "key:ann")
        await second.send({"op": "join", "table": created["table"]})
        await second.wait_for("update", lambda m: m["reset"])
        left = await first.wait_for("left")
        assert "another session" in left["why"] and "\n" not in left["why"]
        await first.drain(0.1)
        await second.drain(0.1)
        assert first.messages[-1] is left or all(
            m["op"] != "update" for m in first.messages[first.messages.index(left):])


async def test_a_player_back_after_a_drop_is_announced_to_the_table(tmp_path: Path) -> None:
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        created = await create(ann, **TWO)
        await bob.send({"op": "join", "code": created["code"]})
        await bob.wait_for("update", lambda m: m["table"]["status"] == "playing")
        await bob.close()
        await ann.wait_for("notice", lambda m: "Bob lost the connection" in m["text"])
        bob = await TableClient.connect(service, "key:bob")
        await bob.send({"op": "join", "table": created["table"]})  # not 'back': a new session
        notice = await ann.wait_for("notice", lambda m: "Bob" in m["text"])
        assert notice["text"] == "Bob is back."


# --- what a late arrival and the end of a match tell ------------------------------------

async def test_a_spectator_and_a_returning_player_read_the_last_chat_lines(
        tmp_path: Path) -> None:
    limits = TableLimits(bot_delay=0.0, deal_pause=0.0, chat_per_minute=100)
    async with running_service(tmp_path, limits) as service:
        ann = await TableClient.connect(service, "key:ann")
        created = await create(ann, clock=0, seats=["human", "human", "normal"])
        for number in range(25):
            await ann.send({"op": "chat", "text": f"line {number}\x1b[2J"})
        await ann.wait_for("chat", lambda m: m["text"].startswith("line 24"))
        eve = await TableClient.connect(service, "key:eve")
        await eve.send({"op": "watch", "code": created["code"]})
        await eve.wait_for("update", lambda m: m["reset"])
        earlier = [await eve.wait_for("chat") for _ in range(20)]
        assert [m["text"] for m in earlier] == [f"line {n}[2J" for n in range(5, 25)]
        # (Ann registered no name: the service tells her apart by her key, never "You")
        assert all(m["earlier"] and m["from"] == default_name("key:ann") for m in earlier)
        first = eve.messages.index(earlier[0])
        assert eve.messages[first - 1]["op"] == "update"  # right after the reset update
        await eve.send({"op": "chat", "text": "hello"})
        live = await ann.wait_for("chat", lambda m: m["text"] == "hello")
        assert "earlier" not in live


async def test_the_end_of_a_rated_match_tells_the_table_the_ratings_it_moved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_anchors(monkeypatch)
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        created = await create(ann, seats=["human", "human", "normal"],
                               rules=Rules(start_size=3).to_dict())
        await bob.send({"op": "join", "code": created["code"]})
        await play_out([ann, bob])
        message = await bob.wait_for("result")
    with open_history(tmp_path / "history.sqlite3") as history:
        expected = []
        for seat, (identity, name) in enumerate((("key:ann", "Ann"), ("key:bob", "Bob"))):
            rating = history.players.rating(identity, "trash")
            assert rating is not None
            expected.append({"seat": seat, "name": name, "before": 1500.0,
                             "after": float(display(rating.rating.mu))})
    assert message["changes"] == expected


async def test_two_open_tables_never_share_a_name(tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await create(ann, seats=["human", "human"], name="Friday")
        bob = await TableClient.connect(service, "key:bob")
        await create(bob, seats=["human", "human"], name="Friday")
        cat = await TableClient.connect(service, "key:cat")
        await create(cat, seats=["human", "human"], name="Friday")
        await cat.send({"op": "list"})
        listing = await cat.wait_for("tables")
        assert sorted(t["name"] for t in listing["tables"]) == [
            "Friday", "Friday (2)", "Friday (3)"]


async def test_mine_lists_the_open_tables_where_the_player_holds_a_seat(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        await bob.send({"op": "mine"})
        assert (await bob.wait_for("mine"))["tables"] == []
        created = await create(ann, **{**TWO, "public": False})
        await bob.send({"op": "join", "code": created["code"]})
        await bob.wait_for("update", lambda m: m["table"]["status"] == "playing")
        await bob.send({"op": "leave"})
        await bob.wait_for("left")
        await create(ann, seats=["human", "human"], name="Waiting")  # Ann's other table
        other = await TableClient.connect(service, "key:bob")  # a session of Bob's
        await other.send({"op": "mine"})
        mine = await other.wait_for("mine")
        assert [(t["id"], t["name"], t["status"]) for t in mine["tables"]] == [
            (created["table"], "Pair", "playing")]
        await ann.send({"op": "mine"})
        assert len((await ann.wait_for("mine"))["tables"]) == 2


async def test_the_welcome_says_where_the_server_is_reached(tmp_path: Path) -> None:
    service = TableService(tmp_path / "history.sqlite3", FAST,
                           public_address=("games.example.org", 2222))
    await service.start()
    try:
        ann = await TableClient.connect(service, "key:ann")
        welcome = ann.messages[-1]
        assert welcome["op"] == "welcome"
        assert welcome["address"] == {"host": "games.example.org", "port": 2222}
    finally:
        await service.stop()


async def test_a_spectator_coming_and_going_leaves_the_movers_clock_alone(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        created = await create(ann, **{**TWO, "clock": 30})
        await bob.send({"op": "join", "code": created["code"]})
        await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        table = service.tables[created["table"]]
        deadline = table.deadline
        assert deadline is not None
        eve = await TableClient.connect(service, "key:eve")
        await eve.send({"op": "watch", "code": created["code"]})
        await eve.wait_for("update", lambda m: m["reset"])
        assert table.deadline == deadline
        await eve.send({"op": "leave"})
        await eve.wait_for("left")
        assert table.deadline == deadline
