"""Help Your Neighbor in the app: the controller, the log's sentences, and the board played
by key presses and clicks against seeded bots (Textual pilot, a host app of its own)."""

from __future__ import annotations

import html
import re

import pytest
from textual.app import App
from textual.widgets import RichLog, Static

from bots.base import BotError
from bots.neighbor import SmartNeighborBot
from trash_tui.app.neighbor.board import MARKER_KEYS, NeighborBoardScreen
from trash_tui.app.neighbor.dialogs import (
    NeighborRulesScreen,
    NeighborStandingsScreen,
    standings_lines,
    standings_title,
)
from trash_tui.app.neighbor.widgets import (
    HATCH,
    MARKER_GAP,
    SIZES,
    DiceView,
    PlayerPanel,
    PlayersView,
    arrange_players,
    die_lines,
    marker_lines,
)
from trash_tui.engine.rng import derive_seed
from trash_tui.neighbor.engine import (
    MARKERS,
    ROLL,
    ROWS,
    FixedDice,
    IllegalAction,
    NeighborGame,
    uncover_action,
)
from trash_tui.neighbor.narrate import narrate
from trash_tui.play.neighbor_controller import (
    NeighborController,
    NeighborSeat,
    make_neighbor_seats,
)

THREE = ["human", "smart", "random"]
EIGHT = ["human", "smart", "random", "smart", "random", "smart", "random", "smart"]
# With THREE: the human's third roll is a 7 with 5, 6 and 10 covered (seed 10), or with
# 4, 6 and 12 covered (seed 244); seed 79 is a short game (the human decides 11 times).
SEVEN_SEED, TWELVE_SEED, SHORT_SEED = 10, 244, 79


class NeighborHost(App[None]):
    """A bare app that shows the board for ``controller`` (the lobby's place)."""

    def __init__(self, controller: NeighborController, animation: str = "off") -> None:
        super().__init__()
        self.controller = controller
        self.animation = animation

    def on_mount(self) -> None:
        self.board = NeighborBoardScreen(self.controller, self.animation)
        self.push_screen(self.board)


def host(specs: list[str], seed: int, animation: str = "off") -> NeighborHost:
    return NeighborHost(NeighborController.from_specs(specs, seed), animation)


async def settle(pilot, board: NeighborBoardScreen, limit: int = 500) -> None:
    """Let the bots play until a human decides, the game ends, or the standings show."""
    controller = board.controller
    for _ in range(limit):
        await pilot.pause()
        if not board.rolling and board.driver.pending is None and \
                (controller.waiting_for_human or controller.over):
            break
    await pilot.pause()


async def to_the_seven(pilot, board: NeighborBoardScreen) -> None:
    """Roll three times: with SEVEN_SEED and TWELVE_SEED the third is the human's 7."""
    await settle(pilot, board)
    for _ in range(3):
        assert board.controller.waiting_for_human
        await pilot.press("r")
        await settle(pilot, board)
    assert board.controller.phase == "uncover"


def log_text(board: NeighborBoardScreen) -> str:
    lines = board.query_one("#neighbor-log", RichLog).lines
    return " ".join(" ".join(strip.text.split()) for strip in lines)


def screen_text(app: App) -> str:
    """The screen's text as the SVG screenshot has it (spaces unescaped)."""
    svg = app.export_screenshot()
    texts = re.findall(r"<text [^>]*>(.*?)</text>", svg)
    return html.unescape(" ".join(texts)).replace("\xa0", " ")


# --- the controller --------------------------------------------------------------------
def test_seats_name_humans_and_seed_bots_from_the_game() -> None:
    seats = make_neighbor_seats(["human", "smart", "random", "human"], seed=5)
    assert [seat.name for seat in seats] == ["Player 1", "Smart (2)", "Random (3)", "Player 4"]
    assert [seat.is_human for seat in seats] == [True, False, False, True]
    assert seats[1].bot is not None and isinstance(seats[1].bot, SmartNeighborBot)
    assert seats[1].bot.seed == derive_seed(5, "seat", 1) % 2**31
    assert make_neighbor_seats(["human", "smart", "smart"], 5)[0].name == "You"
    with pytest.raises(BotError, match="random, smart"):
        make_neighbor_seats(["human", "greedy", "smart"], seed=5)


