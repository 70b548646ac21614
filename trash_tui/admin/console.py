"""The admin console's socket: a Unix socket in the server's data folder, for the server's
own user only, bounded in every way a stranger could use it.

- The socket is made with mode 0600 (umask set while it is bound), and every connection's
  peer is checked with ``SO_PEERCRED``: a process of another user is refused with one
  line, whatever the file's mode.
- One request per connection: one JSON line ``{"command": NAME, "args": {...}}`` of at
  most ``MAX_REQUEST`` bytes, sent within ``REQUEST_TIMEOUT`` s; the answer is one JSON
  line ``{"ok": true, "text": ..., "data": ...}`` or ``{"ok": false, "error": ONE LINE}``.
  Garbage, a line too long or too slow gets the one-line error and the connection closes;
  the server is not disturbed. The handler is told who asks: the peer's local user name
  (``operator``, from the same credentials), which the moderator's log keeps.
- A command may answer with a ``Stream`` (``trash admin watch``): the answer line, then
  the stream's bytes until it ends or the client closes the connection; whatever the
  client sends meanwhile is read and dropped. A stream is bounded by its command (the
  server's watchers), not counted in ``MAX_CONNECTIONS``, and a client that takes
  nothing for ``STREAM_STALL`` s is cut off.
- At most ``MAX_CONNECTIONS`` connections at once (more are told ``BUSY`` and closed;
  ``request``, the client, asks again after a short random backoff for up to
  ``BUSY_PATIENCE`` s), and a command has ``COMMAND_TIMEOUT`` s. The client reads the
  answer even when the server answered before reading its request (a refusal): never a
  ``Broken pipe``.

A path too long for a socket address (108 bytes) is bound and reached through the
folder's descriptor (``/proc/self/fd/N/NAME``, Linux).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pwd
import random
import socket
import struct
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trash_tui.text import clean, visible

SOCKET_NAME = "admin.sock"
MAX_REQUEST = 16 * 1024
MAX_CONNECTIONS = 8
REQUEST_TIMEOUT = 5.0
COMMAND_TIMEOUT = 600.0
MAX_PATH = 100  # longer socket paths go through the folder's descriptor
BUSY = "the admin console is busy: try again"
BUSY_PATIENCE = 10.0  # seconds a client goes on asking a busy console
STREAM_STALL = 10.0  # seconds a stream's client may take nothing before it is cut off

Handler = Callable[[str, dict[str, Any], str], Awaitable[tuple[str, Any]]]


@dataclass
class Stream:
    """A command's answer that goes on: ``data`` in the answer line, then the bytes of
    ``chunks`` until they end; ``close(why)`` when the client goes first."""

    data: Any
    chunks: AsyncIterator[bytes]
    close: Callable[[str], None]


class AdminError(ValueError):
    """A command that cannot be done; one line saying why (sent to ``trash admin``)."""


def peer_uid(sock: socket.socket) -> int | None:
    """The user id of the process at the other end of a Unix socket (SO_PEERCRED)."""
    try:
        data = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):
        return None
    _pid, uid, _gid = struct.unpack("3i", data)
    return uid


def user_name(uid: int) -> str:
    """The local user name of ``uid`` (``uid N`` when the system has none)."""
    try:
        return pwd.getpwuid(uid).pw_name
    except (KeyError, OverflowError):
        return f"uid {uid}"


@contextlib.contextmanager
def reachable(path: Path) -> Iterator[str]:
    """An address for the socket ``path``: itself, or through its folder's descriptor when
    it is too long for a socket address."""
    if len(os.fsencode(str(path))) <= MAX_PATH:
        yield str(path)
        return
    fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        yield f"/proc/self/fd/{fd}/{path.name}"
    finally:
        os.close(fd)


def answer(ok: bool, text: str = "", data: Any = None, error: str = "") -> bytes:
    message: dict[str, Any] = {"ok": ok}
    if ok:
        message.update({"text": text, "data": data})
    else:
        message["error"] = " ".join(error.split())[:500]
    return json.dumps(message, ensure_ascii=False).encode() + b"\n"


class AdminConsole:
    """The listening socket: ``await start()``, ``await stop()``."""

    def __init__(self, path: Path, handler: Handler, report: Callable[[str, str], None]
                 ) -> None:
        self.path = path
        self.handler = handler
        self.report = report
        self.allowed_uid = os.geteuid()  # only the server's own user
        self.server: asyncio.AbstractServer | None = None
        self.open = 0  # connections now
        self.refused = 0  # connections refused (other user, too many, garbage)
        self.streams: dict[int, tuple[asyncio.StreamWriter, asyncio.Task[Any]]] = {}

    async def start(self) -> None:
        """Listen; OSError if the folder cannot hold the socket, RuntimeError if another
        server answers on it."""
        if self.path.exists() or self.path.is_symlink():
            if await self._answers():
                raise RuntimeError(f"{self.path}: another server is running with this data "
                                   "folder")
            self.path.unlink()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        mask = os.umask(0o177)
        try:
            with reachable(self.path) as address:
                self.server = await asyncio.start_unix_server(self.accept, path=address,
                                                              limit=MAX_REQUEST)
        finally:
            os.umask(mask)
        os.chmod(self.path, 0o600)

    async def _answers(self) -> bool:
        try:
            with reachable(self.path) as address:
                _, writer = await asyncio.wait_for(asyncio.open_unix_connection(address), 2.0)
        except (OSError, TimeoutError):
            return False
        writer.close()
        return True

    async def stop(self) -> None:
        """Stop listening; the streams still going are ended (their clients cut off)."""
        if self.server is not None:
            self.server.close()
            self.server = None
        with contextlib.suppress(OSError):
            self.path.unlink()
        for writer, _ in list(self.streams.values()):
            if writer.transport is not None:
                writer.transport.abort()
        if self.streams:
            await asyncio.wait([task for _, task in self.streams.values()], timeout=2.0)

    async def accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                     ) -> None:
        self.open += 1
        counted = True
        try:
            reply = await self._serve(reader, writer)
            if isinstance(reply, tuple):
                self.open -= 1  # (bounded by its command)
                counted = False
                await self._stream(reader, writer, *reply)
                return
            writer.write(reply)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.drain(), REQUEST_TIMEOUT)
        except Exception as exc:  # the console never takes the server down
            self.report(f"admin: a request failed: {type(exc).__name__}: {exc}", "")
        finally:
            if counted:
                self.open -= 1
            with contextlib.suppress(Exception):
                writer.close()

    async def _stream(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                      first: bytes, stream: Stream) -> None:
        """The answer line, then the stream until it ends or the client leaves."""

        async def client_left() -> None:
            with contextlib.suppress(Exception):
                while await reader.read(4096):
                    pass  # (what the client types goes nowhere)

        left = asyncio.ensure_future(client_left())
        left.add_done_callback(lambda _: stream.close("the watcher left"))
        task = asyncio.current_task()
        if task is not None:
            self.streams[id(writer)] = (writer, task)
        try:
            writer.write(first)
            async for chunk in stream.chunks:
                if left.done():
                    break
                writer.write(chunk)
                drained = asyncio.ensure_future(writer.drain())
                await asyncio.wait({drained, left}, timeout=STREAM_STALL,
                                   return_when=asyncio.FIRST_COMPLETED)
                if not drained.done():
                    drained.cancel()
                    break
                if drained.exception() is not None:
                    break
        except (ConnectionError, OSError):
            pass
        finally:
            self.streams.pop(id(writer), None)
            stream.close("the watcher left")
            left.cancel()
            if writer.transport is not None:
                writer.transport.abort()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                     ) -> bytes | tuple[bytes, Stream]:
        sock = writer.get_extra_info("socket")
        uid = peer_uid(sock) if sock is not None else None
        if uid is None or uid != self.allowed_uid:
            self.refused += 1
            self.report(f"admin: refused a connection from user {uid}", "")
            return answer(False, error="refused: the admin console is for the user who runs "
                                       "the server")
        if self.open > MAX_CONNECTIONS:
            self.refused += 1
            return answer(False, error=BUSY)
        try:
            line = await asyncio.wait_for(reader.readline(), REQUEST_TIMEOUT)
        except TimeoutError:
            self.refused += 1
            return answer(False, error=f"no request within {REQUEST_TIMEOUT:g} s")
        except (ValueError, asyncio.LimitOverrunError):
            self.refused += 1
            return answer(False, error=f"a request is one line of at most {MAX_REQUEST} bytes")
        except (ConnectionError, OSError):
            return b""
        command, args = parse_request(line)
        if command is None:
            self.refused += 1
            return answer(False, error=f"not a request: {visible(args, 80)}")
        try:
            text, data = await asyncio.wait_for(self.handler(command, args, user_name(uid)),
                                                COMMAND_TIMEOUT)
        except AdminError as exc:
            return answer(False, error=str(exc))
        except TimeoutError:
            return answer(False, error=f"the command took more than {COMMAND_TIMEOUT:g} s")
        if isinstance(data, Stream):
            return answer(True, text, data.data), data
        return answer(True, text, data)


def parse_request(line: bytes) -> tuple[str | None, Any]:
    """(command, args) of a request line, or (None, what was wrong)."""
    if not line.endswith(b"\n"):
        return None, "a request is one JSON line"
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None, line[:60].decode("utf-8", "replace")
    if not isinstance(message, dict) or not isinstance(message.get("command"), str):
        return None, "expected {\"command\": NAME, \"args\": {...}}"
    args = message.get("args", {})
    if not isinstance(args, dict):
        return None, "args is an object"
    return clean(message["command"], 40), args


def request(path: Path, command: str, args: dict[str, Any] | None = None,
            timeout: float = COMMAND_TIMEOUT) -> dict[str, Any]:
    """Send one request to the console at ``path`` (blocking); the answer. A ``busy``
    console is asked again after a short, growing, random pause, for up to
    ``BUSY_PATIENCE`` s. OSError when nothing answers there, ValueError when the answer is
    not one."""
    deadline = time.monotonic() + BUSY_PATIENCE
    pause = 0.02
    while True:
        reply = _request_once(path, command, args, timeout)
        if reply.get("ok") or reply.get("error") != BUSY or time.monotonic() >= deadline:
            return reply
        time.sleep(random.uniform(pause / 2, pause))
        pause = min(pause * 2, 0.5)


def _request_once(path: Path, command: str, args: dict[str, Any] | None,
                  timeout: float) -> dict[str, Any]:
    with reachable(path) as address, socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(address)
        # answered (a refusal, busy) before reading the request: the answer is there to read
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(json.dumps({"command": command, "args": args or {}}).encode() + b"\n")
        data = bytearray()
        while not data.endswith(b"\n"):
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
            if len(data) > 64 * 1024 * 1024:
                raise ValueError("the answer is too long")
    try:
        reply = json.loads(bytes(data)) if data else None
    except ValueError:
        reply = None
    if not isinstance(reply, dict) or "ok" not in reply:
        raise ValueError("the server gave no answer")
    return reply
