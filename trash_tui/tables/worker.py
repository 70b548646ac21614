"""The server's one worker thread: it owns the history database's connection.

The engine, the bots and every read or write of the history database run on this one
thread (``run``; ``db`` hands the work the open ``History``), so a bot that thinks never
stalls the SSH connections, and the database connection is only ever used from the thread
that opened it. The table service, the admin console and the SSH server all use the same
worker (given to each in its constructor). ``spawn`` keeps a task until it is done (a
forgotten task may be collected mid-way).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from trash_tui.history import History, HistoryError
from trash_tui.players.rater import open_history

T = TypeVar("T")


class Worker:
    """One thread for the engine, the bots and the history database at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="tables")
        self.history: History | None = None
        self.tasks: set[asyncio.Future[Any]] = set()

    async def open(self) -> History:
        """Open the database (with the app's rating model) on the thread."""
        self.history = await self.run(lambda: open_history(self.path))
        return self.history

    async def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, work)

    async def db(self, work: Callable[[History], T]) -> T:
        """Run ``work(history)`` on the worker thread."""
        history = self.history
        if history is None:
            raise HistoryError(f"history database {self.path}: not open")
        return await self.run(lambda: work(history))

    def spawn(self, work: Awaitable[Any]) -> None:
        """Run the coroutine ``work`` as a task kept until it is done."""
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def close(self) -> None:
        """Close the database (on its thread) and let the thread go."""
        history, self.history = self.history, None
        if history is not None:
            with contextlib.suppress(Exception):  # (stopping: nothing more to do with it)
                await self.run(history.close)
        self.executor.shutdown(wait=False)
