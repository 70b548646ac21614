"""The ``trash`` command: one click group; every error is one line on stderr, exit code 2.

Subcommands live in their own modules and are imported only when used (``SUBCOMMANDS``).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

import click

from trash_tui import __version__
from trash_tui.cli.terminal import in_terminal

EXIT_ERROR = 2

#: Every subcommand, imported only when it is used (``trash`` alone opens the app without
#: importing the tournament runner, the SSH server or the simulator): name -> module, object.
SUBCOMMANDS = {
    "admin": ("trash_tui.cli.admin_cmd", "admin_group"),
    "bots": ("trash_tui.cli.bots_cmd", "bots_group"),
    "history": ("trash_tui.cli.history_cmd", "history_group"),
    "lobby": ("trash_tui.cli.play_cmd", "lobby_command"),
    "neighbor": ("trash_tui.cli.neighbor_cmd", "neighbor_group"),
    "play": ("trash_tui.cli.play_cmd", "play_command"),
    "players": ("trash_tui.cli.players_cmd", "players_group"),
    "replay": ("trash_tui.cli.replay_cmd", "replay_command"),
    "rules": ("trash_tui.cli.rules_cmd", "rules_group"),
    "serve": ("trash_tui.cli.serve_cmd", "serve_group"),
    "simulate": ("trash_tui.cli.simulate_cmd", "simulate_command"),
    "tournament": ("trash_tui.cli.tournament_cmd", "tournament_group"),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported when they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *SUBCOMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in SUBCOMMANDS:
            return super().get_command(ctx, cmd_name)
        module, name = SUBCOMMANDS[cmd_name]
        command = getattr(importlib.import_module(module), name)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="trash")
def cli() -> None:
    """Trash (Garbage), the card game: rules, headless simulation and game records."""


def user_errors() -> tuple[type[Exception], ...]:
    """The errors that are the user's to fix (a bad file, an unknown bot, ...): said in one
    line. Imported when an error happens, not at start."""
    from bots.base import BotError
    from trash_tui.engine.record import RecordError
    from trash_tui.history import HistoryError
    from trash_tui.rules import RulesError
    from trash_tui.tournament.config import TournamentError
    from trash_tui.tournament.runner import RunError

    return (RulesError, RecordError, BotError, TournamentError, RunError, HistoryError)


def fail(message: str, code: int = EXIT_ERROR) -> None:
    """Print ``trash: error: message`` on stderr and exit with ``code``."""
    click.echo(f"trash: error: {message}", err=True)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        if in_terminal():
            from trash_tui.cli.play_cmd import run_app

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
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): nothing left to say
        sys.exit(0)
    except Exception as exc:
        from bots.runner import BotFailure

        if isinstance(exc, BotFailure):
            fail(f"a bot failed: {exc}")
        if isinstance(exc, user_errors()):
            fail(str(exc))
        raise


if __name__ == "__main__":
    main()
