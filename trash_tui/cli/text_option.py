"""A check for options that take free text (a seed, a player's name), shared by the
commands: the text must be UTF-8. A byte that is not UTF-8 in the command line reaches
Python as a lone surrogate, which cannot be hashed as a seed nor looked up in the history
database; it is a one-line usage error instead."""

from __future__ import annotations

import click

from trash_tui.text import visible


def check_utf8(ctx: click.Context, param: click.Parameter, text: str | None) -> str | None:
    """An option's callback: ``text`` as it is, if it is UTF-8 text (or absent)."""
    if text is None:
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise click.BadParameter(f"{visible(text)} is not UTF-8 text") from None
    return text
