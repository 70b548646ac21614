"""The Tables screen (over SSH): every open table on the server, refreshed live.

Each row says the table's name (the service makes it unique among the tables listed,
finished ones too, with a number: "Ann's table (2)"; a name cut to fit keeps its number),
its host, its rules in short, its seats (humans, open seats, bot levels), its status and
how many watch. ``n`` creates a table
(``NewTableScreen``: a name, the rules, the seats, public or private, the turn clock),
``enter`` joins the selected table (or goes back to one's seat), ``w`` watches it, ``j``
joins or watches by a code a friend gave, ``o`` reopens one's own closed table (not one
the server's operator closed: that one stays closed, and the line says so), ``esc``
goes back to the lobby. Opened for a request (a join by the code in the SSH user name),
it may come before the link is up (the app puts it under the first screen, so no other
screen shows meanwhile): until the answer its line says which table it is joining, and
it sends the request once the link is up (``LinkUp``). The answer to its request opens the
table's screen (``opens``, asked by the app before the update is passed on: see
``following``); the list, refusals and the message of the day come as the link's
messages (``on_...``). A join the service refuses
because the match has started comes with an offer to watch: ``w`` then watches the table
asked for (by its code, or its row), whichever row is selected. A table whose match is
over opens on its last board. Everything shown came from other players and is cleaned.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from rich.cells import cell_len, set_cell_size
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Input, Label, Select, Static

from trash_tui.app.shared.board import SharedBoardScreen
from trash_tui.app.shared.chat import seats_line
from trash_tui.app.shared.following import TableFollower
from trash_tui.app.shared.link import (
    LinkLost,
    LinkUp,
    ServerMotd,
    TableError,
    TablesLink,
    TablesList,
    TableUpdate,
    contained,
)
from trash_tui.app.shared.waiting_room import TableWaitingScreen
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.app.widgets.plain import PlainTable
from trash_tui.play.table_protocol import normal_code
from trash_tui.presets import PRESETS
from trash_tui.text import clean

SEAT_KINDS = ("human", "random", "easy", "normal", "hard", "expert")
STAND_INS = ("normal", "easy", "hard", "random", "expert")

# The Tables list's columns: heading, widest (cells of text), and the steps by which they
# narrow when the list has not the room: the seats, the table's name, the rules and the
# host in turn, each down to a floor, then lower floors. The status and the spectators
# are never cut.
COLUMNS = ("Table", "Host", "Rules", "Seats", "Status", "👁")
WIDEST = {"Table": 32, "Host": 16, "Rules": 22, "Seats": 80, "Status": 16, "👁": 4}
SHRINK_STEPS = (("Seats", 24), ("Table", 16), ("Rules", 10), ("Host", 10), ("Seats", 16),
                ("Table", 12), ("Rules", 6), ("Host", 6), ("Seats", 10), ("Table", 8))
LIST_MARGIN = 2  # room kept for the list's scroll bar


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, a cut marked with "…"."""
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, max(0, width - 1)).rstrip() + "…"


_NUMBER = re.compile(r" \(\d+\)$")  # the " (2)" the service gives a name already taken


def cut_name(name: str, width: int) -> str:
    """A table's name in ``width`` cells, its number kept: tables of the same name are
    numbered by the service ("Ann's table (2)"), and a cut keeps the number in sight
    ("Ann's ta… (2)"), so two rows never look alike."""
    number = _NUMBER.search(name)
    if number is None or cell_len(name) <= width or width < 2 * len(number.group()):
        return cut(name, width)
    suffix = number.group()
    return cut(name[:number.start()], width - len(suffix)) + suffix


def column_widths(cells: list[dict[str, str]], room: int) -> dict[str, int]:
    """How wide each column of the list is, given its cells and the ``room`` (in cells,
    padding included): as wide as the longest cell (up to its widest); narrower, by
    ``SHRINK_STEPS``, when they do not all fit."""
    widths = {name: min(WIDEST[name], max([cell_len(name)] +
                                          [cell_len(row[name]) for row in cells]))
              for name in COLUMNS}
    room -= 2 * len(COLUMNS)  # a cell's padding, each side
    for name, floor in SHRINK_STEPS:
        over = sum(widths.values()) - room
        if over <= 0:
            break
        widths[name] = max(min(floor, widths[name]), widths[name] - over)
    return widths


