"""Helpers for the browser journeys (issue 39): ``trash serve`` with its web face in its own
process, and visitors who come to it in a real headless Chromium (Debian's ``chromium``
driven through its ``chromedriver`` by Selenium), each browser with a profile of its own.

A ``Visitor`` is the browser twin of journey_helpers' ``Person``: its ``pane`` answers what
``journey_helpers.Table`` asks of a tmux pane (the screen's text, keys by tmux's names, a
wait with the screen in the failure), so the same ``Table`` drives browsers and OpenSSH
clients at one table. The terminal is drawn by xterm.js into a canvas: its text is read
from xterm's own buffer (what the canvas shows), reached through a hook that the browser
runs before any script of the page (the page exposes nothing for tests). Keys are typed
where the page has the focus, as a person's keyboard does (no click on the terminal
first). Screenshots go to the artifacts folder (``TRASH_ARTIFACTS``, else pytest's tmp
folder; the path is printed).

Chromium is reached only at localhost: names other than 127.0.0.1 do not resolve and every
other address goes to a closed proxy port, so a page that asked the internet for anything
would fail to load it (and the first-screen test checks every resource's address).
Outside CI a machine without the browser skips these tests, saying what to install; under
``CI=true`` it is a failure.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import re
import shutil
import socket
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from journey_helpers import LOBBY, JourneyServer, Person, Table
from test_ssh_openssh import FIRST_SCREEN, NAME_PROMPT, STEP, flat, wait_until

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SMALL, LARGE = (1024, 700), (1600, 1000)  # the page's sizes in a window (CSS pixels)
COOKIE = "trash_player"

#: Run before any script of a page: keeps each xterm.js ``Terminal`` the page makes in
#: ``window.__trashTerminals`` (textual.js keeps its terminal to itself). xterm's public
#: ``Terminal`` sets ``this._core`` first thing in its constructor; a setter on
#: ``Object.prototype`` sees that assignment, turns it into the ordinary property it would
#: have been and notes the object if its class is xterm's (``buffer`` and ``loadAddon``).
TERMINAL_HOOK = r"""
(() => {
  window.__trashTerminals = [];
  Object.defineProperty(Object.prototype, '_core', {
    configurable: true,
    set(value) {
      Object.defineProperty(this, '_core', {value, writable: true, configurable: true,
                                            enumerable: true});
      const proto = Object.getPrototypeOf(this);
      const buffer = proto && Object.getOwnPropertyDescriptor(proto, 'buffer');
      if (buffer && buffer.get && typeof this.loadAddon === 'function') {
        window.__trashTerminals.push(this);
      }
    },
  });
})();
"""

#: The visible rows of the page's (newest) terminal, or null before there is one.
READ_SCREEN = r"""
const terminal = window.__trashTerminals && window.__trashTerminals.at(-1);
if (!terminal) { return null; }
const buffer = terminal.buffer.active;
const rows = [];
for (let row = 0; row < terminal.rows; row++) {
  const line = buffer.getLine(buffer.viewportY + row);
  rows.push(line ? line.translateToString(true) : '');
}
return [terminal.cols, terminal.rows, rows.join('\n')];
"""

#: the terminal's visible cells with their colours, as tmux's ``capture-pane -e`` gives
#: them: a moved focus or highlight changes it where the text stays the same
READ_STYLED = r"""
const terminal = window.__trashTerminals && window.__trashTerminals.at(-1);
if (!terminal) { return ''; }
const buffer = terminal.buffer.active;
const parts = [];
for (let row = 0; row < terminal.rows; row++) {
  const line = buffer.getLine(buffer.viewportY + row);
  if (!line) { continue; }
  for (let column = 0; column < line.length; column++) {
    const cell = line.getCell(column);
    if (cell) { parts.push(cell.getChars(), cell.getFgColor(), cell.getBgColor()); }
  }
  parts.push('\n');
}
return parts.join(' ');
"""

# tmux's key names (as journey_helpers presses them) in Selenium's keys
_CONTROL = "\ue009"
_KEYS = {"Enter": "\ue007", "Escape": "\ue00c", "Tab": "\ue004", "Space": " ",
         "BSpace": "\ue003", "Up": "\ue013", "Down": "\ue015", "Left": "\ue012",
         "Right": "\ue014"}


def browser_problem() -> str | None:
    """None when the browser tests can run here; else what is missing."""
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed (pip install '.[test]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            return f"no {path} (apt-get install {package})"
    return None


def require_browser() -> None:
    """Skip the test where there is no browser, saying what to install; under CI=true
    (where .ci/run installs it) a missing browser fails the test instead."""
    problem = browser_problem()
    if problem is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"the browser tests need Chromium and its driver under CI: {problem}")
    pytest.skip(f"needs Chromium and its driver: {problem}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


#: The artifacts folder of this run, once a test has asked for it (conftest.py names it at
#: the end of the run).
artifacts_used: list[Path] = []


def artifacts_folder(factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: ``TRASH_ARTIFACTS`` if set, else a tmp folder of pytest's."""
    named = os.environ.get("TRASH_ARTIFACTS")
    folder = Path(named) if named else factory.getbasetemp() / "browser-artifacts"
    folder.mkdir(parents=True, exist_ok=True)  # (one folder for every module of the run)
    if folder not in artifacts_used:
        artifacts_used.append(folder)
    return folder