def test_the_controller_takes_one_decision_at_a_time() -> None:
    controller = NeighborController.from_specs(THREE, SEVEN_SEED)
    heard: list[int] = []
    controller.listeners.append(lambda _, action: heard.append(action))
    assert controller.names == ["You", "Smart (2)", "Random (3)"]
    while not controller.waiting_for_human:
        assert controller.legal() == ()
        with pytest.raises(IllegalAction):
            controller.play(ROLL)
        assert controller.step_bot() > 0
    assert controller.viewer == controller.to_move == 0
    assert controller.step_bot() == 0  # not a bot's turn
    assert controller.legal() == (ROLL,)
    with pytest.raises(IllegalAction):
        controller.play(uncover_action(8))
    before = len(controller.events)
    assert controller.play(ROLL) == len(controller.events) - before > 0
    assert heard == controller.actions == controller.game.actions
    assert controller.observation().seat == 0


def test_a_controller_can_take_fixed_dice() -> None:
    seats = [NeighborSeat("Ann"), NeighborSeat("Bob"), NeighborSeat("Cy")]
    controller = NeighborController(seats, 0, dice=FixedDice([(6, 6), (1, 1), (2, 2),
                                                              (4, 5)]))
    assert controller.to_move == 0 and controller.viewer == 0
    controller.play(ROLL)
    assert controller.observation().covered[0] == (9,)


# --- the log -----------------------------------------------------------------------------
def scenario(rolls: list[tuple[int, int]]) -> NeighborGame:
    return NeighborGame(3, dice=FixedDice(rolls))


def test_the_log_says_every_step_of_a_turn() -> None:
    names = ["Ann", "Bob", "Cy"]
    game = scenario([(6, 6), (6, 6), (1, 1), (2, 2), (3, 3),
                     (4, 5), (4, 5), (3, 4), (1, 2), (3, 4)])
    assert narrate(game.events, names) == [
        "Rolls for the first turn: Ann 12 (6+6), Bob 12 (6+6), Cy 2 (1+1).",
        "The tied roll again: Ann 4 (2+2), Bob 6 (3+3).",
        "Bob rolled highest and goes first.",
    ]
    said = []
    for action in [ROLL, ROLL, ROLL, uncover_action(9), ROLL, ROLL]:
        start = len(game.events)
        game.apply(action)
        said += narrate(game.events[start:], names)
    assert said == [
        "Bob rolls 4 and 5: 9.",
        "Bob covers 9 and rolls again.",
        "Bob rolls 4 and 5: 9.",
        "9 passes to Cy, who covers it and takes the dice.",
        "Cy rolls 3 and 4: 7!",
        "Cy must uncover a marker.",
        "Cy uncovers 9; Ann takes the dice.",
        "Ann rolls 1 and 2: 3.",
        "Ann covers 3 and rolls again.",
        "Ann rolls 3 and 4: 7!",
        "Ann must uncover a marker.",
    ]


def test_the_log_says_nobody_sevens_with_nothing_covered_and_the_wins() -> None:
    names = ["You", "Bob", "Cy"]
    game = scenario([(6, 6), (1, 1), (2, 2), (3, 4), (3, 3), (4, 4), (5, 5)])
    start = len(game.events)
    game.apply(ROLL)  # You: a 7 with nothing covered
    assert narrate(game.events[start:], names) == [
        "You roll 3 and 4: 7!", "You have nothing to uncover: Bob takes the dice."]
    for seat in range(3):
        game.covered[seat].add(6)
    start = len(game.events)
    game.apply(ROLL)  # Bob: a 6 everybody has covered
    assert narrate(game.events[start:], names) == [
        "Bob rolls 3 and 3: 6.", "Nobody can use 6: Bob rolls again."]
    game.covered[1].add(8)
    start = len(game.events)
    game.apply(ROLL)  # Bob's 8 goes to Cy, who shows it; not a win
    game.covered[2] = set(MARKERS) - {10}
    game.apply(ROLL)  # Cy: 10, the last marker
    assert narrate(game.events[start:], names) == [
        "Bob rolls 4 and 4: 8.", "8 passes to Cy, who covers it and takes the dice.",
        "Cy rolls 5 and 5: 10.", "Cy covers the last marker and wins!"]


