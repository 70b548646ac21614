"""The table's widgets: one seat's layout, every seat's layouts, and the piles.

The widgets only show an ``Observation`` (``update_view``); they hold no game state of
their own and change nothing. Cards come from ``trash_tui.app.widgets.cards``, in colours taken
from the theme through component classes (``card--red``, ``card--black``, ``card--wild``,
``card--back``, ``card--empty``), so a theme or an app stylesheet can restyle them.

``TableView`` places the layouts in a grid: side by side while the width allows, in more
rows otherwise, with the largest cards at which every layout fits (huge, large, normal or
compact: see ``cards.CARD_SIZES``). The grid sits in the middle of the room, its gaps a
little wider when there is room to spare. When even compact cards do not fit, it says so
above the layouts, which then scroll. Its reactives ``card_size`` and ``compact`` tell the
screen which size it chose (``screen.watch(table, "card_size", ...)`` can make a
``PileView`` follow it; ``table_room.TableRoom`` does).

Cards come drawn from ``cards.drawn_lines``, which keeps them: a repaint builds no card.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.color import Color
from textual.containers import Container
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from trash_tui.app.widgets.cards import (
    CARD_SIZES,
    COMPACT,
    NORMAL,
    WILD_MARK,
    CardPalette,
    CardSize,
    drawn_card,
    drawn_empty,
    drawn_lines,
    text_width,
)
from trash_tui.app.widgets.changed_lines import ChangedLines, Pieces, joined, line_width
from trash_tui.cards import card_label, make_card
from trash_tui.engine.observation import Observation
from trash_tui.rules import Rules

SLOT_GAP = 1  # columns between two cards of a layout
MIN_CONTENT_WIDTH = 17  # a LayoutView's header needs some room even for a one-slot layout
TABLE_GAP = (1, 1)  # (columns, lines) between two layouts in a TableView, at least
SPREAD_GAP = (4, 2)  # the widest gaps, when the room has that much to spare
GROW_SPARE = 1  # lines to spare before the table takes larger cards than it shows
# What LayoutView's DEFAULT_CSS adds around its content: (columns, lines).
NORMAL_FRAME = (4, 2)  # round border on every side, one column of padding left and right
COMPACT_FRAME = (2, 0)  # no border, one column of padding left and right
SCROLLBAR = (2, 1)  # Textual's default scroll bar sizes: (vertical bar columns, horizontal lines)
PILE_GAP = 2  # columns between two piles in a PileView
#: Rows of cards a LayoutView keeps drawn (a few moves' worth).
MAX_KEPT_ROWS = 32
#: The card in hand a PileView keeps room for when there is none (a ten: the widest).
WIDEST_HAND = make_card(10, 0)

TURN_MARK, TURN_TEXT = "▶", "▶ to play"
WIN_MARK, WIN_TEXT = "★", "★ won"
DONE_MARK, DONE_TEXT = "✓", "✓ done"


def seat_name(names: Sequence[str], seat: int) -> str:
    """``names[seat]``, or "Seat N" (counting from 1) when there is no such name."""
    return names[seat] if seat < len(names) and names[seat] else f"Seat {seat + 1}"


def slot_count(size: int) -> str:
    """'10 slots', '1 slot'."""
    return f"{size} slot{'' if size == 1 else 's'}"


def card_size_of(size: CardSize | bool) -> CardSize:
    """``size`` itself, or for a bool (``compact``) the compact or the normal size."""
    if isinstance(size, bool):
        return COMPACT if size else NORMAL
    return size


def is_larger(size: CardSize, than: CardSize) -> bool:
    """Whether cards of ``size`` are larger than cards of ``than``."""
    return CARD_SIZES.index(size) < CARD_SIZES.index(than)


def _truncate(text: str, room: int) -> str:
    if cell_len(text) <= room:
        return text
    if room <= 0:
        return ""
    return text[: room - 1] + "…"


_SEAT_NUMBER = re.compile(r" \(\d+\)$")  # "Normal (2)": what tells two bots apart


def cut_name(name: str, room: int) -> str:
    """``name`` in ``room`` columns: cut in the middle of the name, never in the number
    that tells seats apart ("Norm… (2)"), while there is room for a letter before it."""
    number = _SEAT_NUMBER.search(name)
    if cell_len(name) <= room or number is None:
        return _truncate(name, room)
    suffix = number.group()
    if room < cell_len(suffix) + 2:
        return _truncate(name, room)
    return _truncate(name[:number.start()], room - cell_len(suffix)) + suffix


class CardWidget(ChangedLines):
    """A widget that draws cards in the theme's colours (its component classes), and
    repaints only the lines a change of cards changed (``repaint_changes``)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "card--red",
        "card--black",
        "card--wild",
        "card--back",
        "card--empty",
    }
    DEFAULT_CSS = """
    CardWidget > .card--red { color: $text-error; }
    CardWidget > .card--black { color: $foreground; }
    CardWidget > .card--wild { text-style: bold; }
    CardWidget > .card--back { color: $text-primary; }
    CardWidget > .card--empty { color: $text-muted; }
    """

    _palette: CardPalette | None = None  # the palette as last worked out (see card_palette)

    def card_palette(self) -> CardPalette:
        """The card styles of the current theme (worked out again only when the styles
        change: a new theme, a class)."""
        if self._palette is not None:
            return self._palette

        def style(name: str) -> Style:
            return self.get_component_rich_style(name)

        self._palette = CardPalette(
            red=style("card--red"),
            black=style("card--black"),
            wild=style("card--wild"),
            back=style("card--back"),
            empty=style("card--empty"),
        )
        return self._palette

    def notify_style_update(self) -> None:
        self._palette = None
        super().notify_style_update()


