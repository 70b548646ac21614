"""The match history: a table of the player's matches from the history database.

The matches are sorted by when they were last played, latest first, and the first
column shows that date. Each row gives it, the game, the players, the result (the winner,
"▶ unfinished" or "abandoned") and the moves; from ``WIDE_WIDTH`` columns also the deals
(a game of Help Your Neighbor has none) and how long the match lasted. The line under the
table gives the selected match in full: its rules, seed, players, start, moves, length
and deals. Opening a finished match steps through its replay (``ReplayScreen``, or
``NeighborReplayScreen`` for the dice game) in the player's own seat (at a shared table,
the seat they sat at), an abandoned one through what was played;
opening an unfinished one continues it. Times are shown in local time. Names come from
the database, so they are shown cleaned of control characters (``clean``) and never read
as markup.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Label, Static

from trash_tui.app.screens.roles import SaysLines
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.app.widgets.plain import PlainTable
from trash_tui.engine.record import RecordError
from trash_tui.games import NEIGHBOR, SHORT_TITLES, TITLES
from trash_tui.history import ABANDONED, FINISHED, PLAYING, History, HistoryError, MatchRow
from trash_tui.presets import preset_name_of
from trash_tui.rules import Rules, RulesError
from trash_tui.text import clean


def duration_text(seconds: float) -> str:
    """``"1:02:03"``, ``"12:34"`` or ``"0:05"``."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


WIDE_WIDTH = 110  # columns from which the table also shows the deals and the length
# the table is sorted by when a match was last played, and its first column says so
NARROW_COLUMNS = ("Last played", "Game", "Players", "Result", "Moves")
WIDE_COLUMNS = ("Last played", "Game", "Players", "Result", "Deals", "Moves", "Length")
RESULT_WIDTH = 18
CELL_PADDING, SCROLLBAR = 2, 2
#: What the columns other than the players' take (date, game, result, moves; then deals and
#: length), with every column's padding and the scroll bar: the players get the rest, at
#: least MIN_PLAYERS_WIDTH.
NARROW_OTHERS = sum(width + CELL_PADDING for width in (16, 8, RESULT_WIDTH, 5)) + \
    CELL_PADDING + SCROLLBAR
WIDE_OTHERS = NARROW_OTHERS + sum(width + CELL_PADDING for width in (5, 7))
MIN_PLAYERS_WIDTH = 12


def moves_of(row: MatchRow) -> int:
    """How long a match is: its moves, or for the dice game its rolls (the number its end
    box and the statistics give)."""
    return row.deals if row.game == NEIGHBOR else row.actions


def moves_text(row: MatchRow) -> str:
    """"133 moves", or for the dice game "114 rolls"."""
    count = moves_of(row)
    word = "roll" if row.game == NEIGHBOR else "move"
    return f"{count} {word}{'' if count == 1 else 's'}"


