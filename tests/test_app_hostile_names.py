"""Names the app did not choose (a history database someone edited, an SSH player's name
with brackets) are shown as plain text: no control character reaches the terminal, and
nothing in a name is read as markup (a stray ``[/b]`` would crash a screen, an
``[@click=...]`` would run an action). Textual pilot; the history database is the test's
own."""

from __future__ import annotations

import json
import unicodedata

from board_helpers import summary_up

from trash_tui.app.app import create_app
from trash_tui.app.neighbor.replay import NeighborReplayScreen
from trash_tui.app.screens.history import HistoryScreen
from trash_tui.app.trash.board import BoardScreen
from trash_tui.app.trash.endings import StandingsScreen
from trash_tui.app.trash.replay_screen import ReplayScreen
from trash_tui.play.saving import start_saved_match, start_saved_neighbor_game
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules
from trash_tui.settings import default_history_path

RULES = Rules(start_size=3)
# a screen clear, a bidi override, a bell, a newline, and markup that would not parse
ANN = "\x1b[2J[/b]Ann\u202e"
BOB = "Bob\x07\n[@click=app.quit]x[/]"
# as shown: the control characters gone (the newline a space), the brackets as typed
SHOWN_ANN = "[2J[/b]Ann"
SHOWN_BOB = "Bob [@click=app.quit]x[/]"


def control_characters(text: str) -> list[str]:
    return [char for char in text if unicodedata.category(char)[0] == "C"]


def put_names(match_id: int, names: list[str]) -> None:
    """Overwrite a saved match's names (and winner) as someone editing the file would."""
    with open_history(default_history_path()) as history:
        history.db.execute("UPDATE matches SET names = ?, winner = ? WHERE id = ?",
                           (json.dumps(names), names[0], match_id))


def finished_match() -> int:
    with open_history(default_history_path()) as history:
        match = start_saved_match(history, "local", RULES, ["greedy", "greedy"], 7)
        while not match.over:
            match.step_bot()
    assert match.match_id is not None
    return match.match_id


async def test_history_and_replay_show_edited_names_as_plain_text() -> None:
    put_names(finished_match(), [ANN, BOB])
    app = create_app(RULES, seed=1, animation="off")
    async with app.run_test(size=(120, 32)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        cells = [str(cell) for cell in screen.query_one("DataTable").get_row_at(0)]
        assert cells[2] == f"{SHOWN_ANN}, {SHOWN_BOB}"
        assert cells[3] == f"★ {SHOWN_ANN}"
        detail = str(screen.query_one("#history-detail").render())
        assert f"{SHOWN_ANN}, {SHOWN_BOB}" in detail
        assert control_characters("".join(cells) + detail) == []
        await pilot.press("enter")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.names == [SHOWN_ANN, SHOWN_BOB]
        await pilot.press("end")
        await pilot.pause()
        status = str(replay.query_one("#replay-status").render())
        assert f"seen by {SHOWN_ANN}" in status
        log = "".join(str(line.text) for line in replay.query_one("RichLog").lines)
        assert SHOWN_ANN in log and control_characters(status + log) == []
        assert app.is_running  # the [@click=app.quit] did nothing


async def test_the_dice_game_replay_shows_edited_names_as_plain_text() -> None:
    with open_history(default_history_path()) as history:
        game = start_saved_neighbor_game(history, "local", ["smart", "random", "smart"], 79)
        while not game.over:
            game.step_bot()
    assert game.match_id is not None
    put_names(game.match_id, [ANN, BOB, "Cy"])
    app = create_app(RULES, seed=1, animation="off")
    async with app.run_test(size=(120, 32)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, NeighborReplayScreen)
        assert replay.names == [SHOWN_ANN, SHOWN_BOB, "Cy"]
        await pilot.press("end")
        await pilot.pause()
        log = "".join(str(line.text) for line in replay.query_one("RichLog").lines)
        assert SHOWN_ANN in log and control_characters(log) == []


async def test_a_continued_match_with_bracketed_names_reaches_its_end_screens() -> None:
    """The end of a deal and the standings list the names: as text, not markup."""
    with open_history(default_history_path()) as history:
        match = start_saved_match(history, "local", RULES, ["greedy", "greedy"], 5)
        match.step_bot()
    assert match.match_id is not None
    put_names(match.match_id, [ANN, BOB])
    app = create_app(RULES, seed=1, animation="off")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("c")
        await pilot.pause()
        board = next(s for s in app.screen_stack if isinstance(s, BoardScreen))
        assert board.controller.names == [SHOWN_ANN, SHOWN_BOB]
        seen = ""
        for _ in range(3000):
            await pilot.pause()
            if summary_up(app):
                seen += " ".join(str(label.render()) for label in app.screen.query("Label"))
                await pilot.press("enter")
            elif isinstance(app.screen, StandingsScreen) and app.screen.query(
                    "#standings-title"):  # (its lines mounted: a moment after the push)
                seen += " ".join(str(label.render()) for label in app.screen.query("Label"))
                break
        assert isinstance(app.screen, StandingsScreen)
        assert SHOWN_ANN in seen and SHOWN_BOB in seen
        assert control_characters(seen) == []
