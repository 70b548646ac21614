"""``trash tournament``: run bot tournaments from TOML files and show their results.

Runs go to ``runs/<file name>/`` beside the history database (the user data folder), where
the app's Tournaments screen keeps them too; ``--out`` puts one elsewhere. The folder is
said on stderr when a run starts. Every name or path from a tournament file, a bot or the
history database is printed with its control characters removed or escaped.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from bots.base import BotError
from bots.cgroups import missing as group_missing
from bots.external import DEFAULT_GAME_LIMIT, DEFAULT_MOVE_LIMIT, is_external, read_external_spec
from bots.sandbox import problem as sandbox_problem
from bots.sandbox import protections as sandbox_protections
from bots.sandbox import view
from trash_tui.history import HistoryError, default_history_path
from trash_tui.players.rater import open_history
from trash_tui.text import clean, is_unsafe, visible
from trash_tui.tournament.config import TournamentConfig, TournamentError, load_tournament
from trash_tui.tournament.play import bot_specs
from trash_tui.tournament.results import format_results
from trash_tui.tournament.runner import Kept, RunError, hidden_paths, run_tournament
from trash_tui.tournament.schedule import (
    games_per_board,
    pairing_count,
    seating_lines,
    total_games,
)
from trash_tui.tournament.session import record_outcome, runs_folder


class Progress:
    """Progress on stderr: a live bar on a terminal, a plain line every few seconds else."""

    def __init__(self, names: list[str], planned: int) -> None:
        self.names = [clean(name, 40) for name in names]
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
                           TextColumn("{task.fields[leader]}", markup=False), transient=True,
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
              help="Output folder (default: runs/<file name> in the folder of the history "
                   "database, the user data folder, as the app does).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run (running the same "
              "file into the same folder does so too); fails if there is nothing to resume.")
@click.option("--history", "history_path", type=click.Path(dir_okay=False, path_type=Path),
              help="History database (default: the user data folder, or $TRASH_TUI_HISTORY).")
@click.option("--records", is_flag=True, help="Also write every game's replayable record to "
              "records.jsonl in the output folder (see trash replay).")
@click.option("--fresh", is_flag=True, help="Start a new run instead of continuing the one "
              "kept in the output folder or the history database (the earlier run is kept: "
              "its folder is moved to OUT.old-N, its games stay in the database).")
def run_command(file: str, workers: int, executor: str, scheduler: str | None,
                out_dir: Path | None, resume: bool, history_path: Path | None,
                records: bool, fresh: bool) -> None:
    """Run (or continue) the tournament FILE and print its results."""
    config = load_tournament(file)
    history_file = history_path or default_history_path()
    out = out_dir or default_out(file, history_file)
    if resume and fresh:
        raise click.ClickException("--resume and --fresh: choose one (continue the kept run, "
                                   "or start a new one)")
    if resume and not (out / "games.jsonl").exists():
        raise click.ClickException(f"--resume: nothing to resume in {visible(out)}")
    for line in sandbox_lines(config):
        if line.startswith("warning:"):
            click.echo(line, err=True)
    history = open_history(history_file)
    progress = Progress(list(config.bot_names), 0)

    def say_start(folder: Path, kept: int, planned: int, origin: Kept) -> None:
        click.echo(start_line(config, folder, kept, planned, origin), err=True)

    try:
        outcome = run_tournament(config, out, workers=workers, executor=executor,
                                 scheduler=scheduler, history=history, progress=progress,
                                 records=records, started_hook=say_start, fresh=fresh)
    finally:
        progress.close()
    results = record_outcome(outcome, history)
    history.close()
    click.echo(format_results(results, 100 if sys.stdout.isatty() else 80))
    rate = outcome.played_now / outcome.elapsed if outcome.elapsed > 0 else 0.0
    where = (f"the Dask cluster at {scheduler}" if scheduler else
             f"{workers} {executor} worker{'s' if workers > 1 else ''}")
    click.echo(f"\n{outcome.played_now} games played now in {outcome.elapsed:.1f} s "
               f"({rate:.1f} games/s, {visible(where)}); results in "
               f"{visible(out / 'results.json')} and results.csv")
    if outcome.status == "stopped":
        click.echo(f"stopped: {len(outcome.games)} of {outcome.planned} games kept; run the "
                   "same command again to continue", err=True)
        sys.exit(130)


def start_line(config: TournamentConfig, folder: Path, kept: int, planned: int,
               origin: Kept) -> str:
    """What a run starts from: a new run, or how many games are kept and from where."""
    games = f"{planned:,} game{'s' if planned != 1 else ''}"
    name = clean(config.name, 80)
    if origin.fresh:
        moved = (f" (the earlier run's folder is now {visible(origin.moved)})"
                 if origin.moved else "")
        return f"{name}: a new run of {games} (--fresh){moved}; output folder {visible(folder)}"
    if not kept:
        return f"{name}: {games}; output folder {visible(folder)}"
    sources = []
    if origin.from_folder:
        sources.append(f"{origin.from_folder:,} from {visible(folder / 'games.jsonl')}")
    if origin.from_history:
        sources.append(f"{origin.from_history:,} from the history database at "
                       f"{visible(origin.history)}")
    whence = (" and ".join(sources) if len(sources) > 1 else
              "from " + sources[0].split(" from ", 1)[1]) if sources else ""
    return (f"{name}: {kept:,} of {games} already played, {whence}; --fresh starts a new run; "
            f"output folder {visible(folder)}")


def default_out(file: str, history_file: Path) -> Path:
    """A run's folder when ``--out`` is not given: ``runs/<file name>`` beside the history
    database, where the app puts the runs it starts."""
    return runs_folder(history_file) / Path(file).stem


@tournament_group.command("check")
@click.argument("file", type=click.Path(dir_okay=False))
def check_command(file: str) -> None:
    """Check the tournament FILE without playing: what it would play, or its first
    problem (one line, exit code 2)."""
    config = load_tournament(file)
    history_file = default_history_path()
    click.echo(describe(config, hidden_paths(default_out(file, history_file), history_file)))


def describe(config: TournamentConfig, hidden: Sequence[str] = ()) -> str:
    """What a valid tournament file would play, in a few lines (``hidden``: what a run
    hides from the sandboxed bots besides the file, for the lines saying what they read)."""
    pairings, per_board = pairing_count(config), games_per_board(config)
    unit = "match" if config.unit == "matches" else "deal"
    lines = [
        f"{clean(config.name, 80)}: {config.game}, {config.players}-player tables, "
        f"{config.format}{', duplicate' if config.duplicate else ''}",
        f"{total_games(config):,} games: {pairings:,} pairings x {config.games:,} boards"
        f" x {per_board} game{'s' if per_board > 1 else ''} (one {unit} each)"
        + (" at most; the SPRT may stop earlier" if config.stop.kind == "sprt" else ""),
        "bots: " + ", ".join(clean(name, 40) for name in config.bot_names),
    ]
    if config.time_limit is not None:
        lines.append(f"time limit: {config.time_limit:g} s per decision")
    lines += limit_lines(config)
    lines += seating_lines(config)
    lines += sandbox_lines(config, hidden)
    return "\n".join(lines)


def limit_lines(config: TournamentConfig) -> list[str]:
    """The wall-clock limits of each bot process: its move and game limits (its own
    ``move_limit`` and ``game_limit``, or the defaults), with ``time_limit`` if shorter."""
    lines = []
    for bot in config.bots:
        if not is_external(bot.spec):
            continue
        move = float(bot.spec.get("move_limit", DEFAULT_MOVE_LIMIT))
        game = float(bot.spec.get("game_limit", DEFAULT_GAME_LIMIT))
        said = "move_limit" if "move_limit" in bot.spec else "default"
        if config.time_limit is not None and config.time_limit < move:
            move, said = config.time_limit, "time_limit"
        game_said = "game_limit" if "game_limit" in bot.spec else "default"
        lines.append(f"limits of bot {clean(bot.name, 40)}: {move:g} s a move ({said}), "
                     f"{game:g} s of answers a game ({game_said}), wall clock; then it "
                     "forfeits" + ("; with its sandbox, a fresh process each game"
                                   if bot.spec.get("sandbox") else ""))
        lines += _resource_line(bot.name, bot.spec)
    return lines


def _resource_line(name: str, spec: dict[str, Any]) -> list[str]:
    """What a bot process may use: CPU and memory (for its processes together where its
    sandbox has a cgroup, else for each process) and, sandboxed, processes, files, /tmp."""
    try:
        _label, launch, _restart, _params = read_external_spec(spec)
    except BotError:
        return []
    limits, sandbox = launch.limits, launch.sandbox
    said = {key: key if key in spec else "default" for key in ("cpu_limit", "memory_limit")}
    whose = ("its processes together" if sandbox is not None and not group_missing()
             else "each of its processes")
    line = (f"resources of bot {clean(name, 40)}: {limits.cpu_seconds:g} s of CPU "
            f"({said['cpu_limit']}) and {limits.memory_mb} MiB ({said['memory_limit']}) for "
            f"{whose}")
    if sandbox is not None:
        line += (f"; {sandbox.processes} processes, {sandbox.files} open files, "
                 f"{sandbox.tmp_mb} MiB in /tmp and in /dev/shm")
    return [line]


def _reads(name: str, spec: dict[str, Any]) -> list[str]:
    """What a sandboxed bot reads of this machine besides the system's programs and
    libraries (read-only), and which of its folders show only the files its command
    names because they hold the organiser's files."""
    try:
        _label, launch, _restart, _params = read_external_spec(spec)
    except BotError:
        return []
    if launch.sandbox is None:
        return []
    seen = view(launch.command, launch.cwd, dict(launch.env), launch.sandbox,
                launch.python)
    label = clean(name, 40)
    lines = [f"bot {label} reads: " + (", ".join(visible(path) for path in seen.bound)
                                       or "nothing")
             + " (read-only; besides the system's programs and libraries)"]
    for folder in seen.narrowed:
        lines.append(f"note: bot {label} sees only the files its command names in "
                     f"{visible(folder)}: that folder holds this file, the run's output or "
                     "the history database; give each bot a folder of its own (cwd = \"...\")")
    return lines


