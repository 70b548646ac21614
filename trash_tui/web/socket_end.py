"""A browser session's client end: textual.js's WebSocket as a ``ssh.client_end.ClientEnd``.

The wire is textual.js's own: the browser sends JSON text frames ``["stdin", TEXT]``,
``["resize", {"width": W, "height": H}]``, ``["ping", T]`` (answered ``["pong", T]``
here), ``["focus"]`` / ``["blur"]`` (ignored); the server sends binary frames, the PTY's
raw output. A frame that is not one of these (bad JSON, another shape, a binary frame)
is dropped. One reader task reads the socket all the time (so pings, pongs and the
close are seen even while the app is starting); what it reads waits in a short queue
(``INPUT_QUEUE`` frames: a client that types faster than its app reads is not read
further, as SSH's flow control does). Output is written by one writer task, in order;
``drain`` waits while more than ``HIGH_WATER`` bytes are queued.

``exit`` ends the session: the queued output goes out, then the socket is closed with
1000 (1012, "service restart", when the server is stopping: the page then waits for the
server and comes back). ``refuse`` sends ``["refused", LINE]`` (trash.js shows the line
under the page's title; textual.js ignores it) and closes with 1000.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from aiohttp import WSMsgType, web

from trash_tui.ssh.child import clamp_size
from trash_tui.ssh.client_end import Resize
from trash_tui.ssh.goodbye import STOPPED_EXIT_STATUS

INPUT_QUEUE = 64  # frames read ahead of the app
HIGH_WATER = 65536  # bytes of output queued before ``drain`` waits
CLOSE_NORMAL = 1000
CLOSE_RESTART = 1012  # the server is stopping (and will be back)
CLOSE_TIMEOUT = 2.0  # seconds for the queued output and the close handshake


def frame_input(text: str) -> str | Resize | tuple[str, str] | None:
    """What one text frame from textual.js means: typed text, a window change,
    ("ping", T), or None (ignored: focus, blur, anything malformed)."""
    try:
        message = json.loads(text)
    except ValueError:
        return None
    if not isinstance(message, list) or not message or not isinstance(message[0], str):
        return None
    kind = message[0]
    argument: Any = message[1] if len(message) > 1 else None
    if kind == "stdin" and isinstance(argument, str):
        return argument
    if kind == "resize" and isinstance(argument, dict):
        width, height = argument.get("width"), argument.get("height")
        if isinstance(width, int) and isinstance(height, int) and not (
                isinstance(width, bool) or isinstance(height, bool)):
            columns, rows, _, _ = clamp_size(width, height)
            return Resize(columns, rows)
        return None
    if kind == "ping" and isinstance(argument, str) and len(argument) <= 64:
        return ("ping", argument)
    return None


class SocketEnd:
    """The client end of a browser session over ``socket`` (an open WebSocket)."""

    way = "web"

    def __init__(self, socket: web.WebSocketResponse, columns: int, rows: int) -> None:
        self.socket = socket
        self._size = clamp_size(columns, rows)
        self._input: asyncio.Queue[bytes | Resize | None] = asyncio.Queue(INPUT_QUEUE)
        self._output: list[bytes] = []
        self._texts: list[str] = []  # text frames to send (pongs)
        self._refusal: str | None = None  # the one line sent before the close
        self._queued = 0
        self._wake = asyncio.Event()  # output queued, or the end is closing
        self._drained = asyncio.Event()
        self._drained.set()
        self._closing: int | None = None  # the close code, once ``exit`` or ``refuse`` ran
        self.closed = asyncio.Event()  # the socket has closed
        self.reader = asyncio.ensure_future(self._read())
        self.writer = asyncio.ensure_future(self._write())

    # --- what the browser sends ---------------------------------------------------------
    def size(self) -> tuple[int, int, int, int]:
        return self._size

    async def read(self) -> bytes | Resize | None:
        if self.closed.is_set() and self._input.empty():
            return None
        return await self._input.get()

    async def _read(self) -> None:
        try:
            async for message in self.socket:
                if message.type != WSMsgType.TEXT:
                    continue  # (binary frames from a browser mean nothing here)
                meaning = frame_input(message.data)
                if isinstance(meaning, str):
                    if meaning:
                        await self._input.put(meaning.encode("utf-8", "replace"))
                elif isinstance(meaning, Resize):
                    self._size = (meaning.columns, meaning.rows, 0, 0)
                    await self._input.put(meaning)
                elif meaning is not None and self._closing is None:
                    self._texts.append(json.dumps(["pong", meaning[1]]))
                    self._wake.set()
        except (TimeoutError, ConnectionError, RuntimeError):
            pass
        finally:
            self.closed.set()
            self._wake.set()
            self._drained.set()
            with contextlib.suppress(asyncio.QueueFull):
                self._input.put_nowait(None)

    # --- what the server sends ----------------------------------------------------------
    def write(self, data: bytes) -> None:
        if self.closed.is_set() or self._closing is not None:
            raise ConnectionError("the browser has gone")
        if data:
            self._output.append(bytes(data))
            self._queued += len(data)
            if self._queued > HIGH_WATER:
                self._drained.clear()
            self._wake.set()

    async def drain(self) -> None:
        await self._drained.wait()
        if self.closed.is_set():
            raise ConnectionError("the browser has gone")

    async def _write(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._texts:
                    await self.socket.send_str(self._texts.pop(0))
                if self._output:
                    data = b"".join(self._output)
                    self._output.clear()
                    self._queued = 0
                    self._drained.set()
                    await self.socket.send_bytes(data)
                    self._wake.set()  # (more may have come meanwhile)
                    continue
                if self.closed.is_set():
                    return
                if self._closing is not None:
                    if self._refusal is not None:
                        await self.socket.send_str(self._refusal)
                    await self.socket.close(code=self._closing)
                    return
        except (ConnectionError, RuntimeError):
            pass
        finally:
            self._drained.set()

    def exit(self, status: int) -> None:
        """Close once the queued output has gone: 1012 when the server is stopping."""
        self._close(CLOSE_RESTART if status == STOPPED_EXIT_STATUS else CLOSE_NORMAL)

    def refuse(self, message: str) -> None:
        """``["refused", message]`` for the page, then the close."""
        if self.closed.is_set() or self._closing is not None:
            return
        self._refusal = json.dumps(["refused", message])
        self._close(CLOSE_NORMAL)

    def _close(self, code: int) -> None:
        if self._closing is not None or self.closed.is_set():
            return
        self._closing = code
        self._wake.set()

    async def wait_closed(self) -> None:
        await self.closed.wait()

    async def finish(self) -> None:
        """Close the socket (if the session has not) and stop both tasks."""
        if not self.closed.is_set():
            self._close(CLOSE_NORMAL)
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self.writer), CLOSE_TIMEOUT)
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.socket.close(code=self._closing or CLOSE_NORMAL)
        self.reader.cancel()
        self.writer.cancel()
