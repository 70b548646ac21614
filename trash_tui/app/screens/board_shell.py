"""The board shell: what every board does around its game's view, whatever the game.

A board is this shell with a game's view plugged in: the card table
(``trash_tui.app.trash.board.TrashBoard``) or the dice (``trash_tui.app.neighbor.board``).
The shell owns what does not depend on the game:

- the pace: the turn driver (``trash_tui.play.turns``) and its move source, the move key
  kept while the board is busy and played when it is free (``KeptMove``), the one door
  every move of this board's player goes through (``take``);
- "taken": a saved game that another window took is read-only here, and says so;
- a history database that stopped saving, said once and kept to the end;
- cover and resume: nothing is played while another screen is over the board, and the
  game goes on (or its standings come) when the board is back on top;
- the standings hand-off at the end, once, when the board is on top;
- its *part*: a ``BoardPart`` (a shared table's chat line, people, notices, leave
  question and ratings wait: ``trash_tui.app.shared.table_part``; a local board's is
  ``NoPart``, which adds nothing) is told of the board's start, keys, clicks and cover,
  adds lines and keys of its own, and may hold a log line or the standings back. The
  shell owns the handlers of a board's life (``on_mount``, ``on_unmount``,
  ``on_screen_suspend``, ``on_screen_resume``, ``on_key``, ``on_mouse_down``): Textual
  runs the handler of every class in the chain, so a view defines none of them.

The view draws the game and says what its moves look like: ``compose``, ``refresh_view``
(the whole game as it is now), ``show_move`` (a move made and shown, step by step if it
animates, ending with ``move_done``) and ``open_standings``. The savers a local game has
are given as they are (its controller's ``listeners``): a shared table's board has none
(the service saves the match), and its controller fakes none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from textual import events
from textual.screen import Screen

from trash_tui.app.screens.roles import ShowsMatch
from trash_tui.app.widgets.held import CHECK_EVERY, taken_elsewhere
from trash_tui.app.widgets.screen_clock import ScreenClock
from trash_tui.play.controller import saving_problem
from trash_tui.play.turns import BOT_DELAYS, KeptMove, Move, MoveSource, TurnDriver

#: Seconds before a bot's decision on a local board, by the animation setting (a shared
#: table's pace is its service's).
BOT_DELAY = BOT_DELAYS  # (play/turns.py: every board's timings, and the tables')


def bot_delay(animation: str) -> float:
    """The delay before a local bot's decision at ``animation``."""
    return BOT_DELAY.get(animation, BOT_DELAY["normal"])


class BoardGame(Protocol):
    """What the shell asks of any game's controller (both games', local or shared)."""

    @property
    def over(self) -> bool: ...

    def legal(self) -> tuple[int, ...]: ...

    def play(self, action: int) -> int: ...


class BoardPart(Protocol):
    """A part plugged into a board (a shared table's): told of what happens on the board,
    it adds lines and keys of its own."""

    def started(self) -> None:
        """The board is up."""

    def key_pressed(self, event: events.Key) -> None:
        """A key reached the board (before the board's own keys)."""

    def clicked(self) -> None:
        """A click on the board."""

    def covered(self) -> None:
        """Another screen came over the board."""

    def notices(self) -> list[str]:
        """Lines of the part on the status line, after the board's notices."""
        ...

    def status(self, text: str) -> str:
        """The status line's last line, given the view's ``text``."""
        ...

    def allows(self, action: str) -> bool | None:
        """Whether the board's ``action`` is offered (None: as the view decides)."""
        ...

    def holds_line(self, event: tuple) -> bool:
        """Whether the log's line for ``event`` waits: the part writes it later."""
        ...

    def standings_ready(self) -> bool:
        """Whether the standings may come now (else the part shows them later)."""
        ...

    def standings(self, lines: list[str]) -> list[str]:
        """The standings' lines, with what the part adds."""
        ...


class NoPart(BoardPart):
    """The part of a board that has none (a local game's): it adds nothing."""

    def started(self) -> None:
        pass

    def key_pressed(self, event: events.Key) -> None:
        pass

    def clicked(self) -> None:
        pass

    def covered(self) -> None:
        pass

    def notices(self) -> list[str]:
        return []

    def status(self, text: str) -> str:
        return text

    def allows(self, action: str) -> bool | None:
        return None

    def holds_line(self, event: tuple) -> bool:
        return False

    def standings_ready(self) -> bool:
        return True

    def standings(self, lines: list[str]) -> list[str]:
        return lines


