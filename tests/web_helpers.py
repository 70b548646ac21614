"""Helpers for the web face's tests without a browser: a server with its web face in a tmp
folder, and a browser's WebSocket (textual.js's wire) that reads the app's screen as text.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from ssh_helpers import screen_text, server_config

from trash_tui.ssh.config import WebConfig
from trash_tui.ssh.server import RunningServer, start_server
from trash_tui.ssh.session import settings_file
from trash_tui.web.front import COOKIE, WebFront, start_web
from trash_tui.web.identity import Browsers


@contextlib.asynccontextmanager
async def web_serving(folder: Path, web: dict[str, Any] | None = None,
                      echo: io.StringIO | None = None, command: tuple[str, ...] | None = None,
                      **changes: Any) -> AsyncIterator[tuple[RunningServer, WebFront]]:
    """A running server whose files live in ``folder`` (as ``ssh_helpers.serving``), with
    its web face on a free port of 127.0.0.1 (``web`` overrides the ``[web]`` values) and
    the SSH lobby's link codes."""
    config = server_config(folder, web=WebConfig(**{"port": 0, **(web or {})}), **changes)
    options: dict[str, Any] = {"command": command} if command is not None else {}
    server = await start_server(config, echo=echo if echo is not None else io.StringIO(),
                                link_codes=Browsers, **options)
    try:
        front = await start_web(server)
        yield server, front
    finally:
        await server.stop(grace=3.0)


@dataclass
class Browser:
    """One browser: its cookies (its player) and its page's socket, if open."""

    front: WebFront
    http: aiohttp.ClientSession
    socket: aiohttp.ClientWebSocketResponse | None = None
    output: bytearray = field(default_factory=bytearray)
    texts: list[Any] = field(default_factory=list)  # the JSON text frames received
    close_code: int | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.front.port}"

    @property
    def token(self) -> str | None:
        for cookie in self.http.cookie_jar:
            if cookie.key == COOKIE:
                return cookie.value
        return None

    async def identity(self) -> str | None:
        token = self.token
        return await self.front.browsers.known(token) if token else None

    async def get(self, path: str = "/", **options: Any) -> tuple[int, str, Any]:
        async with self.http.get(self.base + path, allow_redirects=False, **options) as answer:
            body = await answer.read()
            return answer.status, body.decode("utf-8", "replace"), answer.headers

    async def quiet(self) -> str:
        """Animations off for this browser's player (bots move at once); its identity."""
        identity = await self.identity()
        assert identity is not None
        path = settings_file(self.front.state.config.players_dir, identity)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('[app]\nanimation = "off"\n', encoding="utf-8")
        return identity

    async def open(self, query: str = "", size: tuple[int, int] = (100, 32),
                   origin: str | None = None) -> None:
        """Open the page's socket as textual.js does (URL + ``?width=..&height=..``)."""
        url = f"ws://127.0.0.1:{self.front.port}/ws{query}?width={size[0]}&height={size[1]}"
        self.socket = await self.http.ws_connect(
            url, origin=origin if origin is not None else self.base, autoping=True)
        self.output.clear()
        self.texts.clear()
        await self.send("resize", {"width": size[0], "height": size[1]})

    async def send(self, kind: str, *argument: Any) -> None:
        assert self.socket is not None
        await self.socket.send_str(json.dumps([kind, *argument]))

    async def type(self, *keys: str, pause: float = 0.05) -> None:
        for key in keys:
            await self.send("stdin", key)
            await self.drain(pause)

    def text(self, since: int = 0) -> str:
        return screen_text(bytes(self.output[since:]))

    async def _receive(self, timeout: float) -> bool:
        """Read one frame (False once the socket has closed)."""
        assert self.socket is not None
        try:
            message = await self.socket.receive(timeout=timeout)
        except TimeoutError:
            return True
        if message.type == aiohttp.WSMsgType.BINARY:
            self.output += message.data
        elif message.type == aiohttp.WSMsgType.TEXT:
            self.texts.append(json.loads(message.data))
        elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                              aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.ERROR):
            self.close_code = self.socket.close_code
            return False
        return True

    async def read_until(self, *needles: str, since: int = 0, timeout: float = 30.0) -> str:
        """Read until the screen text holds one of ``needles`` (spaces ignored)."""
        wanted = [needle.replace(" ", "") for needle in needles]
        deadline = time.monotonic() + timeout
        while True:
            text = self.text(since)
            if any(needle in text.replace(" ", "") for needle in wanted):
                return text
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"none of {needles} in the output: ...{text[-600:]!r}")
            if not await self._receive(min(left, 0.5)):
                raise TimeoutError(f"the socket closed ({self.close_code}) without "
                                   f"{needles}: ...{text[-600:]!r} {self.texts}")

    async def until_closed(self, timeout: float = 15.0) -> int | None:
        """Read until the server closes the socket; its close code."""
        deadline = time.monotonic() + timeout
        while await self._receive(max(0.01, min(0.5, deadline - time.monotonic()))):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the socket is still open: {self.texts}")
        return self.close_code

    async def drain(self, seconds: float = 0.2) -> None:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if not await self._receive(left):
                return


@contextlib.asynccontextmanager
async def browser(front: WebFront, address: str | None = None) -> AsyncIterator[Browser]:
    """A browser with its own cookie jar (its own player, once it has loaded the page);
    from ``address`` (one of 127.0.0.0/8) if given."""
    connector = aiohttp.TCPConnector(local_addr=(address, 0) if address else None)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     connector=connector) as http:
        made = Browser(front, http)
        try:
            yield made
        finally:
            if made.socket is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(made.socket.close(), 2.0)
