"""A shared table's board (over SSH): the card table driven by the table service.

``SharedBoardScreen`` is the card game's ``BoardScreen`` (the same table, piles, log, keys
and animations) given two parts of its own: a ``SharedTableController`` (the match as the
service sends it; this player's keys send their move to the service) and
``ServiceUpdates``, the turn driver's move source: each update the service sends is one
move, shown in order, one at a time. The status line says whose turn it is and, while a
turn clock runs, how long is left; a player the stand-in is playing for (away) takes the
seat back with any key. An end-of-deal summary closes by itself after
``SUMMARY_SECONDS`` (the table does not wait for one player to read it). ``c`` opens the
one-line table chat, ``m`` hides or shows its lines in the log, ``p`` lists the people at
the table to hide one person's chat lines or report them (``people.py``). A notice from
the server's operator (``server_notice``) is a box at the top of the side column, over
the log (never over the status line or the cards), gone after its seconds. The table's
messages come as the link's (``on_table_update``, ``on_table_chat``...: handled once the
board is up, in the order they came); a board that comes after a waiting room starts its
log with the room's chat. ``esc`` asks before a
seated player leaves a match in play; the question is a line of the status line that holds
whatever the table plays meanwhile, until the player answers it (esc again: leave; any
other key, or a click on the board: stay, and it goes at once), another screen comes over
the board, or the ``LEAVE_SECONDS`` it shows run out. A board that no longer gets its
table's updates (the connection lost, the seat taken in another session) says so.
Spectators see the same board with no keys to play.
"""

from __future__ import annotations

from collections import deque
from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Input

from trash_tui.app.shared.chat import CHAT_LENGTH, ChatLine, chat_text
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
from trash_tui.app.shared.notices import NoticeBox, NoticePlace
from trash_tui.app.shared.people import PeopleScreen
from trash_tui.app.trash.board import CHAIN_STEP, BoardScreen
from trash_tui.app.trash.endings import StandingsScreen
from trash_tui.app.widgets.game_log import GameLog
from trash_tui.play.turns import TABLE_PACE, Move
from trash_tui.rules import Rules
from trash_tui.standing import final_places
from trash_tui.text import clean

#: an end-of-deal summary at a shared table closes by itself when the table resumes
SUMMARY_SECONDS = TABLE_PACE.deal_pause
RATINGS_WAIT = 3.0  # seconds the standings wait for the service's word on the result
CATCH_UP = 3  # updates waiting beyond this are shown without their chains' steps
NOTICE_SECONDS = 20.0  # the table's notices (who left, who is back) go after this long
LEAVE_SECONDS = 10  # esc's question "Leave the table?" holds this long (it says so)


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


