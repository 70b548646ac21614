"""The Help Your Neighbor replay screen: keys step through a seeded finished game (Textual
pilot, a host app of its own), and snapshots of it half-way at 80×24 and 160×48."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from textual.app import App
from textual.widgets import RichLog, Static

from bots.neighbor import RandomNeighborBot, SmartNeighborBot, play_neighbor
from trash_tui.app.neighbor.replay import NeighborReplayScreen
from trash_tui.app.neighbor.widgets import DiceView, PlayersView
from trash_tui.engine.record import RecordError
from trash_tui.neighbor.engine import NeighborGame
from trash_tui.neighbor.record import neighbor_record

NAMES = ["You", "Smart (2)", "Random (3)"]
SEED = 2  # 58 actions in 18 turns; Random (3) wins
MIDDLE = 40  # the snapshots' position


def finished_record(seed: int = SEED) -> dict[str, Any]:
    game = play_neighbor(NeighborGame(3, seed),
                         [SmartNeighborBot(1), SmartNeighborBot(2), RandomNeighborBot(3)])
    return neighbor_record(game, ["human", "smart", "random"])


class ReplayHost(App[None]):
    """A bare app that shows the replay of ``record`` (the history screen's place)."""

    def __init__(self, record: dict[str, Any], title: str = "Replay of game 12") -> None:
        super().__init__()
        self.replay = NeighborReplayScreen(record, NAMES, title)

    def on_mount(self) -> None:
        self.push_screen(self.replay)


def status(app: ReplayHost) -> str:
    return str(app.replay.query_one("#neighbor-replay-status", Static).render())


def log_size(app: ReplayHost) -> int:
    return len(app.replay.query_one("#neighbor-replay-log", RichLog).lines)


def screen_text(app: App) -> str:
    """The screen's text as the SVG screenshot has it (spaces unescaped)."""
    svg = app.export_screenshot()
    texts = re.findall(r"<text [^>]*>(.*?)</text>", svg)
    return html.unescape(" ".join(texts)).replace("\xa0", " ")


async def test_keys_step_through_the_game_and_the_status_says_where() -> None:
    app = ReplayHost(finished_record())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        cursor = app.replay.cursor
        length = cursor.length
        assert status(app) == f"Replay of game 12 · turn 1 · move 0 of {length}"
        start_lines = log_size(app)
        assert start_lines >= 2  # the rolls for the first turn, who goes first
        await pilot.press("right", "space", "right")
        await pilot.pause()
        assert cursor.position == 3
        assert f"move 3 of {length}" in status(app)
        three_lines = log_size(app)
        assert three_lines > start_lines
        await pilot.press("left")
        await pilot.pause()
        assert cursor.position == 2 and f"move 2 of {length}" in status(app)
        await pilot.press("backspace")
        await pilot.pause()
        assert cursor.position == 1 and log_size(app) < three_lines
        await pilot.press("pagedown")
        await pilot.pause()
        assert cursor.position == cursor.turn_starts[1]
        assert status(app).startswith("Replay of game 12 · turn 2 · move ")
        await pilot.press("n", "n")
        await pilot.pause()
        assert cursor.position == cursor.turn_starts[3] and "turn 4 ·" in status(app)
        await pilot.press("p")
        await pilot.pause()
        assert cursor.position == cursor.turn_starts[2] and "turn 3 ·" in status(app)
        await pilot.press("pageup")
        await pilot.pause()
        assert cursor.position == cursor.turn_starts[1]
        await pilot.press("end")
        await pilot.pause()
        assert cursor.position == length and cursor.game.over
        assert status(app) == (f"Replay of game 12 · turn {cursor.turns} · move {length} "
                               f"of {length}")
        end_lines = log_size(app)
        assert end_lines > three_lines
        await pilot.press("right")
        await pilot.pause()
        assert cursor.position == length
        await pilot.press("home")
        await pilot.pause()
        assert cursor.position == 0 and log_size(app) == start_lines


async def test_the_board_shows_the_markers_dice_and_marks_at_the_position() -> None:
    app = ReplayHost(finished_record())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        replay = app.replay
        panels = replay.query_one(PlayersView).panels
        dice = replay.query_one(DiceView)
        game = replay.cursor.game
        assert dice.faces is None and dice.caption == f"{NAMES[game.to_move]} rolls first"
        assert panels[game.to_move].has_class("-to-move")
        assert panels[game.to_move].marks == ("▶ to roll", "▶ roll")
        await pilot.press(*["right"] * MIDDLE)
        await pilot.pause()
        game = replay.cursor.game
        for seat, panel in enumerate(panels):
            assert panel.covered == frozenset(game.covered[seat])
            assert panel.player_name == NAMES[seat]
            assert panel.has_class("-to-move") == (seat == game.to_move)
        roll = next(e for e in reversed(game.events) if e[0] == "roll")
        assert dice.faces == (roll[2], roll[3])
        assert dice.caption == f"{NAMES[roll[1]]}: {roll[2]} + {roll[3]} = {roll[2] + roll[3]}"
        await pilot.press("end")
        await pilot.pause()
        winner = replay.cursor.game.winner
        assert winner is not None
        assert [panel.has_class("-winner") for panel in panels] == \
            [seat == winner for seat in range(3)]
        assert not any(panel.has_class("-to-move") for panel in panels)
        text = screen_text(app)
        assert "★ winner" in text and "wins!" in text


async def test_the_log_is_the_narrated_game_up_to_the_position() -> None:
    app = ReplayHost(finished_record())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        log = app.replay.query_one("#neighbor-replay-log", RichLog)
        sizes = []
        for _ in range(6):
            sizes.append(len(log.lines))
            await pilot.press("right")
            await pilot.pause()
        assert sizes == sorted(sizes) and sizes[0] < sizes[-1]
        text = " ".join(" ".join(strip.text.split()) for strip in log.lines)
        assert text.startswith("Rolls for the first turn:")
        assert "rolls" in text
        for _ in range(5):
            await pilot.press("left")
            await pilot.pause()
        assert len(log.lines) == sizes[1]


async def test_escape_closes_the_replay() -> None:
    app = ReplayHost(finished_record())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen is app.replay
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not app.replay
        assert not isinstance(app.screen, NeighborReplayScreen)


def test_a_bad_record_or_the_wrong_names_are_refused() -> None:
    record = finished_record()
    with pytest.raises(RecordError):
        NeighborReplayScreen(dict(record, winner=0), NAMES, "Replay")
    with pytest.raises(ValueError, match="2 names for 3 players"):
        NeighborReplayScreen(record, NAMES[:2], "Replay")


# --- snapshots -------------------------------------------------------------------------
async def _to_the_middle(pilot) -> None:
    await pilot.pause()
    await pilot.press(*["right"] * MIDDLE)
    await pilot.pause()
    assert pilot.app.replay.cursor.position == MIDDLE


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_replay_half_way_snapshot(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(ReplayHost(finished_record()), terminal_size=size,
                        run_before=_to_the_middle)
