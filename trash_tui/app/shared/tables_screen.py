"""The Tables screen (over SSH): every open table on the server, refreshed live.

Each row says the table's name, its host, its rules in short, its seats (humans, open
seats, bot levels), its status and how many watch. ``n`` creates a table
(``NewTableScreen``: a name, the rules, the seats, public or private, the turn clock),
``enter`` joins the selected table (or goes back to one's seat), ``w`` watches it, ``j``
joins or watches by a code a friend gave, ``o`` reopens one's own closed table, ``esc``
goes back to the lobby. Everything shown came from other players and is cleaned.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Input, Label, Select, Static, Switch

from trash_tui.app.shared.board import SharedBoardScreen
from trash_tui.app.shared.chat import seats_line
from trash_tui.app.shared.link import TablesLink
from trash_tui.app.shared.waiting_room import TableWaitingScreen
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.presets import PRESETS
from trash_tui.tables.protocol import normal_code
from trash_tui.text import clean

SEAT_KINDS = ("human", "random", "easy", "normal", "hard", "expert")
STAND_INS = ("normal", "easy", "hard", "random", "expert")


class TablesScreen(Screen[None]):
    """The server's tables."""

    DEFAULT_CSS = """
    TablesScreen { layout: vertical; }
    #tables-title { text-style: bold; padding: 0 1; }
    #tables-list { height: 1fr; }
    #tables-line { height: auto; padding: 0 1; background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "create", "New table", id="tables-new"),
        Binding("enter", "join", "Join", id="tables-join"),
        Binding("w", "watch", "Watch", id="tables-watch"),
        Binding("j", "code", "Code", id="tables-code"),
        Binding("o", "reopen", "Reopen", id="tables-reopen", show=False),
        Binding("escape", "back", "Lobby", id="tables-back"),
    ]

    def __init__(self, link: TablesLink, animation: str = "normal",
                 request: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.link = link
        self.animation = animation
        self.request = request  # sent once this screen listens (a join by code or seat)
        self.tables: list[dict[str, Any]] = []
        self.closed: list[dict[str, Any]] = []
        self.message = ""
        self.opening = False  # a table's screen is being opened

    def compose(self) -> ComposeResult:
        yield Label("Tables on this server", id="tables-title")
        yield DataTable(id="tables-list", cursor_type="row", zebra_stripes=True)
        yield Static("", id="tables-line", markup=False)
        yield TrashFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Table", "Host", "Rules", "Seats", "Status", "👁")
        self.link.listen(self.on_table_message)
        self.link.send({"op": "list", "follow": True})
        if self.request is not None:  # its answer (the table) comes to this screen
            self.link.send(self.request)
            self.request = None
        self.show_line()

    def on_unmount(self) -> None:
        self.link.ignore(self.on_table_message)
        self.link.send({"op": "list", "follow": False})

    def on_screen_resume(self) -> None:
        self.opening = False
        self.link.send({"op": "list", "follow": True})

    def shows_list(self) -> bool:
        """Whether the list is in sight: this screen on top, or under a dialog of its own
        (Textual counts the screen under any other as current: a table's board, over this
        one, would be drawn again in full at every change of the list)."""
        stack = self.app.screen_stack
        return stack[-1] is self or (isinstance(stack[-1], ModalScreen)
                                     and stack[-2:-1] == [self])

    def on_table_message(self, message: dict[str, Any]) -> None:
        if not self.is_current:
            return
        op = message["op"]
        if op == "tables":
            self.tables = list(message.get("tables", []))
            self.closed = list(message.get("closed", []))
            if self.shows_list():
                self.fill()
        elif op == "update" and not self.opening:
            self.opening = True  # the table's own screen takes its updates from here
            self.open_table(message)
        elif op == "error":
            self.say(f"⚠ {clean(message.get('message', ''), 200)}")
        elif op == "disconnected":
            self.say("⚠ The connection to the tables is lost.")

    def fill(self) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for entry in self.tables:
            table.add_row(clean(entry["name"], 24), clean(entry.get("host") or "?", 16),
                          clean(entry["rules"], 18), clean(seats_line(entry), 40),
                          clean(entry.get("status_text", entry["status"]), 16),
                          str(entry.get("spectators", 0)), key=str(entry["id"]))
        if self.tables:
            table.move_cursor(row=min(max(row, 0), len(self.tables) - 1))
        self.show_line()

    def show_line(self) -> None:
        if self.message:
            text = self.message
        elif not self.tables:
            text = "No open table yet: press n to create one, or j to join with a code."
        else:
            text = "enter joins the selected table, w watches it, n creates one."
        if self.closed:
            names = ", ".join(clean(t["name"], 20) for t in self.closed[-3:])
            text += f"\nYour closed tables (o reopens the last): {names}"
        self.query_one("#tables-line", Static).update(text)

    def say(self, text: str) -> None:
        self.message = text
        self.show_line()

    def selected(self) -> dict[str, Any] | None:
        table = self.query_one(DataTable)
        if not self.tables or table.cursor_row < 0:
            return None
        return self.tables[min(table.cursor_row, len(self.tables) - 1)]

    def open_table(self, update: dict[str, Any]) -> None:
        """An update for a table this player just entered: its board or its waiting room."""
        self.message = ""
        self.link.send({"op": "list", "follow": False})  # until this screen is back
        status = update["table"]["status"]
        if status == "playing" and "observation" in update:
            self.app.push_screen(SharedBoardScreen(self.link, update, self.animation))
        else:
            host = update.get("seat") == 0
            self.app.push_screen(TableWaitingScreen(self.link, update, self.animation, host))

    # --- keys -------------------------------------------------------------------------
    def action_create(self) -> None:
        self.app.push_screen(NewTableScreen(), callback=self._create)

    def _create(self, config: dict[str, Any] | None) -> None:
        if config is not None:
            self.link.send({"op": "create", "config": config})

    def action_join(self) -> None:
        entry = self.selected()
        if entry is not None:
            self.link.send({"op": "join", "table": entry["id"]})

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_join()

    def action_watch(self) -> None:
        entry = self.selected()
        if entry is not None:
            self.link.send({"op": "watch", "table": entry["id"]})

    def action_code(self) -> None:
        self.app.push_screen(CodeScreen(), callback=self._code)

    def _code(self, answer: tuple[str, str] | None) -> None:
        if answer is not None:
            op, code = answer
            self.link.send({"op": op, "code": code})

    def action_reopen(self) -> None:
        if self.closed:
            self.link.send({"op": "reopen", "table": self.closed[-1]["id"]})
        else:
            self.say("You have no closed table to reopen.")

    def action_back(self) -> None:
        self.app.pop_screen()


class CodeScreen(ModalScreen[tuple[str, str] | None]):
    """A friend's code: join (sit down) or watch."""

    DEFAULT_CSS = """
    CodeScreen { align: center middle; }
    #code-box { width: 50; max-width: 100%; height: auto; padding: 1 2;
                border: thick $accent; background: $surface; }
    #code-problem { color: $text-error; height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="code-cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="code-box"):
            yield Label("The table's code (four letters or digits):", markup=False)
            yield Input(placeholder="K7QX", max_length=8, id="code-input")
            yield Static("", id="code-problem", markup=False)
            with Horizontal():
                yield Button("Join", id="code-join", variant="primary")
                yield Button("Watch", id="code-watch")

    def answer(self, op: str) -> None:
        code = normal_code(self.query_one(Input).value)
        if code is None:
            self.query_one("#code-problem", Static).update("A code is four letters or digits.")
            return
        self.dismiss((op, code))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.answer("join")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.answer("watch" if event.button.id == "code-watch" else "join")

    def action_cancel(self) -> None:
        self.dismiss(None)


class NewTableScreen(ModalScreen[dict[str, Any] | None]):
    """A new table: its name, rules, seats, privacy and turn clock."""

    DEFAULT_CSS = """
    NewTableScreen { align: center middle; }
    #new-box { width: 72; max-width: 100%; height: 100%; max-height: 100%;
               border: thick $accent; background: $surface; padding: 0 1; }
    #new-form { height: 1fr; }
    .new-row { height: auto; }
    .new-row Label { width: 18; padding: 1 1 0 0; }
    .new-row Select, .new-row Input { width: 1fr; }
    #new-problem { color: $text-error; height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "create", "Create", id="new-create"),
        Binding("escape", "cancel", "Cancel", id="new-cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="new-box"):
            yield Label("A new table (ctrl+s creates it)", markup=False)
            with VerticalScroll(id="new-form"):
                with Horizontal(classes="new-row"):
                    yield Label("Name")
                    yield Input(placeholder="Friday game", max_length=32, id="new-name")
                with Horizontal(classes="new-row"):
                    yield Label("Rules")
                    yield Select([(name, name) for name in PRESETS], value="standard",
                                 allow_blank=False, id="new-preset")
                with Horizontal(classes="new-row"):
                    yield Label("Seats")
                    yield Select([(str(n), n) for n in range(2, 9)], value=4,
                                 allow_blank=False, id="new-count")
                for seat in range(2, 9):
                    with Horizontal(classes="new-row", id=f"new-seat-row-{seat}"):
                        yield Label(f"Seat {seat}")
                        yield Select([("a friend (open seat)" if kind == "human" else
                                       f"bot: {kind}", kind) for kind in SEAT_KINDS],
                                     value="human" if seat == 2 else "normal",
                                     allow_blank=False, id=f"new-seat-{seat}")
                with Horizontal(classes="new-row"):
                    yield Label("Listed (public)")
                    yield Switch(value=True, id="new-public")
                with Horizontal(classes="new-row"):
                    yield Label("Turn clock (s)")
                    yield Input(value="60", max_length=4, id="new-clock",
                                restrict=r"[0-9]*")
                with Horizontal(classes="new-row"):
                    yield Label("Stand-in bot")
                    yield Select([(kind, kind) for kind in STAND_INS], value="normal",
                                 allow_blank=False, id="new-stand-in")
            yield Static("", id="new-problem", markup=False)
            with Horizontal(classes="new-row"):
                yield Button("Create", id="new-create-button", variant="primary")
                yield Button("Cancel", id="new-cancel-button")
        yield TrashFooter()

    def on_mount(self) -> None:
        self.show_seats()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "new-count":
            self.show_seats()

    def count(self) -> int:
        value = self.query_one("#new-count", Select).value
        return int(value) if isinstance(value, int) else 4

    def show_seats(self) -> None:
        count = self.count()
        for seat in range(2, 9):
            self.query_one(f"#new-seat-row-{seat}").display = seat <= count

    def config(self) -> dict[str, Any] | None:
        clock_text = self.query_one("#new-clock", Input).value or "0"
        clock = int(clock_text)
        if clock and not 5 <= clock <= 3600:
            self.query_one("#new-problem", Static).update(
                "The turn clock is 0 (none) or 5 to 3600 seconds.")
            return None
        seats = ["human"] + [str(self.query_one(f"#new-seat-{seat}", Select).value)
                             for seat in range(2, self.count() + 1)]
        return {"name": self.query_one("#new-name", Input).value.strip() or None,
                "preset": str(self.query_one("#new-preset", Select).value),
                "seats": seats, "public": self.query_one("#new-public", Switch).value,
                "clock": clock,
                "stand_in": str(self.query_one("#new-stand-in", Select).value)}

    def action_create(self) -> None:
        config = self.config()
        if config is not None:
            self.dismiss(config)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "new-create-button":
            self.action_create()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)
