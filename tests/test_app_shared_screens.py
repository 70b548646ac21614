"""The shared-table screens at every size (issue 29, "Friends at one table"): the Tables
list's columns at 80 columns, only the answer to the screen's own request opens a table
(not a late update of a table just left), the new-table form without scrolling and with
the name it will get, the waiting room's join hint, chat lines of a given width and the
chat line at its limit, and the lobby naming the shared table where the player holds a
seat."""

from __future__ import annotations

import asyncio
import io
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from table_helpers import TableClient, name_player, running_service
from textual.app import App, ComposeResult
from textual.widgets import Button, DataTable, Input, RichLog

from trash_tui.app.app import create_app
from trash_tui.app.screens.lobby import LobbyScreen
from trash_tui.app.shared.board import SharedBoardScreen
from trash_tui.app.shared.chat import ChatLine, chat_text
from trash_tui.app.shared.link import TablesLink, TableUpdate
from trash_tui.app.shared.tables_screen import (
    COLUMNS,
    NewTableScreen,
    TablesScreen,
    column_widths,
    cut,
)
from trash_tui.app.shared.waiting_room import HINT_WIDTH, TableWaitingScreen
from trash_tui.settings import Settings
from trash_tui.tables import service as service_module
from trash_tui.tables import table as table_module


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
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")


def player_app(service, identity: str, join: str | None = None):
    link = TablesLink(str(service.socket_path), service.register(identity), join)
    return create_app(settings=Settings(animation="off"), owner=identity, remote=True,
                      tables=link)


async def until(pilot, check, limit: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not check():
        assert loop.time() < deadline, "the screen never got there"
        await pilot.pause(0.05)


async def to_tables(pilot) -> TablesScreen:
    app = pilot.app
    await until(pilot, lambda: app.tables_link.connected)
    await pilot.press("t")
    await until(pilot, lambda: isinstance(app.screen, TablesScreen))
    return app.screen


LONG_TABLE = {"name": "The long Friday night game", "clock": 0,
              "seats": ["human", "human", "normal", "hard", "human", "easy"]}


# --- 1. the Tables list's columns ------------------------------------------------------
@pytest.mark.parametrize("size", [(80, 24), (100, 32), (160, 48)])
async def test_every_column_of_the_tables_list_fits_and_the_status_is_whole(
        tmp_path: Path, size: tuple[int, int]) -> None:
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": LONG_TABLE})
        await ann.wait_for("created")
        app = player_app(service, "key:bob")
        async with app.run_test(size=size) as pilot:
            screen = await to_tables(pilot)
            await until(pilot, lambda: bool(screen.tables))
            await pilot.pause(0.1)
            table = screen.query_one(DataTable)
            widths = [column.get_render_width(table) for column in table.columns.values()]
            assert [str(c.label) for c in table.columns.values()] == list(COLUMNS)
            assert sum(widths) <= table.size.width  # the spectators' column is in sight
            row = [str(cell) for cell in table.get_row_at(0)]
            assert row[COLUMNS.index("Status")] == "waiting" and row[-1] == "0"
            assert row[COLUMNS.index("Host")] == "Ann"
            assert row[COLUMNS.index("Rules")] == "standard"
            seats = row[COLUMNS.index("Seats")]
            if size[0] >= 100:  # the room is used
                assert row[0] == LONG_TABLE["name"]
            if size[0] >= 160:
                assert seats.endswith("bot easy")
            else:
                assert seats.endswith("…")


def test_the_columns_cut_the_seats_and_rules_never_the_status() -> None:
    cells = [{"Table": "A very long name of a table", "Host": "Somebody Long",
              "Rules": "discard-when-playable", "Seats": "Ann, Bob, ○ open, bot normal, " * 3,
              "Status": "playing deal 12", "👁": "12"}]
    for room in (60, 78, 98, 158):
        widths = column_widths(cells, room)
        assert widths["Status"] == len("playing deal 12") and widths["👁"] == 2
        assert sum(widths.values()) + 2 * len(COLUMNS) <= room or room < 70
    narrow, wide = column_widths(cells, 78), column_widths(cells, 158)
    assert narrow["Seats"] < wide["Seats"] and narrow["Rules"] < wide["Rules"]
    assert cut("discard-when-playable", 10) == "discard-w…"
    assert cut("short", 10) == "short"


# --- 2. a late update of a table just left opens nothing -------------------------------
async def test_a_stale_update_of_a_table_just_left_opens_nothing(tmp_path: Path) -> None:
    """Bob joins Ann's table, leaves it; a broadcast of that table arriving late (reset
    false) leaves him on the Tables screen; his new table opens its own waiting room."""
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": {"name": "Ann's game", "clock": 0,
                                                   "seats": ["human", "human", "human"]}})
        created = await ann.wait_for("created")
        app = player_app(service, "key:bob")
        async with app.run_test(size=(100, 32)) as pilot:
            tables = await to_tables(pilot)
            await until(pilot, lambda: bool(tables.tables))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))
            stale = app.screen.update  # the table as Bob last heard of it
            await pilot.press("escape")  # Bob leaves Ann's table
            await until(pilot, lambda: app.screen is tables)
            assert stale["table"]["id"] == created["table"]
            app.post_message(TableUpdate({**stale, "reset": False}))  # a broadcast, late
            await pilot.pause(0.2)
            assert app.screen is tables
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, NewTableScreen))
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))
            assert app.screen.update["table"]["name"] == "Bob's table"