class LayoutView(CardWidget):
    """One seat's layout: a header line, then the slots in rows with their numbers under.

    The header has the seat's name, "▶ to play" on the seat whose decision it is (at the
    end of a deal "★ won" or "✓ done" instead) and the layout's size; a narrow view keeps
    the marker's symbol and shortens the name. Face-down slots show card backs, wilds a
    ``*``. ``card_size`` is the size of its cards; with compact ones (one line high) the
    border goes.

    The seat to move has its border in the theme's ``$accent`` (compact: its background in
    ``$accent-muted``). That is set on the view's own style, not through a CSS class: a
    class change makes Textual apply the stylesheet to the view and every one of its
    component classes again, which cost more than the rest of a move's frame.
    """

    #: The seat to move: (a CSS variable of the theme, the style it is set as).
    TURN_BORDER = "accent"
    TURN_BACKGROUND = "accent-muted"

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "layout-view--name",
        "layout-view--mark",
        "layout-view--size",
        "layout-view--slot",
    }
    DEFAULT_CSS = """
    LayoutView {
        width: auto;
        height: auto;
        padding: 0 1;
        border: round $panel-lighten-2;
        background: $boost;
    }
    LayoutView.-compact { border: none; }
    LayoutView > .layout-view--name { text-style: bold; }
    LayoutView > .layout-view--mark { color: $text-accent; text-style: bold; }
    LayoutView > .layout-view--size { color: $text-muted; }
    LayoutView > .layout-view--slot { color: $text-muted; }
    """

    card_size: reactive[CardSize] = reactive(NORMAL, layout=True)
    """The size of the cards (compact ones: one line, and no border)."""

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.seat_label = ""
        self.seat = 0
        self.rules = Rules()
        self.cards: tuple[int | None, ...] = ()
        self.wilds: tuple[bool, ...] = ()
        self.marks: tuple[str, str] | None = None  # (long text, short symbol)
        self._rows: dict[tuple[object, ...], list[Text | Pieces]] = {}  # see text_lines
        self.to_move = False
        self._turn_shown: tuple[bool, bool, str] | None = None  # see _show_turn

    # --- the data -------------------------------------------------------------------
    def update_view(self, observation: Observation, seat: int, name: str) -> None:
        """Show ``seat``'s layout as ``observation`` sees it, under ``name``. The screen's
        layout is redone only when the view's size changes (``measure``: the rules and the
        number of slots); a new card in a slot is only a repaint, and a seat where nothing
        changed is not even repainted."""
        before = (self.seat_label, self.seat, self.rules, self.cards, self.wilds, self.marks)
        shape = (self.rules, len(self.cards))
        self.seat_label = name
        self.seat = seat
        self.rules = observation.rules
        self.cards = observation.layouts[seat]
        self.wilds = tuple(card is not None and observation.is_wild(card) for card in self.cards)
        over = observation.decision == "over"
        to_move = not over and observation.to_move == seat
        if over and observation.winner == seat:
            self.marks = (WIN_TEXT, WIN_MARK)
        elif over and seat in observation.completed:
            self.marks = (DONE_TEXT, DONE_MARK)
        elif to_move:
            self.marks = (TURN_TEXT, TURN_MARK)
        else:
            self.marks = None
        self.to_move = to_move
        self._show_turn()
        if (self.seat_label, self.seat, self.rules, self.cards, self.wilds, self.marks) != before:
            if (self.rules, len(self.cards)) != shape:
                self.refresh(layout=True)
            else:
                self.repaint_changes()

    @property
    def compact(self) -> bool:
        """Whether the cards are compact (one line, no border)."""
        return self.card_size == COMPACT

    @compact.setter
    def compact(self, compact: bool) -> None:
        self.card_size = card_size_of(compact)

    def watch_card_size(self, size: CardSize) -> None:
        self.set_class(size == COMPACT, "-compact")
        self._show_turn()

    def _show_turn(self) -> None:
        """The border (compact: the background) of the seat to move, in the theme's
        colours; only a change of turn, size or theme sets it."""
        shown = (self.to_move, self.compact, self.app.theme)
        if shown == self._turn_shown or not self.is_mounted:
            return
        self._turn_shown = shown
        self._palette = None  # the cards' styles hold the background
        colours = self.app.theme_variables
        styles = self.styles
        if self.to_move and not self.compact and self.TURN_BORDER in colours:
            styles.border = ("round", Color.parse(colours[self.TURN_BORDER]))
        else:
            styles.border = None  # the stylesheet's
        if self.to_move and self.compact and self.TURN_BACKGROUND in colours:
            styles.background = Color.parse(colours[self.TURN_BACKGROUND])
        else:
            styles.background = None

    def on_mount(self) -> None:
        self._show_turn()

    def notify_style_update(self) -> None:
        self.call_later(self._show_turn)  # a new theme: its colours
        super().notify_style_update()

    # --- clicks ---------------------------------------------------------------------
    class SlotClicked(Message):
        """A slot of a layout was clicked (``slot`` counts from 1)."""

        def __init__(self, seat: int, slot: int) -> None:
            super().__init__()
            self.seat = seat
            self.slot = slot

    def slot_at(self, x: int, y: int) -> int | None:
        """The slot (from 1) drawn at content offset (x, y), or None (header, gaps)."""
        if y < 1 or not self.cards:
            return None
        card_width = self.card_size.width
        row_height = self.card_size.height + 1
        per_row = min(self.rules.row_length(len(self.cards)), len(self.cards))
        row, column = divmod(y - 1, row_height)[0], x // (card_width + SLOT_GAP)
        if x % (card_width + SLOT_GAP) >= card_width or column >= per_row:
            return None
        slot = row * per_row + column + 1
        return slot if slot <= len(self.cards) else None

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        slot = None if offset is None else self.slot_at(offset.x, offset.y)
        if slot is not None:
            self.post_message(self.SlotClicked(self.seat, slot))

    # --- sizes ----------------------------------------------------------------------
    @staticmethod
    def measure(rules: Rules, size: int, card_size: CardSize | bool) -> Size:
        """The content size (inside border and padding) of a layout of ``size`` slots with
        cards of ``card_size`` (or compact / normal ones for a bool).

        The width is that of a full row (in two-row layouts a row of the starting size, so
        a view keeps its width as the layout shrinks), and at least ``MIN_CONTENT_WIDTH``.
        """
        card_width, card_height = card_size_of(card_size)[1:]
        per_row = max(rules.row_length(size), 1)
        rows = math.ceil(size / per_row)
        width = per_row * card_width + (per_row - 1) * SLOT_GAP
        return Size(max(width, MIN_CONTENT_WIDTH), 1 + rows * (card_height + 1))

    @staticmethod
    def cell_size(rules: Rules, size: int, card_size: CardSize | bool) -> Size:
        """The size of a LayoutView with its border and padding (see the DEFAULT_CSS)."""
        card_size = card_size_of(card_size)
        content = LayoutView.measure(rules, size, card_size)
        frame_w, frame_h = COMPACT_FRAME if card_size == COMPACT else NORMAL_FRAME
        return Size(content.width + frame_w, content.height + frame_h)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.measure(self.rules, len(self.cards), self.card_size).width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.measure(self.rules, len(self.cards), self.card_size).height

    # --- drawing --------------------------------------------------------------------
    def header(self, width: int) -> Text:
        """The header line, fitted into ``width`` columns."""
        name_style = self.get_component_rich_style("layout-view--name")
        mark_style = self.get_component_rich_style("layout-view--mark")
        size_style = self.get_component_rich_style("layout-view--size")
        name = self.seat_label
        marked = 0 if self.marks is None else cell_len(self.marks[1]) + 1
        size = slot_count(len(self.cards))
        if marked + cell_len(name) + 1 + cell_len(size) > width:
            size = str(len(self.cards))  # the word "slots" goes before any of the name
        room = width - cell_len(size) - 1
        line = Text(end="")
        if self.marks is None:
            line.append(cut_name(name, room), name_style)
        elif cell_len(name) + 1 + cell_len(self.marks[0]) <= room:
            line.append(name, name_style)
            line.append(" ")
            line.append(self.marks[0], mark_style)
        else:
            line.append(self.marks[1], mark_style)
            line.append(" ")
            line.append(cut_name(name, room - cell_len(self.marks[1]) - 1), name_style)
        line.pad_right(max(width - cell_len(line.plain) - cell_len(size), 1))
        line.append(size, size_style)
        return line

    def render(self) -> Text:
        return Text("\n", end="").join(joined(line) for line in self.text_lines())

    def text_lines(self) -> list[Text | Pieces]:
        """The header, then each row of cards (each line in pieces: a card's line, the
        gap, the next card's line...) and the slot numbers under it. A row is put
        together once and kept while its cards stay the same, and a card's lines are
        drawn once (``ChangedLines``): a move that turns up a card draws that card."""
        if not self.cards:
            return [Text(self.seat_label, end="")]
        palette = self.card_palette()
        slot_style = self.get_component_rich_style("layout-view--slot")
        size = self.card_size
        content = self.measure(self.rules, len(self.cards), size)
        lines = [self.header(max(self.size.width, content.width))]
        per_row = min(self.rules.row_length(len(self.cards)), len(self.cards))
        rows = self._rows
        if len(rows) > MAX_KEPT_ROWS:
            rows.clear()
        for start in range(0, len(self.cards), per_row):
            stop = min(start + per_row, len(self.cards))
            key = (self.cards[start:stop], self.wilds[start:stop], start, size, palette,
                   slot_style)
            row = rows.get(key)
            if row is None:
                slots = range(start, stop)
                cards = [drawn_lines(self.cards[i], self.wilds[i], size, palette)
                         for i in slots]
                numbers = " " * SLOT_GAP
                gap = Text(numbers, end="")
                row = rows[key] = [
                    *(tuple(piece for index, lines in enumerate(cards)
                            for piece in ((gap, lines[line]) if index else (lines[line],)))
                      for line in range(max(len(lines) for lines in cards))),
                    Text(numbers.join(_slot_number(i + 1, size) for i in slots), slot_style,
                         end="")]
            lines.extend(row)
        return lines


