"""What the SSH fork server imports before it forks sessions: the server's main script and
every module of the app, its CSS parsed, then ``gc.freeze``.

Importing this module (in the fork server only) first imports the server's main script
(its path is in ``MAIN_PATH_ENV``), as multiprocessing's own "__main__" preload means to
and, before Python 3.13.8, never does (CPython gh-126631): a forked session then finds
``__main__`` in place instead of running the script again. Then it imports every module
of the app (``APP_PACKAGES``: all its screens, including those a session only opens
later), applies the app's speed-ups to Textual (``trash_tui.app.textual_compat``: every
session inherits them; a Textual they were not tested with gets one line on the server's
stderr and runs as it is), parses the CSS of every widget for the default theme, and
moves every object created so far out of the garbage collector's sight. A forked session
never walks (and so never copies, page by page) the thousands of objects it shares with
its siblings: it starts faster and keeps more memory shared.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import pkgutil
import sys
from multiprocessing import process, spawn

from trash_tui.ssh.session import MAIN_PATH_ENV


def import_main_script() -> None:
    """Import the server's main script as ``__main__``, the way multiprocessing would in
    every child (``__name__`` is ``"__mp_main__"``, so its main block does not run)."""
    main_path = os.environ.pop(MAIN_PATH_ENV, "")
    if not main_path or getattr(sys.modules["__main__"], "__file__", None) == main_path:
        return  # no script, or multiprocessing has imported it already
    process.current_process()._inheriting = True  # starting processes from it is an error
    try:
        spawn.import_main_path(main_path)
    except Exception:  # then each session runs it, as multiprocessing does without this
        pass
    finally:
        del process.current_process()._inheriting


def import_app() -> None:
    """Import the session entry point and every module of ``APP_PACKAGES``."""
    importlib.import_module("trash_tui.ssh.session")
    for name in APP_PACKAGES:
        package = importlib.import_module(name)
        for module in pkgutil.walk_packages(package.__path__, f"{name}."):
            importlib.import_module(module.name)


def import_what_textual_imports_late() -> None:
    """Import the modules Textual and Rich import only when an app first runs or measures
    text (``LATE_IMPORTS``, and Rich's table of character widths): otherwise each
    session imports them again, into memory of its own."""
    for name in LATE_IMPORTS:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    from rich.cells import get_character_cell_size

    get_character_cell_size("x", "latest")  # imports the latest table


def apply_textual_speedups() -> None:
    """The speed-ups to Textual's private parts, for every session forked from here."""
    from trash_tui.app import textual_compat
    from trash_tui.ssh.reporting import Reporter

    textual_compat.apply(Reporter().report)


def parse_css() -> None:
    """Parse the CSS of every widget and of the app for the default theme: a session that
    keeps the default theme finds it parsed (``textual_compat.css``, once applied)."""
    from trash_tui.app.app import create_app
    from trash_tui.app.textual_compat.css import prepare
    from trash_tui.settings import Settings

    with contextlib.suppress(Exception):  # then each session parses it, as it would
        prepare(create_app(settings=Settings(), remote=True))


#: The packages a session's app is made of: the screens, widgets and controllers.
APP_PACKAGES = ("trash_tui.app", "trash_tui.play")
#: Modules Textual imports only when an app runs.
LATE_IMPORTS = ("textual.pilot", "textual.drivers.headless_driver")

import_main_script()
import_app()
import_what_textual_imports_late()
apply_textual_speedups()
parse_css()
gc.collect()
gc.freeze()
