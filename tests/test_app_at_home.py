"""What a newcomer still tripped over at home (issue 27), one test per item (Textual
pilot, seeded games, no clock)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from trash_tui.app.app import LobbyScreen, create_app
from trash_tui.app.screens.remote import LocalNameScreen
from trash_tui.app.trash.board import BoardScreen
from trash_tui.rules import Rules
from trash_tui.settings import Settings, load_settings


def first_start(path: Path, **options):
    """The app as ``trash`` builds it on the first start: a settings file with no name."""
    settings, problems = load_settings(path)
    return create_app(settings=settings, problems=problems, settings_path=path, seed=7,
                      animation="off", **options)


async def test_item_4_the_first_start_asks_the_name_and_uses_it(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[app]\ntheme = "nord"\n')
    app = first_start(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LocalNameScreen)
        shown = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "What is your name?" in shown
        await pilot.press("Y", "o", "u", "enter")  # the placeholder is not a name
        await pilot.pause()
        assert isinstance(app.screen, LocalNameScreen)
        assert "of your own" in str(app.screen.query_one("#name-problem").render())
        await pilot.press("ctrl+u", *"Robin", "enter")
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert app.settings.name == "Robin"
        await pilot.press("n")
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, BoardScreen)
        assert "Your move, Robin" in str(app.screen.query_one("#board-status").render())
    saved = tomllib.loads(path.read_text())
    assert saved["app"]["name"] == "Robin" and saved["app"]["theme"] == "nord"
    assert load_settings(path)[0].name_chosen
    again = first_start(path)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, LobbyScreen)  # asked once


async def test_item_4_trash_play_asks_first_and_keeps_its_options_to_this_run(
        tmp_path: Path) -> None:
    path = tmp_path / "config.toml"  # no file yet
    settings, _ = load_settings(path)
    app = create_app(Rules(start_size=4), ["human", "greedy"], settings=settings,
                     settings_path=path, seed=7, animation="off", play_now=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LocalNameScreen)
        await pilot.press(*"Ann", "enter")
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, BoardScreen)
        assert app.screen.controller.rules.start_size == 4
    saved = load_settings(path)[0]
    assert saved.name == "Ann" and saved.rules == Rules() and saved.seats == Settings().seats


async def test_item_4_esc_leaves_the_name_for_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    app = first_start(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LocalNameScreen)
        await pilot.press("escape")
        for _ in range(3):
            await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
    assert not path.exists()
