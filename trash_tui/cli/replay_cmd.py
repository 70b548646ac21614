"""``trash replay``: print a recorded game as a readable log, or check that it replays.

Every string the log takes from the record (seat names, the seed, the context) is shown
with its control characters escaped (``trash_tui.text.visible``)."""

from __future__ import annotations

import sys

import click

from trash_tui.engine.deal import Deal
from trash_tui.engine.narrate import describe_event
from trash_tui.engine.record import RecordError, check_records, load_records
from trash_tui.games import NEIGHBOR
from trash_tui.text import visible

NEIGHBOR_KIND = NEIGHBOR


def shown_once(names: list[str]) -> list[str]:
    """The seats' names as the log says them: each as it is ("Normal (2)", "seat 0"), and
    a name several seats share with the seat's number after it ("greedy (1)")."""
    return [f"{name} ({seat + 1})" if names.count(name) > 1 else name
            for seat, name in enumerate(names)]


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--check", is_flag=True, help="Only replay and compare; exit 1 on any "
              "difference.")
def replay_command(file: str, check: bool) -> None:
    """Print the log of a recorded match (or of every record in a JSON Lines file);
    Help Your Neighbor records are replayed as "trash neighbor replay" does.

    The whole file is replayed and checked first; a corrupt or tampered record is
    reported and nothing is printed from it."""
    records = load_records(file)
    kinds = {kind for r in records if isinstance(r, dict)
             and isinstance(kind := r.get("kind"), str)}
    if NEIGHBOR_KIND in kinds:
        if kinds != {NEIGHBOR_KIND}:
            raise click.ClickException(f"{file}: mixes Help Your Neighbor records with Trash "
                                       "records; replay them from separate files")
        from trash_tui.cli.neighbor_cmd import replay_command as neighbor_replay

        click.get_current_context().invoke(neighbor_replay, file=file, check=check)
        return
    try:
        games = check_records(records)
    except RecordError as exc:
        if check:
            click.echo(f"trash: {file}: differs: {exc}", err=True)
            sys.exit(1)
        raise
    if check:
        click.echo(f"{file}: ok ({len(games)} record{'s' if len(games) != 1 else ''} replay "
                   "identically)")
        return
    for number, (document, game) in enumerate(zip(records, games, strict=True), start=1):
        names = shown_once([visible(name) for name in document["seats"]])
        if len(records) > 1:
            click.echo(f"=== record {number} ===")
        context = document.get("context")
        where = ""
        if isinstance(context, dict) and "game" in context:
            tournament = visible(context.get("tournament", "tournament"))
            where = f" — {tournament}, game {visible(context['game'])}"
        click.echo(f"{document['kind']} for {document['players']} players, seed "
                   f"{visible(document['seed'])}{where}")
        events = game.events
        for event in events:
            line = describe_event(event, names)
            if line:
                click.echo(line)
        if isinstance(game, Deal) and not game.over:
            click.echo("(the record stops here: the deal is unfinished)")
        elif not isinstance(game, Deal) and not game.over:
            click.echo("(the record stops here: the match is unfinished)")
