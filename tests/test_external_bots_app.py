"""A player's own bots in the app: a command bot in the settings' line-up is an opponent
in the lobby and plays at the table; over SSH a settings file can name no command, no
isolated bot and no bot file (one line says so, before anything is loaded)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from bots.external import ExternalBot, close_idle
from trash_tui.app.app import create_app
from trash_tui.app.trash.board import BoardScreen
from trash_tui.rules import Rules
from trash_tui.settings import DEFAULT_SEATS, REMOTE_REFUSAL, Settings, load_settings, own_bots

REPO = Path(__file__).resolve().parent.parent
GREEDY_BOT = REPO / "bots" / "examples" / "greedy_bot.py"


@pytest.fixture(autouse=True)
def _no_kept_processes() -> Any:
    yield
    close_idle()


def write_settings(tmp_path: Path, seat: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[seats]\nplayers = ["human", {seat}]\n', encoding="utf-8")
    return path


def test_a_command_bot_in_the_settings_is_a_seat_like_any_bot(tmp_path: Path) -> None:
    seat = f'{{ name = "mine", command = ["{sys.executable}", "{GREEDY_BOT}"] }}'
    settings, problems = load_settings(write_settings(tmp_path, seat))
    assert problems == []
    assert settings.seats[1] == {"name": "mine", "command": [sys.executable, str(GREEDY_BOT)]}
    assert own_bots(settings.seats) == [("mine", settings.seats[1])]


@pytest.mark.parametrize("seat", [
    '{ name = "mine", command = ["sh", "-c", "touch pwned"] }',
    '"evil.py"',
    '{ bot = "evil.py", mistakes = 0.1 }',
    '{ bot = "normal", isolate = true }',
    '"os.path:join"',
])
def test_over_ssh_a_settings_file_names_only_the_servers_bots(tmp_path: Path,
                                                              seat: str) -> None:
    marker = tmp_path / "ran"
    (tmp_path / "evil.py").write_text(f"open({str(marker)!r}, 'w')\n", encoding="utf-8")
    path = write_settings(tmp_path, seat)
    settings, problems = load_settings(path, remote=True)
    assert settings.seats == DEFAULT_SEATS
    assert len(problems) == 1 and "\n" not in problems[0]
    assert problems[0].startswith(f"{path}:2: seats.players[2]: {REMOTE_REFUSAL}")
    assert not marker.exists() and not (tmp_path / "pwned").exists()


def test_over_ssh_the_servers_bots_with_parameters_are_fine(tmp_path: Path) -> None:
    settings, problems = load_settings(
        write_settings(tmp_path, '{ name = "hard", mistakes = 0.02 }'), remote=True)
    assert problems == [] and settings.seats[1] == {"name": "hard", "mistakes": 0.02}


async def test_the_players_own_bot_is_an_opponent_in_the_lobby(tmp_path: Path) -> None:
    mine = {"name": "mine", "command": [sys.executable, str(GREEDY_BOT)]}
    app = create_app(settings=Settings(rules=Rules(start_size=3), seats=("human", mine)),
                     seed=4, animation="off")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        lobby = app.screen
        opponents = lobby.query_one("#lobby-level")
        assert [value for _label, value in opponents._options][-1] == "own:0"
        assert opponents.value == "own:0"
        assert "mine (yours)" in [str(label) for label, _value in opponents._options]
        opponents.value = "greedy"
        lobby.query_one("#lobby-players").value = 3
        await pilot.pause()
        opponents.value = "own:0"  # two of them now
        await pilot.pause()
        assert lobby.chosen_seats() == ["human", mine, mine]
        await pilot.press("n")
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, BoardScreen):
                break
        board = app.screen
        assert isinstance(board, BoardScreen)
        bots = [seat.bot for seat in board.controller.seats[1:]]
        assert all(isinstance(bot, ExternalBot) for bot in bots)
        for _ in range(50):  # the bots play their turns through the protocol
            await pilot.pause()
            if len(board.controller.actions) > 4 or board.controller.waiting_for_human:
                break
        assert board.controller.actions or board.controller.waiting_for_human
