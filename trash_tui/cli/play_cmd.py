"""``trash play``: straight to a table; and the lobby that plain ``trash`` opens."""

from __future__ import annotations

import click

from trash_tui.rules_file import load_rules_arg


def run_app(rules_arg: str = "standard", bots: tuple[str, ...] = ("normal",), humans: int = 1,
            seed: int | None = None, animation: str = "normal", play_now: bool = False) -> None:
    """Build the app (Textual is imported only now) and run it."""
    from bots.registry import find_bot, parse_spec
    from trash_tui.app.app import create_app
    from trash_tui.engine.match import validate_table

    rules = load_rules_arg(rules_arg)
    for spec in bots:
        name = parse_spec(spec).get("name") or parse_spec(spec).get("bot")
        find_bot(str(name))  # an unknown bot is a one-line error before the screen opens
    seats = ["human"] * humans + list(bots)
    validate_table(rules, len(seats))
    create_app(rules, seats, seed, animation, play_now=play_now).run()


@click.command("play")
@click.option("--rules", "rules_arg", default="standard", show_default=True,
              metavar="NAME|FILE", help="A preset name or a TOML file with a [rules] table.")
@click.option("--bot", "bots", multiple=True, metavar="NAME",
              help="An opponent (repeat for more): a bot name, a .py file or a TOML table. "
                   "Default: one 'normal' bot.")
@click.option("--humans", type=click.IntRange(1, 8), default=1, show_default=True,
              help="Humans taking turns at this keyboard.")
@click.option("--seed", type=int, help="Seed of the first match (default: random).")
@click.option("--animation", type=click.Choice(["off", "fast", "normal"]), default="normal",
              show_default=True, help="How fast bots' moves are shown.")
def play_command(rules_arg: str, bots: tuple[str, ...], humans: int, seed: int | None,
                 animation: str) -> None:
    """Sit down at a table against bots."""
    run_app(rules_arg, bots or ("normal",), humans, seed, animation, play_now=True)
