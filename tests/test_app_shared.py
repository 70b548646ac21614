"""The shared-table screens of the app (issue 13), driven by Textual's pilot against a real
table service in the same event loop: the Tables screen, a new table, the waiting room,
the board at a shared table, joining by code and watching; snapshots at 80×24 and
160×48 (fixed codes and seeds)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
import time
import types
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from table_helpers import TableClient, ann_hosts, name_player, running_service

from trash_tui.app.app import create_app
from trash_tui.app.shared.board import SharedBoardScreen
from trash_tui.app.shared.link import TablesLink
from trash_tui.app.shared.tables_screen import CodeScreen, NewTableScreen, TablesScreen
from trash_tui.app.shared.waiting_room import TableWaitingScreen
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.players.rater import open_history
from trash_tui.settings import Settings
from trash_tui.tables import service as service_module
from trash_tui.tables import table as table_module
from trash_tui.tables.worker import Worker
from trash_tui.web import identity as web_identity

SIZES = [(80, 24), (160, 48)]
SIZE_IDS = ["80x24", "160x48"]


@pytest.fixture(autouse=True)
def _fixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fixed join codes and match seeds, the history database in the tmp folder."""
    codes = iter(["K7QX", "M4RT", "P9WZ", "B2CD"])
    monkeypatch.setattr(table_module, "new_code", lambda taken: next(codes))
    monkeypatch.setattr(service_module, "new_code", lambda taken: next(codes))
    monkeypatch.setattr(service_module.secrets, "randbelow", lambda n: 1234)
    monkeypatch.setenv("TRASH_TUI_HISTORY", str(tmp_path / "history.sqlite3"))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def player_app(service, identity: str, join: str | None = None,
               web_url: str | None = None):
    link = TablesLink(str(service.socket_path), service.register(identity), join,
                      web_url=web_url)
    settings = Settings(animation="off")
    return create_app(settings=settings, owner=identity, remote=True, tables=link)


async def until(pilot, check, limit: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not check():
        assert loop.time() < deadline, "the screen never got there"
        await pilot.pause(0.05)


async def test_create_a_table_wait_and_a_friend_joins_by_code(tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        app = player_app(service, "key:ann")
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: app.tables_link.connected)
            await pilot.press("t")
            await until(pilot, lambda: isinstance(app.screen, TablesScreen))
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, NewTableScreen))
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))
            waiting = app.screen
            await until(pilot, lambda: "K7QX" in str(
                waiting.query_one("#waiting-table").render()))
            bob = await TableClient.connect(service, "key:bob")
            await bob.send({"op": "join", "code": "k7qx"})
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            board = app.screen
            assert board.shared.names[:2] == ["Ann", "Bob"]
            assert not (board.notice or "").startswith("The match goes on")  # a new match
            update = await bob.wait_for("update", lambda m: m["table"]["status"] == "playing")
            assert update["names"][:2] == ["Ann", "Bob"] and board.shared.playing
            assert [s["kind"] for s in update["table"]["seats"]] == ["human", "human", "bot",
                                                                     "bot"]


@contextlib.asynccontextmanager
async def bob_at_anns_table(tmp_path: Path) -> AsyncIterator[tuple[TableClient, Any, Any,
                                                                   SharedBoardScreen]]:
    """Ann (a client of the service) creates a table of two humans with no clock; Bob's
    app joins it with the code as his SSH user name: Ann, Bob's app, its pilot, its board."""
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        ann, created = await ann_hosts(service)
        app = player_app(service, "key:bob", join=created["code"])
        async with app.run_test(size=(100, 32)) as pilot:
            # (up: composed, not only pushed, so that what it shows can be asked)
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen)
                        and app.screen.is_mounted)
            board = app.screen
            assert isinstance(board, SharedBoardScreen)
            yield ann, app, pilot, board


