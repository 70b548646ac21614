"""The operator's word met by a player through the real OpenSSH client in tmux at 80×24
(issue 37): ``trash admin close CODE`` (the real command, another process) closes the
table a host is playing at; the host is told why and that it stays closed, and ``o`` on
the Tables screen does not reopen it. ``trash serve`` runs in its own process; its history
database is the oracle. Skipped only when ``ssh`` or ``tmux`` is not installed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from journey_helpers import FIRST_SCREEN, LOBBY, TABLES_TITLE, JourneyServer, Person, create_table

from trash_tui.players.rater import open_history

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


def test_the_host_presses_o_on_a_table_the_operator_closed_and_is_told_it_stays_closed(
        tmp_path: Path, server: JourneyServer) -> None:
    ann = Person(tmp_path, server, "Ann", known=True)
    try:
        ann.arrive(server)
        code = create_table(ann, start_now=True)  # Ann and bots
        ann.sees("Stock", timeout=FIRST_SCREEN)
        ran = subprocess.run(
            [sys.executable, "-m", "trash_tui.cli.main", "admin", "--socket",
             str(tmp_path / "admin.sock"), "close", code, "--reason", "abuse in the chat"],
            capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0 and ran.stdout.strip() == f"closed {code}", ran
        ann.sees("abuse in the chat")
        for _ in range(3):  # back from the closed board: the Tables screen (or the lobby)
            if TABLES_TITLE in ann.text() or LOBBY in ann.text():
                break
            ann.pane.press("Escape")
            time.sleep(1.0)
        if TABLES_TITLE not in ann.text():
            ann.open_tables()
        ann.sees("it stays closed")  # the Tables screen's line
        ann.pane.press("o")
        time.sleep(2.0)
        screen = ann.text()
        assert "it stays closed" in screen and "Your move" not in screen, screen
        with open_history(server.history) as history:
            [row] = history.matches.shared_tables(["closed"])
            assert row["code"] == code
            assert history.matches.shared_tables(["waiting", "playing"]) == []
    finally:
        ann.pane.kill()
