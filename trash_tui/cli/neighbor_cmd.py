"""``trash neighbor``: Help Your Neighbor without the app — headless games and records.

``trash neighbor simulate`` plays games with the neighbor bots and prints wins by seat
with 95% Wilson intervals; ``trash neighbor replay`` checks a record (or every record of a
JSON Lines file, e.g. a tournament's ``records.jsonl``) and prints it as a log, the
names it takes from the record with their control characters escaped.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import IO

import click

from bots.neighbor import NEIGHBOR_BOTS, make_neighbor_bot, play_neighbor
from trash_tui.cli.text_option import check_utf8
from trash_tui.engine.record import RecordError, load_records
from trash_tui.engine.rng import derive_seed
from trash_tui.neighbor.engine import MAX_PLAYERS, MIN_PLAYERS, NeighborGame
from trash_tui.neighbor.narrate import narrate
from trash_tui.neighbor.record import neighbor_record, replay_neighbor
from trash_tui.stats import wilson_interval
from trash_tui.text import visible


@click.group("neighbor")
def neighbor_group() -> None:
    """Help Your Neighbor, the dice game: headless games and records."""


@neighbor_group.command("simulate")
@click.option("--players", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), default=4,
              show_default=True)
@click.option("--bot", "bots", multiple=True, type=click.Choice(list(NEIGHBOR_BOTS)),
              help="Bot per seat (repeats to fill the table; the last one fills the rest). "
                   "Default: random.")
@click.option("--games", type=click.IntRange(1), default=1000, show_default=True)
@click.option("--seed", default="1", show_default=True, callback=check_utf8,
              help="Seed (an integer or a word).")
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a record of every game (JSON Lines) to FILE.")
def simulate_command(players: int, bots: tuple[str, ...], games: int, seed: str,
                     record: Path | None) -> None:
    """Play headless games and print wins by seat."""
    try:
        _simulate(players, bots, games, seed, record)
    except OSError as exc:  # a full disk, a missing folder: the records so far are kept
        raise click.ClickException(f"--record: cannot write {record}: "
                                   f"{exc.strerror or exc}") from None


def _simulate(players: int, bots: tuple[str, ...], games: int, seed: str,
              record: Path | None) -> None:
    names = list(bots[:players]) or ["random"]
    names += [names[-1]] * (players - len(names))
    wins = [0] * players
    rolls = abandoned = 0
    out: IO[str] | None = record.open("w", encoding="utf-8") if record else None
    started = time.perf_counter()
    try:
        for index in range(games):
            game_seed = derive_seed(seed, "neighbor", index)
            table = [make_neighbor_bot(name, derive_seed(game_seed, "bot", seat) % 2**31)
                     for seat, name in enumerate(names)]
            game = play_neighbor(NeighborGame(players, game_seed), table)
            rolls += game.turn
            if game.winner is None:
                abandoned += 1
            else:
                wins[game.winner] += 1
            if out is not None:
                seats = [f"{name} ({seat})" for seat, name in enumerate(names)]
                out.write(json.dumps(neighbor_record(game, seats)) + "\n")
    finally:
        if out is not None:
            out.close()
    elapsed = time.perf_counter() - started
    click.echo(f"Help Your Neighbor, {players} players, bots {', '.join(names)}, seed "
               f"{visible(seed)}")
    click.echo(f"games played      {games}" + (f" ({abandoned} abandoned)" if abandoned else ""))
    click.echo(f"mean rolls/game   {rolls / games:.1f}")
    click.echo("wins by seat (95% Wilson interval):")
    width = max(len(n) for n in names)
    for seat, name in enumerate(names):
        low, high = wilson_interval(wins[seat], games)
        click.echo(f"  seat {seat}  {name:<{width}}  {wins[seat]:>7}  "
                   f"{100 * wins[seat] / games:5.1f}%  [{100 * low:5.1f}%, {100 * high:5.1f}%]")
    click.echo(f"throughput        {games / elapsed:,.0f} games/s ({elapsed:.2f} s)")


@neighbor_group.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--check", is_flag=True, help="Only replay and compare; exit 1 on any "
              "difference.")
def replay_command(file: str, check: bool) -> None:
    """Print the log of a Help Your Neighbor record (or of every record in a JSON Lines
    file). Everything is replayed and checked first; nothing is printed from a bad file."""
    records = load_records(file)
    games = []
    for number, document in enumerate(records, start=1):
        try:
            games.append(replay_neighbor(document))
        except RecordError as exc:
            prefix = f"record {number}: " if len(records) > 1 else ""
            if check:
                click.echo(f"trash: {file}: differs: {prefix}{exc}", err=True)
                sys.exit(1)
            raise RecordError(prefix + str(exc)) from None
    if check:
        click.echo(f"{file}: ok ({len(games)} record{'s' if len(games) != 1 else ''} replay "
                   "identically)")
        return
    for number, (document, game) in enumerate(zip(records, games, strict=True), start=1):
        if len(records) > 1:
            click.echo(f"=== record {number} ===")
        names = [visible(name) for name in document["seats"]]
        click.echo(f"Help Your Neighbor for {game.players} players, seed {visible(game.seed)}")
        for line in narrate(game.events, names):
            click.echo(line)
        if not game.over:
            click.echo("(the record stops here: the game is unfinished)")
