"""The web face's configuration: the ``[web]`` table of the server's TOML file.

``WebConfig`` holds what the web front needs: ``host`` (default 127.0.0.1, like the SSH
side), ``port`` (None: no web face), ``public_url`` (where players open the page; default
``http(s)://<public host>:<port>``), ``tls_certificate`` and ``tls_key`` (both or
neither: the page is then served over https and the socket over wss) and
``trusted_proxies`` (addresses or networks whose ``X-Forwarded-For`` and
``X-Forwarded-Proto`` are believed; from anyone else the peer address is the player's).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class WebConfig:
    """The ``[web]`` table, validated."""

    port: int | None = None
    host: str = "127.0.0.1"
    public_url: str | None = None
    tls_certificate: Path | None = None
    tls_key: Path | None = None
    trusted_proxies: tuple[Network, ...] = field(default_factory=tuple)

    @property
    def tls(self) -> bool:
        return self.tls_certificate is not None and self.tls_key is not None
