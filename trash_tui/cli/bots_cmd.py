"""``trash bots``: the bots the registry knows, with their parameters."""

from __future__ import annotations

import click

from bots.registry import REGISTRY, find_bot


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{value:g}" if isinstance(value, float) else str(value)


@click.group("bots")
def bots_group() -> None:
    """The bots you can play against or put in a simulation."""


@bots_group.command("list")
def list_command() -> None:
    """List the registered bots: a line each, then their parameters."""
    width = max(len(name) for name in REGISTRY)
    for name, cls in REGISTRY.items():
        click.echo(f"{name:<{width}}  {cls.description}")
        click.echo(f"{'':<{width}}    seed = 0  (an integer) its random stream")
        for key, param in cls.params.items():
            click.echo(f"{'':<{width}}    {key} = {_value(param.default)}  ({param.allowed()}) "
                       f"{param.meaning}")
    click.echo()
    click.echo("Also: a path to your own bot file (my_bot.py or my_bot.py:Class), or an import "
               "path (package.module:Class); see bots/README.md.")


@bots_group.command("show")
@click.argument("reference")
def show_command(reference: str) -> None:
    """Show one bot (a name, a file path or an import path) and its parameters."""
    cls = find_bot(reference)
    click.echo(f"{cls.name}: {cls.description or cls.__doc__ or ''}".strip())
    click.echo("  seed = 0  (an integer) its random stream")
    for key, param in cls.params.items():
        click.echo(f"  {key} = {_value(param.default)}  ({param.allowed()}) {param.meaning}")
