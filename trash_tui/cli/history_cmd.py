"""``trash history``: the app's saved matches from the command line.

``trash history list`` shows a player's matches of both games (the local player's by
default; ``--player`` takes an SSH player's identity or display name, which ``trash
history players`` lists); ``trash history export ID`` writes a match's record as JSON, the
one kept when it finished or one rebuilt from its seed and saved actions up to where it
stopped, for ``trash replay`` to print or check. The database is the one the app uses
(your settings' ``history``, ``$TRASH_TUI_HISTORY``, or ``--history FILE``).

Names and games come from the database (players chose them), so they are printed with
their control characters escaped (``visible``); a database that cannot be read is a
one-line error. A database that is not there yet is nothing played yet, not an error
(``_open`` gives None: the commands say so and exit 0). ``--player`` takes 'local', the
local player's own name (the settings' ``name``), an SSH player's identity (or the start
of it, ``KEY_PREFIX`` characters or more: a player with no name is known by it) or display
name, whatever its case; an unknown one is an error that names the nearest ("did you
mean 'Alice'?").
"""

from __future__ import annotations

import difflib
import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from trash_tui.cli.text_option import check_utf8
from trash_tui.games import NEIGHBOR, SHORT_TITLES
from trash_tui.history import LOCAL_OWNER, History, HistoryError, MatchRow
from trash_tui.players.rater import open_history
from trash_tui.text import visible

MAX_ID = 2**63 - 1  # SQLite's largest row id


NOTHING_YET = "nothing has been played yet"
#: The shortest start of a key taken for the key, and the start shown for a player who
#: has no name ("SHA256:" and 8 characters of the fingerprint).
KEY_PREFIX, KEY_SHOWN = 10, 15


def local_name() -> str:
    """The local player's name, as the app shows it (the settings' ``name``)."""
    from trash_tui.settings import load_settings

    settings, _ = load_settings()  # a broken settings file: the defaults, as the app
    return settings.name


def _open(history_path: Path | None) -> History | None:
    """The history database, or None when there is none yet (nothing played)."""
    if history_path is None:
        from trash_tui.settings import load_settings

        settings, _ = load_settings()  # a broken settings file: the defaults, as the app
        history_path = settings.history_path()
    if not history_path.exists():
        return None
    return open_history(history_path)


def resolve_owner(history: History | None, player: str) -> tuple[str, str]:
    """(identity, name) ``player`` means: 'local' or the local player's own name (this
    computer's player), an SSH player's identity (their key), the display name of exactly
    one SSH player (the exact spelling first, then whatever its case), or the start of
    exactly one SSH player's key (``KEY_PREFIX`` characters or more: a player who never
    chose a name is known by their key only, named ``UNNAMED``); a one-line HistoryError
    naming the nearest names otherwise."""
    from trash_tui.players.board import UNNAMED

    mine = local_name()
    if player == LOCAL_OWNER or player.casefold() == mine.casefold():
        return LOCAL_OWNER, mine
    players = history.players.registered() if history is not None else []
    known = history.players.identities() if history is not None else []
    registered = {identity: name for identity, name, *_ in players}
    if player in known:
        return player, registered.get(player, UNNAMED)
    for same in (lambda name: name == player,
                 lambda name: name.casefold() == player.casefold()):
        named = [(identity, name) for identity, name, *_ in players if same(name)]
        if len(named) > 1:
            raise HistoryError(f"{len(named)} SSH players are called '{visible(player)}': "
                               "give one's identity (see 'trash history players')")
        if named:
            return named[0]
    keyed = [identity for identity in known if identity.startswith(player)]
    if len(player) >= KEY_PREFIX and len(keyed) > 1:
        raise HistoryError(f"{len(keyed)} players' keys start with '{visible(player)}': "
                           "give more of the key")
    if len(player) >= KEY_PREFIX and keyed:
        return keyed[0], registered.get(keyed[0], UNNAMED)
    if player.strip() == UNNAMED:
        raise HistoryError(f"a player with {UNNAMED.strip('()')} is given by their key: "
                           f"the start of it that 'trash players leaderboard' shows after "
                           f"'{UNNAMED}'")
    names = {name.casefold(): name for _, name, *_ in players} | {mine.casefold(): mine}
    near = difflib.get_close_matches(player.casefold(), list(names), n=1, cutoff=0.6)
    hint = f"did you mean '{visible(names[near[0]])}'? " if near else ""
    where = history.path if history is not None else "the history (nothing played yet)"
    raise HistoryError(f"no player '{visible(player)}' in {where}: {hint}(see 'trash "
                       f"history players'; 'local' is this computer's player, "
                       f"'{visible(mine)}')")


