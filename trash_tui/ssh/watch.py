"""Copies of what a session draws, for the operator: watchers (``trash admin watch``).

A session's output pump (``child.PtyChild``) hands every chunk it forwards to the
player's channel to each of its *taps* (``feed``), and tells them of a window change
(``resized``) and of the end (``close``). A tap never blocks and never awaits: the pump
goes on at once, so nothing on the operator's side can slow the player.

A ``Watcher`` is a tap whose chunks wait in a bounded queue (``WATCH_BUFFER`` bytes) for
the console connection to send them; a watcher that falls behind by more than that is
dropped (told why), never waited for. Its chunks go out as frames: a kind byte, the
length (4 bytes, big-endian), the payload: ``D`` output, ``R`` a new size ``COLSxROWS``,
``E`` the end and why (the last frame). At most ``MAX_WATCHERS`` watch at once, all
sessions together. Nothing goes the other way: a watcher has no way to the player's
terminal.

The session's app draws its whole screen again when a watcher joins (SIGUSR1:
``TrashApp.redraw_everything``), so what a watcher is sent starts readable.
"""

from __future__ import annotations

import asyncio
import struct
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

#: Watchers at once, on all sessions together.
MAX_WATCHERS = 4
#: Bytes a watcher may be behind before it is dropped.
WATCH_BUFFER = 1024 * 1024
OUTPUT, RESIZE, END = b"D", b"R", b"E"
ENDED = "the session ended"
BEHIND = "you fell behind (the connection is too slow): watch again"


class Tap(Protocol):
    """What a session's output pump feeds (watchers, a recording)."""

    def feed(self, data: bytes) -> None: ...

    def resized(self, columns: int, rows: int) -> None: ...

    def close(self, why: str) -> None: ...


def frame(kind: bytes, payload: bytes) -> bytes:
    return kind + struct.pack(">I", len(payload)) + payload


class Watcher:
    """One operator watching one session: a bounded queue of frames."""

    def __init__(self, info: dict[str, Any], on_close: Callable[[Watcher], None]) -> None:
        self.info = info  # what the console's answer says (name, key, size)
        self.on_close = on_close
        self.queue: deque[bytes] = deque()
        self.queued = 0
        self.ended: str | None = None
        self.wake = asyncio.Event()

    def _put(self, data: bytes) -> None:
        if self.ended is not None:
            return
        if self.queued + len(data) > WATCH_BUFFER:
            self.queue.clear()  # (what it missed is no use without the rest)
            self.queued = 0
            self.close(BEHIND)
            return
        self.queue.append(data)
        self.queued += len(data)
        self.wake.set()

    def feed(self, data: bytes) -> None:
        self._put(frame(OUTPUT, data))

    def resized(self, columns: int, rows: int) -> None:
        self._put(frame(RESIZE, f"{columns}x{rows}".encode()))

    def close(self, why: str) -> None:
        """End the watch (the session ended, it fell behind, the operator left)."""
        if self.ended is not None:
            return
        self.ended = why
        self.wake.set()
        self.on_close(self)

    async def frames(self) -> AsyncIterator[bytes]:
        """The frames as they come, then the end's; until ``close``."""
        while True:
            if self.queue:
                data = b"".join(self.queue)
                self.queue.clear()
                self.queued = 0
                yield data
                continue
            if self.ended is not None:
                yield frame(END, self.ended.encode())
                return
            self.wake.clear()
            await self.wake.wait()
