"""The operator's bots for ``trash serve`` (the settings' line-up): a command bot with
``sandbox = true`` runs in the sandbox, at a shared table as in the lobby (both build it
with ``make_bot`` from the server's settings); a broken or impossible ``sandbox`` is a
problem line and the seats take their default, never an unprotected bot."""

from __future__ import annotations

import shutil
import socket
import sys
from pathlib import Path

import pytest

import bots.sandbox
from bots.external import ExternalBot, close_idle
from bots.process import BotLog
from bots.registry import make_bot
from bots.runner import play_match
from trash_tui.rules import Rules
from trash_tui.settings import DEFAULT_SEATS, load_settings, own_bots

HOSTILE = Path(__file__).with_name("hostile_bots")
PROBLEM = bots.sandbox.problem()
#: Skipped only where the kernel refuses namespaces (or this is not Linux); a machine that
#: lacks bwrap fails these tests with the sandbox's own one-line error (install bubblewrap).
needs_sandbox = pytest.mark.skipif(
    PROBLEM is not None and ("kernel refuses" in PROBLEM or "needs Linux" in PROBLEM),
    reason=f"the sandbox cannot run here: {PROBLEM}")


def _settings(tmp_path: Path, extra: str) -> Path:
    folder = tmp_path / "bots"
    shutil.copytree(HOSTILE, folder)
    folder.chmod(0o755)
    path = tmp_path / "config.toml"
    path.write_text(f'[seats]\nplayers = ["human", {{ name = "mine", command = '
                    f'["{sys.executable}", "connect.py"], cwd = "{folder}"{extra} }}]\n',
                    encoding="utf-8")
    return path


@needs_sandbox
def test_the_servers_command_bot_with_sandbox_true_runs_sandboxed(tmp_path: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    path = _settings(tmp_path, f', sandbox = true, env = {{ PORT = "{port}" }}')
    settings, problems = load_settings(path)
    assert problems == []
    [(label, spec)] = own_bots(settings.seats)
    assert label == "mine"
    bot = make_bot(spec, seed=1)
    assert isinstance(bot, ExternalBot) and bot.launch.sandbox is not None
    bot.log = BotLog(tmp_path / "mine.log")
    try:
        play_match(Rules(), [bot, make_bot("greedy", seed=2)], 5)
    finally:
        close_idle()
        server.close()
    log = (tmp_path / "mine.log").read_text(encoding="utf-8")
    assert f"REFUSED connect to 127.0.0.1:{port}" in log


def test_a_sandbox_that_is_not_true_or_false_is_a_problem_line(tmp_path: Path) -> None:
    path = _settings(tmp_path, ', sandbox = "yes"')
    settings, problems = load_settings(path)
    assert settings.seats == DEFAULT_SEATS
    assert len(problems) == 1
    assert "sandbox must be true, false or a table" in problems[0]


def test_a_sandbox_that_cannot_run_here_is_a_problem_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots.sandbox, "_problem", ["the sandbox needs bwrap, which is not "
                                                   "installed: install bubblewrap"])
    path = _settings(tmp_path, ", sandbox = true")
    settings, problems = load_settings(path)
    assert settings.seats == DEFAULT_SEATS
    assert len(problems) == 1
    assert "sandbox must be false on this machine: the sandbox needs bwrap" in problems[0]
