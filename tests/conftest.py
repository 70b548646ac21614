"""Every test runs with its own settings file and history database, never the user's.

``TRASH_TUI_CONFIG`` and ``TRASH_TUI_HISTORY`` point into the test's ``tmp_path`` (the
files do not exist until a test writes them), and ``NO_COLOR`` is removed so snapshots
keep their colours whatever the environment says. Text cursors do not blink, so a
snapshot never catches one half-way.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_user_files(tmp_path_factory: pytest.TempPathFactory,
                        monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("TRASH_TUI_CONFIG", str(home / "config.toml"))
    monkeypatch.setenv("TRASH_TUI_HISTORY", str(home / "history.sqlite3"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr("textual.widgets._input.Input._toggle_cursor", lambda self: None)
