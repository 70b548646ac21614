"""Matches are saved as they are played: continue an interrupted match, open the history,
step through a replay (Textual pilot; the history database is the test's own)."""

from __future__ import annotations

from pathlib import Path

import pytest
from board_helpers import summary_up

from trash_tui.app.app import LobbyScreen, create_app
from trash_tui.app.screens.history import HistoryScreen, duration_text
from trash_tui.app.trash.board import BoardScreen
from trash_tui.app.trash.endings import StandingsScreen
from trash_tui.app.trash.replay_screen import ReplayScreen
from trash_tui.engine.stepper import ReplayCursor
from trash_tui.history import FINISHED, PLAYING
from trash_tui.play.saving import resume_saved_match, start_saved_match
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules
from trash_tui.settings import default_history_path

RULES = Rules(start_size=3)


async def human_moves(app, pilot, count: int) -> None:
    """Make ``count`` of the human's decisions (the first legal one), closing deal
    summaries on the way."""
    await pilot.pause()
    board = next(s for s in app.screen_stack if isinstance(s, BoardScreen))
    made = 0
    for _ in range(2000):
        await pilot.pause()
        if made >= count or board.controller.over:
            return
        if summary_up(app):
            await pilot.press("enter")
        elif board.controller.waiting_for_human:
            await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
            made += 1


async def test_every_action_is_saved_and_continue_resumes_exactly_there() -> None:
    app = create_app(RULES, ["human", "greedy"], seed=21, animation="off", play_now=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await human_moves(app, pilot, 6)
        board = next(s for s in app.screen_stack if isinstance(s, BoardScreen))
        played = list(board.controller.actions)
        events = list(board.controller.match.events)
        assert not board.controller.over
    # the app is gone (as after a closed terminal); the database has every action
    with open_history(default_history_path()) as history:
        row = history.matches.of_player("local", PLAYING)[0]
        assert history.matches.match_actions(row.id) == played
        assert row.actions == len(played)

    again = create_app(RULES, ["human", "greedy"], seed=99, animation="off")
    async with again.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, LobbyScreen)
        assert not again.screen.query_one("#lobby-continue").disabled
        await pilot.press("c")
        await pilot.pause()
        board = again.screen
        assert isinstance(board, BoardScreen)
        # the saved moves, then (maybe) the bot's next ones: the same cards, the same table
        assert board.controller.actions[:len(played)] == played
        assert board.controller.match.events[:len(events)] == events
        await human_moves(again, pilot, 2)  # and it goes on being saved
        assert len(board.controller.actions) > len(played)
        with open_history(default_history_path()) as history:
            assert history.matches.match_actions(row.id) == board.controller.actions


async def test_leaving_the_board_keeps_the_match_for_continue() -> None:
    app = create_app(RULES, ["human", "greedy"], seed=4, animation="off", play_now=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await human_moves(app, pilot, 2)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert "c continues your match: 2 players" in str(
            app.screen.query_one("#lobby-continue-note").render())
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen)


async def test_the_end_of_a_deal_shows_its_summary_over_the_board_and_bots_wait_for_it(
) -> None:
    app = create_app(RULES, ["human", "greedy"], seed=8, animation="off", play_now=True)
    async with app.run_test(size=(100, 32)) as pilot:
        board = app.screen
        assert isinstance(board, BoardScreen)
        for _ in range(2000):
            await pilot.pause()
            if summary_up(app) or isinstance(app.screen, StandingsScreen):
                break
            if board.controller.waiting_for_human:
                await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
        assert summary_up(app)
        text = " ".join(str(part.render()) for part in board.query("#deal-over Static"))
        assert "is over" in text and (" to 2 slots" in text or "void" in text)
        actions = len(board.controller.actions)
        await pilot.pause(0.05)
        assert len(board.controller.actions) == actions  # nobody plays behind the summary
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is board and not summary_up(app)