def short_key(identity: str, known: list[str]) -> str:
    """The start of ``identity`` that ``resolve_owner`` takes for it: ``KEY_SHOWN``
    characters, or more until no other of the ``known`` identities starts so."""
    others = [other for other in known if other != identity]
    for length in range(KEY_SHOWN, len(identity)):
        if not any(other.startswith(identity[:length]) for other in others):
            return identity[:length]
    return identity


@contextmanager
def _reading(history: History | None) -> Iterator[History | None]:
    """``history`` open, and closed after; a database whose rows are not what the app
    wrote (edited, or damaged) is a HistoryError, not a traceback. None (no database
    yet) is given as it is."""
    if history is None:
        yield None
        return
    with history:
        try:
            yield history
        except (sqlite3.Error, ValueError, TypeError, LookupError) as exc:
            from trash_tui.engine.record import RecordError

            if isinstance(exc, RecordError):
                raise
            raise HistoryError(f"history database {history.path}: cannot read it: "
                               f"{visible(exc)}") from None


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def _length(row: MatchRow) -> str:
    """"133 moves", or for the dice game its rolls ("114 rolls"), as the app counts them."""
    count, word = (row.deals, "roll") if row.game == NEIGHBOR else (row.actions, "move")
    return f"{count} {word}{'' if count == 1 else 's'}"


def _outcome(row: MatchRow) -> str:
    if row.outcome == "won":
        return "won by " + ", ".join(visible(name) for name in row.winner_names)
    return visible(row.outcome)


history_option = click.option(
    "--history", "history_path", type=click.Path(dir_okay=False, path_type=Path),
    help="The history database (default: the app's).")
player_option = click.option(
    "--player", default=LOCAL_OWNER, show_default=True, callback=check_utf8,
    help="Whose matches: 'local' (this computer's app; its player's name works too), or "
         "an SSH player's identity or display name (see 'trash history players').")


@click.group("history")
def history_group() -> None:
    """The app's saved matches: list them, export their records."""


@history_group.command("list")
@player_option
@history_option
def list_command(player: str, history_path: Path | None) -> None:
    """List a player's matches of both games, the latest played first."""
    with _reading(_open(history_path)) as history:
        owner, _name = resolve_owner(history, player)
        rows = history.matches.of_player(owner) if history is not None else []
        lines = [f"{row.id:>5}  {_when(row.started):16}  "
                 f"{visible(SHORT_TITLES.get(row.game, row.game)):8}  {_length(row):>9}  "
                 f"{_outcome(row)}; {', '.join(visible(name) for name in row.names)}"
                 for row in rows]
    if not rows:
        click.echo("Nothing has been played yet." if history is None else
                   f"No matches for '{visible(player)}'.")
        return
    click.echo(f"{'id':>5}  {'date':16}  {'game':8}  {'length':>9}  result, players")
    for line in lines:
        click.echo(line)


@history_group.command("players")
@history_option
def players_command(history_path: Path | None) -> None:
    """List the players who have played over SSH (their identity and chosen name)."""
    with _reading(_open(history_path)) as history:
        players = history.players.registered() if history is not None else []
    if not players:
        click.echo("No SSH players yet.")
        return
    for identity, name, _, last_seen in players:
        click.echo(f"{visible(identity)}  {visible(name)}  (last seen {_when(last_seen)})")


@history_group.command("export")
@click.argument("match_id", type=click.IntRange(1))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the record to this file (default: standard output).")
@player_option
@history_option
def export_command(match_id: int, output: Path | None, player: str,
                   history_path: Path | None) -> None:
    """Write match MATCH_ID's record as JSON ('trash replay FILE' prints and checks it)."""
    from trash_tui.play.saving import saved_record

    with _reading(_open(history_path)) as history:
        if history is None:
            raise HistoryError(f"no match {match_id}: {NOTHING_YET}")
        if match_id > MAX_ID:
            raise HistoryError(f"no match {match_id} in {history.path}")
        row = history.matches.get_match(match_id)
        if row.owner != resolve_owner(history, player)[0]:
            raise HistoryError(f"match {match_id} is not '{visible(player)}''s (see 'trash "
                               "history list --player ...')")
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
