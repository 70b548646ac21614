"""What a table says about a finished match is what the history, the statistics and the
rating say (issue 35, items 2, 3 and 6).

The rule (README, "Ratings"; ``trash_tui/standing.py``): a player not at their seat when
the match ends — they pressed esc, their connection dropped, or their turn clock ran out
and they pressed no key since — has left it: last, several such players sharing the last
place, and never the winner, whatever their stand-in did. The matches here are played
against a real table service with a fixed seed (``SEED``) whose deal the stand-in of the
seat that goes away wins, so that every place that shows or counts the result has to put
the leaver last against the engine's own order. Deleting a finished match from a history
hides its replay, not its result.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from players_helpers import finish, fixed_anchors
from table_helpers import TableClient, name_player, play_out, running_service
from test_app_shared import player_app, until
from textual.app import App
from textual.widgets import Label, RichLog

import trash_tui.tables.service as service_module
from trash_tui.app.screens.history import HistoryScreen, outcome_text
from trash_tui.app.shared.board import SharedBoardScreen
from trash_tui.app.shared.controller import SharedTableController
from trash_tui.app.trash.endings import StandingsScreen, deal_lines, standings_lines
from trash_tui.app.trash.replay_screen import ReplayScreen
from trash_tui.app.widgets.game_log import GameLog
from trash_tui.engine.narrate import describe_event
from trash_tui.games import TRASH
from trash_tui.history import PLAYING, SHARED_OWNER, History
from trash_tui.players.rater import open_history
from trash_tui.players.stats import player_stats
from trash_tui.rules import Rules
from trash_tui.standing import final_places, winners

#: A seed whose one-deal match (Seven Up) Ann's stand-in wins against Bob playing the
#: first legal move: the engine puts the seat that went away first.
SEED = 1
TWO = {"seats": ["human", "human"], "clock": 0, "preset": "seven-up", "public": True}


@pytest.fixture(autouse=True)
def _setup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fixed_anchors(monkeypatch)
    monkeypatch.setattr(service_module.secrets, "randbelow", lambda _bound: SEED)
    for identity, name in (("key:ann", "Ann"), ("key:bob", "Bob"), ("key:cat", "Cat")):
        name_player(tmp_path, identity, name)


def rated_ranks(history: History, match_id: int) -> dict[str, int]:
    row = history.db.execute("SELECT seats FROM rated_matches WHERE match_id = ?",
                             (match_id,)).fetchone()
    assert row is not None, "the match was not rated"
    return {seat["player"]: seat["rank"] for seat in json.loads(row[0]) if "player" in seat}


def board_of(client: TableClient) -> SharedTableController:
    """The match as a player's board rebuilds it from the updates it got."""
    updates = [m for m in client.messages if m["op"] == "update"]
    first = max(i for i, m in enumerate(updates) if m["reset"])
    rules = next(m["observation"]["rules"] for m in updates if "observation" in m)
    controller = SharedTableController(lambda _m: None, Rules.from_dict(rules), updates[first])
    for update in updates[first + 1:]:
        controller.apply(update)
    return controller


async def sit_ann_and_bob(service: Any, config: dict[str, Any] = TWO
                          ) -> tuple[TableClient, TableClient]:
    ann = await TableClient.connect(service, "key:ann")
    bob = await TableClient.connect(service, "key:bob")
    await ann.send({"op": "create", "config": config})
    created = await ann.wait_for("created")
    await bob.send({"op": "join", "code": created["code"]})
    await bob.wait_for("update", lambda m: m["table"]["status"] == "playing")
    return ann, bob


def quick_clock(service: Any, seconds: float) -> None:
    """The one table's turn clock set to ``seconds`` (0: none) from its next turn on (a
    table asks 5 s at the least)."""
    [table] = service.tables.values()
    table.config = replace(table.config, clock=seconds)
    service.pacer.pump(table)


