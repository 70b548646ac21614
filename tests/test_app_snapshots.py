"""Snapshots of the app's screens at 80×24 and 160×48 (seeded, no clock, NO_COLOR removed)."""

from __future__ import annotations

import pytest

from trash_tui.app.app import create_app
from trash_tui.rules import Rules

SIZES = [(80, 24), (160, 48)]


@pytest.fixture(autouse=True)
def _deterministic_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
def test_lobby(snap_compare, size: tuple[int, int]) -> None:
    app = create_app(Rules(), ["human", "normal"], seed=1, animation="off")
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
@pytest.mark.parametrize("players", [2, 4])
def test_board_after_a_few_moves(snap_compare, size: tuple[int, int], players: int) -> None:
    app = create_app(Rules(), ["human"] + ["greedy"] * (players - 1), seed=7,
                     animation="off", play_now=True)

    async def run_before(pilot) -> None:
        await pilot.pause()
        for _ in range(3):  # three of the human's turns, the bots playing in between
            await pilot.press("s")
            await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
