"""Every test runs with its own settings file and history database, never the user's.

``TRASH_TUI_CONFIG`` and ``TRASH_TUI_HISTORY`` point into the test's ``tmp_path`` (the
files do not exist until a test writes them), and ``NO_COLOR`` is removed so snapshots
keep their colours whatever the environment says. Text cursors do not blink, so a
snapshot never catches one half-way.

The suite runs on stock Textual; with ``TRASH_TEXTUAL_PATCHES=1`` it runs with the app's
speed-ups to Textual applied (``trash_tui.app.textual_compat``), as the SSH server's
sessions do (``tests/test_textual_compat.py`` runs the snapshot suite that way). At the end
of a run, the folder of the browser tests' screenshots is named.
"""

from __future__ import annotations

import os
import sys

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("TRASH_TEXTUAL_PATCHES") == "1":
        from trash_tui.app import textual_compat

        applied = textual_compat.apply(print)
        assert applied, "TRASH_TEXTUAL_PATCHES=1: no patch applies to this Textual"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Where the browser tests put their screenshots, if any ran (tests/browser_helpers)."""
    helpers = sys.modules.get("browser_helpers")
    for folder in getattr(helpers, "artifacts_used", []):
        shots = sorted(path.name for path in folder.glob("*.png"))
        if shots:
            terminalreporter.write_line(f"browser screenshots ({len(shots)}) in {folder}")


@pytest.fixture(autouse=True)
def _private_user_files(tmp_path_factory: pytest.TempPathFactory,
                        monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("TRASH_TUI_CONFIG", str(home / "config.toml"))
    monkeypatch.setenv("TRASH_TUI_HISTORY", str(home / "history.sqlite3"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr("textual.widgets._input.Input._toggle_cursor", lambda self: None)
