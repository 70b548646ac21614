"""A shared table's board (over SSH): the local board, driven by the table service.

``SharedBoardScreen`` is ``BoardScreen`` with a ``SharedTableController``: the same table,
piles, log, keys and animations. Moves arrive as the service's updates and are played in
order (``make_move`` shows each one, a chain step by step); this player's keys send their
move to the service. The status line says whose turn it is and, while a turn clock runs,
how long is left; a player the stand-in is playing for (away) takes the seat back with any
key. An end-of-deal summary closes by itself after ``SUMMARY_SECONDS`` (the table does not
wait for one player to read it). ``c`` opens the one-line table chat, ``m`` hides or shows
its lines in the log. Spectators see the same board with no keys to play.
"""

from __future__ import annotations

from collections import deque
from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Input

from trash_tui.app.shared.chat import CHAT_LENGTH, ChatLine, chat_text
from trash_tui.app.shared.controller import SharedTableController
from trash_tui.app.shared.link import TablesLink
from trash_tui.app.trash.board import BoardScreen
from trash_tui.app.trash.endings import DealOverPanel
from trash_tui.app.widgets.game_log import GameLog
from trash_tui.rules import Rules
from trash_tui.text import clean

SUMMARY_SECONDS = 5.0  # an end-of-deal summary at a shared table closes by itself


def rules_of(update: dict[str, Any]) -> Rules:
    observation = update.get("observation")
    if observation is not None:
        return Rules.from_dict(observation["rules"])
    return Rules()


class SharedBoardScreen(BoardScreen):
    """A match at a shared table, for a player or a spectator."""

    DEFAULT_CSS = """
    #shared-chat { height: 1; border: none; padding: 0 1; }
    """
    AUTO_FOCUS = None  # keys go to the board

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "chat", "Chat", id="shared-chat-open"),
        Binding("m", "mute", "Hide chat", id="shared-chat-mute", show=False),
        Binding("escape", "leave", "Leave", id="leave"),
    ]

    def __init__(self, link: TablesLink, update: dict[str, Any], animation: str = "normal"
                 ) -> None:
        controller = SharedTableController(link.send, rules_of(update), update)
        super().__init__(controller, animation)  # type: ignore[arg-type]
        self.link = link
        self.shared: SharedTableController = controller
        self.updates: deque[dict[str, Any]] = deque()
        self.chat_hidden = False
        link.listen(self.on_table_message)  # from now: what comes before it is up waits

    def on_mount(self) -> None:  # not BoardScreen's: a table in play is no resumed match
        self.refresh_view()
        self.play_updates()
        self.set_interval(1.0, self.tick)

    def on_unmount(self) -> None:
        self.link.ignore(self.on_table_message)

    def on_screen_suspend(self) -> None:
        if self not in self.app.screen_stack:  # popped: its table is left
            self.link.ignore(self.on_table_message)

    # --- the service's messages -----------------------------------------------------------
    def on_table_message(self, message: dict[str, Any]) -> None:
        op = message["op"]
        if op == "update":
            self.updates.append(message)
            self.play_updates()
        elif not self.is_mounted or self not in self.app.screen_stack:
            return  # not up yet, or closed: nothing to show it on
        elif op == "notice":
            self.say(clean(message.get("text", ""), 200))
        elif op == "error":
            self.say(f"⚠ {clean(message.get('message', ''), 200)}")
            self.shared.sent_at = None  # the move was refused: the turn is still ours
            self.refresh_view()
        elif op == "chat":
            if not self.chat_hidden:
                self.query_one(GameLog).write(chat_text(message))
        elif op == "closed":
            self.app.notify(f"The table closed: {clean(message.get('why', ''), 100)}.")
            self.app.pop_screen()
        elif op == "disconnected":
            self.say("⚠ The connection to the table is lost: the server may be stopping.")

    def play_updates(self) -> None:
        """Show the next update, if the board is free to (one move at a time, after the
        last one's animation and any end-of-deal summary)."""
        if not self.updates or self.animating or self.waiting_for_summary or \
                not self.is_mounted or self not in self.app.screen_stack:
            return
        update = self.updates.popleft()
        self.make_move(lambda: self.shared.apply(update))

    def schedule_bots(self) -> None:
        """The service plays the bots: show what it sent. A move waiting behind the one
        just shown starts a chain's step later, so the last card of one move is seen
        before the next move's first (a move ends with its last step)."""
        if self.step and self.updates:
            self.set_timer(self.step, self.play_updates)
        else:
            self.play_updates()

    def after_move(self) -> None:
        """As on the local board; an end-of-deal summary closes by itself after a while,
        since the table does not wait for it (its moves wait on this screen meanwhile)."""
        super().after_move()
        if self.waiting_for_summary:
            self.set_timer(SUMMARY_SECONDS, self.close_summary)

    def close_summary(self) -> None:
        if self.waiting_for_summary:
            self.query_one(DealOverPanel).close()

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        self.play_updates()

    # --- what the status line says ---------------------------------------------------------
    def status_text(self) -> str:
        shared = self.shared
        if shared.over:
            return "The match is over."
        if shared.away:
            return ("The stand-in is playing for you: press any key to take your seat "
                    "back.")
        text = super().status_text()
        if shared.watching:
            text = "Watching — " + text
        left = shared.seconds_left()
        if left is not None:
            text += f" ⏱ {left:.0f} s"
        away = [clean(seat.get("name") or "?", 24) for seat in shared.table["seats"]
                if seat["kind"] == "human" and seat.get("state") == "away"]
        if away:
            text += f" · away (the stand-in plays): {', '.join(away)}"
        return text

    def tick(self) -> None:
        if self.shared.clock is not None and not self.animating:
            self.set_status(self.status_text())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hint":
            return False  # no expert's help at a table of people
        if action in ("chat", "mute"):
            return True
        return super().check_action(action, parameters)

    # --- keys ---------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        if self.shared.away:
            self.link.send({"op": "back"})

    def action_chat(self) -> None:
        """Open the chat line (above the status line) and type into it."""
        if self.query("#shared-chat"):
            self.query_one("#shared-chat", Input).focus()
            return
        chat = ChatLine(placeholder="Say something to the table (enter sends, esc closes)",
                        max_length=CHAT_LENGTH, id="shared-chat")
        self.mount(chat, before=self.query_one("#board-status"))
        chat.focus()

    def action_mute(self) -> None:
        self.chat_hidden = not self.chat_hidden
        self.say("Chat hidden (m shows it)." if self.chat_hidden else "Chat shown.")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "shared-chat":
            return
        text = event.value.strip()
        if text:
            self.link.send({"op": "chat", "text": text})
        event.input.value = ""
        self.close_chat()

    def close_chat(self) -> None:
        for chat in self.query("#shared-chat"):
            chat.remove()
        self.set_focus(None)

    def action_leave(self) -> None:
        if self.query("#shared-chat"):
            self.close_chat()
            return
        self.link.send({"op": "leave"})
        self.app.pop_screen()
