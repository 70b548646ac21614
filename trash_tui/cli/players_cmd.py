"""``trash players``: ratings, the leaderboard and a player's statistics from the command line.

``leaderboard`` ranks the rated players of a game (``--bots`` adds the bot levels'
anchors); ``stats`` shows one player's statistics (the local player's by default, or an
SSH player's by identity, the start of it, or display name; a player who never chose a
name is ``(no name yet)`` on the leaderboard, followed by the start of their key, which
``stats`` takes); ``rebuild`` recomputes every rating from the stored results;
``calibrate`` runs the calibration tournaments and writes the bot levels' anchors.
``--json`` prints a document instead of a table. Names come from players, so they are
printed with their control characters escaped (``visible``); every error is one line and
exit code 2. The tournaments' own ratings are not touched by any of this.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from trash_tui.cli.history_cmd import (
    NOTHING_YET,
    _open,
    _reading,
    history_option,
    local_name,
    resolve_owner,
    short_key,
)
from trash_tui.cli.text_option import check_utf8
from trash_tui.games import GAMES, TITLES, TRASH
from trash_tui.history import LOCAL_OWNER, History
from trash_tui.players.rater import open_history
from trash_tui.text import visible

game_option = click.option("--game", type=click.Choice(GAMES), default=TRASH,
                           show_default=True, help="Which game's ratings.")
json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print a JSON document instead of a table.")


@contextmanager
def _or_empty(history: History | None) -> Iterator[History]:
    """``history``, or an empty one in memory when nothing has been played yet (the
    commands then show what an empty history shows: no line, no match, exit 0)."""
    if history is not None:
        yield history
        return
    with open_history(":memory:") as empty:
        yield empty


def _when(seconds: float | None) -> str:
    return "" if seconds is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


@click.group("players")
def players_group() -> None:
    """Ratings, the leaderboard and personal statistics."""


@players_group.command("leaderboard")
@game_option
@click.option("--bots", is_flag=True, help="Rank the bot levels' anchors among the players.")
@click.option("--top", type=click.IntRange(1, 100_000), default=20, show_default=True,
              help="How many lines.")
@json_option
@history_option
def leaderboard_command(game: str, bots: bool, top: int, as_json: bool,
                        history_path: Path | None) -> None:
    """The rated players of a game, the highest rated first (a provisional rating, marked
    ?, is ranked by that rating too)."""
    from trash_tui.players.board import RANKING, UNNAMED, leaderboard

    with _reading(_open(history_path)) as found, _or_empty(found) as history:
        board = leaderboard(history, game, LOCAL_OWNER, bots=bots, top=top,
                            your_name=local_name())
        # who is known by their key only (no name): the text shows its start
        known = [] if as_json else history.players.identities()
        named = {identity for identity, *_ in history.players.registered()}
    if as_json:
        click.echo(json.dumps(board.to_dict(), indent=1))
        return
    if not board.entries:
        click.echo(f"Nobody is rated in {TITLES[game]} yet"
                   + (f": {NOTHING_YET}." if found is None else "."))
        return
    click.echo(f"{TITLES[game]}: {board.total} rated. {RANKING}")
    click.echo(f"{'rank':>4}  {'name':<32}  {'rating':>7}  {'±':>4}  {'matches':>7}  last seen")
    unnamed = False
    for entry in board.entries:
        name = visible(entry.name, 32)
        if entry.identity in known and entry.identity not in named:  # known by their key
            name, unnamed = f"{UNNAMED} {visible(short_key(entry.identity, known))}", True
        click.echo(f"{entry.rank:>4}  {name:<32}  {entry.shown:>7}  "
                   f"{entry.rating.margin:>4}  {entry.matches if not entry.bot else '':>7}  "
                   f"{_when(entry.last_seen)}")
    if unnamed:
        click.echo(f"{UNNAMED}: a player who has not chosen a name, shown by the start of "
                   "their key, or web:... for a browser ('trash players stats KEY' takes "
                   "it).")


@players_group.command("stats")
@click.argument("player", default=LOCAL_OWNER, callback=check_utf8)
@game_option
@json_option
@history_option
def stats_command(player: str, game: str, as_json: bool, history_path: Path | None) -> None:
    """PLAYER's statistics (default: 'local', this computer's player, also called by its
    name; or an SSH player's display name or key fingerprint)."""
    from trash_tui.players.stats import player_stats

    with _reading(_open(history_path)) as found, _or_empty(found) as history:
        identity, name = resolve_owner(found, player)
        stats = player_stats(history, identity, game, name)
    if as_json:
        click.echo(json.dumps(stats.to_dict(), indent=1))
        return
    click.echo("\n".join(stats_lines(stats)))


def _rate(wins: int, matches: int, interval: tuple[float, float]) -> str:
    if not matches:
        return "no matches"
    return (f"{wins} of {matches} won, {100 * wins / matches:.0f}% "
            f"(95% interval {100 * interval[0]:.0f}–{100 * interval[1]:.0f}%)")