def _slot_number(slot: int, size: CardSize) -> str:
    """The slot number under a card, as wide as the card: under the rank (compact) or in
    the middle."""
    if size == COMPACT:
        return str(slot).rjust(2).ljust(size.width)
    spare = size.width - len(str(slot))
    return " " * ((spare + 1) // 2) + str(slot) + " " * (spare // 2)


class Arrangement(NamedTuple):
    """Where the layouts go: card size, grid shape, one cell's size, the room needed, the
    gaps between cells (columns, lines) and whether it all fits."""

    card_size: CardSize
    columns: int
    rows: int
    cell: Size
    need: Size
    fits: bool
    gap: tuple[int, int] = TABLE_GAP

    @property
    def compact(self) -> bool:
        """Whether the cards are compact ones."""
        return self.card_size == COMPACT


def arrange_table(
    rules: Rules,
    sizes: Sequence[int],
    room: Size,
    gap: tuple[int, int] = TABLE_GAP,
    card_sizes: Sequence[CardSize] = CARD_SIZES,
) -> Arrangement:
    """How to lay out layouts of ``sizes`` in ``room``: with the largest of ``card_sizes``
    (largest first) at which every layout fits, else the last (compact).

    As many layouts side by side as the width allows, rows balanced (5 layouts in two
    rows are 3 + 2); rows with no line between them when that is what lets a size fit.
    ``fits`` is False when even the smallest cards need more room.
    """
    players = max(len(sizes), 1)
    arrangement = None
    for card_size in card_sizes:
        cells = [LayoutView.cell_size(rules, size, card_size) for size in sizes] or [Size(0, 0)]
        cell = Size(max(c.width for c in cells), max(c.height for c in cells))
        most = max(1, (room.width + gap[0]) // (cell.width + gap[0]))
        rows = math.ceil(players / min(players, most))
        columns = math.ceil(players / rows)
        for lines in dict.fromkeys((gap[1], 0) if rows > 1 else (gap[1],)):
            need = _grid_size(columns, rows, cell, (gap[0], lines))
            fits = need.width <= room.width and need.height <= room.height
            arrangement = Arrangement(card_size, columns, rows, cell, need, fits,
                                      (gap[0], lines))
            if fits:
                return arrangement
    assert arrangement is not None
    return arrangement


def spread(plan: Arrangement, room: Size, widest: tuple[int, int] = SPREAD_GAP
           ) -> Arrangement:
    """``plan`` with wider gaps between its cells when ``room`` has some to spare: up to
    half the spare room goes into the gaps, at most ``widest`` (columns, lines) each."""
    if not plan.fits:
        return plan

    def wider(least: int, most: int, spare: int, gaps: int) -> int:
        return least if gaps < 1 else min(most, least + spare // 2 // gaps)

    gap = (wider(plan.gap[0], widest[0], room.width - plan.need.width, plan.columns - 1),
           wider(plan.gap[1], widest[1], room.height - plan.need.height, plan.rows - 1))
    need = _grid_size(plan.columns, plan.rows, plan.cell, gap)
    return plan._replace(gap=gap, need=need)


def _grid_size(columns: int, rows: int, cell: Size, gap: tuple[int, int]) -> Size:
    return Size(columns * cell.width + (columns - 1) * gap[0],
                rows * cell.height + (rows - 1) * gap[1])


class TableView(Widget):
    """Every seat's layout, arranged to fit (see ``arrange_table``), in the middle of the
    room with gaps spread (``spread``)."""

    DEFAULT_CSS = """
    TableView {
        width: 1fr;
        height: 1fr;
        layout: vertical;
        align: center middle;
    }
    TableView.-cramped { align: center top; }
    TableView > #table-notice {
        display: none;
        width: 1fr;
        height: auto;
        padding: 0 1;
        color: $text-warning;
        background: $warning-muted;
    }
    TableView.-cramped > #table-notice { display: block; }
    TableView > #table-seats {
        layout: grid;
        width: 1fr;
        height: 1fr;
        overflow: auto auto;
        grid-gutter: 1 1;
    }
    """

    card_size: reactive[CardSize] = reactive(NORMAL)
    """The size the layouts' cards are drawn in (the largest that fits the room)."""

    compact: reactive[bool] = reactive(False)
    """Whether the layouts are drawn with compact cards (chosen from the room there is)."""

    fits: reactive[bool] = reactive(True)
    """False when the layouts need more room than there is (they scroll; a notice says so)."""

    class Reshaped(Message):
        """The layouts' sizes (or the rules drawing them) changed: the room they need did."""

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.observation: Observation | None = None
        self.names: tuple[str, ...] = ()
        self._views: list[LayoutView] = []
        self._shape: tuple[Rules, tuple[int, ...]] | None = None
        self._chosen: CardSize | None = None  # the card size shown (None: not yet chosen)
        self._notice = ""

    def compose(self) -> ComposeResult:
        yield Static(id="table-notice", markup=False)
        yield Container(id="table-seats")

    @property
    def layout_views(self) -> list[LayoutView]:
        """The LayoutViews, seat 0 first."""
        return list(self._views)

    @property
    def shape(self) -> tuple[Rules, tuple[int, ...]] | None:
        """The rules and every layout's size: what the room the table needs depends on."""
        if self.observation is None:
            return None
        return self.observation.rules, tuple(len(layout) for layout in self.observation.layouts)

    def update_view(self, observation: Observation, names: Sequence[str]) -> None:
        """Show every seat's layout as ``observation`` sees it; ``names`` per seat. Only a
        change of the layouts' sizes arranges the table again (and says ``Reshaped``)."""
        self.observation = observation
        self.names = tuple(names)
        if self.is_mounted:
            self._show()

    def on_mount(self) -> None:
        if self.observation is not None:
            self._show()

    def on_resize(self) -> None:
        self._arrange()

    def _show(self) -> None:
        observation = self.observation
        assert observation is not None
        seats = self.query_one("#table-seats", Container)
        views = self._views
        if len(views) > observation.players:  # keep the views there are, drop the rest
            for view in views[observation.players:]:
                view.remove()
            del views[observation.players:]
        elif len(views) < observation.players:
            new = [
                LayoutView(classes=f"seat-{seat}")
                for seat in range(len(views), observation.players)
            ]
            for view in new:
                view.card_size = self.card_size
            views.extend(new)
            seats.mount_all(new)
        for seat, view in enumerate(self._views):
            view.update_view(observation, seat, seat_name(self.names, seat))
        if self.shape != self._shape:
            self._shape = self.shape
            self.post_message(self.Reshaped())
            self._arrange()

    def plan(self, room: Size) -> Arrangement | None:
        """How the layouts go in ``room`` (None before there is anything to show).

        Cards larger than the ones shown now (or the first time) are taken only with
        ``GROW_SPARE`` lines to spare: the status line under the table wraps onto one more
        line and back from move to move, and the cards must not change size with it.
        """
        shape = self.shape
        if shape is None:
            return None
        rules, sizes = shape
        best = arrange_table(rules, sizes, room)
        now = self._chosen
        if not best.fits or (now is not None and not is_larger(best.card_size, now)):
            return best
        roomy = arrange_table(rules, sizes, Size(room.width, room.height - GROW_SPARE))
        floor = roomy.card_size if roomy.fits else COMPACT
        if now is not None and is_larger(now, floor):
            floor = now
        return arrange_table(rules, sizes, room, card_sizes=CARD_SIZES[CARD_SIZES.index(floor):])

    def _arrange(self) -> None:
        """Choose the card size and the grid for the room there is. Every style is set to
        what it already is unless the arrangement changed, so nothing is laid out again."""
        room = self.size
        plan = self.plan(room)
        if plan is None or not room.width or not room.height:
            return
        if plan.fits:
            plan = spread(plan, room)
        else:  # leave room for the notice and the scroll bars
            room = Size(room.width - SCROLLBAR[0], room.height - SCROLLBAR[1] - 1)
            plan = self.plan(room)
            assert plan is not None
        styles = self.query_one("#table-seats", Container).styles
        styles.width = plan.need.width if plan.fits else "1fr"
        styles.height = plan.need.height if plan.fits else "1fr"
        styles.grid_size_columns = plan.columns
        styles.grid_columns = str(plan.cell.width)
        styles.grid_rows = str(plan.cell.height)
        styles.grid_gutter_vertical = plan.gap[0]  # Textual: the gutters between columns
        styles.grid_gutter_horizontal = plan.gap[1]  # and between rows
        for view in self.layout_views:
            view.card_size = plan.card_size
        self._chosen = plan.card_size
        self.card_size = plan.card_size
        self.compact = plan.compact
        self.fits = plan.fits
        self.set_class(not plan.fits, "-cramped")
        if not plan.fits:
            assert self.observation is not None
            notice = (f"Not enough room for {self.observation.players} layouts: they need "
                      f"{plan.need.width}×{plan.need.height}, there is {self.size.width}×"
                      f"{self.size.height}. Scroll, or enlarge the terminal.")
            if notice != self._notice:
                self._notice = notice
                self.query_one("#table-notice", Static).update(notice)


class PileView(CardWidget):
    """The stock (a back and its count), the discard pile's top card, the card in hand.

    Cards of ``card_size`` (normal by default): three cards side by side with a label over
    each ("Stock 31", "Discard", "In hand: 7♣"; the last only during a chain). Compact, or
    when the width is too small for that: one line, "░ Stock 31 · Discard 7♣ · In hand:
    7♣", wrapped per pile if needed.
    """

    DEFAULT_CSS = """
    PileView {
        width: 100%;
        height: auto;
        padding: 0 1;
    }
    PileView > .pile-view--label { color: $text-muted; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"pile-view--label"}

    compact: reactive[bool] = reactive(False, layout=True)
    """One line instead of cards."""

    card_size: reactive[CardSize] = reactive(NORMAL, layout=True)
    """The size of the cards when they are drawn (compact ones: the one line)."""

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.stock_count: int | None = None
        self.top: int | None = None
        self.top_wild = False
        self.hand: int | None = None
        self.hand_wild = False
        self._drawn: dict[tuple[object, ...], list[Text | Pieces]] = {}  # see _pile_lines
        self._columns: dict[tuple[object, ...], list[Text]] = {}  # see _normal
        self._heights: dict[tuple[object, ...], int] = {}  # see lines_at

    def update_view(self, observation: Observation) -> None:
        """Show the piles and the card in hand of ``observation``. The view is as wide as
        its container, so the screen's layout is redone only when its height changes
        (``lines_at``); a drawn card is a repaint, and piles that did not change are not
        repainted."""
        before = (self.stock_count, self.top, self.top_wild, self.hand, self.hand_wild)
        height = self.lines_at(self.content_size.width)
        self.stock_count = observation.stock_count
        self.top = observation.discard_top
        self.top_wild = self.top is not None and observation.is_wild(self.top)
        self.hand = observation.hand
        self.hand_wild = self.hand is not None and observation.is_wild(self.hand)
        if (self.stock_count, self.top, self.top_wild, self.hand, self.hand_wild) != before:
            if self.lines_at(self.content_size.width) != height:
                self.refresh(layout=True)
            else:
                self.repaint_changes()

    def lines_at(self, width: int) -> int:
        """How many lines the piles take in ``width`` columns: the most they take with or
        without a card in hand, so drawing a card and discarding it never changes the
        view's height (nor lays the screen out again); the view fills its container's
        width, so only a change of this is a new layout of the screen."""
        if self.stock_count is None:
            return 0
        key = (width, *self._shape(), self.compact, self.card_size, self.app.theme)
        lines = self._heights.get(key)
        if lines is not None:
            return lines
        hand = self.hand, self.hand_wild
        lines = len(self._pile_lines(width))
        try:
            for self.hand, self.hand_wild in ((None, False), (WIDEST_HAND, False)):
                lines = max(lines, len(self._pile_lines(width)))
        finally:
            self.hand, self.hand_wild = hand
        if len(self._heights) >= 32:
            self._heights.clear()
        self._heights[key] = lines
        return lines

    def _shape(self) -> tuple[int, bool, int | None, int | None]:
        """What the piles' height depends on: the widths of their labels and faces (the
        stock's count of digits, the top card's and the hand's names), not which cards."""
        top = None if self.top is None else cell_len(_card_name(self.top, self.top_wild))
        hand = None if self.hand is None else cell_len(_card_name(self.hand, self.hand_wild))
        return len(str(self.stock_count)), bool(self.stock_count), top, hand

    # --- text -----------------------------------------------------------------------
    def labels(self, compact: bool = False) -> list[str]:
        """The label of every pile shown: stock, discard and, during a chain, the hand.
        An empty discard pile is said so only on the compact line: drawn, its empty
        outline says it, and a longer label pushed the piles onto the compact line."""
        if self.stock_count is None:
            return []
        discard = "Discard" if self.top is not None or not compact else "Discard: empty"
        labels = [f"Stock {self.stock_count}", discard]
        if self.hand is not None:
            labels.append(f"In hand: {_card_name(self.hand, self.hand_wild)}")
        return labels

    def _cards(self, compact: bool) -> list[Text]:
        """The stock, the discard pile and the hand's card (``_faces``): compact, or in
        ``card_size`` (shared drawings: copy before changing them)."""
        palette = self.card_palette()
        size = COMPACT if compact or self.card_size == COMPACT else self.card_size
        stock_size = size._replace(width=1) if size == COMPACT else size
        return [drawn_empty(stock_size if index == 0 else size, palette) if card is None else
                drawn_card(None if card == "back" else card, wild,
                           stock_size if index == 0 else size, palette)
                for index, (card, wild) in enumerate(self._faces())]

    def _normal(self) -> list[Pieces]:
        """The piles side by side, a line in pieces (a pile's part, the gap, the next
        pile's part...): a line of labels, then the cards' rows. Each pile's column is
        kept for its card and its label's width: a draw from the stock changes its count
        and the card in hand, not the discard pile, whose pieces are not drawn again."""
        label_style = self.get_component_rich_style("pile-view--label")
        labels = self.labels()
        palette = self.card_palette()
        gap = Text(" " * PILE_GAP, end="")
        columns = []
        for label, face, drawn in zip(labels, self._faces(), self._cards(compact=False),
                                      strict=True):
            key = (cell_len(label), face, self.card_size, palette, label_style)
            column = self._columns.get(key)
            if column is None:
                if len(self._columns) >= 32:
                    self._columns.clear()
                block = Text(" " * cell_len(label), label_style, end="")
                block.append("\n")
                block.append_text(drawn)
                width = text_width(block)
                column = self._columns[key] = []
                for line in block.split("\n", allow_blank=True)[1:]:
                    line.pad_right(width - cell_len(line.plain))
                    column.append(line)
            top = Text(label, label_style, end="")
            top.pad_right(cell_len(column[0].plain) - cell_len(label))
            columns.append([top, *column])
        rows = []
        for row in range(max(len(column) for column in columns)):
            pieces: list[Text] = []
            for index, column in enumerate(columns):
                if index:
                    pieces.append(gap)
                pieces.append(column[row] if row < len(column) else
                              Text(" " * cell_len(column[0].plain), end=""))
            rows.append(tuple(pieces))
        return rows

    def _faces(self) -> list[tuple[int | str | None, bool]]:
        """What each pile shows (``_cards`` draws it): (a card, "back" or None for an empty
        pile, whether it is wild)."""
        faces: list[tuple[int | str | None, bool]] = [
            ("back" if self.stock_count else None, False), (self.top, self.top_wild)]
        if self.hand is not None:
            faces.append((self.hand, self.hand_wild))
        return faces

    def _compact(self, width: int) -> Text:
        label_style = self.get_component_rich_style("pile-view--label")
        parts = []
        stock, *faces = self._cards(compact=True)
        labels = self.labels(compact=True)
        first = stock.copy()
        first.append(" ")
        first.append(labels[0], label_style)
        parts.append(first)
        discard = Text(labels[1], label_style, end="")
        if self.top is not None:
            discard.append(" ")
            discard.append_text(_trimmed(faces[0]))
        parts.append(discard)
        if self.hand is not None:
            hand = Text("In hand: ", label_style, end="")
            hand.append_text(_trimmed(faces[-1]))
            parts.append(hand)
        line = Text(" · ", end="").join(parts)
        if width and cell_len(line.plain) > width:
            return Text("\n", end="").join(parts)
        return line

    def _mode(self, width: int) -> str:
        """How the piles are drawn in ``width`` columns: "normal" (cards side by side),
        "line" (compact, one line) or "lines" (compact, one pile a line)."""
        if self._fitted_normal(width) is not None:
            return "normal"
        return "lines" if "\n" in self._compact(width).plain else "line"

    def _fitted_normal(self, width: int) -> list[Pieces] | None:
        """The cards side by side (their lines, in pieces), if they are not compact and
        fit in ``width`` columns."""
        if self.compact or self.card_size == COMPACT:
            return None
        normal = self._normal()
        if width and max(line_width(line) for line in normal) > width:
            return None
        return normal

    def _pile_lines(self, width: int) -> list[Text | Pieces]:
        """The piles drawn in ``width`` columns, a ``Text`` (or pieces of one) a line;
        kept for the state they were drawn for, since a move asks for them several times
        (the size before and after, then the repaint)."""
        if self.stock_count is None:
            return []
        key = (width, self.stock_count, self.top, self.top_wild, self.hand, self.hand_wild,
               self.compact, self.card_size, self.app.theme)
        lines = self._drawn.get(key)
        if lines is None:
            if len(self._drawn) >= 8:
                self._drawn.clear()
            normal = self._fitted_normal(width)
            lines = list(normal) if normal is not None else \
                list(self._compact(width).split("\n", allow_blank=True))
            self._drawn[key] = lines
        return lines

    def _text(self, width: int) -> Text:
        """The piles drawn in ``width`` columns, as one ``Text``."""
        return Text("\n", end="").join(joined(line) for line in self._pile_lines(width))

    # --- clicks ---------------------------------------------------------------------
    class PileClicked(Message):
        """A pile was clicked: ``"stock"``, ``"discard"`` or ``"hand"``."""

        def __init__(self, pile: str) -> None:
            super().__init__()
            self.pile = pile

    def pile_at(self, x: int, y: int) -> str | None:
        """The pile drawn at content offset (x, y), or None."""
        if self.stock_count is None:
            return None
        piles = ["stock", "discard", "hand"][:len(self.labels())]
        mode = self._mode(self.size.width)
        if mode == "lines":  # compact, one pile a line
            return piles[y] if 0 <= y < len(piles) else None
        if mode == "line":  # compact, one line: the piles joined by " · "
            start = 0
            for pile, width in zip(piles, self._compact_widths(), strict=True):
                if start <= x < start + width:
                    return pile
                start += width + 3
            return None
        start = 0
        for pile, label, card in zip(piles, self.labels(), self._cards(compact=False),
                                     strict=True):
            width = max(cell_len(label), *(cell_len(line.plain) for line in card.split("\n")))
            if start <= x < start + width:
                return pile
            start += width + PILE_GAP
        return None

    def _compact_widths(self) -> list[int]:
        labels = self.labels(compact=True)
        widths = [2 + cell_len(labels[0]), cell_len(labels[1])]
        faces = self._cards(compact=True)[1:]
        if self.top is not None:
            widths[1] += 1 + cell_len(_trimmed(faces[0]).plain)
        if self.hand is not None:
            widths.append(cell_len("In hand: ") + cell_len(_trimmed(faces[-1]).plain))
        return widths

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        pile = None if offset is None else self.pile_at(offset.x, offset.y)
        if pile is not None:
            self.post_message(self.PileClicked(pile))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return max((line_width(line) for line in self._pile_lines(container.width)),
                   default=0)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.lines_at(width)

    def render(self) -> Text:
        return self._text(self.size.width)

    def text_lines(self) -> list[Text | Pieces]:
        return self._pile_lines(self.size.width)


def _card_name(card: int, wild: bool) -> str:
    return card_label(card) + (WILD_MARK if wild else "")


def _trimmed(text: Text) -> Text:
    """A one-line card without the padding that aligns it in a column."""
    start = len(text.plain) - len(text.plain.lstrip())
    end = len(text.plain.rstrip())
    return text[start:end]