async def test_only_the_table_asked_for_opens(tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": {"name": "Ann's game", "clock": 0,
                                                   "seats": ["human", "human"]}})
        created = await ann.wait_for("created")
        update = ann.last_update()
        assert update is not None
        app = player_app(service, "key:bob")
        async with app.run_test(size=(100, 32)) as pilot:
            tables = await to_tables(pilot)
            tables.asked = {"op": "join", "table": created["table"] + 1}
            app.post_message(TableUpdate({**update, "reset": True}))  # another's answer
            await pilot.pause(0.1)
            assert app.screen is tables
            tables.asked = {"op": "join", "table": created["table"]}
            app.post_message(TableUpdate({**update, "reset": True}))
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))


# --- 3. the new-table form -------------------------------------------------------------
@pytest.mark.parametrize("size", [(100, 32), (160, 48)])
async def test_the_new_table_form_fits_without_scrolling(tmp_path: Path,
                                                         size: tuple[int, int]) -> None:
    async with running_service(tmp_path) as service:
        app = player_app(service, "key:bob")
        async with app.run_test(size=size) as pilot:
            await to_tables(pilot)
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, NewTableScreen))
            await pilot.pause(0.1)
            form = app.screen
            assert form.query_one("#new-form").max_scroll_y == 0
            for button in form.query(Button):
                assert form.region.contains_region(button.region)


async def test_the_new_table_form_at_80x24_shows_its_buttons(tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        app = player_app(service, "key:bob")
        async with app.run_test(size=(80, 24)) as pilot:
            await to_tables(pilot)
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, NewTableScreen))
            await pilot.pause(0.1)
            form = app.screen
            assert form.query_one("#new-form").max_scroll_y == 0  # four seats: no scroll
            for button in form.query(Button):
                assert form.region.contains_region(button.region)


async def test_the_new_table_name_is_the_one_it_gets(tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        app = player_app(service, "key:bob")
        async with app.run_test(size=(100, 32)) as pilot:
            await to_tables(pilot)
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, NewTableScreen))
            form = app.screen
            assert form.query_one("#new-name").value == "Bob's table"
            assert not form.query_one("#new-name").placeholder
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))
            assert app.screen.update["table"]["name"] == "Bob's table"


# --- 4. the waiting room's join hint ---------------------------------------------------
class _Link:
    def __init__(self, welcome: dict[str, Any] | None, web_url: str | None = None) -> None:
        self.welcome = welcome
        self.web_url = web_url

    def send(self, message: Any) -> bool:
        return False


def hint(welcome: dict[str, Any] | None, web_url: str | None = None) -> list[str]:
    screen = TableWaitingScreen(_Link(welcome, web_url), {"table": {}}, host=True)  # type: ignore[arg-type]
    return screen.join_hint("K9NR")


def test_the_join_hint_is_a_command_that_works_as_typed() -> None:
    address = {"host": "play.example.org", "port": 2222}
    assert hint({"op": "welcome", "address": address}) == [
        "Code K9NR: j in Tables, or ssh -p 2222 K9NR@play.example.org"]
    assert hint({"address": {"host": "play.example.org", "port": 22}}) == [
        "Code K9NR: j in Tables, or ssh K9NR@play.example.org"]
    for welcome in (None, {}, {"address": None}, {"address": {"port": 2222}}):
        lines = hint(welcome)
        assert lines == ["Code K9NR: friends press j in Tables and type it."]
    long_host = "a-rather-long-host-name.games.example.org"
    lines = hint({"address": {"host": long_host, "port": 22022}})
    assert lines[-1].strip() == f"ssh -p 22022 K9NR@{long_host}"
    assert all(len(line) <= HINT_WIDTH for line in hint({"address": address}))
    assert "this-server" not in " ".join(hint(None))