class WebServer(JourneyServer):
    """``trash serve`` in its own process with its web face on ``web_port`` of 127.0.0.1
    (kept across a restart), telling players to come back to 127.0.0.1; ``keys`` (TOML
    values as text) add to its ``[server]`` table."""

    def __init__(self, folder: Path, web_port: int | None = None, **keys: str) -> None:
        super().__init__(folder)
        self.web_port = web_port or free_port()
        text = self.config.read_text(encoding="utf-8")
        added = "".join(f"{key} = {value}\n" for key, value in keys.items())
        self.config.write_text(
            text + added + f'public_host = "127.0.0.1"\n\n[web]\nport = {self.web_port}\n'
            f'public_url = "{self.url}"\n', encoding="utf-8")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    def start(self) -> None:
        super().start()
        wait_until(self.healthy, FIRST_SCREEN, f"{self.url}/health to answer ok")

    def healthy(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"trash serve exited with {self.process.returncode}: "
                                 f"{self.output()}")
        try:
            with urllib.request.urlopen(f"{self.url}/health", timeout=2) as answer:
                return answer.status == 200 and answer.read().strip() == b"ok"
        except (urllib.error.URLError, OSError):
            return False

    def identity_named(self, name: str) -> str | None:
        """The identity registered with ``name`` in the history database, or None."""
        with contextlib.closing(sqlite3.connect(self.history)) as db:
            row = db.execute("SELECT identity FROM players WHERE name = ?",
                             (name,)).fetchone()
        return None if row is None else str(row[0])

    def browser_identity(self, token: str) -> str | None:
        """The identity the history keeps for a browser's cookie ``token`` (by its hash
        only), or None."""
        digest = hashlib.sha256(token.encode()).hexdigest()
        with contextlib.closing(sqlite3.connect(self.history)) as db:
            rows = db.execute("SELECT token_hash, identity FROM browsers").fetchall()
        found = [str(identity) for stored, identity in rows
                 if stored in (digest, bytes.fromhex(digest))]
        return found[0] if found else None


