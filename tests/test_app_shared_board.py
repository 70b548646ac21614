"""What a player expects of a shared table's board: leaving is asked first, a board that
no longer gets its table's updates says so, the table's notices do not stay for ever,
and the end of the match says each player's rating change."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_helpers import TableClient, ann_hosts, name_player, running_service
from test_app_shared import (  # noqa: F401  (_fixed: the fixture)
    _fixed,
    ann_plays_until_its_turn,
    bob_at_anns_table,
    player_app,
    until,
)

from trash_tui.app.shared import table_part as board_module
from trash_tui.app.shared.board import SharedBoardScreen
from trash_tui.app.shared.link import ServerSay, TableNotice
from trash_tui.app.shared.table_part import rating_lines
from trash_tui.app.shared.tables_screen import TablesScreen
from trash_tui.app.widgets.game_log import GameLog


def status(board: SharedBoardScreen) -> str:
    return str(board.query_one("#board-status").render())


async def test_escape_asks_before_a_seated_player_leaves_and_another_key_keeps_the_seat(
        tmp_path: Path) -> None:
    async with bob_at_anns_table(tmp_path) as (ann, app, pilot, board):
        await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        await until(pilot, lambda: board.shared.playing)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is board
        assert "Leave the table?" in status(board)
        await pilot.press("m")  # any other key: stay (m hides the chat)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is board  # asked again, not left
        await pilot.press("escape")
        await ann.wait_for("notice", lambda m: "Bob left" in m["text"])
        await until(pilot, lambda: app.screen is not board)


async def test_a_board_whose_seat_is_taken_in_another_session_says_it_gets_no_updates(
        tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        _ann, created = await ann_hosts(service)
        app = player_app(service, "key:bob", join=created["code"])
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            board = app.screen
            other = await TableClient.connect(service, "key:bob")  # Bob, a second session
            await other.send({"op": "join", "code": created["code"]})
            await other.wait_for("update")
            await until(pilot, lambda: board.table.detached is not None)
            assert "no longer at this table" in status(board)
            moves = board.shared.move_count
            await pilot.press("s")  # nothing is sent from a detached board
            await pilot.pause(0.2)
            assert board.shared.move_count == moves


async def test_the_tables_notices_go_after_a_while(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # (long enough to be seen on a busy machine: the check right after it is not timed)
    monkeypatch.setattr(board_module, "NOTICE_SECONDS", 3.0)
    async with bob_at_anns_table(tmp_path) as (_ann, _app, pilot, board):
        board.post_message(TableNotice({"op": "notice", "text": "Ann lost the connection."}))
        await until(pilot, lambda: "Ann lost the connection." in status(board))
        await until(pilot, lambda: "Ann lost the connection." not in status(board))


def test_rating_changes_read_as_before_after_and_the_difference() -> None:
    lines = rating_lines([{"seat": 0, "name": "Ann\x1b[2J", "before": 1500.2, "after": 1531.6},
                          {"seat": 1, "name": "Bob", "before": 1500, "after": 1480},
                          {"seat": 2, "name": "Broken", "before": "x"}])
    assert lines == ["  Ann[2J 1500 → 1532 (+31)", "  Bob 1500 → 1480 (-20)"]


async def test_a_spectator_sees_the_chat_from_before_they_came(tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:cleo", "Cleo")
    async with running_service(tmp_path) as service:
        ann, created = await ann_hosts(service, ["human", "easy"])
        await ann.send({"op": "chat", "text": "good luck everyone"})
        await ann.wait_for("chat")
        app = player_app(service, "key:cleo")
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: app.tables_link.connected)
            app.open_tables({"op": "watch", "code": created["code"]})
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            board = app.screen
            await until(pilot, lambda: any("good luck everyone" in line for line in
                                           log_lines(board)))


async def test_back_at_a_held_seat_the_board_says_so_on_its_own_status_line(
        tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        ann, created = await ann_hosts(service)
        bob = await TableClient.connect(service, "key:bob")
        await bob.send({"op": "join", "code": created["code"]})
        await bob.wait_for("update", lambda m: m["table"]["status"] == "playing")
        bob.writer.close()  # Bob's connection drops; his seat is kept
        await ann.wait_for("notice", lambda m: "Bob" in m["text"])
        app = player_app(service, "key:bob")  # Bob again, plain ssh
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            board = app.screen
            await until(pilot, lambda: "back at your seat" in status(board).lower())
            assert not app.screen.query("Toast")  # no toast over the piles


async def test_the_goodbye_of_an_app_at_its_cpu_limit_says_a_shared_seat_comes_back(
        tmp_path: Path) -> None:
    async with bob_at_anns_table(tmp_path) as (_ann, app, pilot, _board):
        app.cpu_time_used()
        await pilot.pause()
        said = str(app.screen.query_one("#goodbye").render())
        assert "seat at the table is kept" in said and "press c" not in said


def log_lines(board: SharedBoardScreen) -> list[str]:
    from trash_tui.app.widgets.game_log import GameLog

    return [entry.plain for entry in board.query_one(GameLog).entries]


async def test_the_status_line_with_the_clock_and_an_away_player_is_one_line_at_100(
        tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", "Ann")
    name_player(tmp_path, "key:bob", "Bob")
    async with running_service(tmp_path) as service:
        ann, created = await ann_hosts(service, clock=60)
        app = player_app(service, "key:bob", join=created["code"])
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            board = app.screen
            await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
            await ann.send({"op": "leave"})  # the stand-in plays for Ann
            await until(pilot, lambda: board.shared.waiting_for_human and
                        "stand-in for Ann" in status(board), limit=20)
            lines = status(board).splitlines()  # a notice, then what to do
            assert "⏱" in lines[-1]
            assert board.query_one("#board-status").size.height == len(lines)  # no wrap


async def test_escape_under_a_deals_summary_is_the_tables_escape(tmp_path: Path) -> None:
    """At a shared table the summary of a deal closes by itself: escape there asks to
    leave (a spectator's leaves), it does not just close the box."""
    async with bob_at_anns_table(tmp_path) as (ann, _app, pilot, board):
        await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        await until(pilot, lambda: board.shared.playing)
        board.driver.hold("summary")  # as when a deal has just ended
        await pilot.press("escape")
        await pilot.pause()
        assert "Leave the table?" in status(board)


async def test_the_operators_notice_covers_neither_cards_nor_status_and_goes(
        tmp_path: Path) -> None:
    async with bob_at_anns_table(tmp_path) as (_ann, app, pilot, board):
        def laid_out() -> bool:  # the board's parts drawn where they stay (a loaded
            # machine can mount them a frame before it lays them out)
            return board.shared.playing and all(
                bool(board.query(name)) and board.query_one(name).region.area > 0
                for name in ("#table", "#piles"))

        await until(pilot, laid_out)
        kept = {name: board.query_one(name).region for name in ("#table", "#piles")}
        app.post_message(ServerSay({"op": "say", "text": "Restart in \x1b[2Jfive minutes",
                                    "seconds": 1}))
        await pilot.pause()
        box = board.query_one("#server-notice")
        assert "Restart in [2Jfive minutes" in str(box.render())
        for name in ("#table", "#piles", "#board-status"):
            assert not box.region.overlaps(board.query_one(name).region), name
        assert {name: board.query_one(name).region for name in kept} == kept
        assert "Restart" not in status(board)
        await pilot.pause(1.3)
        assert not board.query("#server-notice")  # gone after its time


async def test_a_second_notice_while_the_first_is_up_replaces_it_and_keeps_the_log(
        tmp_path: Path) -> None:
    """Two ``trash admin say`` in a row: the box says the second, the game log and its
    chat lines stay, and the box goes after the second's seconds."""
    async with bob_at_anns_table(tmp_path) as (ann, app, pilot, board):
        await until(pilot, lambda: board.shared.playing and bool(board.query(GameLog)))
        await ann.send({"op": "chat", "text": "good luck all"})
        log = board.query_one(GameLog)
        await until(pilot, lambda: "good luck all" in " ".join(e.plain for e in log.entries))
        app.post_message(ServerSay({"op": "say", "text": "Restart in five minutes",
                                    "seconds": 30}))
        await pilot.pause()
        app.post_message(ServerSay({"op": "say", "text": "Restart in one minute",
                                    "seconds": 1}))
        await pilot.pause(0.3)
        boxes = board.query("#server-notice")
        assert len(boxes) == 1 and "Restart in one minute" in str(boxes.first().render())
        assert board.query(GameLog) and board.query_one(GameLog) is log
        assert "good luck all" in " ".join(e.plain for e in log.entries)
        assert log.region.area > 0
        await pilot.pause(1.3)
        assert not board.query("#server-notice")  # gone after the second's time
        assert board.query_one(GameLog) is log and log.region.area > 0


async def test_the_command_palette_offers_no_hint_at_a_table_of_people(tmp_path: Path) -> None:
    """The expert's hint is a local match's (the board's h key is hidden at a shared
    table): the command palette does not offer it there either, even on the player's own
    turn (issue 38: the shared board is no local board with a faked seed)."""
    async with bob_at_anns_table(tmp_path) as (ann, app, pilot, board):
        await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        await until(pilot, lambda: board.shared.playing)
        titles = [command.title for command in app.get_system_commands(board)]
        assert "Rules help" in titles  # (the palette's commands of a board)
        assert "Hint" not in titles


async def test_a_move_at_the_table_repaints_what_it_changed_not_the_whole_board(
        tmp_path: Path) -> None:
    """The Tables screen under the board shows none of the table's moves: a move reaches
    the board only, and the board repaints what the move changed. (A screen under the
    board woken by a message has Textual repaint the whole board over it: every move
    then sent the player's terminal the whole screen again.)"""
    async with bob_at_anns_table(tmp_path) as (ann, app, pilot, board):
        await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")
        await until(pilot, lambda: board.shared.playing)
        await pilot.pause(0.3)
        assert isinstance(app.screen_stack[-2], TablesScreen)  # (what Textual counts as shown)
        whole = board.region
        repainted: list[bool] = []  # per repaint: whether it was the whole board
        original = board.refresh

        def counted(*regions, **kwargs):
            repainted.append(not regions or any(whole in region for region in regions))
            return original(*regions, **kwargs)

        board.refresh = counted  # type: ignore[method-assign]
        moves = board.shared.move_count
        for _ in range(2):  # Bob's moves (the first legal one), then Ann's, twice
            while board.shared.waiting_for_human:
                if board.driver.free:
                    board.driver.play_now(lambda: board.shared.play(board.shared.legal()[0]))
                await pilot.pause(0.1)
            await ann_plays_until_its_turn(ann, pilot, board)
        await pilot.pause(0.5)
        assert board.shared.move_count >= moves + 4  # (the moves were shown)
        assert not any(repainted)
