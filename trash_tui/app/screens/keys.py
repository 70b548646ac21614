"""The keys of the screen underneath, as a box over it: what the palette's "Keys" opens.

Textual's own "Keys" command docks a help panel beside the screen, which squeezes a
centred screen such as the lobby into a strip, and only the palette closes it again. This
box covers nothing but its middle, lists every key of the screen under it (those the
footer shows and those it has no room for), and esc (or ``?``, or enter) closes it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Static

from trash_tui.app.widgets.footer import TrashFooter


def screen_keys(screen: Screen[Any]) -> list[tuple[str, str]]:
    """(key, what it does) for each action of ``screen``'s active bindings that has a
    description, in the screen's order; the keys of one action together ("r ?")."""
    app = screen.app
    keys: dict[str, tuple[list[str], str]] = {}
    for _, binding, enabled, _tooltip in screen.active_bindings.values():
        if not binding.description or not enabled:
            continue
        shown, _ = keys.setdefault(binding.action, ([], binding.description))
        display = app.get_key_display(binding)
        if display not in shown:
            shown.append(display)
    return [(" ".join(shown), description) for shown, description in keys.values()]


class KeysScreen(ModalScreen[None]):
    """Every key of the screen underneath, closed with esc."""

    DEFAULT_CSS = """
    KeysScreen { align: center middle; }
    #keys-box { width: 56; max-width: 100%; height: auto; max-height: 100%;
                padding: 0 2; border: thick $accent; background: $surface; }
    #keys-title { text-style: bold; margin: 1 0 0 0; }
    #keys-list { height: auto; margin: 1 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark", "close", "Close", id="close-keys"),
    ]

    def __init__(self, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self.keys = keys

    def compose(self) -> ComposeResult:
        width = max([3, *(len(key) for key, _ in self.keys)])
        text = Text()
        for index, (key, description) in enumerate(self.keys):
            text.append(f"{key:>{width}}", style="bold")
            text.append(f"  {description}" + ("\n" if index + 1 < len(self.keys) else ""))
        with VerticalScroll(id="keys-box"):
            yield Label("Keys on this screen", id="keys-title", markup=False)
            yield Static(text, id="keys-list", markup=False)
        yield TrashFooter()

    def action_close(self) -> None:
        self.dismiss(None)
