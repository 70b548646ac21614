"""The browser face's journeys (issue 39) in a real headless Chromium: people who arrive at
``trash serve``'s page and act there, as the SSH journeys (tests/test_journeys.py) do
through OpenSSH in tmux — each journey's result is checked in the server's history
database (the server is another process: its only oracle) or on the other person's screen.

A new visitor names themselves (the page's cookie is then that player; the page loads
nothing but the server's files) and plays a match against bots; a click, a finger's tap
and a larger window reach the app; two browsers with profiles
of their own sit at one table by the link its waiting room shows (``/t/CODE``) and see each
other's move and chat line (HTML in a chat line stays text); a browser and an OpenSSH
client at one table, the same both ways; a link code from the SSH lobby makes a browser
that key's player; closing the tab on one's turn (the stand-in moves, the seat is held)
and coming back with the plain address; a stale cookie and wrong links, each one line on
the page. A WebSocket from another origin is refused (no browser needed: aiohttp's client
sets the Origin header). The first screen and a board
are kept as screenshots at 1024×700 and 1600×1000 (see browser_helpers for where).

One server serves the whole file (each test has people of its own names). Skipped outside
CI where Chromium or its driver is missing; under CI=true that fails.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import aiohttp
import pytest
from browser_helpers import (
    COOKIE,
    LARGE,
    SMALL,
    Visitor,
    WebServer,
    artifacts_folder,
    draw_seen,
)
from journey_helpers import (
    FIRST_SCREEN,
    LOBBY,
    STAND_IN_MOVES,
    STEP,
    TABLES_TITLE,
    Person,
    Table,
    create_table,
)
from test_ssh_openssh import NAME_PROMPT, wait_until

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    running = WebServer(tmp_path_factory.mktemp("web-server"))
    try:
        running.start()
        yield running
    finally:
        running.kill()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return artifacts_folder(tmp_path_factory)


@pytest.fixture
def visitors(tmp_path: Path, server: WebServer, artifacts: Path
             ) -> Iterator[Callable[..., Visitor]]:
    """``visitors(name, size=SMALL)``: someone in a browser of their own; every browser is
    closed at the end."""
    made: list[Visitor] = []

    def visitor(name: str, size: tuple[int, int] = SMALL) -> Visitor:
        made.append(Visitor(tmp_path, server, name, artifacts, size))
        return made[-1]

    try:
        yield visitor
    finally:
        for one in made:
            one.quit()


def test_a_new_visitor_names_themselves_and_plays_a_match_against_bots(
        server: WebServer, visitors: Callable[..., Visitor]) -> None:
    ann = visitors("Ann")
    ann.open("/")
    ann.sees(NAME_PROMPT, timeout=FIRST_SCREEN)
    ann.screenshot("first-screen")
    loaded = ann.resources()
    assert loaded, "the page loaded no script, style or font"
    assert all(url.startswith(server.url + "/") for url in loaded), loaded  # nothing else
    assert any(url.endswith(".ttf") for url in loaded), f"no font of the server's: {loaded}"
    cookie = ann.cookie()
    assert cookie is not None and cookie["httpOnly"] and cookie.get("sameSite") == "Lax"

    ann.name_if_asked()
    assert ann.identity.startswith("web:"), ann.identity
    assert server.browser_identity(cookie["value"]) == ann.identity  # the cookie is Ann
    ann.sees(LOBBY, timeout=FIRST_SCREEN)
    ann.pane.press("n")  # a new match against the bots
    ann.sees("Stock", timeout=STEP)
    match = wait_until(lambda: server.match_of(ann.identity), STEP,
                       "Ann's match in the history database")
    assert isinstance(match, int)
    table = Table(server, [ann])
    table.match_id = match
    table.moves(ann)  # her draw, with her keyboard, saved
    table.moves(ann)  # and her next turn's, after the bots'
    ann.screenshot("board")
    assert server.match_of(ann.identity) == match


def test_the_mouse_a_tap_and_the_window_size_reach_the_app(
        server: WebServer, visitors: Callable[..., Visitor]) -> None:
    """A click on the lobby's "Tables" opens the Tables screen; so does a finger's tap
    (the page makes taps clicks); a larger window gives the app a larger screen, drawn to
    its new edges."""
    kay = visitors("Kay")
    kay.arrive()
    kay.click("Tables")
    kay.sees(TABLES_TITLE)
    kay.pane.press("Escape")
    kay.sees(LOBBY)
    kay.click("Tables", tap=True)
    kay.sees(TABLES_TITLE)
    kay.pane.press("Escape")
    kay.sees(LOBBY)

    small = kay.pane.size()
    assert small is not None
    kay.resize(LARGE)
    large = wait_until(lambda: (size := kay.pane.size()) != small and size, STEP,
                       "the terminal to take the larger window")
    assert isinstance(large, tuple) and large[0] > small[0] and large[1] > small[1], large

    def footer_at_the_new_edges() -> bool:  # the app drew its footer on the last row
        rows = (kay.pane.screen() or "").splitlines()
        return len(rows) == large[1] and rows[-1].rstrip().endswith("palette") and \
            len(rows[-1].rstrip()) > small[0]

    wait_until(footer_at_the_new_edges, STEP, "the app's footer at the new size")
    kay.sees(LOBBY)
    kay.screenshot("lobby")


def test_two_browsers_sit_at_one_table_by_its_link_and_see_each_others_move_and_chat(
        server: WebServer, visitors: Callable[..., Visitor]) -> None:
    cy, dee = visitors("Cy"), visitors("Dee", LARGE)
    cy.arrive()
    code = create_table(cy)
    link = f"{server.url}/t/{code}"
    cy.sees(link)  # the waiting room's way in for a browser
    dee.open(link.removeprefix(server.url))  # the link a friend opens
    dee.sees(NAME_PROMPT, timeout=FIRST_SCREEN)
    dee.screenshot("first-screen")
    dee.name_if_asked()
    dee.sees("Stock", "Cy", timeout=FIRST_SCREEN)
    assert cy.identity != dee.identity
    table = Table(server, [cy, dee])
    draw_seen(table, cy, [dee])
    draw_seen(table, dee, [cy])
    dee.screenshot("board")
    assert server.match_of(cy.identity) == server.match_of(dee.identity) == table.match()
    table.chat(cy, "hi from cy", [dee])
    # what a player types is shown as text on the other's page, never made into HTML
    table.chat(dee, "<b>hi</b> <img src=x>", [cy])
    for one in (cy, dee):
        assert one.driver.execute_script(
            "return document.querySelectorAll('b, img').length") == 0


@pytest.mark.skipif(shutil.which("ssh") is None or shutil.which("tmux") is None,
                    reason="needs the OpenSSH client (ssh) and tmux installed "
                           "(apt-get install openssh-client tmux)")
def test_a_browser_and_an_openssh_client_sit_at_one_table(
        tmp_path: Path, server: WebServer, visitors: Callable[..., Visitor]) -> None:
    eve = Person(tmp_path, server, "Eve", known=True)  # ssh in tmux at 80x24
    try:
        eve.arrive(server)
        code = create_table(eve)
        link = f"{server.url}/t/{code}"
        assert any(link in row for row in eve.text_rows()), eve.text()  # one line at 80
        fay = visitors("Fay")
        fay.open(f"/t/{code}")
        fay.name_if_asked()
        fay.sees("Stock", "Eve", timeout=FIRST_SCREEN)
        table = Table(server, [eve, fay])
        draw_seen(table, eve, [fay])
        draw_seen(table, fay, [eve])
        assert server.match_of(eve.identity) == server.match_of(fay.identity)
        table.chat(eve, "hi from ssh", [fay])
        table.chat(fay, "hi from the web", [eve])
    finally:
        eve.pane.kill()


@pytest.mark.skipif(shutil.which("ssh") is None or shutil.which("tmux") is None,
                    reason="needs the OpenSSH client (ssh) and tmux installed "
                           "(apt-get install openssh-client tmux)")
def test_a_link_code_from_the_ssh_lobby_makes_a_browser_the_same_player(
        tmp_path: Path, server: WebServer, visitors: Callable[..., Visitor]) -> None:
    """Max, over SSH with his key, asks the lobby for a browser link (``b``); his browser
    opens it and is Max from then on: no name asked, his identity, his matches."""
    max_ = Person(tmp_path, server, "Max", known=True)
    try:
        max_.arrive(server)
        max_.pane.press("b")
        found = wait_until(
            lambda: re.search(rf"{re.escape(server.url)}/link/([A-Z2-9]{{8}})", max_.text()),
            STEP, "the link code on Max's lobby")
        assert isinstance(found, re.Match)
        browser = visitors("Max")
        browser.open(found.group(0).removeprefix(server.url))
        browser.sees(LOBBY, timeout=FIRST_SCREEN)  # no name asked: he is known
        assert NAME_PROMPT not in browser.text()
        cookie = browser.cookie()
        assert cookie is not None and server.browser_identity(cookie["value"]) == max_.identity
        browser.identity, browser.known = max_.identity, True
        browser.pane.press("n")  # a match, in the browser, as Max
        browser.sees("Stock", timeout=STEP)
        match = wait_until(lambda: server.match_of(max_.identity), STEP,
                           "a match of Max's key in the history database")
        assert isinstance(match, int)
        table = Table(server, [browser])
        table.match_id = match
        table.moves(browser)
    finally:
        max_.pane.kill()


def test_closing_the_tab_on_ones_turn_the_stand_in_plays_and_one_comes_back_to_the_seat(
        server: WebServer, visitors: Callable[..., Visitor]) -> None:
    gus, ivy = visitors("Gus"), visitors("Ivy")
    gus.arrive()
    code = create_table(gus)
    ivy.open(f"/t/{code}")
    ivy.name_if_asked()
    ivy.sees("Stock", timeout=FIRST_SCREEN)
    table = Table(server, [gus, ivy])
    table.moves(ivy)

    saved = table.turn_of(ivy)
    ivy.close_tab()  # on her own turn
    table.wait(lambda: table.saved() > saved, STAND_IN_MOVES,
               f"the stand-in's move for Ivy (saved: {saved})", shown=gus)
    table.wait(lambda: "Ivy lost the connection" in gus.text(), STEP,
               "'Ivy lost the connection' on Gus's screen", shown=gus)
    table.wait(lambda: re.search(r"stand-in.*\bIvy\b", gus.text()), STEP,
               "Ivy's seat kept for her, the stand-in playing it, on Gus's status line",
               shown=gus)
    ivy.open("/")  # the plain address, in a new tab of the same browser: her seat
    ivy.sees("Stock", timeout=FIRST_SCREEN)
    table.moves(ivy)
    table.moves(gus)
    assert server.match_of(ivy.identity) == server.match_of(gus.identity) == table.match()


def test_a_stale_cookie_and_wrong_links_are_each_one_line_and_the_visitor_goes_on(
        server: WebServer, visitors: Callable[..., Visitor]) -> None:
    """A browser whose cookie the server does not know (a stale token) is told in one line
    that it starts as a new player, and is one (the name prompt, a cookie that is that
    player); a link whose code cannot be one says so in one line over the lobby; a link to
    a table that is not there is one line in the app, whose keys still work."""
    jo = visitors("Jo")
    jo.open("/health")  # (on the site: a cookie can be set for it)
    stale = "S" * 43
    jo.driver.add_cookie({"name": COOKIE, "value": stale, "path": "/"})
    jo.open("/")
    jo.page_says("starts as a new player")
    jo.name_if_asked()
    cookie = jo.cookie()
    assert cookie is not None and cookie["value"] != stale
    assert server.browser_identity(cookie["value"]) == jo.identity
    jo.sees(LOBBY, timeout=FIRST_SCREEN)

    jo.open("/t/not-a-code!")
    jo.page_says("code is not one")
    jo.sees(LOBBY, timeout=FIRST_SCREEN)
    jo.open("/t/QQQQ")  # a code, but no table has it
    jo.sees("no open table has the code", timeout=FIRST_SCREEN)
    jo.open_tables()  # the app goes on: its keys work
    assert server.browser_identity(cookie["value"]) == jo.identity  # the same player


async def test_a_websocket_from_another_origin_is_refused(server: WebServer) -> None:
    """No session starts for a WebSocket whose Origin is another site's (a page elsewhere
    cannot play as the visitor whose cookie it sends): the upgrade is refused, or a
    ``refused`` line comes before the close. From the page's own origin the same request
    gets the app's screen."""
    jar = aiohttp.CookieJar(unsafe=True)  # (keeps cookies of an IP address's site)
    socket_url = f"{server.url}/ws?width=80&height=24"
    async with aiohttp.ClientSession(cookie_jar=jar) as client:
        async with client.get(f"{server.url}/") as page:
            assert page.status == 200
        frames: list[aiohttp.WSMessage] = []
        try:
            async with client.ws_connect(socket_url, origin="http://evil.example") as ws:
                async for frame in ws:
                    frames.append(frame)
        except aiohttp.WSServerHandshakeError as refused:
            assert refused.status == 403, refused
        else:
            assert frames and frames[0].type == aiohttp.WSMsgType.TEXT, frames
            assert frames[0].json()[0] == "refused", frames[0].data
            assert "origin" in frames[0].json()[1].lower(), frames[0].data
            assert all(frame.type != aiohttp.WSMsgType.BINARY for frame in frames), frames
        async with client.ws_connect(socket_url, origin=server.url) as ws:
            first = await ws.receive(timeout=FIRST_SCREEN)
            while first.type == aiohttp.WSMsgType.TEXT:
                first = await ws.receive(timeout=FIRST_SCREEN)
            assert first.type == aiohttp.WSMsgType.BINARY, first  # the app's output
