"""Issue 35: the shared tables' screens as a person meets them, on the way in and out
(Textual's pilot against a real table service in the same event loop): the standings'
"Back to the lobby", the waiting room's chat on the board, joining by code without a
flash of other screens, tables of the same name, a seat at a table closed for being
empty, and a shared match's replay in the player's own seat."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from table_helpers import TableClient, name_player, running_service

from trash_tui.app.app import TrashApp, create_app
from trash_tui.app.screens.lobby import LobbyScreen
from trash_tui.app.shared.board import SharedBoardScreen
from trash_tui.app.shared.link import TablesLink
from trash_tui.app.shared.tables_screen import TablesScreen
from trash_tui.app.shared.waiting_room import TableWaitingScreen
from trash_tui.app.trash.endings import StandingsScreen
from trash_tui.app.widgets.game_log import GameLog
from trash_tui.settings import Settings


@pytest.fixture(autouse=True)
def _history_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRASH_TUI_HISTORY", str(tmp_path / "history.sqlite3"))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def player_app(service, identity: str, join: str | None = None) -> TrashApp:
    link = TablesLink(str(service.socket_path), service.register(identity), join)
    return create_app(settings=Settings(animation="off"), owner=identity, remote=True,
                      tables=link)


async def until(pilot, check, limit: float = 15.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not check():
        assert loop.time() < deadline, "the screen never got there"
        await pilot.pause(0.05)


def log_text(board: SharedBoardScreen) -> str:
    return "\n".join(str(line.text) for line in board.query_one(GameLog).lines)


async def test_back_to_the_lobby_at_the_end_of_a_shared_match_lands_in_the_lobby(
        tmp_path: Path) -> None:
    """Cleo watches Ann's table from the Tables list to the end of its match; the
    standings' "Back to the lobby" (enter) lands in the lobby, not the Tables list."""
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:cleo", "Cleo")
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": {"seats": ["human", "random"], "clock": 0,
                                                   "preset": "seven-up"}})
        await ann.wait_for("created")
        app = player_app(service, "key:cleo")
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: app.tables_link.connected)
            await pilot.press("t")
            await until(pilot, lambda: isinstance(app.screen, TablesScreen)
                        and len(app.screen.tables) == 1)
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            await ann.send({"op": "leave"})  # the stand-in plays her seat to the end
            await until(pilot, lambda: isinstance(app.screen, StandingsScreen), limit=60)
            assert "Back to the lobby" in str(app.screen.query_one("#standings-close")
                                             .label)
            await pilot.press("enter")
            await until(pilot, lambda: not isinstance(app.screen, StandingsScreen))
            await pilot.pause(0.2)
            assert isinstance(app.screen, LobbyScreen), type(app.screen).__name__
            assert not any(isinstance(s, TablesScreen) for s in app.screen_stack)


async def test_the_waiting_rooms_chat_is_on_the_board_once_the_match_begins(
        tmp_path: Path) -> None:
    """Bob waits at Ann's table for a third player; what Ann and Bob said in the waiting
    room is in the board's log when Carl sits down and the match begins."""
    for identity, name in (("key:ann", "Ann"), ("key:bob", "Bob"), ("key:carl", "Carl")):
        name_player(tmp_path, identity, name)
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": {"seats": ["human", "human", "human"],
                                                   "clock": 0}})
        code = (await ann.wait_for("created"))["code"]
        app = player_app(service, "key:bob", join=code)
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))
            room = app.screen
            await ann.send({"op": "chat", "text": "shuffle well, Bob"})
            await until(pilot, lambda: "shuffle well" in "\n".join(
                str(line) for line in room.query_one("#waiting-log").lines))
            await pilot.press("c", *"ready", "enter")
            await ann.wait_for("chat", lambda m: m.get("text") == "ready")
            carl = await TableClient.connect(service, "key:carl")
            await carl.send({"op": "join", "code": code})
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            board = app.screen
            await until(pilot, lambda: bool(board.query(GameLog)) and "ready" in
                        log_text(board), limit=5)  # (pushed before it is composed)
            text = log_text(board)
            assert "Ann: shuffle well, Bob" in text and "Bob: ready" in text, text


