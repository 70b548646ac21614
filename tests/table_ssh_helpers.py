"""Helpers for playing shared tables over SSH: players (an asyncssh session running the real
app, its screen read as text by a background reader), the new-table form driven by keys,
and the table service seen from the test (the server runs in the test's process).

The service is the oracle: whose turn it is and what is legal come from the table's
controller, and a player's key for a legal move is the board's own key for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncssh
from ssh_helpers import connect, quiet_player, screen_text, serving

from trash_tui.app.trash.board import BoardScreen
from trash_tui.engine.actions import DRAW_DISCARD, DRAW_STOCK
from trash_tui.engine.narrate import describe_event
from trash_tui.players.rater import open_history
from trash_tui.ssh.server import RunningServer
from trash_tui.tables.table import Table

DOWN, UP, TAB, ENTER, ESCAPE, CTRL_S, BACKSPACE = \
    "\x1b[B", "\x1b[A", "\t", "\r", "\x1b", "\x13", "\x7f"
PRESETS_ORDER = ("standard", "kings-wild", "jokers", "all-faces-wild", "eight-card", "kids")
_CODE = re.compile(r"Code([A-Z2-9]{4}):")  # the waiting room's "Code K7QX: ..." squeezed


def squeezed(text: str) -> str:
    """``text`` without spaces: the app positions words with cursor moves, not spaces."""
    return "".join(text.split())


@contextlib.asynccontextmanager
async def table_server(folder: Path, bot_delay: float = 0.05, **changes: Any
                       ) -> AsyncIterator[RunningServer]:
    """A server in ``folder`` whose bots and stand-ins move after ``bot_delay`` s, with no
    pause between deals."""
    async with serving(folder, **changes) as server:
        make_fast(server, bot_delay)
        yield server


def make_fast(server: RunningServer, bot_delay: float = 0.05) -> None:
    service = server.state.tables
    service.limits = replace(service.limits, bot_delay=bot_delay, deal_pause=0.0)


class Player:
    """A registered player (a key with a display name, animations off) and their session."""

    def __init__(self, server: RunningServer, name: str,
                 key: asyncssh.SSHKey | None = None) -> None:
        self.name = name
        self.key = key or asyncssh.generate_private_key("ssh-ed25519")
        self.identity = self.key.get_fingerprint("sha256")
        self.conn: asyncssh.SSHClientConnection | None = None
        self.process: asyncssh.SSHClientProcess | None = None
        self.output = bytearray()
        self.reader: asyncio.Task[None] | None = None
        register(server, self)

    async def connect(self, server: RunningServer, username: str = "player",
                      size: tuple[int, int] = (100, 32)) -> Player:
        self.output = bytearray()
        self.conn = await connect(server, self.key, username=username)
        self.process = await self.conn.create_process(term_type="xterm-256color",
                                                      term_size=size, encoding=None)
        self.reader = asyncio.ensure_future(self._read())
        return self

    async def _read(self) -> None:
        assert self.process is not None
        with contextlib.suppress(asyncssh.Error, ConnectionError):
            while data := await self.process.stdout.read(65536):
                self.output += data

    @property
    def ended(self) -> bool:
        return self.reader is None or self.reader.done()

    def mark(self) -> int:
        """Where the output is now (for ``sees(since=...)``)."""
        return len(self.output)

    def text(self, since: int = 0) -> str:
        return screen_text(bytes(self.output[since:]))

    def saw(self, needle: str, since: int = 0) -> bool:
        return squeezed(needle) in squeezed(self.text(since))

    async def sees(self, *needles: str, since: int = 0, timeout: float = 20.0) -> str:
        """Wait until the output since ``since`` holds one of ``needles`` (spaces ignored);
        the squeezed text. TimeoutError with the tail of the screen otherwise."""
        wanted = [squeezed(needle) for needle in needles]
        deadline = time.monotonic() + timeout
        while True:
            text = squeezed(self.text(since))
            if any(needle in text for needle in wanted):
                return text
            if time.monotonic() > deadline or self.ended:
                why = "the session ended" if self.ended else f"after {timeout:g} s"
                raise TimeoutError(f"{self.name}: {why} without {needles}: "
                                   f"...{self.text(since)[-800:]!r}")
            await asyncio.sleep(0.05)

    async def press(self, *keys: str, pause: float = 0.15) -> None:
        """Type ``keys`` one after another (``pause`` s between them)."""
        assert self.process is not None
        for key in keys:
            self.process.stdin.write(key.encode())
            await asyncio.sleep(pause)

    async def step(self, *keys: str, timeout: float = 10.0) -> None:
        """Type ``keys`` one at a time, each once the screen has answered the one before
        (a list that opens, a highlight that moves): no key outruns a busy app."""
        for key in keys:
            mark = self.mark()
            await self.press(key, pause=0.0)
            deadline = time.monotonic() + timeout
            while self.mark() == mark and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.05)

    def type(self, keys: str) -> None:
        assert self.process is not None
        self.process.stdin.write(keys.encode())

    def drop(self) -> None:
        """The connection is cut (no goodbye)."""
        if self.conn is not None:
            self.conn.abort()

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.wait_closed(), 5)
        if self.reader is not None:
            self.reader.cancel()


def register(server: RunningServer, player: Player) -> None:
    """The player's name in the server's history database, and animations off."""
    with open_history(server.config.history) as history:
        history.players.register_player(player.identity, player.name)
    quiet_player(server.config, player.key)


async def enter_lobby(player: Player, server: RunningServer, username: str = "player"
                      ) -> None:
    await player.connect(server, username)
    await player.sees("New match")


async def open_tables(player: Player) -> None:
    mark = player.mark()
    await player.press("t")
    await player.sees("Tables on this server", since=mark)


async def create_table(player: Player, preset: str = "standard", seats: int = 4,
                       clock: int | None = None) -> str:
    """From the Tables screen: the new-table form (``n``) with ``preset``, ``seats`` and
    the turn ``clock`` (seconds; None keeps 60), created with ctrl+s; the join code the
    waiting room shows."""
    mark = player.mark()
    await player.press("n")
    await player.sees("A new table", since=mark)
    await player.step(TAB)  # from the name (the cursor starts there) to the rules
    if preset != "standard":
        await player.step(ENTER, *[DOWN] * PRESETS_ORDER.index(preset), ENTER)
    await player.step(TAB)  # the seats
    if seats != 4:
        change = [DOWN] * (seats - 4) if seats > 4 else [UP] * (4 - seats)
        await player.step(ENTER, *change, ENTER)
    if clock is not None:
        await player.step(*[TAB] * (seats - 1 + 2), BACKSPACE * 4, str(clock))
    mark = player.mark()
    await player.press(CTRL_S)
    text = await player.sees("j in Tables", since=mark)
    found = _CODE.search(text)
    assert found is not None, text[-400:]
    return found.group(1)


def table_of(server: RunningServer, code: str) -> Table:
    """The table with ``code`` in the server's table service."""
    return next(table for table in server.state.tables.tables.values() if table.code == code)


