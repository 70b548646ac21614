"""A shared table's pace comes from one place (issue 38, item 2): the server's pacer and
every board use ``play.turns``' timings, the welcome tells each client the server's, and
after a deal the table resumes when the deal's summary closes on the screens, not a bot
delay later."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from table_helpers import TableClient, running_service

from trash_tui.app.shared.board import SUMMARY_SECONDS
from trash_tui.engine.actions import parse_action
from trash_tui.play.turns import TABLE_PACE, Pace
from trash_tui.tables.service import TableLimits


def test_the_servers_pause_after_a_deal_is_the_time_a_boards_summary_stays_up() -> None:
    limits = TableLimits()
    assert limits.pace == TABLE_PACE
    assert SUMMARY_SECONDS == limits.deal_pause >= limits.bot_delay
    assert Pace.from_dict(TABLE_PACE.to_dict()) == TABLE_PACE
    assert Pace.from_dict({"bot_delay": "soon", "deal_pause": -1}) == TABLE_PACE


async def test_the_welcome_tells_the_pace_and_the_table_resumes_when_the_summary_ends(
        tmp_path: Path) -> None:
    limits = TableLimits(bot_delay=0.2, deal_pause=0.8)
    async with running_service(tmp_path, limits) as service:
        ann = await TableClient.connect(service, "key:ann")
        assert ann.messages[0]["pace"] == {"bot_delay": 0.2, "deal_pause": 0.8}
        eve = await TableClient.connect(service, "key:eve")  # keeps the table playing
        await ann.send({"op": "create", "config": {
            "name": "Quick", "seats": ["human", "random"], "clock": 0,
            "rules": {"start_size": 2}}})
        created = await ann.wait_for("created")
        await eve.send({"op": "watch", "code": created["code"]})
        await ann.send({"op": "leave"})  # the stand-in plays for Ann
        loop = asyncio.get_running_loop()
        seen: list[tuple[float, int, int]] = []  # when, deals over, actions

        def moved(message: dict[str, Any]) -> bool:
            if "state" in message:
                seen.append((loop.time(), len(message["state"]["history"]),
                             message["actions"]))
            deals = [deals for _, deals, _ in seen]
            return bool(deals) and deals[-1] >= 1 and seen[-1][2] > next(
                actions for _, d, actions in seen if d >= 1)

        await eve.wait_for("update", moved, timeout=60)
        ended = next(when for when, deals, _ in seen if deals >= 1)
        resumed = seen[-1][0]
        assert 0.7 <= resumed - ended < 0.95  # the summary's time, not a bot delay more
        await ann.close()
        await eve.close()


async def test_the_update_that_gives_a_player_the_turn_after_the_bots_carries_their_clock(
        tmp_path: Path) -> None:
    """The turn clock is on the player's screen from the moment their turn comes, also
    when it comes after the bots' moves (the clock was set after that update was sent, so
    a board never showed ⏱ though the clock ran out)."""
    limits = TableLimits(bot_delay=0.05, deal_pause=0.0)
    async with running_service(tmp_path, limits) as service:
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": {
            "seats": ["human", "random", "random", "random"], "clock": 30}})
        await ann.wait_for("created")
        await ann.send({"op": "start"})
        turns = 0
        while turns < 3:
            update = await ann.wait_for("update", lambda m: m["table"]["status"] == "playing"
                                        and m.get("observation") is not None
                                        and m["observation"]["to_move"] == m.get("seat"))
            if update["actions"] > 0:  # (her turn after others' moves)
                assert update.get("clock") is not None, update.get("clock")
                assert update["clock"]["seat"] == update["seat"]
                turns += 1
            await ann.send({"op": "act", "at": update["actions"],
                            "action": parse_action(update["observation"]["legal"][0])})
