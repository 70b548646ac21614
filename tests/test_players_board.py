"""The leaderboard ranks by rating, provisional or not (issue 27): a new player who beat
the random bot a few times is above it, and the board says how it ranks."""

from __future__ import annotations

from pathlib import Path

import pytest
from players_helpers import finish, fixed_anchors

from trash_tui.history import LOCAL_OWNER
from trash_tui.players.board import RANKING, leaderboard
from trash_tui.players.rater import open_history
from trash_tui.players.rating import Rating

TOP = Rating(31.0, 1.0)
#: Anchors with four levels tied at the top, as anchors.json has them.
TIED_ANCHORS = {"trash": {"random": Rating(14.0, 1.0), "expert": TOP, "counter": TOP,
                          "greedy": TOP, "hard": TOP, "normal": Rating(27.0, 1.0)}}
TIED = ("greedy", "hard", "expert", "counter")


def tied_top(monkeypatch: pytest.MonkeyPatch, module: object) -> None:
    """``module`` reads ``TIED_ANCHORS``, with ``TIED`` as anchors.json's tied levels."""
    monkeypatch.setattr(module, "load_anchors", lambda: TIED_ANCHORS)
    monkeypatch.setattr(module, "tied_levels", lambda game: TIED)


@pytest.fixture(autouse=True)
def _anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_anchors(monkeypatch)


def test_a_provisional_player_is_ranked_by_rating_among_the_bots(tmp_path: Path) -> None:
    with open_history(tmp_path / "history.sqlite3") as history:
        for _ in range(3):
            finish(history, LOCAL_OWNER, ["human", "random"], [1, 2])
        board = leaderboard(history, "trash", LOCAL_OWNER, bots=True, your_name="Robin")
    names = [entry.name for entry in board.entries]
    you = board.you
    assert you is not None and you.provisional and you.shown.endswith("?")
    assert names.index("Robin") < names.index("random (bot)")
    shown = [entry.rating.shown for entry in board.entries]
    assert shown == sorted(shown, reverse=True)  # read top to bottom: highest first
    ranks = [entry.rank for entry in board.entries]
    for position, entry in enumerate(board.entries):  # 1, 2, 3, 3, 5: ties share a rank
        tied = position and entry.rating == board.entries[position - 1].rating
        assert entry.rank == (ranks[position - 1] if tied else position + 1)
    assert "provisional" in RANKING and "ranked by that rating" in RANKING


def test_bot_levels_with_one_anchor_are_shown_tied_and_the_first_listed_is_proposed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: levels no measurement separates share an anchor; the leaderboard gives
    them one rank, lists the first of anchors.json's tied levels first, and that one is
    the level proposed (never ``expert`` as if it were harder)."""
    from trash_tui.players import board as board_module
    from trash_tui.players.model import as_strong, nearest_level

    tied_top(monkeypatch, board_module)
    anchors = TIED_ANCHORS
    with open_history(tmp_path / "history.sqlite3") as history:
        board = leaderboard(history, "trash", None, bots=True, players=False)
    lines = [(entry.rank, entry.bot) for entry in board.entries]
    assert lines == [(1, "greedy"), (1, "hard"), (1, "expert"), (1, "counter"),
                     (5, "normal"), (6, "random")]
    assert nearest_level(Rating(40.0), anchors["trash"], prefer=TIED) == "greedy"
    assert nearest_level(Rating(40.0), anchors["trash"], {"expert", "counter"},
                         TIED) == "expert"
    assert sorted(as_strong("greedy", anchors["trash"])) == ["counter", "expert", "hard"]


def test_an_own_bot_given_as_text_counts_as_own_bots() -> None:
    """Issue 27: a seat holding a bot table as its TOML text, or a bot file, is one of the
    player's own bots in the statistics, never shown by its raw text."""
    from trash_tui.players.stats import opponents_label

    assert opponents_label(["human", '{ name = "normal", mistakes = 0.1 }'], 0) == "own bots"
    assert opponents_label(["human", "bots/mine.py"], 0) == "own bots"
    assert opponents_label(["human", {"name": "normal", "mistakes": 0.1}], 0) == "own bots"
    assert opponents_label(["human", "normal", "normal"], 0) == "normal"
    assert opponents_label(["human", "smart", "random"], 0) == "mixed bots"


def test_the_lobby_names_tied_levels_together_as_one_strength(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: a player near the top is proposed the tied levels as one strength, the
    first listed first; a level with an anchor of its own is named alone."""
    from trash_tui.app.players import suggestion

    tied_top(monkeypatch, suggestion)
    with open_history(tmp_path / "history.sqlite3") as history:
        for _ in range(12):
            finish(history, LOCAL_OWNER, ["human", "hard"], [1, 2])
        text = suggestion.suggestion_text(history, LOCAL_OWNER, "trash",
                                          ["random", "normal", "hard", "expert", "greedy"])
        assert text.endswith(f"nearest bots greedy = hard = expert ({TOP.shown})")
        assert len(text) <= 76  # one line of the lobby's form at 80 columns
        alone = suggestion.suggestion_text(history, LOCAL_OWNER, "trash", ["random", "normal"])
        assert alone.endswith(f"nearest bot normal ({TIED_ANCHORS['trash']['normal'].shown})")
