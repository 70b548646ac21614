"""The board beyond key presses: clicks on the piles and on slots, the hint, the command
palette's actions, and a broken settings file reported while the app still opens."""

from __future__ import annotations

from pathlib import Path

from board_helpers import summary_up

from trash_tui.app.app import LobbyScreen, create_app
from trash_tui.app.screens.rules_help import RulesHelpScreen
from trash_tui.app.trash.board import BoardScreen
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.app.widgets.table import SLOT_GAP, LayoutView, PileView, TableView
from trash_tui.engine.actions import DRAW_DISCARD, DRAW_STOCK, WILD_BASE
from trash_tui.rules import Rules
from trash_tui.settings import load_settings


async def board_of(app, pilot) -> BoardScreen:
    await pilot.pause()
    board = app.screen
    assert isinstance(board, BoardScreen)
    return board


def toasts(app) -> str:
    return " ".join(str(toast.render()) for toast in app.screen.query("Toast"))


async def test_clicking_the_stock_and_the_discard_pile_draws_from_them() -> None:
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="off", play_now=True)
    async with app.run_test(size=(120, 36)) as pilot:
        board = await board_of(app, pilot)
        piles = board.query_one(PileView)
        for _ in range(50):  # to a decision where the human draws
            await pilot.pause()
            if board.controller.waiting_for_human and \
                    DRAW_STOCK in board.controller.legal():
                break
            if summary_up(app):
                await pilot.press("enter")
            elif board.controller.waiting_for_human:
                await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
        before = len(board.controller.actions)
        # the stock is the first card under its label: one column of padding, one label line
        await pilot.click(piles, offset=(2, 2))
        await pilot.pause()
        assert board.controller.actions[before] == DRAW_STOCK
        for _ in range(200):  # on to a turn where the top discard may be taken
            await pilot.pause()
            legal = board.controller.legal()
            if DRAW_DISCARD in legal:
                break
            if summary_up(app):
                await pilot.press("enter")
            elif legal:
                await pilot.press(BoardScreen.key_for(legal[0]))
        before = len(board.controller.actions)
        discard_x = 1 + max(len(f"Stock {piles.stock_count}"), piles.card_size.width) + 2 + 1
        await pilot.click(piles, offset=(discard_x, 2))
        await pilot.pause()
        assert board.controller.actions[before] == DRAW_DISCARD


async def test_clicking_a_slot_puts_the_wild_there() -> None:
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="off", play_now=True)
    async with app.run_test(size=(120, 36)) as pilot:
        board = await board_of(app, pilot)
        controller = board.controller
        for _ in range(3000):  # play until the human holds a wild to place
            await pilot.pause()
            legal = controller.legal()
            if any(action > WILD_BASE for action in legal):
                break
            if summary_up(app):
                await pilot.press("enter")
            elif legal:
                await pilot.press(BoardScreen.key_for(legal[0]))
        wilds = [action - WILD_BASE for action in controller.legal() if action > WILD_BASE]
        assert wilds, "no wild decision came up"
        slot = wilds[-1]
        view = next(v for v in board.query(LayoutView) if v.seat == controller.to_move)
        per_row = Rules().row_length(len(view.cards))
        row, column = divmod(slot - 1, per_row)
        # border + padding, then the header line and the rows above (cards + numbers),
        # in the card size the table chose for the room
        card_width, card_height = view.card_size.width, view.card_size.height
        offset = (2 + column * (card_width + SLOT_GAP) + 2,
                  1 + 1 + row * (card_height + 1) + 1)
        assert view.slot_at(offset[0] - 2, offset[1] - 1) == slot
        before = len(controller.actions)
        await pilot.click(view, offset=offset)
        await pilot.pause()
        assert controller.actions[before] == WILD_BASE + slot


async def test_the_hint_names_the_experts_move_and_a_chance_with_its_interval() -> None:
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="off", play_now=True)
    async with app.run_test(size=(120, 36)) as pilot:
        board = await board_of(app, pilot)
        for _ in range(50):
            await pilot.pause()
            if board.controller.waiting_for_human:
                break
        await pilot.press("h")
        for _ in range(100):
            await pilot.pause(0.1)
            if board.last_hint:
                break
        assert board.last_hint is not None
        assert board.last_hint.startswith("The expert would ")
        assert "chance to win the match from here: about " in board.last_hint
        assert "95% interval" in board.last_hint


async def test_the_command_palette_offers_the_main_actions() -> None:
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="off")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for wanted in ("New match", "Match history", "Tournaments", "Settings", "Rules help"):
            assert wanted in titles
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"rules help")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, RulesHelpScreen)


async def test_a_broken_settings_file_is_reported_and_the_app_still_opens(
        tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[rules]\npreset = "standard"\nstart_size = 42\n\n[app]\n'
                    'animation = "warp"\n', encoding="utf-8")
    settings, problems = load_settings(path)
    assert len(problems) == 2
    app = create_app(settings=settings, problems=problems, seed=1)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        shown = toasts(app)
        assert "start_size" in shown and "animation" in shown
        assert app.settings.rules == Rules() and app.settings.animation == "normal"


