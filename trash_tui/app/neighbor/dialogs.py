"""Dialogs over the Help Your Neighbor board: the final standings and the rules.

``standings_lines`` turns the final observation into sentences (no UI) so tests and any
other front end can share them. ``NeighborStandingsScreen`` is a modal over the finished
board (closing it goes back to the lobby: the board pops itself); ``NeighborRulesScreen``
explains the game and its keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from trash_tui.app.neighbor.widgets import covered_count
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.neighbor.engine import MARKERS, NeighborObservation

RULES_TEXT = """\
Each player has ten markers face up: 2 3 4 5 6 in one row, 8 9 10 11 12 in the other. \
The first to cover all ten wins.

On your turn roll both dice:
• a total you still show face up: cover it and roll again;
• a total you have already covered passes clockwise to the first other player who \
still shows it: they cover it and take the dice;
• if nobody can use it, you roll again;
• a 7: uncover one of your covered markers (your choice), and the dice pass to the \
next player. With nothing covered, the dice just pass.

Keys: r or space rolls (or click the dice). On a 7, press the marker's key — 2 to 6, \
8, 9, 0 for 10, - for 11, = for 12 — or click one of your covered markers. \
Escape goes back to the lobby."""


def standings_lines(observation: NeighborObservation, names: Sequence[str]) -> list[str]:
    """Place, name and markers covered per player (the winner first, then by markers
    covered; equal players share a place: 1, 2, 2, 4), then how many rolls were made."""
    counts = [len(covered) for covered in observation.covered]
    winner = observation.winner

    def key(seat: int) -> tuple[int, int]:
        return (0 if seat == winner else 1, -counts[seat])

    order = sorted(range(observation.players), key=lambda seat: (key(seat), seat))
    lines = []
    place = 0
    for position, seat in enumerate(order):
        if position == 0 or key(seat) != key(order[position - 1]):
            place = position + 1
        what = covered_count(counts[seat])
        if seat == winner:
            what = f"★ winner, all {len(MARKERS)} covered"
        lines.append(f"{place}. {names[seat]} — {what}")
    rolls = observation.turn
    lines.append(f"{rolls} roll{'' if rolls == 1 else 's'} in all")
    return lines


def standings_title(observation: NeighborObservation, names: Sequence[str]) -> str:
    """"Ann wins!" (or "You win!"); "The game is over" without a winner."""
    if observation.winner is None:
        return "The game is over"
    name = names[observation.winner]
    return "You win!" if name == "You" else f"{name} wins!"


class NeighborStandingsScreen(ModalScreen[None]):
    """The end of the game: who won and how many markers everyone covered."""

    DEFAULT_CSS = """
    NeighborStandingsScreen { align: center middle; }
    #neighbor-standings { width: 56; max-width: 100%; height: auto; max-height: 100%;
                          padding: 1 2; border: thick $accent; background: $surface; }
    #neighbor-standings-title { text-style: bold; margin-bottom: 1; }
    #neighbor-standings Button { margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape", "close", "Back to the lobby", id="close-neighbor-standings"),
    ]

    def __init__(self, title: str, lines: Sequence[str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with Vertical(id="neighbor-standings"):
            yield Label(self.title_text, id="neighbor-standings-title", markup=False)
            for line in self.lines:
                yield Label(line, markup=False)  # names are players' text
            yield Button("Back to the lobby", id="neighbor-standings-close",
                         variant="primary")
        yield TrashFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_close()

    def action_close(self) -> None:
        self.dismiss(None)


class NeighborRulesScreen(ModalScreen[None]):
    """How Help Your Neighbor is played, and its keys."""

    DEFAULT_CSS = """
    NeighborRulesScreen { align: center middle; }
    #neighbor-rules { width: 72; max-width: 100%; height: auto; max-height: 100%;
                      padding: 0 2; border: thick $accent; background: $surface; }
    #neighbor-rules-title { text-style: bold; margin: 1 0; }
    #neighbor-rules-text { height: auto; }
    #neighbor-rules Button { margin: 1 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark", "close", "Close", id="close-neighbor-rules"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="neighbor-rules"):
            yield Label("Help Your Neighbor", id="neighbor-rules-title", markup=False)
            yield Static(RULES_TEXT, id="neighbor-rules-text", markup=False)
            yield Button("Close", id="neighbor-rules-close", variant="primary")
        yield TrashFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_close()

    def action_close(self) -> None:
        self.dismiss(None)
