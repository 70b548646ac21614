"""``trash bots``: the bots the registry knows, with their parameters; ``trash bots check``:
whether the sandbox works here, and how each bot of a tournament file runs.

What a bot says about itself (its name, description, parameters) is printed with its
control characters escaped (``visible``): a bot file is somebody else's code."""

from __future__ import annotations

from typing import Any

import click

from bots.base import BotError
from bots.external import is_external
from bots.registry import REGISTRY, find_bot
from bots.sandbox import problem as sandbox_problem
from bots.sandbox import protections as sandbox_protections
from trash_tui.text import clean, visible


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{value:g}" if isinstance(value, float) else visible(value)


def _param_line(key: str, param: Any) -> str:
    return (f"{visible(key)} = {_value(param.default)}  ({visible(param.allowed())}) "
            f"{visible(param.meaning)}")


@click.group("bots")
def bots_group() -> None:
    """The bots you can play against or put in a simulation."""


@bots_group.command("list")
def list_command() -> None:
    """List the registered bots: a line each, then their parameters."""
    width = max(len(name) for name in REGISTRY)
    for name, cls in REGISTRY.items():
        click.echo(f"{name:<{width}}  {visible(cls.description)}")
        click.echo(f"{'':<{width}}    seed = 0  (an integer) its random stream")
        for key, param in cls.params.items():
            click.echo(f"{'':<{width}}    {_param_line(key, param)}")
    click.echo()
    click.echo("Also: a path to your own bot file (my_bot.py or my_bot.py:Class), or an import "
               "path (package.module:Class); see bots/README.md.")


@bots_group.command("show")
@click.argument("reference")
def show_command(reference: str) -> None:
    """Show one bot (a name, a file path or an import path) and its parameters."""
    cls = find_bot(reference)
    try:  # a user's bot class may say anything about itself, or nothing that makes sense
        about = " ".join(str(cls.description or cls.__doc__ or "").split())
        lines = [visible(f"{cls.name}: {about}".strip()),
                 "  seed = 0  (an integer) its random stream",
                 *(f"  {_param_line(key, param)}" for key, param in cls.params.items())]
    except Exception as exc:
        raise BotError(f"bot {visible(reference)}: cannot describe its parameters: "
                       f"{visible(f'{type(exc).__name__}: {exc}')}") from None
    for line in lines:
        click.echo(line)


@bots_group.command("check")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
def check_command(file: str | None) -> None:
    """Whether the bots' sandbox works on this machine and, for a tournament FILE, how each
    bot runs: in the runner's process, in a process of its own, or in the sandbox."""
    problem = sandbox_problem()
    if file is None:
        if problem is not None:
            raise click.ClickException(problem)
        click.echo("the sandbox works on this machine (bubblewrap: sandbox = true)")
        for line in sandbox_protections():
            click.echo(f"sandbox {line}")
        return
    from trash_tui.cli.tournament_cmd import sandbox_lines
    from trash_tui.tournament.config import load_tournament

    config = load_tournament(file)
    width = max(len(clean(name, 40)) for name in config.bot_names)
    for bot in config.bots:
        spec = bot.spec
        if not is_external(spec):
            how = "built in: runs in the runner's process"
        else:
            kind = "command" if "command" in spec else "isolated Python bot"
            how = f"{kind}, " + ("sandboxed" if spec.get("sandbox") else
                                 "its own process, NOT sandboxed")
        click.echo(f"{clean(bot.name, 40):<{width}}  {how}")
    lines = sandbox_lines(config)
    for line in lines:
        click.echo(line)
    if not any("(the sandbox" in line for line in lines):
        click.echo("sandbox: " + ("works on this machine" if problem is None else
                                  f"cannot run here: {problem}"))
