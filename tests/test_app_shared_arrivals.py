"""Arriving at a shared table with a new key: after the name, the keys are the player's.

A friend whose key the server has never seen types a name first; whatever screen comes
next (the table's board, its waiting room, the lobby, the size guard) owns the keys from
its first frame. Each journey ends with the player acting: a move the service takes, a
chat line the other player gets, escape that leaves.
"""

from __future__ import annotations

from pathlib import Path

from table_helpers import ann_hosts, name_player, running_service
from test_app_shared import (  # noqa: F401  (_fixed: the fixture)
    _fixed,
    ann_plays_until_its_turn,
    player_app,
    until,
)
from textual.widgets import Input

from trash_tui.app.screens.remote import NameScreen
from trash_tui.app.screens.too_small import TooSmallScreen
from trash_tui.app.shared.board import SharedBoardScreen
from trash_tui.app.shared.waiting_room import TableWaitingScreen


async def type_name(pilot, name: str) -> None:
    """The name prompt: the suggestion cleared, the name typed, enter."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, NameScreen))
    await pilot.press("ctrl+u", *name, "enter")


async def test_a_new_key_joining_by_code_names_itself_then_plays_chats_and_leaves(
        tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    async with running_service(tmp_path) as service:
        ann, created = await ann_hosts(service)
        app = player_app(service, "key:new-friend", join=created["code"])
        async with app.run_test(size=(80, 24)) as pilot:
            await type_name(pilot, "Bob")
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            board = app.screen
            assert board.shared.names[:2] == ["Ann", "Bob"]
            await ann_plays_until_its_turn(ann, pilot, board)
            before = board.shared.move_count
            await pilot.press(board.key_for(board.shared.legal()[0]))
            await ann.wait_for("update", lambda m: m.get("actions", 0) > before)  # saved

            await pilot.press("c")
            await until(pilot, lambda: bool(board.query("#shared-chat")))
            await pilot.press(*"hello", "enter")
            chat = await ann.wait_for("chat")
            assert (chat["from"], chat["text"]) == ("Bob", "hello")

            await pilot.press("escape", "escape")  # asked, then left
            notice = await ann.wait_for("notice", lambda m: "Bob left" in m["text"])
            assert "stand-in" in notice["text"]
            await until(pilot, lambda: not isinstance(app.screen, SharedBoardScreen))


async def test_a_new_key_joining_a_waiting_table_by_code_chats_in_its_waiting_room(
        tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    async with running_service(tmp_path) as service:
        ann, created = await ann_hosts(service, ["human", "human", "human"])
        app = player_app(service, "key:new-friend", join=created["code"])
        async with app.run_test(size=(80, 24)) as pilot:
            await type_name(pilot, "Cleo")
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))
            await pilot.press("c")
            await until(pilot, lambda: app.focused is not None and
                        isinstance(app.focused, Input))
            await pilot.press(*"hi all", "enter")
            chat = await ann.wait_for("chat")
            assert (chat["from"], chat["text"]) == ("Cleo", "hi all")
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, TableWaitingScreen))


async def test_the_size_guard_takes_its_keys_right_after_a_new_players_name(
        tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        app = player_app(service, "key:new-friend")
        async with app.run_test(size=(80, 24)) as pilot:
            await type_name(pilot, "Dee")
            await until(pilot, lambda: not isinstance(app.screen, NameScreen))
            await pilot.resize_terminal(60, 20)
            await until(pilot, lambda: isinstance(app.screen, TooSmallScreen))
            await pilot.press("q")
            await until(pilot, lambda: app._exit, limit=5)


async def test_a_name_pasted_with_ctrl_u_in_one_packet_is_kept(tmp_path: Path) -> None:
    """ctrl+u, the name and enter read in one packet (a paste over SSH): the suggestion
    is cleared first, then the name typed (Input's own ctrl+u used to run last and clear
    the name)."""
    from textual import events

    from trash_tui.app.app import create_app
    from trash_tui.rules import Rules

    app = create_app(Rules(), ["human", "greedy"], seed=3, animation="off",
                     owner="SHA256:new-key", remote=True, settings_path=tmp_path / "p.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NameScreen))
        await pilot.pause()
        suggested = app.settings.name
        for key, char in [("ctrl+u", "\x15"), *[(c, c) for c in "Robin"], ("enter", "\r")]:
            app.post_message(events.Key(key, char))  # all queued before any is handled
        await until(pilot, lambda: app.settings.name != suggested)  # the prompt closed
        assert app.settings.name == "Robin"
