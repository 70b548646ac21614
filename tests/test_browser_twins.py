"""More browser twins of the SSH journeys (issue 39), in a real headless Chromium: people
who arrive at ``trash serve``'s page and act there, each result checked in the server's
history database, its connection log or on the other person's screen.

Leaving a table where bots play (esc, the question read for a while as the bots play on,
esc again: the Tables screen, enter: back at the seat; tests/test_tables_openssh_leave.py's
twin); both humans away while a spectator watches (one leaves with esc, the other closes
the tab: the stand-ins play the match to its end on the spectator's screen, whose end says
that everyone left; tests/test_journeys.py's and test_journeys_results.py's); the idle
timeout's goodbye (the terminal keeps the words, the page says the session ended); the
operator's ``say`` and ``motd`` (``trash admin``, another process) reaching a browser in
the lobby and at a table; a ban by player and by address (one line on the page, no session
starts) and a kick (the goodbye line on the page).

One server serves the file (each test has people of its own names), another one with a
short idle timeout the idle test. Skipped outside CI where Chromium or its driver is
missing; under CI=true that fails.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from browser_helpers import SMALL, Visitor, WebServer, artifacts_folder
from journey_helpers import (
    FIRST_SCREEN,
    LOBBY,
    STAND_IN_MOVES,
    STEP,
    TABLES_TITLE,
    Table,
    choose,
    code_of,
    create_table,
    log_lines,
    tab_to,
)
from test_journeys_results import SEVEN_UP_DOWNS
from test_ssh_openssh import wait_until

from trash_tui.players.rater import open_history

pytestmark = pytest.mark.browser

QUESTION = "Leave the table?"
READING = 2.5  # seconds a person takes to read the question
IDLE = 3  # the idle server's idle_timeout, seconds
MATCH_OVER = 240.0  # one deal of Seven Up for two stand-ins at 0.8 s a move


def start_server(folder: Path, idle_timeout: int = 0) -> WebServer:
    running = WebServer(folder)
    if idle_timeout:
        running.config.write_text(running.config.read_text(encoding="utf-8").replace(
            "idle_timeout = 0\n", f"idle_timeout = {idle_timeout}\n"), encoding="utf-8")
    running.start()
    return running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    running = start_server(tmp_path_factory.mktemp("web-twins"))
    try:
        yield running
    finally:
        running.kill()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return artifacts_folder(tmp_path_factory)


@contextlib.contextmanager
def visitors_of(server: WebServer, tmp_path: Path, artifacts: Path
                ) -> Iterator[Callable[..., Visitor]]:
    """``visitors(name, size=SMALL)`` at ``server``; every browser is closed at the end."""
    made: list[Visitor] = []

    def visitor(name: str, size: tuple[int, int] = SMALL) -> Visitor:
        made.append(Visitor(tmp_path, server, name, artifacts, size))
        return made[-1]

    try:
        yield visitor
    finally:
        for one in made:
            one.quit()


@pytest.fixture
def visitors(tmp_path: Path, server: WebServer, artifacts: Path
             ) -> Iterator[Callable[..., Visitor]]:
    """``visitors(name, size=SMALL)``: someone in a browser of their own; every browser is
    closed at the end."""
    with visitors_of(server, tmp_path, artifacts) as visitor:
        yield visitor


def admin(server: WebServer, *words: str) -> str:
    """``trash admin --socket ... WORDS`` (the real command, another process): its output;
    the command must succeed."""
    ran = subprocess.run(
        [sys.executable, "-m", "trash_tui.cli.main", "admin", "--socket",
         str(server.folder / "admin.sock"), *words],
        capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran
    return ran.stdout.strip()


def sessions_started(server: WebServer) -> int:
    """The sessions the server has started so far (``trash admin stats``)."""
    return int(json.loads(admin(server, "stats", "--json"))["sessions_started"])


def on_now(server: WebServer) -> list[str]:
    """The players of the sessions on now (``trash admin who``)."""
    return [str(row["key"]) for row in json.loads(admin(server, "who", "--json"))]


def seven_up_for_two(host: Visitor) -> str:
    """From the lobby: a new table of two seats (the host and a friend) playing Seven Up
    (one deal); its join code. The form must show two seats before it is sent (a key
    lost under load would otherwise make a table of four, two of them bots)."""
    host.open_tables()
    host.pane.press("n")
    host.sees("A new table")
    at = tab_to(host, 2, 1)  # from the name to the rules
    choose(host, ["Down"] * SEVEN_UP_DOWNS, "seven-up")
    tab_to(host, 3, at)  # the number of seats: 4 -> 2
    choose(host, ["Up", "Up"], "Seat 2")
    host.pane.wait_for("seven-up", "Seat 2", absent="Seat 3")
    host.pane.press("C-s")
    return code_of(host)


def test_a_browser_leaves_a_table_where_bots_play_with_esc_reads_then_esc(
        server: WebServer, visitors: Callable[..., Visitor]) -> None:
    lea = visitors("Lea")
    lea.arrive()
    lea.open_tables()
    lea.pane.press("n")
    lea.sees("A new table")
    lea.pane.press("C-s")  # Lea, an open seat, two bots
    lea.sees("Start now")
    lea.pane.press("s")  # the open seat is the stand-in's: three bots
    lea.sees("Stock", "Discard", timeout=STEP)
    table = Table(server, [lea])

    def bots_playing() -> bool:  # Lea makes her moves until a bot's turn
        return lea.answer() is None and "is playing" in lea.text()

    table.wait(bots_playing, 60.0, "a bot's turn", shown=lea)
    moves = table.saved()  # (the bots' turns begin: their moves come after this)
    lea.pane.press("Escape")
    lea.sees(QUESTION)
    asked = time.monotonic()
    # she reads the question while the bots play on (a bot's move is saved meanwhile);
    # nothing is typed meanwhile (a key would answer "stay"), even if her turn comes
    wait_until(lambda: time.monotonic() - asked >= READING and table.saved() > moves, STEP,
               "a bot's move while Lea reads the question")
    assert QUESTION in lea.text(), lea.text()  # still asked

    pressed = time.monotonic()
    lea.pane.press("Escape")
    lea.sees(TABLES_TITLE, "playing deal")
    print(f"second esc to the Tables screen: {time.monotonic() - pressed:.2f} s")
    lea.pane.press("Enter")  # her table, the list's only row: back at her seat
    # back at her seat: the notice says so on the status line, unless a deal ended
    # meanwhile, whose summary then has that line (and the board under it)
    table.wait(lambda: "back at your seat" in lea.text().lower() or
               "The deal is over" in lea.text(), STEP, "Lea back at her seat", shown=lea)
    lea.sees("Stock", "Discard")
    table.moves(lea)  # and she plays on


def test_both_browsers_away_while_a_browser_watches_the_stand_ins_finish_the_match(
        server: WebServer, visitors: Callable[..., Visitor]) -> None:
    """Cy leaves with esc, Dee closes her tab; Eve watches: the stand-ins play on, on
    Eve's screen, to the match's end, which says that everyone left."""
    cy, dee, eve = visitors("Cy"), visitors("Dee"), visitors("Eve")
    cy.arrive()
    eve.arrive()
    code = seven_up_for_two(cy)  # two seats, one deal
    dee.open(f"/t/{code}")
    dee.name_if_asked()
    dee.sees("Stock", "Cy", timeout=FIRST_SCREEN)
    eve.open_tables()
    eve.watch_by_code(code)
    eve.sees("Watching", "Cy", timeout=STEP)
    table = Table(server, [cy, dee])
    table.moves(dee)

    cy.leave()
    eve.sees("Cy left")
    dee.close_tab()
    eve.sees("Dee lost the connection")
    table.people = []  # nobody is left to play: the stand-ins must
    saved, shown = table.saved(), log_lines(eve.text_rows())
    table.wait(lambda: table.saved() > saved, STAND_IN_MOVES,
               f"a move with both away and Eve watching (saved: {saved}); the table "
               "stopped", shown=eve)
    table.wait(lambda: log_lines(eve.text_rows())[-3:] != shown[-3:], STEP,
               "the move on Eve's screen", shown=eve)
    started = time.monotonic()
    ended = eve.sees("The match is over", "Nobody wins: every player left the table",
                     timeout=MATCH_OVER)
    print(f"the stand-ins' rest of the match: {time.monotonic() - started:.1f} s")
    assert "Cy — left the table" in ended and "Dee — left the table" in ended, ended
    with open_history(server.history) as history:  # the rating says the same: no winner
        seats = json.loads(history.db.execute(
            "SELECT seats FROM rated_matches WHERE match_id = ?", (table.match(),)
        ).fetchone()[0])
    assert {seat["player"]: seat["rank"] for seat in seats} == {
        cy.identity: 1, dee.identity: 1}, seats


def test_say_and_motd_reach_a_browser_in_the_lobby_and_at_a_table(
        server: WebServer, visitors: Callable[..., Visitor]) -> None:
    gil, hal = visitors("Gil"), visitors("Hal")
    gil.arrive()
    hal.arrive()
    create_table(hal, start_now=True)  # Hal and bots
    hal.sees("Stock", timeout=STEP)
    admin(server, "say", "The server restarts at noon")
    gil.sees("The server restarts at noon")  # in the lobby
    hal.sees("The server restarts at noon")  # at his table
    admin(server, "motd", "Cup final <b>[/] 8 pm")
    gil.sees("Cup final <b>[/] 8 pm")  # the lobby's line, as typed
    gil.pane.press("t")
    gil.sees(TABLES_TITLE)
    gil.pane.press("Escape")
    gil.sees(LOBBY, "Cup final <b>[/] 8 pm")
    assert gil.driver.execute_script("return document.querySelectorAll('b').length") == 0


def test_bans_by_player_and_by_address_are_one_line_and_a_kick_is_the_goodbye(
        server: WebServer, visitors: Callable[..., Visitor]) -> None:
    kit = visitors("Kit")
    kit.arrive()
    admin(server, "kick", "Kit", "--reason", "take a break")
    kit.page_says("operator ended this session: take a break")
    ended = wait_until(lambda: [line["ended"] for line in server.sessions_logged()
                                if line.get("player") == kit.identity], STEP,
                       "Kit's session in the connection log")
    assert ended == ["kicked: take a break"], ended

    mo = visitors("Mo")
    mo.arrive()
    admin(server, "ban", "Mo", "--reason", "cheating")
    mo.page_says("banned from this server for good: cheating")  # (kicked with the ban)
    before = sessions_started(server)
    mo.open("/")
    mo.page_says("banned from this server for good: cheating")
    assert mo.pane.screen() is None or LOBBY not in mo.text(), mo.text()
    assert sessions_started(server) == before  # no session started
    assert mo.identity not in on_now(server)
    admin(server, "unban", "Mo")

    ned = visitors("Ned")
    ned.arrive()
    admin(server, "ban", "127.0.0.0/8", "--reason", "a flood")
    try:
        ned.page_says("banned from this server for good: a flood")  # (kicked with it)
        before = sessions_started(server)
        ned.open("/")
        line = ned.page_says("banned from this server for good: a flood")
        assert len(line.strip().splitlines()) == 1, line  # one line, no page, no session
        assert ned.pane.screen() is None, ned.pane.screen()
        assert sessions_started(server) == before
        wait_until(lambda: on_now(server) == [], STEP, "no session on (the kicked ended)")
    finally:
        admin(server, "unban", "127.0.0.0/8")
    ned.open("/")
    ned.sees(LOBBY, timeout=FIRST_SCREEN)  # in again once the ban is lifted


def test_the_idle_timeouts_goodbye_stays_on_the_terminal_and_the_page_says_it_ended(
        tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, artifacts: Path) -> None:
    """In the lobby: the goodbye's words stay on the terminal, the page's line says the
    session ended. At a table: the goodbye says the seat is kept and gives the page's
    link to it, which brings Ivo back to his seat."""
    idle = start_server(tmp_path_factory.mktemp("web-idle"), idle_timeout=IDLE)
    try:
        with visitors_of(idle, tmp_path, artifacts) as visitor:
            ivo = visitor("Ivo")
            ivo.arrive()
            ivo.sees(f"no key pressed for {IDLE} seconds", "this session has ended",
                     f"Come back with: {idle.url}/", timeout=IDLE + STEP)
            ivo.page_says("session has ended")
            assert [line["ended"] for line in idle.sessions_logged()] == ["idle"]

            ivo.open("/")  # a reload: the same player, in the lobby
            ivo.sees(LOBBY, timeout=FIRST_SCREEN)
            code = create_table(ivo, start_now=True)  # Ivo and bots
            ivo.sees("Stock", timeout=STEP)
            link = f"{idle.url}/t/{code}"
            ivo.sees("this session has ended", f"(code {code}) is kept",
                     f"Come back with: {link}", timeout=IDLE + STEP)
            ivo.page_says("session has ended")
            ivo.open(link.removeprefix(idle.url))
            # (only looked at: a key would be Ivo's move, and the next goodbye comes 3 s on)
            ivo.sees("You are back at your seat", "Your move, Ivo", timeout=FIRST_SCREEN)
    finally:
        idle.kill()