def start_chromium(profile: Path, size: tuple[int, int]) -> WebDriver:
    """A headless Chromium with its own ``profile`` folder, its page ``size`` big."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
            "--headless=new",
            # Chromium's sandbox cannot start as root (it refuses to run as root without
            # this flag); CI and this machine run the tests as root in a container.
            "--no-sandbox",
            f"--window-size={size[0]},{size[1]}",
            f"--user-data-dir={profile}",
            # localhost only: no other name resolves, any other address meets a closed
            # proxy port (loopback never goes through the proxy)
            "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
            "--proxy-server=127.0.0.1:9",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-extensions", "--disable-default-apps",
            "--no-first-run", "--no-default-browser-check", "--mute-audio",
            "--disable-dev-shm-usage"):  # (a container's /dev/shm is small)
        options.add_argument(argument)
    service = Service(executable_path=str(CHROMEDRIVER),
                      log_output=str(profile.parent / "chromedriver.log"))
    driver = webdriver.Chrome(options=options, service=service)
    # ``size`` is what the page gets (the window's frame takes some of --window-size)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * size[0] - int(inner[0]), 2 * size[1] - int(inner[1]))
    return driver


def draw_seen(table: Table, person: Person | Visitor, others: list[Person | Visitor]
              ) -> None:
    """``person`` draws from the stock on their turn with their own keyboard (the history
    database has it) and every one of ``others`` sees "NAME draws" on their screen while
    the rest of that turn waits for ``person`` (nothing else can push it out of the log);
    then ``person`` plays the rest of the turn."""
    before = table.turn_of(person)
    line = f"{person.name} draws"
    earlier = [flat(other.text()).count(line) for other in others]  # (lines seen before)
    person.pane.press("s")
    # (nobody answers anything meanwhile: the table waits for the rest of this turn)
    _wait(lambda: table.saved() > before, person,
          f"{person.name}'s draw (s) in the history database")
    for other, seen in zip(others, earlier, strict=True):
        _wait(lambda other=other, seen=seen: flat(other.text()).count(line) > seen, other,
              f"a new {line!r} on {other.name}'s screen")
    deadline = time.monotonic() + STEP
    while person.to_move() is not None:  # a slot, a wild's slot, keep or swap, the call
        assert time.monotonic() < deadline, person.pane.failure(
            f"{person.name}'s turn never ended", person.pane.screen())
        person.answer()
        time.sleep(0.6)


def _wait(check: Callable[[], object], shown: Person | Visitor, what: str) -> None:
    """Wait up to STEP for ``check()``; AssertionError with ``shown``'s screen."""
    deadline = time.monotonic() + STEP
    while not check():
        if time.monotonic() > deadline:
            raise shown.pane.failure(f"after {STEP:g} s still waiting for {what}",
                                     shown.pane.screen())
        time.sleep(0.1)


class BrowserPane:
    """A browser tab seen as journey_helpers sees a tmux pane: the terminal's text, keys
    by tmux's names, waits that fail with the screen, the page's own line and a
    screenshot."""

    def __init__(self, visitor: Visitor) -> None:
        self.visitor = visitor
        self.notes: list[Path] = []  # files whose text a failure message shows

    @property
    def driver(self) -> WebDriver:
        return self.visitor.driver

    def size(self) -> tuple[int, int] | None:
        """The terminal's columns and rows (None before the page has a terminal)."""
        found = self.driver.execute_script(READ_SCREEN)
        return None if found is None else (int(found[0]), int(found[1]))

    def styled(self) -> str:
        """The terminal's cells with their colours (as a tmux pane's ``capture-pane
        -e``): a moved focus or highlight changes it where the text stays the same."""
        try:
            return str(self.driver.execute_script(READ_STYLED))
        except Exception:  # (a page being replaced)
            return ""

    def screen(self) -> str | None:
        """The terminal's visible rows (None while the page has no terminal)."""
        try:
            found = self.driver.execute_script(READ_SCREEN)
        except Exception:  # (a page being replaced, a closed tab)
            return None
        return None if found is None else str(found[2])

    def failure(self, message: str, screen: str | None) -> AssertionError:
        """``message`` with the last screen, the page's text, a screenshot and the note
        files, for a failed wait."""
        parts = [message, "screen:", screen if screen is not None else "(no terminal)"]
        with contextlib.suppress(Exception):
            parts += ["page:", self.visitor.page_text()]
            parts += [f"screenshot: {self.visitor.screenshot('failure')}"]
        parts += [f"{path.name}: {path.read_text(encoding='utf-8', errors='replace')}"
                  for path in self.notes if path.exists()]
        return AssertionError("\n".join(parts))

    def wait_for(self, *needles: str, absent: str | None = None,
                 timeout: float = STEP) -> str:
        """Wait until the terminal shows every one of ``needles`` (and not ``absent``);
        the flattened screen text. AssertionError with the last screen otherwise."""
        wanted = [flat(needle) for needle in needles]
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            text = flat(screen or "")
            if all(needle in text for needle in wanted) and (
                    absent is None or flat(absent) not in text):
                return text
            if time.monotonic() > deadline:
                shown = f"{needles}" + (f" without {absent!r}" if absent else "")
                raise self.failure(f"the page never showed {shown} (waited up to "
                                   f"{timeout:g} s)", screen)
            time.sleep(0.1)

    def press(self, *keys: str) -> None:
        """Type tmux key names (``n``, ``Enter``, ``Escape``, ``C-s``) on the terminal."""
        self.visitor.keyboard(list(keys))


