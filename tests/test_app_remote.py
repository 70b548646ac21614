"""The app as an SSH player sees it: a name on first visit, their own matches only, the
idle goodbye, the server stopping, and no tournaments (Textual pilot)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from trash_tui.app import app as app_module
from trash_tui.app.app import LobbyScreen, TrashApp, create_app
from trash_tui.app.screens.remote import IDLE_EXIT_STATUS, GoodbyeScreen, NameScreen, name_problem
from trash_tui.app.trash.board import BoardScreen
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules
from trash_tui.settings import default_history_path, load_settings
from trash_tui.ssh.child import IDLE_EXIT_STATUS as SERVER_IDLE_STATUS

ALICE = "SHA256:alice-key-fingerprint"
BOB = "SHA256:bob-key-fingerprint"


def remote_app(owner: str, path: Path, **options):
    return create_app(Rules(start_size=4), ["human", "greedy"], seed=3, animation="off",
                      owner=owner, remote=True, settings_path=path, **options)


async def test_a_new_key_chooses_a_name_that_is_kept_for_the_next_visit(tmp_path: Path) -> None:
    path = tmp_path / "alice.toml"
    app = remote_app(ALICE, path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        app.screen.query_one("Input").value = ""
        await pilot.press(*"Alice", "enter")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert app.settings.name == "Alice"
    with open_history(default_history_path()) as history:
        assert history.players.player_name(ALICE) == "Alice"
    settings, problems = load_settings(path)
    assert problems == [] and settings.name == "Alice"

    again = remote_app(ALICE, path)
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, LobbyScreen)  # no question the second time
        await pilot.press("n")
        await pilot.pause()
        board = again.screen
        assert isinstance(board, BoardScreen)
        assert board.controller.names[0] == "Alice"


async def test_a_new_player_sees_the_lobby_only_once_the_name_is_chosen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A connection that never types costs the prompt only: the lobby is built under it
    at the first key, which still lands in the name. No frame sent to the terminal shows
    the lobby alone before the name is chosen. (One did: a player, or the OpenSSH
    journey, pressed n on it, and the prompt, back on top, took the key: no match.)
    Frames are seen where Textual sends them (``App._display``, skipped in a batch
    update): if Textual renames it, this test fails rather than passing blind."""
    frames: list[str] = []
    display = TrashApp._display

    def record(app: TrashApp, screen, renderable) -> None:
        if renderable is not None and not app._batch_count:
            frames.append(type(app.screen).__name__)
        display(app, screen, renderable)

    monkeypatch.setattr(TrashApp, "_display", record)
    app = remote_app(ALICE, tmp_path / "alice.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(5):
            await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, NameScreen)
        assert not any(isinstance(screen, LobbyScreen) for screen in app.screen_stack)
        await pilot.press("ctrl+u", "A")
        for _ in range(3):
            await pilot.pause()
        assert app.screen is prompt and prompt.query_one("Input").value == "A"
        assert any(isinstance(screen, LobbyScreen) for screen in app.screen_stack)
        await pilot.press(*"lice")
        before = list(frames)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen) and app.settings.name == "Alice"
    assert before and set(before) == {"NameScreen"}, before
    assert "LobbyScreen" in frames


async def test_a_name_accepted_with_its_first_key_leads_to_a_lobby_that_takes_keys(
        tmp_path: Path) -> None:
    """Enter as the very first key (the suggested name kept): the lobby is built under
    the prompt and the prompt leaves after it, in the app's order; n then starts a match."""
    app = remote_app(ALICE, tmp_path / "alice.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.screen.query_one("Input").value = "Alice"
        await pilot.press("enter")
        for _ in range(3):
            await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert [type(screen) for screen in app.screen_stack].count(LobbyScreen) == 1
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen)


async def test_an_empty_name_is_refused_with_a_reason(tmp_path: Path) -> None:
    assert name_problem("   ") and name_problem("x" * 25) and name_problem("Bob") is None
    app = remote_app(BOB, tmp_path / "bob.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NameScreen)
        screen.query_one("Input").value = ""
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        assert "Type a name" in str(screen.query_one("#name-problem").render())


async def test_players_see_only_their_own_matches(tmp_path: Path) -> None:
    with open_history(default_history_path()) as history:
        history.players.register_player(ALICE, "Alice")
        history.players.register_player(BOB, "Bob")
    alice = remote_app(ALICE, tmp_path / "a.toml")
    async with alice.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("n", "s")
        await pilot.pause()
    bob = remote_app(BOB, tmp_path / "b.toml")
    async with bob.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert bob.unfinished_match() is None
        assert bob.screen.query_one("#lobby-continue").disabled
    alice_again = remote_app(ALICE, tmp_path / "a.toml")
    async with alice_again.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        assert alice_again.unfinished_match() is not None
        note = str(alice_again.screen.query_one("#lobby-continue-note").render())
        assert "c continues your match" in note
        assert not alice_again.screen.query("Toast")  # the lobby says it: no toast


async def test_an_idle_player_is_told_goodbye_and_the_app_exits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "GOODBYE_SECONDS", 0.3)  # (3 s: not what is checked)
    with open_history(default_history_path()) as history:
        history.players.register_player(ALICE, "Alice")
    app = remote_app(ALICE, tmp_path / "a.toml", idle_timeout=0.2)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(100):  # the goodbye, drawn (a busy machine may take a while)
            await pilot.pause(0.05)
            if isinstance(app.screen, GoodbyeScreen) and app.screen.query("#goodbye"):
                break
        assert isinstance(app.screen, GoodbyeScreen)
        assert "No key pressed" in str(app.screen.query_one("#goodbye").render())
        for _ in range(200):  # the app exits by itself once the goodbye has been read
            if app.return_code is not None:
                break
            await asyncio.sleep(0.05)
    assert app.return_code == IDLE_EXIT_STATUS  # the SSH server logs the session as idle
    assert IDLE_EXIT_STATUS == SERVER_IDLE_STATUS


async def test_the_server_stopping_ends_the_app_at_once(tmp_path: Path) -> None:
    # the server has taken the terminal back and says goodbye itself (trash_tui.ssh.goodbye)
    with open_history(default_history_path()) as history:
        history.players.register_player(ALICE, "Alice")
    app = remote_app(ALICE, tmp_path / "a.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.server_stopping()
        await pilot.pause()
        assert app.return_code == 0
        assert not any(isinstance(screen, GoodbyeScreen) for screen in app.screen_stack)


async def test_tournaments_are_not_offered_over_ssh(tmp_path: Path) -> None:
    with open_history(default_history_path()) as history:
        history.players.register_player(ALICE, "Alice")
    app = remote_app(ALICE, tmp_path / "a.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#lobby-tournaments").disabled
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Tournaments" not in titles


async def test_text_cursors_do_not_blink_over_ssh_but_do_at_home(tmp_path: Path) -> None:
    """A blink is a redraw sent down the line twice a second: not over SSH."""
    app = remote_app(ALICE, tmp_path / "alice.toml")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        field = app.screen.query_one("Input")
        assert field.has_focus and field.cursor_blink is False
    local = create_app(Rules(start_size=4), ["human", "greedy"], seed=3, animation="off")
    async with local.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        fields = list(local.screen.query("Input"))
        assert fields and all(field.cursor_blink for field in fields)
