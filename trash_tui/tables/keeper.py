"""The tables in the history database: every table and every action is kept as it happens.

``Keeper`` stores a table (``save``: with why it closed, and whether the server's operator
closed it, so its host cannot reopen it), rebuilds a stored one (``rebuild``: its match
replayed exactly from its actions, its seats away as the history keeps them; a table whose
match ended meanwhile is finished),
starts a table's match (saved action by action, its record saying where it was played and
who sat where), reads a finished match's standing as the history keeps it (``result``) and
what the lobby shows of a player's closed tables. Everything runs on the worker thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from trash_tui.history import SHARED_OWNER
from trash_tui.players.rating import display
from trash_tui.tables.table import (
    CLOSED,
    FINISHED,
    PLAYING,
    WAITING,
    SeatState,
    Table,
    TableConfig,
)
from trash_tui.tables.worker import Worker
from trash_tui.text import clean

CLOSED_TOLD = 7 * 86400.0  # a seat at a table that closed is mentioned in the lobby this long
OPERATOR_CLOSED = "operator_closed"  # a closed table's config key: the operator closed it


def closed_by_operator(row: dict[str, Any]) -> bool:
    """Whether the stored closed table ``row`` was closed by the server's operator (it
    stays closed: its host cannot reopen it)."""
    return isinstance(row.get("config"), dict) and row["config"].get(OPERATOR_CLOSED) is True


def tag_record(table: Table) -> None:
    """The match's record will say where it was played and who sat where (the human
    seats by display name and key fingerprint)."""
    from trash_tui.play.saving import MatchSaver

    players = {str(index): {"name": seat.name, "key": seat.identity}
               for index, seat in enumerate(table.seats) if seat.identity is not None}
    for listener in table.controller.listeners:
        if isinstance(listener, MatchSaver):
            listener.context = {"shared_table": table.code, "players": players}


class Keeper:
    """The tables' side of the history database, on ``worker``'s thread."""

    def __init__(self, worker: Worker, seed: Callable[[], int]) -> None:
        self.worker = worker
        self.seed = seed  # a new match's seed (never sent to a client)

    async def save(self, table: Table, closed: str | None = None,
                   by_operator: bool = False) -> None:
        """Store the table (``closed``: why it closes, kept with its settings for the
        lobby of those who hold a seat at it; ``by_operator``: the server's operator
        closed it, so it stays closed: its host cannot reopen it)."""
        config = table.config.to_dict() | ({"closed": closed} if closed else {}) | \
            ({OPERATOR_CLOSED: True} if by_operator else {})
        await self.worker.db(lambda history: history.matches.save_table(
            table.id, table.code, table.host, table.status, config,
            [seat.to_dict() for seat in table.seats], table.match_id))

    async def create(self, code: str, host: str, config: TableConfig) -> Table:
        """A new waiting table, stored (so it has its id)."""
        seats = [SeatState(spec) for spec in config.seats]
        table_id = await self.worker.db(lambda history: history.matches.save_table(
            None, code, host, WAITING, config.to_dict(), [s.to_dict() for s in seats], None))
        return Table(table_id, code, host, config, seats)

    async def mark(self, marks: list[tuple[int, str, bool]]) -> None:
        """Keep whether each (match, identity) is away (``Rooms.mark``)."""
        for match_id, identity, away in marks:
            await self.worker.db(lambda history, m=match_id, i=identity, a=away:
                                 history.matches.mark_left(m, i, a))

    async def rebuild(self, row: dict[str, Any]) -> Table | None:
        """A stored table as it was (its match rebuilt from its actions); None when its
        match ended meanwhile (it is stored as finished)."""
        from trash_tui.play.saving import resume_saved_match

        config = TableConfig.from_dict(row["config"])
        seats = [SeatState(s["spec"], s.get("identity"), s.get("name")) for s in row["seats"]]
        table = Table(row["id"], row["code"], row["host"], config, seats, row["status"],
                      row["match_id"])
        if table.match_id is not None:
            match_row = await self.worker.db(lambda history: history.matches.get_match(
                table.match_id or 0))
            if match_row.status != "playing":
                table.status = FINISHED
                await self.save(table)
                return None
            table.controller = await self.worker.db(lambda history: resume_saved_match(
                history, match_row))
            away = await self.worker.db(lambda history: history.matches.away_from(
                table.match_id or 0))
            for seat in seats:  # away when the server stopped, as the history keeps it
                seat.away = seat.identity is not None and seat.identity in away
            table.deals_seen = len(table.controller.match.history)
            table.status = PLAYING
            tag_record(table)
        elif table.status == PLAYING:
            table.status = WAITING
        return table

    async def start(self, table: Table) -> None:
        """Deal ``table``'s match (a new seed), saved from its first action."""
        from trash_tui.play.saving import start_saved_match

        specs, names = table.match_specs()
        seed = self.seed()
        controller = await self.worker.db(lambda history: start_saved_match(
            history, SHARED_OWNER, table.config.rules, specs, seed, human_names=names))
        table.controller = controller
        table.match_id = controller.match_id
        tag_record(table)
        players = [(index, seat.identity) for index, seat in enumerate(table.seats)
                   if seat.identity is not None]
        match_id = controller.match_id or 0
        await self.worker.db(lambda history: history.matches.add_match_players(match_id,
                                                                                players))

    async def result(self, table: Table) -> dict[str, Any] | None:
        """The finished match's standing as the history keeps it: the seats whose players
        had left (last: ``trash_tui/standing.py``) and how the match moved the players'
        ratings (the shown rating, as on the leaderboard)."""
        if table.match_id is None:
            return None
        match_id = table.match_id
        left, moved = await self.worker.db(lambda history: (
            history.matches.get_match(match_id).left,
            history.players.match_rating_changes(match_id)))
        changes = [{"seat": index, "name": seat.name,
                    "before": float(display(moved[seat.identity][0].mu)),
                    "after": float(display(moved[seat.identity][1].mu))}
                   for index, seat in enumerate(table.seats)
                   if seat.identity is not None and seat.identity in moved]
        return {"op": "result", "left": sorted(left), "changes": changes}

    async def closed_hosted(self, identity: str) -> list[dict[str, Any]]:
        """The stored closed tables ``identity`` hosts."""
        return await self.worker.db(lambda history: history.matches.shared_tables(
            [CLOSED], host=identity))

    async def last_closed(self, identity: str) -> list[dict[str, Any]]:
        """The last table where ``identity`` held a seat that closed in the last
        ``CLOSED_TOLD`` seconds, as the lobby mentions it (at most one)."""
        since = time.time() - CLOSED_TOLD
        row = await self.worker.db(lambda history: history.matches.last_closed_table_of(
            identity, since))
        if row is None:
            return []
        config = row["config"] if isinstance(row["config"], dict) else {}
        host = next((seat.get("name") for seat in row["seats"] if isinstance(seat, dict)
                     and seat.get("identity") == row["host"]), None)
        return [{"id": row["id"], "name": clean(str(config.get("name", "?")), 32),
                 "why": clean(str(config.get("closed") or ""), 120),
                 "host": clean(str(host or "its host"), 24),
                 "yours": row["host"] == identity, "operator": closed_by_operator(row)}]

    async def open_rows(self) -> list[dict[str, Any]]:
        """The stored tables still open (waiting or playing), to restore."""
        return await self.worker.db(lambda history: history.matches.shared_tables(
            [WAITING, PLAYING]))
