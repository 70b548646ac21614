"""Helpers for the journey suite (test_journeys.py): people who come to a shared table
through the real OpenSSH client in tmux, at 80×24, and act there.

The server is ``trash serve`` in its own process (``ServerProcess`` of test_ssh_openssh.py,
with more sessions allowed from 127.0.0.1: every person here comes from that address, and
its bots and stand-ins moving ``BOT_DELAY`` apart, quicker than by default). A
person has a key that is either *known* (a name registered in the server's history database
and a settings file with animations off) or *new* (nothing: the app asks for a name first
and animates as it does by default). What a test checks is what a person's screen shows
and what the server's history database keeps: the server is another process, so the
database is the only oracle of what the table did.
"""

from __future__ import annotations

import contextlib
import re
import time
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path

from test_ssh_openssh import (
    FIRST_SCREEN,
    NAME_PROMPT,
    SERVER_CODE,
    STEP,
    ServerProcess,
    TmuxPane,
    flat,
    make_client_key,
    ssh_command,
    wait_until,
)

from trash_tui.players.rater import open_history
from trash_tui.ssh.session import settings_file

WIDTH, HEIGHT = 80, 24
TABLES_TITLE = "Tables on this server"
LOBBY = "New match"
CODE = re.compile(r"\b(?:Join code|Code):? ([A-Z2-9]{4})\b")  # the waiting room's
DEAL_OVER = re.compile(r"Deal \d+ is (?:over|void)|The deal is over")  # a deal's summary
#: the journey server's tables' pace: seconds before a bot's or a stand-in's move (the
#: product's default is 0.8 s; no journey is about that length, and at 0.8 s the bots'
#: turns were most of their time). A deal's pause stays: the sessions' boards show a
#: deal's summary that long.
BOT_DELAY = 0.3
#: ``trash serve`` with BOT_DELAY set where every part reads the tables' pace
#: (``play.turns.TABLE_PACE``) before anything has read it; the server exits at once,
#: saying so, if its tables' limits do not take their pace from there
PACED_SERVER = ("import trash_tui.play.turns as turns; "
                f"turns.TABLE_PACE = turns.Pace(bot_delay={BOT_DELAY}); "
                "from trash_tui.tables.service import TableLimits; "
                "assert TableLimits().pace == turns.TABLE_PACE, 'the tables ignore the pace'; "
                f"{SERVER_CODE}")
#: seconds within which a stand-in's move must be saved: its delay, a deal's pause (4 s)
#: if one ended, and room for a loaded 2-core machine
STAND_IN_MOVES = BOT_DELAY + 5.2
TURN = 30.0  # seconds for a person's turn to come round (bots' moves, deal pauses)


class JourneyServer(ServerProcess):
    """``trash serve`` in its own process, its bots and stand-ins moving ``BOT_DELAY``
    apart, allowing every test's sessions from 127.0.0.1 (the default is 4 sessions and
    20 new connections a minute per address)."""

    code = PACED_SERVER

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        text = self.config.read_text(encoding="utf-8")
        self.config.write_text(text + "sessions_per_ip = 20\nconnections_per_ip = 40\n"
                               "connections_per_minute = 1000\n", encoding="utf-8")

    def restart(self) -> None:
        """SIGTERM (the server saves and says goodbye), then the same config again (a new
        port: ``self.port`` changes)."""
        status = self.terminate()
        assert status == 0, f"trash serve exited with {status}: {self.output()}"
        self.start()

    # --- the history database (the server is another process: its only oracle) ----
    def match_of(self, identity: str) -> int | None:
        """The newest match this key plays at a shared table (its history's), or None."""
        with open_history(self.history) as history:
            rows = history.matches.of_player(identity)
        return rows[0].id if rows else None

    def saved_actions(self, match_id: int) -> int:
        with open_history(self.history) as history:
            return len(history.matches.match_actions(match_id))


