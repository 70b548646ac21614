"""Helpers for the shared-table tests: a table service in a tmp folder and a client that
speaks its protocol the way a session's app does."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from trash_tui.engine.actions import parse_action
from trash_tui.play.table_protocol import encode
from trash_tui.players.rater import open_history
from trash_tui.tables.hub import MESSAGES_PER_SECOND
from trash_tui.tables.service import TableLimits, TableService

FAST = TableLimits(bot_delay=0.0, deal_pause=0.0, empty_timeout=600.0)


@contextlib.asynccontextmanager
async def running_service(folder: Path, limits: TableLimits = FAST
                          ) -> AsyncIterator[TableService]:
    service = TableService(folder / "history.sqlite3", limits)
    await service.start()
    try:
        yield service
    finally:
        await service.stop()


def name_player(folder: Path, identity: str, name: str) -> None:
    with open_history(folder / "history.sqlite3") as history:
        history.players.register_player(identity, name)


class TableClient:
    """A client of the table service: sends requests, keeps every message it got."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.messages: list[dict[str, Any]] = []
        self.raw = bytearray()  # every byte received (for the no-peeking test)
        self.seen = 0

    @classmethod
    async def connect(cls, service: TableService, identity: str,
                      address: str | None = None) -> TableClient:
        reader, writer = await asyncio.open_unix_connection(str(service.socket_path),
                                                            limit=1 << 20)
        client = cls(reader, writer)
        await client.send({"op": "hello", "token": service.register(identity, address)})
        await client.wait_for("welcome")
        return client

    async def send(self, message: dict[str, Any]) -> None:
        self.writer.write(encode(message))
        await self.writer.drain()

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        line = await asyncio.wait_for(self.reader.readline(), timeout)
        if not line:
            raise ConnectionError("the service closed the connection")
        self.raw += line
        message = json.loads(line)
        self.messages.append(message)
        return message

    async def wait_for(self, op: str, check: Callable[[dict[str, Any]], bool] | None = None,
                       timeout: float = 10.0) -> dict[str, Any]:
        """The next message (from those not yet waited past) with ``op`` that passes
        ``check``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            while self.seen < len(self.messages):
                message = self.messages[self.seen]
                self.seen += 1
                if message["op"] == op and (check is None or check(message)):
                    return message
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"no {op!r} message; last: {self.messages[-3:]}")
            await self.receive(left)

    def last_update(self) -> dict[str, Any] | None:
        return next((m for m in reversed(self.messages) if m["op"] == "update"), None)

    def my_turn(self) -> list[int]:
        """The legal actions in the latest update (empty unless it is this client's turn)."""
        update = self.last_update()
        if not update or "observation" not in update:
            return []
        return [parse_action(name) for name in update["observation"]["legal"]]

    async def drain(self, seconds: float = 0.05) -> None:
        with contextlib.suppress(TimeoutError):
            while True:
                await self.receive(seconds)

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()


async def next_message(clients: list[TableClient], deadline: float) -> None:
    """Wait until one of ``clients`` receives a message (kept in its ``messages``); a
    ``TimeoutError`` at ``deadline`` (the event loop's time)."""
    left = deadline - asyncio.get_running_loop().time()
    if left <= 0:
        raise TimeoutError("no message came")
    waits = [asyncio.ensure_future(client.receive(left)) for client in clients]
    try:
        done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:  # a read cut short takes nothing from the stream
            wait.cancel()
        await asyncio.gather(*waits, return_exceptions=True)
    for wait in done:
        wait.result()  # (a closed connection or the deadline: raised here)


async def play_out(clients: list[TableClient], timeout: float = 60.0,
                   choose: Callable[[list[int]], int] = min) -> dict[str, Any]:
    """Let ``clients`` play (each ``choose`` of the legal actions when it is their turn)
    until the table's match is over; the last update. Each acts once on an update that
    gives it the turn, as soon as it comes, and again only if the act was refused (an
    ``error`` came after it: the rate limit, or the table moved on). Each keeps under the
    service's message rate (a bucket like the service's, a little smaller)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    acted: dict[int, tuple[dict[str, Any], int]] = {}  # client -> (update, messages then)
    rate = 0.9 * MESSAGES_PER_SECOND
    tokens = dict.fromkeys(range(len(clients)), 2 * rate)  # a burst of 2 s worth
    last = dict.fromkeys(range(len(clients)), loop.time())
    try:
        while True:
            for index, client in enumerate(clients):
                update = client.last_update()
                if update and update["table"]["status"] == "finished":
                    return update
                legal = client.my_turn()
                if not legal or update is None:
                    continue
                if index in acted and acted[index][0] is update:
                    since = client.messages[acted[index][1]:]
                    if not any(message["op"] == "error" for message in since):
                        continue  # its act is on the way
                    await asyncio.sleep(0.05)  # refused: a moment, then again
                now = loop.time()
                tokens[index] = min(2 * rate, tokens[index] + (now - last[index]) * rate)
                last[index] = now
                if tokens[index] < 1:  # (nothing is read meanwhile: the update stays its last)
                    await asyncio.sleep((1 - tokens[index]) / rate)
                    tokens[index], last[index] = 1.0, loop.time()
                tokens[index] -= 1
                acted[index] = (update, len(client.messages))
                await client.send({"op": "act", "action": choose(legal),
                                   "at": update["actions"]})
            await next_message(clients, deadline)
    except TimeoutError:
        raise TimeoutError("the match did not end") from None


async def ann_hosts(service: TableService, seats: list[str] | None = None,
                    **config: Any) -> tuple[TableClient, dict[str, Any]]:
    """Ann (registered as "key:ann") connects and creates a table (two human seats and no
    clock by default): her client and the ``created`` answer (code, table id)."""
    ann = await TableClient.connect(service, "key:ann")
    await ann.send({"op": "create", "config": {"seats": seats or ["human", "human"],
                                               "clock": 0, **config}})
    return ann, await ann.wait_for("created")
