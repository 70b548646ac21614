"""The Help Your Neighbor board: every player's markers, the dice, the log; the human's
rolls and uncover choices as keys and clicks.

Footer bindings follow the legal actions (``check_action`` hides what is not legal now):
``r``/space rolls, and on a 7 the marker keys (2–6, 8, 9, 0 for 10, - for 11, = for 12)
uncover one marker. Clicking the dice rolls; clicking one of your covered markers
uncovers it. The pace is the turn driver's (``trash_tui.play.turns``), as on the card
table: bots play one decision at a time at the animation speed, so the table shows them
roll by roll, and they wait while any other screen (a dialog, the size guard) is on top;
every roll first shows a few cosmetic dice faces (from the screen's own
``random.Random``, never the game's dice) unless the animation is off; a key pressed
while the dice roll is kept and taken when they stop. The end of the
game opens the standings over the board; closing them goes back to the lobby.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import RichLog, Static

from trash_tui.app.neighbor.dialogs import (
    NeighborRulesScreen,
    NeighborStandingsScreen,
    standings_lines,
    standings_title,
)
from trash_tui.app.neighbor.widgets import (
    ROLL_MARK,
    UNCOVER_MARK,
    WIN_MARK,
    DiceView,
    PlayerPanel,
    PlayersView,
    last_roll,
    side_width,
)
from trash_tui.app.screens.roles import ShowsMatch
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.app.widgets.held import CHECK_EVERY, taken_elsewhere, taken_line
from trash_tui.app.widgets.screen_clock import ScreenClock
from trash_tui.engine.rng import derive_seed
from trash_tui.neighbor.engine import (
    MARKERS,
    ROLL,
    NeighborObservation,
    uncover_action,
    uncover_marker,
)
from trash_tui.neighbor.narrate import narrate, says
from trash_tui.play.controller import saving_problem
from trash_tui.play.neighbor_controller import NeighborController
from trash_tui.play.turns import BOT_DELAYS, BotTurns, KeptMove, TurnDriver

BOT_DELAY = BOT_DELAYS  # before a bot's decision (play/turns.py: every board's)
FLICKER = {"off": (0, 0.0), "fast": (3, 0.04), "normal": (5, 0.07)}  # (faces, seconds each)
#: The key that uncovers each marker on a 7 (Textual key names), and how it is shown.
MARKER_KEYS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 8: "8", 9: "9", 10: "0",
               11: "minus", 12: "equals_sign"}
KEY_DISPLAY = {marker: {10: "0", 11: "-", 12: "="}.get(marker, str(marker))
               for marker in MARKERS}
UNCOVER_GROUP = Binding.Group("Uncover")


class NeighborBoardScreen(Screen[None], ShowsMatch):
    """A game of Help Your Neighbor in play."""

    DEFAULT_CSS = """
    NeighborBoardScreen { layout: vertical; }
    #neighbor-top { height: 1fr; }
    #neighbor-side { width: 30; }
    #neighbor-log { height: 1fr; border: round $panel; border-title-color: $text-muted; }
    #neighbor-status { height: auto; padding: 0 1; background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r,space", "roll", "Roll", id="roll-dice"),
        *[Binding(key, f"uncover({marker})", f"Uncover {marker}", id=f"uncover-{marker}",
                  key_display=KEY_DISPLAY[marker], group=UNCOVER_GROUP)
          for marker, key in MARKER_KEYS.items()],
        Binding("question_mark", "rules", "Rules", id="neighbor-rules"),
        Binding("escape", "leave", "Lobby", id="leave-neighbor"),
    ]

    def __init__(self, controller: NeighborController, animation: str = "normal") -> None:
        super().__init__()
        self.controller = controller
        self.delay = BOT_DELAY.get(animation, BOT_DELAY["normal"])
        self.flicker_faces, self.flicker_step = FLICKER.get(animation, FLICKER["normal"])
        # Cosmetic faces shown while the dice "roll": never the game's dice.
        self.flicker_random = random.Random(derive_seed(controller.seed, "dice-flicker"))
        self.driver = TurnDriver(BotTurns(controller, self.delay), self.make_move,
                                 ScreenClock(self), when_free=self.take_kept)
        self.kept = KeptMove()  # a key pressed while the dice rolled
        self.rolling = False  # the dice are being shown rolling
        self.standings_shown = False
        self.problem_shown = False  # the history database's problem has been said
        self.problem: str | None = None  # it, on the status line to the end of the game
        self.taken: int | None = None  # the game's id once another window took it
        self.logged = 0  # events written to the log so far

    def compose(self) -> ComposeResult:
        with Horizontal(id="neighbor-top"):
            yield PlayersView(len(self.controller.seats), id="neighbor-players")
            with Vertical(id="neighbor-side"):
                yield DiceView(id="neighbor-dice")
                yield RichLog(id="neighbor-log", wrap=True, markup=False, min_width=20)
        yield Static(id="neighbor-status", markup=False)
        yield TrashFooter()

    def match_rules(self) -> None:
        return None  # the dice game has no house rules

    def on_mount(self) -> None:
        self.query_one("#neighbor-log", RichLog).border_title = "Log"
        self.refresh_view()
        self.driver.poke()
        self.set_interval(CHECK_EVERY, self.check_taken)

    def check_taken(self) -> bool:
        """Whether another window has taken this game: then this board is read-only
        (nothing more is played here) and says so in one line."""
        if self.taken is None and not self.controller.over:
            self.taken = taken_elsewhere(self.controller.listeners)
            if self.taken is not None:
                self.driver.hold("taken")
                self.kept.take()
                self.refresh_view()
        return self.taken is not None

    def on_unmount(self) -> None:
        self.driver.stop()

    def on_resize(self, event: Resize) -> None:
        self.query_one("#neighbor-side").styles.width = self.side_width(event.size)

    def side_width(self, size: Size) -> int:
        """The side's width for a screen of ``size`` (``neighbor_widgets.side_width``)."""
        return side_width(len(self.controller.seats), size)

    # --- showing ---------------------------------------------------------------------
    def refresh_view(self) -> None:
        """Show the game as it is now: markers, dice, new log lines, status, keys."""
        controller = self.controller
        observation = controller.observation()
        choices = self.choices()
        for seat, panel in enumerate(self.query_one(PlayersView).panels):
            panel.update_view(controller.names[seat], observation.covered[seat],
                              self.marks(observation, seat),
                              choices if seat == observation.to_move else ())
        faces, caption = self.last_roll()
        self.query_one(DiceView).update_view(faces, caption)
        log = self.query_one("#neighbor-log", RichLog)
        for line in narrate(controller.events[self.logged:], controller.names):
            log.write(line)
        self.logged = len(controller.events)
        status = self.status_text()
        problem = self.problem if self.taken is None else None  # (the one line says it)
        self.query_one("#neighbor-status", Static).update(
            Text(f"⚠ {problem}\n{status}" if problem else status))
        self.refresh_bindings()

    def choices(self) -> tuple[int, ...]:
        """The markers the human to move may uncover now (none unless on a 7)."""
        return tuple(uncover_marker(action) for action in self.controller.legal()
                     if action != ROLL)

    @staticmethod
    def marks(observation: NeighborObservation, seat: int) -> tuple[str, str] | None:
        """The mark on ``seat``'s panel: who holds the dice and what for, or the winner."""
        if observation.winner is not None:
            return WIN_MARK if seat == observation.winner else None
        if seat != observation.to_move:
            return None
        return UNCOVER_MARK if observation.phase == "uncover" else ROLL_MARK

    def last_roll(self) -> tuple[tuple[int, int] | None, str]:
        """The faces of the last roll and a caption saying who rolled what."""
        controller = self.controller
        return last_roll(controller.events, controller.names, controller.to_move)

    def status_text(self) -> str:
        controller = self.controller
        names = controller.names
        if self.taken is not None:
            return f"⚠ {taken_line(self.taken, 'game')}"
        if controller.over:
            winner = controller.winner
            return f"{names[winner]} covered every marker." if winner is not None else \
                "The game is over."
        name = names[controller.to_move]
        if self.rolling:
            return f"{says(name, 'rolls')}…"
        if not controller.waiting_for_human:
            if controller.phase == "uncover":
                return f"{says(name, 'chooses')} a marker to uncover…"
            return f"{says(name, 'rolls')}…"
        if controller.phase == "uncover":
            keys = ", ".join(KEY_DISPLAY[m] if KEY_DISPLAY[m] == str(m)
                             else f"{KEY_DISPLAY[m]} for {m}" for m in self.choices())
            return f"A 7, {name}: uncover one — press its key ({keys}) or click it."
        return f"Your roll, {name}: press r or space, or click the dice."

    # --- bindings follow the legal actions ------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only legal actions are offered: the others are hidden from the footer."""
        if self.taken is not None and action in ("roll", "uncover"):
            return False  # read-only: another window plays it
        if action == "roll":
            return ROLL in self.controller.legal()
        if action == "uncover":
            marker = int(str(parameters[0])) if parameters else 0
            return marker in MARKERS and uncover_action(marker) in self.controller.legal()
        return True

    def _take(self, action: int) -> None:
        if self.check_taken():  # (asked before every move of this window's player)
            self.app.bell()
            return
        if self.driver.playing or self.driver.holds:  # busy: kept for when it is free
            self.kept.keep(action)
            return
        if action not in self.controller.legal():
            self.app.bell()
            return
        self.driver.play_now(lambda: self.controller.play(action))

    def take_kept(self) -> bool:
        """The dice have stopped: a key pressed meanwhile is taken if it is still legal."""
        action = self.kept.take()
        if action is None or action not in self.controller.legal():
            return False
        self._take(action)
        return True

    def action_roll(self) -> None:
        self._take(ROLL)

    def action_uncover(self, marker: int) -> None:
        self._take(uncover_action(int(marker)))

    def action_rules(self) -> None:
        self.app.push_screen(NeighborRulesScreen())

    def action_leave(self) -> None:
        self.app.pop_screen()

    # --- clicks ----------------------------------------------------------------------
    def on_dice_view_dice_clicked(self, message: DiceView.DiceClicked) -> None:
        if ROLL in self.controller.legal():
            self._take(ROLL)

    def on_player_panel_marker_clicked(self, message: PlayerPanel.MarkerClicked) -> None:
        controller = self.controller
        if controller.waiting_for_human and controller.phase == "uncover" and \
                message.seat == controller.to_move:
            self._take(uncover_action(message.marker))

    # --- moves, the dice rolling, bots and the end -----------------------------------
    def make_move(self, move: Callable[[], object]) -> None:
        """Make a move (the human's or a bot's) and show it: a roll first shows the dice
        rolling (unless the animation is off), then the table; then the driver goes on
        (``move_shown``)."""
        controller = self.controller
        name = controller.names[controller.to_move]
        start = len(controller.events)
        move()
        rolled = any(event[0] == "roll" for event in controller.events[start:])
        if not rolled or not self.flicker_faces:
            self.move_shown()
            return
        self.rolling = True
        self.query_one("#neighbor-status", Static).update(Text(f"{says(name, 'rolls')}…"))
        self._flicker(self.flicker_faces, name)

    def _flicker(self, left: int, name: str) -> None:
        if not self.is_attached:
            return
        if not left:
            self.rolling = False
            self.move_shown()
            return
        faces = (self.flicker_random.randint(1, 6), self.flicker_random.randint(1, 6))
        self.query_one(DiceView).update_view(faces, f"{says(name, 'rolls')}…", rolling=True)
        self.set_timer(self.flicker_step, lambda: self._flicker(left - 1, name))

    def move_shown(self) -> None:
        """The move is on the table: the end of the game opens the standings (once the
        board is on top), else the driver goes on."""
        self.refresh_view()
        self.show_problem()
        if self.controller.over:
            self.driver.stop()
            if self.is_active:
                self.show_standings()
            return
        self.driver.moved()

    def show_problem(self) -> None:
        """Say once if the game is no longer saved (the database, or another session)."""
        problem = None if self.problem_shown else saving_problem(self.controller.listeners)
        if problem and self.check_taken():  # a move made just before it was noticed
            return
        if problem:
            self.problem_shown = True
            self.problem = problem
            self.refresh_view()

    def on_screen_suspend(self) -> None:
        self.driver.hold("covered")

    def on_screen_resume(self) -> None:
        """Back on top (after the rules, a size guard, ...): go on where it stopped."""
        if "covered" not in self.driver.holds:
            return  # (pushed: on_mount has shown it)
        self.refresh_view()
        if self.controller.over:
            self.show_standings()
            return
        self.driver.release("covered")

    def show_standings(self) -> None:
        """Once, at the end: the standings over the board; closing them leaves it."""
        if self.standings_shown:
            return
        self.standings_shown = True
        observation = self.controller.observation()
        names = self.controller.names
        self.app.push_screen(
            NeighborStandingsScreen(standings_title(observation, names),
                                    standings_lines(observation, names)),
            callback=self._standings_closed)

    def _standings_closed(self, _: None) -> None:
        if self.is_active:
            self.app.pop_screen()