def the_leaver_is_last_everywhere(folder: Path, bob: TableClient, result: dict[str, Any],
                                  engine_places: list[int]) -> None:
    """Ann (seat 0) is away at the end and her stand-in won the deal: every place says
    Bob won and Ann is last, having left."""
    assert engine_places == [1, 2], "the seed no longer lets Ann's stand-in win"
    assert result["left"] == [0]
    board = board_of(bob)
    lines = standings_lines(board.match, board.names, frozenset(result["left"]))
    assert lines[0] == "1. Bob — ★ winner"
    assert lines[1].startswith("2. Ann — left the table (stand-in's layout: ")
    last_deal = deal_lines(board.match, board.match.history[-1], board.names,
                           frozenset(result["left"]))
    assert any("Ann's stand-in finished first, but Ann left the table" in line
               for line in last_deal), last_deal
    assert any("★ Bob wins the match" in line for line in last_deal), last_deal
    assert not any("★ Ann" in line for line in [*lines, *last_deal])
    with open_history(folder / "history.sqlite3") as history:
        [row] = history.matches.of_player("key:ann")
        assert row.left == {0} and row.winner_names == ["Bob"]
        assert outcome_text(row, 0) == "you left · ★ Bob"
        assert outcome_text(row, 1) == "★ Bob"
        assert rated_ranks(history, row.id) == {"key:ann": 2, "key:bob": 1}
        ann, bob_stats = (player_stats(history, who, TRASH, who)
                          for who in ("key:ann", "key:bob"))
        assert (ann.overall.matches, ann.overall.wins) == (1, 0)
        assert (bob_stats.overall.matches, bob_stats.overall.wins) == (1, 1)


