"""Widgets that repaint only the lines that changed.

A widget's ``refresh()`` makes Textual draw all of it again: every line goes through the
widget's border, padding and background once more, and the screen sends every line to the
terminal. A card turned up in a layout changes three lines of the view; a card drawn
changes the piles' card lines, not their labels. ``ChangedLines`` draws the widget's
``render()`` (the same ``Text`` as before, drawn line by line by Textual's own
``Visual.to_strips``, so the lines look exactly as they did, and a line that did not
change is not drawn again), keeps the lines, and on ``repaint_changes``
compares the new lines with those on the screen and marks only the changed ones dirty.

A change of size or style (a class, the theme), or any other ``refresh()`` without
regions, draws the whole widget again as usual.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import zip_longest

from rich.cells import cell_len
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.visual import Visual, visualize
from textual.widget import Widget

#: Lines a widget keeps drawn (a view has a dozen; a few moves' worth are kept).
MAX_DRAWN_LINES = 256

#: A line given in pieces, left to right (see ``ChangedLines.text_lines``).
Pieces = tuple[Text, ...]


def joined(line: Text | Pieces) -> Text:
    """A line as one ``Text`` (its pieces joined)."""
    return Text(end="").join(line) if isinstance(line, tuple) else line


def line_width(line: Text | Pieces) -> int:
    """A line's width in terminal columns (of all its pieces)."""
    if isinstance(line, tuple):
        return sum(cell_len(piece.plain) for piece in line)
    return cell_len(line.plain)


class ChangedLines(Widget):
    """A widget drawn from ``render()`` that repaints only the lines that changed."""

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._lines: list[Strip] | None = None  # the content's lines as last drawn
        self._lines_size = Size(0, 0)
        self._drawn_lines: dict[tuple[object, ...], list[Strip]] = {}  # see _draw

    def _draw(self) -> list[Strip]:
        """The content's lines: a ``Text`` is drawn line by line, each line once for as
        long as it stays the same (a move changes a row of cards, not the whole view);
        anything else as Textual draws it."""
        width, height = self.size
        style = self.visual_style
        lines = self.text_lines()
        if lines is None:
            text = self.render()
            if not isinstance(text, Text):  # (as Textual's own render: markup on)
                return Visual.to_strips(self, visualize(self, text, markup=True), width,
                                        height, style)
            lines = text.split("\n", allow_blank=True)
        strips: list[Strip] = []
        if len(self._drawn_lines) > MAX_DRAWN_LINES:
            self._drawn_lines.clear()
        for line in lines:
            if isinstance(line, tuple):  # pieces side by side: each drawn on its own
                strips.append(Strip.join([self._drawn_line(piece, cell_len(piece.plain),
                                                           style)[0] for piece in line]))
            else:
                strips.extend(self._drawn_line(line, width, style))
        return strips[:height]

    def _drawn_line(self, line: Text, width: int, style: VisualStyle) -> list[Strip]:
        """One line of text drawn in ``width`` columns (kept while it stays the same)."""
        key = (line.plain, tuple(line.spans), line.style, width, style)
        strips = self._drawn_lines.get(key)
        if strips is None:
            strips = self._drawn_lines[key] = Visual.to_strips(
                self, visualize(self, line, markup=False), width, None, style)
        return strips

    def text_lines(self) -> Sequence[Text | Pieces] | None:
        """The content as one ``Text`` a line, if the widget has it that way (it then
        need not be joined by ``render`` and split again); None: ``render()``. A line may
        come in pieces (``Pieces``): each is drawn and kept on its own, so a line where one
        piece changed draws only that piece again."""
        return None

    def render_line(self, y: int) -> Strip:
        if self._lines is None or self._lines_size != self.size:
            self._lines = self._draw()
            self._lines_size = self.size
        if 0 <= y < len(self._lines):
            return self._lines[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def repaint_changes(self) -> None:
        """After a change of what ``render`` draws: repaint the lines that changed (all of
        them when the widget has not been drawn at this size yet)."""
        if self._lines is None or self._lines_size != self.size or not self.is_mounted:
            self.refresh()
            return
        lines = self._draw()  # (from render() itself: nothing Textual keeps of it is used)
        width = self.size.width
        changed = [Region(0, y, width, 1) for y, (old, new) in
                   enumerate(zip_longest(self._lines, lines)) if old != new]
        self._lines = lines
        if changed:
            super().refresh(*changed)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> ChangedLines:
        if repaint and not regions:
            self._lines = None  # drawn again in full
        super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        return self

    def notify_style_update(self) -> None:
        self._lines = None
        super().notify_style_update()
