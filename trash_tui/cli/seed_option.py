"""The ``--seed`` option's check, shared by the commands that take a seed."""

from __future__ import annotations

import click

from trash_tui.text import visible


def check_seed(ctx: click.Context, param: click.Parameter, text: str) -> str:
    """A ``--seed`` option's callback: the seed must be text (seeds are hashed as UTF-8;
    a byte that is not UTF-8 reaches Python as a lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise click.BadParameter(f"{visible(text)} is not UTF-8 text") from None
    return text
