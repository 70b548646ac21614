"""The app's footer: the keys that work now, drawn as one line by one widget.

Textual's ``Footer`` is a container of one widget per key, rebuilt (unmounted, mounted,
styled, laid out) whenever a screen's bindings may have changed. Our boards change their
keys with every move (they follow the legal actions), so that was two rebuilds of a dozen
widgets per move, and a layout of the whole screen each time. ``TrashFooter`` draws the
same line itself: when the keys it shows change it repaints one line, nothing more.

It looks like Textual's footer (the same colours, the key then its label, the command
palette key on the right behind a thin rule), shows the keys a screen's bindings show,
dims those that are disabled, and a click on a key presses it (a disabled one rings the
bell). ``drawn_keys()`` says what is shown and where (the tests read it). A footer made
with ``wrap=True`` (the lobby's, whose keys lead to every other screen) takes a second line
when its keys do not fit on one, rather than leave any out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

PALETTE_RULE = "▏"
RULE_SHADE = 0.2  # the rule is the text colour at 20% over the background


@dataclass(frozen=True)
class ShownKey:
    """One key on the footer line: what it shows and where (columns ``start``–``end``)."""

    key: str
    key_display: str
    description: str
    action: str
    enabled: bool
    palette: bool
    group: str | None = None  # a group's keys are shown together, then its label
    start: int = 0
    end: int = 0
    line: int = 0  # the footer's line (0 unless a wrapping footer took a second one)


class TrashFooter(Widget, can_focus=False):
    """The keys of the screen's bindings that are shown, as one line at the bottom."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {"footer-key--key", "footer-key--description"}
    DEFAULT_CSS = """
    TrashFooter {
        dock: bottom;
        height: 1;
        width: 100%;
        color: $footer-foreground;
        background: $footer-background;
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def __init__(self, *, wrap: bool = False, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.wrap = wrap
        self._shown: tuple[ShownKey, ...] = ()
        self._placed: tuple[ShownKey, ...] = ()
        self._check_pending = False
        if wrap:
            self.styles.height = "auto"

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self._update()

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """The screen's bindings may have changed: look once, when what changed them is
        done (so the keys change in the same frame as the rest of the screen)."""
        if self.is_attached and screen is self.screen and not self._check_pending:
            self._check_pending = True
            self.call_later(self._update)

    # --- what it shows ------------------------------------------------------------------
    def shown_keys(self) -> tuple[ShownKey, ...]:
        """The keys to show, in the screen's order (the palette key last)."""
        app = self.app
        palette_key = app.COMMAND_PALETTE_BINDING
        keys = []
        palette: ShownKey | None = None
        seen_actions: set[str] = set()
        for _, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if binding.key == palette_key and app.ENABLE_COMMAND_PALETTE:
                palette = ShownKey(binding.key, app.get_key_display(binding),
                                   binding.description, binding.action, enabled, True)
            elif binding.show and binding.action not in seen_actions:
                seen_actions.add(binding.action)  # one key per action, as Textual's footer
                group = binding.group.description if binding.group is not None else None
                keys.append(ShownKey(binding.key, app.get_key_display(binding),
                                     binding.description, binding.action, enabled, False,
                                     group))
        return (*keys, *([palette] if palette else []))

    def _update(self) -> None:
        self._check_pending = False
        if not self.is_attached:
            return
        shown = self.shown_keys()
        if shown != self._shown:
            self._shown = shown
            self.refresh(layout=self.wrap)

    def drawn_keys(self) -> tuple[ShownKey, ...]:
        """The keys as last drawn, with the columns each takes."""
        return self._placed

    # --- drawing ------------------------------------------------------------------------
    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if not self.wrap:
            return 1
        return 1 + max((key.line for key in self._arrange(width)[1]), default=0)

    @staticmethod
    def _texts(keys: list[ShownKey], index: int) -> tuple[str, str]:
        """A key's text and its label's."""
        key = keys[index]
        if key.group is None:
            return f" {key.key_display} ", f"{key.description} "
        # "2 3 4 … Uncover": the group's keys, its label after the last one
        last = index + 1 == len(keys) or keys[index + 1].group != key.group
        first = index == 0 or keys[index - 1].group != key.group
        return f"{' ' if first else ''}{key.key_display}", (f" {key.group} " if last else " ")

    def _arrange(self, width: int) -> tuple[str, list[ShownKey]]:
        """Where each key goes (its line and columns) at ``width``; the palette's text."""
        keys = [key for key in self._shown if not key.palette]
        palette = next((key for key in self._shown if key.palette), None)
        palette_text = f"{palette.key_display} {palette.description} " if palette else ""
        room = width - (cell_len(palette_text) + 1 if palette else 0)
        placed: list[ShownKey] = []
        column = line = 0
        for index, key in enumerate(keys):
            key_text, label = self._texts(keys, index)
            size = cell_len(key_text) + cell_len(label)
            if column + size > room:
                if not self.wrap or line > 0 or size > width:
                    break
                line, column, room = 1, 0, width  # the second line has no palette key
            placed.append(_placed(key, column, column + cell_len(key_text)
                                  + (cell_len(label) if key.group is None else 0), line))
            column += size
        if palette is not None and width > cell_len(palette_text) + 1:  # right of line 0
            start = width - cell_len(palette_text)
            placed.append(_placed(palette, start, start + cell_len(palette_text)))
        return palette_text, placed

    def render_line(self, y: int) -> Strip:
        width = self.content_size.width
        base = self.rich_style
        key_style = base + self.get_component_rich_style("footer-key--key", partial=True)
        label_style = base + self.get_component_rich_style("footer-key--description",
                                                           partial=True)
        background, foreground = self.styles.background, self.styles.color
        rule_style = base + Style(color=background.blend(foreground, RULE_SHADE).rich_color)
        dim = Style(dim=True)
        keys = [key for key in self._shown if not key.palette]
        palette = next((key for key in self._shown if key.palette), None)
        palette_text, placed = self._arrange(width)
        segments: list[Segment] = []
        column = 0
        for key in placed:
            if key.line != y or key.palette:
                continue
            key_text, label = self._texts(keys, keys.index(_unplaced(key)))
            extra = Style() if key.enabled else dim
            segments += [Segment(key_text, key_style + extra),
                         Segment(label, label_style + (extra if key.group is None else dim
                                                        if not key.enabled else Style()))]
            column += cell_len(key_text) + cell_len(label)
        if y == 0 and palette is not None and width > cell_len(palette_text) + 1:
            gap = max(0, width - column - cell_len(palette_text) - 1)
            segments += [Segment(" " * gap, base), Segment(PALETTE_RULE, rule_style)]
            segments += [Segment(palette.key_display, key_style),
                         Segment(f" {palette.description} ", label_style)]
        self._placed = tuple(placed)
        return Strip(segments).crop_extend(0, width, base)

    # --- clicks -------------------------------------------------------------------------
    def key_at(self, x: int, y: int = 0) -> ShownKey | None:
        """The key drawn at column ``x`` of line ``y``, if any."""
        return next((key for key in self._placed
                     if key.line == y and key.start <= x < key.end), None)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        offset = event.get_content_offset(self)
        key = None if offset is None else self.key_at(offset.x, offset.y)
        if key is None:
            return
        event.stop()
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()


def _placed(key: ShownKey, start: int, end: int, line: int = 0) -> ShownKey:
    return ShownKey(key.key, key.key_display, key.description, key.action, key.enabled,
                    key.palette, key.group, start, end, line)


def _unplaced(key: ShownKey) -> ShownKey:
    return _placed(key, 0, 0)
