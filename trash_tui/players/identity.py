"""Who a player on the server is, and the name of one who keeps the suggested name.

An SSH player's identity is their key's SHA256 fingerprint, ``password:<user>``, or, for
a friend with no SSH key on a server that lets guests in, a **guest**: ``guest:`` and a
random token, new at every connection. Nothing lasts for a guest: no settings file, no
rating (a match with a guest in it is not rated, ``model.rated_seats``); the name is
asked again at the next visit. A browser on the web face is ``web:`` and 16 hex digits
(``trash_tui.web.identity``: the browser keeps a token the server maps to it), a kept,
rated player like a key, until it is linked to a key with a one-time code (a ``LinkError``
says in one line why a code cannot be made or used).

``default_name`` is the name suggested to a new SSH player (and given to one who keeps
it with esc): "Player" and a few letters from their identity, so two of them at a
shared table are told apart; never the home app's "You", which at a shared table would
be everybody.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Callable

from trash_tui.history.database import GUEST_PREFIX

#: A browser player's identity: this and 16 hex digits.
WEB_PREFIX = "web:"

#: The name the home app calls its one player before they choose one: never an SSH
#: player's (at a shared table "You" would be everybody).
PLACEHOLDER_NAME = "You"


def new_guest() -> str:
    """A fresh guest identity (one per connection)."""
    return GUEST_PREFIX + secrets.token_hex(8)


def is_guest(identity: str | None) -> bool:
    """Whether ``identity`` is a guest's (no key: nothing is kept for it)."""
    return identity is not None and identity.startswith(GUEST_PREFIX)


def is_web(identity: str | None) -> bool:
    """Whether ``identity`` is a browser's own (not linked to a key)."""
    return identity is not None and identity.startswith(WEB_PREFIX)


class LinkError(ValueError):
    """A link code that cannot be made or used, with the one-line reason."""


def default_name(identity: str, taken: Callable[[str], bool] = lambda name: False) -> str:
    """"Player" and letters derived from ``identity``: four, or more while ``taken``
    says another player has that name already."""
    letters = base64.b32encode(hashlib.sha256(identity.encode()).digest()).decode()
    name = ""
    for length in (4, 6, 8, 12):
        name = f"Player {letters[:length]}"
        if not taken(name):
            break
    return name
