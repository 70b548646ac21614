"""The leaderboard: over SSH the server's players ranked by rating, at home your rating
beside the bot levels'.

Each line gives the rank, the name (the one the player chose, cleaned; never a key), the
rating (``?`` while provisional) with its 95% margin, the rated matches and when the
player was last seen; everyone is ranked by rating, provisional or not, as the line under
the board says (``RANKING``). Your own line is marked ``▶`` and selected; when you are not in the
top lines it is added under them with your rank. ``g`` shows the other game, ``p`` your
statistics.
"""

from __future__ import annotations

import time
from typing import ClassVar

from rich.cells import cell_len
from rich.console import JustifyMethod
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Label, Static

from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.app.widgets.plain import PlainTable
from trash_tui.games import GAMES, TITLES, TRASH
from trash_tui.history import History, HistoryError
from trash_tui.players.anchors import load_anchors, tied_levels
from trash_tui.players.board import RANKING, BoardEntry, Leaderboard, leaderboard
from trash_tui.players.model import as_strong, nearest_level
from trash_tui.players.rating import PROVISIONAL_MATCHES

TOP = 50  # lines of the server's board


def _cell(text: str, you: bool = False, justify: JustifyMethod = "left") -> Text:
    """A table cell as it is (a name is never read as markup); bold on your own line."""
    return Text(text, no_wrap=True, end="", style="bold" if you else "",
                justify=justify)


def board_note(board: Leaderboard, game: str, remote: bool) -> str:
    """The line under the board: your rating and the nearest bot, or how to get rated."""
    you = board.you
    if you is None:
        return ("You are not rated in this game yet: finish a match against the bots"
                + (" or at a shared table." if remote else "."))
    matches = f"{you.matches} rated match{'es' if you.matches != 1 else ''}"
    if you.matches < PROVISIONAL_MATCHES:
        matches += f", provisional until {PROVISIONAL_MATCHES}"
    anchors = load_anchors().get(game, {})
    nearest = nearest_level(you.rating, anchors, prefer=tied_levels(game))
    same = as_strong(nearest, anchors) if nearest else []
    bot = (f" · nearest bot: {nearest}" + (f" (as strong: {', '.join(same)})" if same else "")
           if nearest else "")
    return f"You: #{you.rank} of {board.total}, {you.shown} ± {you.rating.margin} ({matches}){bot}"


class LeaderboardScreen(Screen[None]):
    """The ranking of a game's players (over SSH) or of you and the bots (at home)."""

    DEFAULT_CSS = """
    LeaderboardScreen { layout: vertical; }
    #board-title { text-style: bold; padding: 0 1; }
    #board-table { height: 1fr; }
    #board-note { height: auto; padding: 0 1; background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("g", "other_game", "Other game", id="board-other-game"),
        Binding("p", "statistics", "Your statistics", id="board-statistics"),
        Binding("escape", "close", "Lobby", id="close-board"),
    ]

    def __init__(self, history: History, owner: str, remote: bool, your_name: str,
                 game: str = TRASH) -> None:
        super().__init__()
        self.history = history
        self.owner = owner
        self.remote = remote
        self.your_name = your_name
        self.game = game
        self.board: Leaderboard | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("", id="board-title", markup=False)
            yield PlainTable(id="board-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="board-note", markup=False)
        yield TrashFooter()

    def on_mount(self) -> None:
        self.load()

    def on_screen_resume(self) -> None:
        self.load()

    def on_resize(self) -> None:
        if self.remote:
            self.load()  # as many top lines as fit

    def load(self) -> None:
        """(Re)read the board of ``self.game``."""
        who = "the players of this server" if self.remote else "you and the bots"
        self.query_one("#board-title", Label).update(
            f"Leaderboard · {TITLES[self.game]} · {who}")
        # over SSH the top lines that fit, then your line if you are below them
        top = max(5, min(TOP, self.app.size.height - 9)) if self.remote else 100
        try:
            self.board = leaderboard(self.history, self.game, self.owner, bots=not self.remote,
                                     players=self.remote, top=top, your_name=self.your_name)
        except HistoryError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        table = self.query_one(DataTable)
        table.clear(columns=True)
        entries = list(self.board.entries)
        you = self.board.you
        if you is not None and you not in entries:  # below the top: shown under it
            entries.append(you)
        name_width = max([12, *(cell_len(entry.name) for entry in entries)])
        columns = [("#", 5), ("Player", name_width), ("Rating", 6), ("±", 4),
                   ("Matches", 7)] + ([("Last seen", 10)] if self.remote else [])
        for column, width in columns:
            table.add_column(column, key=column, width=width)
        for position, entry in enumerate(self.board.entries):  # (tied lines share a rank)
            table.add_row(*self.cells(entry), key="you" if entry.you else f"line-{position}")
        if you is not None and you not in self.board.entries:  # below the top: under it
            table.add_row(*[_cell("…")] * len(columns), key="gap")
            table.add_row(*self.cells(you), key="you")
        if you is not None:
            table.move_cursor(row=table.get_row_index("you"), animate=False)
        self.query_one("#board-note", Static).update(
            Text(f"{board_note(self.board, self.game, self.remote)}\n{RANKING}"))

    def cells(self, entry: BoardEntry) -> list[Text]:
        you = entry.you
        row = [_cell(f"{'▶ ' if you else ''}{entry.rank}", you, "right"),
               _cell(entry.name, you), _cell(entry.shown, you, "right"),
               _cell(f"{entry.rating.margin}", you, "right"),
               _cell("bot" if entry.bot else f"{entry.matches}", you, "right")]
        if self.remote:
            seen = "" if entry.last_seen is None else time.strftime(
                "%Y-%m-%d", time.localtime(entry.last_seen))
            row.append(_cell(seen, you))
        return row

    def action_other_game(self) -> None:
        self.game = GAMES[(GAMES.index(self.game) + 1) % len(GAMES)]
        self.load()

    def action_statistics(self) -> None:
        from trash_tui.app.players.stats_screen import StatsScreen

        self.app.push_screen(StatsScreen(self.history, self.owner, self.your_name, self.game))

    def action_close(self) -> None:
        self.dismiss()
