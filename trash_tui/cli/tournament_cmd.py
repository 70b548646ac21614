"""``trash tournament``: run bot tournaments from TOML files and show their results."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from trash_tui.history import History, HistoryError
from trash_tui.tournament.config import TournamentError, load_tournament
from trash_tui.tournament.results import format_results
from trash_tui.tournament.runner import RunError, run_tournament
from trash_tui.tournament.session import record_outcome


class Progress:
    """Progress on stderr: a live bar on a terminal, a plain line every few seconds else."""

    def __init__(self, names: list[str], planned: int) -> None:
        self.names = names
        self.live = sys.stderr.isatty()
        self.last = 0.0
        self.bar: Any = None
        if self.live:  # rich is imported only when there is a terminal to draw on
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as Bar

            self.bar = Bar(TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
                           TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                           TextColumn("{task.fields[leader]}"), transient=True,
                           console=Console(stderr=True))
            self.task = self.bar.add_task("games", total=planned, rate="", leader="")
            self.bar.start()

    def leader(self, games: dict[int, dict[str, Any]]) -> str:
        wins = [0.0] * len(self.names)
        played = [0] * len(self.names)
        for game in games.values():
            for seat, bot in enumerate(game["seats"]):
                played[bot] += 1
                wins[bot] += 1.0 if game["places"][seat] == 1 else 0.0
        rates = [w / p if p else 0.0 for w, p in zip(wins, played, strict=True)]
        best = max(range(len(rates)), key=rates.__getitem__)
        return f"leader {self.names[best]} {100 * rates[best]:.1f}%"

    def __call__(self, done: int, planned: int, elapsed: float,
                 games: dict[int, dict[str, Any]]) -> None:
        now = time.monotonic()
        if self.bar is not None:
            if now - self.last < 0.2 and done < planned:
                return
            self.last = now
            rate = f"{done / elapsed:.1f} games/s" if elapsed > 0 else ""
            self.bar.update(self.task, total=planned, completed=done, rate=rate,
                            leader=self.leader(games))
            return
        if now - self.last >= 5 or done == planned:
            self.last = now
            rate = done / elapsed if elapsed > 0 else 0.0
            click.echo(f"{done}/{planned} games, {rate:.1f} games/s, {self.leader(games)}",
                       err=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@click.group("tournament")
def tournament_group() -> None:
    """Run round-robin or gauntlet tournaments between bots, and show results."""


@tournament_group.command("run")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--workers", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes (or local Dask workers) playing games at once; with --scheduler, "
                   "how many games the cluster plays at once (it sizes the batches).")
@click.option("--executor", type=click.Choice(["process", "dask"]), default="process",
              show_default=True, help="A local process pool, or a Dask cluster.")
@click.option("--scheduler", metavar="ADDRESS", help="Dask scheduler address (default: start "
              "a local cluster).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Output folder (default: runs/<file name>).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run (running the same "
              "file into the same folder does so too); fails if there is nothing to resume.")
@click.option("--history", "history_path", type=click.Path(dir_okay=False, path_type=Path),
              help="History database (default: the user data folder, or $TRASH_TUI_HISTORY).")
@click.option("--records", is_flag=True, help="Also write every game's replayable record to "
              "records.jsonl in the output folder (see trash replay).")
def run_command(file: str, workers: int, executor: str, scheduler: str | None,
                out_dir: Path | None, resume: bool, history_path: Path | None,
                records: bool) -> None:
    """Run (or continue) the tournament FILE and print its results."""
    config = load_tournament(file)
    out = out_dir or Path("runs") / Path(file).stem
    if resume and not (out / "games.jsonl").exists():
        raise click.ClickException(f"--resume: nothing to resume in {out}")
    history = History(history_path)
    progress = Progress(list(config.bot_names), 0)
    try:
        outcome = run_tournament(config, out, workers=workers, executor=executor,
                                 scheduler=scheduler, history=history, progress=progress,
                                 records=records)
    finally:
        progress.close()
    results = record_outcome(outcome, history)
    history.close()
    click.echo(format_results(results, 100 if sys.stdout.isatty() else 80))
    rate = outcome.played_now / outcome.elapsed if outcome.elapsed > 0 else 0.0
    where = (f"the Dask cluster at {scheduler}" if scheduler else
             f"{workers} {executor} worker{'s' if workers > 1 else ''}")
    click.echo(f"\n{outcome.played_now} games played now in {outcome.elapsed:.1f} s "
               f"({rate:.1f} games/s, {where}); results in {out}/results.json and "
               "results.csv")
    if outcome.status == "stopped":
        click.echo(f"stopped: {len(outcome.games)} of {outcome.planned} games kept; run the "
                   "same command again to continue", err=True)
        sys.exit(130)


@tournament_group.command("show")
@click.argument("run")
@click.option("--history", "history_path", type=click.Path(dir_okay=False, path_type=Path),
              help="History database (default: the user data folder, or $TRASH_TUI_HISTORY).")
def show_command(run: str, history_path: Path | None) -> None:
    """Print the results of a past run (an id, a tournament name or an output folder)."""
    with History(history_path) as history:
        row = history.find_run(run)
    if row.results is None:
        raise click.ClickException(f"run {row.id} ({row.name}) has no results yet; it has "
                                   f"{row.games} games stored")
    click.echo(format_results(row.results))


@tournament_group.command("list")
@click.option("--history", "history_path", type=click.Path(dir_okay=False, path_type=Path))
def list_command(history_path: Path | None) -> None:
    """List past runs from the history database."""
    with History(history_path) as history:
        runs = history.runs()
    if not runs:
        click.echo("no tournament runs yet")
    for row in runs:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.started))
        click.echo(f"{row.id:>4}  {when}  {row.name:<24} {row.games:>7} games  {row.status:<9} "
                   f"{row.out_dir}")


__all__ = ["HistoryError", "RunError", "TournamentError", "tournament_group"]
