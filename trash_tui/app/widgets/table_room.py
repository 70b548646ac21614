"""The board's upper part: the table, and beside it a side column (the piles, the log…).

``TableRoom`` is a row holding a ``TableView`` and one other widget, the side column. It
makes the side as wide as the table leaves (``side_width``): the table gets the room for
the largest cards at which every layout fits, the side takes the rest, from
``SIDE_USUAL`` columns up to 30% of the screen (``SIDE_MOST`` at most), so on a wide
screen the log's lines no longer wrap. A side down to ``SIDE_LEAST`` columns is taken only
when it buys a table of compact or normal cards a larger size. The piles in the side
(``PileView``) follow the table: large cards beside a table of large or huge ones,
normal ones otherwise.

The side's width is worked out again only when the room's size or the table's shape (the
layouts' sizes) changes, and set only when it differs, so a move lays nothing out again.
"""

from __future__ import annotations

from textual.containers import Horizontal
from textual.geometry import Size
from textual.widget import Widget

from trash_tui.app.widgets.cards import COMPACT, HUGE, LARGE, NORMAL, CardSize
from trash_tui.app.widgets.table import PileView, TableView, is_larger

SIDE_LEAST = 30  # the narrowest side, taken only when it buys larger cards
SIDE_USUAL = 34  # the side at 80 columns (piles of normal cards beside each other)
SIDE_MOST = 60  # the widest side, on the widest screens
SIDE_SHARE = (3, 10)  # the side takes at most this share of the width (above SIDE_USUAL)
SIDE_MARGIN = 2  # columns at least between the table and the side


def side_width(table: TableView, room: Size) -> int:
    """How wide the side column is beside ``table`` in a row of ``room``."""
    most = max(SIDE_USUAL, min(SIDE_MOST, room.width * SIDE_SHARE[0] // SIDE_SHARE[1]))
    usual = table.plan(Size(room.width - SIDE_USUAL, room.height))
    tight = table.plan(Size(room.width - SIDE_LEAST, room.height))
    if usual is None or tight is None:
        return SIDE_USUAL
    least, plan = SIDE_USUAL, usual
    small = not usual.fits or usual.card_size in (COMPACT, NORMAL)
    if tight.fits and small and (not usual.fits or is_larger(tight.card_size, usual.card_size)):
        least, plan = SIDE_LEAST, tight
    if not plan.fits:
        return SIDE_USUAL
    return max(least, min(most, room.width - plan.need.width - SIDE_MARGIN))


def pile_size(table_size: CardSize) -> CardSize:
    """The piles' card size beside a table of ``table_size`` cards."""
    return LARGE if table_size in (LARGE, HUGE) else NORMAL


class TableRoom(Horizontal):
    """A ``TableView`` and a side column beside it, the side as wide as the table leaves."""

    DEFAULT_CSS = """
    TableRoom { height: 1fr; }
    """

    @property
    def table(self) -> TableView:
        """The table in the room."""
        return self.query_one(TableView)

    @property
    def side(self) -> Widget | None:
        """The side column: the child that is not the table."""
        return next((child for child in self.children if not isinstance(child, TableView)),
                    None)

    def on_mount(self) -> None:
        self.watch(self.table, "card_size", self._follow_table)

    def on_resize(self) -> None:
        self._fit()

    def on_table_view_reshaped(self, _: TableView.Reshaped) -> None:
        self._fit()

    def _fit(self) -> None:
        side = self.side
        if side is not None and self.size.width and self.size.height:
            side.styles.width = side_width(self.table, self.size)

    def _follow_table(self, size: CardSize) -> None:
        for piles in self.query(PileView):
            piles.card_size = pile_size(size)
