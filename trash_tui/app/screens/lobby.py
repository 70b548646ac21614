"""The lobby: where everything starts.

A new match of Trash or of the dice game Help Your Neighbor (players, humans at this
keyboard, the opponents' level, the rules), continue
the unfinished match, and the way to the other screens (history, tournaments, settings,
rules help). Over SSH, the lobby asks the table service which shared tables the player
holds a seat at (``mine``, when the link says it is up, and when the lobby is shown
again; the answer comes as the link's ``SeatsHeld``): with no unfinished match of its
own, it names that table and ``c`` goes back to it; with none open, it names the last
table where the player's seat was when it closed (nobody at it, say), and who can reopen
it (nobody, when the server's operator closed it: it stays closed). The form starts from
the user's settings; while it is left as the settings say, the settings' own line-up (mixed
levels, bot tables) is used as it is. What the lobby has to say (a choice it refuses, a
match waiting) is a line in its box (``say``), not a toast over the footer; it goes when
the form changes or another screen opens.

Every screen the lobby leads to has a button and a key in the footer (which takes a second
line rather than leave a key out); ``r`` or ``?`` explains the game chosen in the form.
The dice game has no house rules, so its form has no Rules field, and each game keeps its
own number of players. In a roomy terminal (``ROOMY``) the box grows and shows the
player's last matches beside the form. Over SSH on a server with a web face, ``b`` ("Play in
a browser") asks the table service for a one-time link code and shows the link on a line
under the title until the code is over (``trash_tui.app.shared.browser``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Label, Select, Static

from trash_tui import __version__
from trash_tui.app.screens.hot_seat import HotSeatScreen, default_names
from trash_tui.app.screens.roles import SaysLines
from trash_tui.app.screens.unfinished import ABANDON, CONTINUE, KEEP, UnfinishedScreen
from trash_tui.app.shared.browser import link_line, offers_browser
from trash_tui.app.shared.link import LinkCode, LinkUp, SeatsHeld, ServerMotd, contained
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.games import NEIGHBOR, SHORT_TITLES, TRASH
from trash_tui.history import MatchRow
from trash_tui.play.controller import HUMAN
from trash_tui.presets import PRESETS, preset_name_of
from trash_tui.rules import Rules
from trash_tui.settings import LEVELS, own_bots
from trash_tui.text import clean

TRASH_GAME, NEIGHBOR_GAME = TRASH, NEIGHBOR
NEIGHBOR_LEVELS = ("smart", "random")
NEIGHBOR_MIN_PLAYERS = 3
ROOMY = (120, 40)  # from this size on (columns, lines) the lobby is roomy
LAST_MATCHES = 12  # lines of last matches in a roomy lobby
MOTD_LENGTH = 150  # characters of the message of the day (two lines of the box at most)

if TYPE_CHECKING:
    from trash_tui.app.app import TrashApp


def _level_of(spec: Any) -> str | None:
    """The lobby's level name for a seat spec, or None when the spec is richer."""
    return spec if isinstance(spec, str) and spec in LEVELS else None


OWN = "own:"  # the value of the player's own bot number N in the Opponents list: "own:N"


def _opponents(seats: Sequence[Any]) -> list[tuple[str, str]]:
    """The Opponents list: the levels, then the player's own bots from their settings (a
    command, a file, a bot with parameters: bots/PROTOCOL.md)."""
    return [(name, name) for name in LEVELS] + [
        (clean(f"{label} (yours)", 40), f"{OWN}{index}")
        for index, (label, _spec) in enumerate(own_bots(seats))]


def _first_opponent(seats: Sequence[Any]) -> str:
    """The Opponents value of the settings' line-up: its first bot, or "normal"."""
    bots = [s for s in seats if s != HUMAN]
    if not bots:
        return "normal"
    level = _level_of(bots[0])
    if level is not None:
        return level
    specs = [spec for _label, spec in own_bots(seats)]
    return f"{OWN}{specs.index(bots[0])}" if bots[0] in specs else "normal"


def unfinished_text(row: MatchRow) -> str:
    """The unfinished match in a few words: "Your match: 2 players, deal 3, 41 moves so
    far"."""
    if row.game == NEIGHBOR:
        return (f"Your game of Help Your Neighbor: {len(row.names)} players, {row.deals} "
                f"roll{'' if row.deals == 1 else 's'} so far")
    return (f"Your match: {len(row.names)} players, deal {max(1, row.deals)}, "
            f"{row.actions} moves so far")


