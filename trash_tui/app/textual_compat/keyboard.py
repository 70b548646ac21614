"""The quiet keyboard thread, chosen or not (Linux and macOS).

Textual's ``LinuxDriver`` reads the keyboard in a thread that wakes ten times a second even
when nothing is typed: it looks whether an escape key has stood alone long enough to be a
key of its own rather than the start of a sequence. A server holds many idle sessions, and
each spent about a millisecond of CPU a second on it (5 ms a move at a move every five
seconds). ``quiet_driver.QuietLinuxDriver`` reads the same way, with Textual's own parser,
but looks only while it may matter, and sleeps until the next input otherwise.

It is a thin subclass: it uses Textual's private parser (``textual._xterm_parser``) and the
driver's own attributes, and when any of them is not what it expects (``fits``) it runs
Textual's own loop. ``apply()`` only lets the app choose it (``driver_class``). Nothing
here imports Textual's Linux driver until it is asked for (it does not import on Windows).
"""

from __future__ import annotations

from textual.driver import Driver

_chosen = [False]  # whether the app uses the quiet driver (``apply``)


def fits() -> bool:
    """Whether Textual's parser and driver are as the quiet driver uses them."""
    try:
        from trash_tui.app.textual_compat import quiet_driver
    except ImportError:  # no Linux driver here (Windows)
        return False
    return quiet_driver.textual_fits()


def apply() -> None:
    _chosen[0] = True


def revert() -> None:
    _chosen[0] = False


def driver_class(default: type[Driver]) -> type[Driver]:
    """The driver for the app: the quiet one in place of Textual's Linux driver once
    applied, ``default`` otherwise."""
    if (_chosen[0] and default.__module__ == "textual.drivers.linux_driver"
            and default.__name__ == "LinuxDriver"):
        from trash_tui.app.textual_compat.quiet_driver import QuietLinuxDriver

        return QuietLinuxDriver
    return default
