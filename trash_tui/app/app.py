"""The Textual app: one factory shared by the ``trash`` command, the SSH sessions and the tests.

``create_app`` builds a ``TrashApp`` from the user's ``Settings`` (or explicit choices:
rules, seats, seed, animation, theme), so tests get a deterministic app and the command
line gets the user's. The lobby is the base screen; every other screen (board, history,
settings, tournaments, rules help) is pushed on top of it and imported only when opened,
so the lobby appears quickly. A new SSH player's name prompt (at home: the first start's,
when the settings file has no name yet) comes first, and the lobby is built under it when
the prompt says the player typed (``NameScreen.FirstKey``; a connection that never types
costs the prompt only): whatever screen comes after the name (the lobby, or a table
joined by its code) is an ordinary screen that owns its keys from its first frame.

Over SSH, what the table service sends comes as the link's messages
(``trash_tui.app.shared.link``); the app passes each one on to the screens of its stack
(``pass_on``), and itself handles the operator's notices and kicks.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import App, SystemCommand
from textual.driver import Driver
from textual.events import Resize
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input

from bots.base import BotError
from trash_tui.app import textual_compat
from trash_tui.app.screens.lobby import LobbyScreen
from trash_tui.app.screens.remote import (
    IDLE_EXIT_STATUS,
    GoodbyeScreen,
    LocalNameScreen,
    NameScreen,
)
from trash_tui.app.screens.roles import GivesHints, SaysLines, ShowsMatch
from trash_tui.app.screens.too_small import check_size
from trash_tui.app.shared.browser import offers_browser
from trash_tui.app.shared.following import TableFollower
from trash_tui.app.shared.link import (
    Kicked,
    LinkLost,
    ServerSay,
    TableMessage,
    TableUpdate,
    contained,
    handles,
)
from trash_tui.app.shared.notices import KICK_GOODBYE, kicked_text, say_from_server
from trash_tui.games import TRASH
from trash_tui.history import LOCAL_OWNER, PLAYING, History, HistoryError, MatchRow
from trash_tui.play.controller import MatchController, make_seats
from trash_tui.players.identity import PLACEHOLDER_NAME, default_name, is_guest, is_web
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules, RulesError
from trash_tui.settings import Settings, SettingsError, save_settings
from trash_tui.text import clean, duration

if TYPE_CHECKING:
    from trash_tui.app.screens.history import HistoryScreen
    from trash_tui.app.shared.link import TablesLink
    from trash_tui.play.neighbor_controller import NeighborController

#: An SSH session's step back in the CPU queue once its first screen is up: all playing
#: sessions share the CPU equally, and a player who is just connecting goes first (three
#: times the share of one playing). Not more: at nice 19 a session gets 1.5% of a
#: processor that any ordinary busy process wants (a tournament on the same machine), and
#: its keys went unanswered for more than 15 s (3 of 3 tries; 0 of 4 at nice 5).
REMOTE_NICENESS = 5
NAME_PROMPT = "name-prompt"  # a new player's name prompt, installed until it is done
GOODBYE_SECONDS = 3.0  # how long the goodbye stays up before the app exits


class TrashApp(App[None]):
    """Trash at the terminal: the lobby, the board and the other screens."""

    TITLE = "Trash"
    # The few toasts left (errors, a broken settings file) at the top right: never over
    # the status line and the footer, which say what to do now. Everything else is said
    # in the screen's own status or notice line (``tell``).
    CSS = """
    ToastRack { dock: top; align: right top; margin-bottom: 0; }
    """

    def __init__(self, settings: Settings, *, seed: int | None = None,
                 play_now: bool = False, problems: Sequence[str] = (),
                 settings_path: Path | None = None, owner: str = LOCAL_OWNER,
                 tournaments_dir: Path | None = None, remote: bool = False,
                 idle_timeout: float = 0.0, tables: TablesLink | None = None) -> None:
        super().__init__()
        self.remote = remote  # a player over SSH: no tournaments, no suspend, a name
        self.tables_link = tables  # over SSH: the server's shared tables
        self.idle_timeout = idle_timeout  # seconds without input before goodbye (0: never)
        self.last_input = time.monotonic()
        self.leaving = False
        self.settings = settings
        self.seed = seed
        self.play_now = play_now
        self.problems = list(problems)
        self.settings_path = settings_path
        self.owner = owner
        self.tournaments_dir = tournaments_dir  # None: the user's own (tournament/examples.py)
        self.theme = settings.theme
        self._matches = 0
        self._history: History | None = None
        self._history_failed = False

    # --- settings ----------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.settings.rules

    @property
    def seats(self) -> list[Any]:
        return list(self.settings.seats)

    @property
    def animation(self) -> str:
        return self.settings.animation

    def apply_settings(self, settings: Settings | None) -> None:
        """Use newly saved settings (None: the settings screen was cancelled)."""
        if settings is None:
            return
        self.settings = settings
        self.theme = settings.theme
        self.set_keymap(settings.remapped_keys())
        if self._history is not None and self._history.path != settings.history_path():
            self._history.close()
            self._history, self._history_failed = None, False
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen):
                screen.refresh(recompose=True)
                screen.call_after_refresh(screen.show_unfinished)

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this terminal; on Linux and macOS, once the speed-ups to
        Textual are applied, one whose keyboard thread sleeps while nothing is typed."""
        return textual_compat.keyboard.driver_class(super().get_driver_class())

    def on_mount(self) -> None:
        self.set_keymap(self.settings.remapped_keys())
        prompt = self.name_prompt()
        if prompt is not None:
            # a new key (or the first start at home): the name prompt alone (cheap to
            # draw); the lobby is built under it at the player's first key (FirstKey)
            self.install_screen(prompt, NAME_PROMPT)
            self.push_screen(prompt, callback=self.set_player_name)
        else:
            self.push_first_screens()
        for problem in self.problems:
            self.notify(problem, title="Settings problem: using the default",
                        severity="warning", timeout=12, markup=False)  # text from the file
        if self.play_now and prompt is None:  # (else once the name is chosen)
            self.start_match(self.rules, self.seats)
        if self.remote:
            self.welcome_remote_player()
        if self.idle_timeout > 0:  # every input event comes through the app first
            self.message_signal.subscribe(self, self.note_input, immediate=True)
            self.set_interval(min(5.0, self.idle_timeout / 4), self.check_player_idle)
        check_size(self)

    def push_first_screens(self) -> list[Any]:
        """Push the lobby, and over it, for a code in the SSH user name, the Tables screen
        that opens its table (it sends the join once the link is up), so no frame shows
        the lobby or an empty list before the table; what the pushes return."""
        from trash_tui.app.shared.tables_screen import TablesScreen

        pushed = [self.push_screen(LobbyScreen())]
        link = self.tables_link
        if link is not None and link.join_code is not None:
            pushed.append(self.push_screen(TablesScreen(
                link, self.settings.animation, {"op": "join", "code": link.join_code},
                self.settings.name)))
        return pushed

    # --- players over SSH ----------------------------------------------------------------
    def welcome_remote_player(self) -> None:
        """Stop cleanly on SIGTERM; use the name registered for the key (the lobby's own
        line offers an unfinished match).
        Once the first screen is drawn, this session steps back in the CPU queue (nice),
        so players who are just connecting get their first screen before the others'
        next frames."""
        self.call_after_refresh(self.yield_to_newcomers)
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.server_stopping)
            # the server's CPU-time limit for one session (SIGXCPU at the soft limit)
            asyncio.get_running_loop().add_signal_handler(signal.SIGXCPU, self.cpu_time_used)
            # the operator began to watch this session (``trash admin watch``)
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1,
                                                          self.redraw_everything)
        history = self.history
        name = self.registered_name()
        if name is not None:
            if history is not None:
                history.players.register_player(self.owner, name)
            self.settings = replace(self.settings, name=name)
            self.run_worker(self.connect_tables(), group="tables")

    async def connect_tables(self) -> None:
        """Connect to the server's shared tables (the name is known by now); go straight
        to the table of the code in the SSH user name, or back to a seat held for us."""
        link = self.tables_link
        if link is None or link.connected:
            return
        try:
            welcome = await link.connect(self.post_message)  # (LinkUp: the screens know)
        except (OSError, TimeoutError, ValueError) as exc:
            self.tables_link = None
            self.notify(f"The shared tables are not available: {exc}", severity="warning",
                        markup=False)
            # (one opened for a code says so: esc goes to the lobby)
            self.post_message(LinkLost({"op": "disconnected", "unavailable": True}))
            return
        waiting = welcome.get("waiting")
        if link.join_code is not None:
            from trash_tui.app.shared.tables_screen import TablesScreen

            if not any(isinstance(screen, TablesScreen) and screen.request is not None
                       for screen in self.screen_stack):  # (else it sends it: LinkUp)
                self.open_tables({"op": "join", "code": link.join_code})
        elif waiting:
            # said on the table's own status line (a toast would cover its piles)
            self.open_tables({"op": "join", "table": waiting["id"]},
                             notice=f"Back at your seat at {clean(waiting.get('name', ''), 32)}"
                                    " (it kept it for you).")

    # --- the table link's messages --------------------------------------------------------
    @on(TableMessage)
    def pass_on(self, message: TableMessage) -> None:
        """Each message of the table link to every screen of the stack that handles its
        kind (``handles``), in the order they came (each handles them once it is up; a
        screen that does not show a kind is not woken by it). An update that opens the
        table's next screen (``TableFollower.opens``: the table asked for, the board when
        the match starts) opens it first, so every later message goes to it too."""
        if isinstance(message, TableUpdate):
            follower = next((screen for screen in reversed(self.screen_stack)
                             if isinstance(screen, TableFollower)), None)
            if follower is not None and follower.opens(message):
                return
        for screen in self.screen_stack:
            if handles(screen, message):
                screen.post_message(message.again())

    @contained
    def on_server_say(self, message: ServerSay) -> None:
        say_from_server(self, message.data)

    @contained
    def on_kicked(self, message: Kicked) -> None:
        self.say_goodbye(kicked_text(message.data), delay=KICK_GOODBYE)

    def on_history_screen_resume(self, message: HistoryScreen.Resume) -> None:
        """From the history: an unfinished match goes on (one at a shared table: back to
        its seat)."""
        row = message.row
        if row.shared:
            self.open_tables({"op": "join", "match": row.id})
        else:
            self.resume_row(row)

    def open_tables(self, request: dict[str, Any] | None = None,
                    notice: str | None = None) -> None:
        """The Tables screen; ``request`` (a join) is sent once it is up (the table it
        opens says ``notice``)."""
        from trash_tui.app.shared.tables_screen import TablesScreen

        link = self.tables_link
        if link is None or not link.connected:
            self.notify("The shared tables are not available on this server.",
                        severity="warning", markup=False)
            return
        if not isinstance(self.screen, TablesScreen):
            self.push_screen(TablesScreen(link, self.settings.animation, request,
                                          self.settings.name, notice))
        elif request is not None:
            link.send(request)

    @staticmethod
    def yield_to_newcomers() -> None:
        """Lower this session's CPU priority. Each session leads its own process session,
        so where Linux groups processes by session (autogroup), the group's niceness is
        what counts: set that too."""
        if os.getsid(0) != os.getpid():  # not a session's own process (tests): leave it
            return
        with contextlib.suppress(OSError, AttributeError):
            os.nice(REMOTE_NICENESS)
        with contextlib.suppress(OSError), open("/proc/self/autogroup", "w") as group:
            group.write(str(REMOTE_NICENESS))

    def name_prompt(self) -> NameScreen | None:
        """The name prompt of a new SSH player, or at home of the first start (a settings
        file with no name yet); None when the name is known."""
        if self.remote:
            if self.registered_name() is not None:
                return None
            return NameScreen(self.suggested_name(), guest=is_guest(self.owner),
                              web=is_web(self.owner))
        return None if self.settings.name_chosen else LocalNameScreen(self.settings.name)

    def registered_name(self) -> str | None:
        """The display name registered for this player's identity, or None (a new key, a
        guest's first session, or a player registered as "You" before it was refused:
        asked again)."""
        history = self.history
        name = history.players.player_name(self.owner) if history is not None else None
        return None if name is None or name.casefold() == PLACEHOLDER_NAME.casefold() else name

    def suggested_name(self) -> str:
        """The name a new SSH player's prompt suggests (and esc keeps): the one in their
        settings file, else "Player" and letters from their identity, which no other
        player of this server has (others must tell them apart at a shared table)."""
        if self.settings.name.strip() and self.settings.name != PLACEHOLDER_NAME:
            return self.settings.name
        history = self.history
        if history is None:
            return default_name(self.owner)
        return default_name(self.owner, lambda name: history.players.name_taken(name,
                                                                                self.owner))

    async def on_name_screen_first_key(self, message: NameScreen.FirstKey) -> None:
        """The player typed on the name prompt: the lobby now, under it."""
        await self.build_lobby_under(message.prompt)

    async def build_lobby_under(self, prompt: NameScreen) -> None:
        """Put the lobby under the name prompt, which is back on top before any key is
        handled (the app handles none while this runs): the lobby is ready when the name
        is, and whatever comes after the name owns its keys from its first frame. Run in
        the app's queue, so the prompt's dismissal (``NameScreen.leave``, queued there
        too) comes before or after it, never in the middle."""
        if self.screen is not prompt or any(isinstance(screen, LobbyScreen)
                                            for screen in self.screen_stack):
            return  # (the size guard is over it, or the name came first: see below)
        # no frame is painted meanwhile: the lobby alone, shown for a moment, would invite
        # a key (n) that the prompt, back on top, takes
        with self.batch_update():
            await self.pop_screen()  # (installed: the prompt and what is typed in it stay)
            for pushed in self.push_first_screens():
                await pushed
            await self.push_screen(prompt, callback=self.set_player_name)

    def set_player_name(self, name: str | None) -> None:
        """Register the name a new player chose (the lobby is under the prompt, or comes
        now if it could not be built there), then connect to the shared tables (a code in
        the SSH user name goes to its table)."""
        self.call_later(self.uninstall_screen, NAME_PROMPT)
        if not any(isinstance(screen, LobbyScreen) for screen in self.screen_stack):
            self.push_first_screens()
        if not self.remote:
            self.set_local_name(name)
            return
        if not name:
            return
        self.settings = replace(self.settings, name=name)
        if self.history is not None:
            self.history.players.register_player(self.owner, name)
        self.run_worker(self.connect_tables(), group="tables")
        if self.settings_path is not None:
            with contextlib.suppress(OSError, SettingsError):
                save_settings(self.settings, self.settings_path)

    def set_local_name(self, name: str | None) -> None:
        """At home: use the name chosen on the first start and save it in the settings
        file (only the name: options given on the command line stay this run's); then the
        match ``trash play`` asked for. No name (esc): asked again at the next start."""
        from trash_tui.settings import default_settings_path, load_settings

        if name:
            self.settings = replace(self.settings, name=name, name_chosen=True)
            for screen in self.screen_stack:
                if isinstance(screen, LobbyScreen):
                    screen.call_after_refresh(screen.show_suggestion)
            path = self.settings_path or default_settings_path()
            saved, problems = load_settings(path)
            try:
                if problems:
                    raise SettingsError("; ".join(problems))
                save_settings(replace(saved, name=name), path)
            except (OSError, SettingsError) as exc:
                self.notify(f"Your name is used now but could not be saved: {exc}",
                            severity="warning", markup=False)
        if self.play_now:
            self.start_match(self.rules, self.seats)

    def note_input(self, message: Message) -> None:
        """Every message the app handles (``message_signal``): a player's input (a key, a
        click, a scroll, a paste) is when they were last there."""
        if isinstance(message, events.Key | events.MouseDown | events.MouseScrollDown |
                      events.MouseScrollUp | events.Paste):
            self.last_input = time.monotonic()

    def check_player_idle(self) -> None:
        idle = time.monotonic() - self.last_input
        if self.idle_timeout > 0 and idle >= self.idle_timeout and not self.leaving:
            self.say_goodbye(f"No key pressed for {duration(self.idle_timeout)}. "
                             f"{self.saved_where()}", status=IDLE_EXIT_STATUS)

    def server_stopping(self) -> None:
        """SIGTERM from the SSH server, which has taken the terminal back and tells the
        player itself what happens and how to come back (``trash_tui.ssh.goodbye``):
        nothing drawn now would be seen, so the app exits at once (every match is saved
        after every move)."""
        self.leaving = True
        self.exit()

    def saved_where(self) -> str:
        """Where this player's match is kept, and how to get back to it: a seat at a
        shared table comes back by itself (the server sends a returning player to it);
        a match of one's own is continued with c. A guest (new at every connection) gets
        nothing back, and is told how a key would keep it."""
        from trash_tui.app.shared.board import SharedBoardScreen
        from trash_tui.app.shared.waiting_room import TableWaitingScreen

        if is_guest(self.owner):
            return ("As a guest you are someone new at every visit: nothing is kept for "
                    "you. A key keeps your matches and your seat: ssh-keygen -t ed25519.")
        if any(isinstance(screen, SharedBoardScreen | TableWaitingScreen)
               for screen in self.screen_stack):
            return ("Your seat at the table is kept: when you connect again, you are back "
                    "at it.")
        return "Your match is saved: press c in the lobby to continue it."

    def redraw_everything(self) -> None:
        """Draw the whole screen again (SIGUSR1 from the SSH server: an operator began to
        watch this session and sees only what is drawn from now on)."""
        with contextlib.suppress(Exception):  # (no screen yet, or the app is ending)
            self.screen.refresh()

    def cpu_time_used(self) -> None:
        self.say_goodbye("This session has used all the computer time the server gives one "
                         f"session. {self.saved_where()}", delay=2.0)

    def say_goodbye(self, message: str, delay: float | None = None, status: int = 0) -> None:
        """Show ``message`` over everything, then exit with ``status`` after ``delay``
        seconds (default ``GOODBYE_SECONDS``)."""
        if self.leaving:
            return
        self.leaving = True
        self.push_screen(GoodbyeScreen(message))
        self.set_timer(GOODBYE_SECONDS if delay is None else delay,
                       lambda: self.exit(return_code=status))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open_tournaments":  # tournaments use the server's CPU: not over
            return not self.remote  # SSH (there the lobby's t is the shared tables)
        return True

    def action_suspend_process(self) -> None:
        if self.remote:
            self.notify("Suspending is not available over SSH.", severity="warning", markup=False)
            return
        super().action_suspend_process()

    def on_resize(self, event: Resize) -> None:
        check_size(self)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Over SSH, text cursors do not blink: a blink is a redraw sent down the line
        twice a second by every session waiting at a text field."""
        if self.remote and isinstance(event.widget, Input):
            event.widget.cursor_blink = False

    def tell(self, text: str, severity: str = "information") -> None:
        """Say ``text`` in the screen's own notice line when it has one (``say``), else in
        a toast."""
        screen = self.screen
        if isinstance(screen, SaysLines):
            screen.say(text, severity)
        else:
            self.notify(text, severity=severity, markup=False)  # type: ignore[arg-type]

    # --- the history database ----------------------------------------------------------
    @property
    def history(self) -> History | None:
        """The history database, opened on first use; None (said once) if it cannot be."""
        if self._history is None and not self._history_failed:
            try:
                self._history = open_history(self.settings.history_path())
            except HistoryError as exc:
                self._history_failed = True
                self.notify(f"{exc} — matches are not saved", severity="error", timeout=12,
                            markup=False)
        return self._history

    def unfinished_match(self) -> MatchRow | None:
        history = self.history
        if history is None:
            return None
        rows = history.matches.of_player(self.owner, PLAYING, limit=1, shared=False)
        return rows[0] if rows else None

    # --- matches -------------------------------------------------------------------------
    def match_seed(self) -> int:
        """A new match's seed: from the app's seed (tests, --seed) or at random."""
        self._matches += 1
        if self.seed is None:
            return random.SystemRandom().randrange(2**31)
        return self.seed + self._matches - 1

    def start_match(self, rules: Rules, seats: Sequence[Any],
                    human_names: Sequence[str] = ()) -> None:
        """A new match at this table; several humans take ``human_names`` (hot seat)."""
        from trash_tui.play.saving import start_saved_match

        seed = self.match_seed()
        history = self.history
        try:
            if history is not None:
                controller = start_saved_match(history, self.owner, rules, seats, seed,
                                               self.settings.name, human_names)
            else:
                controller = MatchController(rules, make_seats(
                    seats, seed, self.settings.name, human_names=human_names), seed)
        except (BotError, RulesError, HistoryError, sqlite3.Error) as exc:
            self.tell(f"Cannot start the match: {exc}", severity="error")
            return
        self.open_board(controller)

    def start_neighbor_game(self, seats: Sequence[str],
                            human_names: Sequence[str] = ()) -> None:
        """A game of Help Your Neighbor at this table, saved in the history like a match."""
        from trash_tui.play.neighbor_controller import NeighborController
        from trash_tui.play.saving import start_saved_neighbor_game

        seed = self.match_seed()
        history = self.history
        try:
            if history is not None:
                controller = start_saved_neighbor_game(history, self.owner, list(seats), seed,
                                                       self.settings.name, human_names)
            else:
                controller = NeighborController.from_specs(
                    list(seats), seed, human_name=self.settings.name, human_names=human_names)
        except (BotError, ValueError, HistoryError, sqlite3.Error) as exc:
            self.tell(f"Cannot start the game: {exc}", severity="error")
            return
        self.open_neighbor_board(controller)

    def continue_match(self) -> None:
        """Continue the latest unfinished match."""
        row = self.unfinished_match()
        if row is None:
            self.tell("There is no unfinished match.", severity="warning")
            return
        self.resume_row(row)

    def resume_row(self, row: MatchRow) -> None:
        """Continue the unfinished match ``row`` exactly where it stopped."""
        from trash_tui.play.saving import resume_saved

        history = self.history
        if history is None:
            return
        try:
            controller = resume_saved(history, row)
        except HistoryError as exc:
            self.tell(str(exc), severity="error")
            return
        if isinstance(controller, MatchController):
            self.open_board(controller, notice="The match goes on where it stopped.")
        else:
            self.open_neighbor_board(controller)

    def open_board(self, controller: MatchController, notice: str | None = None) -> None:
        from trash_tui.app.trash.board import BoardScreen

        self.push_screen(BoardScreen(controller, self.settings.animation, notice=notice))

    def open_neighbor_board(self, controller: NeighborController) -> None:
        from trash_tui.app.neighbor.board import NeighborBoardScreen

        self.push_screen(NeighborBoardScreen(controller, self.settings.animation))

    # --- the other screens -----------------------------------------------------------------
    def action_open_history(self) -> None:
        from trash_tui.app.screens.history import HistoryScreen

        history = self.history
        if history is None:
            return
        self.push_screen(HistoryScreen(history, self.owner))

    def action_open_tournaments(self) -> None:
        from trash_tui.app.screens.tournaments import TournamentsScreen

        if self.remote:
            if self.tables_link is not None:  # over SSH, t is the shared tables
                self.open_tables()
                return
            self.notify("Tournaments run on the server's own machine, not over SSH.",
                        severity="warning", markup=False)
            return
        from trash_tui.tournament.examples import user_tournaments

        path = self.settings.history_path()
        folder = self.tournaments_dir or path.parent / "tournaments"
        if self.tournaments_dir is None:
            try:
                folder = user_tournaments(path)  # made with the examples on first use
            except OSError as exc:
                self.notify(f"Cannot make your tournament folder {clean(str(folder))}: "
                            f"{clean(exc.strerror or str(exc))}", severity="error",
                            markup=False)
        self.push_screen(TournamentsScreen(folder, path.parent / "runs", path))

    def action_open_settings(self) -> None:
        from trash_tui.app.screens.settings import SettingsScreen
        from trash_tui.settings import default_settings_path

        # over SSH with no settings file (a guest): for this visit only
        path = self.settings_path or (None if self.remote else default_settings_path())
        self.push_screen(SettingsScreen(self.settings, path), callback=self.apply_settings)

    def action_open_rules(self) -> None:
        from trash_tui.app.screens.rules_help import RulesHelpScreen

        if isinstance(self.screen, LobbyScreen) and self.lobby_game() != TRASH:
            from trash_tui.app.neighbor.dialogs import NeighborRulesScreen

            self.push_screen(NeighborRulesScreen())  # the dice game chosen in the lobby
            return
        screen = self.screen
        board_rules = screen.match_rules() if isinstance(screen, ShowsMatch) else None
        self.push_screen(RulesHelpScreen(board_rules or self.settings.rules,
                                         keymap=self.settings.keymap))

    def lobby_game(self) -> str:
        """The game chosen in the lobby's form (Trash when there is no lobby)."""
        from textual.css.query import NoMatches

        lobby = next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)
        try:
            return lobby.game if lobby is not None else TRASH
        except NoMatches:  # the lobby's form is not built yet
            return TRASH

    def action_open_leaderboard(self) -> None:
        """The leaderboard: over SSH the server's players, at home you and the bots."""
        from trash_tui.app.players.leaderboard_screen import LeaderboardScreen

        history = self.history
        if history is not None:
            self.push_screen(LeaderboardScreen(history, self.owner, self.remote,
                                               self.settings.name, self.lobby_game()))

    def action_open_stats(self) -> None:
        """Your statistics, with the chart of your rating."""
        from trash_tui.app.players.stats_screen import StatsScreen

        history = self.history
        if history is not None:
            self.push_screen(StatsScreen(history, self.owner, self.settings.name,
                                         self.lobby_game()))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        from trash_tui.app.screens.keys import KeysScreen, screen_keys

        for command in super().get_system_commands(screen):
            if command.title == "Keys":  # Textual's panel squeezes the lobby: a box instead
                yield SystemCommand("Keys", "Every key of this screen (esc closes)",
                                    lambda: self.push_screen(KeysScreen(screen_keys(screen))))
            else:
                yield command
        if not isinstance(screen, ShowsMatch):  # not during a match
            yield SystemCommand("New match", "Start a match with the lobby's choices",
                                self.command_new_match)
            if self.unfinished_match() is not None:
                yield SystemCommand("Continue", "Continue the unfinished match",
                                    self.continue_match)
        yield SystemCommand("Match history", "Finished matches and their replays",
                            self.action_open_history)
        if not self.remote:
            yield SystemCommand("Tournaments", "Run bot tournaments and see their results",
                                self.action_open_tournaments)
        yield SystemCommand("Leaderboard", "Ratings: " + (
            "the players of this server" if self.remote else "you beside the bots"),
            self.action_open_leaderboard)
        yield SystemCommand("Your statistics", "Wins, places, streaks and your rating "
                            "over time", self.action_open_stats)
        yield SystemCommand("Settings", "House rules, seats, animation, theme and keys",
                            self.action_open_settings)
        yield SystemCommand("Rules help", "The rules, with the house rules in play",
                            self.action_open_rules)
        if isinstance(screen, LobbyScreen) and offers_browser(self.tables_link, self.owner):
            yield SystemCommand("Play in a browser", "A one-time link that makes a browser "
                                "you (name, rating, seats)", screen.action_play_in_browser)
        if isinstance(screen, GivesHints):
            yield SystemCommand("Hint", "What the expert bot would do, and your chances",
                                screen.action_hint)

    def command_new_match(self) -> None:
        lobby = next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)
        if lobby is None:
            self.start_match(self.rules, self.seats)
            return
        while self.screen is not lobby:
            self.pop_screen()
        lobby.action_new_match()

    def on_unmount(self) -> None:
        if self._history is not None:
            self._history.close()


