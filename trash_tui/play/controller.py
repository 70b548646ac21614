"""A match at a table of humans and bots, as the app (and later the SSH server) drives it.

No UI here: the controller owns the ``Match``, asks bots for their moves one decision at a
time (so a screen can show bots' turns move by move), takes humans' actions, and keeps the
event log. Every seat's view is its own observation; the screen shows the human's.
Every action taken (human or bot) is appended to ``actions`` and passed to the
``listeners`` (the history database saves it); ``replay`` re-applies saved actions, with
the bots' hooks, to continue an interrupted match exactly where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from bots.base import Bot
from bots.registry import make_bot
from bots.runner import ask
from trash_tui.engine.actions import OVER
from trash_tui.engine.deal import IllegalAction
from trash_tui.engine.match import Match
from trash_tui.engine.observation import Observation
from trash_tui.engine.rng import derive_seed
from trash_tui.rules import Rules

HUMAN = "human"


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: a human (``bot`` is None) or a configured bot."""

    name: str
    bot: Bot | Any | None = None  # a Trash bot, or a Help Your Neighbor bot

    @property
    def is_human(self) -> bool:
        return self.bot is None


def make_seats(specs: Sequence[str | Mapping[str, Any]], seed: int,
               human_name: str = "You", build: Callable[..., Any] = make_bot,
               human_names: Sequence[str] = ()) -> list[Seat]:
    """Seats from specs: ``"human"`` or a bot spec (name, path, TOML inline table, or a
    table as a dict) that ``build(spec, seed=...)`` turns into a bot. A lone human is
    ``human_name``; several humans (hot seat) take ``human_names`` in order (the names
    they gave), else "Player N" by seat; a bot's name says what it is and where it sits;
    each bot's seed comes from the game's seed and its seat."""
    seats = []
    humans = sum(1 for spec in specs if spec == HUMAN)
    given = iter(human_names)
    for index, spec in enumerate(specs):
        if spec == HUMAN:
            name = next(given, None) or (human_name if humans == 1 else f"Player {index + 1}")
            seats.append(Seat(name))
        else:
            bot = build(spec, seed=derive_seed(seed, "seat", index) % 2**31)
            seats.append(Seat(f"{bot.name.capitalize()} ({index + 1})", bot))
    return seats


class MatchView(Protocol):
    """What a board reads of a match: its events, finished deals and result (an engine
    ``Match``, or a shared table's ``PublicMatch``)."""

    events: list[Any]
    history: list[Any]
    result: Any
    deal_number: int


@runtime_checkable
class TrashTable(Protocol):
    """What a Trash board shows and plays of the match: ``MatchController`` here, and a
    shared table's controller (``trash_tui.app.shared.controller``) both declare it, each
    with every field its own. What only a local match has (its seed for the hint, its
    saved actions and savers, its bots' steps) is the local board's to ask of
    ``MatchController``, not part of this. (Plain annotations, not properties: each
    controller may make them attributes or properties.)"""

    rules: Rules
    match: MatchView
    names: list[str]
    over: bool
    to_move: int
    waiting_for_human: bool
    #: How many actions the match has had (a question asked at one of them is not asked
    #: again at the same one).
    move_count: int

    def observation(self, seat: int | None = None) -> Observation: ...

    def legal(self) -> tuple[int, ...]: ...

    def play(self, action: int) -> int: ...


class MatchController(TrashTable):
    """One match: its seats, whose turn it is, and one step at a time."""

    def __init__(self, rules: Rules, seats: Sequence[Seat], seed: int) -> None:
        self.rules = rules
        self.seats = list(seats)
        self.seed = seed
        self.match = Match(rules, len(self.seats), seed)
        self.actions: list[int] = []
        self.match_id: int | None = None  # set when the match is saved in the history
        self.listeners: list[Callable[[MatchController, int], None]] = []
        for index, seat in enumerate(self.seats):
            if seat.bot is not None:
                seat.bot.start_match(index, len(self.seats), rules)
        self._deal = None
        self._announce_deal()

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def move_count(self) -> int:
        return len(self.actions)

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def to_move(self) -> int:
        return self.match.to_move

    @property
    def viewer(self) -> int:
        """The seat whose view the screen shows: the human to move, else the first human."""
        if not self.over and self.seats[self.to_move].is_human:
            return self.to_move
        humans = [i for i, seat in enumerate(self.seats) if seat.is_human]
        return humans[0] if humans else 0

    @property
    def waiting_for_human(self) -> bool:
        return not self.over and self.seats[self.to_move].is_human

    def observation(self, seat: int | None = None) -> Observation:
        return self.match.observation(self.viewer if seat is None else seat)

    def legal(self) -> tuple[int, ...]:
        """The actions the human to move may take now (none while a bot plays)."""
        return self.match.legal if self.waiting_for_human else ()

    def _announce_deal(self) -> None:
        if self.match.deal is not self._deal and not self.over:
            self._deal = self.match.deal
            for index, seat in enumerate(self.seats):
                if seat.bot is not None:
                    seat.bot.start_deal(self.match.observation(index))

    def _after(self) -> None:
        deal = self._deal
        if deal is not None and deal.phase == OVER:
            for index, seat in enumerate(self.seats):
                if seat.bot is not None:
                    seat.bot.end_deal(deal.observation(index))
        if self.over:
            places = self.match.result.places if self.match.result else []
            for seat in self.seats:
                if seat.bot is not None:
                    seat.bot.end_match(places)
        else:
            self._announce_deal()

    def _apply(self, action: int, tell: bool = True) -> int:
        before = len(self.match.events)
        self.match.apply(action)
        self.actions.append(action)
        self._after()
        if tell:
            for listener in self.listeners:
                listener(self, action)
        return len(self.match.events) - before

    def play(self, action: int) -> int:
        """The human to move takes ``action``; returns how many events it produced."""
        if not self.waiting_for_human:
            raise IllegalAction("it is not a human's turn")
        return self._apply(action)

    def step_bot(self) -> int:
        """The bot to move takes one decision; returns how many events it produced."""
        seat = self.seats[self.to_move]
        if self.over or seat.bot is None:
            return 0
        return self._apply(ask(seat.bot, self.to_move, self.match))

    def step_stand_in(self, bot: Bot) -> int:
        """``bot`` takes the decision of the human to move (a shared table's stand-in for a
        player who is away or whose turn clock ran out); returns how many events it
        produced."""
        if not self.waiting_for_human:
            return 0
        return self._apply(ask(bot, self.to_move, self.match))

    def replay(self, actions: Sequence[int]) -> None:
        """Re-apply saved actions (whoever took them), telling no listener: the match is
        then exactly where it was saved. IllegalAction if the actions do not fit."""
        for action in actions:
            if self.over:
                raise IllegalAction("the saved actions go on after the end of the match")
            self._apply(action, tell=False)


def saving_problem(listeners: Sequence[object]) -> str | None:
    """The first problem a game's saver has met (``app/saving.py``), if any."""
    for listener in listeners:
        problem = getattr(listener, "problem", None)
        if problem:
            return str(problem)
    return None
