"""``trash history``: the app's saved matches from the command line.

``trash history list`` shows a player's matches of both games (the local player's by
default; ``--player`` takes an SSH player's identity, which ``trash history players``
lists); ``trash history export ID`` writes a match's record as JSON, the one kept when it
finished or one rebuilt from its seed and saved actions up to where it stopped, for
``trash replay`` to print or check. The database is the one the app uses (your settings'
``history``, ``$TRASH_TUI_HISTORY``, or ``--history FILE``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from trash_tui.games import SHORT_TITLES
from trash_tui.history import LOCAL_OWNER, History, HistoryError, MatchRow


def _open(history_path: Path | None) -> History:
    if history_path is None:
        from trash_tui.settings import load_settings

        settings, _ = load_settings()  # a broken settings file: the defaults, as the app
        history_path = settings.history_path()
    if not history_path.exists():
        raise HistoryError(f"no history database at {history_path}: nothing has been "
                           "played yet")
    return History(history_path)


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def _outcome(row: MatchRow) -> str:
    return f"won by {row.winner}" if row.outcome == "won" else row.outcome


history_option = click.option(
    "--history", "history_path", type=click.Path(dir_okay=False, path_type=Path),
    help="The history database (default: the app's).")
player_option = click.option(
    "--player", default=LOCAL_OWNER, show_default=True,
    help="Whose matches: 'local' (this computer's app) or an SSH player's identity "
         "(see 'trash history players').")


@click.group("history")
def history_group() -> None:
    """The app's saved matches: list them, export their records."""


@history_group.command("list")
@player_option
@history_option
def list_command(player: str, history_path: Path | None) -> None:
    """List a player's matches of both games, the latest played first."""
    with _open(history_path) as history:
        rows = history.matches(player)
    if not rows:
        click.echo(f"No matches for {player!r}.")
        return
    click.echo(f"{'id':>5}  {'date':16}  {'game':8}  {'moves':>5}  result, players")
    for row in rows:
        click.echo(f"{row.id:>5}  {_when(row.started):16}  "
                   f"{SHORT_TITLES.get(row.game, row.game):8}  {row.actions:>5}  "
                   f"{_outcome(row)}; {', '.join(row.names)}")


@history_group.command("players")
@history_option
def players_command(history_path: Path | None) -> None:
    """List the players who have played over SSH (their identity and chosen name)."""
    with _open(history_path) as history:
        players = history.players()
    if not players:
        click.echo("No SSH players yet.")
        return
    for identity, name, _, last_seen in players:
        click.echo(f"{identity}  {name}  (last seen {_when(last_seen)})")


@history_group.command("export")
@click.argument("match_id", type=click.IntRange(1))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the record to this file (default: standard output).")
@player_option
@history_option
def export_command(match_id: int, output: Path | None, player: str,
                   history_path: Path | None) -> None:
    """Write match MATCH_ID's record as JSON ('trash replay FILE' prints and checks it)."""
    from trash_tui.app.saving import saved_record

    with _open(history_path) as history:
        row = history.get_match(match_id)
        if row.owner != player:
            raise HistoryError(f"match {match_id} is not {player!r}'s (see 'trash history "
                               "list --player ...')")
        record = saved_record(history, row)
    text = json.dumps(record, indent=1) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from None
    click.echo(f"match {match_id} written to {output}", err=True)
