"""What the operator's commands need of the running server: a declared interface.

``AdminCommands`` is given an object with this shape (the SSH server's ``ServerState``
has it), not ``Any``: its table service and the worker thread that owns the history
database, its sessions and connections, the sanctions in force, the metrics, and what it
does for the operator (kick, watch, reload, report). Naming it here keeps the console
below the SSH server (``admin`` does not import ``ssh``) and shows, in one place, all that
the console may touch.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection, Sequence
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from trash_tui.admin.metrics import ServerMetrics
from trash_tui.admin.moderation import Moderation
from trash_tui.tables.service import TableService
from trash_tui.tables.worker import Worker


class Session(Protocol):
    """One session (SSH or a browser's) as the console sees it."""

    player: str | None  # its key's fingerprint (or a guest's, a password user's)
    address: str
    started: float  # time.monotonic() when it began
    token: str  # its token at the table service

    @property
    def way(self) -> str: ...  # how the player came in: "ssh" or "web"

    @property
    def pid(self) -> int | None: ...


class Connection(Protocol):
    """One SSH connection (logged in or not)."""

    player: str | None
    address: str


class Watching(Protocol):
    """The operator's copy of a session's terminal."""

    info: dict[str, Any]

    def frames(self) -> AsyncIterator[bytes]: ...

    def close(self, why: str) -> None: ...


class Place(NamedTuple):
    """Where a running session is: ``state`` in one word (booting, lobby, table,
    watching), ``where`` as ``trash admin who`` says it, its player's ``name`` (if known)."""

    state: str
    where: str
    name: str


class ServerSide(Protocol):
    """The running server, as the console may use it."""

    tables: TableService
    worker: Worker
    moderation: Moderation
    metrics: ServerMetrics
    metrics_address: str | None
    max_watchers: int

    @property
    def sessions(self) -> Sequence[Session]: ...

    @property
    def connections(self) -> Collection[Connection]: ...

    @property
    def history_path(self) -> Path: ...

    def place(self, session: Any) -> Place | None:
        """Where a running session is; None before its app has started."""

    def gauges(self) -> dict[str, dict[str, int]]: ...

    def kick(self, match: Callable[[Any], bool], why: str) -> int: ...

    def watch(self, session: Any, name: str) -> Watching | None: ...

    async def reload(self, how: str = ...) -> str: ...

    def report(self, message: str, detail: str = "") -> None: ...
