"""Bans and mutes as the server checks them: who a target names, durations, and the list
of sanctions in force (kept in memory, the history database being their record).

A target is a key (``SHA256:...`` fingerprint, ``password:USER``, or a browser's own
player, ``web:...``), an address (one IP
address, or a network such as ``203.0.113.0/24``) or a display name (resolved to the key
registered with it when the sanction is made; a name two players took is refused with
their keys, so a stranger who took the same name is never hit). ``--for`` durations are
``90s``, ``30m``, ``1h``, ``7d``, ``2w`` (or a sum such as ``1d12h``); none: for good.
"""

from __future__ import annotations

import functools
import ipaddress
import re
import time
from dataclasses import dataclass

from trash_tui.players.identity import WEB_PREFIX, is_guest

BAN, MUTE = "ban", "mute"
KEY, ADDRESS = "key", "address"
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_DURATION = re.compile(r"(\d{1,7})([smhdw])")
MAX_DURATION = 10 * 365 * 86400.0


class ModerationError(ValueError):
    """A target or a duration that cannot be used; one line saying why."""


def parse_duration(text: str) -> float:
    """Seconds of ``text`` (``1h``, ``7d``, ``1d12h``...); ModerationError otherwise."""
    spec = text.strip().lower()
    parts = _DURATION.findall(spec)
    if not spec or "".join(f"{n}{u}" for n, u in parts) != spec:
        raise ModerationError(f"not a duration: {text[:40]!r} (e.g. 90s, 30m, 1h, 7d, 2w)")
    seconds = float(sum(int(number) * _UNITS[unit] for number, unit in parts))
    if not 0 < seconds <= MAX_DURATION:
        raise ModerationError("a duration is more than 0 s and at most 10 years")
    return seconds


def is_key(target: str) -> bool:
    """Whether ``target`` is a kept player's identity (a key, a password user, a browser)."""
    return target.startswith(("SHA256:", "password:", WEB_PREFIX))


def address_network(target: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """The network an address target names (one address: a /32 or /128), or None."""
    try:
        return ipaddress.ip_network(target.strip().strip("[]"), strict=False)
    except ValueError:
        return None


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def when_text(until: float | None) -> str:
    """When a sanction ends, for people: "for good" or "until 2026-12-02 20:15 UTC"."""
    if until is None:
        return "for good"
    return "until " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))


@dataclass(frozen=True)
class Sanction:
    """One ban or mute in force (``until`` None: for good)."""

    id: int
    action: str  # BAN or MUTE
    kind: str  # KEY or ADDRESS
    target: str  # the fingerprint, or the address/network as written
    name: str  # the display name it was given by (or "")
    reason: str
    created: float
    until: float | None

    def active(self, now: float) -> bool:
        return self.until is None or now < self.until

    @functools.cached_property
    def network(self) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
        return address_network(self.target) if self.kind == ADDRESS else None

    def covers(self, key: str | None, address: str | None) -> bool:
        if self.kind == KEY:
            return key is not None and key == self.target
        network = self.network
        host = _address(address) if address is not None else None
        return network is not None and host is not None and host.version == network.version \
            and host in network

    def line(self) -> str:
        """What the refused player (or the muted one) is told: the reason and the end."""
        reason = f": {self.reason}" if self.reason else ""
        what = "banned from this server" if self.action == BAN else "muted on this server"
        return f"You are {what} {when_text(self.until)}{reason}"

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "action": self.action, "kind": self.kind,
                "target": self.target, "name": self.name, "reason": self.reason,
                "created": self.created, "until": self.until}


class Moderation:
    """The sanctions in force, checked at every authentication and chat line."""

    def __init__(self, sanctions: list[Sanction] | None = None) -> None:
        self.sanctions: list[Sanction] = list(sanctions or [])
        self._by_key: dict[str, list[Sanction]] | None = None  # the key sanctions, indexed

    def add(self, sanction: Sanction) -> None:
        self.sanctions.append(sanction)
        self._by_key = None

    def lift(self, action: str, target: str) -> list[Sanction]:
        """Remove the sanctions of ``action`` whose target (or name) is ``target``."""
        lifted = [s for s in self.sanctions if s.action == action and
                  (s.target == target or (s.name and s.name.casefold() == target.casefold()))]
        self.sanctions = [s for s in self.sanctions if s not in lifted]
        self._by_key = None
        return lifted

    def active(self, action: str | None = None) -> list[Sanction]:
        now = time.time()
        kept = [s for s in self.sanctions if s.active(now)]
        if len(kept) != len(self.sanctions):
            self.sanctions, self._by_key = kept, None
        return [s for s in self.sanctions if action is None or s.action == action]

    def find(self, action: str, key: str | None = None, address: str | None = None
             ) -> Sanction | None:
        """The sanction of ``action`` in force on ``key`` or ``address``, if any (a key
        is looked up, the address checked against each address sanction)."""
        now = time.time()
        if self._by_key is None:
            self._by_key = {}
            for sanction in self.sanctions:
                if sanction.kind == KEY:
                    self._by_key.setdefault(sanction.target, []).append(sanction)
        if key is not None:
            for sanction in self._by_key.get(key, ()):
                if sanction.action == action and sanction.active(now):
                    return sanction
        if address is None:
            return None
        host = _address(address)
        if host is None:
            return None
        for sanction in self.sanctions:
            network = sanction.network
            if network is not None and sanction.action == action and \
                    host.version == network.version and host in network and \
                    sanction.active(now):
                return sanction
        return None

    def banned(self, key: str | None = None, address: str | None = None) -> Sanction | None:
        return self.find(BAN, key, address)

    def muted(self, key: str, address: str | None = None) -> Sanction | None:
        """The mute on ``key``; for a guest (a new key at every connection) also a mute
        of the address it comes from (a muted guest's, kept as an address mute)."""
        return self.find(MUTE, key, address if is_guest(key) else None)
