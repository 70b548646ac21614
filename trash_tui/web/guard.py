"""What the web front checks before it does any work for a request: who is asking (the
peer's address, or the ``X-Forwarded-For`` of a trusted proxy), by which scheme and host,
and whether a WebSocket's ``Origin`` is this page's own.

An address is believed from ``X-Forwarded-For`` only when the peer is one of the
``trusted_proxies``: then the last address in the header that is not itself a trusted
proxy is the player's (a client can put anything before it). The same goes for
``X-Forwarded-Proto`` (https) and ``X-Forwarded-Host``-free hosts: the page's host is the
request's ``Host``, which must look like a host name (``HOST_TEXT``).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from aiohttp import web

from trash_tui.ssh.config import Network

#: A Host header the page may name (a name or an address, and a port).
HOST_TEXT = re.compile(r"[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def plain_address(text: str) -> str:
    """An address as the limits and bans key it (IPv4 plainly, not ``::ffff:``-mapped)."""
    parsed = _address(text)
    return str(parsed) if parsed is not None else text


def trusted(address: str, proxies: Iterable[Network]) -> bool:
    """Whether ``address`` is one of the trusted proxies."""
    parsed = _address(address)
    return parsed is not None and any(parsed in network for network in proxies)


def peer_of(request: web.Request) -> tuple[str, int]:
    """The TCP peer's address (IPv4 plainly, not ``::ffff:``-mapped) and port."""
    peer = request.transport.get_extra_info("peername") if request.transport else None
    if not peer:
        return "?", 0
    return plain_address(str(peer[0])), int(peer[1])


def client_address(request: web.Request, proxies: Iterable[Network]) -> str:
    """The player's address: the peer's, or what a trusted proxy says it forwarded."""
    proxies = tuple(proxies)
    address, _ = peer_of(request)
    if not proxies or not trusted(address, proxies):
        return address
    hops = [hop.strip() for line in request.headers.getall("X-Forwarded-For", [])
            for hop in line.split(",")]
    for hop in reversed(hops):
        parsed = _address(hop)
        if parsed is None:
            return address  # (a garbled header from a trusted proxy: its own address)
        if not trusted(str(parsed), proxies):
            return str(parsed)
    return address


def scheme_of(request: web.Request, proxies: Iterable[Network]) -> str:
    """"https" or "http": the request's own, or the trusted proxy's X-Forwarded-Proto."""
    address, _ = peer_of(request)
    if trusted(address, proxies):
        forwarded = request.headers.get("X-Forwarded-Proto", "").split(",")[0].strip()
        if forwarded in ("http", "https"):
            return forwarded
    return "https" if request.secure else "http"


def host_of(request: web.Request) -> str | None:
    """The request's Host, if it looks like one (else None: the request is refused)."""
    host = request.headers.get("Host", "")
    return host if HOST_TEXT.fullmatch(host) else None


def origin_allowed(request: web.Request, public_url: str,
                   proxies: Iterable[Network]) -> bool:
    """Whether a WebSocket's ``Origin`` is the public URL's origin or the request's own
    scheme://Host (a page of this server); no Origin at all is refused too."""
    origin = request.headers.get("Origin", "")
    if not origin:
        return False
    wanted = {_origin(public_url)}
    host = host_of(request)
    if host is not None:
        wanted.add(f"{scheme_of(request, proxies)}://{host}".lower())
    return origin.lower() in wanted


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()
