"""What the table link says reaches the screens as messages (issue 38, item 5): a screen
that fails to show one message still gets the next, and the link stays up; chat said as
the match starts goes on in the board's log; the operator's kick is a goodbye; a player
who types is not idle; and every handler of the link's messages keeps its error to itself.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import time
from pathlib import Path

from table_helpers import ann_hosts, name_player, running_service
from test_app_shared import (  # noqa: F401  (_fixed: the fixture)
    _fixed,
    bob_at_anns_table,
    player_app,
    until,
)

import trash_tui.app
from trash_tui.app.app import create_app
from trash_tui.app.screens.lobby import LobbyScreen
from trash_tui.app.screens.remote import GoodbyeScreen
from trash_tui.app.shared import table_part as board_module
from trash_tui.app.shared.board import SharedBoardScreen
from trash_tui.app.shared.link import MESSAGES, Kicked, LinkLost, LinkUp, TableMessage
from trash_tui.app.shared.waiting_room import TableWaitingScreen
from trash_tui.app.widgets.game_log import GameLog
from trash_tui.players.rater import open_history
from trash_tui.settings import Settings, default_history_path


def log_text(board: SharedBoardScreen) -> str:
    return " ".join(entry.plain for entry in board.query_one(GameLog).entries)


async def test_a_screen_that_fails_on_a_chat_line_still_shows_the_next_and_keeps_the_link(
        tmp_path: Path, monkeypatch) -> None:
    """A chat line the board cannot show (a bug in its handler) is that line's problem:
    the next line still comes, the board is not told the connection is lost, and what
    the player says still reaches the table."""
    shown = board_module.chat_text

    def chat_text(line, width=None):
        if "boom" in str(line.get("text")):
            raise ValueError("a line the board cannot show")
        return shown(line, width)

    monkeypatch.setattr(board_module, "chat_text", chat_text)
    async with bob_at_anns_table(tmp_path) as (ann, app, pilot, board):
        await until(pilot, lambda: board.shared.playing and bool(board.query(GameLog)))
        await ann.send({"op": "chat", "text": "boom"})
        await ann.send({"op": "chat", "text": "still here"})
        await until(pilot, lambda: "still here" in log_text(board))
        assert app.tables_link.connected
        assert board.table.detached is None
        assert "lost" not in str(board.query_one("#board-status").render())
        await pilot.press("c")
        await until(pilot, lambda: bool(board.query("#shared-chat")))
        await pilot.press(*"hello", "enter")
        chat = await ann.wait_for("chat", lambda m: m.get("text") == "hello")
        assert chat["from"] == "Bob"


async def test_chat_said_as_the_match_starts_goes_on_in_the_boards_log(tmp_path: Path
                                                                       ) -> None:
    """Ann says a line and starts the match at once (both reach Bob together): Bob's
    waiting room turns into the board, and the line is in its log."""
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        ann, created = await ann_hosts(service, ["human", "human", "human"])
        app = player_app(service, "key:bob", join=created["code"])
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))
            await ann.send({"op": "chat", "text": "said in the room"})
            await ann.send({"op": "chat", "text": "good luck"})
            await ann.send({"op": "start"})
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            board = app.screen
            await until(pilot, lambda: "good luck" in log_text(board))
            assert "said in the room" in log_text(board)
            assert [type(screen).__name__ for screen in app.screen_stack].count(
                "SharedBoardScreen") == 1


async def test_the_operator_ending_the_session_is_a_goodbye_with_the_reason(
        tmp_path: Path) -> None:
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        app = player_app(service, "key:bob")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            app.post_message(Kicked({"op": "kicked", "why": "spam \x1b[2Jagain"}))
            await until(pilot, lambda: isinstance(app.screen, GoodbyeScreen)
                        and bool(app.screen.query("#goodbye")))
            text = str(app.screen.query_one("#goodbye").render())
            assert "ended this session: spam [2Jagain" in text


async def test_a_player_who_types_is_not_idle(tmp_path: Path) -> None:
    """Keys keep the idle goodbye away; it comes once they stop."""
    with open_history(default_history_path()) as history:
        history.players.register_player("SHA256:alice", "Alice")
    app = create_app(settings=Settings(animation="off"), owner="SHA256:alice", remote=True,
                     settings_path=tmp_path / "a.toml", idle_timeout=1.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        typing_until = time.monotonic() + 2.5
        while time.monotonic() < typing_until:
            await pilot.press("down")
            await pilot.pause(0.2)
            assert not isinstance(app.screen, GoodbyeScreen)
        await until(pilot, lambda: isinstance(app.screen, GoodbyeScreen), limit=5)


def test_every_handler_of_the_links_messages_keeps_its_error_to_itself() -> None:
    """A screen's (or the app's) ``on_...`` handler of a message of the link is
    ``contained``: its error is said, and the next message still comes."""
    names = {kind.handler_name for kind in (*MESSAGES.values(), LinkUp, LinkLost)}
    found = []
    for module_info in pkgutil.walk_packages(trash_tui.app.__path__, "trash_tui.app."):
        module = importlib.import_module(module_info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            for name in names & set(vars(cls)):
                found.append(f"{cls.__name__}.{name}")
                assert getattr(vars(cls)[name], "contained", False), f"{cls.__name__}.{name}"
    assert len(found) >= 15, found  # the board's, the rooms', the lists', the lobby's


def test_no_screen_takes_the_links_messages_with_on_only_the_apps_router() -> None:
    """The app passes a message of the link only to the screens with an ``on_...``
    handler for its kind (``link.handles``): a handler made with ``@on`` would never get
    one, so none is; the app's router is the one ``@on`` (every kind)."""
    kinds = {kind.__name__ for kind in (*MESSAGES.values(), LinkUp, LinkLost, TableMessage)}
    decorated = re.compile(r"@on\(\s*(\w+)")
    found = []
    for path in sorted(Path(trash_tui.app.__path__[0]).rglob("*.py")):
        for kind in decorated.findall(path.read_text(encoding="utf-8")):
            if kind in kinds:
                found.append(f"{path.name}: {kind}")
    assert found == ["app.py: TableMessage"]
