"""The app's line to the SSH server's table service (shared tables), and what it says.

Over SSH, the server gives each session's app the service's socket and a token in its
environment (``trash_tui.play.table_protocol``). ``TablesLink.from_environment`` reads them;
``connect`` says hello (the token proves who the player is), returns the welcome
(``waiting`` names a table where the player holds a seat) and from then on posts what the
service sends to the app as typed Textual messages, in the order it came: ``TableUpdate``,
``TableChat``, ``TablesList``, ``ServerSay``, ``ServerMotd``, ``Kicked``... (one class a
kind of message, ``MESSAGES``), ``LinkUp`` once connected and ``LinkLost`` when the
connection ends. The app passes them on to its screens (``TrashApp.pass_on``), which
handle the kinds they show with ``on_...`` handlers; a screen gets only the kinds it has
a handler for (``handles``). The reader only posts: a screen's handler that fails never
ends it (``contained`` keeps a handler's error to that handler). The message of the day
is kept on the link (``motd``, cleaned) for the screens shown later. The link also says
how the session came in (``way``: "ssh" or "web") and the server's web face's public URL
(``web_url``, when it has one), from the environment.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

from textual.dom import DOMNode
from textual.message import Message

from trash_tui.play.table_protocol import (
    JOIN_ENV,
    MAX_LINE,
    SOCKET_ENV,
    TOKEN_ENV,
    WAY_ENV,
    WEB_URL_ENV,
    ProtocolError,
    decode,
    encode,
    normal_code,
)
from trash_tui.text import clean

MOTD_LENGTH = 300


@dataclass
class TableMessage(Message, bubble=False):
    """A message from the table service: ``data`` holds its fields as the service sent
    them (text from other players and the operator: clean what is shown). Each kind says
    ``bubble=False`` again (Textual makes a subclass bubble otherwise): the app passes
    them to its screens itself."""

    data: dict[str, Any]

    def again(self) -> TableMessage:
        """The same message, to post to another screen (a message is handled once)."""
        return replace(self)


class TableUpdate(TableMessage, bubble=False):
    """The table as it is now (``table``; for a match, ``observation``, ``seat``, ...)."""


class TableChat(TableMessage, bubble=False):
    """A chat line said at the table (``from``, ``text``, ``mine``)."""


class TableNotice(TableMessage, bubble=False):
    """The table's own notice (``text``: who came, who left, who is back)."""


class TableError(TableMessage, bubble=False):
    """A request refused (``message``; ``watch``: the table may be watched instead)."""


class TableResult(TableMessage, bubble=False):
    """The finished match's word from the history: who had left, the ratings' changes."""


class TableCreated(TableMessage, bubble=False):
    """The table this player created (``table``, ``code``)."""


class TableClosed(TableMessage, bubble=False):
    """The table closed (``why``)."""


class TableLeft(TableMessage, bubble=False):
    """This player is no longer at the table (``why``; none: the answer to a leave)."""


class TablesList(TableMessage, bubble=False):
    """The server's tables (``tables``) and this player's closed ones (``closed``)."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, TablesList)  # only the newest list is worth drawing


class SeatsHeld(TableMessage, bubble=False):
    """The tables where this player holds a seat (``tables``), the closed ones (``closed``)."""


class LinkCode(TableMessage, bubble=False):
    """The answer to ``link_code``: a ``code`` that links a browser and the ``minutes`` it
    holds, or an ``error``."""


class ServerSay(TableMessage, bubble=False):
    """The server operator's notice (``text``, ``seconds``)."""


class ServerMotd(TableMessage, bubble=False):
    """The message of the day changed (the link keeps it: ``TablesLink.motd``)."""


class Kicked(TableMessage, bubble=False):
    """The server's operator ended this session (``why``)."""


class LinkUp(TableMessage, bubble=False):
    """The link is connected (``data``: the welcome)."""


class LinkLost(TableMessage, bubble=False):
    """The link is down (``unavailable``: it never came up)."""


#: The message class for each ``op`` the service sends (others are not for the app).
MESSAGES: dict[str, type[TableMessage]] = {
    "update": TableUpdate, "chat": TableChat, "notice": TableNotice, "error": TableError,
    "result": TableResult, "created": TableCreated, "closed": TableClosed,
    "left": TableLeft, "tables": TablesList, "mine": SeatsHeld, "say": ServerSay,
    "motd": ServerMotd, "kicked": Kicked, "link_code": LinkCode,
}

Handler = TypeVar("Handler", bound=Callable[..., Any])


