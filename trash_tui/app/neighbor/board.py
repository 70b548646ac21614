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
``NeighborBoardScreen`` is the dice game's view in the board shell
(``screens/board_shell.py``: the pace, kept keys, "taken", saving problems, cover and
resume and the standings hand-off are the shell's, as on the card table).
"""

from __future__ import annotations

import random
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.geometry import Size
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
from trash_tui.app.screens.board_shell import BoardShell, bot_delay
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.app.widgets.held import taken_line
from trash_tui.engine.rng import derive_seed
from trash_tui.neighbor.engine import (
    MARKERS,
    ROLL,
    NeighborObservation,
    uncover_action,
    uncover_marker,
)
from trash_tui.neighbor.narrate import narrate, says
from trash_tui.play.neighbor_controller import NeighborController
from trash_tui.play.turns import BotTurns, Move

FLICKER = {"off": (0, 0.0), "fast": (3, 0.04), "normal": (5, 0.07)}  # (faces, seconds each)
#: The key that uncovers each marker on a 7 (Textual key names), and how it is shown.
MARKER_KEYS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 8: "8", 9: "9", 10: "0",
               11: "minus", 12: "equals_sign"}
KEY_DISPLAY = {marker: {10: "0", 11: "-", 12: "="}.get(marker, str(marker))
               for marker in MARKERS}
UNCOVER_GROUP = Binding.Group("Uncover")


class NeighborBoardScreen(BoardShell):
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
        super().__init__(controller, BotTurns(controller, bot_delay(animation)),
                         savers=controller.listeners)
        self.controller = controller
        self.flicker_faces, self.flicker_step = FLICKER.get(animation, FLICKER["normal"])
        # Cosmetic faces shown while the dice "roll": never the game's dice.
        self.flicker_random = random.Random(derive_seed(controller.seed, "dice-flicker"))
        self.rolling = False  # the dice are being shown rolling
        self.logged = 0  # events written to the log so far

    def compose(self) -> ComposeResult:
        with Horizontal(id="neighbor-top"):
            yield PlayersView(len(self.controller.seats), id="neighbor-players")
            with Vertical(id="neighbor-side"):
                yield DiceView(id="neighbor-dice")
                log = RichLog(id="neighbor-log", wrap=True, markup=False, min_width=20)
                log.border_title = "Log"
                yield log
        yield Static(id="neighbor-status", markup=False)
        yield TrashFooter()

    def match_rules(self) -> None:
        return None  # the dice game has no house rules

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

    def action_roll(self) -> None:
        self.take(ROLL)

    def action_uncover(self, marker: int) -> None:
        self.take(uncover_action(int(marker)))

    def action_rules(self) -> None:
        self.app.push_screen(NeighborRulesScreen())

    def action_leave(self) -> None:
        self.app.pop_screen()

    # --- clicks ----------------------------------------------------------------------
    def on_dice_view_dice_clicked(self, message: DiceView.DiceClicked) -> None:
        if ROLL in self.controller.legal():
            self.take(ROLL)

    def on_player_panel_marker_clicked(self, message: PlayerPanel.MarkerClicked) -> None:
        controller = self.controller
        if controller.waiting_for_human and controller.phase == "uncover" and \
                message.seat == controller.to_move:
            self.take(uncover_action(message.marker))

    # --- moves, the dice rolling, bots and the end -----------------------------------
    def show_move(self, move: Move) -> None:
        """Make a move (the human's or a bot's) and show it: a roll first shows the dice
        rolling (unless the animation is off), then the table; then the shell's
        ``move_done`` (the standings at the end)."""
        controller = self.controller
        name = controller.names[controller.to_move]
        start = len(controller.events)
        move()
        rolled = any(event[0] == "roll" for event in controller.events[start:])
        if not rolled or not self.flicker_faces:
            self.move_done()
            return
        self.rolling = True
        self.query_one("#neighbor-status", Static).update(Text(f"{says(name, 'rolls')}…"))
        self._flicker(self.flicker_faces, name)

    def _flicker(self, left: int, name: str) -> None:
        if not self.is_attached:
            return
        if not left:
            self.rolling = False
            self.move_done()
            return
        faces = (self.flicker_random.randint(1, 6), self.flicker_random.randint(1, 6))
        self.query_one(DiceView).update_view(faces, f"{says(name, 'rolls')}…", rolling=True)
        self.set_timer(self.flicker_step, lambda: self._flicker(left - 1, name))

    def open_standings(self) -> bool:
        """At the end: the standings over the board; closing them leaves it."""
        observation = self.controller.observation()
        names = self.controller.names
        self.app.push_screen(
            NeighborStandingsScreen(standings_title(observation, names),
                                    standings_lines(observation, names)),
            callback=self._standings_closed)
        return True

    def _standings_closed(self, _: None) -> None:
        if self.is_active:
            self.app.pop_screen()
