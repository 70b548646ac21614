"""A shared table before its match: the waiting room.

``TableWaitingScreen`` shows who sits where, the code to give friends (with the ssh command
and, when the server's web face is on, the page that join it), ``s`` for the host
to start, and the table's chat; it turns into the board when the match begins (or, a
match already over, its last board: ``opens``, asked by the app before it passes the
update on, see ``following``), and the chat said here goes on in the board's log (a line
that came just before, not yet shown here, is passed on to the board). A notice from the
server's operator is a box above the room's log (``NoticePlace``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Label, RichLog, Static

from trash_tui.app.shared.board import SharedBoardScreen
from trash_tui.app.shared.browser import table_url
from trash_tui.app.shared.chat import CHAT_LENGTH, ChatLine, chat_text, seats_line
from trash_tui.app.shared.following import TableFollower
from trash_tui.app.shared.link import (
    TableChat,
    TableClosed,
    TableCreated,
    TableError,
    TableNotice,
    TablesLink,
    TableUpdate,
    contained,
)
from trash_tui.app.shared.notices import NoticeBox, NoticePlace
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.text import clean

HINT_WIDTH = 70  # the waiting box's text: 76 less its border and padding


class TableWaitingScreen(Screen[None], TableFollower, NoticePlace):
    """A table before its match: who sits where, the code, and (for its host) start."""

    DEFAULT_CSS = """
    TableWaitingScreen { align: center middle; }
    #waiting-box { width: 76; max-width: 100%; height: auto; max-height: 100%;
                   padding: 1 2; border: thick $accent; background: $surface; }
    #waiting-title { text-style: bold; }
    #waiting-log { height: 6; border: round $panel; }
    #waiting-chat { height: 1; border: none; padding: 0 1; }
    #server-notice { height: auto; border: round $warning; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start", "Start now", id="waiting-start"),
        Binding("c", "chat", "Chat", id="waiting-chat-open"),
        Binding("escape", "leave", "Leave", id="waiting-leave"),
    ]

    def __init__(self, link: TablesLink, update: dict[str, Any], animation: str = "normal",
                 host: bool = False, notice: str | None = None) -> None:
        super().__init__()
        self.link = link
        self.update = update
        self.animation = animation
        self.host = host
        self.code: str | None = None
        self.said: list[dict[str, Any]] = []  # the chat lines said here (for the board)
        self.board: SharedBoardScreen | None = None  # the board it turned into
        self.notice = notice  # for the board's status line (back at a kept seat)

    def compose(self) -> ComposeResult:
        with Vertical(id="waiting-box"):
            yield Label("", id="waiting-title", markup=False)
            yield Static("", id="waiting-table", markup=False)
            yield RichLog(id="waiting-log", wrap=True, markup=False)
            yield ChatLine(placeholder="c: say something (enter sends, esc stops)",
                           id="waiting-chat", max_length=CHAT_LENGTH)
        yield TrashFooter()

    def on_mount(self) -> None:
        self.show()

    @staticmethod
    def in_play(update: dict[str, Any]) -> bool:
        """Whether ``update`` shows a match (begun, or over): the board's, not the room's."""
        return update["table"]["status"] in ("playing", "finished") and \
            "observation" in update

    @contained
    def opens(self, update: TableUpdate) -> bool:
        """The match began: the board takes this screen's place (and whatever is over it
        goes), its log going on from the room's chat."""
        if self.board is not None or not self.in_play(update.data):
            return False
        self.board = SharedBoardScreen(self.link, update.data, self.animation,
                                       chat=self.said, notice=self.notice)
        while self.app.screen is not self:
            self.app.pop_screen()
        self.app.switch_screen(self.board)
        return True

    def show(self) -> None:
        if self.in_play(self.update):  # (opened on a match: its board at once)
            self.opens(TableUpdate(self.update))
            return
        table = self.update["table"]
        code = table.get("code") or self.code
        self.query_one("#waiting-title", Label).update(
            f"{clean(table['name'], 32)} — waiting for players")
        lines = [f"Rules: {clean(table['rules'], 60)}",
                 f"Seats: {seats_line(table)}",
                 ("Turn clock: none" if not table.get("clock")
                  else f"Turn clock: {table['clock']:g} s a move")]
        if code:
            lines.extend(self.join_hint(code))
        lines.append("Starts when every seat is taken" +
                     (", or now with s (open seats get bots)." if self.host else "."))
        self.query_one("#waiting-table", Static).update("\n".join(lines))
        self.refresh_bindings()

    def join_hint(self, code: str) -> list[str]:
        """How friends join: j in their Tables and the code, or (when the service said at
        which address players reach it) an ssh command that works as typed, and (when the
        server's web face is on) the page that joins in a browser. Each way one line at 80
        columns (the ways on lines of their own when the address is long)."""
        welcome = self.link.welcome or {}
        address = welcome.get("address") if isinstance(welcome, dict) else None
        host = port = None
        if isinstance(address, dict):
            host = clean(address.get("host") or "", 100).strip() or None
            port = address.get("port")
            if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
                port = None
        command = None if host is None or " " in host else \
            f"ssh {'' if port in (None, 22) else f'-p {port} '}{code}@{host}"
        page = table_url(self.link.web_url, code) if self.link.web_url else None
        if command is None and page is None:
            return [f"Code {code}: friends press j in Tables and type it."]
        if page is None:
            lines = [f"Code {code}: j in Tables, or {command}"]
        elif command is None:
            lines = [f"Code {code}: j in Tables, or in a browser: {page}"]
        else:
            lines = [f"Code {code}: j in Tables, or {command}", f"or in a browser: {page}"]
        if all(len(line) <= HINT_WIDTH for line in lines):
            return lines
        return [f"Code {code}: j in Tables, or join with",
                *(f"  {way}" for way in (command, page) if way is not None)]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "start":
            return self.host
        return True

    # --- the table's messages (none once the board has taken its place) ------------------
    @contained
    def on_table_update(self, message: TableUpdate) -> None:
        if self.board is None:
            self.update = message.data
            self.show()

    @contained
    def on_table_created(self, message: TableCreated) -> None:
        if self.board is None:
            self.code = message.data.get("code")
            self.show()

    @contained
    def on_table_chat(self, message: TableChat) -> None:
        if self.board is not None:  # said before the board came: it goes on there
            self.board.post_message(message.again())
            return
        if len(self.said) < 100:
            self.said.append(message.data)
        self.query_one(RichLog).write(chat_text(message.data))

    @contained
    def on_table_notice(self, message: TableNotice) -> None:
        if self.board is None:
            self.write(message.data.get("text") or "")

    @contained
    def on_table_error(self, message: TableError) -> None:
        if self.board is None:
            self.write(message.data.get("message") or "")

    def write(self, text: str) -> None:
        self.query_one(RichLog).write(Text(clean(text, 200)))

    @contained
    def on_table_closed(self, message: TableClosed) -> None:
        if self.board is None:
            self.app.notify(f"The table closed: {clean(message.data.get('why', ''), 100)}.",
                            markup=False)
            self.take_away()

    def server_notice(self, text: str, seconds: float) -> None:
        """The operator's notice: a box above the room's log, gone after ``seconds``; a
        newer one takes its place in the same box."""
        NoticeBox.on(self, text, seconds, "From the server: ", lambda box: self.query_one(
            "#waiting-box").mount(box, before=self.query_one(RichLog)))

    def action_start(self) -> None:
        self.link.send({"op": "start"})

    def action_chat(self) -> None:
        self.query_one("#waiting-chat", Input).focus()

    def on_chat_line_closed(self, message: ChatLine.Closed) -> None:
        """Escape in the chat line: stop typing (the line keeps what was typed)."""
        message.stop()
        self.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.link.send({"op": "chat", "text": event.value.strip()})
        event.input.value = ""
        self.set_focus(None)

    def action_leave(self) -> None:
        self.link.send({"op": "leave"})
        self.take_away()