def test_with_the_web_face_on_the_join_hint_gives_both_ways_each_on_one_line() -> None:
    """Issue 39: ``ssh -p PORT CODE@HOST`` and ``URL/t/CODE``, each on a line of its own
    that fits the waiting box at 80 columns."""
    address = {"host": "play.example.org", "port": 2222}
    web = "https://play.example.org"
    assert hint({"address": address}, web) == [
        "Code K9NR: j in Tables, or ssh -p 2222 K9NR@play.example.org",
        "or in a browser: https://play.example.org/t/K9NR"]
    assert hint(None, "http://trash.example") == [
        "Code K9NR: j in Tables, or in a browser: http://trash.example/t/K9NR"]
    assert hint(None, web) == ["Code K9NR: j in Tables, or join with",
                               "  https://play.example.org/t/K9NR"]
    long_host = "a-rather-long-host-name.games.example.org"
    lines = hint({"address": {"host": long_host, "port": 22022}},
                 f"https://{long_host}:8443")
    assert lines == ["Code K9NR: j in Tables, or join with",
                     f"  ssh -p 22022 K9NR@{long_host}",
                     f"  https://{long_host}:8443/t/K9NR"]
    assert all(len(line) <= HINT_WIDTH for line in lines)


async def test_the_waiting_room_shows_the_servers_address_on_one_line(tmp_path: Path
                                                                      ) -> None:
    async with running_service(tmp_path) as service:
        app = player_app(service, "key:bob")
        async with app.run_test(size=(80, 24)) as pilot:
            await to_tables(pilot)
            app.tables_link.welcome = {**(app.tables_link.welcome or {}),
                                       "address": {"host": "play.example.org",
                                                   "port": 2222}}
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, NewTableScreen))
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))
            waiting = app.screen
            info = waiting.query_one("#waiting-table")
            await until(pilot, lambda: "K7QX" in str(info.render()))
            shown = [strip.text.rstrip() for strip in info.render_lines(info.region.reset_offset)]
            line = next(text for text in shown if "ssh" in text)
            assert line.strip() == "Code K7QX: j in Tables, or ssh -p 2222 K7QX@play.example.org"


async def test_the_operators_notice_and_motd_in_the_waiting_room_and_the_tables_screen(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        app = player_app(service, "key:bob")
        async with app.run_test(size=(80, 24)) as pilot:
            tables = await to_tables(pilot)
            service.set_motd("Cup final \x1b[1mSunday")  # from trash admin motd
            title = tables.query_one("#tables-title")
            await until(pilot, lambda: "Cup final [1mSunday" in str(title.render()))
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, NewTableScreen))
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))
            waiting = app.screen
            assert service.say("Restart in ten minutes", 30.0) == 1
            await until(pilot, lambda: bool(waiting.query("#server-notice")))
            assert service.say("Restart in five minutes", 1.0) == 1  # a second, at once
            box = waiting.query_one("#server-notice")
            await until(pilot, lambda: "Restart in five minutes" in str(box.render()))
            assert len(waiting.query("#server-notice")) == 1
            assert waiting.query_one(RichLog).region.area > 0  # the room's log stays
            for name in ("#waiting-table", "#waiting-chat"):
                assert not box.region.overlaps(waiting.query_one(name).region), name
            await pilot.pause(1.3)
            assert not waiting.query("#server-notice")  # gone after its time


async def test_the_motd_is_a_line_in_the_lobby_set_changed_and_cleared_while_it_is_up(
        tmp_path: Path) -> None:
    """The operator's message of the day is a line under the lobby's title (no toast
    over the form), changes while the lobby is up, goes when cleared, and is cleaned."""
    async with running_service(tmp_path) as service:
        service.set_motd("Cup final \x1b[1mSunday")  # set before the player arrives
        app = player_app(service, "key:bob")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            lobby = app.screen
            line = lobby.query_one("#lobby-motd")
            await until(pilot, lambda: "Cup final [1mSunday" in str(line.render()))
            assert line.display and line.region.height == 1 and not lobby.query("Toast")
            title, form = lobby.query_one("#lobby-title"), lobby.query_one("#lobby-form")
            assert line.region.y > title.region.y and not line.region.overlaps(form.region)
            assert lobby.query_one("#lobby-quit").region.bottom <= 22  # footer untouched

            service.set_motd("Restart at noon")
            await until(pilot, lambda: "Restart at noon" in str(line.render()))
            service.set_motd(None)
            await until(pilot, lambda: not line.display)
            assert not lobby.query("Toast")


