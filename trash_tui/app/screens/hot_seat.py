"""Hot seat: the names of the players who share this keyboard, asked before their match.

With several humans at one keyboard, "You" would be ambiguous, so the lobby asks each of
them for the name the table shows (``HotSeatScreen``, dismissed with the names in seat
order, or None when cancelled). A name follows the SSH name prompt's rules
(``remote.name_problem``), and two players may not share one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from trash_tui.app.screens.remote import NAME_MAX_LENGTH, name_problem
from trash_tui.app.widgets.footer import TrashFooter


def names_problem(names: Sequence[str]) -> str | None:
    """What is wrong with the hot seat's names (the first problem, naming the player),
    or None."""
    seen: dict[str, int] = {}
    for number, name in enumerate(names, start=1):
        problem = name_problem(name)
        if problem:
            return f"Player {number}: {problem}"
        key = name.strip().casefold()
        if key in seen:
            return f"Players {seen[key]} and {number} have the same name: choose two."
        seen[key] = number
    return None


def default_names(count: int, first: str) -> list[str]:
    """What the fields start with: the settings' name for the first player (unless it is
    the lone player's "You"), then "Player 2", "Player 3", …"""
    return [first if number == 1 and first != "You" else f"Player {number}"
            for number in range(1, count + 1)]


class HotSeatScreen(ModalScreen[list[str] | None]):
    """Asks the names of the players sharing the keyboard."""

    DEFAULT_CSS = """
    HotSeatScreen { align: center middle; }
    #hot-seat { width: 56; max-width: 100%; height: auto; max-height: 100%;
                padding: 0 2; border: thick $accent; background: $surface; }
    #hot-seat-title { text-style: bold; margin-bottom: 1; }
    #hot-seat Horizontal { height: auto; }
    #hot-seat Horizontal Label { width: 10; }
    #hot-seat Input { width: 1fr; }
    #hot-seat-problem { color: $text-error; height: auto; }
    #hot-seat Button { margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="cancel-hot-seat"),
    ]

    def __init__(self, defaults: Sequence[str]) -> None:
        super().__init__()
        self.defaults = list(defaults)

    def compose(self) -> ComposeResult:
        with Vertical(id="hot-seat"):
            yield Label(f"{len(self.defaults)} players at this keyboard: your names?",
                        id="hot-seat-title", markup=False)
            for number, name in enumerate(self.defaults, start=1):
                with Horizontal():
                    yield Label(f"Player {number}", markup=False)
                    yield Input(name, max_length=NAME_MAX_LENGTH, compact=True,
                                id=f"hot-seat-{number}")
            yield Static("", id="hot-seat-problem", markup=False)
            yield Button("Start", id="hot-seat-start", variant="primary", compact=True)
        yield TrashFooter()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def names(self) -> list[str]:
        return [self.query_one(f"#hot-seat-{number}", Input).value
                for number in range(1, len(self.defaults) + 1)]

    def on_input_submitted(self, event: Input.Submitted) -> None:
        fields = list(self.query(Input))
        index = fields.index(event.input)
        if index + 1 < len(fields):  # Enter goes on to the next player
            fields[index + 1].focus()
        else:
            self.start()

    def on_button_pressed(self, _: Button.Pressed) -> None:
        self.start()

    def start(self) -> None:
        names = self.names()
        problem = names_problem(names)
        if problem:
            self.query_one("#hot-seat-problem", Static).update(f"✗ {problem}")
            return
        self.dismiss([name.strip() for name in names])

    def action_cancel(self) -> None:
        self.dismiss(None)