def sandbox_lines(config: TournamentConfig, hidden: Sequence[str] = ()) -> list[str]:
    """Which bots run in the sandbox, whether it works here, what each reads (with a run
    that also hides ``hidden``), and what is not protected."""
    lines = []
    sandboxed = config.sandboxed
    outside = [bot.name for bot in config.bots
               if is_external(bot.spec) and not bot.spec.get("sandbox")]
    problem = sandbox_problem()
    works = "works on this machine" if problem is None else f"cannot run here: {problem}"
    if sandboxed:
        lines.append("sandboxed: " + ", ".join(clean(name, 40) for name in sandboxed)
                     + f" (the sandbox {works})")
        if problem is None:
            for bot, spec in zip(config.bots, bot_specs(config, hidden), strict=True):
                if bot.name in sandboxed:
                    lines += _reads(bot.name, spec)
            lines += [f"sandbox {line}" for line in sandbox_protections()]
    if outside:
        lines.append("not sandboxed (they can read this file, its seed and the runner's "
                     "processes): " + ", ".join(clean(name, 40) for name in outside)
                     + f"; sandbox = true runs them in bubblewrap (the sandbox {works})")
    if sandboxed:
        lines.append("deals: from the seed and a secret drawn when a run starts (kept in the "
                     "run's folder and the history database, out of every sandbox): no bot "
                     "can find them from its hello seed, whatever the seed")
    return lines


