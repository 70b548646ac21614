"""The game's log: the latest lines at the bottom, drawn with Textual's line API.

Textual's ``RichLog`` is a scroll view: every line written grows its virtual size, and a
new virtual size is a layout of the whole screen, then a repaint of all of it. A board
writes a line for nearly every step of a move, so that was several full-screen frames per
move, which over SSH is most of what a move costs. ``GameLog`` has a fixed size: writing a
line repaints this widget only. It keeps the last ``max_lines`` entries, wraps them to its
width (again when it is resized), shows the end, and scrolls back with the mouse wheel
(a ``↑`` in the top line says there is more above while it is scrolled back).

It offers what the screens and tests used of ``RichLog``: ``write``, ``clear`` and
``lines`` (the wrapped lines as strips, each with ``.text``).
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

MAX_LINES = 500


class GameLog(Widget):
    """A log of lines, newest at the bottom; a write repaints it and nothing else."""

    DEFAULT_CSS = """
    GameLog { height: 1fr; }
    """

    def __init__(self, *, max_lines: int = MAX_LINES, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.max_lines = max_lines
        self.entries: list[Text] = []  # what was written, unwrapped
        self.lines: list[Strip] = []  # the entries wrapped to the current width
        self.back = 0  # how many lines the view is scrolled back from the end
        self._width = 0
        self._drawn: dict[tuple[int, int, object], Strip] = {}  # a line as last drawn
        self._dropped = 0  # lines dropped from the front of ``lines`` (keys stay stable)
        self._style = Style()
        self._rows: dict[tuple[object, ...], Strip] = {}  # rows as drawn (see render_lines)
        self._rows_size = (0, 0)

    @property
    def at_end(self) -> bool:
        """Whether the newest line is in view (not scrolled back)."""
        return self.back == 0

    # --- writing ------------------------------------------------------------------------
    def write(self, content: str | Text) -> GameLog:
        """Add a line (wrapped to the width) at the bottom."""
        text = content.copy() if isinstance(content, Text) else Text(str(content))
        self.entries.append(text)
        if len(self.entries) > self.max_lines:
            del self.entries[: len(self.entries) - self.max_lines]
        if self._width:
            strips = self._wrap(text)
            self.lines.extend(strips)
            excess = len(self.lines) - self.max_lines * 2
            if excess > 0:
                del self.lines[:excess]
                self._dropped += excess
                self._drawn.clear()
                self._rows.clear()
            if self.back:  # looking back: the view stays where it is
                self.back += len(strips)
        self.refresh()
        return self

    def clear(self) -> GameLog:
        self.entries.clear()
        self.lines.clear()
        self._drawn.clear()
        self._rows.clear()
        self.back = 0
        self.refresh()
        return self

    def _wrap(self, text: Text) -> list[Strip]:
        console = self.app.console
        strips = []
        for line in text.wrap(console, self._width, no_wrap=False):
            segments = list(line.render(console))
            strips.append(Strip(segments))
        return strips or [Strip.blank(self._width)]

    def _rewrap(self) -> None:
        self.lines = [strip for text in self.entries for strip in self._wrap(text)]
        self._drawn.clear()
        self._rows.clear()

    # --- drawing ------------------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        width = self.content_size.width
        if width != self._width:
            self._width = width
            self._rewrap()
        self.back = min(self.back, max(0, len(self.lines) - self.content_size.height))
        self.refresh()

    def render_lines(self, crop: Region) -> list[Strip]:
        """The rows in ``crop``, border included. A row is drawn (through Textual's
        styles: border, background) once, then kept for as long as it shows the same log
        line: a new line at the bottom draws that line, not the whole log again."""
        self._style = self.rich_style  # once per repaint, not once per line
        width, height = self.outer_size
        if (width, height) != self._rows_size:
            self._rows.clear()
            self._rows_size = (width, height)
        elif len(self._rows) > 4 * max(height, 1):
            self._rows.clear()
        top = self.styles.gutter.top
        content_height = self.content_size.height
        first = max(0, len(self.lines) - content_height - self.back)
        rows = []
        for y in crop.line_range:
            key = self._row_key(y - top, content_height, first)
            row = self._rows.get(key)
            if row is None:
                row = self._rows[key] = super().render_lines(Region(0, y, width, 1))[0]
            rows.append(row)
        if crop.column_span != (0, width):
            rows = [row.crop(*crop.column_span) for row in rows]
        return rows

    def _row_key(self, content_y: int, content_height: int, first: int) -> tuple[object, ...]:
        """What the row at ``content_y`` (from the top of the content) shows."""
        if not 0 <= content_y < content_height:  # the border, or padding
            return ("edge", content_y)
        index = first + content_y
        if not self._width or index >= len(self.lines):
            return ("blank",)
        return ("line", index + self._dropped, content_y == 0 and first > 0 and self.back > 0)

    def notify_style_update(self) -> None:
        self._rows.clear()
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        width, height = self.content_size
        style = self._style
        if not self._width:
            return Strip.blank(width, style)
        first = max(0, len(self.lines) - height - self.back)
        index = first + y
        if index >= len(self.lines) or index >= first + height:
            return Strip.blank(width, style)
        if y == 0 and first > 0 and self.back:
            line = Strip.join([Strip([Segment("↑ ")]),
                               self.lines[index].crop(0, max(0, width - 2))])
            return line.crop_extend(0, width, None).apply_style(style)
        key = (index + self._dropped, width, style)  # a line is drawn once, then reused
        drawn = self._drawn.get(key)
        if drawn is None:
            if len(self._drawn) > 4 * max(height, 1):
                self._drawn.clear()
            drawn = self._drawn[key] = self.lines[index].crop_extend(0, width, None
                                                                     ).apply_style(style)
        return drawn

    # --- looking back ---------------------------------------------------------------------
    def _scroll(self, lines: int) -> None:
        most = max(0, len(self.lines) - self.content_size.height)
        back = min(most, max(0, self.back + lines))
        if back != self.back:
            self.back = back
            self.refresh()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self._scroll(2)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self._scroll(-2)
