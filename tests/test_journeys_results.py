"""The end of a match where a player left, through the real OpenSSH client in tmux at
80×24 (issue 35, item 2): what the standings box and History show is what the rating
keeps.

Ann (a known key) opens a two-seat table with a one-deal game (Seven Up); Bob (a new key:
he is asked his name first) comes in with its code as his SSH user name. Ann leaves with
``esc``: the stand-in plays her seat to the end while Bob plays his. Whoever's layout the
deal puts first, Ann left: Bob's standings box names him the winner and Ann last, "left
the table"; each one's History says the same (Ann's line says she left); the server's
rating (its history database, the only oracle: the server is another process) has Ann
last. Skipped only when ``ssh`` or ``tmux`` is not installed.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from journey_helpers import (
    FIRST_SCREEN,
    LOBBY,
    STEP,
    TABLES_TITLE,
    JourneyServer,
    Person,
    Table,
    choose,
    code_of,
    tab_to,
)

from trash_tui.players.rater import open_history

pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None,
    reason="needs the OpenSSH client (ssh) and tmux installed "
           "(apt-get install openssh-client tmux)")

SEVEN_UP_DOWNS = 15  # "seven-up" is the 16th preset of the form's rules list
MATCH_OVER = 240.0  # seconds for one deal of Seven Up, the stand-in moving for Ann


@pytest.fixture
def server(tmp_path: Path) -> Iterator[JourneyServer]:
    running = JourneyServer(tmp_path)
    try:
        running.start()
        yield running
    finally:
        running.kill()


def open_seven_up_for_two(host: Person) -> str:
    """From the lobby: a new table of two seats (the host and a friend) playing Seven Up;
    its join code."""
    host.open_tables()
    host.pane.press("n")
    host.sees("A new table")
    at = tab_to(host, 2, 1)  # from the name to the rules
    choose(host, ["Down"] * SEVEN_UP_DOWNS, "seven-up")
    tab_to(host, 3, at)  # the number of seats: 4 -> 2
    choose(host, ["Up", "Up"], "Seat 2")
    host.pane.press("C-s")
    return code_of(host)


def to_the_lobby(person: Person) -> None:
    """esc until the lobby shows (from the Tables screen or the standings)."""
    deadline = time.monotonic() + STEP
    while LOBBY not in person.text():
        assert time.monotonic() < deadline, person.pane.failure(
            f"{person.name} never got back to the lobby", person.pane.screen())
        person.pane.press("Escape")
        time.sleep(0.6)


def history_line(person: Person) -> str:
    """From the lobby: ``h``; the first row of the History table."""
    person.pane.press("h")
    person.sees("Match history")
    rows = [row for row in person.text_rows() if re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", row)]
    assert rows, person.pane.failure("no match in the History", person.pane.screen())
    return rows[0]


def test_a_player_who_left_is_last_in_the_standings_box_history_and_rating(
        server: JourneyServer, tmp_path: Path) -> None:
    ann = Person(tmp_path, server, "Ann", known=True)
    bob = Person(tmp_path, server, "Bob", known=False)
    try:
        ann.arrive(server)
        code = open_seven_up_for_two(ann)
        bob.connect(server, username=code)
        bob.name_if_asked()
        bob.sees("Stock", timeout=FIRST_SCREEN)
        ann.sees("Stock", timeout=STEP)
        table = Table(server, [ann, bob])
        match_id = table.match()

        ann.leave()  # esc (and esc again when asked): the Tables screen
        ann.sees(TABLES_TITLE)
        table.people.remove(ann)
        table.wait(lambda: "The match is over" in bob.text(), MATCH_OVER,
                   "the end of the match on Bob's screen", shown=bob)
        standings = bob.sees("left the table", timeout=STEP)
        assert re.search(r"1\. Bob — ★ winner", standings), standings
        assert re.search(r"2\. Ann — left the table", standings), standings
        assert "★ Ann" not in standings and "Ann — ★" not in standings

        with open_history(server.history) as history:
            seats = json.loads(history.db.execute(
                "SELECT seats FROM rated_matches WHERE match_id = ?", (match_id,)
            ).fetchone()[0])
            result = history.matches.get_match(match_id).result
        ranks = {seat["player"]: seat["rank"] for seat in seats}
        assert ranks == {ann.identity: 2, bob.identity: 1}
        engine_first = "Ann" if result and result["places"][0] == 1 else "Bob"

        bob.pane.press("Enter")  # the standings' "Back to the lobby"
        time.sleep(0.5)
        to_the_lobby(bob)
        line = history_line(bob)
        assert "★ Bob" in line and "left" not in line, line
        to_the_lobby(ann)
        line = history_line(ann)
        assert "you left" in line and "★ Bob" in line, line
        ann.pane.press("Escape")
        ann.sees(LOBBY)
        ann.pane.press("p")  # her statistics: one match, no win
        stats = ann.sees("Matches", "Won", timeout=STEP)
        assert re.search(r"Matches +1\b", stats) and re.search(r"Won +0\b", stats), stats
        print(f"the deal was won by {engine_first}'s layout; Ann, who left, is last")
    finally:
        ann.pane.kill()
        bob.pane.kill()
