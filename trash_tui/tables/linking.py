"""The codes that link a browser to a player's key (the SSH lobby's "Play in a browser"):
the table protocol's ``link_code`` request.

The codes are made and kept by the server's web face (``trash_tui.web.identity.Browsers``),
which the table service may not import: the server passes it in as a declared interface,
``LinkCodes`` (as it passes its mutes to ``social.py``); a server with no web face passes
none (``NoLinkCodes``). The answer is a ``link_code`` message with the ``code`` and the
``minutes`` it holds, or an ``error`` in one line (a guest has nothing to link).
"""

from __future__ import annotations

from typing import Protocol

from trash_tui.tables.hub import Client
from trash_tui.text import clean

NO_WEB_FACE = "this server has no web face"


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

    def __init__(self, codes: LinkCodes) -> None:
        self.codes = codes

    async def link_code(self, client: Client) -> None:
        try:
            code = await self.codes.make_code(client.identity or "")
        except ValueError as exc:  # (the maker's LinkError: its one line)
            client.send({"op": "link_code", "error": clean(str(exc), 200)})
            return
        client.send({"op": "link_code", "code": code, "minutes": self.codes.code_minutes})
