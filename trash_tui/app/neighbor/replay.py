"""Stepping through a finished Help Your Neighbor game on the live board's widgets.

The players' markers, the dice and the log are the board's widgets (``neighbor_widgets``),
fed from a ``NeighborReplayCursor`` (``neighbor/stepper.py``) instead of a live game: the
panels carry the board's marks (who holds the dice, the winner), the dice show the last
roll with its caption, and the log holds the narrated decisions up to the position. Keys
step one action or one turn at a time, or jump to either end; escape closes the screen.
No animation, timers or bots.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import RichLog, Static

from trash_tui.app.neighbor.board import NeighborBoardScreen
from trash_tui.app.neighbor.widgets import DiceView, PlayersView, last_roll, side_width
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.app.widgets.replay_keys import ReplayKeys
from trash_tui.neighbor.narrate import narrate
from trash_tui.neighbor.stepper import NeighborReplayCursor
from trash_tui.text import clean

LOG_LINES = 200  # the log shows at most the last this many lines


def log_lines(cursor: NeighborReplayCursor, names: Sequence[str]) -> list[str]:
    """The log up to the cursor: each decision narrated on its own, as the board does."""
    events = cursor.game.events
    counts = cursor.event_counts[: cursor.position + 1]
    lines = narrate(events[: counts[0]], names)
    for start, end in pairwise(counts):
        lines.extend(narrate(events[start:end], names))
    return lines


STEP, TURN = Binding.Group("Step"), Binding.Group("Turn")


class NeighborReplayScreen(ReplayKeys, Screen[None]):
    """A finished game of Help Your Neighbor, replayed one action at a time."""

    DEFAULT_CSS = """
    NeighborReplayScreen { layout: vertical; }
    #neighbor-replay-top { height: 1fr; }
    #neighbor-replay-side { width: 30; }
    #neighbor-replay-log { height: 1fr; border: round $panel;
                           border-title-color: $text-muted; }
    #neighbor-replay-status { height: auto; padding: 0 1; background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # as the Trash replay: keys in pairs with one label, every key in the footer
        Binding("left,backspace", "back", "Back", id="neighbor-replay-back", key_display="←",
                priority=True, group=STEP),
        Binding("right,space", "forward", "Next", id="neighbor-replay-forward",
                key_display="→", priority=True, group=STEP),
        Binding("pageup,p", "previous_turn", "Previous turn",
                id="neighbor-replay-previous-turn", priority=True, key_display="pgup",
                group=TURN),
        Binding("pagedown,n", "next_turn", "Next turn", id="neighbor-replay-next-turn",
                priority=True, key_display="pgdn", group=TURN),
        Binding("home", "start", "Start", id="neighbor-replay-start", priority=True),
        Binding("end", "end", "End", id="neighbor-replay-end", priority=True),
        Binding("escape", "close", "Close", id="close-neighbor-replay"),
    ]

    def __init__(self, record: dict[str, Any], names: list[str], title: str) -> None:
        """Replay ``record`` (RecordError if it does not check) with ``names`` per seat."""
        super().__init__()
        self.cursor = NeighborReplayCursor(record)
        if len(names) != self.cursor.game.players:
            raise ValueError(f"{len(names)} names for {self.cursor.game.players} players")
        self.names = [clean(name) for name in names]  # from the database or a record
        self.title = title

    def compose(self) -> ComposeResult:
        with Horizontal(id="neighbor-replay-top"):
            yield PlayersView(len(self.names), id="neighbor-replay-players")
            with Vertical(id="neighbor-replay-side"):
                yield DiceView(id="neighbor-replay-dice")
                yield RichLog(id="neighbor-replay-log", wrap=True, markup=False,
                              min_width=20)
        yield Static(id="neighbor-replay-status", markup=False)
        yield TrashFooter()

    def on_mount(self) -> None:
        self.query_one("#neighbor-replay-log", RichLog).border_title = "Log"
        self.show()

    def on_resize(self, event: Resize) -> None:
        self.query_one("#neighbor-replay-side").styles.width = side_width(len(self.names),
                                                                          event.size)

    def status_text(self) -> str:
        cursor = self.cursor
        return (f"{self.title} · turn {cursor.turn_index + 1} · move {cursor.position} "
                f"of {cursor.length}")

    def show(self) -> None:
        """Draw the game at the cursor's position: markers, dice, the log up to it."""
        game = self.cursor.game
        observation = game.observation(0)
        for seat, panel in enumerate(self.query_one(PlayersView).panels):
            panel.update_view(self.names[seat], observation.covered[seat],
                              NeighborBoardScreen.marks(observation, seat))
        faces, caption = last_roll(game.events, self.names, game.to_move)
        self.query_one(DiceView).update_view(faces, caption)
        log = self.query_one("#neighbor-replay-log", RichLog)
        log.clear()
        for line in log_lines(self.cursor, self.names)[-LOG_LINES:]:
            log.write(line)
        self.query_one("#neighbor-replay-status", Static).update(Text(self.status_text()))

    # --- keys ------------------------------------------------------------------------
    def action_next_turn(self) -> None:
        self.cursor.next_turn()
        self.show()

    def action_previous_turn(self) -> None:
        self.cursor.previous_turn()
        self.show()

    def action_close(self) -> None:
        self.app.pop_screen()