# --- 5. chat lines ---------------------------------------------------------------------
def rows(text, width: int) -> int:
    return len(text.wrap(Console(file=io.StringIO(), width=width), width))


def test_a_long_chat_line_takes_two_rows_of_a_narrow_log_and_all_of_a_wide_one() -> None:
    message = {"op": "chat", "from": "Ann", "text": ("blah " * 40).strip()}
    whole = chat_text(message)
    assert whole.plain.endswith("blah") and rows(whole, 32) > 2
    for width in (20, 32, 50):
        line = chat_text(message, width)
        assert rows(line, width) <= 2 and line.plain.endswith("…")
        assert line.plain.startswith("💬 Ann: blah")
    one_word = chat_text({"from": "Ann", "text": "x" * 200}, 32)
    assert rows(one_word, 32) <= 2
    short = chat_text({"from": "Ann", "text": "hi"}, 32)
    assert short.plain == "💬 Ann: hi"
    assert chat_text({"from": "A\x1b[2Jnn", "text": "hi\x07"}, 32).plain == "💬 A[2Jnn: hi"


def test_an_earlier_chat_line_is_marked_and_dimmed() -> None:
    line = chat_text({"op": "chat", "from": "Ann", "text": "hello", "earlier": True})
    assert "earlier" in line.plain and "dim" in str(line.style)
    now = chat_text({"op": "chat", "from": "Ann", "text": "hello"})
    assert "earlier" not in now.plain and "dim" not in str(now.style)


class ChatApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ChatLine(max_length=10, id="chat")


async def test_the_chat_line_says_when_it_is_full_and_cuts_a_paste_to_fit() -> None:
    app = ChatApp()
    async with app.run_test(size=(100, 5)) as pilot:
        chat = app.query_one(ChatLine)
        chat.focus()
        await pilot.press(*"abcdefghij")
        assert chat.value == "abcdefghij" and not chat.full
        await pilot.press("k")
        assert chat.value == "abcdefghij" and chat.full
        await pilot.pause()
        text = chat.render_line(0).text
        assert "10 characters at most" in text and "j" in text  # the end still shows
        await pilot.press("backspace")
        assert not chat.full
        chat.value = ""
        chat.insert_text_at_cursor("0123456789ABCDEF")  # a paste: what fits is kept
        assert chat.value == "0123456789" and chat.full


# --- 6. the lobby names a seat held at a shared table ----------------------------------
async def test_the_lobby_names_the_shared_table_of_a_seat_held_and_c_goes_back(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": {"seats": ["human", "human"],
                                                   "clock": 0}})
        created = await ann.wait_for("created")
        app = player_app(service, "key:bob", join=created["code"])
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            for _ in range(3):  # Bob leaves the board (asked first; the stand-in plays)
                if isinstance(app.screen, SharedBoardScreen):
                    await pilot.press("escape")
                    await pilot.pause(0.1)
            await until(pilot, lambda: isinstance(app.screen, TablesScreen))
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            lobby = app.screen
            note = lobby.query_one("#lobby-continue-note")
            await until(pilot, lambda: "hold a seat" in str(note.render()))  # "mine"
            assert "Ann's table" in str(note.render()) and "c goes back" in str(note.render())
            assert not lobby.query_one("#lobby-continue", Button).disabled
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            assert app.screen.shared.names[:2] == ["Ann", "Bob"]


async def test_the_lobby_without_a_seat_held_says_no_unfinished_match(tmp_path: Path
                                                                      ) -> None:
    async with running_service(tmp_path) as service:
        app = player_app(service, "key:bob")
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: app.tables_link.connected)
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await pilot.pause(0.5)
            assert "No unfinished match." in str(lobby.query_one("#lobby-continue-note")
                                                 .render())
            assert not lobby.check_action("continue_match", ())


async def test_the_new_table_form_takes_the_name_typed_at_once(tmp_path: Path) -> None:
    """A new table's form opens with the cursor in its name: what the player types
    names the table, without a Tab first (keys went to the scrolling form before)."""
    async with running_service(tmp_path) as service:
        app = player_app(service, "key:bob")
        async with app.run_test(size=(80, 24)) as pilot:
            await to_tables(pilot)
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, NewTableScreen))
            await pilot.pause(0.1)
            name = app.screen.query_one("#new-name", Input)
            await pilot.press("ctrl+u", *"Quiz night")
            assert name.value == "Quiz night"
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))
            assert app.screen.update["table"]["name"] == "Quiz night"
