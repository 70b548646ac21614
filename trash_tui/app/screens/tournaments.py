"""The Tournaments screen: tournament files to run, a run's progress, past runs' results.

A run is played in a thread worker with one inline worker (nothing forks inside the TUI
process) and ends like ``trash tournament run``: results written next to the games and
stored in the history database. Stopping raises ``KeyboardInterrupt`` from the progress
hook, which ``run_tournament`` turns into a clean "stopped" run with every finished game
kept; running the same file again continues it.

Everything fits the screen down to 80×24 without scrolling it. Below ``WIDE_WIDTH``
columns the screen shows one of two views, ``v`` switching: the files (all of them, the
line under them says the selected one in full) with the buttons and the run's progress,
or the results (the past runs, and the selected run's results in the rest of the screen);
a run that ends shows its results. From ``WIDE_WIDTH`` on, the files are across the top
and the results beside the run's controls. The results are as wide as their tables (their
prose lines wrap), so nothing has to be scrolled sideways; a crosstable's Elo that has no
value (a pairing won or lost every game) reads "n/a", and an unbounded margin "±∞".
"""

from __future__ import annotations

import sqlite3
import textwrap
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Button, DataTable, Log, ProgressBar, Static
from textual.worker import get_current_worker

from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.app.widgets.plain import PlainTable
from trash_tui.games import SHORT_TITLES, TITLES, TRASH
from trash_tui.history import HistoryError, RunRow
from trash_tui.players.rater import open_history
from trash_tui.tournament.config import TournamentConfig, TournamentError, load_tournament
from trash_tui.tournament.results import format_results
from trash_tui.tournament.runner import RunError, RunOutcome, run_tournament
from trash_tui.tournament.schedule import total_games
from trash_tui.tournament.session import record_outcome

# a run's status in the history database, as a mark and a word (never colour alone)
RUN_STATUS = {
    "finished": ("✓ finished", "success"),
    "sprt": ("✓ SPRT", "success"),
    "stopped": ("■ stopped", "warning"),
    "running": ("▶ running", "accent"),
}
FALLBACK_RESULTS_WIDTH = 80
QUICK_FILE = "quick.toml"  # selected at first: a tournament of a few seconds
WIDE_WIDTH = 120  # from here the screen is in two columns and the tables show every column


@dataclass(frozen=True)
class TournamentFile:
    """A tournament file as listed: its loaded configuration, or why it cannot load."""

    path: Path
    config: TournamentConfig | None
    error: str | None = None


def one_line(exc: BaseException) -> str:
    """An exception as one line of text; our own errors are already worded for people."""
    text = " ".join(str(exc).split())
    if isinstance(exc, TournamentError | RunError | HistoryError) and text:
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def list_tournament_files(folder: Path) -> list[TournamentFile]:
    """Every ``*.toml`` in ``folder`` (sorted), loaded; a broken one carries its error."""
    files = []
    for path in sorted(folder.glob("*.toml")):
        try:
            files.append(TournamentFile(path, load_tournament(path)))
        except Exception as exc:  # a broken file is listed with its error, never raised
            files.append(TournamentFile(path, None, one_line(exc).replace(str(path),
                                                                          path.name)))
    return files


def format_text(config: TournamentConfig) -> str:
    """The format column: the game when it is not Trash, round-robin or the gauntlet's
    bot, duplicate, SPRT."""
    text = config.format if config.gauntlet is None else f"gauntlet: {config.gauntlet}"
    if config.game != TRASH:
        text = f"{SHORT_TITLES.get(config.game, config.game)}, {text}"
    if config.duplicate:
        text += ", duplicate"
    if config.stop.kind == "sprt":
        text += ", SPRT"
    return text


def planned_text(config: TournamentConfig) -> str:
    """The games the schedule holds (an upper bound when the SPRT may stop early)."""
    games = total_games(config)
    unit = config.unit if games != 1 else config.unit.removesuffix("es").removesuffix("s")
    return f"{'≤ ' if config.stop.kind == 'sprt' else ''}{games:,} {unit}"


