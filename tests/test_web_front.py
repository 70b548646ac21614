"""The web face end to end, without a browser: the page and its files, and a browser's
session over the page's WebSocket (textual.js's wire) through the same runner as SSH."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import aiohttp
from ssh_helpers import eventually
from web_helpers import browser, web_serving
from yarl import URL

from trash_tui.players.rater import open_history
from trash_tui.web.front import COOKIE, NOT_A_CODE, STALE
from trash_tui.web.identity import new_token

LOBBY_TITLE = "Trash — the card game"
NAME_PROMPT = "Welcome to Trash!"
SLEEPER = (sys.executable, "-c", "import time; time.sleep(30)")  # a session's stand-in app


async def test_the_page_loads_its_own_files_under_a_strict_policy(tmp_path: Path) -> None:
    async with web_serving(tmp_path) as (_, front), browser(front) as visitor:
        status, text, headers = await visitor.get("/")
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        policy = headers["Content-Security-Policy"]
        assert "default-src 'none'" in policy and "script-src 'self';" in policy
        assert "frame-ancestors 'none'" in policy and f"ws://127.0.0.1:{front.port}" in policy
        # every file the page names is served here; nothing from another site
        assert "http" not in text.replace(f"ws://127.0.0.1:{front.port}/ws", "")
        files = re.findall(r'(?:src|href)="([^"]+)"', text)
        assert {"/static/trash.js", "/static/textual.js", "/static/xterm.css",
                "/static/trash.css"} <= set(files)
        for name in files:
            status, _, headers = await visitor.get(name)
            assert status == 200, name
        css = (await visitor.get("/static/trash.css"))[1]
        [font] = re.findall(r'url\("([^"]+)"\)', css)
        assert (await visitor.get(font))[0] == 200
        assert 'data-session-websocket-url="ws://127.0.0.1:' in text
        # the browser's player: a cookie kept by the browser, out of the page's scripts
        [cookie] = [c for c in visitor.http.cookie_jar if c.key == COOKIE]
        assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == "/"
        assert not cookie["secure"] and int(cookie["max-age"]) == 400 * 86400
        assert (await visitor.identity() or "").startswith("web:")
        # the same browser again: the same player, no new cookie
        status, _, headers = await visitor.get("/")
        assert status == 200 and "Set-Cookie" not in headers
        # the rest: one line
        status, text, _ = await visitor.get("/nothing/here")
        assert status == 404 and text.count("\n") == 1
        assert (await visitor.get("/static/../page.py"))[0] == 404
        assert (await visitor.get("/health"))[1] == "ok\n"


async def test_a_browser_names_itself_and_its_move_against_a_bot_is_saved(
        tmp_path: Path) -> None:
    async with web_serving(tmp_path) as (server, front), browser(front) as visitor:
        await visitor.get("/")
        identity = await visitor.quiet()
        await visitor.open()
        await visitor.read_until(NAME_PROMPT)
        [session] = server.sessions
        assert session.way == "web" and session.player == identity
        await visitor.type("\r")
        await visitor.read_until(LOBBY_TITLE, "New match")
        mark = len(visitor.output)
        await visitor.type("n")
        await visitor.read_until("Your move", since=mark)
        await visitor.type("s")

        def saved() -> bool:
            with open_history(front.state.config.history) as history:
                rows = history.matches.of_player(identity)
            return bool(rows) and rows[0].actions >= 1

        await eventually(saved, timeout=20)
        with open_history(front.state.config.history) as history:
            name = history.players.player_name(identity)
        assert name is not None and name.startswith("Player ")
        await visitor.type("\x1b")
        mark = len(visitor.output)
        for _ in range(5):
            await visitor.type("\x1b", pause=0.5)
            if "New match" in visitor.text(mark).replace(" ", " "):
                break
        await visitor.type("q")
        assert await visitor.until_closed() == 1000


async def test_a_stale_cookie_starts_a_new_player_and_the_page_says_so(tmp_path: Path) -> None:
    async with web_serving(tmp_path) as (_, front):
        # a token of another shape, and one shaped as this server's that it never made
        for stale in ("a-token-this-server-never-made", new_token()):
            async with browser(front) as visitor:
                visitor.http.cookie_jar.update_cookies({COOKIE: stale}, URL(visitor.base))
                status, text, headers = await visitor.get("/")
                assert status == 200 and "Set-Cookie" in headers
                assert f'<p id="status" role="status" aria-live="polite">{STALE}</p>' in text
                assert visitor.token != stale
                assert (await visitor.identity() or "").startswith("web:")
                status, text, _ = await visitor.get("/")  # known now: no line
                assert '<p id="status" role="status" aria-live="polite"></p>' in text


async def test_a_table_link_joins_by_its_code_and_a_wrong_one_says_so(tmp_path: Path) -> None:
    async with web_serving(tmp_path, command=SLEEPER) as (server, front), \
            browser(front) as visitor:
        status, text, _ = await visitor.get("/t/abcd")
        assert status == 200 and f"ws://127.0.0.1:{front.port}/ws?join=ABCD" in text
        await visitor.open("?join=ABCD")
        await eventually(lambda: server.session_count == 1)
        [session] = server.sessions
        assert session.username == "ABCD" and session.way == "web"
        status, text, _ = await visitor.get("/t/not-a-code")
        assert status == 200 and NOT_A_CODE in html.unescape(text) and "?join=" not in text
        status, text, _ = await visitor.get("/t/<script>")
        assert "<script>" not in text.split("<body>")[1]


async def test_a_link_code_makes_the_browser_the_ssh_keys_player(tmp_path: Path) -> None:
    async with web_serving(tmp_path, command=SLEEPER) as (_, front), \
            browser(front) as visitor:
        await visitor.get("/")
        key = "SHA256:" + "k" * 43
        code = await front.browsers.make_code(key)  # as the SSH lobby asks for one
        status, _, headers = await visitor.get(f"/link/{code}")
        assert status == 302 and headers["Location"] == "/"
        assert await visitor.identity() == key
        status, text, _ = await visitor.get(f"/link/{code}")  # used: one line
        assert status == 400 and text.startswith("trash: ") and text.count("\n") == 1
        assert await visitor.identity() == key


async def test_page_loads_keep_nothing_until_a_browser_starts_a_session(
        tmp_path: Path) -> None:
    """A crawler or a flood of page loads (each a new cookie) grows nothing in the history;
    the browser's first session keeps it."""

    def kept() -> list[str]:
        with open_history(front.state.config.history) as history:
            return [row[0] for row in history.db.execute("SELECT identity FROM browsers")]

    async with web_serving(tmp_path, command=SLEEPER, connections_per_minute=1000) as (
            server, front):
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as crawler:
            for _ in range(500):
                async with crawler.get(f"http://127.0.0.1:{front.port}/t/ABCD") as answer:
                    assert answer.status == 200 and COOKIE in answer.cookies
        assert kept() == []
        async with browser(front) as visitor:
            await visitor.get("/")
            await visitor.get("/")  # (its next page: the same player, still nothing kept)
            identity = await visitor.identity()
            assert identity is not None and kept() == []
            await visitor.open()
            await eventually(lambda: server.session_count == 1)
            [session] = server.sessions
            assert session.player == identity and kept() == [identity]
