"""The console's commands for one player's case: the moderator's log (``log``).

A mixin of ``AdminCommands`` (``commands.py``), which gives it the server's state, the
database thread (``db``) and the name resolution (``identities``); each command returns
the text ``trash admin`` prints and the data ``--json`` prints, and raises ``AdminError``
with one line for bad input.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from trash_tui.admin import modlog
from trash_tui.admin.console import AdminError
from trash_tui.admin.moderation import parse_duration
from trash_tui.text import clean

MAX_LIMIT = 10_000


def _limit(args: dict[str, Any], default: int = 50) -> int:
    value = args.get("limit", default)
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_LIMIT:
        raise AdminError(f"limit is a whole number from 1 to {MAX_LIMIT}")
    return value


def _optional_text(args: dict[str, Any], key: str, length: int = 120) -> str | None:
    value = args.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise AdminError(f"{key} is text")
    return clean(value, length).strip() or None


class CaseworkCommands:
    """``log`` (and the other commands about one player's case)."""

    state: Any
    if TYPE_CHECKING:  # given by AdminCommands
        async def db(self, work: Any) -> Any: ...

        async def identities(self, target: str) -> list[tuple[str, str]]: ...

    async def do_log(self, args: dict[str, Any]) -> tuple[str, Any]:
        """The moderator's log, newest first: ``player``, ``action``, ``since`` (a
        duration back from now), ``limit``."""
        player = _optional_text(args, "player")
        action = _optional_text(args, "action", 20)
        if action is not None and action not in modlog.ACTS:
            raise AdminError(f"no such action: {action!r} (one of {', '.join(modlog.ACTS)})")
        spec = _optional_text(args, "since", 40)
        since = None if spec is None else time.time() - parse_duration(spec)
        limit = _limit(args)
        keys = [key for key, _ in await self.identities(player)] if player else []
        rows = await self.db(lambda history: modlog.entries(history, player, keys, action,
                                                            since, limit))
        return "\n".join(modlog.line(row) for row in rows) or "nothing in the log", rows
