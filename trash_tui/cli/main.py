"""The ``trash`` command: one click group; every error is one line on stderr, exit code 2.

Subcommands live in their own modules and are attached here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from bots.base import BotError
from bots.runner import BotFailure
from trash_tui import __version__
from trash_tui.cli.bots_cmd import bots_group
from trash_tui.cli.neighbor_cmd import neighbor_group
from trash_tui.cli.play_cmd import lobby_command, play_command, run_app
from trash_tui.cli.replay_cmd import replay_command
from trash_tui.cli.rules_cmd import rules_group
from trash_tui.cli.serve_cmd import serve_group
from trash_tui.cli.simulate_cmd import simulate_command
from trash_tui.cli.tournament_cmd import tournament_group
from trash_tui.engine.record import RecordError
from trash_tui.history import HistoryError
from trash_tui.rules import RulesError
from trash_tui.tournament.config import TournamentError
from trash_tui.tournament.runner import RunError

EXIT_ERROR = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="trash")
def cli() -> None:
    """Trash (Garbage), the card game: rules, headless simulation and game records."""


cli.add_command(rules_group)
cli.add_command(bots_group)
cli.add_command(simulate_command)
cli.add_command(replay_command)
cli.add_command(play_command)
cli.add_command(lobby_command)
cli.add_command(neighbor_group)
cli.add_command(serve_group)
cli.add_command(tournament_group)


def fail(message: str, code: int = EXIT_ERROR) -> None:
    """Print ``trash: error: message`` on stderr and exit with ``code``."""
    click.echo(f"trash: error: {message}", err=True)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        if sys.stdin.isatty() and sys.stdout.isatty():
            _guard(run_app)  # the lobby
        else:
            click.echo(cli.get_help(click.Context(cli, info_name="trash")))
        return
    _guard(lambda: _run_cli(args))


def _run_cli(args: list[str]) -> None:
    result = cli.main(args=args, prog_name="trash", standalone_mode=False)
    if isinstance(result, int) and result:
        sys.exit(result)


def _guard(run: Callable[[], None]) -> None:
    """Run ``run``; every error becomes one line on stderr and exit code 2."""
    try:
        run()
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        return
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
        fail(exc.format_message().replace("\n", " ") + hint)
    except click.ClickException as exc:
        fail(exc.format_message().replace("\n", " "))
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except (click.Abort, KeyboardInterrupt):
        fail("interrupted", 130)
    except (RulesError, RecordError, BotError, TournamentError, RunError, HistoryError) as exc:
        fail(str(exc))
    except BotFailure as exc:
        fail(f"a bot failed: {exc}")
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): nothing left to say
        sys.exit(0)


if __name__ == "__main__":
    main()
