"""A shared table's part of its board: what a table of people adds to a game's board.

``SharedTable`` is plugged into the board shell (``screens/board_shell.py``, a
``BoardPart``) by the shared board (``shared/board.py``); it is no board itself, and holds
none of the game's view. It owns:

- the chat: the one-line chat line (``c``), the chat lines in the log (``m`` hides and
  shows them), the waiting room's chat the log starts with, the names that chatted;
- the people at the table (``p``: hide one's chat lines, or report them, ``people.py``);
- the table's notices (who left, who is back: gone after ``NOTICE_SECONDS``) and the
  server operator's notice box at the top of the side column;
- the seat: a player the stand-in plays for takes the seat back with any key; the turn
  clock's seconds and who the stand-in plays for, on the status line;
- esc's question before a seated player leaves a match in play: a line of the status line
  that holds whatever the table plays meanwhile, until the player answers it (esc again:
  leave; any other key, or a click on the board: stay), another screen comes over the
  board, or the ``LEAVE_SECONDS`` it shows run out;
- the end: the match's last log line and the standings wait (up to ``RATINGS_WAIT``) for
  the service's word on who left and how the ratings moved;
- a board that no longer gets its table's updates (``detach``) says so and plays nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import events
from textual.widgets import Input

from trash_tui.app.screens.board_shell import BoardPart
from trash_tui.app.shared.chat import CHAT_LENGTH, ChatLine, chat_text
from trash_tui.app.shared.controller import SharedTableController
from trash_tui.app.shared.link import TablesLink
from trash_tui.app.shared.notices import NoticeBox
from trash_tui.app.shared.people import PeopleScreen
from trash_tui.app.widgets.game_log import GameLog
from trash_tui.standing import final_places
from trash_tui.text import clean

if TYPE_CHECKING:
    from trash_tui.app.trash.board import TrashBoard

RATINGS_WAIT = 3.0  # seconds the standings wait for the service's word on the result
NOTICE_SECONDS = 20.0  # the table's notices (who left, who is back) go after this long
LEAVE_SECONDS = 10  # esc's question "Leave the table?" holds this long (it says so)
#: The board's actions that are the table's (always offered while the table follows).
TABLE_ACTIONS = ("chat", "mute", "people")


class SharedTable(BoardPart):
    """The table's part of ``board``: its chat, people, notices, seat and leave question,
    and the ratings the standings wait for."""

    def __init__(self, board: TrashBoard, link: TablesLink,
                 controller: SharedTableController,
                 chat: list[dict[str, Any]] | None = None) -> None:
        self.board = board
        self.link = link
        self.shared = controller
        self.chat_hidden = False
        self.detached: str | None = None  # why this board gets no more updates
        self.leave_question: Any = None  # while esc's question is pending: its timer
        self.ratings: list[dict[str, Any]] | None = None  # the match's rating changes
        self.match_end: tuple | None = None  # the match's end, told once who left is known
        self.standings_wait: Any = None  # the timer that shows the standings without them
        self.waited = False  # the ratings were waited for long enough
        self.room_chat = list(chat or ())  # said in the waiting room: the log starts with it
        self.chatted: list[str] = []  # the names that chatted here (for ``p``)
        self.hidden: set[str] = set()  # the names whose chat lines this player hid

    # --- the board's life (``BoardPart``) ---------------------------------------------------
    def started(self) -> None:
        """Up: the turn clock's seconds tick; the waiting room's chat goes on in the log.
        Toasts still up from the screens before (the message of the day) go: they would
        cover the table."""
        board = self.board
        board.app.clear_notifications()
        board.set_interval(1.0, self.tick)
        board.call_after_refresh(self.show_room_chat)

    def key_pressed(self, event: events.Key) -> None:
        """Any key takes the seat back from the stand-in; any key but escape answers "stay"
        to esc's question."""
        if self.shared.away and not self.detached:
            self.link.send({"op": "back"})
        if event.key != "escape":
            self.unask_leave()

    def clicked(self) -> None:
        """A click on the board answers "stay" to esc's question, as a key would (a click
        on a key of the footer is that key: the footer keeps it)."""
        self.unask_leave()

    def covered(self) -> None:
        """Another screen over the board takes esc's question with it: an esc on the board
        later asks again."""
        self.unask_leave()

    def notices(self) -> list[str]:
        """esc's question while it is pending (the table's notices and its moves never
        replace it)."""
        if self.leave_question is not None and self.seated_in_play:
            return ["Leave the table? The stand-in plays for you until you are back; if "
                    "you are not back when the match ends, you count as having left "
                    f"(last place). esc again within {LEAVE_SECONDS:g} s: leave; any "
                    "other key: stay."]
        return []

    def status(self, text: str) -> str:
        """The view's ``text`` at this table: the stand-in's line while it plays for this
        player; else watching, the turn clock and who the stand-in plays for."""
        shared = self.shared
        if shared.over:
            return text
        if shared.away:
            return ("The stand-in is playing for you: press any key to take your seat "
                    "back (if the match ends first, you count as having left: last).")
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

    def allows(self, action: str) -> bool | None:
        """A detached board offers only leaving (and the rules); the table's own keys are
        always offered; the others as the view decides."""
        if self.detached:  # its table sends nothing more
            return action in ("leave", "open_rules")
        if action in TABLE_ACTIONS:
            return True
        return None

    def standings_ready(self) -> bool:
        """The standings wait a moment for the service's ``result`` (then they come
        without it)."""
        if self.ratings is not None or self.waited:
            return True
        if self.standings_wait is None:
            self.standings_wait = self.board.set_timer(RATINGS_WAIT, self.stop_waiting)
        return False

    def stop_waiting(self) -> None:
        self.waited = True
        self.board.show_standings()

    def standings(self, lines: list[str]) -> list[str]:
        """The standings with each player's rating change (in the standings' order: the
        players who left last); the match's end is written in the log first."""
        self.write_match_end()
        result = self.shared.match.result
        ratings = self.ratings or []
        if result is not None:
            places = final_places(result.places, self.board.left)
            ratings = sorted(ratings, key=lambda change: (
                places[change["seat"]] if change.get("seat") in range(len(places)) else 99))
        changes = rating_lines(ratings)
        return [*lines, "", "Ratings:", *changes] if changes else lines

    # --- the table's messages ----------------------------------------------------------------
    def notice(self, text: str) -> None:
        """A notice of the table (who left, who is back), on the status line for a while."""
        self.board.say(text)
        self.board.set_timer(NOTICE_SECONDS, lambda: self.expire(text))

    def expire(self, text: str) -> None:
        """The table's notice ``text`` is old news: gone, unless another replaced it."""
        board = self.board
        if board.notice == text:
            board.notice = None
            board.refresh_view()

    def show_room_chat(self) -> None:
        """The chat said in the waiting room, right after the update that opened this
        board."""
        chat, self.room_chat = self.room_chat, []
        for line in chat:
            self.show_chat(line)

    def show_chat(self, line: dict[str, Any]) -> None:
        who = clean(line.get("from", ""), 32)
        if who and who not in self.chatted and not line.get("mine"):
            self.chatted.append(who)
        if not self.chat_hidden:
            log = self.board.query_one(GameLog)
            log.write(chat_text(line, log.content_size.width or None))

    def detach(self, why: str) -> None:
        """This board gets no more updates from its table: say so, and play nothing."""
        board = self.board
        self.detached = why
        self.unask_leave()  # (esc now leaves at once)
        board.driver.stop()
        self.close_chat()
        board.refresh_bindings()
        board.problem = why  # (the status line's first line, to the end)
        board.refresh_view()

    def tick(self) -> None:
        board = self.board
        if self.shared.clock is not None and not board.animating:
            board.set_status(board.status_text())

    # --- the chat line, the people, the operator's notice ------------------------------------
    def open_chat(self) -> None:
        """Open the chat line (above the status line) and type into it."""
        board = self.board
        if board.query("#shared-chat"):
            board.query_one("#shared-chat", Input).focus()
            return
        chat = ChatLine(placeholder="Say something to the table (enter sends, esc closes)",
                        max_length=CHAT_LENGTH, id="shared-chat")
        board.mount(chat, before=board.query_one("#board-status"))
        chat.focus()

    def send_chat(self, line: Input) -> None:
        text = line.value.strip()
        if text:
            self.link.send({"op": "chat", "text": text})
        line.value = ""
        self.close_chat()

    def close_chat(self) -> None:
        board = self.board
        for chat in board.query("#shared-chat"):
            chat.remove()
        board.set_focus(None)

    def toggle_chat(self) -> None:
        self.chat_hidden = not self.chat_hidden
        self.board.say("Chat hidden (m shows it)." if self.chat_hidden else "Chat shown.")

    def open_people(self) -> None:
        """The people at the table: hide one's chat lines, or report them."""
        shared = self.shared
        names = [clean(seat.get("name") or "", 32) for index, seat in
                 enumerate(shared.table["seats"])
                 if seat["kind"] == "human" and index != shared.seat]
        names += [name for name in self.chatted if name not in names]
        mine = (self.link.welcome or {}).get("name") if shared.watching else None
        names = [name for name in names if name and name != mine]
        self.board.app.push_screen(PeopleScreen(self.link, names, self.hidden))

    def server_notice(self, text: str, seconds: float) -> None:
        """The operator's notice: a box at the top of the side column (the log gives it
        room), gone after ``seconds``; a newer one takes its place in the same box."""
        board = self.board

        def place(box: NoticeBox) -> None:
            side = board.query("#board-side")
            if side:
                side.first().mount(box, before=board.query_one(GameLog))
            else:
                board.mount(box, before=board.query_one("#board-status"))

        NoticeBox.on(board, text, seconds, "From the server:\n", place)

    # --- leaving ------------------------------------------------------------------------------
    @property
    def seated_in_play(self) -> bool:
        """This player has a seat in a match in play that this board still follows."""
        shared = self.shared
        return not shared.watching and not shared.over and not self.detached

    def leave(self, away: Callable[[], None]) -> None:
        """Escape: closes the chat line if it is open; a seated player in a match in play
        is asked first (the stand-in plays for them, and a match they are not back for
        counts as left), and leaves (``away``) with an escape while the question is
        pending, however many moves the table made meanwhile."""
        board = self.board
        if board.query("#shared-chat"):
            self.close_chat()
            return
        if self.seated_in_play and self.leave_question is None:
            self.leave_question = board.set_timer(LEAVE_SECONDS, self.unask_leave)
            board.set_status(board.status_text_asked)
            return
        self.unask_leave()
        board.notice = None
        self.link.send({"op": "leave"})
        away()

    def unask_leave(self) -> None:
        """esc's question is answered "stay" (or its time ran out): off the status line."""
        if self.leave_question is None:
            return
        self.leave_question.stop()
        self.leave_question = None
        if self.board.is_mounted:
            self.board.set_status(self.board.status_text_asked)

    # --- the end of the match -------------------------------------------------------------
    def holds_line(self, event: tuple) -> bool:
        """The end of the match waits for the service's ``result``: who left changes who
        won (the line is written when it comes)."""
        if event[0] == "match" and self.ratings is None:
            self.match_end = event
            return True
        return False

    def write_match_end(self) -> None:
        """The end of the match in the log, once who left is known (or no longer waited
        for)."""
        board = self.board
        if self.match_end is not None and board.is_mounted:
            line = board.event_line(self.match_end)
            self.match_end = None
            if line:
                board.query_one(GameLog).write(line)

    def take_result(self, message: dict[str, Any]) -> None:
        """The service's word on the finished match, read from the history that rated
        it: who had left (last in the standings) and how the ratings moved."""
        board = self.board
        players = len(self.shared.table["seats"])
        board.left = frozenset(seat for seat in message.get("left", [])
                               if isinstance(seat, int) and not isinstance(seat, bool)
                               and 0 <= seat < players)
        self.ratings = [change for change in message.get("changes", [])
                        if isinstance(change, dict)]
        self.write_match_end()
        if self.shared.over:
            board.show_standings()


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