class Visitor:
    """Someone in a browser of their own (a profile folder: their cookie stays there),
    the browser twin of journey_helpers' ``Person``."""

    def __init__(self, root: Path, server: WebServer, name: str, artifacts: Path,
                 size: tuple[int, int] = SMALL) -> None:
        require_browser()
        self.folder = root / f"{name.lower()}-browser"
        self.folder.mkdir()
        self.server = server
        self.name = name
        self.artifacts = artifacts
        self.known = False  # a first visit: the page asks for a name
        self.identity = ""  # known once named
        self.connected = False
        self.driver = start_chromium(self.folder / "profile", size)
        self.hooked: set[str] = set()  # the tabs that run TERMINAL_HOOK
        self.pane = BrowserPane(self)
        self.pane.notes += [server.stderr]

    def __repr__(self) -> str:
        return f"{self.name} (browser)"

    # --- what journey_helpers' Person does, with this pane ------------------------------
    open_tables = Person.open_tables
    code_screen = Person.code_screen
    join_by_code = Person.join_by_code
    watch_by_code = Person.watch_by_code
    leave = Person.leave
    text = Person.text
    text_rows = Person.text_rows
    sees = Person.sees
    to_move = Person.to_move
    answer = Person.answer

    # --- the page -------------------------------------------------------------------------
    def open(self, path: str = "/") -> None:
        """Go to ``path`` of the server's page in this tab."""
        handle = self.driver.current_window_handle
        if handle not in self.hooked:
            self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                        {"source": TERMINAL_HOOK})
            self.hooked.add(handle)
        self.driver.get(self.server.url + path)
        self.connected = True

    def arrive(self, path: str = "/", lobby: bool = True) -> None:
        """Open ``path``, give a name if asked; with ``lobby``, wait for the lobby."""
        self.open(path)
        self.name_if_asked()
        if lobby:
            self.sees(LOBBY, timeout=FIRST_SCREEN)

    def name_if_asked(self) -> None:
        """A first visit is asked for a name: type this person's name, enter; then the
        identity the server gave this browser is the one with that name."""
        if self.known:
            return
        self.sees(NAME_PROMPT, timeout=FIRST_SCREEN)
        self.pane.press("C-u")  # the field holds a suggestion
        self.type(self.name)
        self.sees(self.name)
        self.pane.press("Enter")
        self.identity = str(wait_until(lambda: self.server.identity_named(self.name), STEP,
                                       f"{self.name}'s name in the history database"))
        self.known = True

    def type(self, text: str) -> None:
        """Type ``text`` on the terminal, as a keyboard does."""
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(text).perform()

    def keyboard(self, keys: list[str]) -> None:
        """Press ``keys`` (tmux's names: ``n``, ``Enter``, ``C-s``) where the page has the
        keyboard's focus, as a person does (no click first: the page must give the
        terminal the focus itself)."""
        from selenium.webdriver.common.action_chains import ActionChains

        for key in keys:
            actions = ActionChains(self.driver)
            if key.startswith("C-") and len(key) == 3:  # ctrl held down for the letter
                actions.key_down(_CONTROL).send_keys(key[2]).key_up(_CONTROL)
            else:
                actions.send_keys(_KEYS.get(key, key))
            actions.perform()

    def click(self, text: str, tap: bool = False) -> None:
        """Click the middle of the first ``text`` on the terminal's screen with the mouse
        (with ``tap``, a finger's tap on a touch screen), at its place in the page."""
        rows = (self.pane.screen() or "").splitlines()
        found = next(((row.find(text), y) for y, row in enumerate(rows) if text in row), None)
        if found is None:
            raise self.pane.failure(f"no {text!r} on the screen to click", self.pane.screen())
        column, row = found
        left, top, width, height, columns, lines = self.driver.execute_script(
            "const terminal = window.__trashTerminals.at(-1);"
            "const box = document.querySelector('#terminal .xterm-screen')"
            ".getBoundingClientRect();"
            "return [box.left, box.top, box.width, box.height, terminal.cols, "
            "terminal.rows];")
        x = left + (column + len(text) / 2) * width / columns
        y = top + (row + 0.5) * height / lines
        if tap:
            self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled",
                                        {"enabled": True, "maxTouchPoints": 1})
            for kind, points in (("touchStart", [{"x": x, "y": y}]), ("touchEnd", [])):
                self.driver.execute_cdp_cmd("Input.dispatchTouchEvent",
                                            {"type": kind, "touchPoints": points})
            return
        self.driver.execute_cdp_cmd("Input.dispatchMouseEvent",
                                    {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.driver.execute_cdp_cmd("Input.dispatchMouseEvent",
                                        {"type": kind, "x": x, "y": y, "button": "left",
                                         "clickCount": 1})

    def resize(self, size: tuple[int, int]) -> None:
        """The window is made so the page is ``size`` big."""
        inner = self.driver.execute_script("return [window.innerWidth, window.innerHeight]")
        outer = self.driver.get_window_size()
        self.driver.set_window_size(outer["width"] + size[0] - int(inner[0]),
                                    outer["height"] + size[1] - int(inner[1]))

    def page_text(self) -> str:
        """The page's own text (the title, the line under it): the terminal is a canvas.
        Empty while the page is being replaced."""
        try:
            return str(self.driver.execute_script("return document.body.innerText"))
        except Exception:  # (a page being replaced: there is no body to read yet)
            return ""

    def page_says(self, pattern: str, timeout: float = STEP) -> str:
        """Wait until the page's own text matches ``pattern``; that text."""
        try:
            found = wait_until(lambda: re.search(pattern, self.page_text()), timeout,
                               f"{pattern!r} on {self.name}'s page")
        except AssertionError as failure:
            raise self.pane.failure(str(failure), self.pane.screen()) from None
        assert isinstance(found, re.Match)
        return found.string

    def cookie(self) -> dict[str, Any] | None:
        return self.driver.get_cookie(COOKIE)

    def resources(self) -> list[str]:
        """The address of everything the page loaded (scripts, styles, fonts...)."""
        return [str(name) for name in self.driver.execute_script(
            "return performance.getEntriesByType('resource').map(entry => entry.name)")]

    def screenshot(self, label: str) -> Path:
        """A PNG of the page in the artifacts folder (its path is printed)."""
        width, height = self.driver.execute_script(
            "return [window.innerWidth, window.innerHeight]")
        path = self.artifacts / f"{label}-{self.name.lower()}-{width}x{height}.png"
        self.driver.save_screenshot(str(path))
        print(f"screenshot: {path}")
        return path

    def close_tab(self) -> None:
        """The tab is closed (another one is opened first: the browser stays, with its
        cookie); the next ``open`` is in the new tab."""
        gone = self.driver.current_window_handle
        self.driver.switch_to.new_window("tab")
        fresh = self.driver.current_window_handle
        self.driver.switch_to.window(gone)
        self.driver.close()
        self.driver.switch_to.window(fresh)
        self.connected = False

    def quit(self) -> None:
        with contextlib.suppress(Exception):
            self.driver.quit()
        shutil.rmtree(self.folder / "profile", ignore_errors=True)
