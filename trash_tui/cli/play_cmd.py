"""``trash play``: straight to a table; and the lobby that plain ``trash`` opens.

Both read the user's settings file first (``--config`` or the default path); options given
on the command line override it for this run only. A broken settings file never stops
the app: its problems are shown in the app and the defaults are used. Without a terminal
(stdin or stdout a pipe or a file) both refuse with one line and exit code 2, as plain
``trash`` prints its help instead of opening the app.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from trash_tui.cli.terminal import in_terminal
from trash_tui.rules_file import load_rules_arg


def require_terminal(command: str) -> None:
    """A one-line error (exit code 2) unless the app can run here."""
    if not in_terminal():
        raise click.ClickException(f"trash {command} is a full-screen app: run it in a terminal "
                               "(stdin and stdout are not one)")


def run_app(rules_arg: str | None = None, bots: tuple[str, ...] = (),
            humans: int | None = None, seed: int | None = None,
            animation: str | None = None, play_now: bool = False,
            config: Path | None = None) -> None:
    """Build the app (Textual is imported only now) and run it."""
    from bots.registry import find_bot, parse_spec
    from trash_tui.app.app import create_app
    from trash_tui.engine.match import validate_table
    from trash_tui.settings import load_settings

    settings, problems = load_settings(config)
    changes: dict[str, Any] = {}
    if rules_arg is not None:
        changes["rules"] = load_rules_arg(rules_arg)
    if animation is not None:
        changes["animation"] = animation
    for spec in bots:
        table = parse_spec(spec)
        find_bot(str(table.get("bot") or table.get("name")))  # unknown: a one-line error
    if bots or humans is not None:
        opponents = list(bots) or [s for s in settings.seats if s != "human"] or ["normal"]
        changes["seats"] = tuple(["human"] * (humans or 1) + opponents)
    if changes:
        settings = replace(settings, **changes)
    validate_table(settings.rules, len(settings.seats))
    create_app(settings=settings, problems=problems, seed=seed, play_now=play_now,
               settings_path=config).run()


@click.command("play")
@click.option("--rules", "rules_arg", metavar="NAME|FILE",
              help="A preset name or a TOML file with a [rules] table (default: your "
                   "settings).")
@click.option("--bot", "bots", multiple=True, metavar="NAME",
              help="An opponent (repeat for more): a bot name, a .py file or a TOML table. "
                   "Default: the opponents in your settings.")
@click.option("--humans", type=click.IntRange(1, 8),
              help="Humans taking turns at this keyboard (default 1).")
@click.option("--seed", type=int, help="Seed of the first match (default: random).")
@click.option("--animation", type=click.Choice(["off", "fast", "normal"]),
              help="How fast bots' moves are shown (default: your settings).")
@click.option("--config", type=click.Path(dir_okay=False, path_type=Path),
              help="The settings file to use (default: config.toml in your config folder, "
                   "or $TRASH_TUI_CONFIG).")
def play_command(rules_arg: str | None, bots: tuple[str, ...], humans: int | None,
                 seed: int | None, animation: str | None, config: Path | None) -> None:
    """Sit down at a table against bots."""
    require_terminal("play")
    run_app(rules_arg, bots, humans, seed, animation, play_now=True, config=config)


@click.command("lobby")
@click.option("--config", type=click.Path(dir_okay=False, path_type=Path),
              help="The settings file to use (default: config.toml in your config folder, "
                   "or $TRASH_TUI_CONFIG).")
@click.option("--seed", type=int, help="Seed of the first match (default: random).")
def lobby_command(config: Path | None, seed: int | None) -> None:
    """Open the app at its lobby (what plain "trash" does in a terminal)."""
    require_terminal("lobby")
    run_app(seed=seed, config=config)
