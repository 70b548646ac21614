"""A match is played in one place at a time: continuing it somewhere else (a second
terminal, or coming back over SSH while the dropped session is still winding down) makes
the first place stop saving it, and says so, instead of mixing two games in one."""

from __future__ import annotations

import pytest
from board_helpers import summary_up

from trash_tui.app.app import create_app
from trash_tui.app.trash.board import BoardScreen
from trash_tui.history import PLAYING, MatchTaken
from trash_tui.play.neighbor_controller import NeighborController
from trash_tui.play.saving import (
    resume_saved,
    resume_saved_match,
    start_saved_match,
    start_saved_neighbor_game,
)
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules
from trash_tui.settings import default_history_path

RULES = Rules(start_size=3)


def test_only_the_latest_holder_adds_to_a_match(tmp_path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        first = history.matches.take_match(history.matches.start_match(
            "local", {}, ["human", "greedy"], ["You", "Greedy"], 1))
        match_id = history.matches.of_player("local")[0].id
        history.matches.add_action(match_id, 0, 5, 1, first)
        second = history.matches.take_match(match_id)
        with pytest.raises(MatchTaken, match="continued in another session"):
            history.matches.add_action(match_id, 1, 6, 1, first)
        with pytest.raises(MatchTaken):
            history.matches.finish_match(match_id, None, 1, {}, {}, first)
        history.matches.add_action(match_id, 1, 7, 1, second)
        assert history.matches.match_actions(match_id) == [5, 7]
        assert history.matches.get_match(match_id).status == PLAYING


def play_one(controller) -> None:
    """One decision: a bot's, or the human's first legal action."""
    if controller.waiting_for_human:
        controller.play(controller.legal()[0])
    else:
        controller.step_bot()


@pytest.mark.parametrize("game", ["trash", "help-your-neighbor"])
def test_the_first_session_stops_saving_once_the_match_is_continued_elsewhere(
        tmp_path, game: str) -> None:
    path = tmp_path / "h.sqlite3"
    with open_history(path) as here, open_history(path) as there:
        if game == "trash":
            old = start_saved_match(here, "local", RULES, ["human", "greedy"], 4)
        else:
            old = start_saved_neighbor_game(here, "local", ["human", "smart", "random"], 4)
        for _ in range(3):
            play_one(old)
        row = there.matches.get_match(old.match_id)
        new = resume_saved(there, row)  # the player comes back in another session
        assert new.actions == old.actions
        play_one(old)  # the dropped session goes on for a moment: not saved
        [saver] = old.listeners
        assert saver.problem is not None and "another session" in saver.problem
        assert there.matches.match_actions(row.id) == new.actions
        for _ in range(3):
            play_one(new)
        assert there.matches.match_actions(row.id) == new.actions  # only the new session's game
        assert isinstance(new, NeighborController) == (game != "trash")


async def test_the_board_says_it_no_longer_saves_the_match() -> None:
    app = create_app(RULES, ["human", "greedy"], seed=21, animation="off", play_now=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        board = next(s for s in app.screen_stack if isinstance(s, BoardScreen))
        with open_history(default_history_path()) as elsewhere:
            resume_saved_match(elsewhere, elsewhere.matches.get_match(board.controller.match_id))
        for _ in range(200):
            await pilot.pause()
            if board.taken is not None:
                break
            if summary_up(app):
                await pilot.press("enter")
            elif board.controller.waiting_for_human:
                await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
        # the first window is read-only, in one line, to the end (issue 27)
        status = str(board.query_one("#board-status").render())
        assert "now being played in another window" in status and "\n" not in status
