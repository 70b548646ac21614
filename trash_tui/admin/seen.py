"""Which keys came from which addresses (ban evasion: a new key from the same address gets
in by design; the operator needs to see it).

Each authenticated connection of a key (or a password user; guests are new at every
connection and are not kept) counts in one row per (identity, address) pair of the
``key_addresses`` table in the history database: first seen, last seen, how many times.
So it is bounded by the pairs, whatever the number of connections, and it is in backups.
The table is created with the history's other tables (``trash_tui.history.records``: an
existing database is upgraded in place). Addresses are kept as the server saw them, an IPv4
client of a dual-stack socket as its IPv4 address.
"""

from __future__ import annotations

import ipaddress
import time
from typing import Any

from trash_tui.history import History

#: The most rows one look-up returns (newest first).
MAX_ROWS = 500
Network = ipaddress.IPv4Network | ipaddress.IPv6Network



def normal_address(address: str) -> str:
    """``address`` as it is kept: an IPv4-mapped IPv6 address as IPv4, a zone dropped."""
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(parsed)


def record(history: History, identity: str, address: str, when: float | None = None) -> None:
    """Count one authenticated connection of ``identity`` from ``address``."""
    now = time.time() if when is None else when
    with history.db:
        history.db.execute("BEGIN IMMEDIATE")
        history.db.execute(
            "INSERT INTO key_addresses (identity, address, first_seen, last_seen, count) "
            "VALUES (?, ?, ?, ?, 1) ON CONFLICT (identity, address) DO UPDATE SET "
            "last_seen = excluded.last_seen, count = count + 1",
            (identity, normal_address(address), now, now))


_SELECT = ("SELECT k.identity, COALESCE(p.name, ''), k.address, k.first_seen, k.last_seen, "
           "k.count FROM key_addresses k LEFT JOIN players p ON p.identity = k.identity ")


def _rows(found: list[Any]) -> list[dict[str, Any]]:
    return [{"key": str(r[0]), "name": str(r[1]), "address": str(r[2]),
             "first": float(r[3]), "last": float(r[4]), "count": int(r[5])} for r in found]


def of_identities(history: History, identities: list[str]) -> list[dict[str, Any]]:
    """The addresses each of ``identities`` came from, the latest first."""
    if not identities:
        return []
    marks = ", ".join("?" for _ in identities)
    return _rows(history.db.execute(
        _SELECT + f"WHERE k.identity IN ({marks}) ORDER BY k.last_seen DESC LIMIT ?",
        (*identities, MAX_ROWS)).fetchall())


def of_addresses(history: History, addresses: list[str], besides: list[str] = ()
                 ) -> list[dict[str, Any]]:
    """The identities (other than ``besides``) that came from any of ``addresses``."""
    if not addresses:
        return []
    marks = ", ".join("?" for _ in addresses)
    others = ", ".join("?" for _ in besides)
    skip = f"AND k.identity NOT IN ({others}) " if besides else ""
    return _rows(history.db.execute(
        _SELECT + f"WHERE k.address IN ({marks}) {skip}ORDER BY k.last_seen DESC LIMIT ?",
        (*addresses, *besides, MAX_ROWS)).fetchall())


def in_network(history: History, network: Network) -> list[dict[str, Any]]:
    """Every identity that came from an address in ``network``, the latest first."""
    if network.num_addresses == 1:
        return of_addresses(history, [str(network.network_address)])
    found = []
    for row in _rows(history.db.execute(_SELECT + "ORDER BY k.last_seen DESC").fetchall()):
        try:
            address = ipaddress.ip_address(row["address"])
        except ValueError:
            continue
        if address.version == network.version and address in network:
            found.append(row)
            if len(found) >= MAX_ROWS:
                break
    return found
