"""The leaderboard ranks by rating, provisional or not (issue 27): a new player who beat
the random bot a few times is above it, and the board says how it ranks."""

from __future__ import annotations

from pathlib import Path

import pytest
from players_helpers import finish, fixed_anchors

from trash_tui.history import LOCAL_OWNER, History
from trash_tui.players.board import RANKING, leaderboard


@pytest.fixture(autouse=True)
def _anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_anchors(monkeypatch)


def test_a_provisional_player_is_ranked_by_rating_among_the_bots(tmp_path: Path) -> None:
    with History(tmp_path / "history.sqlite3") as history:
        for _ in range(3):
            finish(history, LOCAL_OWNER, ["human", "random"], [1, 2])
        board = leaderboard(history, "trash", LOCAL_OWNER, bots=True, your_name="Robin")
    names = [entry.name for entry in board.entries]
    you = board.you
    assert you is not None and you.provisional and you.shown.endswith("?")
    assert names.index("Robin") < names.index("random (bot)")
    shown = [entry.rating.shown for entry in board.entries]
    assert shown == sorted(shown, reverse=True)  # read top to bottom: highest first
    assert [entry.rank for entry in board.entries] == list(range(1, len(names) + 1))
    assert "provisional" in RANKING and "ranked by that rating" in RANKING


def test_an_own_bot_given_as_text_counts_as_own_bots() -> None:
    """Issue 27: a seat holding a bot table as its TOML text, or a bot file, is one of the
    player's own bots in the statistics, never shown by its raw text."""
    from trash_tui.players.stats import opponents_label

    assert opponents_label(["human", '{ name = "normal", mistakes = 0.1 }'], 0) == "own bots"
    assert opponents_label(["human", "bots/mine.py"], 0) == "own bots"
    assert opponents_label(["human", {"name": "normal", "mistakes": 0.1}], 0) == "own bots"
    assert opponents_label(["human", "normal", "normal"], 0) == "normal"
    assert opponents_label(["human", "smart", "random"], 0) == "mixed bots"