async def ann_plays_until_its_turn(ann: TableClient, pilot, board: SharedBoardScreen
                                   ) -> None:
    """Ann plays her moves (the first legal one) until the board's player is to move."""
    for _ in range(300):
        await ann.drain(0.02)
        legal = ann.my_turn()
        if legal:
            await ann.send({"op": "act", "action": legal[0]})
        if board.shared.waiting_for_human:
            return
        await pilot.pause(0.02)
    raise AssertionError("the board's player never got a turn")


async def test_a_player_joins_from_the_ssh_user_name_and_plays_a_move(tmp_path: Path) -> None:
    async with bob_at_anns_table(tmp_path) as (ann, _app, pilot, board):
        await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        await ann_plays_until_its_turn(ann, pilot, board)
        before = board.shared.move_count
        await pilot.press(board.key_for(board.shared.legal()[0]))
        await ann.wait_for("update", lambda m: m["actions"] > before)
        await until(pilot, lambda: board.shared.move_count > before)


async def test_the_chat_line_says_escape_closes_it_and_escape_does(tmp_path: Path) -> None:
    async with bob_at_anns_table(tmp_path) as (_ann, app, pilot, board):
        await pilot.press("c")
        await until(pilot, lambda: bool(board.query("#shared-chat")))
        await pilot.pause()
        footer = board.query_one(TrashFooter)
        shown = {key.description: key.key for key in footer.drawn_keys()}
        assert shown.get("Close chat") == "escape" and "Leave" not in shown
        await pilot.press("escape")
        await until(pilot, lambda: not board.query("#shared-chat"))
        assert app.screen is board  # the table is still there


async def test_watching_a_table_offers_no_move_and_the_chat_is_cleaned(tmp_path: Path
                                                                      ) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:eve", "Eve")
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": {"seats": ["human", "normal"],
                                                   "clock": 0}})
        created = await ann.wait_for("created")
        app = player_app(service, "key:eve")
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: app.tables_link.connected)
            await pilot.press("t")
            await until(pilot, lambda: isinstance(app.screen, TablesScreen))
            await pilot.press("j")
            await until(pilot, lambda: isinstance(app.screen, CodeScreen))
            for key in created["code"]:
                await pilot.press(key.lower())
            await pilot.click("#code-watch")
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            board = app.screen
            assert board.shared.watching and board.shared.legal() == ()
            assert "Watching" in board.status_text()
            await ann.send({"op": "chat", "text": "hello \x1b[31mred"})
            log = board.query_one("#board-log")
            await until(pilot, lambda: any("hello" in str(line.text)
                                           for line in log.lines))
            assert not any("\x1b" in str(line.text) for line in log.lines)


@contextlib.asynccontextmanager
async def bob_sees_anns_table(tmp_path: Path) -> AsyncIterator[tuple[TableClient, Any, Any,
                                                                    TablesScreen]]:
    """Bob's app opens the (empty) tables screen; then Ann (a client of the service)
    creates "Night owls" (two humans and an easy bot) and it shows in Bob's list: Ann,
    Bob's app, its pilot, its tables screen."""
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        app = player_app(service, "key:bob")
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: app.tables_link.connected)
            await pilot.press("t")
            await until(pilot, lambda: isinstance(app.screen, TablesScreen))
            screen = app.screen
            assert isinstance(screen, TablesScreen) and screen.tables == []
            ann = await TableClient.connect(service, "key:ann")
            await ann.send({"op": "create", "config": {"name": "Night owls",
                                                       "seats": ["human", "human", "easy"]}})
            await until(pilot, lambda: len(screen.tables) == 1)
            yield ann, app, pilot, screen


async def test_the_tables_screen_lists_tables_live(tmp_path: Path) -> None:
    async with bob_sees_anns_table(tmp_path) as (_ann, app, pilot, screen):
        row = screen.query_one("#tables-list").get_row_at(0)
        assert str(row[0]) == "Night owls" and str(row[1]) == "Ann"
        assert "○ open" in row[3] and "bot easy" in row[3]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))