def test_the_log_says_a_win_by_a_neighbour_and_an_uncover_to_you() -> None:
    names = ["Ann", "You", "Cy"]
    game = scenario([(6, 6), (1, 1), (2, 2), (6, 6), (3, 4)])
    game.covered[0] = {12, 2}
    game.covered[1] = set(MARKERS) - {12}
    start = len(game.events)
    game.apply(ROLL)
    assert narrate(game.events[start:], names) == [
        "Ann rolls 6 and 6: 12.", "12 passes to you, who cover the last marker and win!"]
    game = scenario([(6, 6), (1, 1), (2, 2), (3, 4)])
    game.covered[0] = {2}
    game.apply(ROLL)
    start = len(game.events)
    game.apply(uncover_action(2))
    assert narrate(game.events[start:], names) == ["Ann uncovers 2; you take the dice."]


# --- drawing and fitting ------------------------------------------------------------------
@pytest.mark.parametrize("size", list(SIZES))
def test_covered_markers_differ_by_drawing_not_colour(size: str) -> None:
    for marker in MARKERS:
        up, down = marker_lines(marker, False, size), marker_lines(marker, True, size)
        assert len(up) == len(down) == SIZES[size].height
        assert all(len(line) == SIZES[size].width for line in up + down)
        assert str(marker) in "".join(up) and str(marker) in "".join(down)
        assert HATCH not in "".join(up) and HATCH in "".join(down)


def test_dice_faces_show_their_pips() -> None:
    for face in range(1, 7):
        assert "".join(die_lines(face)).count("●") == face
    assert "?" in "".join(die_lines(None))


@pytest.mark.parametrize(("players", "width", "height", "size", "fits"), [
    (3, 50, 22, "compact", True),
    (8, 50, 22, "compact", False),
    (8, 116, 46, "large", True),
    (3, 130, 46, "large", True),
])
def test_panels_use_the_largest_markers_that_fit(players: int, width: int, height: int,
                                                  size: str, fits: bool) -> None:
    from textual.geometry import Size

    plan = arrange_players(players, Size(width, height))
    assert (plan.size, plan.fits) == (size, fits)
    assert plan.columns * plan.rows >= players


# --- the board ---------------------------------------------------------------------------
async def test_a_whole_game_is_played_by_key_presses() -> None:
    app = host(THREE, SHORT_SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, NeighborBoardScreen)
        controller = board.controller
        presses = 0
        for _ in range(200):
            await settle(pilot, board)
            if controller.over:
                break
            if controller.phase == "roll":
                await pilot.press("r" if presses % 2 else "space")
            else:
                await pilot.press(MARKER_KEYS[board.choices()[0]])
            presses += 1
        await settle(pilot, board)
        assert controller.over and controller.winner is not None
        assert presses == 11
        assert isinstance(app.screen, NeighborStandingsScreen)
        winner = controller.names[controller.winner]
        assert app.screen.title_text == f"{winner} wins!"
        assert app.screen.lines[0].startswith(f"1. {winner} — ★ winner")
        assert "wins!" in log_text(board)
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, (NeighborBoardScreen, NeighborStandingsScreen))