async def test_settings_saved_from_the_lobby_are_used_at_once_and_on_the_next_start(
        tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    app = create_app(seed=1, settings_path=path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#settings-animation").value = "fast"
        screen.query_one("#settings-level").value = "hard"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert app.settings.animation == "fast"
        assert app.screen.query_one("#lobby-level").value == "hard"
    settings, problems = load_settings(path)
    assert problems == [] and settings.animation == "fast"
    assert list(settings.seats) == ["human", "hard"]


async def test_bots_wait_while_the_terminal_is_too_small() -> None:
    app = create_app(Rules(), ["greedy", "greedy"], seed=3, animation="fast", play_now=True)
    async with app.run_test(size=(100, 30)) as pilot:
        board = await board_of(app, pilot)
        await pilot.resize_terminal(60, 20)
        await pilot.pause(0.3)
        frozen = len(board.controller.actions)
        await pilot.pause(0.6)
        assert len(board.controller.actions) == frozen
        await pilot.resize_terminal(100, 30)
        await pilot.pause(0.8)
        assert len(board.controller.actions) > frozen


async def test_a_key_pressed_while_a_move_is_shown_is_taken_when_it_ends() -> None:
    """Type-ahead: the human's key during the last frames of a bot's chain is not lost
    (it is played as soon as the chain has been shown, if it is still legal)."""
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="normal",
                     play_now=True)
    async with app.run_test(size=(100, 32)) as pilot:
        board = app.screen
        assert isinstance(board, BoardScreen)
        for _ in range(2000):
            await pilot.pause(0.01)
            if board.animating and board.controller.waiting_for_human:
                break
            if not board.animating and board.controller.waiting_for_human:
                await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
        else:
            raise AssertionError("no bot's chain ended on the human's turn")
        before = len(board.controller.actions)
        key = BoardScreen.key_for(board.controller.legal()[0])
        await pilot.press(key)
        assert len(board.controller.actions) == before  # not yet: the chain is shown
        for _ in range(300):
            await pilot.pause(0.02)
            if len(board.controller.actions) > before:
                break
        assert len(board.controller.actions) > before


async def to_the_end_of_a_deal(app, pilot, board: BoardScreen) -> None:
    for _ in range(3000):
        await pilot.pause()
        if summary_up(app):
            return
        if board.controller.waiting_for_human:
            await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
    raise AssertionError("no deal ended: pick a seed")


async def test_the_summary_of_a_deal_is_over_the_board_and_only_its_keys_act() -> None:
    """The summary is a box over the board, not a screen: a click on the piles behind it
    does nothing, the footer offers only its key and the rules, the rules open over it
    and come back to it, and escape closes it without leaving the board."""
    app = create_app(Rules(), ["human", "greedy"], seed=8, animation="off", play_now=True)
    async with app.run_test(size=(100, 32)) as pilot:
        board = await board_of(app, pilot)
        await to_the_end_of_a_deal(app, pilot, board)
        assert app.screen is board
        assert [key.description for key in board.query_one(TrashFooter).shown_keys()
                if not key.palette] == ["Next deal", "Table", "Rules"]
        actions = len(board.controller.actions)
        await pilot.click(board.query_one(PileView), offset=(2, 2))  # the stock, behind
        await pilot.pause()
        assert summary_up(app) and len(board.controller.actions) == actions
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesHelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is board and summary_up(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is board and not summary_up(app)
        assert "Next deal" not in [key.description
                                   for key in board.query_one(TrashFooter).shown_keys()]


async def test_the_finished_deal_stays_on_the_table_under_its_summary_and_v_shows_it() -> None:
    """Under the summary of a deal, the table is the finished deal (the winner's layout
    face up), not the next deal already dealt; v hides the box to look at it and shows it
    again; the next deal's table comes when the summary closes."""
    app = create_app(Rules(), ["human", "greedy"], seed=8, animation="off", play_now=True)
    async with app.run_test(size=(100, 32)) as pilot:
        board = await board_of(app, pilot)
        await to_the_end_of_a_deal(app, pilot, board)
        summary = board.controller.match.history[-1]
        shown = board.query_one(TableView).observation
        assert summary.winner is not None
        assert all(card is not None for card in shown.layouts[summary.winner])
        assert shown != board.controller.observation()  # the next deal waits
        await pilot.press("v")
        await pilot.pause()
        box = board.query_one("#deal-over")
        assert not box.display and summary_up(app)  # the table, uncovered
        assert "v: the summary" in str(board.query_one("#board-status").render())
        await pilot.press("v")
        await pilot.pause()
        assert box.display
        await pilot.press("enter")
        await pilot.pause()
        assert not summary_up(app)
        assert board.query_one(TableView).observation == board.controller.observation()
