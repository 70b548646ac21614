"""What to do with the unfinished match when a new one is asked for.

``n`` with a match still unfinished asks first (``UnfinishedScreen``): continue it,
abandon it (the history marks it so and stops offering it) and start the new one, or
keep it for later and start the new one anyway. The screen dismisses with
``"continue"``, ``"abandon"``, ``"keep"`` or None (cancelled).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from trash_tui.app.widgets.footer import TrashFooter

CONTINUE, ABANDON, KEEP = "continue", "abandon", "keep"


class UnfinishedScreen(ModalScreen[str | None]):
    """Continue, abandon or keep the unfinished match before a new one starts."""

    DEFAULT_CSS = """
    UnfinishedScreen { align: center middle; }
    #unfinished { width: 64; max-width: 100%; height: auto; max-height: 100%;
                  padding: 1 2; border: thick $accent; background: $surface; }
    #unfinished-title { text-style: bold; margin-bottom: 1; }
    #unfinished Static { width: 100%; margin-bottom: 1; }
    #unfinished Button { width: 100%; margin-bottom: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "choose('continue')", "Continue it", id="unfinished-continue"),
        Binding("a", "choose('abandon')", "Abandon it", id="unfinished-abandon"),
        Binding("k", "choose('keep')", "Keep it", id="unfinished-keep"),
        Binding("escape", "choose('')", "Cancel", id="unfinished-cancel"),
    ]

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what  # the unfinished match, in a few words

    def compose(self) -> ComposeResult:
        with Vertical(id="unfinished"):
            yield Label("A match is still unfinished", id="unfinished-title", markup=False)
            yield Static(Text(f"{self.what}. What becomes of it?"), markup=False)
            yield Button("c  Continue it", id=f"unfinished-{CONTINUE}", variant="primary",
                         compact=True)
            yield Button("a  Abandon it and start the new match", id=f"unfinished-{ABANDON}",
                         compact=True)
            yield Button("k  Keep it for later and start the new match",
                         id=f"unfinished-{KEEP}", compact=True)
        yield TrashFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose((event.button.id or "").removeprefix("unfinished-"))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)
