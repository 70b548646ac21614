"""A shared table's chat and seats as the table's screens show them: the one-line chat
input, a chat line for the log, the seats in short. Everything shown came from other
players and is cleaned."""

from __future__ import annotations

import io
from typing import Any, ClassVar

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widgets import Input

from trash_tui.text import clean

CHAT_LENGTH = 200
CHAT_ROWS = 2  # the most rows of a log of given width one chat line takes
EARLIER = "earlier · "  # before a line said at the table before one arrived

_MEASURE = Console(file=io.StringIO(), width=200, color_system=None)


def seats_line(table: dict[str, Any]) -> str:
    """The seats in short: names of humans (away marked), "open", bot levels."""
    parts = []
    for seat in table["seats"]:
        if seat["kind"] == "human":
            name = clean(seat.get("name") or "?", 24)
            parts.append(name + (" (away)" if seat.get("state") == "away" else ""))
        elif seat["kind"] == "open":
            parts.append("○ open")
        else:
            parts.append(f"bot {seat.get('level')}")
    return ", ".join(parts)


def _rows(text: Text, width: int) -> int:
    return len(text.wrap(_MEASURE, width))


def chat_text(message: dict[str, Any], width: int | None = None) -> Text:
    """A chat line as the log shows it: who (cleaned; marked if watching) and what; a
    line said before this player arrived (``earlier``) marked so and dimmed. Given the
    log's ``width``, the line takes at most ``CHAT_ROWS`` rows of it, cut with "…"."""
    who = clean(message.get("from", "?"), 32)
    watching = " (watching)" if message.get("watching") else ""
    said = clean(message.get("text", ""), CHAT_LENGTH)
    earlier = bool(message.get("earlier"))
    head = f"💬 {EARLIER if earlier else ''}{who}{watching}: "
    line = Text(head + said, style="dim" if earlier else "")
    if width is None or width < 4 or _rows(line, width) <= CHAT_ROWS:
        return line
    keep = len(said)
    while keep > 0:
        keep = min(keep - 1, max(0, CHAT_ROWS * width - len(head) - 1))
        line = Text(head + said[:keep].rstrip() + "…", style="dim" if earlier else "")
        if _rows(line, width) <= CHAT_ROWS:
            return line
    return Text(head.rstrip()[: CHAT_ROWS * width - 1] + "…",
                style="dim" if earlier else "")


class ChatLine(Input):
    """The one-line table chat: enter sends, escape closes it (the table stays). At its
    most (``max_length``, a paste cut to fit) it says so: a bell, and a tag at its right
    end until the line is shorter again."""

    DEFAULT_CSS = """
    ChatLine.-full { background-tint: $warning 15%; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close_chat", "Close chat", id="shared-chat-close"),
    ]

    FULL_TAG = " full: {n} characters at most "
    SHORT_TAG = " {n} max "

    full = reactive(False, toggle_class="-full")

    class Closed(Message):
        """Escape in the chat line: the screen around it closes it (or stops typing)."""

    def action_close_chat(self) -> None:
        self.post_message(self.Closed())

    def replace(self, text: str, start: int, end: int) -> None:
        """As Input's, but what does not fit is cut (not the whole paste refused), and
        said."""
        if self.max_length:
            start, end = sorted((max(0, start), min(len(self.value), end)))
            room = self.max_length - (len(self.value) - (end - start))
            if len(text) > room:
                text = text[:max(0, room)]
                self.full = True
                self.app.bell()
                if not text:
                    return
        super().replace(text, start, end)

    def restricted(self) -> None:
        self.full = bool(self.max_length) and len(self.value) >= self.max_length
        self.app.bell()

    def watch_value(self, value: str) -> None:
        if self.full and (not self.max_length or len(value) < self.max_length):
            self.full = False

    def tag(self) -> str:
        """What the line says at its right end when it is full."""
        width = self.scrollable_content_region.width
        tag = self.FULL_TAG.format(n=self.max_length)
        if len(tag) * 2 > width:
            tag = self.SHORT_TAG.format(n=self.max_length)
        return tag if len(tag) * 2 <= width else ""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        tag = self.tag() if self.full and y == 0 else ""
        if not tag:
            return strip
        width = strip.cell_length
        keep = width - len(tag)
        cursor = self.cursor_position - round(self.scroll_offset.x)
        # the cursor stays in sight: drop the left end of what shows, not the right one
        shown = strip.crop(width - keep, width) if cursor >= keep else strip.crop(0, keep)
        style = self.rich_style + Style(reverse=True, bold=True)
        return Strip([*shown, Segment(tag, style)], width)
