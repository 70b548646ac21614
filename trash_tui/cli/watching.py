"""``trash admin watch NAME``, the console's side: a copy of a player's terminal, read-only.

``WatchStream.open`` asks the server (the admin socket, ``watch``) and reads its answer
line; then ``frames()`` gives the server's frames (``trash_tui.ssh.watch``: ``D`` output,
``R`` a new size, ``E`` the end and why). ``show`` puts them on this terminal: the
alternate screen while watching, the keyboard read raw, and only to stop (``q`` or
ctrl-c): nothing typed here goes anywhere. On the way out the terminal is put back as
it was (the app's modes that came through turned off, the normal screen, the cursor)
and one line says why it stopped.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import struct
import sys
import termios
import tty
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from trash_tui.admin.console import reachable
from trash_tui.ssh.goodbye import reset
from trash_tui.text import clean

STOP_KEYS = (b"q", b"Q", b"\x03")  # q, ctrl-c
ENTER_SCREEN = b"\x1b[?1049h\x1b[H\x1b[2J"
MAX_FRAME = 64 * 1024 * 1024


class WatchRefused(ValueError):
    """The server refused (the player is not connected, too many watchers...): one line."""


class WatchStream:
    """One watch: the connection, and the answer's ``info`` (name, key, width, height)."""

    def __init__(self, sock: socket.socket, info: dict[str, Any], text: str) -> None:
        self.sock = sock
        self.info = info
        self.text = text
        self.buffer = bytearray()

    @classmethod
    def open(cls, path: Path, target: str, timeout: float = 30.0) -> WatchStream:
        """Ask the console at ``path`` to watch ``target``. WatchRefused with the server's
        line; OSError when nothing answers there."""
        with reachable(path) as address:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.settimeout(timeout)
                sock.connect(address)
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    sock.sendall(json.dumps({"command": "watch",
                                             "args": {"target": target}}).encode() + b"\n")
                stream = cls(sock, {}, "")
                line = stream._line()
            except BaseException:
                sock.close()
                raise
        try:
            reply = json.loads(line)
        except ValueError:
            reply = None
        if not isinstance(reply, dict) or "ok" not in reply:
            sock.close()
            raise WatchRefused("the server gave no answer")
        if not reply["ok"]:
            sock.close()
            raise WatchRefused(clean(str(reply.get("error", "refused")), 500))
        stream.info = reply.get("data") if isinstance(reply.get("data"), dict) else {}
        stream.text = clean(str(reply.get("text", "")), 300)
        sock.settimeout(None)
        return stream

    def _fill(self) -> bool:
        try:
            chunk = self.sock.recv(65536)
        except (ConnectionResetError, OSError):
            return False
        if not chunk:
            return False
        self.buffer += chunk
        return True

    def _line(self) -> bytes:
        while b"\n" not in self.buffer:
            if len(self.buffer) > 1024 * 1024 or not self._fill():
                break
        line, _, rest = bytes(self.buffer).partition(b"\n")
        self.buffer = bytearray(rest)
        return line

    def frames(self) -> Iterator[tuple[str, bytes]]:
        """The server's frames, ``(kind, payload)``, until the end (``E``) or the
        connection closes."""
        while True:
            while len(self.buffer) < 5:
                if not self._fill():
                    return
            kind = chr(self.buffer[0])
            (length,) = struct.unpack(">I", self.buffer[1:5])
            if length > MAX_FRAME:
                return
            while len(self.buffer) < 5 + length:
                if not self._fill():
                    return
            payload = bytes(self.buffer[5:5 + length])
            del self.buffer[:5 + length]
            yield kind, payload
            if kind == "E":
                return

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def show(stream: WatchStream, out: BinaryIO | None = None, keys: int | None = None) -> str:
    """Put the watched terminal on ``out`` (default stdout) until the end or a stop key on
    ``keys`` (default stdin, when it is a terminal); why it stopped."""
    out = out or sys.stdout.buffer
    if keys is None and sys.stdin.isatty():
        keys = sys.stdin.fileno()
    saved = None
    if keys is not None:
        with contextlib.suppress(termios.error):
            saved = termios.tcgetattr(keys)
            tty.setraw(keys)
    why = "the server closed the connection"
    alternate = out.isatty() if hasattr(out, "isatty") else False
    try:
        if alternate:
            out.write(ENTER_SCREEN)
            out.flush()
        why = _pump(stream, out, keys)
    except KeyboardInterrupt:
        why = "you pressed ctrl-c"
    finally:
        if alternate:
            out.write(reset(True))
            out.flush()
        if saved is not None and keys is not None:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(keys, termios.TCSADRAIN, saved)
        stream.close()
    return why


def _pump(stream: WatchStream, out: BinaryIO, keys: int | None) -> str:
    frames = stream.frames()
    sock = stream.sock
    while True:
        watched: list[Any] = [keys] if keys is not None else []
        if not stream.buffer:  # (frames already read are shown first)
            watched.append(sock)
        ready, _, _ = select.select(watched, [], [], None if sock in watched else 0)
        if keys is not None and keys in ready:
            typed = os.read(keys, 1024)
            if not typed or any(key in typed for key in STOP_KEYS):
                return "you stopped it"
            continue  # (anything else typed here goes nowhere)
        if sock in watched and sock not in ready:
            continue
        try:
            kind, payload = next(frames)
        except StopIteration:
            return "the server closed the connection"
        if kind == "D":
            out.write(payload)
            out.flush()
        elif kind == "E":
            return clean(payload.decode("utf-8", "replace"), 200)
