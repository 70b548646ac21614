"""Snapshots of every screen of the app at 80×24 and 160×48 (seeded games, no clock: times
in the history are fixed and shown in UTC; NO_COLOR removed by conftest)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from board_helpers import summary_up

from trash_tui.app.app import create_app
from trash_tui.app.trash.board import BoardScreen
from trash_tui.engine.actions import WILD_BASE
from trash_tui.play.controller import MatchController, make_seats
from trash_tui.play.saving import MatchSaver
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules
from trash_tui.settings import default_history_path

SIZES = [(80, 24), (160, 48)]
SIZE_IDS = ["80x24", "160x48"]
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _fixed_place_and_zone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Relative paths (so no folder name of this machine reaches a screen: the shipped
    tournament files are copied to ./tournaments) and UTC times."""
    shutil.copytree(REPO / "tournaments", tmp_path / "tournaments")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TRASH_TUI_HISTORY", "history.sqlite3")
    monkeypatch.setenv("TRASH_TUI_CONFIG", "config.toml")
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def app_for(players: int = 2, play_now: bool = False, rules: Rules | None = None):
    return create_app(rules or Rules(), ["human"] + ["greedy"] * (players - 1), seed=7,
                      animation="off", play_now=play_now,
                      tournaments_dir=Path("tournaments"))


async def play_until(pilot, board: BoardScreen, done, limit: int = 3000) -> None:
    """The human takes the first legal action (deal summaries closed) until ``done()``."""
    app = pilot.app
    for _ in range(limit):
        await pilot.pause()
        if done():
            return
        if summary_up(app):
            await pilot.press("enter")
        elif board.controller.legal():
            await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
    raise AssertionError("the wanted moment never came")


def store_finished_match() -> None:
    """One finished match in the history database, with fixed times."""
    with open_history(default_history_path()) as history:
        seats = make_seats(["human", "greedy"], 3)
        controller = MatchController(Rules(start_size=3), seats, 3)
        match_id = history.matches.start_match("local", controller.rules.to_dict(),
                                               ["human", "greedy"], controller.names, 3)
        controller.listeners.append(MatchSaver(history, match_id))
        while not controller.over:
            if controller.waiting_for_human:
                controller.play(controller.legal()[0])
            else:
                controller.step_bot()
        history.db.execute("UPDATE matches SET started = ?, updated = ? WHERE id = ?",
                           (1_780_000_000, 1_780_000_754, match_id))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_lobby(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("players", [2, 4])
def test_board_after_a_few_moves(snap_compare, size: tuple[int, int], players: int) -> None:
    async def run_before(pilot) -> None:
        await pilot.pause()
        for _ in range(3):  # three of the human's turns, the bots playing in between
            await pilot.press("s")
            await pilot.pause()

    assert snap_compare(app_for(players, play_now=True), terminal_size=size,
                        run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_board_mid_chain_with_a_wild_to_place(snap_compare, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        await pilot.pause()
        board = pilot.app.screen
        await play_until(pilot, board, lambda: any(
            a > WILD_BASE for a in board.controller.legal()))

    assert snap_compare(app_for(play_now=True), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_end_of_a_deal(snap_compare, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        await pilot.pause()
        board = pilot.app.screen
        for _ in range(3000):
            await pilot.pause()
            if summary_up(pilot.app):
                return
            if board.controller.legal():
                await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
        raise AssertionError("no deal ended")

    assert snap_compare(app_for(play_now=True), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_end_of_the_match(snap_compare, size: tuple[int, int]) -> None:
    async def run_before(pilot) -> None:
        await pilot.pause()
        board = pilot.app.screen
        await play_until(pilot, board, lambda: board.controller.over)
        await pilot.pause()

    app = app_for(play_now=True, rules=Rules(start_size=2))
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_match_history(snap_compare, size: tuple[int, int]) -> None:
    store_finished_match()
    assert snap_compare(app_for(), terminal_size=size, press=["h"])


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_replay_of_a_finished_match(snap_compare, size: tuple[int, int]) -> None:
    store_finished_match()
    assert snap_compare(app_for(), terminal_size=size,
                        press=["h", "enter", *["right"] * 12])


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_tournaments(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(), terminal_size=size, press=["t"])


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_rules_help_with_house_rules(snap_compare, size: tuple[int, int]) -> None:
    rules = Rules(wilds="kings", jokers=True, start_size=8)
    assert snap_compare(app_for(rules=rules), terminal_size=size, press=["r"])


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_settings(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(), terminal_size=size, press=["s"])


@pytest.mark.parametrize("size", [(60, 20), (79, 30)], ids=["60x20", "79x30"])
def test_too_small_terminal(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(), terminal_size=size)


async def _neighbor_at_a_seven(pilot) -> None:
    """Help Your Neighbor, seeded so that the human's third roll is a 7 with markers to
    uncover: the board waits for the choice."""
    from trash_tui.app.neighbor.board import NeighborBoardScreen
    from trash_tui.play.neighbor_controller import NeighborController

    await pilot.pause()
    controller = NeighborController.from_specs(["human", "smart", "random"], 10)
    board = NeighborBoardScreen(controller, "off")
    pilot.app.push_screen(board)
    for _ in range(3):
        for _ in range(500):
            await pilot.pause()
            if not board.rolling and board.driver.pending is None and \
                    controller.waiting_for_human:
                break
        if controller.phase == "uncover":
            break
        await pilot.press("r")
    for _ in range(50):
        await pilot.pause()
    assert controller.phase == "uncover" and controller.waiting_for_human


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_help_your_neighbor_asks_which_marker_to_uncover(snap_compare,
                                                         size: tuple[int, int]) -> None:
    assert snap_compare(app_for(), terminal_size=size, run_before=_neighbor_at_a_seven)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_ssh_player_chooses_a_name_on_the_first_visit(snap_compare,
                                                      size: tuple[int, int]) -> None:
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="off",
                     owner="SHA256:snapshot-key", remote=True,
                     settings_path=Path("player.toml"))
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_ssh_player_is_told_the_server_is_stopping(snap_compare,
                                                   size: tuple[int, int]) -> None:
    with open_history(default_history_path()) as history:
        history.players.register_player("SHA256:snapshot-key", "Robin")
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="off",
                     owner="SHA256:snapshot-key", remote=True,
                     settings_path=Path("player.toml"))

    async def run_before(pilot) -> None:
        await pilot.pause()
        pilot.app.say_goodbye("The server is stopping. Your match is saved: come back "
                              "later and press c to continue it.", delay=60)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
