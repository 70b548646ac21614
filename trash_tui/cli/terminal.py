"""Whether the full-screen app can run where the command was started (both the bare
``trash`` and ``trash play`` ask)."""

from __future__ import annotations

import sys


def in_terminal() -> bool:
    """Whether the full-screen app can run here: stdin and stdout are a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()
