"""Players protect themselves at a shared table (issue 26): one person's chat hidden for
oneself, and a report to the operator with the table's last chat lines.

The service's side with protocol clients; then the board's ``p`` over SSH with the real
app (the dialog, ``m`` to hide, ``r`` to report), and ``trash admin reports``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from admin_helpers import admin_ok, chat, seat_two
from table_helpers import TableClient, ann_hosts, name_player, running_service
from table_ssh_helpers import ENTER, table_server

from trash_tui.players.rater import open_history


async def test_hidden_chat_reaches_everyone_else_and_a_report_keeps_the_chat(
        tmp_path: Path) -> None:
    for identity, name in (("key:ann", "Ann"), ("key:bob", "Bob"), ("key:cy", "Cy")):
        name_player(tmp_path, identity, name)
    async with running_service(tmp_path) as service:
        reports: list[str] = []
        service.social.note = lambda message, detail="": reports.append(message)
        ann, created = await ann_hosts(service)
        bob = await TableClient.connect(service, "key:bob")
        await bob.send({"op": "join", "table": created["table"]})
        cy = await TableClient.connect(service, "key:cy")
        await cy.send({"op": "watch", "table": created["table"]})
        await cy.wait_for("update")
        await bob.send({"op": "ignore", "name": "ann"})
        notice = await bob.wait_for("notice", lambda m: "chat lines" in m["text"])
        assert notice["text"] == "You no longer see ann's chat lines."
        await ann.send({"op": "chat", "text": "buy \x1b[2Jgold"})
        assert (await cy.wait_for("chat"))["text"] == "buy [2Jgold"
        await bob.send({"op": "chat", "text": "stop it"})
        assert (await bob.wait_for("chat"))["from"] == "Bob"  # Ann's line never came
        assert (await cy.wait_for("chat"))["text"] == "stop it"
        await bob.send({"op": "ignore", "name": "Ann", "on": False})
        await bob.wait_for("notice", lambda m: "again" in m["text"])  # (before Ann speaks)
        await ann.send({"op": "chat", "text": "sorry"})
        assert (await bob.wait_for("chat"))["text"] == "sorry"

        await bob.send({"op": "report", "name": "Ann", "reason": "spam\nforged line"})
        told = await bob.wait_for("notice", lambda m: "report" in m["text"])
        assert told["text"] == "Your report about Ann went to the server's operator."
        assert reports[:1] == ["report #1: Bob (key:bob) reported Ann (key:ann) at table "
                           f"{created['code']}: spam forged line"]
        await cy.send({"op": "report", "name": "Cy"})  # oneself: nobody to report
        assert "nobody at this table" in (await cy.wait_for("error"))["message"]
        for _ in range(4):  # five in an hour, then no more (the log is not a megaphone)
            await bob.send({"op": "report", "name": "Ann"})
            await bob.wait_for("notice", lambda m: "report" in m["text"])
        await bob.send({"op": "report", "name": "Ann"})
        assert "enough reports" in (await bob.wait_for("error"))["message"]
        for client in (ann, bob, cy):
            await client.close()
    with open_history(tmp_path / "history.sqlite3") as history:
        *_, row = history.records.reports()
    assert (row["reporter"], row["reported"], row["reason"]) == ("key:bob", "key:ann",
                                                                 "spam forged line")
    assert [line["text"] for line in row["chat"]] == ["buy [2Jgold", "stop it", "sorry"]


async def test_p_at_the_table_hides_a_players_chat_and_reports_them(tmp_path: Path) -> None:
    async with table_server(tmp_path) as server:
        ann, bob, table = await seat_two(server)
        mark = ann.mark()
        await ann.press("p", pause=0.3)
        await ann.sees("People at this table", since=mark)
        await ann.press("m", pause=0.3)
        await ann.sees("You no longer see Bob's chat lines", since=mark)
        mark = ann.mark()
        await chat(bob, "you play like a bot")
        await bob.sees("you play like a bot")
        await asyncio.sleep(0.8)
        assert not ann.saw("like a bot", since=mark)
        await ann.press("p", pause=0.3)
        await ann.sees("Bob (chat hidden)", since=mark)
        await ann.press("r", pause=0.3)
        ann.type("insults")
        await ann.press(ENTER, pause=0.3)
        await ann.sees("Your report about Bob went to the server's operator", since=mark)
        reports = await admin_ok(server, "reports")
        assert f"at {table.code}: Ann" in reports["text"]
        assert "reported Bob" in reports["text"] and "insults" in reports["text"]
        assert "Bob: you play like a bot" in reports["text"]
        for player in (ann, bob):
            await player.close()
