"""A server at its limit, seen from a real headless Chromium (issue 39): on a server that
takes one session at a time, a second visitor's page says in one line that the server is
full — the line under the title, as text — and nothing is lost: once the first visitor has
closed their tab, the second one's page, loaded again, is the app. Skipped outside CI where
Chromium or its driver is missing; under CI=true that fails.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import SMALL, Visitor, WebServer, artifacts_folder
from journey_helpers import FIRST_SCREEN, LOBBY, STEP
from test_ssh_openssh import NAME_PROMPT

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[WebServer]:
    (tmp_path / "server").mkdir()
    running = WebServer(tmp_path / "server", max_sessions="1")
    try:
        running.start()
        yield running
    finally:
        running.kill()


def test_a_full_server_is_one_line_on_the_page_and_the_visitor_comes_in_later(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, server: WebServer
        ) -> None:
    artifacts = artifacts_folder(tmp_path_factory)
    ned = Visitor(tmp_path, server, "Ned", artifacts, SMALL)
    oda = Visitor(tmp_path, server, "Oda", artifacts, SMALL)
    try:
        ned.arrive()
        oda.open("/")
        said = oda.page_says("the server is full, try again later")
        assert said.count("server is full") == 1 and "Traceback" not in said, said
        assert NAME_PROMPT not in oda.text()  # no session: the app never started
        oda.screenshot("full")

        ned.close_tab()
        deadline = time.monotonic() + STEP
        while True:  # she tries again (the server frees Ned's slot once his socket closes)
            oda.driver.refresh()
            with contextlib.suppress(AssertionError):
                oda.sees(NAME_PROMPT, timeout=3.0)
                break
            assert time.monotonic() < deadline, oda.page_text()
        oda.name_if_asked()
        oda.sees(LOBBY, timeout=FIRST_SCREEN)
        assert "server is full" not in oda.page_text()
    finally:
        ned.quit()
        oda.quit()
