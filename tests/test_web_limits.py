"""The web face's limits and safety without a browser: origin, sizes, half-open sockets,
floods, the slots it shares with SSH, bans, the operator's console, stopping, and that no
player's words reach a page as HTML."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

import aiohttp
import asyncssh
import pytest
from admin_helpers import admin_ok
from ssh_helpers import Terminal, connect, eventually
from web_helpers import browser, web_serving

from trash_tui.ssh.limits import address_full_message
from trash_tui.web import front as front_module
from trash_tui.web import listener
from trash_tui.web.page import HERE


def logged(folder: Path) -> list[dict[str, object]]:
    """The connection log's entries."""
    return [json.loads(line) for line in (folder / "ssh.log").read_text().splitlines()]


SLEEPER = (sys.executable, "-c", "import time; time.sleep(30)")  # a session's stand-in app
LOBBY_TITLE = "Trash — the card game"


async def test_a_socket_from_another_sites_page_is_refused_in_one_line(tmp_path: Path) -> None:
    async with web_serving(tmp_path, command=SLEEPER) as (server, front), \
            browser(front) as visitor:
        await visitor.get("/")
        for origin in ("http://evil.example", f"http://127.0.0.1:{front.port}.evil.example"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await visitor.open(origin=origin)
            assert refused.value.status == 403
        status, text, _ = await visitor.get("/ws", headers={
            "Origin": "http://evil.example", "Upgrade": "websocket", "Connection": "Upgrade",
            "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
        assert status == 403 and text == front_module.FOREIGN + "\n"
        assert server.session_count == 0
        assert server.state.metrics.refused_by_reason()["wrong origin"] == 3
        refused = [entry for entry in logged(tmp_path) if entry["event"] == "connection"]
        assert [entry["ended"] for entry in refused] == ["refused: wrong origin"] * 3
        assert all(entry["peer"].startswith("127.0.0.1:") for entry in refused)
        await visitor.open()  # its own page's origin: a session
        await eventually(lambda: server.session_count == 1)


async def test_an_oversized_message_closes_the_socket(tmp_path: Path) -> None:
    async with web_serving(tmp_path, command=SLEEPER) as (server, front), \
            browser(front) as visitor:
        await visitor.get("/")
        await visitor.open()
        await eventually(lambda: server.session_count == 1)
        await visitor.send("stdin", "x" * (front_module.MAX_MESSAGE + 1))
        assert await visitor.until_closed() == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
        await eventually(lambda: server.session_count == 0)


async def test_a_browser_that_stops_answering_is_dropped(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(front_module, "HEARTBEAT", 0.5)
    async with web_serving(tmp_path, command=SLEEPER) as (server, front), \
            browser(front) as visitor:
        await visitor.get("/")
        url = f"ws://127.0.0.1:{front.port}/ws?width=80&height=24"
        socket = await visitor.http.ws_connect(url, origin=visitor.base, autoping=False)
        await eventually(lambda: server.session_count == 1)
        # it never answers a ping (a half-open connection looks the same to the server)
        await eventually(lambda: server.session_count == 0, timeout=5)
        await socket.close()
        [line] = [line for line in (tmp_path / "ssh.log").read_text().splitlines()
                  if '"session"' in line]
        assert '"disconnected"' in line


async def test_a_slow_request_is_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    async with web_serving(tmp_path, command=SLEEPER) as (_, front):
        # (shorter for the connections made from now on; aiohttp's own keep-alive
        # timeout stays at its 10 s: it is not what closes these)
        monkeypatch.setattr(listener, "REQUEST_TIMEOUT", 0.5)
        reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the end
        await writer.drain()
        assert await asyncio.wait_for(reader.read(), 5) == b""  # closed by the server
        writer.close()
        # a header a byte at a time: the deadline is for the whole request
        reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
        writer.write(b"GET / HTTP/1.1\r\nX-Slow: ")
        started = asyncio.get_running_loop().time()
        with pytest.raises(ConnectionError):
            for _ in range(25):
                writer.write(b"a")
                await writer.drain()
                await asyncio.sleep(0.2)
                if reader.at_eof() or await _closed(reader):
                    raise ConnectionError("closed by the server")
        assert asyncio.get_running_loop().time() - started < 4
        writer.close()
        # a request line or header that is too long: one 4xx line, no work
        reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
        writer.write(b"GET /" + b"a" * 10000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 5)
        assert answer.startswith((b"HTTP/1.0 400", b"HTTP/1.1 400")), answer[:200]
        writer.close()


async def _closed(reader: asyncio.StreamReader) -> bool:
    """Whether the server has closed the connection (nothing else comes before)."""
    try:
        return await asyncio.wait_for(reader.read(1), 0.01) == b""
    except TimeoutError:
        return False


async def test_a_kept_alive_connection_that_sends_nothing_more_is_closed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listener, "REQUEST_TIMEOUT", 0.5)  # (the keep-alive timeout too)
    async with web_serving(tmp_path, command=SLEEPER) as (_, front):
        reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
        writer.write(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = await asyncio.wait_for(reader.read(), 5)  # then closed by the server
        assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"ok\n")
        writer.close()


async def test_a_flood_from_one_address_is_refused_early_without_a_session(
        tmp_path: Path) -> None:
    async with web_serving(tmp_path, command=SLEEPER, connections_per_minute=3) as (
            server, front), browser(front) as visitor:
        await visitor.get("/")
        await visitor.open()
        await eventually(lambda: server.session_count == 1)
        await visitor.get("/")  # the third and last token
        status, text, _ = await visitor.get("/")
        assert status == 429 and text == front_module.RATE + "\n"
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await visitor.open()
        assert refused.value.status == 429
        assert server.session_count == 1
        assert server.state.metrics.value(server.state.metrics.sessions) == 1
        assert server.state.metrics.refused_by_reason()["rate limit"] == 2
        # the first refusal of a run is logged, the rest only counted
        assert [entry["ended"] for entry in logged(tmp_path)
                if entry["event"] == "connection"] == ["refused: rate limit"]
        # an SSH connection from the same address finds the same empty bucket
        with pytest.raises((ConnectionError, asyncssh.Error)):
            await connect(server, asyncssh.generate_private_key("ssh-ed25519"))
        await eventually(lambda: server.state.metrics.refused_by_reason()["rate limit"] == 3)


async def test_a_browser_and_ssh_share_the_sessions_slots(tmp_path: Path) -> None:
    async with web_serving(tmp_path, command=SLEEPER, sessions_per_ip=1, max_sessions=2) as (
            server, front), browser(front) as visitor:
        conn = await connect(server, asyncssh.generate_private_key("ssh-ed25519"))
        await Terminal.open(conn)
        await eventually(lambda: server.session_count == 1)
        await visitor.get("/")
        await visitor.open()
        assert await visitor.until_closed() == 1000
        [[kind, line]] = visitor.texts
        assert kind == "refused" and line == f"trash: {address_full_message(1)}"
        assert server.session_count == 1
        conn.close()
        await eventually(lambda: server.session_count == 0)
        await visitor.open()
        await eventually(lambda: server.session_count == 1)


async def test_bans_by_address_and_by_player_refuse_a_browser(tmp_path: Path) -> None:
    async with web_serving(tmp_path, command=SLEEPER) as (server, front), \
            browser(front) as visitor:
        await visitor.get("/")
        identity = await visitor.identity()
        assert identity is not None
        await admin_ok(server, "ban", target=identity, reason="rude <b>words</b>")
        await visitor.open()
        assert await visitor.until_closed() == 1000
        [[kind, line]] = visitor.texts
        assert kind == "refused" and line.startswith("trash: You are banned from this server")
        assert "rude <b>words</b>" in line  # a JSON string: trash.js shows it as text
        assert server.session_count == 0
        await admin_ok(server, "unban", target=identity)
        await admin_ok(server, "ban", target="127.0.0.1", reason="flood")
        status, text, _ = await visitor.get("/")
        assert status == 403 and text.startswith("trash: You are banned") and \
            text.count("\n") == 1
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await visitor.open()
        assert refused.value.status == 403
        assert server.session_count == 0


async def test_who_lists_a_browser_as_web_and_the_metrics_count_it(tmp_path: Path) -> None:
    async with web_serving(tmp_path, command=SLEEPER) as (server, front), \
            browser(front) as visitor:
        await visitor.get("/")
        identity = await visitor.identity()
        conn = await connect(server, asyncssh.generate_private_key("ssh-ed25519"))
        await Terminal.open(conn)
        await visitor.open()
        await eventually(lambda: server.session_count == 2)
        who = await admin_ok(server, "who")
        ways = {row["key"]: row["way"] for row in who["data"]}
        assert ways[identity] == "web" and sorted(ways.values()) == ["ssh", "web"]
        [header, *rows] = who["text"].splitlines()
        assert "WAY" in header.split()
        assert any(identity in row and " web " in f" {row} " for row in rows)
        stats = await admin_ok(server, "stats")
        assert stats["data"]["sessions_started"] == 2
        assert stats["data"]["web_sessions_started"] == 1
        conn.close()


async def test_say_motd_and_kick_reach_a_browser(tmp_path: Path) -> None:
    async with web_serving(tmp_path) as (server, front), browser(front) as visitor:
        await admin_ok(server, "motd", text="Cup final at 8 pm")
        await visitor.get("/")
        await visitor.quiet()
        await visitor.open()
        await visitor.read_until("Welcome to Trash!")
        await visitor.type("\r")
        await visitor.read_until(LOBBY_TITLE)
        mark = len(visitor.output)
        await visitor.type("t")  # the Tables screen shows the message of the day
        await visitor.read_until("Cup final at 8 pm", since=mark)
        mark = len(visitor.output)
        said = await admin_ok(server, "say", text="Restart in five minutes", seconds=5)
        assert said["data"] == {"sessions": 1}
        await visitor.read_until("Restart in five minutes", since=mark)
        identity = await visitor.identity()
        await admin_ok(server, "kick", target=identity, reason="time for bed")
        assert await visitor.until_closed() == 1000
        assert ["refused", "trash: the server's operator ended this session: time for bed"] \
            in visitor.texts


async def test_stop_writes_the_goodbye_and_closes_for_a_restart(tmp_path: Path) -> None:
    async with web_serving(tmp_path, command=SLEEPER) as (server, front), \
            browser(front) as visitor:
        await visitor.get("/")
        await visitor.open()
        await eventually(lambda: server.session_count == 1)
        stopping = asyncio.ensure_future(server.stop(grace=2.0))
        assert await visitor.until_closed() == 1012
        text = visitor.text()
        assert "the server is stopping" in text and f"{front.url}/" in text
        assert await stopping == 1
        status = None
        with pytest.raises(aiohttp.ClientConnectionError):
            status, _, _ = await visitor.get("/health")
        assert status is None


def test_the_page_sets_no_html_it_is_sent() -> None:
    """trash.js puts what the server says on the page as text only, and the page's
    template has no place for a player's words."""
    script = (HERE / "trash.js").read_text(encoding="utf-8")
    assert "textContent" in script
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|"
                         r"new Function", script)
    template = (HERE / "page.html").read_text(encoding="utf-8")
    assert sorted(re.findall(r"\$(\w+)", template)) == ["notice", "socket_url"]
    assert "<script>" not in template and " on" not in re.sub(r"<script[^>]*>", "", template)


async def test_open_sockets_from_one_address_are_bounded_with_its_ssh_connections(
        tmp_path: Path) -> None:
    async with web_serving(tmp_path, command=SLEEPER, connections_per_ip=2) as (
            server, front), browser(front) as first, browser(front) as second:
        conn = await connect(server, asyncssh.generate_private_key("ssh-ed25519"))
        await first.get("/")
        await first.open()
        await eventually(lambda: server.session_count == 1)  # (the SSH one has no session)
        await second.get("/")
        await second.open()
        assert await second.until_closed() == 1000
        [[kind, line]] = second.texts
        assert kind == "refused" and line.startswith("trash: at most 2 connections at once")
        conn.close()
        await eventually(lambda: not server.state.connections)
        await second.open()
        await eventually(lambda: server.session_count == 2)


async def test_open_connections_from_one_address_are_bounded_before_any_request(
        tmp_path: Path) -> None:
    async with web_serving(tmp_path, command=SLEEPER, connections_per_ip=2) as (_, front):
        bound = listener.CONNECTIONS_PER_SOCKET * 2
        opened = [await asyncio.open_connection("127.0.0.1", front.port)
                  for _ in range(bound + 1)]
        reader, writer = opened[-1]
        assert await asyncio.wait_for(reader.read(), 5) == b""  # closed at once
        reader, writer = opened[0]  # the others are served
        writer.write(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert (await asyncio.wait_for(reader.readuntil(b"\r\n"), 5)).startswith(
            b"HTTP/1.1 200")
        for _, writer in opened:
            writer.close()


async def test_open_connections_from_every_address_together_are_bounded(
        tmp_path: Path) -> None:
    """Many addresses, each under its own bound, cannot hold more than the server's
    bound in all (``max_connections``: each of its sockets may take several)."""
    async with web_serving(tmp_path, command=SLEEPER, max_connections=2,
                           connections_per_ip=1, max_sessions=2) as (server, front):
        bound = listener.CONNECTIONS_PER_SOCKET * 2
        opened = [await asyncio.open_connection("127.0.0.1", front.port,
                                                local_addr=(f"127.0.0.{2 + n // 3}", 0))
                  for n in range(bound + 1)]  # (three from each address: under its bound)
        reader, writer = opened[-1]
        assert await asyncio.wait_for(reader.read(), 5) == b""  # closed at once
        assert server.state.metrics.refused_by_reason()["too many connections"] == 1
        for reader, writer in opened[:2]:  # the others are served
            writer.write(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert (await asyncio.wait_for(reader.readuntil(b"\r\n"), 5)).startswith(
                b"HTTP/1.1 200")
        for _, writer in opened:
            writer.close()
        await eventually(lambda: not front.connections.open)
        reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
        writer.write(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert (await asyncio.wait_for(reader.readuntil(b"\r\n"), 5)).startswith(
            b"HTTP/1.1 200")  # (the count goes down as they close)
        writer.close()


async def test_a_full_server_refuses_a_browsers_socket_in_its_own_words(
        tmp_path: Path) -> None:
    """The sockets share the server's ``max_connections`` with the SSH connections: one
    from another address when all are taken is told the server is full."""
    async with web_serving(tmp_path, command=SLEEPER, max_connections=1,
                           connections_per_ip=1, max_sessions=1) as (server, front), \
            browser(front) as first, browser(front, "127.0.0.2") as second:
        await first.get("/")
        await first.open()
        await eventually(lambda: server.session_count == 1)
        await second.get("/")
        await second.open()
        assert await second.until_closed() == 1000
        [[kind, line]] = second.texts
        assert kind == "refused" and line == front_module.SERVER_FULL
        with pytest.raises((ConnectionError, asyncssh.Error)):  # SSH finds it full too
            await connect(server, asyncssh.generate_private_key("ssh-ed25519"))
