"""The app's rating model handed to the history database: ``OpenSkillRater`` adapts
``model.py`` (which matches are rated, openskill's Plackett–Luce) and the bot levels'
anchors to the history's ``MatchRater``, and ``open_history`` opens a history with it.

Everything that finishes matches (the app, the shared tables' service, the command line)
opens its history here, so the storage layer never imports the model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from trash_tui.history import FinishedMatch, History
from trash_tui.players.anchors import load_anchors
from trash_tui.players.model import rate, rated_seats, seats_from_dicts
from trash_tui.players.rating import Rating


class OpenSkillRater:
    """Rates finished matches with ``players.model`` against the anchors of
    ``anchors.json``."""

    def rated_seats(self, match: FinishedMatch) -> list[dict[str, Any]] | None:
        seats = rated_seats(match.game, match.owner, match.seats, match.result,
                            match.identities, match.leavers,
                            load_anchors().get(match.game, {}), match.shared)
        return None if seats is None else [seat.to_dict() for seat in seats]

    def rate(self, game: str, seats: Sequence[Mapping[str, Any]],
             before: Mapping[str, Rating]) -> dict[str, Rating] | None:
        return rate(seats_from_dicts(seats), before,
                    load_anchors().get(game, {}))


RATER = OpenSkillRater()


def open_history(path: str | Path | None = None) -> History:
    """The history database at ``path`` (the default one if None), rating with the app's
    model."""
    return History(path, rater=RATER)
