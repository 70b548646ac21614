"""The operator's side of the table service (``trash admin``, through the SSH server).

``say`` is a notice to every session (one that connects while it is still up gets it too:
``greet``), ``motd`` the lobby's line; ``tell_player`` is the operator's word to one player
(a mute, its end, a message, a warning), told at once wherever they are; ``where`` and
``rows`` are what ``trash admin who`` and ``trash admin tables`` show. Kicking a session
and closing a table change the rooms, so they are the service's (``service.py``).
"""

from __future__ import annotations

import time
from typing import Any

from trash_tui.tables.hub import Client, Hub
from trash_tui.tables.social import warning_text
from trash_tui.tables.table import HUMAN, Table
from trash_tui.text import clean

TOLD_SECONDS = 20.0  # how long a word from the operator to one player stays up


class Desk:
    """The lobby's line, the operator's notices and what the operator sees."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.motd: str | None = None  # the line every lobby shows
        self.notice: tuple[str, float] | None = None  # the operator's notice, and its end

    def greet(self, client: Client, warnings: list[str]) -> None:
        """What a session that just arrived is told: the motd, the notice still up, the
        warnings given while it was away."""
        if self.motd:
            client.send({"op": "motd", "text": self.motd})
        if self.notice is not None:
            left = self.notice[1] - time.monotonic()
            if left > 1:
                client.send({"op": "say", "text": self.notice[0], "seconds": round(left, 1)})
        if warnings:
            client.send({"op": "say", "text": warning_text("; ".join(warnings)),
                         "seconds": TOLD_SECONDS})

    def tell_player(self, identity: str, text: str) -> int:
        """The operator's word to one player, on whatever screen each of their sessions
        has up: sent as a ``say`` (the lobby and the Tables screen show no table's
        notices), to them alone; how many sessions got it."""
        reached = 0
        for client in self.hub.everyone():
            if client.identity == identity:
                client.send({"op": "say", "text": text, "seconds": TOLD_SECONDS})
                reached += 1
        return reached

    def say(self, text: str, seconds: float) -> int:
        """The operator's notice to every connected session; how many got it."""
        self.notice = (text, time.monotonic() + seconds)
        reached = 0
        for client in self.hub.everyone():
            client.send({"op": "say", "text": text, "seconds": seconds})
            reached += 1
        return reached

    def set_motd(self, text: str | None) -> None:
        self.motd = text
        for client in self.hub.everyone():
            client.send({"op": "motd", "text": text or ""})

    @staticmethod
    def where(client: Client) -> str:
        """Where a session is, for ``trash admin who``."""
        table = client.table
        if table is None:
            return "lobby"
        if client.seat is None:
            return f"watching {table.code}"
        return f"table {table.code} seat {client.seat + 1}"

    @staticmethod
    def rows(tables: list[Table]) -> list[dict[str, Any]]:
        """The open tables as ``trash admin tables`` lists them."""
        now = time.time()
        rows = []
        for table in tables:
            seats = []
            for seat in table.seats:
                if seat.identity is not None:
                    away = seat.away or seat.identity not in table.members
                    seats.append(clean(seat.name or "?", 24) + (" (away)" if away else ""))
                elif seat.spec == HUMAN:
                    seats.append("open")
                else:
                    seats.append(f"bot {seat.spec}")
            rows.append({"id": table.id, "code": table.code, "name": table.config.name,
                         "status": table.status_text(), "seats": ", ".join(seats),
                         "spectators": len(table.spectators), "age": round(now - table.opened),
                         "public": table.config.public})
        return rows
