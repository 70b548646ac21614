"""Every change this app makes to Textual's private parts, in one place, and opt-in.

The app runs on stock Textual. Three speed-ups reach into Textual's private API; they were
measured where they pay (the SSH server: a session's memory, its first screen, idle
sessions' wake-ups) and are applied only where asked for:

* ``strips``: a line of the screen (``Strip``) makes its seven caches when first used;
* ``css``: a CSS source is parsed once a process and theme, whichever stylesheet asks;
* ``keyboard``: the terminal driver's keyboard thread sleeps while nothing is typed.

``apply()`` applies them, once a process: the SSH fork server does it before it forks
its sessions, the local app when its settings say ``textual_speedups = true``. Each patch
knows the Textual it fits: the version must be one of ``TESTED_TEXTUAL`` (the versions the
test suite, the snapshot suite included, passed with the patches), and the private names
it uses must look as it expects (``fits``). Otherwise nothing is patched and the caller is
given one line to log. Nothing outside this package uses a private name of Textual
(``tests/test_textual_compat.py`` reads the whole package to check it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version

from trash_tui.app.textual_compat import css, keyboard, strips

#: The Textual versions every patch was tested with (the whole suite, patched and not).
TESTED_TEXTUAL = frozenset({"8.2.7", "8.2.8"})


@dataclass(frozen=True)
class Patch:
    """One change to Textual: its name, what it does, and how to check, apply and undo it."""

    name: str
    does: str
    fits: Callable[[], bool]  # the private names it uses are as it expects
    apply: Callable[[], None]
    revert: Callable[[], None]


PATCHES: tuple[Patch, ...] = (
    Patch("strips", "screen lines make their caches when first used",
          strips.fits, strips.apply, strips.revert),
    Patch("css", "CSS parsed once a process and theme", css.fits, css.apply, css.revert),
    Patch("keyboard", "the keyboard thread sleeps while nothing is typed",
          keyboard.fits, keyboard.apply, keyboard.revert),
)

_applied: list[str] = []


def textual_version() -> str:
    """The installed Textual's version ("" if it cannot be told)."""
    try:
        return version("textual")
    except PackageNotFoundError:
        return ""


def supported(textual: str | None = None) -> bool:
    """Whether the patches were tested with this Textual version (the installed one by
    default)."""
    return (textual_version() if textual is None else textual) in TESTED_TEXTUAL


def apply(log: Callable[[str], None] | None = None) -> tuple[str, ...]:
    """Apply every patch that fits, once a process; the names applied. A Textual outside
    the tested set runs unpatched, and ``log`` is told so in one line (and of a patch
    left out because Textual's private names changed)."""
    if _applied:
        return tuple(_applied)
    textual = textual_version()
    if not supported(textual):
        if log is not None:
            tested = ", ".join(sorted(TESTED_TEXTUAL))
            log(f"Textual {textual or '(unknown version)'} is not one the app's speed-ups "
                f"were tested with ({tested}): running on Textual as it is")
        return ()
    for patch in PATCHES:
        if patch.fits():
            patch.apply()
            _applied.append(patch.name)
        elif log is not None:
            log(f"Textual {textual}: the speed-up '{patch.name}' ({patch.does}) is left "
                "out, Textual's private parts are not what it expects")
    return tuple(_applied)


def applied() -> tuple[str, ...]:
    """The names of the patches applied in this process."""
    return tuple(_applied)


def revert() -> None:
    """Undo every patch applied (the tests: the rest of the suite runs on stock Textual)."""
    by_name = {patch.name: patch for patch in PATCHES}
    while _applied:
        by_name[_applied.pop()].revert()


@contextlib.contextmanager
def patched() -> Iterator[tuple[str, ...]]:
    """The patches applied for the ``with`` block only (tests)."""
    before = applied()
    names = apply()
    try:
        yield names
    finally:
        if not before:
            revert()