class BoardShell(Screen[None], ShowsMatch):
    """A game in play, around its view (see the module's docstring)."""

    def __init__(self, controller: BoardGame, source: MoveSource,
                 savers: Sequence[object] = (), part: BoardPart | None = None) -> None:
        super().__init__()
        self.game = controller
        self.savers = savers  # the local game's savers (a list the app may still fill)
        self.part: BoardPart = part or NoPart()
        self.driver = TurnDriver(source, self.show_move, ScreenClock(self),
                                 when_free=self.take_kept)
        self.kept = KeptMove()  # a move key pressed while the board was busy
        self.taken: int | None = None  # the game's id once another window took it
        self.problem_shown = False
        self.problem: str | None = None  # the history database stopped saving: to the end
        self.standings_shown = False

    # --- what the view gives --------------------------------------------------------------
    def refresh_view(self) -> None:
        """Show the game as it is now."""
        raise NotImplementedError

    def show_move(self, move: Move) -> None:
        """Make ``move`` and show it; ``move_done`` when it is on the table."""
        raise NotImplementedError

    def open_standings(self) -> bool:
        """The game is over and the board on top: open its standings (whether it did)."""
        raise NotImplementedError

    def play_move(self, action: int) -> None:
        """This board's player makes ``action`` (legal, and the board free)."""
        self.driver.play_now(lambda: self.game.play(action))

    # --- the board's life -----------------------------------------------------------------
    def on_mount(self) -> None:
        self.refresh_view()
        self.part.started()
        self.driver.poke()
        self.set_interval(CHECK_EVERY, self.check_taken)

    def on_unmount(self) -> None:
        self.driver.stop()

    def on_screen_suspend(self) -> None:
        """Another screen is over the board (rules, the size guard, ...): nothing is
        played until it is back on top."""
        self.part.covered()
        self.driver.hold("covered")

    def on_screen_resume(self) -> None:
        """Back on top: go on where it stopped (the standings, if the game ended
        meanwhile)."""
        if "covered" not in self.driver.holds and not self.driver.stopped:
            return  # (pushed: on_mount has shown it)
        self.refresh_view()
        if self.game.over:
            self.show_standings()
            return
        self.driver.release("covered")

    def on_key(self, event: events.Key) -> None:
        """Any key goes to the part first (a shared table's: a seat taken back, esc's
        question answered), then to the view's ``key_pressed``."""
        self.part.key_pressed(event)
        self.key_pressed(event)

    def key_pressed(self, event: events.Key) -> None:
        """A key reached the board, besides its bindings (the view's, if it needs one)."""

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.part.clicked()

    # --- moves ------------------------------------------------------------------------------
    def take(self, action: int) -> None:
        """A move of this board's player: refused (a bell) on a taken game or when it is
        not legal; kept while the board is busy, for when it is free."""
        if self.check_taken():  # (asked before every move of this window's player)
            self.app.bell()
            return
        if self.driver.playing or self.driver.holds:  # busy: kept for when it is free
            self.kept.keep(action)
            return
        if action not in self.game.legal():
            self.app.bell()
            return
        self.play_move(action)

    def take_kept(self) -> bool:
        """The board is free: a move key pressed while it was busy is played now if it is
        still legal (a quick player's key is not lost); whether it was."""
        action = self.kept.take()
        if action is None or action not in self.game.legal():
            return False
        self.take(action)
        return True

    def move_done(self) -> None:
        """The move is on the table: the end of the game stops the driver and opens the
        standings (now if the board is on top, else when it is back); else the driver
        goes on."""
        self.refresh_view()
        self.show_problem()
        if self.game.over:
            self.driver.stop()
            if self.is_active:  # (else when the board is back on top)
                self.show_standings()
            return
        self.driver.moved()

    # --- taken, and saving problems --------------------------------------------------------
    def check_taken(self) -> bool:
        """Whether another window has taken this game: then this board is read-only
        (nothing more is played here) and says so in one line."""
        if self.taken is None and not self.game.over:
            self.taken = taken_elsewhere(self.savers)
            if self.taken is not None:
                self.driver.hold("taken")
                self.kept.take()
                self.refresh_view()
        return self.taken is not None

    def show_problem(self) -> None:
        """Say once if the history database stopped saving the game."""
        problem = None if self.problem_shown else saving_problem(self.savers)
        if problem and self.check_taken():  # a move made just before it was noticed
            return
        if problem:
            self.problem_shown = True
            self.problem = problem
            self.refresh_view()

    # --- the end ----------------------------------------------------------------------------
    def show_standings(self) -> None:
        """The game is over: its standings, once, when the board is on top (and its part,
        if it waits for something, is ready)."""
        if self.standings_shown or not self.is_active:
            return
        if self.part.standings_ready():
            self.standings_shown = self.open_standings()

