"""The moderator's log (issue 37): every act of the console (ban, unban, mute, unmute,
kick, close, warn, tell, a report's status, void, unvoid) written by the one door every
console command goes through, with who did it (the operator's user name, from the admin
socket's peer credentials), kept in the history database, listed and searched with
``trash admin log``."""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from admin_helpers import admin, admin_ok
from players_helpers import shared
from ssh_helpers import serving
from table_helpers import TableClient, ann_hosts, name_player
from table_ssh_helpers import Player, enter_lobby, open_tables, table_server

from trash_tui.players.rater import open_history

OPERATOR = pwd.getpwuid(os.geteuid()).pw_name
TRASH = [sys.executable, "-m", "trash_tui.cli.main"]


async def test_every_act_is_logged_by_the_door_with_its_operator_and_searched(
        tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        bob, ann = Player(server, "Bob"), Player(server, "Ann")
        await admin_ok(server, "ban", target="Bob", reason="cheating\x1b[31m", **{"for": "1h"})
        await admin_ok(server, "mute", target="Ann", reason="spam")
        await admin_ok(server, "unmute", target="Ann")
        await admin_ok(server, "unban", target="Bob")
        await admin_ok(server, "who")  # looks, does nothing: not logged
        assert not (await admin(server, "ban", target="Nobody"))["ok"]  # refused: not logged

        rows = (await admin_ok(server, "log"))["data"]
        assert [row["action"] for row in rows] == ["unban", "unmute", "mute", "ban"]
        assert all(row["operator"] == OPERATOR for row in rows)
        ban = rows[-1]
        assert ban["target"] == "Bob" and ban["keys"] == [bob.identity]
        assert "cheating" in ban["detail"] and "\x1b" not in ban["detail"]
        assert rows[1]["keys"] == [ann.identity]

        only_bob = (await admin_ok(server, "log", player="bob"))["data"]
        assert [row["action"] for row in only_bob] == ["unban", "ban"]
        by_key = (await admin_ok(server, "log", player=ann.identity))["data"]
        assert [row["action"] for row in by_key] == ["unmute", "mute"]
        assert [r["action"] for r in (await admin_ok(server, "log", action="ban"))["data"]] \
            == ["ban"]
        assert len((await admin_ok(server, "log", limit=2))["data"]) == 2
        assert len((await admin_ok(server, "log", since="1h"))["data"]) == 4
        await asyncio.sleep(1.2)
        assert (await admin_ok(server, "log", since="1s"))["data"] == []
        bad = await admin(server, "log", since="soon")
        assert not bad["ok"] and "not a duration" in bad["error"]

        path = str(server.config.admin_path)
        ran = await asyncio.to_thread(
            subprocess.run, [*TRASH, "admin", "--socket", path, "log", "--player", "Bob"],
            capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0, ran.stderr
        lines = ran.stdout.splitlines()
        assert len(lines) == 2 and all(OPERATOR in line for line in lines), ran.stdout
        assert "unban" in lines[0] and "ban" in lines[1] and "cheating" in lines[1]
        ran = await asyncio.to_thread(
            subprocess.run, [*TRASH, "admin", "--socket", path, "log", "--since", "later"],
            capture_output=True, text=True, timeout=60)
        assert ran.returncode == 2 and ran.stderr.count("\n") == 1, ran.stderr
        helped = await asyncio.to_thread(subprocess.run, [*TRASH, "admin", "--help"],
                                         capture_output=True, text=True, timeout=60)
        assert " log " in helped.stdout
        backup = tmp_path / "backup.sqlite3"
        ran = await asyncio.to_thread(
            subprocess.run, [*TRASH, "admin", "--socket", path, "backup", str(backup)],
            capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0, ran.stderr
        with sqlite3.connect(backup) as db:  # in the backup
            assert db.execute("SELECT COUNT(*) FROM moderator_log").fetchone() == (4,)

    with sqlite3.connect(tmp_path / "history.sqlite3") as db:  # kept (and so in backups)
        kept = db.execute("SELECT operator, action, target FROM moderator_log ORDER BY id"
                          ).fetchall()
    assert kept == [(OPERATOR, "ban", "Bob"), (OPERATOR, "mute", "Ann"),
                    (OPERATOR, "unmute", "Ann"), (OPERATOR, "unban", "Bob")]


async def test_a_message_to_one_player_reaches_them_alone_wherever_they_are(
        tmp_path: Path) -> None:
    async with table_server(tmp_path) as server:
        ann, bob, carol = (Player(server, name) for name in ("Ann", "Bob", "Carol"))
        await enter_lobby(ann, server)
        await enter_lobby(bob, server)
        await open_tables(bob)
        marks = ann.mark(), bob.mark()
        told = await admin_ok(server, "tell", target="Bob", text="Please keep it\x07 friendly")
        assert told["data"] == {"sessions": 1, "key": bob.identity}
        await bob.sees("Please keep it friendly", since=marks[1])  # on the Tables screen
        await asyncio.sleep(0.5)
        assert not ann.saw("keep it friendly", since=marks[0])
        await admin_ok(server, "tell", target=ann.identity, text="Hello Ann")
        await ann.sees("Hello Ann", since=marks[0])  # in the lobby, by key

        away = await admin(server, "tell", target="Carol", text="Are you there?")
        assert not away["ok"] and away["error"] == "'Carol' is not connected"
        ran = await asyncio.to_thread(
            subprocess.run, [*TRASH, "admin", "--socket", str(server.config.admin_path),
                             "tell", "Carol", "Are", "you", "there?"],
            capture_output=True, text=True, timeout=60)
        assert (ran.returncode, ran.stderr) == (2, "trash: error: 'Carol' is not connected\n")
        nobody = await admin(server, "tell", target="Nobody", text="Hi")
        assert not nobody["ok"] and "no player is called 'Nobody'" in nobody["error"]
        assert not (await admin(server, "tell", target="Bob"))["ok"]  # no text
        rows = (await admin_ok(server, "log", action="tell"))["data"]
        assert [(r["keys"], r["detail"]) for r in rows] == [
            ([ann.identity], "told Ann (1 session) | text: Hello Ann"),
            ([bob.identity], "told Bob (1 session) | text: Please keep it friendly")]
        assert carol.identity not in str(rows)
        await admin_ok(server, "kick", target="Bob", reason="time out")
        [kick] = (await admin_ok(server, "log", action="kick"))["data"]
        assert (kick["keys"], kick["detail"]) == ([bob.identity],
                                                  "kicked 1 session | reason: time out")
        for player in (ann, bob):
            await player.close()


async def test_a_warning_is_shown_now_or_at_the_next_arrival_and_kept_with_the_player(
        tmp_path: Path) -> None:
    async with table_server(tmp_path) as server:
        ann, bob = Player(server, "Ann"), Player(server, "Bob")
        await enter_lobby(ann, server)
        mark = ann.mark()
        await admin_ok(server, "warn", target="Ann", reason="no insults at the table")
        await ann.sees("Warning from the server's operator", since=mark)
        await ann.sees("no insults", since=mark)

        warned = await admin_ok(server, "warn", target="Bob", reason="stop\x07 stalling")
        assert "at their next arrival" in warned["text"]
        await enter_lobby(bob, server)
        await bob.sees("stalling")
        await bob.close()
        await enter_lobby(bob, server)  # told once
        await asyncio.sleep(1.5)
        assert not bob.saw("stalling")

        record = await admin_ok(server, "player", target="Bob")
        assert record["data"]["keys"][0]["key"] == bob.identity
        warnings = record["data"]["warnings"]
        assert [(w["reason"], w["operator"], w["told"] is not None) for w in warnings] == [
            ("stop stalling", OPERATOR, True)]
        assert "warned" in record["text"] and "stop stalling" in record["text"]
        assert [r["action"] for r in (await admin_ok(server, "log"))["data"]] == ["warn", "warn"]
        missing = await admin(server, "warn", target="Bob")
        assert not missing["ok"] and "reason" in missing["error"]
        for player in (ann, bob):
            await player.close()


async def test_a_report_has_a_status_and_its_table_chat_is_kept_past_the_last_20_lines(
        tmp_path: Path) -> None:
    for identity, name in (("key:ann", "Ann"), ("key:hit", "Hit")):
        name_player(tmp_path, identity, name)
    day = 86400.0
    with open_history(tmp_path / "history.sqlite3") as history:  # chat kept from before
        for age, text in ((3 * day, "three days old"), (1 * day, "one day old")):
            history.db.execute("INSERT INTO chat_log (at, table_id, table_code, identity, "
                               "name, text) VALUES (?, 999, 'OLD1', 'key:x', 'X', ?)",
                               (time.time() - age, text))
    async with serving(tmp_path, chat_per_minute=600, chat_days=2) as server:
        service = server.state.tables
        ann, created = await ann_hosts(service)
        hit = await TableClient.connect(service, "key:hit")
        await hit.send({"op": "watch", "table": created["table"]})
        await hit.wait_for("update")
        for number in range(30):
            await hit.send({"op": "chat", "text": f"insult number {number}"})
            await ann.wait_for("chat", lambda m, n=number: m["text"] == f"insult number {n}")
        await ann.send({"op": "report", "name": "Hit", "reason": "abuse"})
        await ann.wait_for("notice", lambda m: "report" in m["text"])
        await hit.send({"op": "chat", "text": "after the report\x07"})
        await ann.wait_for("chat", lambda m: m["text"] == "after the report")

        [row] = (await admin_ok(server, "reports"))["data"]
        assert (row["status"], row["reported"], row["decided_by"]) == ("open", "key:hit", None)
        assert len(row["chat"]) == 20  # what the report itself holds
        number = row["id"]
        shown = await admin_ok(server, "report", id=number)
        kept = [line["text"] for line in shown["data"]["chat"]]
        assert kept == [f"insult number {n}" for n in range(30)] + ["after the report"]
        assert "insult number 0" in shown["text"] and "[open]" in shown["text"]
        text = shown["text"]
        assert text.index("insult number 29") < text.index("the report was sent here") < \
            text.index("after the report")
        assert "three days old" not in str(shown) and "one day old" not in str(shown)

        dismissed = await admin_ok(server, "report", id=number, decision="dismiss",
                                   note="banter between friends")
        assert dismissed["data"]["status"] == "dismissed"
        assert (await admin_ok(server, "reports", open=True))["data"] == []
        await admin_ok(server, "report", id=number, decision="act", note="muted him")
        [row] = (await admin_ok(server, "reports"))["data"]
        assert (row["status"], row["decided_by"], row["note"]) == ("acted", OPERATOR,
                                                                   "muted him")
        assert row["decided_at"] >= row["created"]
        assert "acted on by" in (await admin_ok(server, "reports"))["text"]
        logged = (await admin_ok(server, "log", action="report"))["data"]
        assert [(r["keys"], r["target"]) for r in logged] == [(["key:hit"], str(number))] * 2
        assert "muted him" in logged[0]["detail"]
        assert (await admin(server, "report", id=999))["error"] == "no report #999"
        bad = await admin(server, "report", id=number, decision="forgive")
        assert not bad["ok"] and "dismiss or act" in bad["error"]
        await admin_ok(server, "close", code=created["code"].lower(), reason="abuse")
        [close] = (await admin_ok(server, "log", action="close"))["data"]
        assert (close["target"], close["operator"]) == (created["code"].lower(), OPERATOR)
        assert (await admin_ok(server, "log", limit=1))["data"] == [close]
        for client in (ann, hit):
            await client.close()
    with sqlite3.connect(tmp_path / "history.sqlite3") as db:  # older than chat_days: gone
        texts = {r[0] for r in db.execute("SELECT text FROM chat_log")}
    assert "three days old" not in texts and "one day old" in texts
    assert "insult number 0" in texts
    assert "chat_days" in Path(__file__).parent.parent.joinpath("ssh-server.toml").read_text()


OLD_REPORTS = """
CREATE TABLE reports (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    reporter TEXT NOT NULL,
    reporter_name TEXT NOT NULL,
    reported TEXT NOT NULL,
    reported_name TEXT NOT NULL,
    table_code TEXT NOT NULL,
    reason TEXT NOT NULL,
    chat TEXT NOT NULL
);
"""  # the reports table before they had a status (main before issue 37's second round)


async def test_a_database_from_before_report_statuses_is_upgraded_in_place(
        tmp_path: Path) -> None:
    with contextlib.closing(sqlite3.connect(tmp_path / "history.sqlite3")) as db, db:
        db.executescript(OLD_REPORTS)  # (a history opened now has the new reports table)
        db.execute(
            "INSERT INTO reports (created, reporter, reporter_name, reported, reported_name, "
            "table_code, reason, chat) VALUES (?, 'key:ann', 'Ann', 'key:hit', 'Hit', "
            "'ABCD', 'spam', ?)", (time.time() - 60, '[{"from": "Hit", "text": "buy gold"}]'))
    async with serving(tmp_path) as server:
        [row] = (await admin_ok(server, "reports", open=True))["data"]
        assert (row["status"], row["reason"]) == ("open", "spam")
        shown = await admin_ok(server, "report", id=row["id"])
        assert [line["text"] for line in shown["data"]["chat"]] == ["buy gold"]
        await admin_ok(server, "report", id=row["id"], decision="dismiss")
        assert (await admin_ok(server, "reports", open=True))["data"] == []
        [logged] = (await admin_ok(server, "log"))["data"]  # the new tables are there too
        assert (logged["action"], logged["keys"]) == ("report", ["key:hit"])


PLAYERS = {"key:ann": "Ann", "key:bob": "Bob", "key:cat": "Cat", "key:dan": "Dan"}
#: (the players in seat order, their places): a season of shared tables, humans only
SEASON = [
    (["key:ann", "key:bob", "key:cat"], [2, 3, 1]),
    (["key:bob", "key:dan"], [1, 2]),
    (["key:cat", "key:dan", "key:ann"], [1, 3, 2]),
    (["key:ann", "key:dan"], [2, 1]),
    (["key:cat", "key:bob"], [1, 2]),
    (["key:ann", "key:bob", "key:dan"], [1, 2, 3]),
    (["key:dan", "key:cat"], [2, 1]),
    (["key:bob", "key:ann"], [2, 1]),
]


def season(path: Path, without: str | None = None) -> None:
    """The season's rated matches in a new database (those of ``without`` never
    happened)."""
    with open_history(path) as history:
        for identity, name in PLAYERS.items():
            history.players.register_player(identity, name)
        for players, places in SEASON:
            if without not in players:
                shared(history, ["human"] * len(players), places, dict(enumerate(players)))


def ratings(path: Path) -> dict[tuple[str, str], tuple[float, float, int]]:
    with sqlite3.connect(path) as db:
        return {(r[0], r[1]): (r[2], r[3], r[4]) for r in db.execute(
            "SELECT identity, game, mu, sigma, matches FROM ratings")}


async def test_void_takes_a_cheaters_matches_out_of_the_rating_exactly_and_unvoid_puts_them_back(
        tmp_path: Path) -> None:
    (tmp_path / "never").mkdir()
    season(tmp_path / "never" / "history.sqlite3", without="key:cat")
    never = ratings(tmp_path / "never" / "history.sqlite3")
    path = tmp_path / "history.sqlite3"
    season(path)
    original = ratings(path)
    assert original != never and ("key:cat", "trash") in original
    async with serving(tmp_path) as server:
        voided = await admin_ok(server, "void", target="Cat")
        assert voided["data"]["matches"] == 4 and voided["data"]["key"] == "key:cat"
        assert "4 rated matches" in voided["text"]
        assert ratings(path) == never  # as if they had never been played
        with open_history(path) as history:  # trash players rebuild keeps them out
            history.rebuild_ratings()
        assert ratings(path) == never
        again = await admin(server, "void", target="Cat")
        assert not again["ok"] and again["error"] == "'Cat' has no rated match left to void"
        record = await admin_ok(server, "player", target="Cat")
        assert record["data"]["voided"] == 4 and "void" in record["text"]

        back = await admin_ok(server, "unvoid", target="Cat")
        assert back["data"]["matches"] == 4
        assert ratings(path) == original
        assert not (await admin(server, "unvoid", target="Cat"))["ok"]
        assert not (await admin(server, "void", target="Nobody"))["ok"]
        logged = (await admin_ok(server, "log", player="Cat"))["data"]
        assert [(r["action"], r["keys"]) for r in logged] == [("unvoid", ["key:cat"]),
                                                             ("void", ["key:cat"])]
