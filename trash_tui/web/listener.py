"""The web face's TCP connections, before aiohttp has a whole request from them.

aiohttp takes any number of connections, and only its newer versions close one that has
not sent a whole request in time (its keep-alive timer, from the connection's start: not
relied on here). ``Connections.protocols`` wraps an aiohttp server's request handlers
(``_Watched``: the event loop tells it of each connection made and lost, and it tells the
handler and ``Connections``): a new connection has ``REQUEST_TIMEOUT`` s to send its first whole
request (``requested`` stops its timer; the server's keep-alive timeout bounds the wait
for the next one), and an address that is not a trusted proxy may hold at most
``CONNECTIONS_PER_SOCKET`` x ``connections_per_ip`` open connections, every address
together (trusted proxies too) ``CONNECTIONS_PER_SOCKET`` x ``max_connections``: the next
is closed at once, before anything is read from it. (A WebSocket also holds one of the
server's ``max_connections`` slots, shared with the SSH connections: ``front.py``.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from trash_tui.ssh.config import Network
from trash_tui.web import guard

#: seconds a connection has to send a whole request (and to send the next one on a
#: kept-alive connection, and for a TLS handshake): a slow or half-open client is closed
REQUEST_TIMEOUT = 10.0
#: open TCP connections from one address (not a trusted proxy): this many for each of its
#: ``connections_per_ip`` sockets (a browser loads a page's files over several); from every
#: address together: this many for each of the server's ``max_connections``
CONNECTIONS_PER_SOCKET = 4


class Connections:
    """The open connections of one aiohttp server, timed and counted by address."""

    def __init__(self, proxies: Callable[[], Sequence[Network]],
                 per_ip: Callable[[], int], refused: Callable[[str], None],
                 total: Callable[[], int]) -> None:
        self.proxies = proxies  # (read at each connection: a reload changes them)
        self.per_ip = per_ip  # the server's connections_per_ip, max_connections
        self.total = total
        self.count = 0  # open connections, every address together
        self.refused = refused  # counts a refusal by its reason
        self.waiting: dict[RequestHandler, asyncio.TimerHandle] = {}  # no request yet
        self.open: dict[RequestHandler, str] = {}  # open connections, their address
        self.counted: set[RequestHandler] = set()  # those counted for their address
        self.by_address: dict[str, int] = {}

    def protocols(self, server: web.Server) -> Callable[[], asyncio.Protocol]:
        """The protocol factory to listen with: ``server``'s request handlers, each
        wrapped so that this counts its connection as it is made and lost."""

        def make() -> asyncio.Protocol:
            return _Watched(server(), self)

        return make

    def made(self, handler: RequestHandler, transport: asyncio.BaseTransport) -> None:
        """A connection is open (``handler`` has it): counted, refused over a bound, timed
        until its first whole request."""
        peer = transport.get_extra_info("peername")
        address = guard.plain_address(str(peer[0])) if peer else "?"
        if self.count >= CONNECTIONS_PER_SOCKET * self.total():
            self.refused("too many connections")
            transport.close()
            return
        self.count += 1
        self.open[handler] = address
        if not guard.trusted(address, self.proxies()):
            held = self.by_address.get(address, 0)
            if held >= CONNECTIONS_PER_SOCKET * self.per_ip():
                self.refused("too many connections")
                self._forget(handler)
                transport.close()
                return
            self.by_address[address] = held + 1
            self.counted.add(handler)
        self.waiting[handler] = asyncio.get_running_loop().call_later(
            REQUEST_TIMEOUT, self._too_slow, handler, transport)

    def lost(self, handler: RequestHandler) -> None:
        """``handler``'s connection has closed."""
        self.requested(handler)
        self._forget(handler)

    def _forget(self, handler: RequestHandler) -> None:
        """``handler``'s connection is no longer counted."""
        address = self.open.pop(handler, None)
        if address is None:
            return
        self.count -= 1
        if handler in self.counted:
            self.counted.discard(handler)
            held = self.by_address.get(address, 1) - 1
            if held > 0:
                self.by_address[address] = held
            else:
                self.by_address.pop(address, None)

    def requested(self, handler: RequestHandler) -> None:
        """A whole request has come on ``handler``'s connection: its timer stops."""
        timer = self.waiting.pop(handler, None)
        if timer is not None:
            timer.cancel()

    def _too_slow(self, handler: RequestHandler, transport: asyncio.BaseTransport) -> None:
        self.waiting.pop(handler, None)
        transport.close()

    def stop(self) -> None:
        for timer in self.waiting.values():
            timer.cancel()
        self.waiting.clear()


class _Watched(asyncio.Protocol):
    """An aiohttp request handler as the event loop sees it, telling ``Connections`` of
    its connection's start and end (everything else is the handler's own)."""

    def __init__(self, handler: RequestHandler, connections: Connections) -> None:
        self.handler = handler
        self.connections = connections

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.handler.connection_made(transport)
        self.connections.made(self.handler, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self.connections.lost(self.handler)
        self.handler.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.handler.data_received(data)

    def eof_received(self) -> bool | None:
        self.handler.eof_received()
        return None

    def pause_writing(self) -> None:
        self.handler.pause_writing()

    def resume_writing(self) -> None:
        self.handler.resume_writing()
