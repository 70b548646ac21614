"""The game's log: the newest lines at the bottom, a new line drawn without drawing the
whole log again, scrolling back with the wheel (Textual pilot)."""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.geometry import Region

from trash_tui.app.widgets.game_log import GameLog


class LogApp(App[None]):
    CSS = "GameLog { height: 8; width: 30; border: round $panel; }"

    def compose(self) -> ComposeResult:
        yield GameLog()


def shown(log: GameLog) -> list[str]:
    width, height = log.outer_size
    return [row.text for row in log.render_lines(Region(0, 0, width, height))]


@pytest.mark.asyncio
async def test_the_log_shows_its_newest_lines_and_draws_only_a_new_one() -> None:
    app = LogApp()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(GameLog)
        for number in range(20):
            log.write(f"line {number}")
        await pilot.pause()
        rows = shown(log)
        assert rows[0].startswith("╭") and rows[-1].startswith("╰")
        assert [row.strip("│ ") for row in rows[1:-1]] == [f"line {n}" for n in range(14, 20)]
        drawn: list[int] = []
        render_line = log.render_line
        log.render_line = lambda y: drawn.append(y) or render_line(y)  # type: ignore[method-assign]
        log.write("line 20")
        await pilot.pause()
        assert [row.strip("│ ") for row in shown(log)[1:-1]] == [f"line {n}" for n in range(15, 21)]
        assert drawn == [5]  # the new line, at the bottom; the others are shifted, not redrawn


@pytest.mark.asyncio
async def test_scrolling_back_shows_older_lines_under_an_arrow_and_back_to_the_end() -> None:
    app = LogApp()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(GameLog)
        for number in range(20):
            log.write(f"line {number}")
        await pilot.pause()
        log.post_message(events.MouseScrollUp(log, 1, 1, 0, 0, 0, False, False, False))
        await pilot.pause()
        rows = [row.strip("│ ") for row in shown(log)[1:-1]]
        assert rows[0].startswith("↑") and rows[-1] == "line 17"
        log.post_message(events.MouseScrollDown(log, 1, 1, 0, 0, 0, False, False, False))
        await pilot.pause()
        assert [row.strip("│ ") for row in shown(log)[1:-1]][-1] == "line 19"
