"""A game of Help Your Neighbor at a table of humans and bots, one decision at a time.

No UI here, like ``controller.MatchController`` for Trash: the controller owns the
``NeighborGame``, asks bots for their decisions one at a time (so a screen can show them
roll by roll), takes humans' actions and keeps the engine's event list. Every action taken
(human or bot) is appended to ``actions`` and passed to the ``listeners``. Bots get seeds
derived from the game's seed, as ``make_seats`` does for Trash.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bots.neighbor import ask_neighbor, make_neighbor_bot
from trash_tui.neighbor.engine import (
    DiceSource,
    IllegalAction,
    NeighborGame,
    NeighborObservation,
)
from trash_tui.play.controller import Seat, make_seats

#: A seat at the dice game's table: the same as a Trash seat, with a neighbor bot.
NeighborSeat = Seat


def make_neighbor_seats(specs: Sequence[str], seed: int, human_name: str = "You",
                        human_names: Sequence[str] = ()) -> list[NeighborSeat]:
    """Seats from specs: ``"human"`` or a neighbor bot's name ("random", "smart"), named
    and seeded as ``make_seats`` does. BotError (from ``make_neighbor_bot``) for an
    unknown name."""
    return make_seats(specs, seed, human_name, build=make_neighbor_bot,
                      human_names=human_names)


class NeighborController:
    """One game: its seats, whose decision it is, and one step at a time."""

    def __init__(self, seats: Sequence[NeighborSeat], seed: int, *,
                 dice: DiceSource | None = None) -> None:
        """A new game for ``seats``; the dice come from ``seed`` unless ``dice`` is given
        (``FixedDice`` for scenarios)."""
        self.seats = list(seats)
        self.seed = seed
        self.game = NeighborGame(len(self.seats), seed, dice=dice)
        self.actions: list[int] = []
        self.listeners: list[Callable[[NeighborController, int], None]] = []
        self.match_id: int | None = None  # set when the game is saved in the history

    @classmethod
    def from_specs(cls, specs: Sequence[str], seed: int, human_name: str = "You", *,
                   dice: DiceSource | None = None,
                   human_names: Sequence[str] = ()) -> NeighborController:
        """A game for seat specs (``"human"`` or a bot name), see ``make_neighbor_seats``."""
        return cls(make_neighbor_seats(specs, seed, human_name, human_names), seed,
                   dice=dice)

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def events(self) -> list[tuple]:
        """Everything that happened so far, as the engine's event tuples."""
        return self.game.events

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def winner(self) -> int | None:
        return self.game.winner

    @property
    def to_move(self) -> int:
        return self.game.to_move

    @property
    def phase(self) -> str:
        """"roll", "uncover" (after a 7) or "over"."""
        return self.game.phase

    @property
    def viewer(self) -> int:
        """The seat the screen speaks to: the human to move, else the first human."""
        if self.waiting_for_human:
            return self.to_move
        humans = [i for i, seat in enumerate(self.seats) if seat.is_human]
        return humans[0] if humans else 0

    @property
    def waiting_for_human(self) -> bool:
        return not self.over and self.seats[self.to_move].is_human

    def observation(self, seat: int | None = None) -> NeighborObservation:
        return self.game.observation(self.viewer if seat is None else seat)

    def legal(self) -> tuple[int, ...]:
        """The actions the human to move may take now (none while a bot plays)."""
        return tuple(self.game.legal) if self.waiting_for_human else ()

    def _apply(self, action: int, tell: bool = True) -> int:
        before = len(self.game.events)
        self.game.apply(action)
        self.actions.append(action)
        if tell:
            for listener in self.listeners:
                listener(self, action)
        return len(self.game.events) - before

    def replay(self, actions: Sequence[int]) -> None:
        """Re-apply saved actions (whoever took them), telling no listener: the game is
        then exactly where it was saved (the dice come from the seed). IllegalAction if
        the actions do not fit."""
        for action in actions:
            if self.over:
                raise IllegalAction("the saved actions go on after the end of the game")
            self._apply(action, tell=False)

    def play(self, action: int) -> int:
        """The human to move takes ``action``; returns how many events it produced.
        IllegalAction when it is a bot's turn or the action is not legal now."""
        if not self.waiting_for_human:
            raise IllegalAction("it is not a human's turn")
        return self._apply(action)

    def step_bot(self) -> int:
        """The bot to move takes one decision; returns how many events it produced
        (0 when the game is over or a human is to move). Its answer is checked:
        ``bots.runner.BotFailure`` when it fails or answers an illegal action."""
        seat = self.to_move
        bot = self.seats[seat].bot
        if self.over or bot is None:
            return 0
        return self._apply(ask_neighbor(bot, seat, self.game))