def stats_lines(stats: object) -> list[str]:
    """The statistics as text lines (names escaped)."""
    from trash_tui.players.stats import PlayerStats

    assert isinstance(stats, PlayerStats)
    overall = stats.overall
    lines = [f"{visible(stats.name)} in {TITLES[stats.game]}",
             f"rating       {stats.shown_rating}"
             + (f" ± {stats.rating.margin} after {stats.rated_matches} rated matches"
                if stats.rating else ""),
             f"matches      {_rate(overall.wins, overall.matches, overall.interval)}"]
    if stats.nearest_bot:
        lines.append(f"nearest bot  {stats.nearest_bot}")
    if stats.given_up:
        lines.append(f"given up     {stats.given_up}")
    if stats.mean_place is not None:
        lines.append(f"mean place   {stats.mean_place:.2f} at 3+ players "
                     f"({stats.matches_3plus} match{'es' if stats.matches_3plus != 1 else ''})")
    if stats.deals_per_match is not None:  # the dice game: rolls, as the app counts them
        lines.append(f"{'deals/match':<12} {stats.deals_per_match:.1f}" if stats.game == TRASH
                     else f"{'rolls/game':<12} {stats.deals_per_match:.0f}")
    lines.append(f"best streak  {stats.best_streak} wins in a row")
    if stats.first_share is not None and stats.first_wins is not None:
        first = stats.first_wins
        lines.append(f"moved first  {100 * stats.first_share:.0f}% of matches; "
                     f"{_rate(first.wins, first.matches, first.interval)}")
    for title, rates in (("by opponents", stats.by_opponents), ("by rules", stats.by_rules)):
        if rates:
            lines.append(title)
            lines.extend(f"  {visible(w.label, 24):<24} {_rate(w.wins, w.matches, w.interval)}"
                         for w in rates)
    return lines


@players_group.command("rebuild")
@history_option
def rebuild_command(history_path: Path | None) -> None:
    """Recompute every rating from the stored results (after new anchors, for example)."""
    with _reading(_open(history_path)) as history:
        if history is None:
            click.echo(f"No ratings to rebuild: {NOTHING_YET}.")
            return
        rated = history.rebuild_ratings()
        players = {row.identity for game in GAMES for row in history.players.ratings(game)}
    click.echo(f"Ratings rebuilt from {rated} rated match{'es' if rated != 1 else ''}: "
               f"{len(players)} player{'s' if len(players) != 1 else ''}.")


@players_group.command("calibrate")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--workers", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes playing games at once.")
@click.option("--resamples", type=click.IntRange(10, 100_000), default=200,
              show_default=True, help="Bootstrap samples for the intervals.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Where the runs go (default: runs/ beside the history database, one "
                   "folder per file; running again continues them).")
@click.option("--write/--no-write", default=True, show_default=True,
              help="Write the anchors to trash_tui/players/anchors.json.")
@click.option("--anchors", "anchors_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the anchors to this file instead.")
def calibrate_command(files: tuple[str, ...], workers: int, resamples: int,
                      out_dir: Path | None, write: bool, anchors_path: Path | None) -> None:
    """Run the calibration tournaments (default: the shipped calibration.toml and
    calibration-neighbor.toml, a clone's tournaments/), print every bot level's anchor
    rating with its 95% interval, and write them for the ratings ('trash players rebuild'
    then rates the stored matches against them)."""
    from trash_tui.players.anchors import ANCHORS_PATH
    from trash_tui.players.calibration import (
        CALIBRATION_FILES,
        anchors_document,
        compute_anchors,
        current_commit,
        format_anchors,
        run_calibration,
        write_anchors,
    )
    from trash_tui.settings import default_history_path
    from trash_tui.tournament.config import load_tournament
    from trash_tui.tournament.examples import examples_folder
    from trash_tui.tournament.session import runs_folder

    paths = [Path(f) for f in files] or [examples_folder() / name
                                         for name in CALIBRATION_FILES]
    configs = [load_tournament(path) for path in paths]
    games = [config.game for config in configs]
    if len(set(games)) != len(games):
        raise click.UsageError("give one calibration file per game")
    base = out_dir or runs_folder(default_history_path())
    calibrated = []
    for path, config in zip(paths, configs, strict=True):
        folder = base / path.stem
        click.echo(f"{visible(config.name)}: output folder {visible(folder)}", err=True)
        outcome = run_calibration(config, folder, workers)
        if outcome.status == "stopped":
            raise click.ClickException(f"stopped: {len(outcome.games)} of {outcome.planned} "
                                       "games kept; run the same command again to continue")
        anchors = compute_anchors(config, outcome.games, resamples)
        calibrated.append((config, outcome, anchors))
        click.echo(format_anchors(f"{visible(config.name)} ({len(outcome.games)} games):",
                                  anchors))
    commit = current_commit(Path(__file__).resolve().parent)
    document = anchors_document(calibrated, commit, resamples)
    if write or anchors_path is not None:
        target = anchors_path or ANCHORS_PATH
        try:
            write_anchors(document, target)
        except OSError as exc:
            raise click.ClickException(f"cannot write {visible(target)}: {exc}") from None
        click.echo(f"anchors written to {visible(target)} (commit {commit or 'unknown'}); "
                   "'trash players rebuild' rates the stored matches against them")
