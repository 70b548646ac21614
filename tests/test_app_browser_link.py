"""The SSH lobby's "Play in a browser" (issue 39): with the server's web face on, a player
over SSH with a key gets a one-time link (``URL/link/CODE``) on one line of the lobby at 80
columns, through the table service's ``link_code`` request; opened, it makes a browser that
player. Nobody else is offered it: a guest (nothing to keep), a browser's own session, a
server with no web face."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from table_helpers import FAST, name_player

from trash_tui.app.app import create_app
from trash_tui.app.screens.lobby import LobbyScreen
from trash_tui.app.screens.remote import NameScreen
from trash_tui.app.shared.browser import LINE_WIDTH, link_line
from trash_tui.app.shared.link import TablesLink, web_address
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.settings import Settings
from trash_tui.tables.service import TableService
from trash_tui.tables.worker import Worker
from trash_tui.web.identity import Browsers

KEY = "SHA256:annskeyannskeyannskey"
URL = "https://play.example.org:8443"


@pytest.fixture(autouse=True)
def _history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRASH_TUI_HISTORY", str(tmp_path / "history.sqlite3"))
    name_player(tmp_path, KEY, "Ann")


@contextlib.asynccontextmanager
async def web_faced(folder: Path) -> AsyncIterator[tuple[TableService, Browsers]]:
    worker = Worker(folder / "history.sqlite3")
    browsers = Browsers(worker)
    service = TableService(folder / "history.sqlite3", FAST, worker=worker,
                           link_codes=browsers)
    await service.start()
    try:
        yield service, browsers
    finally:
        await service.stop()


def app_of(service: TableService, identity: str, web_url: str | None = URL,
           way: str = "ssh"):
    link = TablesLink(str(service.socket_path), service.register(identity), web_url=web_url,
                      way=way)
    return create_app(settings=Settings(animation="off"), owner=identity, remote=True,
                      tables=link)


async def until(pilot, check, limit: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not check():
        assert loop.time() < deadline, "the screen never got there"
        await pilot.pause(0.05)


async def to_lobby(pilot) -> None:
    """The lobby, linked (a player with no name yet keeps the suggested one)."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen | NameScreen))
    if isinstance(app.screen, NameScreen):
        await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and
                app.tables_link.connected)


def footer_keys(app) -> list[str]:
    return [key.description for key in app.screen.query_one(TrashFooter).shown_keys()
            if not key.palette]


def palette_titles(app) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


async def test_b_in_the_lobby_shows_a_link_on_one_line_that_makes_a_browser_this_player(
        tmp_path: Path) -> None:
    async with web_faced(tmp_path) as (service, browsers):
        app = app_of(service, KEY)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_lobby(pilot)
            assert "Play in a browser" in footer_keys(app)
            assert "Play in a browser" in palette_titles(app)
            await pilot.press("b")
            line = app.screen.query_one("#lobby-browser")
            await until(pilot, lambda: "/link/" in str(line.render()))
            text = str(line.render())
            found = re.search(rf"{re.escape(URL)}/link/([A-Z2-9]{{8}})\b", text)
            assert found, text
            assert text.endswith("(one use, 10 min)")
            assert len(text) <= LINE_WIDTH and line.region.height == 1
            token, _ = await browsers.new()
            assert await browsers.link(token, found.group(1)) == KEY  # the browser is Ann


@pytest.mark.parametrize(("identity", "web_url", "way"), [
    ("guest:0123456789abcdef", URL, "ssh"),  # nothing kept for a guest
    (KEY, URL, "web"),  # the session is a browser's already
    ("web:0123456789abcdef", URL, "ssh"),  # (a browser's own player)
    (KEY, None, "ssh"),  # no web face
], ids=["guest", "browser-session", "web-player", "no-web-face"])
async def test_nobody_else_is_offered_a_browser_link(tmp_path: Path, identity: str,
                                                     web_url: str | None, way: str) -> None:
    async with web_faced(tmp_path) as (service, _browsers):
        app = app_of(service, identity, web_url, way)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_lobby(pilot)
            assert "Play in a browser" not in footer_keys(app)
            assert "Play in a browser" not in palette_titles(app)
            await pilot.press("b")
            await pilot.pause(0.3)
            assert str(app.screen.query_one("#lobby-browser").render()) == ""


async def test_a_refused_code_is_said_on_the_same_line(tmp_path: Path) -> None:
    async with web_faced(tmp_path) as (service, _browsers):
        service.requests.linking.codes = _Refusing()
        app = app_of(service, KEY)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_lobby(pilot)
            await pilot.press("b")
            line = app.screen.query_one("#lobby-browser")
            await until(pilot, lambda: "no codes today" in str(line.render()))
            assert line.has_class("-error") and "\x1b" not in str(line.render())


async def test_a_code_refused_while_a_link_is_shown_leaves_the_link(tmp_path: Path) -> None:
    async with web_faced(tmp_path) as (service, _browsers):
        app = app_of(service, KEY)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_lobby(pilot)
            await pilot.press("b")
            line = app.screen.query_one("#lobby-browser")
            await until(pilot, lambda: "/link/" in str(line.render()))
            shown = str(line.render())
            for _ in range(5):  # (five codes a minute)
                await pilot.press("b")
            notice = app.screen.query_one("#lobby-notice")
            await until(pilot, lambda: "wait a minute" in str(notice.render()))
            assert "/link/" in str(line.render()) and not line.has_class("-error")
            assert str(line.render()) != shown  # (the newest link)


class _Refusing:
    code_minutes = 10

    async def make_code(self, identity: str) -> str:
        raise ValueError("no codes today \x1b[2J")


def test_the_link_line_fits_80_columns_and_never_cuts_the_link() -> None:
    for url in ("http://localhost:8080", URL, "https://trash.a-rather-long-club-name.example",
                "https://" + "x" * 70):
        line = link_line(url, "ABCD2345", 10)
        assert f"{url}/link/ABCD2345" in line
        assert len(line) <= LINE_WIDTH or line == f"{url}/link/ABCD2345"
    assert link_line("http://localhost:8080", "ABCD2345", 10) == (
        "In a browser: http://localhost:8080/link/ABCD2345 (one use, 10 minutes)")


def test_the_web_url_from_the_environment_is_a_plain_http_address_or_nothing() -> None:
    assert web_address("https://play.example.org/") == "https://play.example.org"
    assert web_address("http://127.0.0.1:8080") == "http://127.0.0.1:8080"
    for bad in (None, "", "javascript:alert(1)", "play.example.org", "http://a b",
                "ftp://x"):
        assert web_address(bad) is None
    assert web_address("http://evil\x1b[2J.org") == "http://evil[2J.org"
    link = TablesLink.from_environment({"TRASH_TUI_TABLES_SOCKET": "/s", "TRASH_TUI_TABLES_TOKEN":
                                        "t", "TRASH_WEB_URL": URL, "TRASH_WAY": "web"})
    assert link is not None and link.web_url == URL and link.way == "web"
    link = TablesLink.from_environment({"TRASH_TUI_TABLES_SOCKET": "/s",
                                        "TRASH_TUI_TABLES_TOKEN": "t"})
    assert link is not None and link.web_url is None and link.way == "ssh"
