"""The example tournament files: where they ship, and the user's own folder of them.

The repository's ``tournaments/*.toml`` is the only copy kept in git. A wheel carries it
as package data, ``trash_tui/tournament/examples/`` (``setup.py`` copies it there when the
wheel is built); a clone, and an editable install of it, has no such folder and uses the
repository's own ``tournaments/`` beside the package (``examples_folder``).

The Tournaments screen lists the user's folder, ``tournaments/`` in the data folder
(beside the history database and ``runs/``, so ``$TRASH_TUI_HISTORY`` or the ``history``
setting moves it too). The first time it is needed it is made with a copy of every
example that runs on its own (``self_contained``: ``external.toml`` plays the example
programs of ``bots/examples/``, which stay in the repository), so a user can edit them
and add their own. A folder that exists is never touched again: an edit stays, a deleted
example does not come back (delete the folder to get them all again).
"""

from __future__ import annotations

import shutil
import tempfile
import tomllib
from pathlib import Path

from trash_tui.tournament.config import _is_path_reference

PACKAGED = Path(__file__).resolve().parent / "examples"  # in a wheel
CLONE = Path(__file__).resolve().parents[2] / "tournaments"  # in a clone of the repository


def examples_folder() -> Path:
    """The example tournament files as shipped: the wheel's, else the clone's."""
    return PACKAGED if PACKAGED.is_dir() else CLONE


def self_contained(path: Path) -> bool:
    """Whether a tournament file needs nothing beside it: every bot a built-in one named
    by the registry (no ``command``, no bot file), so a copy of it runs anywhere."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    bots = document.get("bots", [])
    return isinstance(bots, list) and all(
        isinstance(bot, dict) and "command" not in bot
        and not (isinstance(bot.get("bot"), str) and _is_path_reference(bot["bot"]))
        for bot in bots)


def user_tournaments(history_path: Path, examples: Path | None = None) -> Path:
    """The user's tournament folder, ``tournaments/`` beside the history database; made
    on first use with a copy of the self-contained examples (of ``examples``, default
    ``examples_folder()``). Raises ``OSError`` when it cannot be made."""
    folder = history_path.parent / "tournaments"
    if folder.exists():
        return folder
    source = examples or examples_folder()
    folder.parent.mkdir(parents=True, exist_ok=True)
    # filled beside it and renamed: a copy cut short is never taken for the user's folder
    staging = Path(tempfile.mkdtemp(prefix=".tournaments-", dir=folder.parent))
    try:
        for path in sorted(source.glob("*.toml")):
            if self_contained(path):
                shutil.copyfile(path, staging / path.name)
        try:
            staging.rename(folder)
        except OSError:
            if not folder.is_dir():  # (else made meanwhile by another session: kept)
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder
