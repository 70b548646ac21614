"""The web face of ``trash serve``: aiohttp on the server's event loop, a browser's session
run by the same runner as an SSH session (``ssh.server.serve_session``).

``WebFront(server, config, browsers)``; ``await start()`` listens (``config.host`` and
``port``; https under TLS), ``url`` is the page's public URL, ``close()`` stops accepting,
``await stop()`` closes the rest (the server's ``stop`` calls both: a web front is one of
its ``fronts``). What it answers:

- ``GET /`` and ``GET /t/CODE``: the page (``page.py``); ``/t/CODE`` opens the table of
  that code as ``ssh CODE@HOST`` does (its socket URL carries ``?join=CODE``; a code that
  cannot be one: the page says so in its line and opens the lobby). The browser's cookie
  (``COOKIE``: a long random token, ``identity.Browsers``) is its player; a browser with
  none, or one this server does not know (the page says so), gets a new one, which costs
  nothing kept: the history keeps a browser when its first session starts.
- ``GET /ws``: the WebSocket (``socket_end.SocketEnd``), a session of the cookie's
  player; ``GET /link/CODE``: this browser becomes the SSH key's player that made the
  code, then back to ``/``; ``GET /health``: ``ok``; ``/static/...``: the page's files.
- anything else: 404 with one line. Every answer carries the page's security headers.

A connection has ``listener.REQUEST_TIMEOUT`` s to send a whole request; an address (not
a trusted proxy) has a bounded number open, and every address together too
(``listener.Connections``). Before any work for a request (``guard.py``): the per-address
bucket (the SSH side's: ``connections_per_minute``; a flood gets one 429 line), a ban of
the address (403); for the WebSocket also its ``Origin`` (403 for another site's page),
then, once upgraded, a ban of the player and one of the server's connection slots, shared
with the SSH connections (``connections_per_ip`` per address, ``max_connections`` in all:
each refusal in its own words), and the sessions' slots; a refusal the page can show is
sent as ``["refused", LINE]`` before the close. A refused request is counted in the
metrics and logged in the connection log as the SSH side logs a refused connection (a run
of refusals by the rate limit once, a banned address at most ``BANNED_LINES_PER_MINUTE``
lines a minute); a session's line is the runner's, as over SSH.
"""

from __future__ import annotations

import asyncio
import logging
import os
import ssl
import time
from typing import TYPE_CHECKING, Protocol
from urllib.parse import parse_qsl

from aiohttp import web
from aiohttp.typedefs import Handler

from trash_tui.play.table_protocol import normal_code
from trash_tui.ssh import limits
from trash_tui.ssh.config import ServeError, WebConfig
from trash_tui.ssh.connlog import LogEntry
from trash_tui.ssh.server import Session, serve_session
from trash_tui.web import guard, listener, page
from trash_tui.web.identity import LinkError
from trash_tui.web.listener import Connections
from trash_tui.web.socket_end import SocketEnd

if TYPE_CHECKING:
    from trash_tui.ssh.server import RunningServer, ServerState

COOKIE = "trash_player"
COOKIE_DAYS = 400
#: The terminal a browser's session gets (xterm.js)
TERM = "xterm-256color"
MAX_MESSAGE = 64 * 1024  # bytes of one WebSocket message
HEARTBEAT = 30.0  # seconds between pings; a browser that does not answer is gone
MAX_LINE = 4096  # bytes of a request line / one header field
MAX_BODY = 1024  # bytes of a request body (the web face takes none)
STALE = "This browser was not known here: it starts as a new player."
NOT_A_CODE = "That link's table code is not one: here is the lobby."
UNKNOWN = ("trash: this browser has no player here (its cookie is missing or unknown): "
           "reload the page")
RATE = "trash: too many connections from your address: wait a minute and try again"
SERVER_FULL = "trash: the server has all the connections it takes: try again later"
FOREIGN = "trash: this socket is for this server's own page"
NOT_FOUND = "trash: there is no such page here"


