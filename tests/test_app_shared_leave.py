"""Leaving a shared table while others play (issue 35): ``esc`` asks, and the question
holds until the player answers it or its time, which it shows, runs out — whatever the
bots play meanwhile. Driven by Textual's pilot against a real table service in the same
event loop: Bob hosts a table of himself and two bots, starts it and plays with them."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from table_helpers import FAST, name_player, running_service
from test_app_shared import (  # noqa: F401  (_fixed: the fixture)
    _fixed,
    player_app,
    until,
)

from trash_tui.app.shared import table_part as board_module
from trash_tui.app.shared.board import SharedBoardScreen
from trash_tui.app.shared.link import TableNotice
from trash_tui.app.shared.tables_screen import TablesScreen
from trash_tui.app.trash.board import BoardScreen
from trash_tui.tables.service import TableService
from trash_tui.tables.table import Table

BOTS = replace(FAST, bot_delay=0.25)  # the bots move four times a second
QUESTION = "Leave the table?"


def status(board: SharedBoardScreen) -> str:
    return str(board.query_one("#board-status").render())


@contextlib.asynccontextmanager
async def bob_with_bots(tmp_path: Path) -> AsyncIterator[tuple[TableService, Any, Any,
                                                               SharedBoardScreen]]:
    """Bob's app creates a table of himself and two easy bots (it starts at once): the
    service, his app, its pilot and his board."""
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path, BOTS) as service:
        app = player_app(service, "key:bob")
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: app.tables_link.connected)
            app.open_tables({"op": "create", "config": {"seats": ["human", "easy", "easy"],
                                                        "clock": 0}})
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            board = app.screen
            assert isinstance(board, SharedBoardScreen)
            await until(pilot, lambda: board.shared.playing)
            yield service, app, pilot, board


def bobs_table(service: TableService) -> Table:
    return next(table for table in service.tables.values()
                if table.seat_of("key:bob") is not None)


async def while_the_bots_play(pilot, board: SharedBoardScreen) -> None:
    """Bob plays his turn (the first legal move, by its key) until a bot is to move."""
    for _ in range(200):
        await pilot.pause(0.05)
        if board.shared.waiting_for_human and board.shared.legal() and \
                not board.animating:
            moves = board.shared.move_count
            await pilot.press(BoardScreen.key_for(board.shared.legal()[0]))
            await until(pilot, lambda moves=moves: board.shared.move_count > moves)
        elif not board.shared.waiting_for_human and board.shared.playing:
            return
    raise AssertionError("the bots never got a turn")


async def test_the_second_escape_leaves_though_the_bots_moved_in_between(
        tmp_path: Path) -> None:
    async with bob_with_bots(tmp_path) as (service, app, pilot, board):
        await while_the_bots_play(pilot, board)
        moves = board.shared.move_count  # (a bot is to move: its move comes after this)
        await pilot.press("escape")
        await pilot.pause()
        assert QUESTION in status(board)
        await until(pilot, lambda: board.shared.move_count > moves)  # a bot plays
        await pilot.pause(0.1)
        assert QUESTION in status(board)  # their moves did not erase the question
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TablesScreen))
        table = bobs_table(service)
        await until(pilot, lambda: table.seats[table.seat_of("key:bob")].away)


async def test_any_other_key_answers_stay_and_the_question_goes_at_once(
        tmp_path: Path) -> None:
    async with bob_with_bots(tmp_path) as (_service, app, pilot, board):
        await pilot.press("escape")
        await pilot.pause()
        assert QUESTION in status(board)
        await pilot.press("z")  # a key that does nothing else
        await pilot.pause()
        assert QUESTION not in status(board)
        await pilot.press("escape")  # asks again, does not leave
        await pilot.pause()
        assert app.screen is board and QUESTION in status(board)


async def test_a_click_on_the_board_answers_stay_and_a_table_notice_keeps_the_question(
        tmp_path: Path) -> None:
    async with bob_with_bots(tmp_path) as (_service, app, pilot, board):
        await pilot.press("escape")
        await pilot.pause()
        board.on_table_notice(TableNotice({"op": "notice", "text": "Cleo is watching."}))
        await pilot.pause()
        assert "Cleo is watching." in status(board) and QUESTION in status(board)
        await pilot.click("#board-log")
        await pilot.pause()
        assert QUESTION not in status(board)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is board and QUESTION in status(board)


async def test_the_question_goes_after_the_time_it_shows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board_module, "LEAVE_SECONDS", 1)
    async with bob_with_bots(tmp_path) as (_service, app, pilot, board):
        await pilot.press("escape")
        await pilot.pause()
        assert "esc again within 1 s: leave" in status(board)
        await pilot.pause(1.3)
        assert QUESTION not in status(board)
        await pilot.press("escape")  # a new question, not an answer to the old one
        await pilot.pause()
        assert app.screen is board and QUESTION in status(board)


async def test_a_screen_over_the_board_takes_the_question_with_it(tmp_path: Path) -> None:
    async with bob_with_bots(tmp_path) as (_service, app, pilot, board):
        await pilot.press("escape")
        await pilot.pause()
        assert QUESTION in status(board)
        await pilot.resize_terminal(60, 20)  # the size guard comes over the board
        await until(pilot, lambda: app.screen is not board)
        await pilot.resize_terminal(100, 32)
        await until(pilot, lambda: app.screen is board)
        await pilot.pause()
        assert QUESTION not in status(board)
        await pilot.press("escape")  # asks again, does not leave
        await pilot.pause()
        assert app.screen is board and QUESTION in status(board)
