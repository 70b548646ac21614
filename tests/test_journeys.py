"""Friends at one table, the first time (issue 29): whole journeys through the real OpenSSH
client in tmux, at 80×24, against ``trash serve`` in its own process.

For each way in — (a) the table's code as the SSH user name, (b) ``enter`` on the Tables
list, (c) ``j`` with a code on the Tables screen, (d) ``w`` to watch from the list, (e) a
private table watched by its code (``j``, then the Watch button) — and for a *new* key (the
app asks for a name first, animations as by default) and a *known* key (a registered name,
animations off), the person acts afterwards, with their own keyboard: a player draws on
their turn and the server's history database has the move within seconds; a spectator's
screen shows the table's new moves; each says something in the chat (``c``, the text,
enter) that reaches the other's screen; ``esc`` leaves (the table says so, the screen goes
back to the Tables list). Then what happens around a seat: leaving with ``esc`` or dropping
the connection on one's own turn (the stand-in moves within its delay, and
the seat is kept), coming back to it (``enter`` on the list, the code as the SSH user name,
plain ``ssh``), both humans away while someone watches (the table plays on), and a server
restart mid-match (the table is restored and the players go on).

The server's history database is the oracle of what the table did (the server is another
process): a match's saved actions grow only when somebody moved. Skipped only when ``ssh``
or ``tmux`` is not installed.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from journey_helpers import (
    FIRST_SCREEN,
    STAND_IN_MOVES,
    STEP,
    TABLES_TITLE,
    JourneyServer,
    Person,
    Table,
    create_table,
    log_lines,
)

pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None,
    reason="needs the OpenSSH client (ssh) and tmux installed "
           "(apt-get install openssh-client tmux)")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[JourneyServer]:
    running = JourneyServer(tmp_path)
    try:
        running.start()
        yield running
    finally:
        running.kill()


@pytest.fixture
def people(tmp_path: Path, server: JourneyServer) -> Iterator[Callable[[str, bool], Person]]:
    """``people(name, known)``: a person with a key of their own; every pane is killed at
    the end."""
    made: list[Person] = []

    def person(name: str, known: bool) -> Person:
        made.append(Person(tmp_path, server, name, known))
        return made[-1]

    try:
        yield person
    finally:
        for one in made:
            one.pane.kill()


# --- the ways in, for a player ---------------------------------------------------------------
def play_chat_and_leave(table: Table, host: Person, friends: list[Person]) -> None:
    """Everyone at the table draws on their turn (saved), says something the others see,
    and the friends leave with esc (the others' screens say so)."""
    for person in [*friends, host]:
        table.moves(person)
    for person in [*friends, host]:
        table.chat(person, f"hi from {person.name.lower()}",
                   [other for other in table.people if other is not person])
    for friend in friends:
        friend.leave()
        table.wait(lambda friend=friend: f"{friend.name} left" in host.text(), STEP,
                   f"'{friend.name} left' on {host.name}'s screen", shown=host)
        table.people.remove(friend)


def test_a_known_key_comes_in_with_the_code_as_ssh_user_name(
        server: JourneyServer, people: Callable[[str, bool], Person]) -> None:
    ann, cy = people("Ann", True), people("Cy", True)
    ann.arrive(server)
    code = create_table(ann)
    cy.connect(server, username=code)  # (a): straight to the table
    cy.sees("Stock", "Ann", timeout=FIRST_SCREEN)
    play_chat_and_leave(Table(server, [ann, cy]), ann, [cy])


def test_a_new_key_comes_in_with_the_code_as_ssh_user_name(
        server: JourneyServer, people: Callable[[str, bool], Person]) -> None:
    """The friend's first time: a name, then straight to the table — and their keys must
    work there (bug: a dead keyboard after the name)."""
    ann, bob = people("Ann", True), people("Bob", False)
    ann.arrive(server)
    code = create_table(ann)
    bob.connect(server, username=code)  # (a)
    bob.name_if_asked()
    bob.sees("Stock", "Ann", timeout=FIRST_SCREEN)
    play_chat_and_leave(Table(server, [ann, bob]), ann, [bob])


def test_a_new_key_joins_from_the_list_and_a_known_key_with_j_and_the_code(
        server: JourneyServer, people: Callable[[str, bool], Person]) -> None:
    ann, bob, cy = people("Ann", True), people("Bob", False), people("Cy", True)
    for person in (ann, bob, cy):
        person.arrive(server)
    code = create_table(ann, friends=2)  # seats 2 and 3 open
    bob.open_tables()
    bob.sees("Ann's table")
    bob.pane.press("Enter")  # (b) the selected (only) table
    bob.sees("waiting for players", "Bob", timeout=STEP)  # the waiting room, Bob seated
    cy.join_by_code(code)  # (c)
    for person in (ann, bob, cy):
        person.sees("Stock", timeout=STEP)
    play_chat_and_leave(Table(server, [ann, bob, cy]), ann, [bob, cy])


def test_a_known_key_joins_from_the_list_and_a_new_key_with_j_and_the_code(
        server: JourneyServer, people: Callable[[str, bool], Person]) -> None:
    ann, dee, eve = people("Ann", True), people("Dee", True), people("Eve", False)
    for person in (ann, dee, eve):
        person.arrive(server)
    code = create_table(ann, friends=2)
    eve.join_by_code(code)  # (c)
    eve.sees("waiting for players", "Eve", timeout=STEP)
    dee.open_tables()
    dee.sees("Ann's table")
    dee.pane.press("Enter")  # (b)
    for person in (ann, dee, eve):
        person.sees("Stock", timeout=STEP)
    play_chat_and_leave(Table(server, [ann, dee, eve]), ann, [dee, eve])


# --- the ways in, for a spectator --------------------------------------------------------------
def watch_chat_and_leave(table: Table, host: Person, watchers: list[Person]) -> None:
    """The host plays on; each watcher's screen shows the table's new moves (a new line in
    the log, while the saved actions grow), says something the host sees, and leaves with
    esc (back to the Tables list)."""
    for watcher in watchers:
        watcher.sees("Watching", timeout=STEP)
        shown = log_lines(watcher.text_rows())
        saved = table.saved()
        table.wait(lambda watcher=watcher, shown=shown, saved=saved:
                   table.saved() > saved and log_lines(watcher.text_rows())[-3:] != shown[-3:],
                   20.0, f"a new move on {watcher.name}'s screen (saved: {saved})",
                   shown=watcher)
    for watcher in watchers:
        table.chat(watcher, f"hi from {watcher.name.lower()}", [host],
                   said=f"{watcher.name} (watching)")
    table.moves(host)
    for watcher in watchers:
        watcher.leave()


def test_watching_from_the_list_with_a_new_and_a_known_key(
        server: JourneyServer, people: Callable[[str, bool], Person]) -> None:
    ann, dee, eve = people("Ann", True), people("Dee", False), people("Eve", True)
    for person in (ann, dee, eve):
        person.arrive(server)
    create_table(ann, start_now=True)  # the open seat goes to a bot
    ann.sees("Stock", timeout=STEP)
    for watcher in (dee, eve):
        watcher.open_tables()
        watcher.sees("Ann's table", "playing")
        watcher.pane.press("w")  # (d)
    watch_chat_and_leave(Table(server, [ann]), ann, [dee, eve])


def test_watching_a_private_table_by_its_code_with_a_new_and_a_known_key(
        server: JourneyServer, people: Callable[[str, bool], Person]) -> None:
    ann, fay, gus = people("Ann", True), people("Fay", False), people("Gus", True)
    for person in (ann, fay, gus):
        person.arrive(server)
    code = create_table(ann, public=False, start_now=True)
    ann.sees("Stock", timeout=STEP)
    for watcher in (fay, gus):
        watcher.open_tables()
        time.sleep(1.0)  # the list has come: a private table is not in it
        assert "Ann's table" not in watcher.text(), watcher.text()
        watcher.watch_by_code(code)  # (e)
    watch_chat_and_leave(Table(server, [ann]), ann, [fay, gus])


# --- around a seat -----------------------------------------------------------------------------
def test_leave_or_drop_on_your_turn_the_stand_in_moves_and_you_come_back(
        server: JourneyServer, people: Callable[[str, bool], Person]) -> None:
    """Bob leaves with esc on his turn: the stand-in moves for him at once; he comes back
    with enter on the Tables list and plays. Then Ann's connection drops on her turn: the
    stand-in moves for her, her seat is kept; she comes back with the code as her SSH user
    name and plays."""
    ann, bob = people("Ann", True), people("Bob", True)
    ann.arrive(server)
    code = create_table(ann)
    bob.connect(server, username=code)
    bob.sees("Stock", timeout=FIRST_SCREEN)
    table = Table(server, [ann, bob])

    saved = table.turn_of(bob)
    bob.leave()  # esc on his own turn
    table.wait(lambda: table.saved() > saved, STAND_IN_MOVES,
               f"the stand-in's move for Bob (saved: {saved})", shown=ann)
    table.wait(lambda: "Bob left" in ann.text(), STEP, "'Bob left' on Ann's screen",
               shown=ann)
    bob.sees("Ann's table")
    bob.pane.press("Enter")  # (b) back to his seat from the list
    bob.sees("Stock", timeout=STEP)
    table.moves(bob)

    saved = table.turn_of(ann)
    ann.drop()  # her connection, on her own turn
    table.wait(lambda: table.saved() > saved, STAND_IN_MOVES,
               f"the stand-in's move for Ann (saved: {saved})", shown=bob)
    table.wait(lambda: "Ann lost the connection" in bob.text(), STEP,
               "'Ann lost the connection' on Bob's screen", shown=bob)
    table.wait(lambda: re.search(r"stand-in.*\bAnn\b", bob.text()), STEP,
               "Ann's seat kept for her, the stand-in playing it, on Bob's status line",
               shown=bob)
    ann.connect(server, username=code)  # (a) back to her seat
    ann.sees("Stock", timeout=FIRST_SCREEN)
    table.moves(ann)
    table.moves(bob)
    assert server.match_of(ann.identity) == server.match_of(bob.identity) == table.match()


def test_both_humans_away_while_someone_watches_the_table_plays_on(
        server: JourneyServer, people: Callable[[str, bool], Person]) -> None:
    """Ann leaves with esc, Bob's connection drops; Cy watches: the stand-ins and the bots
    go on playing, on Cy's screen (bug: the table stopped, saying "the stand-in plays").
    Then Bob comes back with plain ssh, to his seat, and plays."""
    ann, bob, cy = people("Ann", True), people("Bob", True), people("Cy", True)
    ann.arrive(server)
    cy.arrive(server)
    code = create_table(ann)
    bob.connect(server, username=code)
    bob.sees("Stock", timeout=FIRST_SCREEN)
    cy.open_tables()
    cy.sees("Ann's table", "playing")
    cy.pane.press("w")
    cy.sees("Watching", timeout=STEP)
    table = Table(server, [ann, bob])
    table.moves(bob)

    ann.leave()
    cy.sees("Ann left")
    bob.drop()
    cy.sees("Bob lost the connection")
    table.people = []  # nobody is left to play: the stand-ins and bots must
    for _ in range(2):
        saved, shown = table.saved(), log_lines(cy.text_rows())
        table.wait(lambda saved=saved: table.saved() > saved, STAND_IN_MOVES,
                   f"a move with both humans away and Cy watching (saved: {saved}); "
                   "the table stopped", shown=cy)
        table.wait(lambda shown=shown: log_lines(cy.text_rows())[-3:] != shown[-3:], STEP,
                   "the move on Cy's screen", shown=cy)

    bob.arrive(server, username="player", lobby=False)  # plain ssh: back to his seat
    bob.sees("Stock", timeout=FIRST_SCREEN)
    table.people = [bob]
    table.moves(bob)


def test_a_server_restart_mid_match_restores_the_table_and_the_players_go_on(
        server: JourneyServer, people: Callable[[str, bool], Person]) -> None:
    """The server stops (SIGTERM) and starts again mid-match: Ann comes back with plain
    ssh (the Tables screen takes her to her seat), Bob with the code as his user name; the
    same match goes on, saved."""
    ann, bob = people("Ann", True), people("Bob", True)
    ann.arrive(server)
    code = create_table(ann)
    bob.connect(server, username=code)
    bob.sees("Stock", timeout=FIRST_SCREEN)
    table = Table(server, [ann, bob])
    table.moves(ann)
    table.moves(bob)
    match_id, saved = table.match(), table.saved()

    server.restart()
    for person in (ann, bob):  # told the server stops: their ssh ends
        person.ended()
    assert server.saved_actions(match_id) >= saved
    ann.arrive(server, lobby=False)  # plain ssh
    ann.sees("Stock", timeout=FIRST_SCREEN)
    bob.connect(server, username=code)
    bob.sees("Stock", timeout=FIRST_SCREEN)
    table.moves(ann)
    table.moves(bob)
    assert table.match() == match_id == server.match_of(bob.identity)
    assert table.saved() >= saved + 2
    ann.leave()
    bob.leave()
    assert TABLES_TITLE in bob.text()