class SharedBoardScreen(BoardScreen, TableFollower, NoticePlace):
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
        super().__init__(controller, animation, source=self.updates, notice=notice)
        self.link = link
        self.shared = controller
        self.chat_hidden = False
        self.detached: str | None = None  # why this board gets no more updates
        self.leave_question: Any = None  # while esc's question is pending: its timer
        self.ratings: list[dict[str, Any]] | None = None  # the match's rating changes
        self.match_end: tuple | None = None  # the match's end, told once who left is known
        self.standings_wait: Any = None  # the timer that shows the standings without them
        self.standings_up = False
        self.room_chat = list(chat or ())  # said in the waiting room: the log starts with it
        self.chatted: list[str] = []  # the names that chatted here (for ``p``)
        self.hidden: set[str] = set()  # the names whose chat lines this player hid

    def started(self) -> None:
        """Up: the turn clock's seconds tick; the waiting room's chat goes on in the log.
        Toasts still up from the screens before (the message of the day) go: they would
        cover the table."""
        self.app.clear_notifications()
        self.set_interval(1.0, self.tick)
        self.call_after_refresh(self.show_room_chat)

    def show_room_chat(self) -> None:
        """The chat said in the waiting room, right after the update that opened this
        board."""
        chat, self.room_chat = self.room_chat, []
        for line in chat:
            self.show_chat(line)

    # --- the service's messages -----------------------------------------------------------
    @contained
    def on_table_update(self, message: TableUpdate) -> None:
        self.updates.arrived(message.data)
        self.driver.poke()

    @contained
    def on_table_notice(self, message: TableNotice) -> None:
        text = clean(message.data.get("text", ""), 200)
        self.say(text)
        self.set_timer(NOTICE_SECONDS, lambda: self.expire(text))

    @contained
    def on_table_error(self, message: TableError) -> None:
        self.say(f"⚠ {clean(message.data.get('message', ''), 200)}")
        self.shared.sent_at = None  # the move was refused: the turn is still ours
        self.refresh_view()

    @contained
    def on_table_chat(self, message: TableChat) -> None:
        self.show_chat(message.data)

    def show_chat(self, line: dict[str, Any]) -> None:
        who = clean(line.get("from", ""), 32)
        if who and who not in self.chatted and not line.get("mine"):
            self.chatted.append(who)
        if not self.chat_hidden:
            log = self.query_one(GameLog)
            log.write(chat_text(line, log.content_size.width or None))

    @contained
    def on_table_result(self, message: TableResult) -> None:
        self.take_result(message.data)

    @contained
    def on_table_closed(self, message: TableClosed) -> None:
        why = f"The table closed: {clean(message.data.get('why', ''), 100)}."
        self.detach(why)
        self.app.notify(why, markup=False)
        self.take_away()

    @contained
    def on_table_left(self, message: TableLeft) -> None:
        why = clean(message.data.get("why", ""), 120)
        if why:  # (no reason: the answer to our own leave)
            self.detach(f"You are no longer at this table: {why} — esc goes back.")

    @contained
    def on_link_lost(self, message: LinkLost) -> None:
        self.detach("The connection to the table is lost (the server may be "
                    "stopping): esc goes back.")

    def expire(self, text: str) -> None:
        """The table's notice ``text`` is old news: gone, unless another replaced it."""
        if self.notice == text:
            self.notice = None
            self.refresh_view()

    def detach(self, why: str) -> None:
        """This board gets no more updates from its table: say so, and play nothing."""
        self.detached = why
        self.unask_leave()  # (esc now leaves at once)
        self.driver.stop()
        self.close_chat()
        self.refresh_bindings()
        self.problem = why  # (the status line's first line, to the end)
        self.refresh_view()

    # --- what the status line says ---------------------------------------------------------
    def notices(self) -> list[str]:
        """The notices, then esc's question while it is pending (the table's notices and
        its moves never replace it)."""
        lines = super().notices()
        if self.leave_question is not None and self.seated_in_play:
            lines.append("Leave the table? The stand-in plays for you until you are back; if "
                         "you are not back when the match ends, you count as having left "
                         f"(last place). esc again within {LEAVE_SECONDS:g} s: leave; any "
                         "other key: stay.")
        return lines

    def status_text(self) -> str:
        shared = self.shared
        if shared.over:
            return "The match is over."
        if shared.away:
            return ("The stand-in is playing for you: press any key to take your seat "
                    "back (if the match ends first, you count as having left: last).")
        text = super().status_text()
        if shared.watching:
            text = "Watching — " + text
        left = shared.seconds_left()
        if left is not None:
            text += f" ⏱ {left:.0f} s"
        away = [clean(seat.get("name") or "?", 24) for seat in shared.table["seats"]
                if seat["kind"] == "human" and seat.get("state") == "away"]
        if away:
            text += f" · stand-in for {', '.join(away)}"
        return text

    def tick(self) -> None:
        if self.shared.clock is not None and not self.animating:
            self.set_status(self.status_text())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hint":
            return False  # no expert's help at a table of people
        if self.detached:  # its table sends nothing more: only leaving (and the rules)
            return action in ("leave", "open_rules")
        if action in ("chat", "mute", "people"):
            return True
        return super().check_action(action, parameters)

    # --- keys ---------------------------------------------------------------------------
    def key_pressed(self, event: events.Key) -> None:
        """Any key takes the seat back from the stand-in; any key but escape answers "stay"
        to esc's question."""
        if self.shared.away and not self.detached:
            self.link.send({"op": "back"})
        if event.key != "escape":
            self.unask_leave()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """A click on the board answers "stay" to esc's question, as a key would (a click
        on a key of the footer is that key: the footer keeps it)."""
        self.unask_leave()

    def on_screen_suspend(self) -> None:
        """Another screen over the board takes esc's question with it: an esc on the board
        later asks again."""
        self.unask_leave()

    def action_chat(self) -> None:
        """Open the chat line (above the status line) and type into it."""
        if self.query("#shared-chat"):
            self.query_one("#shared-chat", Input).focus()
            return
        chat = ChatLine(placeholder="Say something to the table (enter sends, esc closes)",
                        max_length=CHAT_LENGTH, id="shared-chat")
        self.mount(chat, before=self.query_one("#board-status"))
        chat.focus()

    def action_people(self) -> None:
        """The people at the table: hide one's chat lines, or report them."""
        shared = self.shared
        names = [clean(seat.get("name") or "", 32) for index, seat in
                 enumerate(shared.table["seats"])
                 if seat["kind"] == "human" and index != shared.seat]
        names += [name for name in self.chatted if name not in names]
        mine = (self.link.welcome or {}).get("name") if shared.watching else None
        names = [name for name in names if name and name != mine]
        self.app.push_screen(PeopleScreen(self.link, names, self.hidden))

    def server_notice(self, text: str, seconds: float) -> None:
        """The operator's notice: a box at the top of the side column (the log gives it
        room), gone after ``seconds``; a newer one takes its place in the same box."""
        def place(box: NoticeBox) -> None:
            side = self.query("#board-side")
            if side:
                side.first().mount(box, before=self.query_one(GameLog))
            else:
                self.mount(box, before=self.query_one("#board-status"))

        NoticeBox.on(self, text, seconds, "From the server:\n", place)

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

    def on_chat_line_closed(self, message: ChatLine.Closed) -> None:
        message.stop()
        self.close_chat()

    def close_chat(self) -> None:
        for chat in self.query("#shared-chat"):
            chat.remove()
        self.set_focus(None)

    @property
    def seated_in_play(self) -> bool:
        """This player has a seat in a match in play that this board still follows."""
        shared = self.shared
        return not shared.watching and not shared.over and not self.detached

    def action_leave(self) -> None:
        """Escape: closes the chat line if it is open; a seated player in a match in play
        is asked first (the stand-in plays for them, and a match they are not back for
        counts as left), and leaves with an escape while the question is pending, however
        many moves the table made meanwhile."""
        if self.query("#shared-chat"):
            self.close_chat()
            return
        if self.seated_in_play and self.leave_question is None:
            self.leave_question = self.set_timer(LEAVE_SECONDS, self.unask_leave)
            self.set_status(self.status_text_asked)
            return
        self.unask_leave()
        self.notice = None
        self.link.send({"op": "leave"})
        self.take_away()

    def unask_leave(self) -> None:
        """esc's question is answered "stay" (or its time ran out): off the status line."""
        if self.leave_question is None:
            return
        self.leave_question.stop()
        self.leave_question = None
        if self.is_mounted:
            self.set_status(self.status_text_asked)

    # --- the end of the match ---------------------------------------------------------
    def narrate(self, event: tuple) -> str | None:
        """The end of the match waits for the service's ``result``: who left changes who
        won (the line is written when it comes)."""
        if event[0] == "match" and self.ratings is None:
            self.match_end = event
            return None
        return super().narrate(event)

    def write_match_end(self) -> None:
        """The end of the match in the log, once who left is known (or no longer waited
        for)."""
        if self.match_end is not None and self.is_mounted:
            line = super().narrate(self.match_end)
            self.match_end = None
            if line:
                self.query_one(GameLog).write(line)

    def take_result(self, message: dict[str, Any]) -> None:
        """The service's word on the finished match, read from the history that rated
        it: who had left (last in the standings) and how the ratings moved."""
        players = len(self.shared.table["seats"])
        self.left = frozenset(seat for seat in message.get("left", [])
                              if isinstance(seat, int) and not isinstance(seat, bool)
                              and 0 <= seat < players)
        self.ratings = [change for change in message.get("changes", [])
                        if isinstance(change, dict)]
        self.write_match_end()
        if self.controller.over:
            self.show_standings()

    def show_standings(self) -> None:
        """The standings, with who left and each player's rating change: they wait a
        moment for the service's ``result``."""
        if self.ratings is None and self.standings_wait is None:
            self.standings_wait = self.set_timer(RATINGS_WAIT, self.show_standings_now)
            return
        if self.ratings is not None:
            self.show_standings_now()

    def show_standings_now(self) -> None:
        if self.standings_up or not self.is_active:
            return
        self.standings_up = True
        self.write_match_end()
        lines = self.standings()
        result = self.controller.match.result
        ratings = self.ratings or []
        if result is not None:  # in the standings' order: the players who left last
            places = final_places(result.places, self.left)
            ratings = sorted(ratings, key=lambda change: (
                places[change["seat"]] if change.get("seat") in range(len(places)) else 99))
        changes = rating_lines(ratings)
        if changes:
            lines = [*lines, "", "Ratings:", *changes]
        self.app.switch_screen(StandingsScreen(lines))


def rating_lines(changes: list[dict[str, Any]]) -> list[str]:
    """"Ann 1500 → 1532 (+32)" for each rated player (names cleaned)."""
    lines = []
    for change in changes:
        try:
            before, after = float(change["before"]), float(change["after"])
        except (KeyError, TypeError, ValueError):
            continue
        name = clean(str(change.get("name") or "?"), 24)
        lines.append(f"  {name} {before:.0f} → {after:.0f} ({after - before:+.0f})")
    return lines