def record_frames(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What each frame sent to the terminal showed: its screen's class, and for the Tables
    screen its line (``App._display``, skipped in a batch update, as
    test_app_remote.py records them)."""
    frames: list[str] = []
    display = TrashApp._display

    def record(app: TrashApp, screen, renderable) -> None:
        if renderable is not None and not app._batch_count:
            shown = type(app.screen).__name__
            if isinstance(app.screen, TablesScreen):
                shown += ": " + str(app.screen.query_one("#tables-line").render())
            frames.append(shown)
        display(app, screen, renderable)

    monkeypatch.setattr(TrashApp, "_display", record)
    return frames


@pytest.mark.parametrize("known", [True, False], ids=["known-key", "new-key"])
async def test_joining_by_code_shows_neither_the_lobby_nor_an_empty_list(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, known: bool) -> None:
    """Bob comes with Ann's code as his SSH user name (a known key, or a new one that
    names itself first): no frame between the name (or the start) and Ann's table shows
    the lobby or the Tables list saying "No open table yet"."""
    name_player(tmp_path, "key:ann", "Ann")
    if known:
        name_player(tmp_path, "key:bob", "Bob")
    frames = record_frames(monkeypatch)
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": {"seats": ["human", "human", "human"],
                                                   "clock": 0}})
        code = (await ann.wait_for("created"))["code"]
        app = player_app(service, "key:bob", join=code)
        async with app.run_test(size=(80, 24)) as pilot:
            if not known:
                await until(pilot, lambda: type(app.screen).__name__ == "NameScreen")
                app.screen.query_one("Input").value = ""
                await pilot.press(*"Bob")
                await pilot.pause()
                frames.clear()  # (the prompt's own frames)
                await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))
            await pilot.pause(0.3)
    seen = [frame for frame in frames if not frame.startswith("NameScreen")]
    assert seen and seen[-1] == "TableWaitingScreen", seen
    assert not any(frame.startswith("LobbyScreen") for frame in seen), seen
    assert not any("No open table yet" in frame for frame in seen), seen


async def test_a_shared_matchs_replay_opens_in_the_players_own_seat(tmp_path: Path) -> None:
    """Bob sat in the second seat of Ann's table: his history's replay of the match shows
    it as he saw it (his seat's view), not seat 1's."""
    from table_helpers import play_out

    from trash_tui.app.screens.history import HistoryScreen
    from trash_tui.app.trash.replay_screen import ReplayScreen

    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": {"seats": ["human", "human"], "clock": 0,
                                                   "preset": "kids"}})
        code = (await ann.wait_for("created"))["code"]
        bob = await TableClient.connect(service, "key:bob")
        await bob.send({"op": "join", "code": code})
        await play_out([ann, bob])
        app = player_app(service, "key:bob")
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
            replay = app.screen
            assert replay.viewer == 1
            assert "seen by Bob" in str(replay.query_one("#replay-status").render())


async def test_tables_of_the_same_name_can_be_told_apart_at_80_columns(
        tmp_path: Path) -> None:
    """Ann's first table is over (still listed) when she opens a second one, named as
    the first by default; Bob and Dan each name theirs "The long evening table". In the
    Tables list at 80 columns every row's name differs from the others' (the service
    numbers a name already listed, and a cut keeps the number)."""
    from table_helpers import play_out

    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    name_player(tmp_path, "key:cleo", "Cleo")
    name_player(tmp_path, "key:dan", "Dan")
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": {"seats": ["human", "random"], "clock": 0,
                                                   "preset": "kids"}})
        await ann.wait_for("created")
        await play_out([ann])
        # (Ann's message rate, 20 a second after play_out's moves: her next two
        # messages need a tenth of a second of it)
        await asyncio.sleep(0.3)
        await ann.send({"op": "create", "config": {"seats": ["human", "human"]}})
        await ann.wait_for("created")
        for identity in ("key:bob", "key:dan"):
            host = await TableClient.connect(service, identity)
            await host.send({"op": "create", "config": {
                "name": "The long evening table", "seats": ["human", "human"]}})
            await host.wait_for("created")
        app = player_app(service, "key:cleo")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.tables_link.connected)
            await pilot.press("t")
            await until(pilot, lambda: isinstance(app.screen, TablesScreen)
                        and len(app.screen.tables) == 4)
            await pilot.pause(0.2)
            listed = app.screen.query_one("#tables-list")
            names = [str(listed.get_row_at(row)[0]) for row in range(4)]
            assert len(set(names)) == 4, names


async def test_the_lobby_names_a_seat_at_a_table_that_closed_for_being_empty(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob's connection dropped while he sat at Ann's table; nobody came back and the
    table closed for being empty. When Bob comes again, his lobby says so, and that Ann
    (its host) can reopen it."""
    from dataclasses import replace

    from table_helpers import FAST

    from trash_tui.tables import service as service_module

    monkeypatch.setattr(service_module, "JANITOR_EVERY", 0.1)
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path, replace(FAST, empty_timeout=0.3)) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": {"name": "Night owls", "clock": 0,
                                                   "seats": ["human", "human", "human"]}})
        code = (await ann.wait_for("created"))["code"]
        bob = await TableClient.connect(service, "key:bob")
        await bob.send({"op": "join", "code": code})
        await bob.wait_for("update")
        await bob.close()
        await ann.close()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while service.tables:
            assert loop.time() < deadline, "the empty table never closed"
            await asyncio.sleep(0.1)
        app = player_app(service, "key:bob")
        async with app.run_test(size=(100, 32)) as pilot:
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            note = lobby.query_one("#lobby-continue-note")
            await until(pilot, lambda: "Night owls" in str(note.render()))
            text = " ".join(str(note.render()).split())
            assert "closed" in text and "nobody" in text and "Ann" in text, text
            assert "reopen" in text, text
