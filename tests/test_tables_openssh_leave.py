"""Leaving a table where bots play, through the real OpenSSH client in tmux at 80×24
(issue 35): Ann starts a table of herself and three bots (the server's own pace, a move
every 0.8 s), presses esc while the bots play, reads the question for a few seconds while
they go on, presses esc again and is on the Tables screen, where her table is listed and
enter takes her back to her seat.

``trash serve`` runs as its own process (test_ssh_openssh.py's helpers). Skipped only when
``ssh`` or ``tmux`` is not installed.
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from test_ssh_openssh import FIRST_SCREEN, STEP, ServerProcess, flat, ssh_command, wait_until
from test_tables_openssh import SshPlayer, server  # noqa: F401  (server: the fixture)

pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None,
    reason="needs the OpenSSH client (ssh) and tmux installed "
           "(apt-get install openssh-client tmux)")

WIDTH, HEIGHT = 80, 24
QUESTION = "Leave the table?"
READING = 2.5  # seconds a person takes to read the question


def saved_moves(history: Path) -> int:
    """The moves the server has saved of its latest match."""
    with sqlite3.connect(f"file:{history}?mode=ro", uri=True) as db:
        row = db.execute("SELECT actions FROM matches ORDER BY id DESC LIMIT 1").fetchone()
    return int(row[0]) if row else 0


def bots_play(ann: SshPlayer, timeout: float = 60.0) -> None:
    """Ann makes her moves until the status line says a bot is playing."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ann.answer() is None and "is playing" in flat(ann.pane.screen() or ""):
            return
        time.sleep(0.1)
    raise ann.pane.failure(f"no bot's turn in {timeout:g} s", ann.pane.screen())


def test_a_player_leaves_a_table_where_bots_play_with_esc_read_then_esc(
        tmp_path: Path, server: ServerProcess) -> None:  # noqa: F811
    ann = SshPlayer(tmp_path / "ann", server, "Ann")
    try:
        command = ssh_command(ann.key, ann.folder / "known_hosts", server.port,
                              ann.folder / "status", ann.folder / "ssh.err")
        ann.pane.start(command, WIDTH, HEIGHT)
        ann.pane.wait_for("New match", timeout=FIRST_SCREEN)
        ann.pane.press("t")
        ann.pane.wait_for("Tables on this server")
        ann.pane.press("n")
        ann.pane.wait_for("A new table")
        ann.pane.press("C-s")  # Ann, an open seat, two bots
        ann.pane.wait_for("Start now")
        ann.pane.press("s")  # the open seat is the stand-in's: three bots
        ann.pane.wait_for("Stock", "Discard", timeout=STEP)

        bots_play(ann)
        ann.pane.press("Escape")
        ann.pane.wait_for(QUESTION, timeout=STEP)
        moves = saved_moves(server.history)
        time.sleep(READING)  # she reads it; the bots play on
        wait_until(lambda: saved_moves(server.history) > moves, STEP,
                   "a bot's move while Ann reads the question")
        screen = flat(ann.pane.screen() or "")
        assert QUESTION in screen, screen  # still asked

        pressed = time.monotonic()
        ann.pane.press("Escape")
        ann.pane.wait_for("Tables on this server", "playing deal", timeout=STEP)
        print(f"second esc to the Tables screen: {time.monotonic() - pressed:.2f} s")

        ann.pane.press("Enter")  # her table, the list's only row: back at her seat
        # back at her seat: the notice says so on the status line, unless a deal ended
        # meanwhile, whose summary then has that line (and the board under it)
        wait_until(lambda: "back at your seat" in flat(ann.pane.screen() or "").lower() or
                   "The deal is over" in flat(ann.pane.screen() or ""),
                   STEP, "Ann back at her seat")
        ann.pane.wait_for("Stock", "Discard")
    finally:
        ann.pane.kill()


def test_the_question_stays_readable_when_a_deal_ends_under_it(
        tmp_path: Path, server: ServerProcess) -> None:  # noqa: F811
    """A deal that ends while Ann is asked puts its summary over the board: the question's
    first words stay on her 80×24 screen beside it (the box covered them), and esc leaves."""
    ann = SshPlayer(tmp_path / "ann", server, "Ann")
    try:
        command = ssh_command(ann.key, ann.folder / "known_hosts", server.port,
                              ann.folder / "status", ann.folder / "ssh.err")
        ann.pane.start(command, WIDTH, HEIGHT)
        ann.pane.wait_for("New match", timeout=FIRST_SCREEN)
        ann.pane.press("t")
        ann.pane.wait_for("Tables on this server")
        ann.pane.press("n")
        ann.pane.wait_for("A new table")
        ann.pane.press("Tab", "Enter")  # from the name to the rules' list
        ann.pane.wait_for("kings-wild", "short-game")
        for key in (*["Down"] * 5, "Enter"):  # standard, ..., eight-card, kids
            ann.pane.press(key)
            time.sleep(0.2)
        ann.pane.wait_for("Rules kids")
        ann.pane.press("C-s")  # Ann, an open seat, two bots; five slots a deal
        ann.pane.wait_for("Start now")
        ann.pane.press("s")  # the open seat is the stand-in's: three bots
        ann.pane.wait_for("Stock", "Discard", timeout=STEP)

        deadline = time.monotonic() + 180.0
        while "Deal 1 is over" not in flat(ann.pane.screen() or ""):
            assert time.monotonic() < deadline, ann.pane.screen()
            ann.answer()
            time.sleep(0.1)
        ann.pane.press("Escape")  # the summary is up for a few seconds: esc asks
        ann.pane.wait_for(QUESTION, "Deal 1 is over", timeout=3.0)

        ann.pane.press("Escape")
        ann.pane.wait_for("Tables on this server", "playing deal", timeout=STEP)
    finally:
        ann.pane.kill()