class LobbyScreen(Screen[None], SaysLines):
    """Where everything starts: a new match, continue, history, tournaments, settings."""

    DEFAULT_CSS = """
    LobbyScreen { align: center middle; }
    #lobby { width: 78; max-width: 100%; height: auto; max-height: 100%;
             border: round $accent; padding: 0 1; overflow-y: auto; }
    #lobby-title { text-style: bold; width: 100%; content-align: center middle; }
    LobbyScreen.-tall #lobby-title { margin-bottom: 1; }
    #lobby-body { height: auto; }
    #lobby-motd { display: none; width: 100%; height: auto; max-height: 2;
                  content-align: center middle; color: $text-warning; }
    #lobby-motd.-shown { display: block; }
    #lobby-browser { display: none; width: 100%; height: auto; content-align: center middle; }
    #lobby-browser.-shown { display: block; }
    #lobby-browser.-error { color: $text-error; }
    #lobby-menu { width: 24; height: auto; margin-right: 2; }
    #lobby-menu Button { width: 100%; }
    #lobby-side { display: none; width: 44; height: auto; margin-left: 3; }
    #lobby-side-title { text-style: bold; }
    #lobby-last { color: $text-muted; height: auto; }
    LobbyScreen.-tall #lobby-menu Button { margin-bottom: 1; }
    LobbyScreen.-roomy #lobby { width: 136; padding: 1 2; }
    LobbyScreen.-roomy #lobby-menu { width: 28; margin-right: 3; }
    LobbyScreen.-roomy #lobby-side { display: block; }
    #lobby-rules-row { height: auto; }
    #lobby-form { width: 1fr; height: auto; }
    #lobby-form Select { width: 100%; }
    #lobby-table, #lobby-game-row { height: auto; }
    #lobby-table Vertical, #lobby-game-row Vertical { width: 1fr; height: auto; }
    #lobby-rules-note { color: $text-muted; height: auto; max-height: 3; }
    LobbyScreen.-tall #lobby-continue-note { margin-top: 1; }
    #lobby-notice { height: auto; }
    #lobby-suggestion { height: auto; color: $text-muted; display: none; }
    #lobby-notice.-error { color: $text-error; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_match", "New match", id="new-match"),
        Binding("c", "continue_match", "Continue", id="continue-match"),
        Binding("h", "app.open_history", "History", id="open-history"),
        # every screen the lobby leads to, in the footer (a second line if need be)
        Binding("t", "app.open_tournaments", "Tournaments", id="open-tournaments"),
        Binding("t", "tables", "Tables", id="open-tables"),  # over SSH
        Binding("l", "app.open_leaderboard", "Leaderboard", id="open-leaderboard"),
        Binding("p", "app.open_stats", "Statistics", id="open-stats"),
        Binding("r,question_mark", "app.open_rules", "Rules", id="open-rules"),
        Binding("s", "app.open_settings", "Settings", id="open-settings"),
        # over SSH with the server's web face on: a one-time link for a browser
        Binding("b", "play_in_browser", "Play in a browser", id="play-in-browser"),
        Binding("q", "app.quit", "Quit", id="quit"),
    ]

    def compose(self) -> ComposeResult:
        app = self.trash_app
        settings = app.settings
        preset = preset_name_of(settings.rules)
        rules_choices = [(name, name) for name in PRESETS]
        if preset is None:
            rules_choices.insert(0, ("your house rules", "custom"))
        level = _first_opponent(settings.seats)
        # built for the terminal's size (``fit``), not restyled for it once mounted
        compact = self.size_classes(app.size.width, app.size.height)
        with Vertical(id="lobby"):
            yield Label(f"♠ ♥ Trash — the card game ♦ ♣   v{__version__}", id="lobby-title",
                        markup=False)
            yield Static("", id="lobby-motd", markup=False)  # over SSH: the server's line
            yield Static("", id="lobby-browser", markup=False)  # b: a link for a browser
            with Horizontal(id="lobby-body"):
                with Vertical(id="lobby-menu"):
                    yield Button("New match", id="lobby-start", variant="primary",
                                 compact=True)
                    yield Button("Continue", id="lobby-continue", compact=True)
                    yield Button("History", id="lobby-history", compact=True)
                    # over SSH the same place (and t) leads to the server's shared tables
                    yield Button("Tables" if app.tables_link is not None else "Tournaments",
                                 id="lobby-tournaments", compact=True)
                    yield Button("Leaderboard", id="lobby-leaderboard", compact=True)
                    yield Button("Statistics", id="lobby-stats", compact=True)
                    yield Button("Settings", id="lobby-settings", compact=True)
                    yield Button("Rules help", id="lobby-rules-help", compact=True)
                    yield Button("Quit", id="lobby-quit", compact=True)
                with Vertical(id="lobby-form"):
                    with Horizontal(id="lobby-game-row"):
                        with Vertical():
                            yield Label("Game", markup=False)
                            yield Select([("Trash (cards)", TRASH_GAME),
                                          ("Help Your Neighbor (dice)", NEIGHBOR_GAME)],
                                         value=TRASH_GAME, allow_blank=False, id="lobby-game",
                                         compact=compact)
                        with Vertical():
                            yield Label("Opponents", markup=False)
                            yield Select(_opponents(settings.seats), value=level,
                                         allow_blank=False, id="lobby-level",
                                         compact=compact)
                    with Horizontal(id="lobby-table"):
                        with Vertical():
                            yield Label("Players at the table", markup=False)
                            yield Select([(f"{n} players", n) for n in range(2, 9)],
                                         value=min(8, max(2, len(settings.seats))),
                                         allow_blank=False, id="lobby-players",
                                         compact=compact)
                        with Vertical():
                            yield Label("Humans (hot seat)", markup=False)
                            yield Select([(f"{n} human{'s' if n > 1 else ''}", n)
                                          for n in range(1, 9)],
                                         value=max(1, settings.seats.count(HUMAN)),
                                         allow_blank=False, id="lobby-humans",
                                         compact=compact)
                    with Vertical(id="lobby-rules-row"):
                        yield Label("Rules", markup=False)
                        yield Select(rules_choices, value=preset or "custom",
                                     allow_blank=False, id="lobby-rules",
                                     compact=compact)
                    yield Static(self.rules_note(preset or "custom"), id="lobby-rules-note",
                                 markup=False)
                    yield Static("", id="lobby-continue-note", markup=False)
                    yield Static("", id="lobby-suggestion", markup=False)
                    yield Static("", id="lobby-notice", markup=False)
                with Vertical(id="lobby-side"):
                    yield Label("Your last matches", id="lobby-side-title", markup=False)
                    yield Static("", id="lobby-last", markup=False)
        yield TrashFooter(wrap=True)

    @property
    def game(self) -> str:
        return str(self.query_one("#lobby-game", Select).value)

    #: the game the form shows, and the number of players each game had in it
    game_shown = TRASH_GAME
    players_by_game: dict[str, int]

    def show_game(self, game: str) -> None:
        """The form for ``game``: its opponents, its own number of players (as the form
        last had it for that game), and the Rules field only for Trash."""
        level = self.query_one("#lobby-level", Select)
        rules = self.query_one("#lobby-rules", Select)
        note = self.query_one("#lobby-rules-note", Static)
        players = self.query_one("#lobby-players", Select)
        if not hasattr(self, "players_by_game"):
            self.players_by_game = {}
        self.players_by_game[self.game_shown] = int(players.value)  # type: ignore[arg-type]
        self.game_shown = game
        self.query_one("#lobby-rules-row").display = game != NEIGHBOR_GAME
        if game == NEIGHBOR_GAME:
            level.set_options([(name, name) for name in NEIGHBOR_LEVELS])
            level.value = "smart"
            rules.disabled = True
            note.update("Help Your Neighbor: 3 to 8 players, two dice; cover your ten "
                        "markers first. The dice game has no house rules.")
            players.value = max(NEIGHBOR_MIN_PLAYERS, self.players_by_game.get(
                game, int(players.value)))  # type: ignore[arg-type]
        else:
            level.set_options(_opponents(self.trash_app.settings.seats))
            level.value = _first_opponent(self.trash_app.settings.seats)
            rules.disabled = False
            note.update(self.rules_note(str(rules.value)))
            players.value = self.players_by_game.get(game, int(players.value))  # type: ignore[arg-type]

    @staticmethod
    def rules_note(choice: str) -> str:
        if choice == "custom":
            return "The house rules saved in your settings (see Rules help)."
        return PRESETS[choice].description

    def say(self, text: str, severity: str = "information") -> None:
        """A line in the lobby's box (an error in the error colour) until the form
        changes or another screen opens."""
        notice = self.query_one("#lobby-notice", Static)
        notice.update(Text(text))
        notice.set_class(severity == "error", "-error")

    def on_screen_suspend(self) -> None:
        self.say("")

    def on_select_changed(self, event: Select.Changed) -> None:
        self.say("")
        if event.select.id == "lobby-game":
            self.show_game(str(event.value))
            self.show_suggestion()
        elif event.select.id == "lobby-rules":
            self.query_one("#lobby-rules-note", Static).update(
                self.rules_note(str(event.value)))

    @property
    def trash_app(self) -> TrashApp:
        return cast("TrashApp", self.app)

    has_unfinished = False  # read from the history when the lobby is shown, not per key
    # over SSH: the shared tables where the player holds a seat, as the service last said
    seats_held: tuple[dict[str, Any], ...] = ()
    closed_held: dict[str, Any] | None = None  # the last closed table of a seat held
    def on_mount(self) -> None:
        app = self.trash_app  # over SSH the button is the shared tables (if the server has them)
        self.query_one("#lobby-tournaments", Button).disabled = (app.remote and
                                                                  app.tables_link is None)
        self.seats_held = ()
        self.fit(app.size.width, app.size.height)  # (composed for it: changes nothing)
        self.show_unfinished()
        self.show_suggestion()
        self.ask_seats_held()
        self.show_motd()

    def on_screen_resume(self) -> None:
        self.show_unfinished()
        self.show_suggestion()
        self.ask_seats_held()
        self.show_motd()

    def show_motd(self) -> None:
        """Over SSH, the server's message of the day on a line under the title (the
        operator's ``trash admin motd``; the link keeps the last one it was sent)."""
        link = self.trash_app.tables_link
        motd = link.motd if link is not None else None
        line = self.query_one("#lobby-motd", Static)
        line.update(Text(f"📢 {clean(motd, MOTD_LENGTH)}") if motd else "")
        line.set_class(bool(motd), "-shown")

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    @staticmethod
    def shape(width: int, height: int) -> tuple[bool, bool]:
        """(tall, roomy) for a terminal of this size: room between the buttons and
        fields three lines high from 30 lines on; from ``ROOMY`` on, a wider box with the
        last matches beside the form."""
        return height >= 30, width >= ROOMY[0] and height >= ROOMY[1]

    def size_classes(self, width: int, height: int) -> bool:
        """The screen's classes for a terminal of this size (before its fields exist:
        cheap); whether the fields are compact."""
        tall, roomy = self.shape(width, height)
        self.set_class(tall, "-tall")
        self.set_class(roomy, "-roomy")
        return not tall

    def fit(self, width: int, height: int) -> None:
        """The lobby for a new terminal size (``shape``): only what it changes is
        restyled."""
        tall, roomy = self.shape(width, height)
        if tall != self.has_class("-tall"):
            self.set_class(tall, "-tall")
            for select in self.query(Select):  # one line each below 30 lines: notes fit
                select.compact = not tall
        if roomy != self.has_class("-roomy"):
            self.set_class(roomy, "-roomy")
            self.show_last_matches()

    def show_last_matches(self) -> None:
        """The player's last matches (a roomy lobby shows them beside the form)."""
        if not self.has_class("-roomy"):
            return
        history = self.trash_app.history
        rows = history.matches.of_player(self.trash_app.owner, limit=LAST_MATCHES) \
            if history is not None else []
        lines = [f"{SHORT_TITLES.get(row.game, 'Trash'):<8} " + clean(
            f"won by {', '.join(row.winner_names)}" if row.outcome == "won" else row.outcome,
            30) for row in rows]
        self.query_one("#lobby-last", Static).update(Text(
            "\n".join(lines) or "None yet: n starts one."))

    # --- over SSH: a seat held at a shared table ------------------------------------------
    def ask_seats_held(self) -> None:
        """Ask the table service where the player holds a seat (when the link is up: the
        app connects it after the lobby is first shown, and says so: ``on_link_up``)."""
        link = self.trash_app.tables_link
        if link is not None and link.connected:
            link.send({"op": "mine"})

    @contained
    def on_link_up(self, message: LinkUp) -> None:
        self.ask_seats_held()

    @contained
    def on_server_motd(self, message: ServerMotd) -> None:
        self.show_motd()

    @contained
    def on_seats_held(self, message: SeatsHeld) -> None:
        """The service's answer: the tables where this player holds a seat (the lobby's
        line names the first), and the last closed one."""
        tables = message.data.get("tables")
        self.seats_held = tuple(t for t in tables if isinstance(t, dict) and
                                isinstance(t.get("id"), int)) if isinstance(tables, list) else ()
        closed = message.data.get("closed")
        self.closed_held = closed[-1] if isinstance(closed, list) and closed and \
            isinstance(closed[-1], dict) else None
        self.show_unfinished()

    def closed_text(self) -> str:
        """The table where the player's seat was when it closed, why, and who can reopen
        it (two lines of the form at most)."""
        table = self.closed_held or {}
        name = clean(str(table.get("name") or "a shared table"), 32)
        why = clean(str(table.get("why") or ""), 60)
        reopen = ("it stays closed" if table.get("operator") else
                  "o in Tables reopens it" if table.get("yours") else
                  f"its host, {clean(str(table.get('host') or '?'), 24)}, can reopen it")
        return f"{name}, where you had a seat, closed{f' ({why})' if why else ''}: {reopen}."

    def held_text(self) -> str:
        """The table where the player holds a seat, and how to go back to it (two lines
        of the lobby's form at most)."""
        table = self.seats_held[0]
        name = clean(table.get("name") or "a shared table", 32)
        status = clean(table.get("status_text") or table.get("status") or "", 24)
        return (f"You hold a seat at {name}{f' ({status})' if status else ''}: "
                "c goes back to it.")

    def show_suggestion(self) -> None:
        """Propose the bot level nearest the player's rating in the chosen game (a line
        shown once they are rated)."""
        from trash_tui.app.players.suggestion import suggestion_text

        history = self.trash_app.history
        offered = NEIGHBOR_LEVELS if self.game == NEIGHBOR_GAME else LEVELS
        text = suggestion_text(history, self.trash_app.owner, self.game, offered) \
            if history is not None else ""
        line = self.query_one("#lobby-suggestion", Static)
        line.update(Text(text))
        line.display = bool(text)

    def show_unfinished(self) -> None:
        """Enable Continue when there is an unfinished match, and say which one (and,
        roomy, the last matches)."""
        self.show_last_matches()
        row = self.trash_app.unfinished_match()
        self.has_unfinished = row is not None or bool(self.seats_held)
        button = self.query_one("#lobby-continue", Button)
        note = self.query_one("#lobby-continue-note", Static)
        button.disabled = not self.has_unfinished
        if row is None and self.seats_held:
            note.update(Text(self.held_text()))
        elif row is None and self.closed_held is not None:
            note.update(Text(self.closed_text()))
        elif row is None:
            note.update("No unfinished match.")
        else:
            text = unfinished_text(row)
            note.update(Text(f"c continues {text[0].lower()}{text[1:]}."))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "continue_match":
            return self.has_unfinished
        if action == "tables":  # over SSH, t is the server's shared tables
            return self.trash_app.remote and self.trash_app.tables_link is not None
        if action == "play_in_browser":
            return offers_browser(self.trash_app.tables_link, self.trash_app.owner)
        return True

    def action_tables(self) -> None:
        self.trash_app.open_tables()

    # --- over SSH: a link for a browser ----------------------------------------------------
    def action_play_in_browser(self) -> None:
        """Ask the table service for a one-time code that links a browser to this player."""
        link = self.trash_app.tables_link
        if not offers_browser(link, self.trash_app.owner) or link is None:
            return
        if not link.send({"op": "link_code"}):
            self.show_browser_line("The shared tables are not reachable now: try again "
                                   "later.", error=True)

    @contained
    def on_link_code(self, message: LinkCode) -> None:
        """The service's answer: the link and how long it holds (the line goes then)."""
        link = self.trash_app.tables_link
        code, minutes = message.data.get("code"), message.data.get("minutes")
        if link is None or link.web_url is None or not isinstance(code, str) or \
                not code.isalnum() or not isinstance(minutes, int):
            error = message.data.get("error")
            text = clean(error if isinstance(error, str) else "no link code came", 150)
            if self.browser_text and not self.browser_error:  # (a link shown still works)
                self.say(text, severity="error")
            else:
                self.show_browser_line(text, error=True)
            return
        text = link_line(link.web_url, code, minutes)
        self.show_browser_line(text)
        self.set_timer(minutes * 60, lambda: self.browser_line_over(text))

    browser_text = ""  # the browser's line as shown
    browser_error = False  # (the line says why there is no link)

    def browser_line_over(self, text: str) -> None:
        """The code shown is over: its line goes (unless a newer one took its place)."""
        if self.browser_text == text:
            self.show_browser_line("")

    def show_browser_line(self, text: str, error: bool = False) -> None:
        self.browser_text, self.browser_error = text, error
        line = self.query_one("#lobby-browser", Static)
        line.update(Text(text))
        line.set_class(bool(text), "-shown")
        line.set_class(error, "-error")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "lobby-start": self.action_new_match,
            "lobby-continue": self.action_continue_match,
            "lobby-history": self.trash_app.action_open_history,
            "lobby-tournaments": self.trash_app.action_open_tournaments,
            "lobby-leaderboard": self.trash_app.action_open_leaderboard,
            "lobby-stats": self.trash_app.action_open_stats,
            "lobby-settings": self.trash_app.action_open_settings,
            "lobby-rules-help": self.trash_app.action_open_rules,
            "lobby-quit": self.app.exit,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()

    def chosen_rules(self) -> Rules:
        choice = str(self.query_one("#lobby-rules", Select).value)
        return self.trash_app.settings.rules if choice == "custom" else PRESETS[choice].rules

    def chosen_seats(self) -> list[Any]:
        """The seats the form shows: the settings' own line-up while it is unchanged."""
        players = int(self.query_one("#lobby-players", Select).value)  # type: ignore[arg-type]
        humans = int(self.query_one("#lobby-humans", Select).value)  # type: ignore[arg-type]
        level = str(self.query_one("#lobby-level", Select).value)
        seats = list(self.trash_app.settings.seats)
        if len(seats) == players and seats.count(HUMAN) == humans and \
                _first_opponent(seats) == level:
            return seats
        opponent: Any = level
        if level.startswith(OWN):  # one of the player's own bots
            opponent = own_bots(seats)[int(level[len(OWN):])][1]
        return [HUMAN] * humans + [opponent] * (players - humans)

    def action_new_match(self) -> None:
        if self.game == NEIGHBOR_GAME:
            self.new_neighbor_game()
            return
        rules = self.chosen_rules()
        seats = self.chosen_seats()
        if len(seats) > int(self.query_one("#lobby-players", Select).value):  # type: ignore[arg-type]
            self.say("More humans than players: choose more players or fewer humans.",
                        severity="error")
            return
        if rules.free_draws and len(seats) != 2:
            self.say("Free draws are a 2-player rule: choose 2 players or other rules.",
                        severity="error")
            return
        self.unless_unfinished(lambda: self.ask_names(
            seats, lambda names: self.trash_app.start_match(rules, seats, names)))

    def unless_unfinished(self, start: Callable[[], None]) -> None:
        """``start`` the new match, after asking what becomes of the unfinished one (if
        there is one): continue it instead, abandon it (marked so in the history) or keep
        it for later."""
        app = self.trash_app
        row = app.unfinished_match()
        if row is None:
            start()
            return

        def chosen(choice: str | None) -> None:
            if choice == CONTINUE:
                app.resume_row(row)
                return
            if choice == ABANDON and app.history is not None:
                app.history.matches.abandon_match(row.id)
                self.show_unfinished()
            if choice in (ABANDON, KEEP):
                start()

        self.app.push_screen(UnfinishedScreen(unfinished_text(row)), callback=chosen)

    def ask_names(self, seats: list[Any], start: Callable[[Sequence[str]], None]) -> None:
        """Start at once with one human; with several (hot seat), ask their names first."""
        humans = seats.count(HUMAN)
        if humans < 2:
            start(())
            return

        def chosen(names: list[str] | None) -> None:
            if names is not None:
                start(names)

        self.app.push_screen(HotSeatScreen(default_names(humans, self.trash_app.settings.name)),
                             callback=chosen)

    def new_neighbor_game(self) -> None:
        players = int(self.query_one("#lobby-players", Select).value)  # type: ignore[arg-type]
        humans = int(self.query_one("#lobby-humans", Select).value)  # type: ignore[arg-type]
        level = str(self.query_one("#lobby-level", Select).value)
        if players < NEIGHBOR_MIN_PLAYERS:
            self.say("Help Your Neighbor is for 3 to 8 players.", severity="error")
            return
        if humans > players:
            self.say("More humans than players: choose more players or fewer humans.",
                        severity="error")
            return
        seats = [HUMAN] * humans + [level] * (players - humans)
        self.unless_unfinished(lambda: self.ask_names(
            seats, lambda names: self.trash_app.start_neighbor_game(seats, names)))

    def action_continue_match(self) -> None:
        app = self.trash_app
        if app.unfinished_match() is None and self.seats_held:
            app.open_tables({"op": "join", "table": self.seats_held[0]["id"]})
            return
        app.continue_match()
