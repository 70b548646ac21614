"""A shared table's board (over SSH): the card table driven by the table service.

``SharedBoardScreen`` is the board shell with the card game's view (``TrashBoard``: the
same table, piles, log, keys and animations as a local match) and three parts of a shared
table: a ``SharedTableController`` (the match as the service sends it; this player's keys
send their move to the service), ``ServiceUpdates``, the turn driver's move source (each
update the service sends is one move, shown in order, one at a time), and the table's
part, ``SharedTable`` (``table_part.py``: the chat line, the people, the notices, the
seat, esc's question, the ratings the standings wait for), plugged into the shell. This
screen is their glue: it takes the table's messages as the link posts them
(``on_table_update``, ``on_table_chat``...: handled once the board is up, in the order
they came) and hands each to its part, and binds the table's keys (``c`` chat, ``m`` hide
the chat, ``p`` people, ``esc`` leave). An end-of-deal summary closes by itself after
``SUMMARY_SECONDS`` (the table does not wait for one player to read it); there is no hint
(no expert's help at a table of people). Spectators see the same board with no keys to
play.
"""

from __future__ import annotations

from collections import deque
from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Input

from trash_tui.app.shared.chat import ChatLine
from trash_tui.app.shared.controller import SharedTableController
from trash_tui.app.shared.following import TableFollower
from trash_tui.app.shared.link import (
    LinkLost,
    TableChat,
    TableClosed,
    TableError,
    TableLeft,
    TableNotice,
    TableResult,
    TablesLink,
    TableUpdate,
    contained,
)
from trash_tui.app.shared.notices import NoticePlace
from trash_tui.app.shared.table_part import SharedTable
from trash_tui.app.trash.board import CHAIN_STEP, TrashBoard
from trash_tui.play.turns import TABLE_PACE, Move
from trash_tui.rules import Rules
from trash_tui.text import clean

#: an end-of-deal summary at a shared table closes by itself when the table resumes
SUMMARY_SECONDS = TABLE_PACE.deal_pause
CATCH_UP = 3  # updates waiting beyond this are shown without their chains' steps


def rules_of(update: dict[str, Any]) -> Rules:
    observation = update.get("observation")
    if observation is not None:
        return Rules.from_dict(observation["rules"])
    return Rules()


class ServiceUpdates:
    """The turn driver's move source at a shared table: the service's updates, in order.
    An update that arrives while the board is idle is shown at once; one waiting behind
    the move just shown comes a chain's step later, so the last card of one move is seen
    before the next move's first."""

    def __init__(self, controller: SharedTableController, step: float) -> None:
        self.controller = controller
        self.step = step
        self.queue: deque[dict[str, Any]] = deque()

    def arrived(self, update: dict[str, Any]) -> None:
        self.queue.append(update)

    def ready(self, after_move: bool) -> float | None:
        if not self.queue:
            return None
        return self.step if after_move and len(self.queue) <= CATCH_UP else 0.0

    def take(self) -> Move | None:
        if not self.queue:
            return None
        update = self.queue.popleft()
        return lambda: self.controller.apply(update)


class SharedBoardScreen(TrashBoard, TableFollower, NoticePlace):
    """A match at a shared table, for a player or a spectator."""

    DEFAULT_CSS = """
    #shared-chat { height: 1; border: none; padding: 0 1; }
    #server-notice { height: auto; max-height: 8; border: round $warning; padding: 0 1; }
    """
    AUTO_FOCUS = None  # keys go to the board
    summary_seconds = SUMMARY_SECONDS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "chat", "Chat", id="shared-chat-open"),
        Binding("m", "mute", "Hide chat", id="shared-chat-mute", show=False),
        Binding("p", "people", "People", id="shared-people", show=False),
        Binding("escape", "leave", "Leave", id="leave"),
    ]

    def __init__(self, link: TablesLink, update: dict[str, Any], animation: str = "normal",
                 chat: list[dict[str, Any]] | None = None, notice: str | None = None
                 ) -> None:
        controller = SharedTableController(link.send, rules_of(update), update)
        self.updates = ServiceUpdates(controller, CHAIN_STEP.get(animation, 0.22))
        self.table = SharedTable(self, link, controller, chat)
        super().__init__(controller, animation, self.updates, notice, part=self.table)
        self.link = link
        self.shared = controller

    # --- the service's messages -----------------------------------------------------------
    @contained
    def on_table_update(self, message: TableUpdate) -> None:
        self.updates.arrived(message.data)
        self.driver.poke()

    @contained
    def on_table_notice(self, message: TableNotice) -> None:
        self.table.notice(clean(message.data.get("text", ""), 200))

    @contained
    def on_table_error(self, message: TableError) -> None:
        self.say(f"⚠ {clean(message.data.get('message', ''), 200)}")
        self.shared.sent_at = None  # the move was refused: the turn is still ours
        self.refresh_view()

    @contained
    def on_table_chat(self, message: TableChat) -> None:
        self.table.show_chat(message.data)

    @contained
    def on_table_result(self, message: TableResult) -> None:
        self.table.take_result(message.data)

    @contained
    def on_table_closed(self, message: TableClosed) -> None:
        why = f"The table closed: {clean(message.data.get('why', ''), 100)}."
        self.table.detach(why)
        self.app.notify(why, markup=False)
        self.take_away()

    @contained
    def on_table_left(self, message: TableLeft) -> None:
        why = clean(message.data.get("why", ""), 120)
        if why:  # (no reason: the answer to our own leave)
            self.table.detach(f"You are no longer at this table: {why} — esc goes back.")

    @contained
    def on_link_lost(self, message: LinkLost) -> None:
        self.table.detach("The connection to the table is lost (the server may be "
                          "stopping): esc goes back.")

    def server_notice(self, text: str, seconds: float) -> None:
        self.table.server_notice(text, seconds)

    # --- the table's keys -----------------------------------------------------------------
    def action_chat(self) -> None:
        self.table.open_chat()

    def action_mute(self) -> None:
        self.table.toggle_chat()

    def action_people(self) -> None:
        self.table.open_people()

    def action_leave(self) -> None:
        self.table.leave(self.take_away)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "shared-chat":
            self.table.send_chat(event.input)

    def on_chat_line_closed(self, message: ChatLine.Closed) -> None:
        message.stop()
        self.table.close_chat()