class Identities(Protocol):
    """The browsers' identities (``identity.Browsers``)."""

    async def known(self, token: str) -> str | None: ...

    async def new(self) -> tuple[str, str]: ...

    async def keep(self, token: str) -> str | None: ...

    async def link(self, token: str, code: str) -> str: ...


def _line(status: int, text: str) -> web.Response:
    return web.Response(status=status, text=text + "\n", headers=page.SECURITY_HEADERS)


class WebFront:
    """The web face of a running server."""

    def __init__(self, server: RunningServer, browsers: Identities) -> None:
        self.server = server
        self.state: ServerState = server.state
        self.listening: WebConfig = server.state.config.web  # (what a restart changes)
        self.browsers = browsers
        self.runner: web.AppRunner | None = None
        self.listener: asyncio.Server | None = None
        self.connections = Connections(lambda: self.config.trusted_proxies,
                                       lambda: self.state.config.connections_per_ip,
                                       self.state.refused,
                                       lambda: self.state.config.max_connections)
        self.port = self.listening.port or 0
        self.sockets: set[SocketEnd] = set()
        self.assets = page.assets()

    # --- listening -----------------------------------------------------------------------
    async def start(self) -> None:
        """Listen; OSError (address in use, ...) and ssl.SSLError as they come."""
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_get("/", self.page)
        app.router.add_get("/t/{code}", self.page)
        app.router.add_get("/ws", self.socket)
        app.router.add_get("/link/{code}", self.link)
        app.router.add_get("/health", self.health)
        app.router.add_get("/favicon.ico", self.no_icon)
        app.router.add_get("/static/{name:.+}", self.static)
        app.middlewares.append(self._first)
        self.runner = web.AppRunner(app, access_log=None, handle_signals=False,
                                    max_line_size=MAX_LINE, max_field_size=MAX_LINE,
                                    keepalive_timeout=listener.REQUEST_TIMEOUT,
                                    shutdown_timeout=1.0,
                                    logger=self._logger())
        await self.runner.setup()
        assert self.runner.server is not None
        context = None
        listening = self.listening
        try:
            if listening.tls:
                context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
                context.load_cert_chain(str(listening.tls_certificate), str(listening.tls_key))
            loop = asyncio.get_running_loop()
            self.listener = await loop.create_server(
                self.connections.protocols(self.runner.server), listening.host,
                listening.port or 0, ssl=context, reuse_address=True, backlog=128,
                ssl_handshake_timeout=listener.REQUEST_TIMEOUT if context else None)
        except BaseException:
            await self.runner.cleanup()
            raise
        self.port = self.listener.sockets[0].getsockname()[1]
        self.state.web_url = self.url
        self.server.fronts.append(self)

    @property
    def config(self) -> WebConfig:
        """The ``[web]`` values in force (a reload changes the public URL and the
        trusted proxies at once)."""
        return self.state.config.web

    @property
    def url(self) -> str:
        """The page's public URL (no trailing slash)."""
        if self.config.public_url:
            return self.config.public_url.rstrip("/")
        host, _ = self.state.tables.public_address or (self.listening.host, 0)
        host = f"[{host}]" if ":" in host else host
        scheme = "https" if self.listening.tls else "http"
        return f"{scheme}://{host}:{self.port}"

    def describe(self) -> str:
        """The start-up line: where the page is."""
        host = self.listening.host
        host = f"[{host}]" if ":" in host else host
        return (f"trash serve: the web face at {self.url}/ (listening on {host}:{self.port}"
                f"{' with TLS' if self.listening.tls else ''}; trusted proxies: "
                f"{', '.join(map(str, self.config.trusted_proxies)) or 'none'})")

    def close(self) -> None:
        """Stop accepting new connections (the sessions go on until the server ends them)."""
        if self.listener is not None:
            self.listener.close()

    async def stop(self) -> None:
        """Close every socket left and the listener."""
        self.close()
        for end in list(self.sockets):
            await end.finish()
        self.connections.stop()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    def _logger(self) -> logging.Logger:
        """aiohttp's notes on bad requests, through the server's reporter (escaped, a
        repeated one written once with a count)."""
        logger = logging.getLogger("trash_tui.web.requests")
        logger.propagate = False
        logger.handlers[:] = [self.state.reporter.log_handler()]
        return logger

    # --- connections ---------------------------------------------------------------------
    # --- requests --------------------------------------------------------------------------
    @web.middleware
    async def _first(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """A whole request has come (its connection's timer stops); a missing page or a
        method other than GET: one line."""
        self.connections.requested(request.protocol)
        try:
            return await handler(request)
        except web.HTTPNotFound:
            return _line(404, NOT_FOUND)
        except web.HTTPMethodNotAllowed:
            return _line(405, "trash: only GET is answered here")

    def _address(self, request: web.Request) -> str:
        return guard.client_address(request, self.config.trusted_proxies)

    def _peer(self, request: web.Request) -> str:
        """The player's address and the peer's port, as the connection log names a peer."""
        address, (_, port) = self._address(request), guard.peer_of(request)
        return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"

    def _refused(self, request: web.Request, reason: str, logged: bool = True) -> None:
        """Count a refusal (the metrics' ``reason``) and, if ``logged``, log it as the SSH
        side logs a refused connection."""
        self.state.refused(reason)
        if logged:
            self.state.log.write(LogEntry("connection", self._peer(request),
                                          f"refused: {reason}", 0.0))

    def _refusal(self, request: web.Request) -> web.Response | None:
        """The answer to a request refused before any work (a flood, a banned address):
        logged as the SSH side does (a ban at most ``BANNED_LINES_PER_MINUTE`` lines a
        minute, a run of refusals by the rate limit once)."""
        address = self._address(request)
        if self.state.stopping:
            return _line(503, "trash: the server is stopping, try again later")
        sanction = self.state.moderation.banned(None, address)
        if sanction is not None:
            self._refused(request, "banned", self.state.banned_lines.admit() is not None)
            return _line(403, f"trash: {sanction.line()}")
        allowed, refusals = self.state.rate.take(address)
        if not allowed:
            self._refused(request, "rate limit", refusals == 1)
            return _line(429, RATE)
        return None

    async def health(self, request: web.Request) -> web.Response:
        if self.state.stopping:
            return _line(503, "stopping")
        return _line(200, "ok")

    async def no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204, headers=page.SECURITY_HEADERS)

    async def static(self, request: web.Request) -> web.StreamResponse:
        found = self.assets.get(request.match_info["name"])
        if found is None:
            return _line(404, NOT_FOUND)
        path, kind = found
        return web.FileResponse(path, headers={**page.SECURITY_HEADERS, "Content-Type": kind,
                                               "Cache-Control": "public, max-age=3600"})

    async def _player(self, request: web.Request) -> tuple[str | None, str | None, bool]:
        """The browser's (token, identity, stale): its cookie's player, if known."""
        token = request.cookies.get(COOKIE, "")
        if not token:
            return None, None, False
        identity = await self.browsers.known(token)
        return (token, identity, False) if identity is not None else (None, None, True)

    def _set_cookie(self, response: web.StreamResponse, request: web.Request,
                    token: str) -> None:
        response.set_cookie(COOKIE, token, max_age=COOKIE_DAYS * 86400, path="/",
                            httponly=True, samesite="Lax",
                            secure=guard.scheme_of(request, self.config.trusted_proxies)
                            == "https")

    async def page(self, request: web.Request) -> web.StreamResponse:
        refused = self._refusal(request)
        if refused is not None:
            return refused
        host = guard.host_of(request)
        if host is None:
            return _line(400, "trash: this request's Host is not a host name")
        notice = ""
        query = ""
        if "code" in request.match_info:
            code = normal_code(request.match_info["code"])
            if code is None:
                notice = NOT_A_CODE
            else:
                query = f"?join={code}"
        _, identity, stale = await self._player(request)
        new_token = None
        if identity is None:
            new_token, identity = await self.browsers.new()
            if stale:
                notice = STALE
        scheme = "wss" if guard.scheme_of(request, self.config.trusted_proxies) == "https" \
            else "ws"
        socket_origin = f"{scheme}://{host}"
        response = web.Response(text=page.render(f"{socket_origin}/ws{query}", notice),
                                content_type="text/html", headers={
                                    **page.SECURITY_HEADERS, "Cache-Control": "no-store",
                                    "Content-Security-Policy": page.policy(socket_origin)})
        if new_token is not None:
            self._set_cookie(response, request, new_token)
        return response

    async def link(self, request: web.Request) -> web.StreamResponse:
        refused = self._refusal(request)
        if refused is not None:
            return refused
        token, _, _ = await self._player(request)
        if token is None:
            token, _ = await self.browsers.new()
        try:
            await self.browsers.link(token, request.match_info["code"])
        except LinkError as exc:
            return _line(400, f"trash: {exc}")
        response = web.Response(status=302, headers={**page.SECURITY_HEADERS, "Location": "/"})
        self._set_cookie(response, request, token)
        return response

    async def socket(self, request: web.Request) -> web.StreamResponse:
        refused = self._refusal(request)
        if refused is not None:
            return refused
        if not guard.origin_allowed(request, self.url, self.config.trusted_proxies):
            self._refused(request, "wrong origin")
            return _line(403, FOREIGN)
        address = self._address(request)
        # textual.js appends "?width=..." to the URL, which may carry "?join=CODE" already
        query = dict(parse_qsl(request.query_string.replace("?", "&")))
        columns, rows = _number(query.get("width")), _number(query.get("height"))
        token, identity, _ = await self._player(request)
        socket = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=HEARTBEAT,
                                       compress=False)
        await socket.prepare(request)
        end = SocketEnd(socket, columns, rows)
        self.sockets.add(end)
        holds_slot = False
        try:
            if identity is None:
                self._refused(request, "unknown browser")
                end.refuse(UNKNOWN)
                return socket
            sanction = self.state.moderation.banned(identity, address)
            if sanction is not None:
                self._refused(request, "banned")
                end.refuse(f"trash: {sanction.line()}")
                return socket
            full = self.state.connection_slots.take(address)
            if full is not None:
                self._refused(request, "too many connections")
                end.refuse(SERVER_FULL if full == limits.SERVER_FULL else
                           "trash: " + _too_many(self.state.connection_slots.per_address))
                return socket
            holds_slot = True
            identity = await self.browsers.keep(token or "") or identity
            self.state.saw(identity, address)
            session = Session(self._peer(request), address, identity, term=TERM,
                              size=f"{end.size()[0]}x{end.size()[1]}",
                              username=query.get("join", ""), end=end,
                              started=time.monotonic())
            await serve_session(self.state, session)
        finally:
            if holds_slot:
                self.state.connection_slots.release(address)
            await end.finish()
            self.sockets.discard(end)
        return socket


def _number(text: str | None) -> int:
    try:
        return int(text or 0)
    except ValueError:
        return 0


def _too_many(per_address: int) -> str:
    return (f"at most {per_address} connections at once from one address: close a tab "
            "or a session and try again")


async def start_web(server: RunningServer, browsers: Identities | None = None) -> WebFront:
    """Start the web face of ``server`` as its config's ``[web]`` table says (its
    ``Browsers`` on the server's database worker unless given). ServeError (one line)
    when it cannot listen or read its certificate."""
    if browsers is None:
        from trash_tui.web.identity import Browsers

        browsers = Browsers(server.state.worker)
    front = WebFront(server, browsers)
    listening = front.listening
    try:
        await front.start()
    except ssl.SSLError as exc:
        raise ServeError(f"web: cannot use the TLS certificate {listening.tls_certificate} "
                         f"and key {listening.tls_key}: {exc.reason or exc}") from None
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else (exc.strerror or exc)
        raise ServeError(f"web: cannot listen on {listening.host}:{listening.port}: "
                         f"{reason}") from None
    return front
