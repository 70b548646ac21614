"""Games of Help Your Neighbor are kept in the history like matches of Trash: every action
saved as it is taken, continued exactly where they stopped, listed with their game and
replayed from their record (Textual pilot; the history database is the test's own)."""

from __future__ import annotations

import json
import sqlite3
import time

from trash_tui.app.app import LobbyScreen, create_app
from trash_tui.app.neighbor.board import MARKER_KEYS, NeighborBoardScreen
from trash_tui.app.neighbor.replay import NeighborReplayScreen
from trash_tui.app.screens.history import HistoryScreen
from trash_tui.games import NEIGHBOR, TRASH
from trash_tui.history import FINISHED, PLAYING, History, HistoryError
from trash_tui.neighbor.record import replay_neighbor
from trash_tui.play.saving import (
    resume_saved,
    resume_saved_match,
    start_saved_neighbor_game,
)
from trash_tui.players.rater import open_history
from trash_tui.settings import default_history_path

THREE = ["human", "smart", "random"]
BOTS = ["smart", "random", "smart"]


async def settle(pilot, board: NeighborBoardScreen, limit: int = 500) -> None:
    """Let the bots play until a human decides or the game ends."""
    for _ in range(limit):
        await pilot.pause()
        if not board.rolling and board.driver.pending is None and \
                (board.controller.waiting_for_human or board.controller.over):
            return


async def human_decisions(pilot, board: NeighborBoardScreen, count: int) -> None:
    """Make ``count`` of the human's decisions by key (roll, or the first marker)."""
    for _ in range(count):
        await settle(pilot, board)
        if board.controller.over:
            return
        await pilot.press("r" if board.controller.phase == "roll"
                          else MARKER_KEYS[board.choices()[0]])
    await settle(pilot, board)


def play_out(history: History, specs: list[str], seed: int):
    """A saved game of bots only, played to its end."""
    controller = start_saved_neighbor_game(history, "local", specs, seed)
    while not controller.over:
        controller.step_bot()
    return controller


async def test_every_action_is_saved_and_continue_resumes_the_game_exactly() -> None:
    app = create_app(seed=5, animation="off")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        app.start_neighbor_game(THREE)
        await pilot.pause()
        board = app.screen
        assert isinstance(board, NeighborBoardScreen)
        await human_decisions(pilot, board, 4)
        played = list(board.controller.actions)
        events = list(board.controller.events)
        assert not board.controller.over and len(played) >= 4
    # the app is gone (as after a closed terminal); the database has every action
    with open_history(default_history_path()) as history:
        row = history.matches.of_player("local", PLAYING)[0]
        assert row.game == NEIGHBOR
        assert history.matches.match_actions(row.id) == played
        assert row.rules == {} and row.seats == THREE

    again = create_app(seed=99, animation="off")
    async with again.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, LobbyScreen)
        note = str(again.screen.query_one("#lobby-continue-note").render())
        assert "Help Your Neighbor" in note
        await pilot.press("c")
        await pilot.pause()
        board = again.screen
        assert isinstance(board, NeighborBoardScreen)
        assert board.controller.events[:len(events)] == events
        assert board.controller.match_id == row.id
        await human_decisions(pilot, board, 2)
    with open_history(default_history_path()) as history:
        assert history.matches.match_actions(row.id)[:len(played)] == played
        assert history.matches.get_match(row.id).actions > len(played)


def test_a_finished_game_keeps_a_record_that_replays_to_the_same_end(tmp_path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        controller = play_out(history, BOTS, 79)
        row = history.matches.get_match(controller.match_id)
        assert row.status == FINISHED and row.game == NEIGHBOR
        assert row.winner == controller.names[controller.winner]
        assert row.deals == controller.game.turn  # the turns taken
        assert row.actions == len(controller.actions)
        replayed = replay_neighbor(row.record)
        assert replayed.events == controller.events
        assert row.record["context"] == {"app_match": row.id}


def test_a_game_is_continued_only_as_the_game_it_is(tmp_path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        controller = start_saved_neighbor_game(history, "local", THREE, 10)
        while not controller.waiting_for_human:
            controller.step_bot()
        controller.play(controller.legal()[0])
        row = history.matches.get_match(controller.match_id)
        try:
            resume_saved_match(history, row)
        except HistoryError as exc:
            assert "not Trash" in str(exc)
        else:
            raise AssertionError("a dice game was continued as Trash")
        resumed = resume_saved(history, row)
        assert resumed.events == controller.events


def test_a_database_from_before_games_reads_its_matches_as_trash(tmp_path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE matches (id INTEGER PRIMARY KEY, owner TEXT NOT NULL, "
               "started REAL NOT NULL, updated REAL NOT NULL, status TEXT NOT NULL, "
               "rules TEXT NOT NULL, seats TEXT NOT NULL, names TEXT NOT NULL, "
               "seed INTEGER NOT NULL, actions INTEGER NOT NULL DEFAULT 0, "
               "deals INTEGER NOT NULL DEFAULT 0, winner TEXT, result TEXT, record TEXT)")
    db.execute("INSERT INTO matches (owner, started, updated, status, rules, seats, names, "
               "seed) VALUES ('local', ?, ?, 'playing', '{}', ?, ?, 7)",
               (time.time(), time.time(), json.dumps(["human", "greedy"]),
                json.dumps(["You", "Greedy"])))
    db.commit()
    db.close()
    with open_history(path) as history:  # the column is added on opening
        [old] = history.matches.of_player("local")
        assert old.game == TRASH and old.seed == 7
        new = history.matches.start_match("local", {}, THREE, ["You", "A", "B"], 3, game=NEIGHBOR)
        assert history.matches.get_match(new).game == NEIGHBOR
    with open_history(path) as history:  # and only once
        assert {row.game for row in history.matches.of_player("local")} == {TRASH, NEIGHBOR}


async def test_history_lists_the_game_and_replays_a_finished_dice_game() -> None:
    with open_history(default_history_path()) as history:
        controller = play_out(history, BOTS, 79)
    app = create_app(seed=1, animation="off")
    async with app.run_test(size=(120, 32)) as pilot:  # wide: every column
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        table = screen.query_one("#history-table")
        cells = [str(cell) for cell in table.get_row_at(0)]
        assert cells[1] == "Neighbor" and cells[4] == "—"  # no deals
        assert f"★ {controller.names[controller.winner]}" in cells
        detail = str(screen.query_one("#history-detail").render())
        assert "Help Your Neighbor" in detail and "replay" in detail
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NeighborReplayScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)


async def test_a_narrow_history_keeps_the_essentials_and_says_the_rest_below() -> None:
    """At 80 columns: date, game, players (shortened), result and moves; the line under the
    table has the selected match in full."""
    with open_history(default_history_path()) as history:
        long_names = play_out(history, ["smart", "random", "smart", "random", "smart"], 79)
    app = create_app(seed=1, animation="off")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        table = screen.query_one("#history-table")
        assert [str(c.label) for c in table.columns.values()] == \
            ["Last played", "Game", "Players", "Result", "Moves"]
        cells = [str(cell) for cell in table.get_row_at(0)]
        # the dice game's length is its rolls, as its end box says (issue 27)
        assert cells[2].endswith("…") and cells[4] == str(long_names.observation().turn)
        assert table.virtual_size.width <= 80
        detail = str(screen.query_one("#history-detail").render())
        assert ", ".join(long_names.names) in detail.replace("\n", " ")
        await pilot.resize_terminal(140, 30)
        await pilot.pause()
        assert "Length" in [str(c.label) for c in table.columns.values()]