async def test_keys_that_are_not_legal_do_nothing() -> None:
    app = host(THREE, SEVEN_SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, NeighborBoardScreen)
        await settle(pilot, board)
        controller = board.controller
        before = len(controller.events)
        await pilot.press("2", "0", "minus", "equals_sign")  # no 7 to answer
        await pilot.pause()
        assert len(controller.events) == before
        assert board.check_action("roll", ()) is True
        assert board.check_action("uncover", (8,)) is False
        await to_the_seven(pilot, board)
        before = len(controller.events)
        await pilot.press("r", "space", "2", "minus", "equals_sign")  # 2, 11, 12 face up
        await pilot.pause()
        assert len(controller.events) == before and controller.phase == "uncover"
        assert board.check_action("roll", ()) is False
        assert [m for m in MARKERS if board.check_action("uncover", (m,))] == [5, 6, 10]
        status = board.query_one("#neighbor-status", Static).render()
        assert "press its key (5, 6, 0 for 10)" in str(status)


@pytest.mark.parametrize(("seed", "key", "marker"), [
    (SEVEN_SEED, "0", 10), (TWELVE_SEED, "equals_sign", 12), (SEVEN_SEED, "5", 5),
])
async def test_the_uncover_choice_by_key(seed: int, key: str, marker: int) -> None:
    app = host(THREE, seed)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, NeighborBoardScreen)
        await to_the_seven(pilot, board)
        controller = board.controller
        taken = len(controller.actions)
        await pilot.press(key)
        await pilot.pause()
        assert controller.actions[taken] == uncover_action(marker)
        assert ("uncover", 0, marker) in controller.events
        assert f"You uncover {marker}; Smart (2) takes the dice." in log_text(board)


def marker_offset(panel: PlayerPanel, marker: int) -> tuple[int, int]:
    """Where ``marker`` is drawn in ``panel``, from its top-left corner (border included)."""
    size = SIZES[panel.marker_size]
    row = 0 if marker in ROWS[0] else 1
    column = ROWS[row].index(marker)
    x = 2 + column * (size.width + MARKER_GAP) + 1  # border and padding, then the marker
    y = 1 + 1 + row * size.height + size.height // 2  # border and header, then the row
    return x, y


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_the_uncover_choice_by_click(size: tuple[int, int]) -> None:
    app = host(THREE, SEVEN_SEED)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, NeighborBoardScreen)
        await to_the_seven(pilot, board)
        controller = board.controller
        panels = board.query_one(PlayersView).panels
        before = len(controller.events)
        await pilot.click(panels[0], offset=marker_offset(panels[0], 2))  # face up
        await pilot.click(panels[1], offset=marker_offset(panels[1], 6))  # not yours
        await pilot.click("#neighbor-dice")  # no roll on a 7
        await pilot.pause()
        assert len(controller.events) == before
        taken = len(controller.actions)
        await pilot.click(panels[0], offset=marker_offset(panels[0], 6))
        await pilot.pause()
        assert controller.actions[taken] == uncover_action(6)
        assert ("uncover", 0, 6) in controller.events


async def test_a_click_on_the_dice_rolls() -> None:
    app = host(THREE, SEVEN_SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, NeighborBoardScreen)
        await settle(pilot, board)
        rolls = board.controller.game.turn
        await pilot.click("#neighbor-dice")
        await pilot.pause()
        assert board.controller.game.turn == rolls + 1
        dice = board.query_one(DiceView)
        assert dice.faces == board.controller.game.last_roll
        assert dice.caption.startswith("You: ")


@pytest.mark.parametrize(("specs", "size"), [
    (THREE, (80, 24)), (THREE, (160, 48)), (EIGHT, (160, 48)),
])
async def test_the_board_fits_and_marks_the_seven(specs: list[str],
                                                  size: tuple[int, int]) -> None:
    app = host(specs, SEVEN_SEED)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, NeighborBoardScreen)
        await settle(pilot, board)
        for _ in range(20):
            if board.controller.phase == "uncover":
                break
            await pilot.press("r")
            await settle(pilot, board)
        view = board.query_one(PlayersView)
        assert view.fits and not board.query_one("#players-notice").display
        for panel in view.panels:
            assert view.region.contains_region(panel.region)
        assert board.query_one("#neighbor-log").region.width >= 20
        assert board.query_one(DiceView).region.height >= 7
        text = screen_text(app)
        assert "You ▶ to uncover" in text
        assert f"You: {' + '.join(map(str, board.controller.game.last_roll))} = 7" in text
        assert "of 10 covered" in text and HATCH in text
        if size == (160, 48):
            assert view.marker_size == "large"


