"""The Textual app: one factory shared by the ``trash`` command and the tests.

``create_app`` builds a ``TrashApp`` from explicit choices (rules, seats, seed, animation,
theme), so tests get a deterministic app and the command line gets the user's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, Select

from trash_tui import __version__
from trash_tui.app.board import BoardScreen
from trash_tui.app.controller import HUMAN, MatchController, make_seats
from trash_tui.presets import PRESETS, preset_name_of
from trash_tui.rules import Rules

LEVELS = ("random", "easy", "normal", "hard", "counter", "expert")


class LobbyScreen(Screen[None]):
    """Where a match is set up: players, the opponents' level, the rules."""

    DEFAULT_CSS = """
    LobbyScreen { align: center middle; }
    #lobby { width: 64; height: auto; padding: 1 2; border: round $accent; }
    #lobby-title { text-style: bold; width: 100%; content-align: center middle; }
    #lobby Label { margin-top: 1; }
    #lobby Select { width: 100%; }
    #lobby-buttons { height: auto; margin-top: 1; }
    #lobby-buttons Button { margin-right: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_match", "New match", id="new-match"),
        Binding("q", "app.quit", "Quit", id="quit"),
    ]

    def compose(self) -> ComposeResult:
        app = self.app
        assert isinstance(app, TrashApp)
        preset = preset_name_of(app.rules) or "standard"
        with Vertical(id="lobby"):
            yield Label(f"Trash — the card game  ·  v{__version__}", id="lobby-title")
            yield Label("Players at the table (you and bots)")
            yield Select([(f"{n} players", n) for n in range(2, 9)], value=len(app.seats),
                         allow_blank=False, id="lobby-players")
            yield Label("Opponents")
            level = next((s for s in app.seats if s != HUMAN), "normal")
            yield Select([(name, name) for name in LEVELS],
                         value=level if level in LEVELS else "normal", allow_blank=False,
                         id="lobby-level")
            yield Label("Rules")
            yield Select([(f"{name} — {p.description}", name) for name, p in PRESETS.items()],
                         value=preset, allow_blank=False, id="lobby-rules")
            with Center(id="lobby-buttons"):
                yield Button("New match", id="lobby-start", variant="primary")
                yield Button("Quit", id="lobby-quit")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "lobby-start":
            self.action_new_match()
        elif event.button.id == "lobby-quit":
            self.app.exit()

    def action_new_match(self) -> None:
        app = self.app
        assert isinstance(app, TrashApp)
        players = int(self.query_one("#lobby-players", Select).value)  # type: ignore[arg-type]
        level = str(self.query_one("#lobby-level", Select).value)
        rules = PRESETS[str(self.query_one("#lobby-rules", Select).value)].rules
        if rules.free_draws and players != 2:
            self.notify("Free draws are a 2-player rule: choose 2 players or other rules.",
                        severity="error")
            return
        app.start_match(rules, [HUMAN] + [level] * (players - 1))


class TrashApp(App[None]):
    """Trash at the terminal: the lobby, then the board."""

    TITLE = "Trash"

    def __init__(self, rules: Rules, seats: Sequence[str], seed: int | None = None,
                 animation: str = "normal", theme: str = "textual-dark",
                 play_now: bool = False) -> None:
        super().__init__()
        self.rules = rules
        self.seats = list(seats)
        self.seed = seed
        self.animation = animation
        self.play_now = play_now
        self.theme = theme
        self._matches = 0

    def on_mount(self) -> None:
        self.push_screen(LobbyScreen())
        if self.play_now:
            self.start_match(self.rules, self.seats)

    def match_seed(self) -> int:
        """A new match's seed: from the app's seed (tests, --seed) or at random."""
        self._matches += 1
        if self.seed is None:
            return random.SystemRandom().randrange(2**31)
        return self.seed + self._matches - 1

    def start_match(self, rules: Rules, seats: Sequence[str]) -> None:
        seed = self.match_seed()
        controller = MatchController(rules, make_seats(seats, seed), seed)
        self.push_screen(BoardScreen(controller, self.animation))


def create_app(rules: Rules | None = None, seats: Sequence[str] | None = None,
               seed: int | None = None, animation: str = "normal",
               theme: str = "textual-dark", play_now: bool = False) -> TrashApp:
    """The app, as ``trash`` and the tests build it."""
    return TrashApp(rules or Rules(), seats or [HUMAN, "normal"], seed, animation, theme,
                    play_now)
