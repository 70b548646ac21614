"""Helpers for the ratings tests: fixed bot anchors (so no test depends on the shipped
calibration) and finished matches stored the way the app's savers store them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from trash_tui.games import NEIGHBOR, TRASH
from trash_tui.history import SHARED_OWNER, History
from trash_tui.players import board as board_module
from trash_tui.players import rater as rater_module
from trash_tui.players import stats as stats_module
from trash_tui.players.rating import Rating

ANCHORS = {
    TRASH: {"random": Rating(14.0, 1.0), "easy": Rating(21.0, 0.8),
            "normal": Rating(25.5, 0.8), "hard": Rating(28.0, 0.8),
            "expert": Rating(28.2, 1.0), "greedy": Rating(27.9, 0.8),
            "counter": Rating(28.0, 0.8)},
    NEIGHBOR: {"smart": Rating(26.2, 0.8), "random": Rating(23.3, 0.8)},
}


def fixed_anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every module that reads the anchors gets ``ANCHORS``."""
    from trash_tui.app.players import leaderboard_screen, suggestion

    for module in (rater_module, board_module, stats_module, leaderboard_screen,
                   suggestion):
        monkeypatch.setattr(module, "load_anchors", lambda: ANCHORS)


def finish(history: History, owner: str, specs: Sequence[Any], places: Sequence[int],
           game: str = TRASH, players: Sequence[tuple[int, str]] = (),
           leavers: Sequence[str] = (), deals: int = 3, abandoned: bool = False,
           rules: dict[str, Any] | None = None) -> int:
    """A match stored and finished with these places (a shared table's when ``players``
    gives its humans' identities; ``leavers`` left it before the end)."""
    names = [f"p{seat}" for seat in range(len(specs))]
    match_id = history.matches.start_match(owner, rules if rules is not None else {},
                                           list(specs), names, 1, game=game)
    if players:
        history.matches.add_match_players(match_id, players)
    for identity in leavers:
        history.matches.mark_left(match_id, identity)
    winner_seat = list(places).index(1) if 1 in places else None
    if game == NEIGHBOR:
        covered = [10 if p == 1 else 10 - p for p in places]
        result: dict[str, Any] = {"winner": winner_seat, "abandoned": abandoned,
                                  "covered": covered}
    else:
        result = {"places": list(places), "sizes": [1] * len(specs), "abandoned": abandoned}
    record = {"first": 0}
    history.matches.finish_match(match_id, names[winner_seat] if winner_seat is not None else None,
                                 deals, result, record)
    return match_id


def shared(history: History, specs: Sequence[Any], places: Sequence[int],
           identities: dict[int, str], **kwargs: Any) -> int:
    return finish(history, SHARED_OWNER, specs, places, players=sorted(identities.items()),
                  **kwargs)
