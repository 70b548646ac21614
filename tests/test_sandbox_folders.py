"""A root runner's sandboxed bot runs as an unprivileged user and reads only what every
user may read: a bot whose folder, program or file is private (mode 0700 or 0600, owned by
root) is one line before anything runs — ``trash tournament check`` and ``run`` exit 2
naming what it cannot read and how to open it (``chmod o+rX``) — never a bare
``PermissionError`` or a run whose games the bot forfeits. Once opened, the same file
plays. Skipped where the sandbox cannot run (bwrap missing) or the runner is not root (an
ordinary user's bot reads that user's files)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from test_cli import assert_one_line_error, trash

from bots.sandbox import problem

EXAMPLES = Path(__file__).resolve().parent.parent / "bots" / "examples"
PROBLEM = problem()
pytestmark = [
    pytest.mark.skipif(PROBLEM is not None, reason=f"the sandbox cannot run here: {PROBLEM}"),
    pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                       reason="only a root runner's sandboxed bots run as another user"),
]
HINT = "chmod o+rX"


def _command_bot(folder: Path) -> Path:
    """A tournament whose sandboxed command bot plays from ``folder`` (the file beside it,
    in a folder every user may read)."""
    folder.parent.chmod(0o755)
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    shutil.copy(EXAMPLES / "greedy_bot.py", folder)
    (folder / "greedy_bot.py").chmod(0o644)
    path = folder.parent / "t.toml"
    path.write_text(f'seed = 4611686018427387903\nmatches = 2\n'
                    f'[[bots]]\nname = "py"\ncommand = ["{sys.executable}", "greedy_bot.py"]\n'
                    f'cwd = "{folder}"\nsandbox = true\n'
                    f'[[bots]]\nname = "n"\nbot = "normal"\n', encoding="utf-8")
    return path


def _bot_file(folder: Path) -> Path:
    """A tournament whose sandboxed bot is a Python file in ``folder`` (the file beside
    it, in a folder every user may read)."""
    folder.parent.chmod(0o755)
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    shutil.copy(EXAMPLES / "cautious.py", folder)
    (folder / "cautious.py").chmod(0o644)
    path = folder.parent / "t.toml"
    path.write_text(f'seed = 4611686018427387903\nmatches = 2\n'
                    f'[[bots]]\nname = "c"\nbot = "{folder / "cautious.py"}"\n'
                    f'isolate = true\nsandbox = true\n'
                    f'[[bots]]\nname = "n"\nbot = "normal"\n', encoding="utf-8")
    return path


@pytest.mark.parametrize("make", [_command_bot, _bot_file], ids=["command", "bot file"])
def test_a_private_bot_folder_is_one_line_before_the_run(tmp_path: Path, make) -> None:
    folder = tmp_path / "private bot"
    path = make(folder)
    folder.chmod(0o700)
    for command in ("check", "run"):
        done = trash("tournament", command, str(path), "--out", str(tmp_path / "out"),
                     cwd=tmp_path) if command == "run" else trash(
            "tournament", command, str(path), cwd=tmp_path)
        line = assert_one_line_error(done, str(folder), HINT)
        assert "PermissionError" not in line and "Errno" not in line
    assert not (tmp_path / "out" / "games.jsonl").exists()
    folder.chmod(0o755)  # opened: it plays, and nothing is forfeited
    played = trash("tournament", "run", str(path), "--out", str(tmp_path / "out"),
                   cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "Forfeit" not in played.stdout


@pytest.mark.parametrize("make, name", [(_command_bot, "greedy_bot.py"),
                                        (_bot_file, "cautious.py")],
                         ids=["command", "bot file"])
def test_a_private_bot_file_in_an_open_folder_is_named(tmp_path: Path, make, name) -> None:
    folder = tmp_path / "bot"
    path = make(folder)
    (folder / name).chmod(0o600)
    done = trash("tournament", "check", str(path), cwd=tmp_path)
    assert_one_line_error(done, str(folder / name), HINT)


def test_a_private_tournament_folder_above_the_bots_folder_is_not_needed(
        tmp_path: Path) -> None:
    """The bot's working folder (here the tournament file's) holds the file: it is not
    bound, so its mode does not matter; the bot's own folder inside it is bound alone."""
    path = _bot_file(tmp_path / "bot")
    tmp_path.chmod(0o700)
    done = trash("tournament", "check", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    reads = next(line for line in done.stdout.splitlines() if line.startswith("bot c reads: "))
    paths = reads.removeprefix("bot c reads: ").partition(" (read-only")[0].split(", ")
    assert str(tmp_path / "bot") in paths and str(tmp_path) not in paths
    played = trash("tournament", "run", str(path), "--out", str(tmp_path / "out"),
                   cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "Forfeit" not in played.stdout


def test_a_built_in_bot_in_the_sandbox_needs_nothing_of_a_private_folder(
        tmp_path: Path) -> None:
    tmp_path.chmod(0o700)
    path = tmp_path / "t.toml"
    path.write_text('seed = 4611686018427387903\nmatches = 2\n[[bots]]\nbot = "greedy"\n'
                    'sandbox = true\n[[bots]]\nname = "n"\nbot = "normal"\n',
                    encoding="utf-8")
    played = trash("tournament", "run", str(path), "--out", str(tmp_path / "out"),
                   cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "Forfeit" not in played.stdout
