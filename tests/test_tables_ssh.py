"""Shared tables over SSH (issue 13), played through the real app: asyncssh clients whose
sessions run ``trash`` on a PTY, their screens read as text.

Players are registered in the history database first (their name is known: no name
prompt) and have animations off; bots and stand-ins move after 0.05 s. The table service
runs in the test's process, so the tests ask it whose turn it is (``table_ssh_helpers``);
what they check is what the players see and what the history database keeps. Four humans
at one table are played at the service level (test_tables_service.py).
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from ssh_helpers import process_gone, serving
from table_ssh_helpers import (
    ENTER,
    TAB,
    Player,
    actions_of,
    create_table,
    enter_lobby,
    human_to_move,
    make_fast,
    move,
    open_tables,
    play,
    shown_line,
    table_of,
    wait_until,
)

from trash_tui.history import FINISHED, PLAYING
from trash_tui.players.rater import open_history
from trash_tui.ssh.server import RunningServer
from trash_tui.tables.table import Table


async def sit_two(server: RunningServer, preset: str = "standard", seats: int = 4,
                  clock: int | None = None) -> tuple[Player, Player, Table]:
    """Ann creates a table from the Tables screen; Bob comes in with its code as his SSH
    user name and goes straight to it; the match begins (every open seat is taken)."""
    ann, bob = Player(server, "Ann"), Player(server, "Bob")
    await enter_lobby(ann, server)
    await open_tables(ann)
    code = await create_table(ann, preset, seats, clock)
    table = table_of(server, code)
    await bob.connect(server, username=code)
    await wait_until(lambda: table.status == "playing", what="the match to begin")
    for player in (ann, bob):
        await player.sees("Your move", "is playing")
    return ann, bob, table


async def test_two_humans_and_a_bot_play_a_whole_match_into_both_histories(
        tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        make_fast(server)
        ann, bob, table = await sit_two(server, preset="kids", seats=3, clock=0)
        assert [seat.name for seat in table.seats] == ["Ann", "Bob", None]
        assert table.seats[2].spec == "normal"
        await play(table, [ann, bob], lambda: table.controller.over, timeout=60)
        for player in (ann, bob):
            await player.sees("The match is over")
            await player.sees(f"Your move, {player.name}")
            other = "Bob" if player is ann else "Ann"
            assert player.saw(f"{other} is playing")  # the other's turns, live
            assert not player.saw(f"Your move, {other}")
        await wait_until(lambda: table.status == "finished")
        with open_history(server.config.history) as history:
            [ann_row] = history.matches.of_player(ann.identity)
            [bob_row] = history.matches.of_player(bob.identity)
            assert ann_row.id == bob_row.id and ann_row.status == FINISHED
            assert ann_row.names[:2] == ["Ann", "Bob"]
            assert ann_row.actions == actions_of(table) == \
                len(history.matches.match_actions(ann_row.id))


async def test_join_by_code_from_the_tables_screen_and_watch_from_the_list_or_a_code(
        tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        make_fast(server, bot_delay=0.3)
        ann, bob = Player(server, "Ann"), Player(server, "Bob")
        cy, di = Player(server, "Cy"), Player(server, "Di")
        for player in (ann, bob, cy, di):
            await enter_lobby(player, server)
            await open_tables(player)
        code = await create_table(ann)
        table = table_of(server, code)
        await bob.sees("Ann's table")  # the list is live
        mark = bob.mark()
        await bob.press("j")
        await bob.sees("The table's code", since=mark)
        mark = bob.mark()
        await bob.press(code.lower(), ENTER)
        await wait_until(lambda: table.status == "playing", what="Bob's seat")
        await bob.sees("Your move", "is playing", since=mark)
        assert table.seat_of(bob.identity) == 1

        await cy.sees("playing deal 1")  # the list says the match is on
        mark = cy.mark()
        await cy.press("w")
        await cy.sees("Watching", since=mark)
        mark = di.mark()
        await di.press("j")
        await di.sees("The table's code", since=mark)
        await di.press(code, TAB, TAB, ENTER)  # the Watch button
        await wait_until(lambda: len(table.spectators) == 2, what="two spectators")
        await di.sees("Watching", since=mark)
        assert table.seat_of(cy.identity) is None and table.seat_of(di.identity) is None

        # spectators' and out-of-turn keys move nothing; the players' moves reach everyone
        await wait_until(lambda: human_to_move(table) is not None, what="a human's turn")
        seat = human_to_move(table)
        assert seat is not None
        mover, waiter = (ann, bob) if table.seats[seat].identity == ann.identity \
            else (bob, ann)
        before = actions_of(table)
        for player in (waiter, cy, di):
            await player.press("s", "d", "k", "1")
        await asyncio.sleep(0.3)
        assert actions_of(table) == before and human_to_move(table) == seat
        marks = {player.name: player.mark() for player in (waiter, cy, di)}
        events = len(table.controller.match.events)
        await move(table, mover)
        line = shown_line(table, events)
        assert line.startswith(mover.name)
        for player in (waiter, cy, di):
            await player.sees(line, since=marks[player.name])
        await wait_until(lambda: table.summary()["spectators"] == 2)


async def test_a_turn_clock_running_out_hands_the_turn_to_the_stand_in_and_a_key_takes_it_back(
        tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        make_fast(server, bot_delay=0.3)
        ann = Player(server, "Ann")
        await enter_lobby(ann, server)
        await open_tables(ann)
        code = await create_table(ann, clock=5)
        table = table_of(server, code)
        mark = ann.mark()
        await ann.press("s")  # start now: the open seat goes to the stand-in bot
        await ann.sees("Your move, Ann", since=mark, timeout=20)
        await ann.sees("⏱")  # the clock on the status line
        before = actions_of(table)
        mark = ann.mark()
        await ann.sees("ran out of time", since=mark, timeout=15)
        await ann.sees("The stand-in is playing for you", since=mark)
        await wait_until(lambda: actions_of(table) > before, what="the stand-in's move")
        assert table.seats[0].away and table.summary()["seats"][0]["state"] == "away"

        mark = ann.mark()
        await ann.press("z")  # any key
        await ann.sees("You have your seat back", since=mark)
        assert not table.seats[0].away
        await wait_until(lambda: human_to_move(table) == 0, what="Ann's turn again")
        await ann.sees("Your move, Ann", since=mark)
        await move(table, ann)


async def test_a_dropped_connection_keeps_the_seat_and_a_reconnect_goes_back_to_it(
        tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        make_fast(server, bot_delay=0.2)
        ann, bob, table = await sit_two(server)
        await play(table, [ann, bob], lambda: actions_of(table) >= 4)
        mark = ann.mark()
        bob.drop()
        await ann.sees("Bob lost the connection", since=mark)
        await wait_until(lambda: table.seats[1].away, what="Bob's seat held, away")
        assert table.seat_of(bob.identity) == 1
        # the stand-in plays for Bob; Ann plays on
        held = actions_of(table)
        await play(table, [ann], lambda: actions_of(table) >= held + 6)

        await bob.connect(server)
        await bob.sees("You are back at your seat")
        await wait_until(lambda: not table.seats[1].away, what="Bob back at his seat")
        await bob.sees("Your move, Bob", "is playing")
        await play(table, [ann], lambda: human_to_move(table) == 1)  # Bob's turn
        await bob.sees("Your move, Bob")
        await move(table, bob)
        with open_history(server.config.history) as history:
            [row] = history.matches.of_player(bob.identity)
            assert row.status == PLAYING and row.id == table.match_id


async def test_a_killed_session_process_never_stops_the_table(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        make_fast(server)
        ann, bob, table = await sit_two(server)
        [session] = [s for s in server.sessions if s.player == bob.identity]
        pid = session.pid
        assert pid is not None
        mark = ann.mark()
        os.kill(pid, signal.SIGKILL)
        await wait_until(lambda: process_gone(pid), what="the session's process to go")
        await ann.sees("Bob lost the connection", since=mark)
        killed = actions_of(table)
        await play(table, [ann], lambda: actions_of(table) >= killed + 8)
        assert table.status == "playing" and table.seats[1].away
        await wait_until(lambda: bob.ended, what="Bob's SSH session to end")


async def test_a_restarted_server_restores_the_table_and_a_player_goes_on(tmp_path: Path
                                                                        ) -> None:
    async with serving(tmp_path) as server:
        make_fast(server)
        ann, bob, table = await sit_two(server)
        await play(table, [ann, bob], lambda: actions_of(table) >= 6)
        played, match_id = actions_of(table), table.match_id
    await ann.close()
    await bob.close()
    with open_history(tmp_path / "history.sqlite3") as history:
        saved = len(history.matches.match_actions(match_id or 0))
    assert saved >= played  # every move made before the stop

    async with serving(tmp_path) as server:
        make_fast(server)
        [table] = server.state.tables.tables.values()
        assert table.match_id == match_id and actions_of(table) == saved
        ann = Player(server, "Ann", ann.key)
        await ann.connect(server)
        await ann.sees("You are back at your seat")
        await ann.sees("waits up to 10 minutes for Bob")  # the restart made no leaver
        bob_seat = table.seat_of(bob.identity)
        await play(table, [ann], lambda: table.controller.to_move == bob_seat)
        held = actions_of(table)
        await asyncio.sleep(1.0)
        assert actions_of(table) == held  # no stand-in plays for Bob: the table waits
        bob = Player(server, "Bob", bob.key)
        await bob.connect(server)
        await bob.sees("You are back at your seat")
        await play(table, [ann, bob], lambda: actions_of(table) >= played + 6)
        with open_history(server.config.history) as history:
            [row] = history.matches.of_player(ann.identity)
            assert row.id == match_id and row.actions == actions_of(table)
