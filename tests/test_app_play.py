"""Playing whole matches in the app through key presses, against bots (Textual pilot)."""

from __future__ import annotations

import pytest
from board_helpers import summary_up

from trash_tui.app.app import LobbyScreen, create_app
from trash_tui.app.screens.hot_seat import HotSeatScreen
from trash_tui.app.trash.board import BoardScreen
from trash_tui.app.trash.endings import StandingsScreen
from trash_tui.engine.actions import DRAW_STOCK
from trash_tui.presets import preset_rules
from trash_tui.rules import Rules
from trash_tui.settings import Settings


@pytest.fixture(autouse=True)
def _deterministic_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


async def play_to_the_end(app, pilot, limit: int = 3000) -> BoardScreen:
    await pilot.pause()
    board = app.screen
    assert isinstance(board, BoardScreen)
    controller = board.controller
    for _ in range(limit):
        await pilot.pause()
        if controller.over:
            break
        if summary_up(app):
            await pilot.press("enter")
        elif controller.waiting_for_human:
            action = controller.legal()[0]
            await pilot.press(BoardScreen.key_for(action))
    await pilot.pause()
    assert controller.over, "the match did not end"
    return board


@pytest.mark.parametrize("rules", [
    Rules(start_size=3),
    preset_rules("catsatcards").with_options(start_size=3),
    preset_rules("call-trash").with_options(start_size=3, jokers=True),
], ids=["standard-3", "catsatcards-3", "call-trash-jokers-3"])
async def test_a_whole_match_is_played_by_key_presses(rules: Rules) -> None:
    app = create_app(rules, ["human", "greedy", "easy"], seed=11, animation="off",
                     play_now=True)
    async with app.run_test(size=(100, 32)) as pilot:
        board = await play_to_the_end(app, pilot)
        assert isinstance(app.screen, StandingsScreen)
        result = board.controller.match.result
        assert result is not None and sorted(result.places)[0] == 1
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)


async def test_keys_that_are_not_legal_do_nothing() -> None:
    app = create_app(Rules(start_size=4), ["human", "greedy"], seed=3, animation="off",
                     play_now=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BoardScreen)
        before = len(board.controller.match.events)
        await pilot.press("w", "k", "t", "x", "7")  # no swap, call or wild decision now
        await pilot.pause()
        assert len(board.controller.match.events) == before
        await pilot.press("s")  # drawing from the stock is always legal first
        await pilot.pause()
        assert len(board.controller.match.events) > before


async def test_the_lobby_starts_a_match_with_the_chosen_players() -> None:
    app = create_app(Rules(start_size=3), ["human", "normal"], seed=5, animation="off")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen)
        assert len(app.screen.controller.seats) == 2


async def test_two_humans_share_the_keyboard_and_each_sees_their_own_view() -> None:
    app = create_app(Rules(start_size=3), ["human", "normal"], seed=5, animation="off")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        lobby = app.screen
        lobby.query_one("#lobby-players").value = 3
        lobby.query_one("#lobby-humans").value = 2
        lobby.query_one("#lobby-level").value = "greedy"
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, HotSeatScreen)  # their names first (issue 16, item 9)
        app.screen.query_one("#hot-seat-1").value = "Ann"
        app.screen.query_one("#hot-seat-2").value = "Bob"
        await pilot.press("enter", "enter")
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BoardScreen)
        seats = board.controller.seats
        assert [seat.is_human for seat in seats] == [True, True, False]
        assert [seat.name for seat in seats[:2]] == ["Ann", "Bob"]
        viewers = set()
        for _ in range(300):
            await pilot.pause()
            if board.controller.waiting_for_human:
                viewers.add(board.controller.viewer)
                assert board.controller.viewer == board.controller.to_move
                await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
            if viewers == {0, 1} or board.controller.over:
                break
        assert viewers == {0, 1}


async def test_more_humans_than_players_is_refused_with_a_message() -> None:
    app = create_app(Rules(), ["human", "normal"], seed=5, animation="off")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        app.screen.query_one("#lobby-humans").value = 4
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)


async def test_the_lobby_starts_a_game_of_help_your_neighbor() -> None:
    from trash_tui.app.neighbor.board import NeighborBoardScreen

    app = create_app(Rules(), ["human", "normal"], seed=5, animation="off")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        lobby = app.screen
        lobby.query_one("#lobby-game").value = "help-your-neighbor"
        await pilot.pause()
        assert lobby.query_one("#lobby-players").value == 3  # the dice game needs three
        assert lobby.query_one("#lobby-level").value == "smart"
        assert lobby.query_one("#lobby-rules").disabled
        await pilot.press("n")
        await pilot.pause()
        board = app.screen
        assert isinstance(board, NeighborBoardScreen)
        assert [seat.is_human for seat in board.controller.seats] == [True, False, False]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        lobby.query_one("#lobby-game").value = "trash"
        await pilot.pause()
        assert not lobby.query_one("#lobby-rules").disabled


async def test_a_move_key_on_the_deal_summary_closes_it_and_is_played() -> None:
    """While the summary of a deal is up the status line does not ask for a move; a move
    key pressed on it (the next deal's first draw) closes it and the board plays it."""
    app = create_app(Rules(start_size=3), ["human", "greedy"], seed=11, animation="off",
                     play_now=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BoardScreen)
        controller = board.controller
        for _ in range(3000):
            await pilot.pause()
            if summary_up(app) or controller.over:
                break
            if controller.waiting_for_human:
                await pilot.press(BoardScreen.key_for(controller.legal()[0]))
        assert summary_up(app), "no deal ended: pick a seed"
        assert "Your move" not in board.status_shown
        assert "deal is over" in board.status_shown
        assert controller.waiting_for_human, "the human must open the next deal: pick a seed"
        actions = len(controller.actions)
        await pilot.press(BoardScreen.key_for(controller.legal()[0]))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen)
        assert len(controller.actions) > actions  # the key was played, not lost


async def test_remapped_move_keys_are_named_on_the_status_line_and_close_the_summary() -> None:
    """With the stock on g in the settings' keymap, the status line offers "g: draw from
    the stock" (not s), and g pressed on the summary of a deal closes it and draws: the
    keys a player chose work everywhere the default ones do."""
    settings = Settings(keymap={"draw-stock": "g"})
    app = create_app(Rules(start_size=3), ["human", "greedy"], seed=11, animation="off",
                     play_now=True, settings=settings)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BoardScreen)
        controller = board.controller
        offered = []
        for _ in range(3000):
            await pilot.pause()
            if summary_up(app) or controller.over:
                break
            if controller.waiting_for_human:
                offered.append(board.status_shown)
                await pilot.press(board.move_keys()[controller.legal()[0]][0])
        assert summary_up(app), "no deal ended: pick a seed"
        assert any("g: draw from the stock" in line for line in offered)
        assert not any("s: draw from the stock" in line for line in offered)
        assert controller.legal()[0] == DRAW_STOCK, "the human must open the next deal"
        actions = len(controller.actions)
        await pilot.press("g")
        await pilot.pause()
        await pilot.pause()
        assert not summary_up(app)
        assert controller.actions[actions] == DRAW_STOCK  # the key was played, not lost