def actions_of(table: Table) -> int:
    return len(table.controller.actions) if table.controller is not None else 0


def key_for_a_move(legal: tuple[int, ...]) -> str:
    """A key for a legal move: the stock if it may be drawn, else the first other move
    (the discard last: the board asks first when it fits nowhere)."""
    if DRAW_STOCK in legal:
        return BoardScreen.key_for(DRAW_STOCK)
    others = [action for action in legal if action != DRAW_DISCARD]
    return BoardScreen.key_for(others[0] if others else legal[0])


def human_to_move(table: Table) -> int | None:
    """The seat of the human to move (and present), or None."""
    controller = table.controller
    if controller is None or controller.over or not controller.waiting_for_human:
        return None
    seat = controller.to_move
    return None if table.seats[seat].away else seat


def shown_line(table: Table, events_from: int) -> str:
    """The start of the board's log line for the first event from ``events_from`` on that
    has one (enough to find it even when the log wraps it)."""
    controller = table.controller
    for event in controller.match.events[events_from:]:
        line = describe_event(event, controller.names)
        if line:
            return squeezed(line)[:12]
    raise AssertionError("no new event has a line of its own")


async def wait_until(check: Callable[[], Any], timeout: float = 20.0, every: float = 0.02,
                     what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting after {timeout:g} s for {what or check}")
        await asyncio.sleep(every)


async def move(table: Table, player: Player, retry: float = 0.6, timeout: float = 15.0
               ) -> None:
    """``player`` (to move) makes one move with the board's key; the service has it."""
    controller = table.controller
    seat = table.seat_of(player.identity)
    before = actions_of(table)
    deadline = time.monotonic() + timeout
    while actions_of(table) == before and not controller.over:
        assert time.monotonic() < deadline, f"{player.name}'s key made no move"
        assert controller.to_move == seat, "not this player's turn"
        # enter first: it closes a deal's summary if one is up (nothing on the board)
        player.type(ENTER + key_for_a_move(controller.legal()))
        with contextlib.suppress(AssertionError):
            await wait_until(lambda: actions_of(table) != before or controller.over, retry)


async def play(table: Table, players: list[Player], until: Callable[[], Any],
               timeout: float = 60.0) -> None:
    """The ``players`` make their moves (bots and stand-ins theirs) until ``until()``."""
    seats = {table.seat_of(player.identity): player for player in players}
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, f"the match did not get there in {timeout:g} s"
        seat = human_to_move(table)
        if seat is not None and seat in seats:
            await move(table, seats[seat])
        else:
            await asyncio.sleep(0.02)