class Person:
    """Someone with a key (``known``: a registered name, animations off; else a new key)
    and a tmux pane for their ``ssh``."""

    def __init__(self, root: Path, server: JourneyServer, name: str, known: bool) -> None:
        self.folder = root / name.lower()
        self.folder.mkdir()
        self.name = name
        self.known = known
        self.key, self.identity = make_client_key(self.folder)
        if known:
            with open_history(server.history) as history:
                history.players.register_player(self.identity, name)
            settings = settings_file(server.players_dir, self.identity)
            settings.parent.mkdir(parents=True, exist_ok=True)
            settings.write_text('[app]\nanimation = "off"\n', encoding="utf-8")
        self.pane = TmuxPane(self.folder)
        self.pane.notes += [self.folder / "ssh.err", server.stderr]
        self.connected = False

    def __repr__(self) -> str:
        return f"{self.name} ({'known' if self.known else 'new'} key)"

    # --- coming and going -----------------------------------------------------------------
    def connect(self, server: JourneyServer, username: str = "player") -> None:
        """``ssh -t USERNAME@127.0.0.1`` in a new 80×24 pane."""
        command = ssh_command(self.key, self.folder / "known_hosts", server.port,
                             self.folder / "status", self.folder / "ssh.err")
        (self.folder / "status").unlink(missing_ok=True)
        self.pane.start(command.replace("player@127.0.0.1", f"{username}@127.0.0.1"),
                        WIDTH, HEIGHT)
        self.connected = True

    def name_if_asked(self) -> None:
        """A new key is asked for a name first: type this person's name, enter. (A known
        key is not asked.)"""
        if self.known:
            return
        self.pane.wait_for(NAME_PROMPT, timeout=FIRST_SCREEN)
        time.sleep(0.5)  # a person reads the welcome first
        for attempt in range(3):  # a warning if the name typed once did not show
            self.pane.press("C-u")  # the field holds a suggestion
            self.type(self.name)
            with contextlib.suppress(AssertionError):
                wait_until(lambda: re.search(rf"(?<!\w){self.name}(?!\w)", self.text()),
                           3.0, f"{self.name} in the name field")
                break
            if attempt == 0:
                warnings.warn(f"{self.name}'s name, typed on the welcome screen, did not "
                              f"show in 3 s; typed again. The screen:\n{self.pane.screen()}",
                              stacklevel=2)
        else:
            raise self.pane.failure(f"the name field never showed {self.name!r}",
                                    self.pane.screen())
        self.pane.press("Enter")
        self.known = True  # from now on the key has a registered name

    def arrive(self, server: JourneyServer, username: str = "player", lobby: bool = True
               ) -> None:
        """Connect, give a name if asked; with ``lobby``, wait for the lobby."""
        self.connect(server, username)
        self.name_if_asked()
        if lobby:
            self.pane.wait_for(LOBBY, timeout=FIRST_SCREEN)

    def ended(self) -> None:
        """Wait for this person's ssh to end by itself (the server said goodbye)."""
        status = self.folder / "status"
        wait_until(status.is_file, STEP, f"{self.name}'s ssh to end")
        self.pane.kill()
        self.connected = False

    def open_tables(self) -> None:
        """From the lobby: ``t``, the Tables screen."""
        self.pane.press("t")
        self.pane.wait_for(TABLES_TITLE)

    def code_screen(self, code: str) -> None:
        """``j`` on the Tables screen, the code typed into its field."""
        self.open_tables()
        self.pane.press("j")
        self.pane.wait_for("The table's code")
        self.type(code)
        self.pane.wait_for(code)

    def join_by_code(self, code: str) -> None:
        """From the lobby: the Tables screen, ``j``, the code, enter (Join)."""
        self.code_screen(code)
        self.pane.press("Enter")

    def watch_by_code(self, code: str) -> None:
        """From the Tables screen: ``j``, the code, tab tab (the Watch button), enter."""
        self.pane.press("j")
        self.pane.wait_for("The table's code")
        self.type(code)
        self.pane.wait_for(code)
        self.pane.press("Tab")
        time.sleep(0.2)
        self.pane.press("Tab")
        time.sleep(0.2)
        self.pane.press("Enter")

    def text_rows(self) -> list[str]:
        """The screen's rows as they are (not flattened)."""
        return (self.pane.screen() or "").splitlines()

    def drop(self) -> None:
        """The connection is cut: the pane (and so ssh) is killed, no goodbye."""
        self.pane.kill()
        self.connected = False

    def leave(self) -> None:
        """esc at the table: back on the Tables screen. esc again while the board asks
        "Leave the table?", or after 3 s (the summary of a deal that has just ended takes
        an esc of its own): a warning then shows the screen the first esc did not leave."""
        deadline = time.monotonic() + STEP
        pressed = time.monotonic()
        unanswered: str | None = None
        self.pane.press("Escape")
        while TABLES_TITLE not in (text := self.text()):
            if time.monotonic() > deadline:
                raise self.pane.failure(f"{self.name}'s esc did not leave the table",
                                        self.pane.screen())
            asked = "Leave the table?" in text
            if asked or time.monotonic() - pressed > 3.0:
                if not asked and unanswered is None:
                    unanswered = self.pane.screen() or ""
                pressed = time.monotonic()
                self.pane.press("Escape")
                # (up to a second for it to answer: a third esc would leave the Tables
                # screen too)
                with contextlib.suppress(AssertionError):
                    wait_until(lambda: TABLES_TITLE in self.text(), 1.0, "the Tables screen")
            time.sleep(0.1)
        if unanswered is not None:
            warnings.warn(f"{self.name}'s esc left the table only when pressed again; the "
                          f"screen 3 s after the first:\n{unanswered}", stacklevel=2)

    def text(self) -> str:
        return flat(self.pane.screen() or "")

    def type(self, text: str) -> None:
        result = self.pane.tmux("send-keys", "-t", self.pane.target, "-l", text)
        assert result.returncode == 0, result.stderr

    def sees(self, *needles: str, timeout: float = STEP, absent: str | None = None) -> str:
        return self.pane.wait_for(*needles, timeout=timeout, absent=absent)

    def to_move(self) -> re.Match[str] | None:
        """The status line's question when it is this person's move, else None."""
        return re.search(rf"Your move, {re.escape(self.name)} — (\S+?):", self.text())

    def answer(self) -> str | None:
        """If this person is asked for a move, press the key of the first one offered
        (the stock, keep, a free slot for a wild, the call); the key, else None."""
        screen = self.text()
        asked = re.search(rf"Your move, {re.escape(self.name)} — (\S): ", screen)
        wild = re.search(rf"Your move, {re.escape(self.name)} — Wild: .*?\(free: (\d+)",
                         screen)
        key = asked.group(1) if asked else str(int(wild.group(1)) % 10) if wild else None
        if key is not None:
            self.pane.press(key)
        return key