def clock(seconds: float) -> str:
    """Elapsed time as m:ss (h:mm:ss past an hour)."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    if hours:
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return f"{rest // 60}:{rest % 60:02d}"


def games_on_disk(out_dir: Path) -> int:
    """Finished games already in an output folder (what a resumed run starts from)."""
    try:
        with (out_dir / "games.jsonl").open(encoding="utf-8") as handle:
            return sum(1 for line in handle if line.strip())
    except OSError:
        return 0


class TournamentsScreen(Screen[None]):
    """Run tournament files and read the results of past runs; dismissed with None."""

    DEFAULT_CSS = """
    TournamentsScreen { layout: vertical; }
    #tournaments-body { height: 1fr; }
    #tournaments-lower { height: auto; }
    #tournaments-left, #tournaments-right { height: auto; }
    #tournaments-files, #tournaments-runs, #tournaments-results {
        border: round $panel; border-title-color: $text; }
    #tournaments-files:focus, #tournaments-runs:focus, #tournaments-results:focus {
        border: round $accent; }
    #tournaments-results { scrollbar-size-vertical: 1; }
    #tournaments-files { height: auto; }
    #tournaments-detail { height: auto; padding: 0 1; color: $text-muted; }
    #tournaments-buttons { height: auto; padding: 0 1; }
    #tournaments-buttons Button { margin-right: 1; min-width: 10; }
    #tournaments-progress-row { height: auto; padding: 0 1; }
    #tournaments-progress { width: auto; }
    #tournaments-progress Bar { width: 24; }
    #tournaments-rate { width: 1fr; padding-left: 1; }
    #tournaments-status { height: auto; padding: 0 1; }
    #tournaments-runs { height: auto; max-height: 6; }
    #tournaments-results { height: 1fr; min-height: 4; }
    TournamentsScreen.-narrow #tournaments-files { height: 1fr; }
    TournamentsScreen.-narrow #tournaments-right { display: none; }
    TournamentsScreen.-narrow.-results #tournaments-files,
    TournamentsScreen.-narrow.-results #tournaments-left { display: none; }
    TournamentsScreen.-narrow.-results #tournaments-lower { height: 1fr; }
    TournamentsScreen.-narrow.-results #tournaments-right { display: block; height: 1fr; }
    TournamentsScreen.-wide #tournaments-files { max-height: 14; }
    TournamentsScreen.-wide #tournaments-lower { height: 1fr; layout: horizontal; }
    TournamentsScreen.-wide #tournaments-left { width: 1fr; min-width: 40; }
    TournamentsScreen.-wide #tournaments-right { width: 84; height: 100%; }
    TournamentsScreen.-wide #tournaments-runs { height: auto; max-height: 12; }
    TournamentsScreen.-wide #tournaments-results { height: 1fr; }
    """

    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-narrow"), (WIDE_WIDTH, "-wide")]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "run_tournament", "Run", id="run-tournament"),
        Binding("s", "stop_tournament", "Stop", id="stop-tournament"),
        # below WIDE_WIDTH: one view at a time, v switches
        Binding("v", "show_results", "Results", id="tournaments-show-results"),
        Binding("v", "show_files", "Files", id="tournaments-show-files"),
        Binding("escape", "close", "Back", id="close-tournaments"),
    ]

    def __init__(self, tournaments_dir: Path, runs_dir: Path, history_path: Path) -> None:
        super().__init__()
        self.tournaments_dir = tournaments_dir
        self.runs_dir = runs_dir
        self.history_path = history_path
        self.files: dict[str, TournamentFile] = {}
        self.runs: dict[str, RunRow] = {}
        self.running: TournamentFile | None = None
        self.stop_requested = threading.Event()
        self.close_when_stopped = False
        self.shown_run: int | None = None
        self.shown_width = 0
        self.history_error: str | None = None
        self.gone = False

    def compose(self) -> ComposeResult:
        with Vertical(id="tournaments-body"):
            yield PlainTable(id="tournaments-files", cursor_type="row", zebra_stripes=True)
            with Horizontal(id="tournaments-lower"):
                with Vertical(id="tournaments-left"):  # the selected file and its run
                    yield Static(id="tournaments-detail", markup=False)
                    with Horizontal(id="tournaments-buttons"):
                        yield Button("Run", id="tournaments-run", variant="primary",
                                     compact=True)
                        yield Button("Stop", id="tournaments-stop", variant="error",
                                     disabled=True, compact=True)
                        yield Button("Back", id="tournaments-back", compact=True)
                    with Horizontal(id="tournaments-progress-row"):
                        yield ProgressBar(total=1, id="tournaments-progress", show_eta=False)
                        yield Static("not running", id="tournaments-rate", markup=False)
                    yield Static(id="tournaments-status", markup=False)
                with Vertical(id="tournaments-right"):  # the past runs and their results
                    yield PlainTable(id="tournaments-runs", cursor_type="row",
                                    zebra_stripes=True)
                    yield Log(id="tournaments-results", auto_scroll=False)
        yield TrashFooter()

    def on_mount(self) -> None:
        files = self.query_one("#tournaments-files", DataTable)
        files.border_title = Text(f"Tournament files in {self.tournaments_dir}")
        runs = self.query_one("#tournaments-runs", DataTable)
        runs.border_title = "Past runs"
        for column in self.run_columns():
            runs.add_column(column, key=column)
        self.query_one("#tournaments-results", Log).border_title = "Results"
        self.set_status("", "Choose a file and press r (or Run) to play it.")
        self.load_files()
        if str(self.tournaments_dir / QUICK_FILE) in self.files:  # the first one to try
            files.move_cursor(row=files.get_row_index(str(self.tournaments_dir / QUICK_FILE)),
                              animate=False)
        self.load_runs()
        self.update_controls()
        files.focus()

    def on_unmount(self) -> None:
        self.gone = True
        self.stop_requested.set()

    @property
    def narrow(self) -> bool:
        """Below ``WIDE_WIDTH`` columns the tables show what fits, the longest last."""
        return self.app.size.width < WIDE_WIDTH

    def file_columns(self) -> tuple[str, ...]:
        if self.narrow:
            return ("file", "games", "name")
        return ("file", "name", "players", "format", "games")  # (the bots: under them)

    def run_columns(self) -> tuple[str, ...]:
        if self.narrow:
            return ("id", "status", "games", "date", "name")
        return ("id", "name", "status", "games", "date")

    # --- the files -----------------------------------------------------------------------
    def colour(self, variable: str) -> str:
        """A theme colour (for table cells, which take Rich styles)."""
        return self.app.theme_variables.get(variable, "")

    def load_files(self) -> None:
        """The files' table; below ``WIDE_WIDTH`` the name column takes the width the
        others leave (a long name ends in "…", said in full under the table), so the
        table never scrolls sideways."""
        table = self.query_one("#tournaments-files", DataTable)
        before = self.selected_file()
        entries = list_tournament_files(self.tournaments_dir)
        rows = [self.file_cells(entry) for entry in entries]
        table.clear(columns=True)
        columns = self.file_columns()
        widths: dict[str, int | None] = dict.fromkeys(columns)
        if self.narrow:
            needed = {column: max([len(column), *(row[index].cell_len for row in rows)])
                      for index, column in enumerate(columns)}
            # the border, the scroll bar, each column's padding
            room = self.app.size.width - 4 - 2 * len(columns)
            widths["name"] = max(12, room - sum(w for c, w in needed.items() if c != "name"))
            at = columns.index("name")
            for row in rows:
                row[at].truncate(widths["name"], overflow="ellipsis")
        for column in columns:
            table.add_column(column, key=column, width=widths[column])
        self.files = {}
        for entry, cells in zip(entries, rows, strict=True):
            key = str(entry.path)
            self.files[key] = entry
            table.add_row(*cells, key=key)
        if before is not None and str(before.path) in self.files:  # the same one selected
            table.move_cursor(row=table.get_row_index(str(before.path)), animate=False)
        self.show_file_detail()

    def file_cells(self, entry: TournamentFile) -> list[Text]:
        config = entry.config
        if config is None:
            cells = {"name": Text("✗ error", style=f"bold {self.colour('error')}"),
                     "bots": Text(entry.error or "")}
        else:
            cells = {"name": Text(config.name), "players": Text(str(config.players)),
                     "format": Text(format_text(config)), "games": Text(planned_text(config)),
                     "bots": Text(", ".join(config.bot_names))}
        cells["file"] = Text(entry.path.name)
        return [cells.get(column, Text("-")) for column in self.file_columns()]

    def selected_file(self) -> TournamentFile | None:
        table = self.query_one("#tournaments-files", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return self.files.get(key or "")

    @on(DataTable.RowHighlighted, "#tournaments-files")
    def file_highlighted(self) -> None:
        self.show_file_detail()

    def show_file_detail(self) -> None:
        detail = self.query_one("#tournaments-detail", Static)
        entry = self.selected_file()
        if entry is None:
            detail.update(f"No tournament files (*.toml) in {self.tournaments_dir}.")
        elif entry.config is None:
            detail.update(Content.assemble(("✗ error", "bold $error"),
                                           f" in {entry.path.name}: {entry.error}"))
        else:
            config = entry.config
            detail.update(f"{config.name}: {TITLES.get(config.game, config.game)}, "
                          f"{planned_text(config)}, {config.players}-player "
                          f"tables, {format_text(config)}; bots: {', '.join(config.bot_names)}"
                          f"; results in {self.runs_dir / entry.path.stem}")

    # --- running -------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Run while idle, Stop while a run is going (shown dimmed otherwise); below
        ``WIDE_WIDTH``, v shows the view that is not shown."""
        if action in ("show_results", "show_files"):
            return self.narrow and self.has_class("-results") == (action == "show_files")
        if action == "run_tournament":
            return True if self.running is None else None
        if action == "stop_tournament":
            return True if self.running is not None and not self.stop_requested.is_set() \
                else None
        return True

    # --- the two views below WIDE_WIDTH ---------------------------------------------------
    def action_show_results(self) -> None:
        """The past runs and the selected run's results, in the whole screen."""
        self.add_class("-results")
        self.query_one("#tournaments-results", Log).focus()
        self.refresh_bindings()
        self.call_after_refresh(self.fit_results)

    def action_show_files(self) -> None:
        """The files, the selected one's run and its progress."""
        self.remove_class("-results")
        self.query_one("#tournaments-files", DataTable).focus()
        self.refresh_bindings()

    def update_controls(self) -> None:
        self.query_one("#tournaments-run", Button).disabled = self.running is not None
        self.query_one("#tournaments-stop", Button).disabled = (
            self.running is None or self.stop_requested.is_set())
        self.refresh_bindings()

    def set_status(self, mark: str, text: str, variable: str = "") -> None:
        """The run's state line: a mark and words (the colour only repeats them)."""
        parts: list[tuple[str, str] | str] = []
        if mark:
            parts.append((mark + " ", f"bold ${variable}" if variable else "bold"))
        parts.append(text)
        self.query_one("#tournaments-status", Static).update(Content.assemble(*parts))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"tournaments-run": self.action_run_tournament,
                   "tournaments-stop": self.action_stop_tournament,
                   "tournaments-back": self.action_close}
        action = actions.get(event.button.id or "")
        if action is not None:
            action()

    def action_run_tournament(self) -> None:
        if self.running is not None:
            self.notify("A tournament is already running; press s to stop it.",
                        severity="warning", markup=False)
            return
        entry = self.selected_file()
        if entry is None:
            self.set_status("✗", f"No tournament file to run in {self.tournaments_dir}.",
                            "error")
            return
        if entry.config is None:
            self.set_status("✗", f"Cannot run {entry.path.name}: {entry.error}", "error")
            return
        out_dir = self.runs_dir / entry.path.stem
        self.running = entry
        self.stop_requested.clear()
        self.close_when_stopped = False
        self.query_one("#tournaments-progress", ProgressBar).update(
            total=total_games(entry.config), progress=0)
        self.query_one("#tournaments-rate", Static).update("starting…")
        self.set_status("▶", f"Running {entry.config.name} into {out_dir}; press s to stop "
                             "(finished games are kept).", "accent")
        self.update_controls()
        self.run_worker(partial(self.play, self.app, entry.path, out_dir), thread=True,
                        exclusive=True, group="tournament", exit_on_error=False,
                        name=f"tournament {entry.path.name}")

    def play(self, app: App[Any], path: Path, out_dir: Path) -> None:
        """The worker thread: load, run, record; the outcome goes back to the screen."""
        worker = get_current_worker()
        resumed = games_on_disk(out_dir)

        def progress(done: int, planned: int, elapsed: float,
                     games: dict[int, dict[str, Any]]) -> None:
            if (self.stop_requested.is_set() or worker.is_cancelled) and done < planned:
                raise KeyboardInterrupt  # run_tournament stops cleanly, games kept
            self.to_screen(app, self.show_progress, done, planned, elapsed, done - resumed)

        try:
            config = load_tournament(path)
            with open_history(self.history_path) as history:
                outcome = run_tournament(config, out_dir, workers=1, executor="process",
                                         history=history, progress=progress)
                results = record_outcome(outcome, history)
        except Exception as exc:  # shown as one line, never as a traceback
            self.to_screen(app, self.run_failed, one_line(exc))
            return
        self.to_screen(app, self.run_ended, outcome, results)

    @staticmethod
    def to_screen(app: App[Any], callback: Callable[..., None], *args: Any) -> None:
        """Call back into the UI thread; nothing to do once the app has closed."""
        with suppress(RuntimeError):
            app.call_from_thread(callback, *args)

    def show_progress(self, done: int, planned: int, elapsed: float, played_now: int) -> None:
        if self.gone:
            return
        self.query_one("#tournaments-progress", ProgressBar).update(total=planned,
                                                                    progress=done)
        rate = played_now / elapsed if elapsed > 0 else 0.0
        self.query_one("#tournaments-rate", Static).update(
            f"{done:,}/{planned:,} games · {rate:.1f} games/s · {clock(elapsed)}")

    def run_ended(self, outcome: RunOutcome, results: dict[str, Any]) -> None:
        self.running = None
        if self.gone:
            return
        kept, planned = len(outcome.games), outcome.planned
        self.query_one("#tournaments-progress", ProgressBar).update(total=planned,
                                                                    progress=kept)
        rate = outcome.played_now / outcome.elapsed if outcome.elapsed > 0 else 0.0
        self.query_one("#tournaments-rate", Static).update(
            f"{kept:,}/{planned:,} games · {outcome.played_now:,} played now · "
            f"{rate:.1f} games/s · {clock(outcome.elapsed)}")
        where = f"results in {outcome.out_dir}"
        if outcome.status == "stopped":
            self.set_status("■", f"Stopped: {kept:,} of {planned:,} games kept; press r to "
                                 f"continue. {where}", "warning")
        elif outcome.status == "sprt":
            decision = (results.get("sprt") or {}).get("decision") or "no decision"
            self.set_status("✓", f"Stopped by the SPRT after {kept:,} games ({decision}); "
                                 f"{where}", "success")
        elif outcome.played_now == 0:
            self.set_status("✓", f"Already finished: {kept:,} games, nothing left to play; "
                                 f"{where}", "success")
        else:
            self.set_status("✓", f"Finished: {kept:,} games; {where}", "success")
        self.load_runs(select=outcome.run_id)
        if self.narrow and not self.close_when_stopped:  # what it came to: the results
            self.action_show_results()
        self.after_run()

    def run_failed(self, message: str) -> None:
        self.running = None
        if self.gone:
            return
        self.query_one("#tournaments-rate", Static).update("not running")
        self.set_status("✗", f"Run failed: {message}", "error")
        self.load_runs()
        self.after_run()

    def after_run(self) -> None:
        self.update_controls()
        if self.close_when_stopped and self.app.screen is self:
            self.dismiss()

    def action_stop_tournament(self) -> None:
        if self.running is None:
            self.notify("No tournament is running.", markup=False)
            return
        if self.stop_requested.is_set():
            return
        self.stop_requested.set()
        self.set_status("■", "Stopping after the games in play; finished games are kept.",
                        "warning")
        self.update_controls()

    def action_close(self) -> None:
        if self.running is None:
            self.dismiss()
            return
        self.close_when_stopped = True
        self.stop_requested.set()
        self.set_status("■", "Stopping the run before leaving: the games in play finish "
                             "first.", "warning")
        self.update_controls()

    # --- past runs -----------------------------------------------------------------------
    def load_runs(self, select: int | None = None) -> None:
        """The runs table from the history database, keeping (or moving to) a run."""
        table = self.query_one("#tournaments-runs", DataTable)
        try:
            with open_history(self.history_path) as history:
                rows = history.tournaments.runs()
        except (HistoryError, sqlite3.Error) as exc:
            self.history_error = one_line(exc)
            self.runs = {}
            table.clear()
            self.show_run()
            return
        self.history_error = None
        table.clear()
        self.runs = {str(row.id): row for row in rows}
        for row in rows:
            word, variable = RUN_STATUS.get(row.status, (row.status, "foreground"))
            cells = {"id": Text(str(row.id)), "name": Text(row.name),
                     "status": Text(word, style=self.colour(variable)),
                     "games": Text(f"{row.games:,}"),
                     "date": Text(time.strftime("%Y-%m-%d %H:%M",
                                                time.localtime(row.started)))}
            table.add_row(*[cells[column] for column in self.run_columns()],
                          key=str(row.id))
        target = select if select is not None else self.shown_run
        if target is not None and str(target) in self.runs:
            table.move_cursor(row=table.get_row_index(str(target)), animate=False)
        self.show_run()

    @on(DataTable.RowHighlighted, "#tournaments-runs")
    def run_highlighted(self) -> None:
        self.show_run()

    def selected_run(self) -> RunRow | None:
        table = self.query_one("#tournaments-runs", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return self.runs.get(key or "")

    def results_width(self) -> int:
        width = self.query_one("#tournaments-results", Log).scrollable_content_region.width
        return width if width >= 20 else FALLBACK_RESULTS_WIDTH

    def show_run(self) -> None:
        """The selected run's results (standings, chart, crosstable) in the results log."""
        row = self.selected_run()
        self.shown_width = self.results_width()
        if row is None:
            self.shown_run = None
            self.write_results([f"✗ error: cannot read the history database: "
                                f"{self.history_error}" if self.history_error else
                                "No tournament runs yet: choose a file and press r."])
            return
        self.shown_run = row.id
        if row.results is None:
            word = RUN_STATUS.get(row.status, (row.status, ""))[0]
            self.write_results([f"Run {row.id} ({row.name}) has no results yet: "
                                f"{row.games:,} games stored, {word}.",
                                "Run its file again to continue it."])
            return
        self.write_results(format_results(row.results, self.shown_width).splitlines())

    def write_results(self, lines: list[str]) -> None:
        """The results in the log: a line of prose wider than the log is wrapped; a line of
        a table (columns: runs of spaces) is kept whole (the log is as wide as the
        tables)."""
        log = self.query_one("#tournaments-results", Log)
        width = self.results_width()
        shown: list[str] = []
        for line in lines:
            if len(line) > width and "  " not in line.strip():
                shown.extend(textwrap.wrap(line, width, subsequent_indent="  "))
            else:
                shown.append(line)
        log.clear()
        log.write_lines(shown)
        log.scroll_home(animate=False)

    def on_resize(self, event: Resize) -> None:
        files = self.query_one("#tournaments-files", DataTable)
        if tuple(str(key.value) for key in files.columns) != self.file_columns():
            runs = self.query_one("#tournaments-runs", DataTable)
            runs.clear(columns=True)
            for column in self.run_columns():
                runs.add_column(column, key=column)
            self.load_files()
            self.load_runs()
        elif self.narrow:  # the name column follows the width
            self.load_files()
        self.call_after_refresh(self.fit_results)

    def fit_results(self) -> None:
        """Redraw the results when the log's width changed (the chart follows it)."""
        if not self.gone and self.results_width() != self.shown_width:
            self.show_run()
