"""Who a browser is: a long random token the browser keeps (its cookie), and the identity
the history maps it to; and the one-time codes that link a browser to an SSH key.

A browser's token is 32 bytes (urlsafe base64): 16 random bytes and their HMAC under this
server's key (``TOKEN_KEY`` in the history's server settings, made once), so the server
knows a token it made without keeping anything. A page load costs nothing kept: ``new``
only mints a token, whose player is ``web:`` and 16 hex digits of another HMAC of it (the
same every time the token comes back: ``known``). The history keeps a browser
(``history.records``, table ``browsers``: only the token's sha256, so a stolen copy of the
database names no browser's token) once its first session starts (``keep``; sessions are
bounded by the slots and the per-address bucket) or it is linked to a key. That player is
a kept, rated player like a key (``trash_tui.players.identity``), not a guest.

A player who has an SSH key asks the SSH lobby for a **link code** (``make_code``, through
the table service's ``link_code`` request): 8 characters from the join codes' alphabet (no
0/O, 1/I), good for one use and ``CODE_MINUTES`` minutes, at most ``CODES_ALIVE`` alive per
identity (making another retires the oldest). A browser that opens ``/link/CODE`` is that
key's identity from then on (``link``); its earlier ``web:`` player keeps its own past
matches and rating under its old identity. A code is compared with every kept code in
constant time, never looked up by its text. A browser not seen for ``COOKIE_DAYS`` (its
cookie's life) is forgotten, and so is one whose player never chose a name nor played
(``UNNAMED_DAYS``, as guests are): swept when a browser is kept (at most hourly). Only its
row goes: should its token come back, it names the token's own ``web:`` player again
(nothing of an unnamed one was kept; a linked browser is no longer the key's).
Every call runs on the server's one database thread (``trash_tui.tables.worker.Worker``).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable

from trash_tui.history import History
from trash_tui.play.table_protocol import CODE_ALPHABET
from trash_tui.players.identity import WEB_PREFIX, LinkError, is_guest
from trash_tui.tables.worker import Worker

__all__ = ["CODES_ALIVE", "CODE_LENGTH", "CODE_MINUTES", "COOKIE_DAYS", "Browsers",
           "LinkError", "new_token", "token_hash"]

#: How long a browser keeps its cookie (its ``Max-Age``); a browser not seen for that long
#: is forgotten (its player stays: only the token's hash goes).
COOKIE_DAYS = 400
#: A browser whose player never chose a name nor played is forgotten after this long.
UNNAMED_DAYS = 1.0
SWEEP_EVERY = 3600.0  # seconds between two sweeps of the forgotten browsers
#: The server setting holding the key of the tokens' HMACs (hex).
TOKEN_KEY = "web_token_key"
CODE_LENGTH = 8
CODE_MINUTES = 10
CODES_ALIVE = 3
#: A token is 43 characters; anything much longer is not one (and is not hashed).
MAX_TOKEN = 128


def new_token() -> str:
    """32 random bytes, urlsafe base64 (a token no key made: ``Browsers.new`` makes
    those the server knows again)."""
    return secrets.token_urlsafe(32)


def _encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _decode(token: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None


def _mac(key: bytes, purpose: bytes, data: bytes) -> bytes:
    return hmac.new(key, purpose + b":" + data, hashlib.sha256).digest()


def token_hash(token: str) -> str:
    """What the history keeps of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()


def normal_link_code(text: str) -> str | None:
    """``text`` as a link code (upper case, spaces and dashes dropped), or None if it
    cannot be one."""
    code = "".join(char for char in text.upper() if char not in " -")
    if len(code) == CODE_LENGTH and all(char in CODE_ALPHABET for char in code):
        return code
    return None