async def finish_a_match(seed: int) -> int:
    """Play a whole 2-player match through the app; returns its id in the history."""
    app = create_app(RULES, ["human", "greedy"], seed=seed, animation="off", play_now=True)
    async with app.run_test(size=(100, 32)) as pilot:
        board = app.screen
        assert isinstance(board, BoardScreen)
        await human_moves(app, pilot, 10_000)
        await pilot.pause()
        assert isinstance(app.screen, StandingsScreen)
        assert board.controller.match_id is not None
        return board.controller.match_id


async def test_history_lists_finished_matches_and_steps_through_a_replay() -> None:
    match_id = await finish_a_match(31)
    with open_history(default_history_path()) as history:
        row = history.matches.get_match(match_id)
    assert row.status == FINISHED and row.record is not None and row.winner in row.names
    app = create_app(RULES, ["human", "greedy"], seed=1, animation="off")
    async with app.run_test(size=(120, 32)) as pilot:  # wide: every column
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        table = screen.query_one("DataTable")
        assert table.row_count == 1
        cells = [str(c) for c in table.get_row_at(0)]
        assert cells[1] == "Trash" and cells[2] == "You, Greedy (2)"
        assert cells[3] == f"★ {row.winner}"
        assert cells[4] == str(row.deals) and cells[5] == str(row.actions)
        await pilot.press("enter")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.cursor.position == 0
        await pilot.press("right", "right", "right")
        await pilot.pause()
        assert replay.cursor.position == 3
        await pilot.press("left")
        await pilot.pause()
        assert replay.cursor.position == 2
        await pilot.press("pagedown")
        await pilot.pause()
        assert replay.cursor.position == replay.cursor.deal_starts[1]
        await pilot.press("end")
        await pilot.pause()
        assert replay.cursor.match.over
        assert replay.cursor.match.result.places == row.result["places"]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)


async def test_deleting_a_match_asks_first() -> None:
    with open_history(default_history_path()) as history:
        start_saved_match(history, "local", RULES, ["greedy", "greedy"], 3)
    app = create_app(RULES, seed=1, animation="off")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        table = app.screen.query_one("DataTable")
        assert table.row_count == 1
        await pilot.press("delete")
        await pilot.pause()
        assert table.row_count == 1  # asked, not deleted
        await pilot.press("delete")
        await pilot.pause()
        assert table.row_count == 0


def test_a_match_rebuilt_from_its_saved_actions_is_the_same_match(tmp_path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        live = start_saved_match(history, "local", Rules(start_size=6),
                                 ["greedy", {"name": "normal", "mistakes": 0.2}], 12)
        for _ in range(60):
            live.step_bot()
        assert not live.over
        row = history.matches.of_player("local", PLAYING)[0]
        resumed = resume_saved_match(history, row)
        assert resumed.match.events == live.match.events
        assert resumed.names == live.names
        while not resumed.over:
            resumed.step_bot()
        finished = history.matches.get_match(row.id)
        assert finished.status == FINISHED
        cursor = ReplayCursor(finished.record)
        cursor.seek(cursor.length)
        assert cursor.match.events == resumed.match.events


def test_a_replay_cursor_goes_back_to_the_same_table(tmp_path: Path) -> None:
    with open_history(tmp_path / "history.sqlite3") as history:  # (":memory:" made a file)
        live = start_saved_match(history, "local", Rules(start_size=5), ["greedy", "greedy"],
                                 5)
        while not live.over:
            live.step_bot()
        cursor = ReplayCursor(history.matches.get_match(live.match_id).record)
    assert cursor.length > 40
    cursor.seek(17)
    seen = cursor.match.observation(0)
    cursor.forward(9)
    cursor.back(9)
    assert cursor.match.observation(0) == seen
    cursor.previous_deal()
    assert cursor.position in cursor.deal_starts


@pytest.mark.parametrize(("seconds", "text"), [(5, "0:05"), (754, "12:34"), (3723, "1:02:03")])
def test_durations_read_like_a_clock(seconds: float, text: str) -> None:
    assert duration_text(seconds) == text