class TablesScreen(Screen[None], TableFollower):
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
                 request: dict[str, Any] | None = None, name: str = "",
                 notice: str | None = None) -> None:
        super().__init__()
        self.link = link
        self.animation = animation
        self.name_shown = name  # the player's name (a new table's default name)
        self.request = request  # sent once the link is up (a join by code or seat)
        self.notice = notice  # said by the board of the table it opens (back at a seat)
        self.following = False  # the link is up: it follows the list
        self.tables: list[dict[str, Any]] = []
        self.closed: list[dict[str, Any]] = []
        self.message = ""
        # the request of this screen's still unanswered (a join, a watch, a new table):
        # only its answer opens a table's screen, not a late update of a table just left
        self.asked: dict[str, Any] | None = None
        # the service's offer to watch the table a refused join asked for (w watches it)
        self.offer: dict[str, Any] | None = None

    def compose(self) -> ComposeResult:
        yield Label("Tables on this server", id="tables-title", markup=False)
        yield PlainTable(id="tables-list", cursor_type="row", zebra_stripes=True)
        yield Static("", id="tables-line", markup=False)
        yield TrashFooter()

    def on_mount(self) -> None:
        self.show_motd()
        if self.link.connected:
            self.link_up()
        self.fill()

    @contained
    def on_link_up(self, message: LinkUp) -> None:
        if not self.following:  # (not already up when this screen was)
            self.link_up()

    def link_up(self) -> None:
        """The link is up: follow the list, send the request this screen was opened for."""
        self.following = True
        self.link.send({"op": "list", "follow": True})
        if self.request is not None:  # its answer (the table) comes to this screen
            self.ask(self.request)
            self.request = None
        self.show_line()

    def on_resize(self, event: events.Resize) -> None:
        self.fill()

    def ask(self, request: dict[str, Any]) -> None:
        """Send a request whose answer is a table to open (its update, reset)."""
        self.asked = request
        self.offer = None
        self.link.send(request)

    def answers_request(self, update: dict[str, Any]) -> bool:
        """Whether ``update`` answers this screen's request: the first update of a table
        entered (reset), of the table asked for when the request named one. A late
        update of a table just left (a broadcast, not reset) opens nothing."""
        if not update.get("reset"):
            return False
        wanted = self.asked.get("table") if self.asked is not None else None
        if self.asked is not None and self.asked.get("op") in ("join", "watch") and \
                isinstance(wanted, int):
            return update.get("table", {}).get("id") == wanted
        return True

    def on_unmount(self) -> None:
        self.link.send({"op": "list", "follow": False})

    def on_screen_resume(self) -> None:
        self.link.send({"op": "list", "follow": True})

    def shows_list(self) -> bool:
        """Whether the list is in sight: this screen on top, or under a dialog of its own
        (Textual counts the screen under any other as current: a table's board, over this
        one, would be drawn again in full at every change of the list)."""
        stack = self.app.screen_stack
        return stack[-1] is self or (isinstance(stack[-1], ModalScreen)
                                     and stack[-2:-1] == [self])

    @contained
    def opens(self, update: TableUpdate) -> bool:
        """The answer to this screen's request, while it is shown: the table's screen
        opens (its board or its waiting room), and takes the table's messages from now."""
        if not self.is_current or not self.answers_request(update.data):
            return False
        self.asked = None
        self.open_table(update.data)
        return True

    @contained
    def on_tables_list(self, message: TablesList) -> None:
        self.tables = list(message.data.get("tables", []))
        self.closed = list(message.data.get("closed", []))
        if self.shows_list():
            self.fill()

    @contained
    def on_table_error(self, message: TableError) -> None:
        if not self.is_current:
            return  # a refusal for the table's own screen (a move), over this one
        error = message.data
        asked, self.asked = self.asked, None
        if error.get("watch") and asked is not None and asked.get("op") == "join":
            self.offer = {**asked, "op": "watch"}  # the same table, however named
            name = clean(error.get("name") or "that table", 32)
            self.say(f"⚠ The match at {name} has started: w watches it.")
            return
        self.say(f"⚠ {clean(error.get('message', ''), 200)}")

    @contained
    def on_link_lost(self, message: LinkLost) -> None:
        if message.data.get("unavailable"):  # it never came up: esc goes to the lobby
            self.request = None
            self.say("⚠ The shared tables are not available.")
        else:
            self.say("⚠ The connection to the tables is lost.")

    @contained
    def on_server_motd(self, message: ServerMotd) -> None:
        self.show_motd()

    def show_motd(self) -> None:
        """The server's message of the day under the title (none: the title alone)."""
        motd = self.link.motd
        title = "Tables on this server"
        self.query_one("#tables-title", Label).update(
            f"{title}\n📢 {clean(motd, 200)}" if motd else title)

    def fill(self) -> None:
        """The list, its columns as wide as the screen allows."""
        table = self.query_one(DataTable)
        row = table.cursor_row
        cells = [dict(zip(COLUMNS, (
            clean(entry["name"], 32), clean(entry.get("host") or "?", 24),
            clean(entry["rules"], 40), clean(seats_line(entry), 200),
            clean(entry.get("status_text", entry["status"]), WIDEST["Status"]),
            str(entry.get("spectators", 0))), strict=True)) for entry in self.tables]
        room = (table.size.width or self.app.size.width) - LIST_MARGIN
        widths = column_widths(cells, room)
        table.clear(columns=True)
        for name in COLUMNS:
            table.add_column(name, width=widths[name], key=name)
        for entry, line in zip(self.tables, cells, strict=True):
            table.add_row(*((cut_name if name == "Table" else cut)(line[name], widths[name])
                            for name in COLUMNS), key=str(entry["id"]))
        if self.tables:
            table.move_cursor(row=min(max(row, 0), len(self.tables) - 1))
        self.show_line()

    def show_line(self) -> None:
        pending = self.request or self.asked
        if self.message:
            text = self.message
        elif pending is not None and pending.get("op") in ("join", "watch"):
            code = pending.get("code")
            text = f"Opening the table {clean(code, 8)}…" if isinstance(code, str) else \
                "Opening the table…"
        elif not self.tables:
            text = "No open table yet: press n to create one, or j to join with a code."
        else:
            text = "enter joins the selected table, w watches it, n creates one."
        reopenable = self.reopenable()
        if reopenable:
            names = ", ".join(clean(str(t["name"]), 20) for t in reopenable[-3:])
            text += f"\nYour closed tables (o reopens the last): {names}"
        elif self.closed:
            names = ", ".join(clean(str(t["name"]), 20) for t in self.closed[-3:])
            text += f"\nThe server's operator closed {names}: it stays closed."
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
        notice, self.notice = self.notice, None
        if TableWaitingScreen.in_play(update):
            self.app.push_screen(SharedBoardScreen(self.link, update, self.animation,
                                                   notice=notice))
        else:
            host = update.get("seat") == 0
            self.app.push_screen(TableWaitingScreen(self.link, update, self.animation, host,
                                                    notice=notice))

    # --- keys -------------------------------------------------------------------------
    def action_create(self) -> None:
        self.app.push_screen(NewTableScreen(self.name_shown), callback=self._create)

    def _create(self, config: dict[str, Any] | None) -> None:
        if config is not None:
            self.ask({"op": "create", "config": config})

    def action_join(self) -> None:
        entry = self.selected()
        if entry is not None:
            self.ask({"op": "join", "table": entry["id"]})

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_join()

    def action_watch(self) -> None:
        if self.offer is not None:  # the table a refused join asked for, not the row
            self.ask(self.offer)
            return
        entry = self.selected()
        if entry is not None:
            self.ask({"op": "watch", "table": entry["id"]})

    def action_code(self) -> None:
        self.app.push_screen(CodeScreen(), callback=self._code)

    def _code(self, answer: tuple[str, str] | None) -> None:
        if answer is not None:
            op, code = answer
            self.ask({"op": op, "code": code})

    def reopenable(self) -> list[dict[str, Any]]:
        """One's closed tables one may reopen (not those the server's operator closed)."""
        return [table for table in self.closed if not table.get("operator")]

    def action_reopen(self) -> None:
        reopenable = self.reopenable()
        if reopenable:
            self.ask({"op": "reopen", "table": reopenable[-1]["id"]})
        elif self.closed:
            name = clean(str(self.closed[-1].get("name", "?")), 20)
            self.say(f"The server's operator closed {name}: it stays closed.")
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
    """A new table: its name, rules, seats, privacy and turn clock. One line a setting
    (compact controls), so the default four seats fit without scrolling from 100×32; the
    form scrolls only on a smaller terminal or with more seats. The name field holds the
    name the table gets when it is left as it is."""

    DEFAULT_CSS = """
    NewTableScreen { align: center middle; }
    #new-box { width: 72; max-width: 100%; height: auto; max-height: 100%;
               border: thick $accent; background: $surface; padding: 0 1; }
    #new-title { margin-bottom: 1; }
    #new-form { height: auto; max-height: 1fr; }
    .new-row { height: 1; margin-bottom: 1; }
    .new-row Label { width: 18; padding: 0 1 0 0; }
    .new-row Select, .new-row Input { width: 1fr; }
    #new-problem { color: $text-error; height: auto; }
    #new-buttons { height: 1; margin-top: 1; }
    #new-buttons Button { margin-right: 2; }
    NewTableScreen.-short .new-row { margin-bottom: 0; }
    NewTableScreen.-short #new-title { margin-bottom: 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "create", "Create", id="new-create"),
        Binding("escape", "cancel", "Cancel", id="new-cancel"),
    ]

    SHORT = 32  # below this many lines, the settings go without a line between them
    #: the cursor starts in the name (the first focusable widget is the scrolling form,
    #: which takes no letters: typed keys went nowhere until a Tab)
    AUTO_FOCUS = "#new-name"

    def __init__(self, player: str = "") -> None:
        super().__init__()
        self.player = player  # the player's name

    def default_name(self) -> str:
        """The name the service gives a table left unnamed (made unique by the server)."""
        name = clean(self.player, 24)
        return "A table" if name in ("", "You") else f"{name}'s table"

    def compose(self) -> ComposeResult:
        with Vertical(id="new-box"):
            yield Label("A new table (ctrl+s creates it)", id="new-title", markup=False)
            with VerticalScroll(id="new-form"):
                with Horizontal(classes="new-row"):
                    yield Label("Name", markup=False)
                    yield Input(value=self.default_name(), max_length=32, id="new-name",
                                compact=True)
                with Horizontal(classes="new-row"):
                    yield Label("Rules", markup=False)
                    yield Select([(name, name) for name in PRESETS], value="standard",
                                 allow_blank=False, id="new-preset", compact=True)
                with Horizontal(classes="new-row"):
                    yield Label("Seats", markup=False)
                    yield Select([(str(n), n) for n in range(2, 9)], value=4,
                                 allow_blank=False, id="new-count", compact=True)
                for seat in range(2, 9):
                    with Horizontal(classes="new-row", id=f"new-seat-row-{seat}"):
                        yield Label(f"Seat {seat}", markup=False)
                        yield Select([("a friend (open seat)" if kind == "human" else
                                       f"bot: {kind}", kind) for kind in SEAT_KINDS],
                                     value="human" if seat == 2 else "normal",
                                     allow_blank=False, id=f"new-seat-{seat}", compact=True)
                with Horizontal(classes="new-row"):
                    yield Label("Listed", markup=False)
                    yield Select([("public: in everyone's Tables list", True),
                                  ("private: only with its code", False)], value=True,
                                 allow_blank=False, id="new-public", compact=True)
                with Horizontal(classes="new-row"):
                    yield Label("Turn clock (s)", markup=False)
                    yield Input(value="60", max_length=4, id="new-clock",
                                restrict=r"[0-9]*", compact=True)
                with Horizontal(classes="new-row"):
                    yield Label("Stand-in bot", markup=False)
                    yield Select([(kind, kind) for kind in STAND_INS], value="normal",
                                 allow_blank=False, id="new-stand-in", compact=True)
            yield Static("", id="new-problem", markup=False)
            with Horizontal(id="new-buttons"):
                yield Button("Create", id="new-create-button", variant="primary",
                             compact=True)
                yield Button("Cancel", id="new-cancel-button", compact=True)
        yield TrashFooter()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height < self.SHORT, "-short")

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
        name = self.query_one("#new-name", Input).value.strip()
        # left as it is: the service's own default (which it makes unique among tables)
        return {"name": None if name == self.default_name() else name or None,
                "preset": str(self.query_one("#new-preset", Select).value),
                "seats": seats,
                "public": self.query_one("#new-public", Select).value is True,
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
