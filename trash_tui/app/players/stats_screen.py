"""Your statistics: how you do in a game, and your rating over time as a chart.

At the top left the summary (rating, matches and wins with a 95% interval, the nearest
bot level, mean place at 3+ players, deals per match, best streak, how often you moved
first), at the top right the chart of your rating after each rated match (plotext, in the
terminal), and under them the win rates by opponents and by rules preset. ``g`` shows the
other game.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Label, Static
from textual_plotext import PlotextPlot

from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.app.widgets.plain import PlainTable
from trash_tui.games import GAMES, TITLES, TRASH
from trash_tui.history import History, HistoryError
from trash_tui.players.rating import DEFAULT_MU, display
from trash_tui.players.stats import PlayerStats, WinRate, player_stats
from trash_tui.text import clean


def whole_ticks(low: int, high: int, most: int = 5) -> list[int]:
    """At most ``most`` round whole numbers from ``low`` to ``high`` for a chart's axis
    (1, 2 or 5 times a power of ten apart), never a decimal such as 1597.7."""
    step, power = 1, 1
    while True:
        for factor in (1, 2, 5):
            step = factor * power
            ticks = list(range(-(-low // step) * step, high + 1, step))
            if len(ticks) <= most:
                return ticks or [low]
        power *= 10


def percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def rate_cells(rate: WinRate) -> list[str]:
    low, high = rate.interval
    return [f"{rate.matches}", f"{rate.wins}", percent(rate.rate),
            f"{percent(low)}–{percent(high)}"]


def summary_lines(stats: PlayerStats) -> list[str]:
    """The summary, one fact a line (short enough for 38 columns)."""
    overall = stats.overall
    rating = stats.shown_rating
    if stats.rating is not None:
        rating += f" ± {stats.rating.margin}"
    lines = [f"Rating      {rating}"]
    if stats.rating is not None:
        lines.append(f"            after {stats.rated_matches} rated match"
                     f"{'es' if stats.rated_matches != 1 else ''}")
    lines.append(f"Matches     {overall.matches}" +
                 (f" ({stats.given_up} given up)" if stats.given_up else ""))
    if overall.matches:
        low, high = overall.interval
        lines.append(f"Won         {overall.wins} · {percent(overall.rate)} "
                     f"({percent(low)}–{percent(high)})")
    if stats.nearest_bot:
        lines.append(f"Nearest bot {stats.nearest_bot}")
    if stats.mean_place is not None:
        lines.append(f"Mean place  {stats.mean_place:.2f} at 3+ players")
    if stats.deals_per_match is not None:  # the dice game: rolls, as its end box counts
        lines.append(f"Deals/match {stats.deals_per_match:.1f}" if stats.game == TRASH
                     else f"Rolls/game  {stats.deals_per_match:.0f}")
    lines.append(f"Best streak {stats.best_streak} win{'s' if stats.best_streak != 1 else ''}")
    if stats.first_share is not None and stats.first_wins is not None:
        lines.append(f"Moved first {percent(stats.first_share)} of matches, "
                     f"won {percent(stats.first_wins.rate)}")
    return lines


class StatsScreen(Screen[None]):
    """One player's statistics in one game, with the chart of their rating."""

    DEFAULT_CSS = """
    StatsScreen { layout: vertical; }
    #stats-title { text-style: bold; padding: 0 1; }
    #stats-top { height: 12; }
    #stats-summary { width: 40; padding: 0 1; }
    #stats-chart { width: 1fr; }
    #stats-table { height: 1fr; }
    StatsScreen.-tall #stats-top { height: 2fr; }
    StatsScreen.-tall #stats-table { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("g", "other_game", "Other game", id="stats-other-game"),
        Binding("escape", "close", "Back", id="close-stats"),
    ]

    def __init__(self, history: History, identity: str, name: str, game: str = TRASH) -> None:
        super().__init__()
        self.history = history
        self.identity = identity
        self.player_name = clean(name, 32)
        self.game = game
        self.stats: PlayerStats | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("", id="stats-title", markup=False)
            with Horizontal(id="stats-top"):
                yield Static("", id="stats-summary", markup=False)
                yield PlotextPlot(id="stats-chart")
            yield PlainTable(id="stats-table", cursor_type="row", zebra_stripes=True)
        yield TrashFooter()

    def on_mount(self) -> None:
        self.load()

    def on_resize(self) -> None:
        self.set_class(self.app.size.height >= 36, "-tall")

    def load(self) -> None:
        self.set_class(self.app.size.height >= 36, "-tall")
        self.query_one("#stats-title", Label).update(
            Text(f"Statistics of {self.player_name} · {TITLES[self.game]}"))
        try:
            stats = self.stats = player_stats(self.history, self.identity, self.game,
                                              self.player_name)
        except HistoryError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.query_one("#stats-summary", Static).update(Text("\n".join(summary_lines(stats))))
        self.draw_chart(stats)
        table = self.query_one(DataTable)
        table.clear(columns=True)
        for column in ("By", "Matches", "Won", "Rate", "95% interval"):
            table.add_column(column, key=column)
        for title, rates in (("opponents", stats.by_opponents), ("rules", stats.by_rules)):
            for rate in rates:
                table.add_row(Text(f"{title}: {clean(rate.label, 30)}", no_wrap=True),
                              *[Text(c, justify="right") for c in rate_cells(rate)])

    def draw_chart(self, stats: PlayerStats) -> None:
        plot = self.query_one(PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        if not stats.history:
            plt.title("Your rating: no rated match yet")
        else:  # from the start (a new player's rating) to after the last rated match
            count = len(stats.history)
            plt.plot(list(range(count + 1)),
                     [display(DEFAULT_MU)] + [rating.shown for _m, _t, rating in stats.history],
                     marker="braille")
            step = max(1, -(-count // 5))
            plt.xticks(list(range(0, count + 1, step)))
            shown = [display(DEFAULT_MU)] + [rating.shown for _m, _t, rating in stats.history]
            plt.yticks(whole_ticks(min(shown), max(shown)))  # ratings are whole numbers
            plt.title("Your rating after each rated match")
            plt.xlabel("rated matches")
        plot.refresh()

    def action_other_game(self) -> None:
        self.game = GAMES[(GAMES.index(self.game) + 1) % len(GAMES)]
        self.load()

    def action_close(self) -> None:
        self.dismiss()
