"""Rated play at shared tables cannot be gamed (issue 29): a player not back at the table
when the match ends has left it — esc or a dropped connection alike, coming back by any
route undoes it —, several leavers tie for last place in the rating and in the
statistics alike, and a shared match still in play cannot leave a player's history (it
would leave the match unrated for everyone)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import pytest
from players_helpers import finish, fixed_anchors
from table_helpers import FAST, TableClient, name_player, play_out, running_service
from textual.app import App

from trash_tui.app.screens.history import HistoryScreen
from trash_tui.games import TRASH
from trash_tui.history import PLAYING, SHARED_OWNER, History, MatchInPlay
from trash_tui.players.model import final_places
from trash_tui.players.rater import open_history
from trash_tui.players.stats import player_stats
from trash_tui.rules import Rules

TABLE = {"name": "Rated", "preset": "standard", "seats": ["human", "human", "normal"],
         "public": True, "clock": 0, "rules": Rules(start_size=3).to_dict()}


@pytest.fixture(autouse=True)
def _anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_anchors(monkeypatch)


def rated(history: History, match_id: int) -> list[dict]:
    row = history.db.execute("SELECT seats FROM rated_matches WHERE match_id = ?",
                             (match_id,)).fetchone()
    assert row is not None, "the match was not rated"
    return json.loads(row[0])


async def seated_pair(service: object) -> tuple[TableClient, TableClient, dict]:
    ann = await TableClient.connect(service, "key:ann")
    bob = await TableClient.connect(service, "key:bob")
    await ann.send({"op": "create", "config": TABLE})
    created = await ann.wait_for("created")
    await bob.send({"op": "join", "code": created["code"]})
    await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
    return ann, bob, created


async def test_a_player_whose_connection_dropped_and_who_is_not_back_is_last(
        tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        ann, bob, _ = await seated_pair(service)
        await ann.close()  # dropped, not esc
        await bob.wait_for("notice", lambda m: "lost the connection" in m["text"])
        await play_out([bob])
        await asyncio.sleep(0.1)
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.of_player("key:ann")
        seats = rated(history, row.id)
        assert seats[0] == {"rank": 3, "player": "key:ann"}
        stats = player_stats(history, "key:ann", TRASH, "Ann")
        assert stats.mean_place == 3.0 and stats.overall.wins == 0


async def test_a_player_who_reconnects_to_the_seat_is_not_a_leaver(tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann, bob, created = await seated_pair(service)
        await bob.close()
        await ann.wait_for("notice", lambda m: "lost the connection" in m["text"])
        bob = await TableClient.connect(service, "key:bob")
        await bob.send({"op": "join", "table": created["table"]})  # a new session
        await bob.wait_for("update", lambda m: m["reset"])
        last = await play_out([ann, bob])
        places = last["state"]["result"]["places"]
        await asyncio.sleep(0.1)
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.of_player("key:bob")
        assert rated(history, row.id)[1] == {"rank": places[1], "player": "key:bob"}


async def test_after_a_server_restart_the_table_holds_still_until_its_players_are_back(
        tmp_path: Path) -> None:
    """A restart makes nobody a leaver: the stand-in plays for no seat whose player is not
    back since the restart (the table waits at their turn); once both are back, the match
    goes on and ends with their own places."""
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        await seated_pair(service)
    async with running_service(tmp_path) as service:
        [table] = service.tables.values()
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "join", "table": table.id})
        await ann.wait_for("update", lambda m: m["reset"])
        told = await ann.wait_for("notice", lambda m: "back at your seat" in m["text"])
        assert "waits up to 10 minutes" in told["text"] and "Bob" in told["text"]
        for _ in range(1000):  # Ann plays her turns; the table stops at Bob's
            if table.controller.to_move == 1 or table.controller.over:
                break
            await ann.drain(0.01)
            legal = ann.my_turn()
            if legal:
                await ann.send({"op": "act", "action": min(legal),
                                "at": ann.last_update()["actions"]})
        assert table.controller.to_move == 1 and not table.controller.over
        before = len(table.controller.actions)
        await asyncio.sleep(0.5)
        assert len(table.controller.actions) == before  # no stand-in moved for Bob
        bob = await TableClient.connect(service, "key:bob")
        await bob.send({"op": "join", "table": table.id})
        await bob.wait_for("update", lambda m: m["reset"])
        last = await play_out([ann, bob])
        places = last["state"]["result"]["places"]
        await asyncio.sleep(0.1)
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.of_player("key:bob")
        assert rated(history, row.id)[1] == {"rank": places[1], "player": "key:bob"}


async def test_a_player_not_back_when_the_restarted_table_stops_waiting_is_a_leaver(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        await seated_pair(service)
    limits = replace(FAST, empty_timeout=1.0)  # the table waits this long for its players
    async with running_service(tmp_path, limits) as service:
        [table] = service.tables.values()
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "join", "table": table.id})
        await play_out([ann])
        await asyncio.sleep(0.1)
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.of_player("key:bob")
        seats = rated(history, row.id)
        assert seats[1] == {"rank": 3, "player": "key:bob"}
        assert seats[0]["rank"] in (1, 2)


async def test_a_restarted_table_waits_only_for_those_who_were_at_it_when_it_stopped(
        tmp_path: Path) -> None:
    """Bob had left with esc and Gus is a guest (a new identity at every connection: he
    cannot come back to his seat): after a restart the table waits for neither, so Ann,
    back at once, plays the match out with the stand-in playing for both of them (it
    waited 10 minutes at Bob's turn, then at Gus's)."""
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    name_player(tmp_path, "guest:0123456789abcdef", "Gus")
    config = {**TABLE, "seats": ["human", "human", "human", "normal"]}
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        gus = await TableClient.connect(service, "guest:0123456789abcdef")
        await ann.send({"op": "create", "config": config})
        created = await ann.wait_for("created")
        for friend in (bob, gus):
            await friend.send({"op": "join", "code": created["code"]})
        await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        await bob.send({"op": "leave"})
        await ann.wait_for("notice", lambda m: "Bob left" in m["text"])
    async with running_service(tmp_path) as service:
        [table] = service.tables.values()
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "join", "table": table.id})
        told = await ann.wait_for("notice", lambda m: "back at your seat" in m["text"])
        assert "waits" not in told["text"], told["text"]
        last = await play_out([ann], timeout=30.0)
        assert last["table"]["status"] == "finished"
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.of_player("key:bob")
        finished = history.matches.finished_match(row.id)
        assert finished is not None  # the two who were away at the end left it
        assert finished.leavers == {"key:bob", "guest:0123456789abcdef"}


def test_several_leavers_tie_for_last_place_in_the_rating_and_the_statistics(
        tmp_path: Path) -> None:
    assert final_places([1, 2, 3, 4], {0, 3}) == [3, 1, 2, 3]
    assert final_places([2, 1, 3, 4], set()) == [2, 1, 3, 4]
    people = ["ann", "bob", "cat", "dan"]
    with open_history(tmp_path / "h.sqlite3") as history:
        # the stand-ins did best for the two who left: they still tie, last
        match_id = finish(history, SHARED_OWNER, ["human"] * 4, [1, 4, 2, 3],
                          players=list(enumerate(people)), leavers=["ann", "cat"])
        ranks = {seat["player"]: seat["rank"] for seat in rated(history, match_id)}
        assert ranks == {"ann": 3, "cat": 3, "bob": 2, "dan": 1}
        for identity in people:
            stats = player_stats(history, identity, TRASH, identity)
            assert stats.mean_place == ranks[identity]  # the same places, one rule
            assert stats.overall.wins == (ranks[identity] == 1)
        before = {p: history.players.rating(p, TRASH) for p in people}
        assert history.rebuild_ratings() == 1
        assert {p: history.players.rating(p, TRASH) for p in people} == before


def test_a_shared_match_in_play_cannot_be_deleted_from_a_history(tmp_path: Path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        match_id = history.matches.start_match(SHARED_OWNER, {}, ["human", "human"], ["a", "b"], 3)
        history.matches.add_match_players(match_id, [(0, "ann"), (1, "bob")])
        with pytest.raises(MatchInPlay, match="still being played") as refused:
            history.matches.remove_from_history(match_id, "ann")
        assert "\n" not in str(refused.value)
        history.matches.finish_match(match_id, "a", 2, {"places": [1, 2], "abandoned": False}, {})
        assert [s["player"] for s in rated(history, match_id)] == ["ann", "bob"]  # rated
        history.matches.remove_from_history(match_id, "ann")  # over: it may go now
        assert history.matches.of_player("ann") == [] and len(history.matches.of_player("bob")) == 1
        assert history.players.rating("ann", TRASH) is not None


class _HistoryApp(App[None]):
    def __init__(self, history: History) -> None:
        super().__init__()
        self.history = history

    def on_mount(self) -> None:
        self.push_screen(HistoryScreen(self.history, "ann"))


async def test_the_history_screen_says_why_a_shared_match_in_play_is_not_deleted(
        tmp_path: Path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        match_id = history.matches.start_match(SHARED_OWNER, {}, ["human", "human"], ["a", "b"], 3)
        history.matches.add_match_players(match_id, [(0, "ann"), (1, "bob")])
        app = _HistoryApp(history)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            for _ in range(2):
                await pilot.press("delete")
                await pilot.pause()
            detail = str(app.screen.query_one("#history-detail").render())
            assert "still being played" in detail and "once it is over" in detail
            assert app.screen.query_one("DataTable").row_count == 1
        assert [row.status for row in history.matches.of_player("ann")] == [PLAYING]
