"""The codes that link a browser to a player's key (the SSH lobby's "Play in a browser"):
the table protocol's ``link_code`` request.

The codes are made and kept by the server's web face (``trash_tui.web.identity.Browsers``),
which the table service may not import: the server passes it in as a declared interface,
``LinkCodes`` (as it passes its mutes to ``social.py``); a server with no web face passes
none (``NoLinkCodes``). The answer is a ``link_code`` message with the ``code`` and the
``minutes`` it holds, or an ``error`` in one line (a guest has nothing to link). A player
makes at most ``CODES_PER_MINUTE`` codes a minute (each is a write to the history).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from trash_tui.tables.hub import Client
from trash_tui.tables.rates import TokenBucket
from trash_tui.text import clean

NO_WEB_FACE = "this server has no web face"
CODES_PER_MINUTE = 5
TOO_MANY = "too many link codes: wait a minute (the last one shown still works)"
KEPT_BUCKETS = 1000  # players' code limits kept before the full ones are forgotten


class LinkCodes(Protocol):
    """Who makes the one-time codes that link a browser to a player."""

    #: how long a code holds
    code_minutes: int

    async def make_code(self, identity: str) -> str:
        """A new code for ``identity``; ValueError with a one-line reason if it cannot
        have one."""
        ...


class NoLinkCodes:
    """A server with no web face: no code."""

    code_minutes = 0

    async def make_code(self, identity: str) -> str:
        raise ValueError(NO_WEB_FACE)


class Linking:
    """The ``link_code`` request, on the codes' maker."""

    def __init__(self, codes: LinkCodes, clock: Callable[[], float] = time.monotonic) -> None:
        self.codes = codes
        self.clock = clock
        self.limits: dict[str, TokenBucket] = {}  # each player's codes a minute

    def may_make(self, identity: str) -> bool:
        """Whether ``identity`` may make a code now (one taken from its limit)."""
        if len(self.limits) >= KEPT_BUCKETS:  # forget the limits that are full again
            now = self.clock()
            self.limits = {key: bucket for key, bucket in self.limits.items()
                           if bucket.tokens + (now - bucket.last) * bucket.per_second <
                           bucket.capacity}
        bucket = self.limits.setdefault(identity, TokenBucket.per_minute(CODES_PER_MINUTE,
                                                                          self.clock))
        return bucket.take()

    async def link_code(self, client: Client) -> None:
        if not self.may_make(client.identity or ""):
            client.send({"op": "link_code", "error": TOO_MANY})
            return
        try:
            code = await self.codes.make_code(client.identity or "")
        except ValueError as exc:  # (the maker's LinkError: its one line)
            client.send({"op": "link_code", "error": clean(str(exc), 200)})
            return
        client.send({"op": "link_code", "code": code, "minutes": self.codes.code_minutes})
