"""Stepping through a finished match on the board, forwards and back.

The table, the piles and the log are the board's widgets, fed from a ``ReplayCursor``
(``engine/stepper.py``) instead of a live match. The side panel lists the deals; choosing
one jumps to its start. The view is one seat's (the player's own: the seat given, else the
first human's; ``v`` changes it), so face-down cards stay hidden as they were for them.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option

from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.app.widgets.replay_keys import ReplayKeys
from trash_tui.app.widgets.table import PileView, TableView
from trash_tui.app.widgets.table_room import TableRoom
from trash_tui.engine.narrate import describe_event
from trash_tui.engine.stepper import ReplayCursor
from trash_tui.history import MatchRow
from trash_tui.text import clean


def deal_option_text(cursor: ReplayCursor, index: int, names: list[str]) -> str:
    """One line of the deals list: number, outcome and length."""
    entry = cursor.document["deals"][index]
    moves = len(entry["actions"].split())
    if entry.get("void"):
        return f"Deal {index + 1}: void · {moves} moves"
    winner = entry.get("winner")
    who = names[winner] if isinstance(winner, int) and 0 <= winner < len(names) else "—"
    return f"Deal {index + 1}: {who} · {moves} moves"


STEP, DEAL = Binding.Group("Step"), Binding.Group("Deal")


class ReplayScreen(ReplayKeys, Screen[None]):
    """A finished match, replayed one action at a time."""

    DEFAULT_CSS = """
    ReplayScreen { layout: vertical; }
    #replay-top { height: 1fr; }
    #replay-side { width: 34; }
    #replay-deals { height: 9; border: round $panel; }
    #replay-log { height: 1fr; border: round $panel; }
    #replay-status { height: auto; padding: 0 1; background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # keys in pairs with one label ("← → Step", "pgup pgdn Deal"): every key fits 80
        Binding("left,backspace", "back", "Back", id="replay-back", key_display="←",
                group=STEP),
        Binding("right,space", "forward", "Next", id="replay-forward", key_display="→",
                group=STEP),
        Binding("pageup,p", "previous_deal", "Previous deal", id="replay-previous-deal",
                priority=True, key_display="pgup", group=DEAL),
        Binding("pagedown,n", "next_deal", "Next deal", id="replay-next-deal",
                priority=True, key_display="pgdn", group=DEAL),
        Binding("home", "start", "Start", id="replay-start", priority=True),
        Binding("end", "end", "End", id="replay-end", priority=True),
        Binding("v", "next_view", "View", id="replay-view"),
        Binding("escape", "close", "Close", id="close-replay"),
    ]

    def __init__(self, row: MatchRow, viewer: int | None = None) -> None:
        super().__init__()
        if row.record is None:
            raise ValueError(f"match {row.id} has no record")
        self.row = row
        self.cursor = ReplayCursor(row.record)
        self.names = [clean(name) for name in row.names]  # from the database
        humans = [i for i, spec in enumerate(row.seats) if spec == "human"]
        if viewer is not None and 0 <= viewer < len(self.names):
            self.viewer = viewer  # the player's own seat
        else:
            self.viewer = humans[0] if humans else 0

    def compose(self) -> ComposeResult:
        with TableRoom(id="replay-top"):  # the side as wide as the table leaves
            yield TableView(id="replay-table")
            with Vertical(id="replay-side"):
                yield PileView(id="replay-piles")
                yield OptionList(*[Option(Text(deal_option_text(self.cursor, i, self.names)),
                                          id=f"deal-{i}")
                                   for i in range(self.cursor.deals)], id="replay-deals",
                                 markup=False)
                yield RichLog(id="replay-log", wrap=True, markup=False, min_width=20)
        yield Static(id="replay-status", markup=False)
        yield TrashFooter()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        """Draw the table at the cursor's position and the log up to it."""
        cursor = self.cursor
        observation = cursor.match.observation(self.viewer)
        self.query_one(TableView).update_view(observation, self.names)
        self.query_one(PileView).update_view(observation)
        log = self.query_one(RichLog)
        log.clear()
        lines = [line for line in (describe_event(e, self.names, self.row.left)
                                   for e in cursor.match.events) if line]
        for line in lines[-200:]:
            log.write(line)
        deals = self.query_one(OptionList)
        deals.highlighted = cursor.deal_index
        self.query_one("#replay-status", Static).update(Text(
            f"Replay of match {self.row.id} · deal {cursor.deal_index + 1} of {cursor.deals} "
            f"· move {cursor.position} of {cursor.length} · seen by {self.names[self.viewer]}"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        index = event.option_index
        self.cursor.seek(self.cursor.deal_starts[index])
        self.show()

    def action_next_deal(self) -> None:
        self.cursor.next_deal()
        self.show()

    def action_previous_deal(self) -> None:
        self.cursor.previous_deal()
        self.show()

    def action_next_view(self) -> None:
        self.viewer = (self.viewer + 1) % len(self.names)
        self.show()

    def action_close(self) -> None:
        self.app.pop_screen()