def _shown_error(exc: HistoryError) -> HistoryError:
    """``exc`` with any control character in its message (run names come from tournament
    files) escaped."""
    message = str(exc)
    return HistoryError(visible(message)) if any(map(is_unsafe, message)) else exc


@tournament_group.command("show")
@click.argument("run")
@click.option("--history", "history_path", type=click.Path(dir_okay=False, path_type=Path),
              help="History database (default: the user data folder, or $TRASH_TUI_HISTORY).")
def show_command(run: str, history_path: Path | None) -> None:
    """Print the results of a past run (an id, a tournament name or an output folder)."""
    with open_history(history_path) as history:
        try:
            row = history.tournaments.find_run(run)
        except HistoryError as exc:
            raise _shown_error(exc) from None
    if row.results is None:
        raise click.ClickException(f"run {row.id} ({visible(row.name, 80)}) has no results "
                                   f"yet; it has {row.games} games stored")
    click.echo(format_results(row.results))


@tournament_group.command("list")
@click.option("--history", "history_path", type=click.Path(dir_okay=False, path_type=Path))
def list_command(history_path: Path | None) -> None:
    """List past runs from the history database."""
    with open_history(history_path) as history:
        runs = history.tournaments.runs()
    if not runs:
        click.echo("no tournament runs yet")
    for row in runs:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.started))
        click.echo(f"{row.id:>4}  {when}  {clean(row.name, 40):<24} {row.games:>7} games  "
                   f"{clean(row.status, 20):<9} {visible(row.out_dir)}")


__all__ = ["HistoryError", "RunError", "TournamentError", "tournament_group"]
