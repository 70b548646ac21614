"""The server's limits: new connections per address (a token bucket: the table service's
``TokenBucket``), session slots, and how many lines a flood of refused connections may
write (``LogThrottle``, a bucket too).

Addresses are grouped the way one client usually holds them: an IPv4 address alone, an
IPv6 address by its /64 network. Both classes take a clock so tests can drive time.
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable

from trash_tui.tables.rates import TokenBucket

#: At most this many addresses are remembered by the rate limiter (the least recently
#: seen are forgotten first; a forgotten address starts again with a full bucket).
MAX_TRACKED_ADDRESSES = 10_000
FULL_MESSAGE = "the server is full, try again later"
#: A session over ``sessions_per_ip``: it is this address, not the server, that is full.
ADDRESS_FULL_MESSAGE = ("this address has {count} session{s} open, the most one address "
                        "may have: close one or try again later")
SERVER_FULL, ADDRESS_FULL = "server full", "address full"  # why ``take`` refused
#: Lines a minute the log gives connections refused for a ban (a burst of as many at once).
BANNED_LINES_PER_MINUTE = 10


def address_full_message(count: int) -> str:
    """What a session over the per-address limit (``count``) is told."""
    return ADDRESS_FULL_MESSAGE.format(count=count, s="" if count == 1 else "s")


def client_key(address: str) -> str:
    """The key an address is counted under: the IPv4 address, or the IPv6 /64 network
    (an IPv4-mapped IPv6 address counts as its IPv4 address)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class RateLimiter:
    """A token bucket per address (``TokenBucket``, the table service's too):
    ``per_minute`` connections at once, refilled at ``per_minute`` a minute."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        # per address: its bucket, and how many connections in a row it has had refused
        self.buckets: OrderedDict[str, tuple[TokenBucket, int]] = OrderedDict()

    def set_rate(self, per_minute: int) -> None:
        """A new limit (a reload): every address's bucket takes it."""
        self.per_minute = per_minute
        for bucket, _refused in self.buckets.values():
            bucket.set_rate(per_minute, per_minute / 60.0)

    def take(self, address: str) -> tuple[bool, int]:
        """Take a token for a new connection from ``address``: (whether there was one,
        how many connections in a row have been refused, this one included)."""
        key = client_key(address)
        bucket, refused = self.buckets.pop(key, (None, 0))
        if bucket is None:
            bucket = TokenBucket.per_minute(self.per_minute, self.clock)
        allowed = bucket.take()
        refused = 0 if allowed else refused + 1
        self.buckets[key] = (bucket, refused)
        while len(self.buckets) > MAX_TRACKED_ADDRESSES:
            self.buckets.popitem(last=False)
        return allowed, refused

    def allow(self, address: str) -> bool:
        """Take a token for a new connection from ``address``; False when there is none."""
        return self.take(address)[0]


class SessionSlots:
    """Concurrent sessions: at most ``total`` in all and ``per_address`` per address."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total = total
        self.per_address = per_address
        self.by_address: defaultdict[str, int] = defaultdict(int)
        self.used = 0

    def take(self, address: str) -> str | None:
        """Take a slot for a session from ``address``: None when taken, else which limit
        refused it (``ADDRESS_FULL``: this address has ``per_address`` slots already;
        ``SERVER_FULL``: all ``total`` are taken)."""
        key = client_key(address)
        held = self.by_address.get(key, 0)
        if held >= self.per_address:
            return ADDRESS_FULL
        if self.used >= self.total:
            return SERVER_FULL
        self.used += 1
        self.by_address[key] = held + 1
        return None

    def acquire(self, address: str) -> bool:
        """Take a slot for a session from ``address``; False when a limit is reached."""
        return self.take(address) is None

    def release(self, address: str) -> None:
        """Give back a slot taken by ``acquire``."""
        key = client_key(address)
        if self.by_address.get(key, 0) <= 0:
            return
        self.used -= 1
        self.by_address[key] -= 1
        if not self.by_address[key]:
            del self.by_address[key]


class LogThrottle:
    """At most ``per_minute`` log lines a minute (a token bucket, ``per_minute`` at once);
    the lines left out are counted, and the count goes with the next line written (or
    ``pending``'s summary)."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.bucket = TokenBucket.per_minute(per_minute, clock)
        self.left_out = 0  # lines not written since the last one that was

    def admit(self) -> int | None:
        """None: leave this line out (it is counted). Else write it, with the number of
        lines left out before it."""
        if not self.bucket.take():
            self.left_out += 1
            return None
        left_out, self.left_out = self.left_out, 0
        return left_out

    def pending(self) -> int:
        """The lines left out since the last one written (now counted as summed up)."""
        left_out, self.left_out = self.left_out, 0
        return left_out