async def test_the_tables_list_waits_under_a_table_and_is_fresh_when_back(tmp_path: Path
                                                                        ) -> None:
    """At a table, the list under its board is neither sent nor drawn (it would draw the
    board again in full at every change); back from the table, it is up to date."""
    async with bob_sees_anns_table(tmp_path) as (ann, app, pilot, tables):
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
        await ann.send({"op": "create", "config": {"name": "Early birds",
                                                   "seats": ["human", "easy"]}})
        await ann.wait_for("created")
        await pilot.pause(0.5)
        assert len(tables.tables) == 1
        assert tables.query_one("#tables-list").row_count == 1
        await pilot.press("escape", "escape")  # (the first asks before leaving)
        await until(pilot, lambda: app.screen is tables)
        await until(pilot, lambda: tables.query_one("#tables-list").row_count == 2)


async def test_the_history_keeps_a_shared_match_secret_and_refuses_to_delete_it_in_play(
        tmp_path: Path) -> None:
    """A match still played at a shared table: its line gives no seed (it would tell every
    face-down card), Enter goes back to the seat, and delete is refused while it is played
    (a leaver deleting it would make it unrated for everyone)."""
    from trash_tui.app.screens.history import HistoryScreen

    two_players(tmp_path)
    async with running_service(tmp_path) as service:
        bob = await TableClient.connect(service, "key:bob")
        await bob.send({"op": "create", "config": {"seats": ["human", "human"], "clock": 0}})
        created = await bob.wait_for("created")
        app = player_app(service, "key:ann", join=created["code"])
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            app.pop_screen()  # Ann leaves the board: the stand-in plays for her
            await pilot.pause(0.1)
            app.action_open_history()
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            screen = app.screen
            await until(pilot, lambda: bool(screen.rows))
            detail = str(screen.query_one("#history-detail").render())
            assert "shared table" in detail and "seed" not in detail
            seed = str(service.tables[created["table"]].controller.seed)
            assert seed not in detail
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            app.pop_screen()
            await until(pilot, lambda: isinstance(app.screen, TablesScreen))
            app.pop_screen()
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            await pilot.press("delete")
            await pilot.press("delete")
            await until(pilot, lambda: "still being played" in str(
                app.screen.query_one("#history-detail").render()))
            assert app.screen.rows
    with open_history(tmp_path / "history.sqlite3") as history:
        assert len(history.matches.of_player("key:ann")) == 1
        assert len(history.matches.of_player("key:bob")) == 1


@pytest.fixture
def service_thread(tmp_path: Path):
    """A table service running on an event loop of its own (in a thread), as the server
    runs it beside the session apps; snapshots run the app in theirs."""
    yield from _service_thread(tmp_path)