async def test_eight_players_scroll_with_a_notice_at_80x24() -> None:
    app = host(EIGHT, SEVEN_SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, NeighborBoardScreen)
        await settle(pilot, board)
        view = board.query_one(PlayersView)
        assert not view.fits and view.marker_size == "compact"
        notice = board.query_one("#players-notice", Static)
        assert notice.display and "Not enough room for 8 players" in str(notice.render())
        assert "Scroll" in screen_text(app)


async def test_the_dice_roll_for_show_but_the_game_keeps_its_own_dice() -> None:
    app = host(THREE, SEVEN_SEED, animation="normal")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, NeighborBoardScreen)
        await settle(pilot, board, limit=5000)
        controller = board.controller
        assert controller.waiting_for_human
        await pilot.press("r")
        assert board.rolling
        assert "You roll…" in str(board.query_one("#neighbor-status", Static).render())
        await pilot.press("r")  # ignored while the dice roll
        await settle(pilot, board, limit=5000)
        assert not board.rolling
        assert board.query_one(DiceView).faces == controller.game.last_roll
        headless = NeighborController.from_specs(THREE, SEVEN_SEED)
        for action in controller.actions:
            if headless.waiting_for_human:
                headless.play(action)
            else:
                headless.step_bot()
        assert headless.game.rolls == controller.game.rolls
        assert headless.events == controller.events


async def test_bots_wait_while_another_screen_is_on_top() -> None:
    app = host(["smart", "random", "smart"], SEVEN_SEED, animation="fast")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        board = app.screen
        assert isinstance(board, NeighborBoardScreen)
        await pilot.press("question_mark")
        await pilot.pause(0.3)  # a roll under way finishes
        assert isinstance(app.screen, NeighborRulesScreen)
        actions = len(board.controller.actions)
        await pilot.pause(0.6)
        assert len(board.controller.actions) == actions
        await pilot.press("escape")
        await pilot.pause(0.6)
        assert app.screen is board
        assert len(board.controller.actions) > actions


async def test_escape_goes_back_to_the_lobby() -> None:
    app = host(THREE, SEVEN_SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NeighborBoardScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, NeighborBoardScreen)


async def test_bots_alone_play_to_the_standings_and_its_button_leaves() -> None:
    app = host(["smart", "random", "smart", "random"], SHORT_SEED)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        board = app.board
        await settle(pilot, board, limit=5000)
        assert board.controller.over
        assert isinstance(app.screen, NeighborStandingsScreen)
        await pilot.click("#neighbor-standings-close")
        await pilot.pause()
        assert not isinstance(app.screen, (NeighborBoardScreen, NeighborStandingsScreen))


def test_standings_share_places_and_count_the_rolls() -> None:
    game = scenario([(6, 6), (1, 1), (2, 2), (6, 6)])
    game.covered[0] = set(MARKERS) - {12}
    game.covered[1] = {2, 3}
    game.covered[2] = {4, 5}
    game.apply(ROLL)
    names = ["Ann", "You", "Cy"]
    observation = game.observation(1)
    assert standings_title(observation, names) == "Ann wins!"
    assert standings_lines(observation, names) == [
        "1. Ann — ★ winner, all 10 covered",
        "2. You — 2 of 10 covered",
        "2. Cy — 2 of 10 covered",
        "1 roll in all",
    ]


async def test_the_board_follows_a_resized_terminal() -> None:
    app = host(THREE, SEVEN_SEED)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        board = app.board
        view = board.query_one(PlayersView)
        assert view.marker_size == "large"
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert view.marker_size == "compact" and view.fits
        side = board.query_one("#neighbor-side").region
        assert side.width >= 30 and side.right <= 80
        for panel in view.panels:
            assert panel.region.right <= side.x
