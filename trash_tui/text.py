"""Text that came from outside (a file, a record, a bot, another player, an SSH client)
made safe to show on a terminal or write into a log.

A terminal acts on control characters: ``ESC[2J`` clears the screen, an OSC sequence sets
the window title, a newline forges a log line, a bidi override reorders what follows.
Every string that did not come from the program itself goes through one of these before
it is printed, drawn or logged:

- ``visible(text)``: every control, format, surrogate, private-use or unassigned character
  written as an escape (``\\x1b``, ``\\n``, ``\\u202e``), so a log or an error message shows
  exactly what was sent;
- ``clean(text)``: the same characters removed (a tab or newline becomes a space), for a
  name or a message shown to a player.

Both take an optional ``limit`` on the length of the result (a ``…`` marks the cut).
(And ``duration``: a time in words, as the program's own texts say it.)
"""

from __future__ import annotations

import unicodedata

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}
_SPACES = {"\n", "\r", "\t", "\v", "\f"}


def is_unsafe(char: str) -> bool:
    """Whether ``char`` must never reach a terminal as it is (Unicode category C*)."""
    return unicodedata.category(char)[0] == "C"


def _escape(char: str) -> str:
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _cut(text: str, limit: int | None) -> str:
    if limit is None or len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + "…"


def visible(text: object, limit: int | None = None) -> str:
    """``text`` (made a string) with every unsafe character (and the backslash) escaped."""
    value = text if isinstance(text, str) else str(text)
    if value.isprintable() and "\\" not in value:
        return _cut(value, limit)
    return _cut("".join(_escape(c) if c == "\\" or is_unsafe(c) else c for c in value), limit)


def clean(text: object, limit: int | None = None) -> str:
    """``text`` (made a string) with every unsafe character removed (line breaks and tabs
    become spaces)."""
    value = text if isinstance(text, str) else str(text)
    if value.isprintable():
        return _cut(value, limit)
    return _cut("".join(" " if c in _SPACES else c for c in value
                        if c in _SPACES or not is_unsafe(c)), limit)


def duration(seconds: float) -> str:
    """``seconds`` in words: "45 seconds", "1 minute", "10 minutes"."""
    if seconds < 90:
        count, unit = round(seconds), "second"
    else:
        count, unit = round(seconds / 60), "minute"
    return f"{count} {unit}{'' if count == 1 else 's'}"
