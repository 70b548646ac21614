"""The people at a shared table, for a player to protect themselves: ``p`` on the board.

A dialog lists the others at the table (the seated humans and whoever has chatted there):
``m`` hides that person's chat lines from this player alone (again: shows them), ``r``
reports them to the server's operator with a reason (the service adds the table's last
chat lines). The service answers with a notice on the board's status line. Names came
from other players: they are cleaned.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from trash_tui.app.shared.link import TablesLink
from trash_tui.text import clean

REASON_LENGTH = 200
HIDDEN_MARK = " (chat hidden)"


class PeopleScreen(ModalScreen[None]):
    """The others at the table: hide one's chat lines, or report them."""

    DEFAULT_CSS = """
    PeopleScreen { align: center middle; }
    #people-box { width: 60; max-width: 100%; height: auto; max-height: 100%;
                  padding: 1 2; border: thick $accent; background: $surface; }
    #people-list { height: auto; max-height: 10; }
    #people-reason { display: none; }
    #people-reason.-asking { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "hide", "Hide/show chat", id="people-hide"),
        Binding("r", "report", "Report", id="people-report"),
        Binding("escape", "close", "Close", id="people-close"),
    ]

    def __init__(self, link: TablesLink, names: list[str], hidden: set[str]) -> None:
        super().__init__()
        self.link = link
        self.names = [clean(name, 32) for name in names if clean(name, 32)]
        self.hidden = hidden  # the board's: kept while it is up

    def compose(self) -> ComposeResult:
        with Vertical(id="people-box"):
            yield Label("People at this table", markup=False)
            if self.names:
                yield OptionList(*[Option(self.label(name), id=str(index))
                                   for index, name in enumerate(self.names)],
                                 id="people-list", markup=False)
                yield Static("m: hide (or show) their chat lines, for you only · r: report "
                             "them to the server's operator · esc: close", markup=False)
            else:
                yield Static("Nobody else here has a name to pick yet. esc: close",
                             markup=False)
            yield Input(placeholder="What happened? (enter sends the report, esc cancels)",
                        max_length=REASON_LENGTH, id="people-reason")

    def on_mount(self) -> None:
        for options in self.query(OptionList):
            options.highlighted = 0  # the first person is picked until another is
            options.focus()

    def label(self, name: str) -> str:
        return name + (HIDDEN_MARK if name in self.hidden else "")

    def chosen(self) -> str | None:
        lists = self.query(OptionList)
        if not lists:
            return None
        index = lists.first().highlighted
        return self.names[index] if index is not None and index < len(self.names) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("hide", "report"):
            return bool(self.names) and not self.asking
        return True

    @property
    def asking(self) -> bool:
        return self.query_one("#people-reason", Input).has_class("-asking")

    def action_hide(self) -> None:
        name = self.chosen()
        if name is None:
            return
        hide = name not in self.hidden
        self.link.send({"op": "ignore", "name": name, "on": hide})
        if hide:
            self.hidden.add(name)
        else:
            self.hidden.discard(name)
        self.dismiss(None)

    def action_report(self) -> None:
        if self.chosen() is None:
            return
        reason = self.query_one("#people-reason", Input)
        reason.add_class("-asking")
        reason.focus()
        self.refresh_bindings()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = self.chosen()
        if name is not None:
            self.link.send({"op": "report", "name": name,
                            "reason": clean(event.value, REASON_LENGTH)})
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