async def test_a_player_who_left_with_esc_is_last_though_their_stand_in_won(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann, bob = await sit_ann_and_bob(service)
        await ann.send({"op": "leave"})
        last = await play_out([bob])
        result = await bob.wait_for("result")
    the_leaver_is_last_everywhere(tmp_path, bob, result, last["state"]["result"]["places"])


async def test_an_idle_player_whose_clock_ran_out_is_last_though_their_stand_in_won(
        tmp_path: Path) -> None:
    """Item 3: staying connected and pressing nothing is being away, as esc is."""
    async with running_service(tmp_path) as service:
        _ann, bob = await sit_ann_and_bob(service, {**TWO, "clock": 5})
        quick_clock(service, 0.2)
        last = await play_out([bob])  # Ann, connected, never touches a key
        result = await bob.wait_for("result")
        assert any("Ann ran out of time" in m.get("text", "") for m in bob.messages
                   if m["op"] == "notice")
    the_leaver_is_last_everywhere(tmp_path, bob, result, last["state"]["result"]["places"])


async def test_a_key_after_the_clock_ran_out_takes_the_seat_and_the_result_back(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann, bob = await sit_ann_and_bob(service, {**TWO, "clock": 5})
        quick_clock(service, 0.2)
        await ann.wait_for("notice", lambda m: "stand-in plays for them" in m["text"]
                           or "ran out of time" in m["text"], timeout=10)
        await ann.send({"op": "back"})  # any key
        await ann.wait_for("notice", lambda m: "seat back" in m["text"])
        quick_clock(service, 0)
        last = await play_out([ann, bob])
        result = await bob.wait_for("result")
    assert result["left"] == []
    places = last["state"]["result"]["places"]
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.of_player("key:ann")
        assert row.left == frozenset()
        assert rated_ranks(history, row.id) == {"key:ann": places[0], "key:bob": places[1]}


async def test_a_player_who_dropped_while_the_table_waited_is_away_from_the_first_move(
        tmp_path: Path) -> None:
    three = {**TWO, "seats": ["human", "human", "human"]}
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        await ann.send({"op": "create", "config": three})
        created = await ann.wait_for("created")
        await bob.send({"op": "join", "code": created["code"]})
        await bob.wait_for("update", lambda m: any(s.get("name") == "Bob"
                                                    for s in m["table"]["seats"]))
        await bob.close()  # dropped in the waiting room: the seat is kept
        await asyncio.sleep(0.1)
        cat = await TableClient.connect(service, "key:cat")
        await cat.send({"op": "join", "code": created["code"]})
        started = await cat.wait_for("update", lambda m: m["table"]["status"] == "playing")
        assert started["table"]["seats"][1]["state"] == "away"
        await play_out([ann, cat])
        result = await cat.wait_for("result")
    assert result["left"] == [1]
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.of_player("key:bob")
        assert rated_ranks(history, row.id)["key:bob"] == 3
        assert "Bob" not in row.winner_names


async def test_when_every_player_left_nobody_won(tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann, bob = await sit_ann_and_bob(service)
        cat = await TableClient.connect(service, "key:cat")
        [table] = service.tables.values()
        await cat.send({"op": "watch", "table": table.id})  # someone there: it plays on
        await cat.wait_for("update")
        await ann.send({"op": "leave"})
        await bob.send({"op": "leave"})
        last = await cat.wait_for("update", lambda m: m["table"]["status"] == "finished",
                                  timeout=60)
        result = await cat.wait_for("result")
    assert result["left"] == [0, 1]
    board = board_of(cat)
    lines = standings_lines(board.match, board.names, frozenset(result["left"]))
    assert "Nobody wins: every player left the table." in lines
    assert not any("★" in line for line in lines)
    assert last["state"]["result"]["places"]
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.of_player("key:ann")
        assert row.outcome == "everyone left" and row.winner_names == []
        assert outcome_text(row, 0) == "you left · everyone left"
        for who in ("key:ann", "key:bob"):
            assert player_stats(history, who, TRASH, who).overall.wins == 0
        assert rated_ranks(history, row.id) == {"key:ann": 1, "key:bob": 1}  # a tie


def test_the_leavers_share_the_last_place_and_win_nothing() -> None:
    assert final_places([1, 2, 3, 4], {0, 3}) == [3, 1, 2, 3]
    assert winners([1, 2, 3, 4], {0}) == [1]
    assert winners([1, 2, 2, 4], {0}) == [1, 2]  # a tie for second becomes one for first
    assert winners([1, 2], {0, 1}) == []


# --- deleting a match from one's history (item 6) ----------------------------------------
def test_a_deleted_match_is_hidden_from_the_history_but_its_result_still_counts(
        tmp_path: Path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        lost = finish(history, SHARED_OWNER, ["human", "human"], [2, 1],
                      players=[(0, "key:ann"), (1, "key:bob")])
        won = finish(history, "key:ann", ["human", "easy"], [1, 2])
        before = player_stats(history, "key:ann", TRASH, "Ann")
        rating = history.players.rating("key:ann", TRASH)
        assert (before.overall.matches, before.overall.wins) == (2, 1)
        for match_id in (lost, won):
            assert history.matches.remove_from_history(match_id, "key:ann") is False
        assert history.matches.of_player("key:ann") == []
        assert len(history.matches.of_player("key:bob")) == 1  # Bob keeps it
        after = player_stats(history, "key:ann", TRASH, "Ann")
        assert (after.overall.matches, after.overall.wins) == (2, 1)
        assert after.to_dict() == before.to_dict()
        assert history.players.rating("key:ann", TRASH) == rating
        # an unfinished match of one's own has no result: it goes for good
        unfinished = history.matches.start_match("key:ann", {}, ["human", "easy"],
                                                 ["a", "b"], 3)
        assert history.matches.remove_from_history(unfinished, "key:ann") is True
        assert history.matches.of_player("key:ann", PLAYING, hidden=True) == []


class _HistoryApp(App[None]):
    def __init__(self, history: History) -> None:
        super().__init__()
        self.history = history

    def on_mount(self) -> None:
        self.push_screen(HistoryScreen(self.history, "key:ann"))


async def test_the_history_screen_says_a_deleted_match_still_counts(tmp_path: Path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        finish(history, SHARED_OWNER, ["human", "human"], [2, 1],
               players=[(0, "key:ann"), (1, "key:bob")])
        app = _HistoryApp(history)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("delete")
            await pilot.pause()
            asked = str(app.screen.query_one("#history-detail").render())
            assert "from your history" in asked and "still counts" in asked
            assert "for good" not in asked
            await pilot.press("delete")
            await pilot.pause()
            done = str(app.screen.query_one("#history-detail").render())
            assert "still counts" in done
            assert app.screen.query_one("DataTable").row_count == 0
        stats = player_stats(history, "key:ann", TRASH, "Ann")
        assert (stats.overall.matches, stats.overall.wins) == (1, 0)


# --- the standings box on the board of the player who stayed ---------------------------------
@pytest.mark.parametrize(("seed", "deal_won_by"), [(SEED, "Ann's stand-in"), (3, "Bob")])
async def test_the_standings_box_puts_the_leaver_last_whoever_won_the_deal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, deal_won_by: str) -> None:
    monkeypatch.setattr(service_module.secrets, "randbelow", lambda _bound: seed)
    monkeypatch.setenv("TRASH_TUI_HISTORY", str(tmp_path / "history.sqlite3"))
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": TWO})
        created = await ann.wait_for("created")
        app = player_app(service, "key:bob", join=created["code"])
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            board = app.screen
            assert isinstance(board, SharedBoardScreen)
            await ann.send({"op": "leave"})
            for _ in range(3000):  # Bob plays the first legal move on each turn of his
                if isinstance(app.screen, StandingsScreen) or board.table.detached:
                    break
                if board.shared.waiting_for_human and not board.animating:
                    board.shared.play(min(board.shared.legal()))
                await pilot.pause(0.02)
            assert board.table.detached is None, board.table.detached
            assert isinstance(app.screen, StandingsScreen)
            # (its lines are mounted a moment after it is pushed: a busy machine saw none)
            await until(pilot, lambda: bool(app.screen.query("#standings-title")))
            shown = [str(label.render()) for label in app.screen.query(Label)]
            logged = [str(entry) for entry in board.query_one(GameLog).entries]
    places = board.shared.match.result.places
    assert places == ([1, 2] if deal_won_by == "Ann's stand-in" else [2, 1])
    assert "1. Bob — ★ winner" in shown
    assert any(line.startswith("2. Ann — left the table") for line in shown), shown
    assert not any("★ Ann" in line or "Ann — ★" in line for line in shown), shown
    # the board's log says the same: the match's end once who left is known
    assert "★ Bob wins the match; Ann left the table: last. Places: Ann 2, Bob 1" in logged
    assert not any("Ann wins the match" in line for line in logged), logged


def test_the_end_of_a_match_in_a_log_puts_the_leavers_last() -> None:
    names = ["Ann", "Bob", "Cy"]
    event = ("match", 0, (1, 2, 3))
    assert describe_event(event, names) == "Ann wins the match. Places: Ann 1, Bob 2, Cy 3"
    assert describe_event(event, names, {0}) == (
        "★ Bob wins the match; Ann left the table: last. Places: Ann 3, Bob 1, Cy 2")
    assert describe_event(event, names, {0, 1, 2}) == (
        "Everyone left the table: nobody wins the match. Places: Ann 1, Bob 1, Cy 1")


class _ReplayApp(App[None]):
    def __init__(self, screen: ReplayScreen) -> None:
        super().__init__()
        self.replay = screen

    def on_mount(self) -> None:
        self.push_screen(self.replay)


async def test_the_replay_of_a_match_someone_left_ends_as_the_table_did(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann, bob = await sit_ann_and_bob(service)
        await ann.send({"op": "leave"})
        await play_out([bob])
        await bob.wait_for("result")
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.of_player("key:bob")
        full = history.matches.get_match(row.id)
    app = _ReplayApp(ReplayScreen(full))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        await pilot.pause()
        text = " ".join(strip.text.strip() for strip in app.screen.query_one(RichLog).lines)
    assert "★ Bob wins the match" in text and "Ann left the table: last" in text, text
    assert "Ann wins the match" not in text
