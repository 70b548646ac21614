"""Touch on the browser face (issue 39) in a real headless Chromium with touch emulation
(CDP ``Emulation.setTouchEmulationEnabled`` and ``Input.dispatchTouchEvent``): a finger's
tap on a button of the app acts as one click — the button acts, once — and a finger that
moves (a swipe) clicks nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import SMALL, Visitor, WebServer
from journey_helpers import LOBBY, STEP, TABLES_TITLE
from test_ssh_openssh import wait_until

pytestmark = pytest.mark.browser

#: counts the mouse events that reach the terminal (as xterm.js sees them)
COUNTER = """
window.__mouse = {mousedown: 0, mouseup: 0, click: 0};
var screen = document.querySelector('#terminal .xterm-screen');
['mousedown', 'mouseup', 'click'].forEach(function (kind) {
  screen.addEventListener(kind, function () { window.__mouse[kind] += 1; }, true);
});
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    running = WebServer(tmp_path_factory.mktemp("web-server"))
    try:
        running.start()
        yield running
    finally:
        running.kill()


@pytest.fixture
def visitor(tmp_path: Path, server: WebServer) -> Iterator[Visitor]:
    made = Visitor(tmp_path, server, "Tia", tmp_path, SMALL)  # (no screenshot is kept)
    try:
        yield made
    finally:
        made.quit()


def touch(visitor: Visitor, *points: tuple[float, float]) -> None:
    """A finger down at the first point, moved through the others, lifted."""
    driver = visitor.driver
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled",
                           {"enabled": True, "maxTouchPoints": 1})
    (x, y), *moves = points
    driver.execute_cdp_cmd("Input.dispatchTouchEvent",
                           {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for x, y in moves:
        driver.execute_cdp_cmd("Input.dispatchTouchEvent",
                               {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def place_of(visitor: Visitor, text: str) -> tuple[float, float]:
    """The middle of the first ``text`` on the terminal's screen, in the page."""
    rows = (visitor.pane.screen() or "").splitlines()
    column, row = next((line.find(text), y) for y, line in enumerate(rows) if text in line)
    left, top, width, height, columns, lines = visitor.driver.execute_script(
        "const terminal = window.__trashTerminals.at(-1);"
        "const box = document.querySelector('#terminal .xterm-screen').getBoundingClientRect();"
        "return [box.left, box.top, box.width, box.height, terminal.cols, terminal.rows];")
    return (left + (column + len(text) / 2) * width / columns,
            top + (row + 0.5) * height / lines)


def mouse(visitor: Visitor) -> dict[str, int]:
    return dict(visitor.driver.execute_script("return window.__mouse"))


def test_a_tap_on_a_button_is_one_click_and_a_swipe_is_none(visitor: Visitor) -> None:
    visitor.arrive()
    visitor.driver.execute_script(COUNTER)
    x, y = place_of(visitor, "Tables")
    touch(visitor, (x, y), (x + 60, y + 40))  # a swipe across the button: no click
    visitor.sees(LOBBY)
    assert mouse(visitor)["click"] == 0
    touch(visitor, (x, y))  # a tap
    visitor.sees(TABLES_TITLE, timeout=STEP)
    wait_until(lambda: mouse(visitor)["click"] >= 1, STEP, "the tap's click")
    assert mouse(visitor) == {"mousedown": 1, "mouseup": 1, "click": 1}  # one click, once
