"""The players' screens (issue 17): the leaderboard (at home: you beside the bot levels;
over SSH: the server's players by name, your own line marked even below the top) and your
statistics with the chart of your rating, opened from the lobby with l and p, at home and
over SSH against a real table service; the lobby proposes the bot level nearest your
rating; snapshots at 80×24 and 160×48 (fixed anchors, results and times, UTC)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from players_helpers import ANCHORS, finish, fixed_anchors, shared
from table_helpers import name_player, running_service

from trash_tui.app.app import create_app
from trash_tui.app.players.leaderboard_screen import LeaderboardScreen
from trash_tui.app.players.stats_screen import StatsScreen
from trash_tui.app.screens.lobby import LobbyScreen
from trash_tui.app.shared.link import TablesLink
from trash_tui.games import NEIGHBOR, TRASH
from trash_tui.history import LOCAL_OWNER, History
from trash_tui.players.rater import open_history
from trash_tui.presets import PRESETS
from trash_tui.settings import Settings, default_history_path

SIZES = [(80, 24), (160, 48)]
SIZE_IDS = ["80x24", "160x48"]
WHEN = 1_780_000_000  # every stored time is fixed from here
SEEN_NOW = float(WHEN + 30 * 86400)  # "now" for the history (2026-06-27, UTC)
ME = "SHA256:robin"
#: The local player's results against the bots: (opponents, places), oldest first.
AT_HOME = [(["normal"], [1, 2]), (["normal"], [2, 1]), (["easy"], [1, 2]),
           (["easy"], [1, 2]), (["hard"], [2, 1]), (["normal", "easy"], [1, 3, 2]),
           (["normal"], [1, 2]), (["hard"], [1, 2]), (["hard", "normal"], [2, 1, 3]),
           (["easy"], [1, 2]), (["hard"], [2, 1]), (["normal"], [1, 2]),
           (["hard"], [1, 2]), (["hard", "hard", "normal"], [1, 2, 3, 4])]
PEOPLE = [(f"SHA256:p{n}", name) for n, name in enumerate(
    ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu",
     "Mo", "Ned", "Oz", "Pam", "Quin", "Ray", "Sue", "Ty", "Una", "Vic", "Wes"])]


@pytest.fixture(autouse=True)
def _fixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_anchors(monkeypatch)
    # The history's clock: an app that opens says its player was seen "now" (the date on
    # Robin's own line), which must not be the day the test runs.
    monkeypatch.setattr("trash_tui.history.players.time", SimpleNamespace(time=lambda: SEEN_NOW))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TRASH_TUI_HISTORY", str(tmp_path / "history.sqlite3"))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def fixed_times(history: History) -> None:
    """Times that do not depend on when the test runs."""
    history.db.execute("UPDATE matches SET started = ? + id * 3600, updated = ? + id * 3600 "
                       "+ 900", (WHEN, WHEN))
    history.db.execute("UPDATE players SET first_seen = ?, last_seen = ? + length(name) * "
                       "86400", (WHEN, WHEN))
    history.db.execute("UPDATE ratings SET updated = ?", (WHEN,))


def play_at_home(history: History, owner: str = LOCAL_OWNER) -> None:
    for number, (bots, places) in enumerate(AT_HOME):
        rules = (PRESETS["kings-wild"] if number % 3 == 0 else PRESETS["standard"]).rules
        finish(history, owner, ["human", *bots], places, deals=3 + number % 4,
               rules=rules.to_dict())
    finish(history, owner, ["human", "smart", "random"], [1, 2, 3], game=NEIGHBOR)
    fixed_times(history)


def fill_server(history: History) -> None:
    """Twenty-three players at shared tables, Robin (the one looking) below the top 20."""
    history.players.register_player(ME, "Robin")
    for identity, name in PEOPLE:
        history.players.register_player(identity, name)
    for round_ in range(12):
        for index, (identity, _name) in enumerate(PEOPLE):
            rival = PEOPLE[(index + 1 + round_) % len(PEOPLE)][0]
            won = (index + round_) % 4 != 0 if index < 12 else (index + round_) % 3 == 0
            shared(history, ["human", "human", "normal"], [1, 2, 3] if won else [2, 1, 3],
                   {0: identity, 1: rival})
    for places in ([3, 1, 2], [2, 1, 3], [3, 2, 1]):
        shared(history, ["human", "human", "hard"], places, {0: ME, 1: PEOPLE[0][0]})
    fixed_times(history)


def home_app():
    return create_app(settings=Settings(animation="off", name="Robin"), seed=7)


def remote_app(tables: TablesLink | None = None):
    return create_app(settings=Settings(animation="off"), seed=7, owner=ME, remote=True,
                      settings_path=Path("player.toml"), tables=tables)


def open_with(key: str):
    async def run_before(pilot) -> None:
        await pilot.pause()
        await pilot.press(key)
        for _ in range(5):
            await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_leaderboard_at_home_beside_the_bots(snap_compare, size: tuple[int, int]) -> None:
    with open_history(default_history_path()) as history:
        play_at_home(history)
    assert snap_compare(home_app(), terminal_size=size, run_before=open_with("l"))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_leaderboard_over_ssh_marks_your_rank_below_the_top(snap_compare,
                                                            size: tuple[int, int]) -> None:
    with open_history(default_history_path()) as history:
        fill_server(history)
    assert snap_compare(remote_app(), terminal_size=size, run_before=open_with("l"))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_statistics_with_the_rating_chart(snap_compare, size: tuple[int, int]) -> None:
    with open_history(default_history_path()) as history:
        play_at_home(history)
    assert snap_compare(home_app(), terminal_size=size, run_before=open_with("p"))


async def test_l_and_p_open_the_screens_at_home_and_the_lobby_suggests_a_level() -> None:
    with open_history(default_history_path()) as history:
        play_at_home(history)
        mine = history.players.rating(LOCAL_OWNER, TRASH)
    assert mine is not None
    app = home_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        suggestion = str(lobby.query_one("#lobby-suggestion").render())
        nearest = min(ANCHORS[TRASH], key=lambda level: abs(ANCHORS[TRASH][level].mu -
                                                              mine.rating.mu))
        assert f"Your rating {mine.rating.shown}" in suggestion
        assert f"nearest bot {nearest}" in suggestion
        await pilot.press("l")
        await pilot.pause()
        board = app.screen
        assert isinstance(board, LeaderboardScreen) and board.board is not None
        names = [entry.name for entry in board.board.entries]
        assert "Robin" in names and "normal (bot)" in names and len(names) == 8
        you = board.board.you
        assert you is not None and you.rating == mine.rating and you.matches == mine.matches
        await pilot.press("g")  # the other game
        await pilot.pause()
        assert board.game == NEIGHBOR and board.board.you is not None
        await pilot.press("p")
        await pilot.pause()
        stats = app.screen
        assert isinstance(stats, StatsScreen) and stats.stats is not None
        assert stats.stats.game == NEIGHBOR and stats.stats.overall.wins == 1
        await pilot.press("escape", "escape")
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        stats = app.screen
        assert isinstance(stats, StatsScreen) and stats.stats is not None
        assert stats.stats.overall.matches == len(AT_HOME)
        assert len(stats.stats.history) == len(AT_HOME)


async def until(pilot, check, limit: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not check():
        assert loop.time() < deadline, "the screen never got there"
        await pilot.pause(0.05)


async def test_over_ssh_the_board_is_the_servers_players_by_name(tmp_path: Path) -> None:
    with open_history(tmp_path / "history.sqlite3") as history:
        fill_server(history)
        history.players.register_player("SHA256:evil", "Mal\x1b]0;owned\x07lory")
        shared(history, ["human", "human"], [1, 2], {0: "SHA256:evil", 1: ME})
        for _ in range(10):  # an established rating, high on the board
            shared(history, ["human", "hard"], [1, 2], {0: "SHA256:evil"})
    name_player(tmp_path, ME, "Robin")
    async with running_service(tmp_path) as service:
        link = TablesLink(str(service.socket_path), service.register(ME), None)
        app = remote_app(link)
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: app.tables_link.connected)
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
            board = app.screen.board
            assert board is not None and board.you is not None
            names = [entry.name for entry in board.entries]
            assert board.you.name == "Robin" and board.you.rank > 20
            assert "Mal]0;ownedlory" in names  # control characters removed
            assert not any(name.startswith("SHA256") for name in names)  # never a key
            table = app.screen.query_one("#board-table")
            assert table.cursor_row == table.row_count - 1  # your line, under the top
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, StatsScreen))
            stats = app.screen.stats
            assert stats is not None and stats.overall.matches == 4 and stats.overall.wins == 0
