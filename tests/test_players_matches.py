"""Ratings from real play (issue 17): a match played at home and saved by the app's saver,
a game of Help Your Neighbor, and shared tables through the real table service — both
players rated by the result, and a player who leaves the table during the match rated
last while the stand-in finishes it for them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from players_helpers import fixed_anchors
from table_helpers import TableClient, name_player, play_out, running_service

from trash_tui.games import NEIGHBOR, TRASH
from trash_tui.history import FINISHED, LOCAL_OWNER, History
from trash_tui.play.saving import start_saved_match, start_saved_neighbor_game
from trash_tui.players.rater import open_history
from trash_tui.players.rating import DEFAULT_MU
from trash_tui.rules import Rules


@pytest.fixture(autouse=True)
def _anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_anchors(monkeypatch)


def rated(history: History, match_id: int) -> list[dict]:
    row = history.db.execute("SELECT seats FROM rated_matches WHERE match_id = ?",
                             (match_id,)).fetchone()
    assert row is not None, "the match was not rated"
    return json.loads(row[0])


def test_a_match_and_a_dice_game_at_home_are_rated_as_they_finish(tmp_path: Path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        cards = start_saved_match(history, LOCAL_OWNER, Rules(start_size=3),
                                  ["human", "normal"], 11)
        while not cards.over:
            if cards.waiting_for_human:
                cards.play(cards.legal()[0])
            else:
                cards.step_bot()
        assert cards.match_id is not None
        places = cards.match.result.places
        assert [seat["rank"] for seat in rated(history, cards.match_id)] == list(places)
        mine = history.players.rating(LOCAL_OWNER, TRASH)
        assert mine is not None and mine.matches == 1
        assert (mine.rating.mu > DEFAULT_MU) == (places[0] == 1)
        dice = start_saved_neighbor_game(history, LOCAL_OWNER, ["human", "smart", "random"],
                                         5)
        while not dice.over:
            if dice.waiting_for_human:
                dice.play(dice.legal()[0])
            else:
                dice.step_bot()
        assert dice.match_id is not None and rated(history, dice.match_id)
        assert history.players.rating(LOCAL_OWNER, NEIGHBOR) is not None


TABLE = {"name": "Rated", "preset": "standard", "seats": ["human", "human", "normal"],
         "public": True, "clock": 0}


async def test_a_shared_table_rates_both_players_by_the_result(tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        await ann.send({"op": "create", "config": {**TABLE, "rules": Rules(
            start_size=3).to_dict()}})
        created = await ann.wait_for("created")
        await bob.send({"op": "join", "code": created["code"]})
        last = await play_out([ann, bob])
        places = last["state"]["result"]["places"]
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.of_player("key:ann")
        seats = rated(history, row.id)
        assert seats[0] == {"rank": places[0], "player": "key:ann"}
        assert seats[1] == {"rank": places[1], "player": "key:bob"}
        assert seats[2] == {"rank": places[2], "bot": "normal"}
        for identity in ("key:ann", "key:bob"):
            rating = history.players.rating(identity, TRASH)
            assert rating is not None and rating.matches == 1


async def test_leaving_a_shared_table_during_the_match_is_last_place(tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        bob = await TableClient.connect(service, "key:bob")
        await ann.send({"op": "create", "config": {**TABLE, "rules": Rules(
            start_size=3).to_dict()}})
        created = await ann.wait_for("created")
        await bob.send({"op": "join", "code": created["code"]})
        await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        await ann.send({"op": "leave"})
        await ann.wait_for("left")
        await play_out([bob])  # the stand-in plays Ann's seat to the end
        await asyncio.sleep(0.1)
    with open_history(tmp_path / "history.sqlite3") as history:
        [row] = history.matches.of_player("key:ann")
        assert row.status == FINISHED
        seats = rated(history, row.id)
        assert seats[0] == {"rank": 3, "player": "key:ann"}  # below Bob and the bot
        assert {seats[1]["rank"], seats[2]["rank"]} <= {1, 2}
        ann_rating = history.players.rating("key:ann", TRASH)
        assert ann_rating is not None and ann_rating.rating.mu < DEFAULT_MU
