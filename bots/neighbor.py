"""Bots for Help Your Neighbor, and the driver that plays a game with them.

The game has one real decision: after a 7, which covered marker to turn face up again
(every other decision is ``ROLL``). ``RandomNeighborBot`` picks any; ``SmartNeighborBot``
gives back the marker it is most likely to cover again soon. These bots take
``NeighborObservation``s, so they have their own table (``NEIGHBOR_BOTS``) apart from the
Trash ``REGISTRY``. ``play_neighbor`` checks every answer like ``bots.runner`` does and
raises the same ``BotFailure``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bots.base import BotError
from bots.runner import checked_answer
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.neighbor.engine import (
    ROLL,
    NeighborGame,
    NeighborObservation,
    action_name,
    uncover_marker,
)

# ways to roll each total with two dice, out of 36
_ROLL_ONLY = (ROLL,)
_WAYS = {total: 6 - abs(total - 7) for total in range(2, 13)}


def roll_chance(total: int) -> float:
    """The chance that one roll of two dice totals ``total``."""
    return _WAYS.get(total, 0) / 36


class NeighborBot(ABC):
    """A Help Your Neighbor player: observation and legal actions in, one action out."""

    name: ClassVar[str] = "neighbor-bot"
    description: ClassVar[str] = ""

    def __init__(self, seed: int = 0) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BotError(f"bot {self.name}: seed must be an integer, got {seed!r}")
        self.seed = seed
        self.rng = Rng(derive_seed(seed, "neighbor-bot", self.name))

    def choose(self, observation: NeighborObservation, legal: Sequence[int]) -> int:
        """One of ``legal``: ``ROLL`` when that is the only choice, else ``uncover``."""
        if len(legal) == 1:
            return legal[0]
        return self.uncover(observation, legal)

    @abstractmethod
    def uncover(self, observation: NeighborObservation, legal: Sequence[int]) -> int:
        """After a 7: the uncover action (one of ``legal``) to play."""

    def describe(self) -> str:
        """The bot and its seed, e.g. ``smart(seed=3)``."""
        return f"{self.name}(seed={self.seed})"


class RandomNeighborBot(NeighborBot):
    """Uncovers any covered marker, uniformly at random."""

    name = "random"
    description = "uncovers a random covered marker after a 7"

    def uncover(self, observation: NeighborObservation, legal: Sequence[int]) -> int:
        return legal[self.rng.below(len(legal))]


def recover_chance(observation: NeighborObservation, marker: int) -> float:
    """How likely ``marker``, once uncovered, comes back to this seat in one round of rolls:
    this seat's own roll of it, plus one roll per other player who has it covered and would
    pass it clockwise to this seat first (nobody between them still shows it)."""
    seat, players, covered = observation.seat, observation.players, observation.covered
    feeders = 0
    for other in range(players):
        if other == seat or marker not in covered[other]:
            continue
        between = ((other + step) % players for step in range(1, players))
        for candidate in between:
            if candidate == seat:
                feeders += 1
                break
            if marker not in covered[candidate]:
                break
    return roll_chance(marker) * (1 + feeders)


class SmartNeighborBot(NeighborBot):
    """Uncovers the marker most likely to be covered again soon (``recover_chance``);
    ties go to the likelier roll, then the lower marker."""

    name = "smart"
    description = "uncovers the marker it is most likely to cover again soon"

    def uncover(self, observation: NeighborObservation, legal: Sequence[int]) -> int:
        def value(action: int) -> tuple[float, float, int]:
            marker = uncover_marker(action)
            return (recover_chance(observation, marker), roll_chance(marker), -marker)

        return max(legal, key=value)


NEIGHBOR_BOTS: dict[str, type[NeighborBot]] = {
    cls.name: cls for cls in (RandomNeighborBot, SmartNeighborBot)
}


def make_neighbor_bot(name: str, seed: int = 0) -> NeighborBot:
    """The Help Your Neighbor bot called ``name``; BotError listing the known ones."""
    cls = NEIGHBOR_BOTS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise BotError(f"unknown Help Your Neighbor bot {name!r}; known bots are "
                       + ", ".join(NEIGHBOR_BOTS))
    return cls(seed)


def neighbor_bot_from_spec(spec: Mapping[str, Any], seed: int | None = None) -> NeighborBot:
    """A bot from a tournament spec ``{"bot": name, "seed": n}`` (``name`` instead of
    ``bot`` works too); ``seed`` overrides the spec's. BotError for other keys."""
    table = dict(spec)
    reference = table.pop("bot", None)
    label = table.pop("name", None)
    reference = reference if reference is not None else label
    spec_seed = table.pop("seed", 0)
    if table:
        raise BotError(f"bot {reference}: unknown parameter {next(iter(table))!r}; Help Your "
                       "Neighbor bots take only seed")
    bot = make_neighbor_bot(reference, 0)
    return type(bot)(spec_seed if seed is None else seed)


# --- playing ---------------------------------------------------------------------------
def ask_neighbor(bot: NeighborBot, seat: int, game: NeighborGame,
                 time_limit: float | None = None) -> int:
    """Ask ``bot`` (at ``seat``) for its action now and check the answer (BotFailure),
    exactly as ``bots.runner.ask`` does for Trash."""
    return checked_answer(bot, seat, game, time_limit, action_name)


def play_neighbor(game: NeighborGame, bots: Sequence[NeighborBot],
                  time_limit: float | None = None) -> NeighborGame:
    """Play ``game`` to its end with ``bots`` (seat order) and return it. ``ROLL`` needs no
    choice, so only the uncover choices are put to the bots; a failing bot raises
    BotFailure with the game as it stood."""
    if len(bots) != game.players:
        raise ValueError(f"{len(bots)} bots for {game.players} seats")
    apply = game.apply
    while not game.over:
        seat = game.to_move
        if game.legal == _ROLL_ONLY:
            apply(ROLL)
        else:
            apply(ask_neighbor(bots[seat], seat, game, time_limit))
    return game
