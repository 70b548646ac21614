"""Helpers for the app's board tests: what the board shows over its table."""

from __future__ import annotations

from textual.app import App

from trash_tui.app.trash.board import TrashBoard


def summary_up(app: App) -> bool:
    """The summary of a deal that just ended is over the board (its box is shown)."""
    screen = app.screen
    return isinstance(screen, TrashBoard) and screen.summary_shown
