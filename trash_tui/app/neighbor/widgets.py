"""The Help Your Neighbor board's widgets: a player's ten markers, every player, the dice.

The widgets only show what they are given (``update_view``) and post a message when
clicked; they change nothing. A face-up marker is an open box with its number, a covered
one a hatched (▒) box with the number dimmed, so the two differ by shape, not by colour.
Markers come in three sizes (``SIZES``): large (five lines), normal (three lines) and
compact (one line: ``[ 9]`` up, ``▒ 9▒`` covered). ``PlayersView`` puts the players'
panels in a grid with the largest markers that fit; when even compact ones do not, it
says so and the panels scroll.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Container
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from trash_tui.app.widgets.table import cut_name
from trash_tui.neighbor.engine import MARKERS, ROWS
from trash_tui.neighbor.narrate import says

MARKER_GAP = 1  # columns between two markers of a row
PANEL_FRAME = (4, 2)  # what PlayerPanel's DEFAULT_CSS adds: round border, padding 0 1
GRID_GAP = (1, 1)  # (columns, lines) between two panels
SCROLLBAR = (2, 1)  # Textual's default scroll bar sizes (vertical columns, horizontal lines)
HATCH = "▒"
SIDE_WIDTH = (30, 56)  # the board's side (dice and log): at least, at most (columns)

ROLL_MARK = ("▶ to roll", "▶ roll")
UNCOVER_MARK = ("▶ to uncover", "▶ uncover")
WIN_MARK = ("★ winner", "★")

DIE_WIDTH, DIE_HEIGHT, DICE_GAP = 9, 5, 2
_PIPS = {1: {4}, 2: {0, 8}, 3: {0, 4, 8}, 4: {0, 2, 6, 8}, 5: {0, 2, 4, 6, 8},
         6: {0, 2, 3, 5, 6, 8}}


class MarkerSize(NamedTuple):
    """How big markers are drawn: columns and lines of one marker."""

    width: int
    height: int

    @property
    def row_width(self) -> int:
        """A row of five markers with the gaps between them."""
        markers = len(ROWS[0])
        return markers * self.width + (markers - 1) * MARKER_GAP


#: Marker sizes, largest first: a panel uses the largest for which every panel fits.
SIZES = {"large": MarkerSize(6, 5), "normal": MarkerSize(4, 3), "compact": MarkerSize(4, 1)}


def covered_count(count: int) -> str:
    """'7 of 10 covered'."""
    return f"{count} of {len(MARKERS)} covered"


def marker_lines(marker: int, covered: bool, size: str = "normal") -> list[str]:
    """A marker's drawing in ``size`` (a key of ``SIZES``), line by line: an open box with
    the number face up, a hatched box with the number covered."""
    number = str(marker).rjust(2)
    if size == "compact":
        return [f"{HATCH}{number}{HATCH}" if covered else f"[{number}]"]
    if size == "large":
        if covered:
            return [HATCH * 6, HATCH * 6, f"{HATCH} {number} {HATCH}", HATCH * 6, HATCH * 6]
        return ["╭────╮", "│    │", f"│ {number} │", "│    │", "╰────╯"]
    if covered:
        return [HATCH * 4, f"{HATCH}{number}{HATCH}", HATCH * 4]
    return ["╭──╮", f"│{number}│", "╰──╯"]


def die_lines(face: int | None) -> list[str]:
    """One die, ``DIE_HEIGHT`` lines of ``DIE_WIDTH`` columns: its pips, or "?" unrolled."""
    inner = DIE_WIDTH - 2
    if face is None:
        rows = [" " * inner, "?".center(inner), " " * inner]
    else:
        pips = _PIPS[face]
        rows = [" " + " ".join("●" if 3 * row + col in pips else " " for col in range(3)) + " "
                for row in range(3)]
    return ["╭" + "─" * inner + "╮", *(f"│{row}│" for row in rows), "╰" + "─" * inner + "╯"]


class PlayerPanel(Widget):
    """One player: name and mark ("▶ to roll", "▶ to uncover", "★ winner"), the two
    rows of markers (2–6, 8–12) and "N of 10 covered".

    ``choices`` are the markers the human to move may uncover now: they are drawn
    bold in the accent colour, and a click on any marker posts ``MarkerClicked``.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "player-panel--name",
        "player-panel--mark",
        "player-panel--count",
        "player-panel--up",
        "player-panel--covered",
        "player-panel--choice",
    }
    DEFAULT_CSS = """
    PlayerPanel {
        width: auto;
        height: auto;
        padding: 0 1;
        border: round $panel-lighten-2;
        background: $boost;
    }
    PlayerPanel.-to-move { border: double $accent; }
    PlayerPanel.-winner { border: double $success; }
    PlayerPanel > .player-panel--name { text-style: bold; }
    PlayerPanel > .player-panel--mark { color: $text-accent; text-style: bold; }
    PlayerPanel > .player-panel--count { color: $text-muted; }
    PlayerPanel > .player-panel--up { color: $foreground; }
    PlayerPanel > .player-panel--covered { color: $text-muted; }
    PlayerPanel > .player-panel--choice { color: $text-accent; text-style: bold; }
    """

    marker_size: reactive[str] = reactive("normal", layout=True)
    """How the markers are drawn: a key of ``SIZES``."""

    class MarkerClicked(Message):
        """A marker of a panel was clicked."""

        def __init__(self, seat: int, marker: int) -> None:
            super().__init__()
            self.seat = seat
            self.marker = marker

    def __init__(self, seat: int, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.seat = seat
        self.player_name = f"Seat {seat + 1}"
        self.covered: frozenset[int] = frozenset()
        self.marks: tuple[str, str] | None = None  # (long text, short text)
        self.choices: frozenset[int] = frozenset()

    def update_view(self, name: str, covered: Sequence[int], marks: tuple[str, str] | None,
                    choices: Sequence[int] = ()) -> None:
        """Show ``name``'s markers with ``covered`` turned down and the mark (if any)."""
        self.player_name = name
        self.covered = frozenset(covered)
        self.marks = marks
        self.choices = frozenset(choices)
        self.set_class(marks is not None and marks != WIN_MARK, "-to-move")
        self.set_class(marks == WIN_MARK, "-winner")
        self.refresh()

    @staticmethod
    def content_size(size: str) -> Size:
        """Inside border and padding: the header, two rows of markers and the count."""
        marker = SIZES[size]
        return Size(marker.row_width, 1 + len(ROWS) * marker.height + 1)

    @classmethod
    def cell_size(cls, size: str) -> Size:
        """The whole panel (see the DEFAULT_CSS for the frame)."""
        content = cls.content_size(size)
        return Size(content.width + PANEL_FRAME[0], content.height + PANEL_FRAME[1])

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.content_size(self.marker_size).width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.content_size(self.marker_size).height

    # --- clicks ---------------------------------------------------------------------
    def marker_at(self, x: int, y: int) -> int | None:
        """The marker drawn at content offset (x, y), or None (header, gaps, count)."""
        marker = SIZES[self.marker_size]
        row, column = (y - 1) // marker.height, x // (marker.width + MARKER_GAP)
        if y < 1 or x < 0 or row >= len(ROWS) or x % (marker.width + MARKER_GAP) >= marker.width:
            return None
        return ROWS[row][column] if column < len(ROWS[row]) else None

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        marker = None if offset is None else self.marker_at(offset.x, offset.y)
        if marker is not None:
            self.post_message(self.MarkerClicked(self.seat, marker))

    # --- drawing --------------------------------------------------------------------
    def header(self, width: int) -> Text:
        """Name and mark in ``width`` columns: the long mark if it fits, else the short
        one and as much of the name as there is room for."""
        name_style = self.get_component_rich_style("player-panel--name")
        mark_style = self.get_component_rich_style("player-panel--mark")
        name = self.player_name
        line = Text(end="")
        if self.marks is None:
            line.append(cut_name(name, width), name_style)
            return line
        long, short = self.marks
        mark = long if cell_len(name) + 1 + cell_len(long) <= width else short
        line.append(cut_name(name, width - cell_len(mark) - 1), name_style)
        line.append(" ")
        line.append(mark, mark_style)
        return line

    def _marker_style(self, marker: int) -> Style:
        if marker in self.choices:
            return self.get_component_rich_style("player-panel--choice")
        if marker in self.covered:
            return self.get_component_rich_style("player-panel--covered")
        return self.get_component_rich_style("player-panel--up")

    def render(self) -> Text:
        size = self.marker_size
        lines = [self.header(max(self.size.width, SIZES[size].row_width))]
        for row in ROWS:
            drawings = [marker_lines(m, m in self.covered, size) for m in row]
            for index in range(SIZES[size].height):
                line = Text(end="")
                for position, (marker, drawing) in enumerate(zip(row, drawings, strict=True)):
                    if position:
                        line.append(" " * MARKER_GAP)
                    line.append(drawing[index], self._marker_style(marker))
                lines.append(line)
        count = covered_count(len(self.covered))
        lines.append(Text(count, self.get_component_rich_style("player-panel--count"),
                          end=""))
        return Text("\n", end="").join(lines)


class Arrangement(NamedTuple):
    """Where the panels go: marker size, grid shape, the room needed, whether it fits."""

    size: str
    columns: int
    rows: int
    need: Size
    fits: bool


def arrange_players(players: int, room: Size, gap: tuple[int, int] = GRID_GAP) -> Arrangement:
    """The largest marker size for which the panels fit in ``room`` (compact if none
    does); as many panels side by side as the width allows, rows balanced (5 panels in
    two rows are 3 + 2)."""
    players = max(players, 1)
    arrangement = None
    for size in SIZES:
        cell = PlayerPanel.cell_size(size)
        most = max(1, (room.width + gap[0]) // (cell.width + gap[0]))
        rows = math.ceil(players / min(players, most))
        columns = math.ceil(players / rows)
        need = Size(columns * cell.width + (columns - 1) * gap[0],
                    rows * cell.height + (rows - 1) * gap[1])
        fits = need.width <= room.width and need.height <= room.height
        arrangement = Arrangement(size, columns, rows, need, fits)
        if fits:
            break
    assert arrangement is not None
    return arrangement


class PlayersView(Widget):
    """Every player's panel, arranged to fit (see ``arrange_players``)."""

    DEFAULT_CSS = """
    PlayersView {
        width: 1fr;
        height: 1fr;
        layout: vertical;
        align: center middle;
    }
    PlayersView > #players-notice {
        display: none;
        width: 1fr;
        height: auto;
        padding: 0 1;
        color: $text-warning;
        background: $warning-muted;
    }
    PlayersView.-cramped { align: center top; }
    PlayersView.-cramped > #players-notice { display: block; }
    PlayersView > #players-grid {
        layout: grid;
        width: 1fr;
        height: 1fr;
        overflow: auto auto;
        grid-gutter: 1 1;
    }
    """

    marker_size: reactive[str] = reactive("normal")
    """The marker size the panels use (chosen from the room there is)."""

    fits: reactive[bool] = reactive(True)
    """False when the panels need more room than there is (they scroll; a notice says so)."""

    def __init__(self, players: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.panels = [PlayerPanel(seat, classes=f"seat-{seat}") for seat in range(players)]

    def compose(self) -> ComposeResult:
        yield Static(id="players-notice", markup=False)
        with Container(id="players-grid"):
            yield from self.panels

    def on_resize(self) -> None:
        self.fit_panels()

    def fit_panels(self) -> None:
        """Choose the marker size and the grid for the room there is now."""
        if not self.size.width or not self.size.height:
            return
        players = len(self.panels)
        plan = arrange_players(players, self.size)
        if not plan.fits:  # leave room for the notice and the scroll bars
            room = Size(self.size.width - SCROLLBAR[0], self.size.height - SCROLLBAR[1] - 1)
            plan = arrange_players(players, room)
        cell = PlayerPanel.cell_size(plan.size)
        grid = self.query_one("#players-grid", Container)
        grid.styles.width = plan.need.width if plan.fits else None
        grid.styles.height = plan.need.height if plan.fits else None
        grid.styles.grid_size_columns = plan.columns
        grid.styles.grid_columns = str(cell.width)
        grid.styles.grid_rows = str(cell.height)
        for panel in self.panels:
            panel.marker_size = plan.size
        self.marker_size = plan.size
        self.fits = plan.fits
        self.set_class(not plan.fits, "-cramped")
        if not plan.fits:
            self.query_one("#players-notice", Static).update(
                f"Not enough room for {players} players: they need {plan.need.width}×"
                f"{plan.need.height}, there is {self.size.width}×{self.size.height}. "
                "Scroll, or enlarge the terminal.")


class DiceView(Widget):
    """The two dice as pips, and a caption under them (who rolled what). A click posts
    ``DiceClicked`` (the board rolls, when rolling is legal)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"dice-view--die", "dice-view--caption"}
    DEFAULT_CSS = """
    DiceView {
        width: 1fr;
        height: auto;
        border: round $panel;
        border-title-color: $text-muted;
        padding: 0 1;
    }
    DiceView.-rolling { border: round $accent; }
    DiceView > .dice-view--die { color: $foreground; text-style: bold; }
    DiceView > .dice-view--caption { color: $text; }
    """

    class DiceClicked(Message):
        """The dice were clicked."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.faces: tuple[int, int] | None = None
        self.caption = "No roll yet"
        self.border_title = "Dice"

    def update_view(self, faces: tuple[int, int] | None, caption: str,
                    rolling: bool = False) -> None:
        """Show ``faces`` (None: not rolled yet) with ``caption`` under them."""
        self.faces = faces
        self.caption = caption
        self.set_class(rolling, "-rolling")
        self.refresh(layout=True)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return max(2 * DIE_WIDTH + DICE_GAP, cell_len(self.caption))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return DIE_HEIGHT + len(self._caption_lines(width))

    def _caption_lines(self, width: int) -> list[str]:
        caption = Text(self.caption)
        return [line.plain for line in caption.wrap(self.app.console, max(width, 1))] or [""]

    def render(self) -> Text:
        width = max(self.size.width, 2 * DIE_WIDTH + DICE_GAP)
        die_style = self.get_component_rich_style("dice-view--die")
        caption_style = self.get_component_rich_style("dice-view--caption")
        first, second = self.faces if self.faces is not None else (None, None)
        left = (width - (2 * DIE_WIDTH + DICE_GAP)) // 2
        lines = [Text(" " * left + a + " " * DICE_GAP + b, die_style, end="")
                 for a, b in zip(die_lines(first), die_lines(second), strict=True)]
        for line in self._caption_lines(width):
            lines.append(Text(line.center(width).rstrip(), caption_style, end=""))
        return Text("\n", end="").join(lines)

    def on_click(self) -> None:
        self.post_message(self.DiceClicked())


def side_width(players: int, size: Size) -> int:
    """The width of the side (dice and log) beside ``players`` panels on a screen of
    ``size``: what the panels leave (with the largest markers that fit beside the
    narrowest side), within SIDE_WIDTH. The live board and the replay use it."""
    least, most = SIDE_WIDTH
    room = Size(size.width - least, size.height - 2)  # the status line and the footer
    plan = arrange_players(players, room)
    if not plan.fits:
        return least
    return max(least, min(most, size.width - plan.need.width - 2))


def last_roll(events: Sequence[tuple], names: Sequence[str],
              to_move: int) -> tuple[tuple[int, int] | None, str]:
    """The faces of the last roll in ``events`` and who rolled what (or who rolls first):
    what the dice show, on the live board and in the replay."""
    for event in reversed(events):
        if event[0] == "roll":
            _, seat, first, second = event
            return (first, second), f"{names[seat]}: {first} + {second} = {first + second}"
    return None, f"{says(names[to_move], 'rolls')} first"