class Table:
    """The people at one table, as a test drives them: whoever is asked plays on."""

    def __init__(self, server: JourneyServer, people: Iterable[Person]) -> None:
        self.server = server
        self.people = list(people)
        self.match_id: int | None = None
        #: each person's last answer: when, and the question it answered
        self.answered: dict[str, tuple[float, str]] = {}

    def match(self) -> int:
        """The table's match (the first seated person's newest match)."""
        if self.match_id is None:
            self.match_id = wait_until(lambda: self.server.match_of(self.people[0].identity),
                                       STEP, "the table's match in the history database")
        assert self.match_id is not None
        return self.match_id

    def saved(self) -> int:
        return self.server.saved_actions(self.match())

    def play_others(self, but: Person | None = None) -> None:
        """Everyone connected but ``but`` answers their question, if they are asked."""
        for person in self.people:
            if person is not but and person.connected:
                self.answer(person)

    def answer(self, person: Person) -> None:
        """``person`` answers their question, if they are asked: once the screen asks
        another question than the one they last answered (their key's update is in), or
        0.6 s after that answer (the same question again)."""
        at, asked = self.answered.get(person.name, (0.0, ""))
        if time.monotonic() - at < 0.6:
            now = person.to_move()
            if now is None or now.group(0) == asked:
                return
        question = person.to_move()
        if person.answer() is not None:
            self.answered[person.name] = (time.monotonic(),
                                          question.group(0) if question else "")

    def wait(self, check: Callable[[], object], timeout: float, what: str,
             but: Person | None = None, shown: Person | None = None) -> object:
        """Wait for ``check()`` while the others play on; AssertionError naming ``what``
        (with ``shown``'s screen) at the deadline."""
        deadline = time.monotonic() + timeout
        while True:
            result = check()
            if result:
                return result
            if time.monotonic() > deadline:
                screen = (shown or but or self.people[0]).pane
                raise screen.failure(f"after {timeout:g} s still waiting for {what}",
                                     screen.screen())
            self.play_others(but)
            time.sleep(0.15)

    def turn_of(self, person: Person, timeout: float = TURN) -> int:
        """Wait (the others playing on) until ``person`` is asked to draw, the start of
        their turn; the number of saved actions then (the table waits for them). The
        rest of a turn of theirs already under way is answered first."""

        def drawing() -> bool:
            found = person.to_move()
            if found is None:
                return False
            if found.group(1) in ("s", "d"):
                return True
            self.answer(person)  # a wild's slot, swap or keep, the call
            return False

        self.wait(drawing, timeout, f"{person.name}'s turn to draw", but=person,
                  shown=person)
        time.sleep(0.3)  # the last bot move's row is in by now (saved before it is sent)
        return self.saved()

    def moves(self, person: Person, timeout: float = TURN) -> None:
        """``person`` makes a move on their turn with their own keyboard (a draw from the
        stock); the history database must have it within a few seconds, and the rest of
        their turn is answered so the table goes on."""
        before = self.turn_of(person, timeout)
        person.pane.press("s")
        deadline = time.monotonic() + STEP
        while self.saved() <= before:
            if time.monotonic() > deadline:
                raise person.pane.failure(
                    f"{person.name}'s draw (key s, on their turn) was not saved in the "
                    f"history database within {STEP:g} s (still {before} actions); "
                    f"{keyboard_probe(person)}", person.pane.screen())
            time.sleep(0.15)
        deadline = time.monotonic() + STEP
        while (asked := person.to_move()) is not None:  # a wild's slot, swap or keep,
            assert time.monotonic() < deadline, person.pane.failure(  # the call
                f"{person.name}'s turn never ended", person.pane.screen())
            person.answer()
            # the key's update, before the question is read again (up to 0.6 s)
            with contextlib.suppress(AssertionError):
                wait_until(lambda asked=asked: (now := person.to_move()) is None
                           or now.group(0) != asked.group(0), 0.6, "the next question")

    def chat(self, person: Person, text: str, readers: Iterable[Person],
             said: str | None = None) -> None:
        """``person`` says ``text`` (c, the text, enter); their own screen and every
        reader's must show it (after ``said``, by default the person's name). A chat line
        that comes while a deal's summary is up may be hidden by it and then pushed out of
        the log by the moves held behind it: then (only then) it is said once more, with
        a warning."""
        readers = list(readers)
        for attempt in (1, 2):
            line = self.say(person, text if attempt == 1 else f"{text}!", said)
            shown: set[str] = set()
            ended: set[str] = set()

            def everyone_saw(line: str = line, shown: set[str] = shown,
                             ended: set[str] = ended) -> bool:
                for one in [person, *readers]:
                    screen = one.text()
                    if line in screen:
                        shown.add(one.name)
                    if DEAL_OVER.search(screen):
                        ended.add(one.name)
                return len(shown) == len(readers) + 1

            try:
                self.wait(everyone_saw, STEP, f"{person.name}'s chat line {line!r} on "
                          "every screen", but=person,
                          shown=next((one for one in [person, *readers]
                                      if one.name not in shown), person))
                return
            except AssertionError as failure:
                if attempt == 2 or not ended:
                    raise AssertionError(f"{failure}\n(seen by: {sorted(shown)}; a deal's "
                                         f"summary seen by: {sorted(ended)})") from None
                warnings.warn(f"{person.name}'s chat line {line!r} was not seen by every "
                              f"one (only {sorted(shown)}) while a deal ended: said again",
                              stacklevel=2)

    def say(self, person: Person, text: str, said: str | None) -> str:
        """``person`` types ``text`` into the chat line and sends it; the line as the log
        shows it."""
        person.pane.press("c")
        self.wait(lambda: "Say something to the table" in person.text(), STEP,
                  f"the chat line after {person.name}'s c (does a key reach the app?)",
                  but=person, shown=person)
        person.type(text)
        person.sees(text)
        person.pane.press("Enter")
        return f"{said or person.name}: {text}"