def contained(handler: Handler) -> Handler:
    """A handler of the link's messages whose error stays its own: said in a toast (and
    Textual's log), not the end of the app, and the messages after it still come."""
    @functools.wraps(handler)
    def run(node: DOMNode, message: TableMessage) -> Any:
        try:
            return handler(node, message)
        except Exception as error:
            node.log.error(f"{type(node).__name__}.{handler.__name__}", repr(error))
            node.app.notify(f"A message from the table could not be shown: "
                            f"{clean(repr(error), 120)}", severity="error", markup=False)
            return None

    run.__dict__["contained"] = True  # (what the tests look for)
    return cast(Handler, run)


def web_address(url: str | None) -> str | None:
    """``url`` as the web face's address to show (no trailing slash), or None if it is not
    an http(s) URL one can type."""
    text = clean(url or "", 200).strip().rstrip("/")
    if not text.startswith(("http://", "https://")) or any(c.isspace() for c in text):
        return None
    return text


def handles(node: DOMNode, message: Message) -> bool:
    """Whether ``node`` has a handler for ``message``: an ``on_...`` method of its class
    or a base, named as Textual names it (``handler_name``; a screen handles the link's
    messages with such methods, never with ``@on``). The app passes each message only to
    the screens that handle it: a screen woken by a message it does not show is not only
    work for nothing, the one under the top screen counts as visible to Textual, which
    then repaints the whole top screen (a board at every move: the player's terminal
    sent the whole screen again)."""
    name = message.handler_name
    return any(name in vars(cls) for cls in type(node).__mro__)


class TablesLink:
    """A connection to the table service: ``send`` requests; what comes is posted."""

    def __init__(self, socket_path: str, token: str, join_code: str | None = None, *,
                 web_url: str | None = None, way: str = "ssh") -> None:
        self.socket_path = socket_path
        self.token = token
        self.join_code = join_code  # from the SSH user name: go straight to that table
        self.web_url = web_address(web_url)  # the server's web face (None: it has none)
        self.way = way  # how this session came in: "ssh" or "web"
        self.writer: asyncio.StreamWriter | None = None
        self.post: Callable[[Message], object] = lambda message: None
        self.welcome: dict[str, Any] | None = None
        self.reader_task: asyncio.Task[None] | None = None
        self.closed = False
        self.motd: str | None = None  # the server's message of the day (cleaned)

    @classmethod
    def from_environment(cls, env: Mapping[str, str] = os.environ) -> TablesLink | None:
        """The link the server set up for this session, or None (not over SSH)."""
        socket_path, token = env.get(SOCKET_ENV), env.get(TOKEN_ENV)
        if not socket_path or not token:
            return None
        return cls(socket_path, token, normal_code(env.get(JOIN_ENV, "")),
                   web_url=env.get(WEB_URL_ENV), way=env.get(WAY_ENV) or "ssh")

    @property
    def connected(self) -> bool:
        return self.writer is not None and not self.closed

    async def connect(self, post: Callable[[Message], object], timeout: float = 5.0
                      ) -> dict[str, Any]:
        """Connect and say hello; the welcome. From then on every message is given to
        ``post`` (the app's ``post_message``), ``LinkUp`` first. OSError or ProtocolError
        on failure."""
        reader, writer = await asyncio.wait_for(
            asyncio.open_unix_connection(self.socket_path, limit=MAX_LINE), timeout)
        writer.write(encode({"op": "hello", "token": self.token}))
        line = await asyncio.wait_for(reader.readline(), timeout)
        welcome = decode(line)
        if welcome["op"] != "welcome":
            writer.close()
            raise ProtocolError(str(welcome.get("message", "the table service refused")))
        self.writer = writer
        self.welcome = welcome
        self.post = post
        post(LinkUp(welcome))
        self.reader_task = asyncio.ensure_future(self._read(reader))
        return welcome

    def message_for(self, data: dict[str, Any]) -> TableMessage | None:
        """The typed message for what the service sent (None: not for the app)."""
        kind = MESSAGES.get(data["op"])
        if kind is ServerMotd:
            text = data.get("text")
            shown = clean(text, MOTD_LENGTH).strip() if isinstance(text, str) else ""
            self.motd = shown or None
        return kind(data) if kind is not None else None

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                try:
                    message = self.message_for(decode(line))
                except ProtocolError:
                    continue
                if message is not None:
                    self.post(message)  # (posted: no handler runs here)
        except (ConnectionError, OSError, ValueError):
            pass
        finally:
            self.closed = True
            self.post(LinkLost({"op": "disconnected"}))

    def send(self, message: dict[str, Any]) -> bool:
        """Send a request; False when the link is down."""
        if not self.connected or self.writer is None:
            return False
        try:
            self.writer.write(encode(message))
        except (ConnectionError, OSError, RuntimeError):
            self.closed = True
            return False
        return True

    def close(self) -> None:
        self.closed = True
        if self.reader_task is not None:
            self.reader_task.cancel()
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()