def shortened(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns with an ellipsis when it is longer."""
    return text if cell_len(text) <= width else text[:max(width - 1, 0)].rstrip() + "…"


def rules_text(rules: dict[str, object]) -> str:
    """The preset a match's rules equal, or "house rules"."""
    try:
        return preset_name_of(Rules.from_dict(rules)) or "house rules"
    except RulesError:
        return "unknown rules"


def outcome_text(row: MatchRow, seat: int | None = None) -> str:
    """The result column: "★ winner", "▶ unfinished", "abandoned" (given up, or too many
    void deals), "everyone left" or "no winner"; "you left · " first when ``seat`` (the
    player's, at a shared table) left before the end (last: ``trash_tui/standing.py``)."""
    outcome = row.outcome
    text = {"won": "★ " + ", ".join(clean(name) for name in row.winner_names),
            "unfinished": "▶ unfinished"}.get(outcome, outcome)
    return f"you left · {text}" if seat is not None and seat in row.left else text


def cell(text: str) -> Text:
    """A table cell showing ``text`` as it is: a name from the database is never read as
    Rich markup (a stray ``[`` or a ``[@click=...]``)."""
    return Text(text, no_wrap=True, end="")


class HistoryScreen(Screen[None], SaysLines):
    class Resume(Message):
        """Continue this unfinished match (the app does: at its shared table, the seat
        back; else where it stopped)."""

        def __init__(self, row: MatchRow) -> None:
            super().__init__()
            self.row = row

    """The player's matches, latest first; Enter opens one."""

    DEFAULT_CSS = """
    HistoryScreen { layout: vertical; }
    #history-title { text-style: bold; padding: 0 1; }
    #history-table { height: 1fr; }
    #history-empty { padding: 1 2; color: $text-muted; }
    #history-detail { height: auto; padding: 0 1; background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open_match", "Open", id="open-match", priority=True),
        Binding("delete", "delete_match", "Delete", id="delete-match"),
        Binding("escape", "close", "Lobby", id="close-history"),
    ]

    def __init__(self, history: History, owner: str) -> None:
        super().__init__()
        self.history = history
        self.owner = owner
        self.rows: list[MatchRow] = []
        self.seats: dict[int, int] = {}  # the player's seat at each shared table's match
        self.armed_delete: int | None = None  # the match a first Delete press chose
        self.wide = False  # the table has every column (a wide screen)
        # said on the line under the table while the match selected then stays selected
        self.notice: tuple[str, int | None] | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Match history · the latest played first", id="history-title", markup=False)
            yield PlainTable(id="history-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="history-empty", markup=False)
            yield Static("", id="history-detail", markup=False)
        yield TrashFooter()

    def on_mount(self) -> None:
        self.load()

    def on_resize(self) -> None:
        self.load()  # the players' column gets what the others leave

    def on_screen_resume(self) -> None:
        self.load()

    def load(self) -> None:
        """(Re)read the matches from the database."""
        try:
            self.rows = self.history.matches.of_player(self.owner)
            self.seats = self.history.matches.match_seats_of(self.owner)
        except HistoryError as exc:
            self.rows = []
            self.notify(str(exc), severity="error", markup=False)
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        width = self.app.size.width  # the screen's own size is not known at its mount
        self.wide = width >= WIDE_WIDTH
        columns = WIDE_COLUMNS if self.wide else NARROW_COLUMNS
        if tuple(str(column.label) for column in table.columns.values()) != columns:
            table.clear(columns=True)
            table.add_columns(*columns)
        else:
            table.clear()
        results = [shortened(outcome_text(row, self.seats.get(row.id)), RESULT_WIDTH)
                   for row in self.rows]
        unused = RESULT_WIDTH - max((cell_len(text) for text in results), default=0)
        room = max(MIN_PLAYERS_WIDTH,
                   width - (WIDE_OTHERS if self.wide else NARROW_OTHERS) + max(unused, 0))
        for row, result in zip(self.rows, results, strict=True):
            names = ", ".join(clean(name) for name in row.names)
            cells: list[str | Text] = [
                time.strftime("%Y-%m-%d %H:%M", time.localtime(row.updated)),
                cell(clean(SHORT_TITLES.get(row.game, row.game))),
                cell(shortened(names, room)), cell(result), str(moves_of(row))]
            if self.wide:
                cells[4:4] = ["—" if row.game == NEIGHBOR else str(row.deals)]
                cells.append(duration_text(row.seconds))
            table.add_row(*cells, key=str(row.id))
        if self.rows:
            table.move_cursor(row=min(cursor, len(self.rows) - 1))
        empty = self.query_one("#history-empty", Static)
        empty.display = not self.rows
        empty.update("No matches yet: every match you play is kept here.")
        self.show_detail()
        self.refresh_bindings()

    def selected(self) -> MatchRow | None:
        table = self.query_one(DataTable)
        if not self.rows or table.cursor_row is None or table.cursor_row >= len(self.rows):
            return None
        return self.rows[table.cursor_row]

    def on_data_table_row_highlighted(self, _: DataTable.RowHighlighted) -> None:
        row = self.selected()
        if self.notice is not None and self.notice[1] != (row.id if row else None):
            self.notice = None
        self.show_detail()

    def say(self, text: str, severity: str = "information") -> None:
        """A notice on the line under the table, until another match is selected."""
        row = self.selected()
        self.notice = (text, row.id if row else None)
        self.show_detail()

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_open_match()

    def show_detail(self) -> None:
        row = self.selected()
        detail = self.query_one("#history-detail", Static)
        if self.notice is not None:
            detail.update(Text(clean(self.notice[0])))
            return
        if row is None:
            detail.update("")
            return
        what = {FINISHED: "Enter: step through its replay", PLAYING: "Enter: continue it"}.get(
            row.status, "abandoned; Enter: step through what was played")
        if row.shared and row.status == PLAYING:  # the seed would tell every hidden card
            started = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.started))
            detail.update(Text(f"Match {row.id} at a shared table, started {started}, "
                               f"{row.actions} moves so far — Enter: back to the table"))
            return
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.started))
        names = ", ".join(clean(name) for name in row.names)
        gone = [clean(row.names[seat]) for seat in sorted(row.left) if seat < len(row.names)]
        if gone:  # last, whatever their stand-in did
            names += f" ({', '.join(gone)} left the table: last)"
        players = (f"{names}; started {started}, {moves_text(row)} in "
                   f"{duration_text(row.seconds)}")
        if row.game == NEIGHBOR:
            detail.update(Text(f"Game {row.id}: {TITLES[NEIGHBOR]}, seed {row.seed}: "
                               f"{players} — {what}"))
            return
        deals = f"{row.deals} deal{'s' if row.deals != 1 else ''}"
        detail.update(Text(f"Match {row.id}: {rules_text(row.rules)}, seed {row.seed}: "
                           f"{players}, {deals} — {what}"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("open_match", "delete_match"):
            return bool(self.rows)
        return True

    def action_open_match(self) -> None:
        row = self.selected()
        if row is None:
            return
        if row.status == PLAYING:  # (a shared one: the table service holds it)
            self.post_message(self.Resume(row))
            return
        from trash_tui.app.neighbor.replay import NeighborReplayScreen
        from trash_tui.app.trash.replay_screen import ReplayScreen

        screen: Screen[None]
        try:
            full = self.history.matches.get_match(row.id)
            if full.record is None and full.status == ABANDONED:  # as far as it went
                from trash_tui.play.saving import saved_record

                full = replace(full, record=saved_record(self.history, full))
            if full.record is None:
                raise HistoryError(f"match {row.id} has no record")
            if full.game == NEIGHBOR:
                screen = NeighborReplayScreen(full.record, list(full.names),
                                              f"Replay of game {full.id}")
            else:  # in the player's own seat: at a shared table, the one they sat at
                seat = self.history.matches.match_seats_of(self.owner).get(full.id) \
                    if full.shared else None
                screen = ReplayScreen(full, seat)
        except (HistoryError, RecordError, ValueError) as exc:
            self.say(f"Cannot replay this match: {exc}", severity="error")
            return
        self.app.push_screen(screen)

    def action_delete_match(self) -> None:
        """Delete the selected match from this history: the first press asks, a second
        one deletes. A match with a result is hidden here, not forgotten: it still counts
        in the statistics and the rating (an unfinished one is deleted for good)."""
        row = self.selected()
        if row is None:
            return
        if row.shared and row.status == PLAYING:  # its rating needs who sat where
            self.say(f"Match {row.id} is still being played at its table: it can be "
                     "deleted once it is over.", "error")
            return
        for_good = row.status == PLAYING
        if self.armed_delete != row.id:
            self.armed_delete = row.id
            self.say(f"Press Delete again to delete match {row.id} for good." if for_good
                     else f"Press Delete again to remove match {row.id} from your history "
                     "(its replay goes; its result still counts in your statistics and "
                     "rating).")
            return
        self.armed_delete = None
        try:
            self.history.matches.remove_from_history(row.id, self.owner)
        except HistoryError as exc:  # a shared match still in play, or the database
            self.say(f"Match {row.id} is not deleted: {clean(str(exc), 200)}", "error")
            return
        self.load()
        self.say(f"Match {row.id} deleted." if for_good else
                 f"Match {row.id} removed from your history; its result still counts.")

    def action_close(self) -> None:
        self.app.pop_screen()