class Browsers:
    """The browsers' identities and link codes, in the history ``worker`` holds."""

    code_minutes = CODE_MINUTES  # (the table service's ``LinkCodes`` interface)

    def __init__(self, worker: Worker, clock: Callable[[], float] = time.time) -> None:
        self.worker = worker
        self.clock = clock
        self.swept = float("-inf")  # when the forgotten browsers were last swept
        self._key: bytes | None = None

    async def key(self) -> bytes:
        """This server's key for the tokens' HMACs (made and kept on first use)."""
        if self._key is None:
            self._key = await self.worker.db(_token_key)
        return self._key

    async def minted(self, token: str) -> str | None:
        """The player of ``token`` if this server made it (``new``), kept or not; None for
        any other text."""
        raw = _decode(token) if token and len(token) <= MAX_TOKEN else None
        if raw is None or len(raw) != 32:
            return None
        key = await self.key()
        if not hmac.compare_digest(raw[16:], _mac(key, b"token", raw[:16])[:16]):
            return None
        return WEB_PREFIX + _mac(key, b"identity", raw).hex()[:16]

    async def known(self, token: str) -> str | None:
        """The identity of the browser holding ``token`` (a kept browser's last visit
        noted now), or None if this server neither keeps nor made it (a stale token).
        Nothing is added to the history."""
        if not token or len(token) > MAX_TOKEN:
            return None
        hashed, now = token_hash(token), self.clock()
        kept = await self.worker.db(lambda history: history.records.browser(hashed, now))
        return kept if kept is not None else await self.minted(token)

    async def new(self) -> tuple[str, str]:
        """A new browser: its token and its identity (``web:`` and 16 hex digits), kept
        nowhere (``keep`` keeps it, when it starts a session)."""
        key, random = await self.key(), secrets.token_bytes(16)
        token = _encode(random + _mac(key, b"token", random)[:16])
        identity = await self.minted(token)
        assert identity is not None
        return token, identity

    async def keep(self, token: str) -> str | None:
        """Keep the browser holding ``token`` (its session starts): its identity, or None
        if this server neither keeps nor made it. Sweeps the forgotten browsers (at most
        every ``SWEEP_EVERY`` s)."""
        identity = await self.known(token)
        if identity is None:
            return None
        hashed, now = token_hash(token), self.clock()
        sweep = now - self.swept >= SWEEP_EVERY
        if sweep:
            self.swept = now

        def keep(history: History) -> str:
            if sweep:
                history.records.forget_browsers(now - COOKIE_DAYS * 86400,
                                                now - UNNAMED_DAYS * 86400, WEB_PREFIX)
            return history.records.keep_browser(hashed, identity, now)

        return await self.worker.db(keep)

    async def make_code(self, identity: str) -> str:
        """A new one-time code that links a browser to ``identity``; LinkError for a guest
        (nothing is kept for them)."""
        if not identity or is_guest(identity):
            raise LinkError("a guest cannot link a browser: nothing is kept for a guest "
                            "(connect with an SSH key)")
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        now = self.clock()
        await self.worker.db(lambda history: history.records.add_link_code(
            code, identity, now + CODE_MINUTES * 60, now, CODES_ALIVE))
        return code

    async def link(self, token: str, code: str) -> str:
        """Make the browser holding ``token`` the player who made ``code``: that identity
        (a token not known yet is kept from now on, as that player's). LinkError (one
        line) for a code that is wrong, used or over, and nothing changes."""
        wanted = normal_link_code(code)
        if wanted is None:
            raise LinkError(f"not a link code: a link code is {CODE_LENGTH} letters and "
                            "digits, as the SSH lobby shows it")
        if not token or len(token) > MAX_TOKEN:
            raise LinkError("this browser has no player yet: open the page first")
        hashed, now = token_hash(token), self.clock()
        return await self.worker.db(lambda history: _link(history, hashed, wanted, now))


def _token_key(history: History) -> bytes:
    """On the database thread: the tokens' key, made if the history has none yet."""
    kept = history.records.setting(TOKEN_KEY)
    if kept is not None:
        # a damaged value is replaced by a new key: the browsers kept in the history
        # stay their players; a token never kept starts anew
        with contextlib.suppress(ValueError):
            return bytes.fromhex(kept)
    key = secrets.token_bytes(32)
    history.records.set_setting(TOKEN_KEY, key.hex())
    return key


def _link(history: History, hashed: str, wanted: str, now: float) -> str:
    """On the database thread: find ``wanted`` among the kept codes (each compared in
    constant time), and use it."""
    found = None
    for row in history.records.link_codes():
        if hmac.compare_digest(row.code.encode(), wanted.encode()):
            found = row  # (no break: every kept code is compared)
    if found is None:
        raise LinkError("no such link code: check it, or make a new one in the SSH lobby")
    if found.used is not None:
        raise LinkError("this link code was used already: make a new one in the SSH lobby")
    if found.expires <= now:
        raise LinkError(f"this link code is over (a code holds {CODE_MINUTES} minutes): "
                        "make a new one in the SSH lobby")
    identity = history.records.use_link_code(found.code, hashed, now)
    if identity is None:  # (cannot happen on the one thread; said all the same)
        raise LinkError("this link code was used already: make a new one in the SSH lobby")
    return identity