@pytest.fixture
def web_service_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The same on a server whose web face is on (link codes, fixed here) and whose
    players connect to play.example.org, port 2222."""
    letters = itertools.cycle("WXYZ2345")
    monkeypatch.setattr(web_identity, "secrets", types.SimpleNamespace(
        choice=lambda alphabet: next(letters), token_hex=secrets.token_hex,
        token_urlsafe=secrets.token_urlsafe))
    yield from _service_thread(tmp_path, web=True)


def _service_thread(tmp_path: Path, web: bool = False):
    import threading

    loop = asyncio.new_event_loop()
    ready = threading.Event()
    holder: dict = {}

    def serve() -> None:
        asyncio.set_event_loop(loop)
        worker = Worker(tmp_path / "history.sqlite3")
        service = service_module.TableService(
            tmp_path / "history.sqlite3",
            service_module.TableLimits(bot_delay=0.0, deal_pause=0.0),
            public_address=("play.example.org", 2222) if web else None, worker=worker,
            link_codes=web_identity.Browsers(worker) if web else None)
        loop.run_until_complete(service.start())
        service.test_loop = loop  # type: ignore[attr-defined]
        holder["service"] = service
        ready.set()
        loop.run_forever()
        loop.run_until_complete(service.stop())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    ready.wait(10)
    yield holder["service"]
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def two_players(tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")


async def ann_creates(service, **config) -> TableClient:
    ann = await TableClient.connect(service, "key:ann")
    await ann.send({"op": "create", "config": {"name": "Friday game", "clock": 0,
                                               "seats": ["human", "human", "normal"],
                                               **config}})
    await ann.wait_for("created")
    return ann


async def open_new_table_form(pilot) -> None:
    """From the lobby: t (the Tables screen), then n (the new-table form)."""
    app = pilot.app
    await until(pilot, lambda: app.tables_link.connected)
    await pilot.press("t")
    await until(pilot, lambda: isinstance(app.screen, TablesScreen))
    await pilot.press("n")
    await until(pilot, lambda: isinstance(app.screen, NewTableScreen))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_snapshot_tables_screen(snap_compare, tmp_path: Path, service_thread,
                                size: tuple[int, int]) -> None:
    two_players(tmp_path)
    keep: list[TableClient] = []

    async def run_before(pilot) -> None:
        app = pilot.app
        await until(pilot, lambda: app.tables_link.connected)
        keep.append(await ann_creates(service_thread))  # Ann stays at her table
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TablesScreen) and app.screen.tables)
        await pilot.pause(0.3)

    assert snap_compare(player_app(service_thread, "key:bob"), terminal_size=size,
                        run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_snapshot_new_table_form(snap_compare, tmp_path: Path, service_thread,
                                 size: tuple[int, int]) -> None:
    two_players(tmp_path)

    async def run_before(pilot) -> None:
        await open_new_table_form(pilot)
        await pilot.pause(0.3)

    assert snap_compare(player_app(service_thread, "key:ann"), terminal_size=size,
                        run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_snapshot_waiting_room(snap_compare, tmp_path: Path, service_thread,
                               size: tuple[int, int]) -> None:
    two_players(tmp_path)

    async def run_before(pilot) -> None:
        await open_new_table_form(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(pilot.app.screen, TableWaitingScreen))
        await pilot.pause(0.3)

    assert snap_compare(player_app(service_thread, "key:ann"), terminal_size=size,
                        run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_snapshot_shared_board(snap_compare, tmp_path: Path, service_thread,
                               size: tuple[int, int]) -> None:
    """Bob at Ann's table, his turn or Ann's (the seed is fixed), before anyone moves."""
    two_players(tmp_path)

    async def run_before(pilot) -> None:
        app = pilot.app
        await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
        await pilot.pause(0.3)

    async def create() -> TableClient:
        return await ann_creates(service_thread, seats=["human", "human"])

    future = asyncio.run_coroutine_threadsafe(create(), service_thread.test_loop)
    ann = future.result(10)  # Ann stays connected (her client lives on the service's loop)
    code = ann.messages[-1]["code"]
    assert snap_compare(player_app(service_thread, "key:bob", join=code),
                        terminal_size=size, run_before=run_before)


WEB_URL = "https://play.example.org"


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_snapshot_lobby_link_for_a_browser(snap_compare, tmp_path: Path, web_service_thread,
                                           size: tuple[int, int]) -> None:
    """Issue 39: b in the SSH lobby with the web face on: the link on one line."""
    two_players(tmp_path)

    async def run_before(pilot) -> None:
        app = pilot.app
        await until(pilot, lambda: app.tables_link.connected)
        await pilot.press("b")
        line = app.screen.query_one("#lobby-browser")
        await until(pilot, lambda: "/link/" in str(line.render()))
        await pilot.pause(0.3)

    assert snap_compare(player_app(web_service_thread, "key:ann", web_url=WEB_URL),
                        terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_snapshot_waiting_room_both_ways(snap_compare, tmp_path: Path, web_service_thread,
                                         size: tuple[int, int]) -> None:
    """Issue 39: the waiting room gives the ssh command and the page, each on a line."""
    two_players(tmp_path)

    async def run_before(pilot) -> None:
        await open_new_table_form(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(pilot.app.screen, TableWaitingScreen))
        await pilot.pause(0.3)

    assert snap_compare(player_app(web_service_thread, "key:ann", web_url=WEB_URL),
                        terminal_size=size, run_before=run_before)