def create_app(rules: Rules | None = None, seats: Sequence[Any] | None = None,
               seed: int | None = None, animation: str | None = None,
               theme: str | None = None, play_now: bool = False, *,
               settings: Settings | None = None, problems: Sequence[str] = (),
               settings_path: Path | None = None, owner: str = LOCAL_OWNER,
               tournaments_dir: Path | None = None, remote: bool = False,
               idle_timeout: float = 0.0, tables: TablesLink | None = None) -> TrashApp:
    """The app, as ``trash`` and the tests build it: ``settings`` (default: the built-in
    defaults, never the user's file) with ``rules``, ``seats``, ``animation`` and ``theme``
    overriding it when given. The speed-ups to Textual's private parts are applied when
    the settings ask (``textual_speedups``; the SSH server applies them in its fork server
    whatever the settings say): a Textual they were not tested with is said as a problem
    of the settings, and the app runs on it as it is."""
    base = settings or Settings()
    if base.textual_speedups:
        said: list[str] = []
        textual_compat.apply(said.append)
        problems = (*problems, *(f"app.textual_speedups: {line}" for line in said))
    changes: Mapping[str, Any] = {
        key: value for key, value in (("rules", rules), ("seats", tuple(seats or ()) or None),
                                      ("animation", animation), ("theme", theme))
        if value is not None}
    if changes:
        base = replace(base, **changes)
    return TrashApp(base, seed=seed, play_now=play_now, problems=problems,
                    settings_path=settings_path, owner=owner, tournaments_dir=tournaments_dir,
                    remote=remote, idle_timeout=idle_timeout, tables=tables)