def keyboard_probe(person: Person) -> str:
    """Whether a key reaches ``person``'s app at all: ``c`` should open the chat line."""
    person.pane.press("c")
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        if "Say something to the table" in person.text():
            person.pane.press("Escape")
            return "keys do reach the app (c opened the chat line)"
        time.sleep(0.2)
    return "no key reaches the app: c did not open the chat line either (a dead keyboard)"


def log_lines(rows: list[str]) -> list[str]:
    """The lines of the board's log (the framed box at the right of the board)."""
    lines = []
    for row in rows:
        parts = row.split("│")
        if len(parts) >= 3 and len(parts[-3]) >= 30:  # a board row with the log's frame
            lines.append(parts[-2].strip())
    return [line for line in lines if line]


def code_of(host: Person) -> str:
    """The join code the host's waiting room shows."""
    found = wait_until(lambda: CODE.search(host.text()), STEP,
                       "the join code in the waiting room")
    assert isinstance(found, re.Match)
    return found.group(1)


def create_table(host: Person, public: bool = True, start_now: bool = False,
                 friends: int = 1) -> str:
    """From the lobby: ``t`` (the Tables screen), ``n`` (the new-table form, the default:
    4 seats, seat 2 open for a friend, seats 3–4 bots; with ``friends=2`` seat 3 open
    too), private if not ``public``, ctrl+s; with ``start_now`` the host starts at once
    (``s``: the open seat goes to a bot). The join code the waiting room shows."""
    host.open_tables()
    host.pane.press("n")
    host.sees("A new table")
    tabs = 1  # the cursor starts in the name (field 1)
    if friends == 2:
        tabs = tab_to(host, 5, tabs)  # the name, the rules, the seat count, seats 2, 3
        choose(host, ["Up"] * 3, "Seat 3 a friend (open seat)")  # from "bot: normal"
    if not public:
        tabs = tab_to(host, 7, tabs)  # ... seat 4, then "Listed"
        if "Listed (public)" in host.text():  # (the form's switch of earlier versions)
            host.pane.press("Space")
            time.sleep(0.3)
        else:
            choose(host, ["Down"], "private")
    host.pane.press("C-s")
    code = code_of(host)
    expected = "○ open, ○ open" if friends == 2 else "○ open"
    assert expected in host.text(), host.text()
    if start_now:
        host.pane.press("s")
    return code


def styled_screen(host: Person) -> str:
    """The pane's screen with its colours (a moved focus or highlight changes it); a
    browser's pane gives the end of the output it received."""
    return host.pane.styled()


def answered(host: Person, key: str) -> None:
    """Press ``key`` and wait until the screen shows its answer (a focus or a highlight
    moved, a list opened): the next key then never lands before the app has taken this
    one (a list still opening took a loaded machine's first keys)."""
    before = styled_screen(host)
    host.pane.press(key)
    wait_until(lambda: styled_screen(host) != before, STEP,
               f"the screen to answer {host.name}'s {key}", every=0.02)


def tab_to(host: Person, field: int, at: int) -> int:
    """Tab from field number ``at`` to ``field`` of the form (1: the name)."""
    for _ in range(field - at):
        answered(host, "Tab")
    return field


def choose(host: Person, keys: list[str], shown: str) -> None:
    """Open the focused list (enter), move with ``keys``, take it (enter); the form
    must then show ``shown``."""
    for key in ["Enter", *keys]:
        answered(host, key)
    host.pane.press("Enter")
    host.sees(shown)
