"""Help Your Neighbor (RULES.md 003) as a pure, seeded state machine driven by actions.

Every player shows ten markers (2-6 and 8-12). The game waits for one decision at a time
(``phase``, ``to_move``, ``legal``): in the "roll" phase the player holding the privilege
rolls (``ROLL``); after a 7 with something covered the roller picks a marker to uncover
(``uncover_action(marker)``). ``apply`` runs the whole consequence of one roll — the cover,
the pass to a neighbour, "nobody can use it", the 7 — and appends plain event tuples:

=======================================  ==============================================
``("opening", seat, d1, d2)``            a roll for the first player
``("first", seat)``                      the highest opening roll: this seat starts
``("turn", seat)``                       this seat now holds the privilege (rolls next)
``("roll", seat, d1, d2)``               a roll of the player to move
``("cover", seat, total)``               ``seat`` turned the marker ``total`` face down
``("pass", from_seat, to_seat, total)``  the roller had it covered: it goes to the
                                         first other player clockwise who shows it
``("nobody", total)``                    nobody shows the total: the roller rolls again
``("seven", seat)``                      a 7: uncover one marker (if any) and pass
``("uncover", seat, marker)``            the marker is face up again
``("win", seat)``                        all ten covered: the game ends at once
``("abandoned", rolls)``                 the safety cap on rolls was reached; no winner
=======================================  ==============================================

Dice come from a ``DiceSource``: ``SeededDice`` (the same rolls on every machine for a
seed) or ``FixedDice`` (a list of rolls, for scenarios and record replay). As a guaranteed
end, a game is abandoned without a winner after ``ROLL_CAP`` (200,000) rolls; real games
take about a hundred.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from trash_tui.engine.rng import Rng, derive_seed

MARKERS: tuple[int, ...] = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
ROWS: tuple[tuple[int, ...], tuple[int, ...]] = ((2, 3, 4, 5, 6), (8, 9, 10, 11, 12))
MIN_PLAYERS, MAX_PLAYERS = 3, 8
ROLL = 0  # the action: roll the dice (the player to move)
UNCOVER_BASE = 100  # uncover_action(marker) == UNCOVER_BASE + marker
ROLL_CAP = 200_000  # ROLL actions after which a game ends abandoned (never seen in play)

ROLL_PHASE, UNCOVER_PHASE, OVER_PHASE = "roll", "uncover", "over"
_MARKER_SET = frozenset(MARKERS)
_ROLL_LEGAL = (ROLL,)


class IllegalAction(ValueError):
    """An action that is not among the legal actions of the current decision."""


class DiceExhausted(RuntimeError):
    """A ``FixedDice`` was asked for more rolls than it holds."""


def uncover_action(marker: int) -> int:
    """The action uncovering ``marker`` (after a 7)."""
    if marker not in _MARKER_SET:
        raise ValueError(f"not a marker: {marker!r} (markers are 2-6 and 8-12)")
    return UNCOVER_BASE + marker


def uncover_marker(action: int) -> int:
    """The marker an uncover action turns face up; ValueError if it is not one."""
    marker = action - UNCOVER_BASE if isinstance(action, int) else None
    if marker not in _MARKER_SET:
        raise ValueError(f"not an uncover action: {action!r}")
    return marker


def action_name(action: int) -> str:
    """'roll' or 'uncover:N'."""
    if action == ROLL:
        return "roll"
    return f"uncover:{uncover_marker(action)}"


def parse_action(name: str) -> int:
    """The action for a name produced by ``action_name``; ValueError otherwise."""
    if name == "roll":
        return ROLL
    if isinstance(name, str) and name.startswith("uncover:") and name[8:].isdigit():
        marker = int(name[8:])
        if marker in _MARKER_SET:
            return UNCOVER_BASE + marker
    raise ValueError(f"not an action: {name!r} (expected roll or uncover:2..uncover:12 "
                     "without 7)")


class DiceSource(Protocol):
    """Where rolls come from: two dice, each 1..6."""

    def roll(self) -> tuple[int, int]: ...


class SeededDice:
    """Dice from a seed: the same rolls on every machine and Python version."""

    __slots__ = ("_draw",)

    def __init__(self, seed: int | str = 0) -> None:
        self._draw = Rng(derive_seed(seed, "help-your-neighbor", "dice")).draw

    def roll(self) -> tuple[int, int]:
        draw = self._draw
        return int(draw() * 6) + 1, int(draw() * 6) + 1


class FixedDice:
    """Dice from a list of ``(d1, d2)`` pairs, in order; ``DiceExhausted`` when none is
    left. ``used`` counts the rolls handed out (a replay checks that all were used)."""

    __slots__ = ("_rolls", "used")

    def __init__(self, rolls: Iterable[tuple[int, int]]) -> None:
        self._rolls = [tuple(pair) for pair in rolls]
        for index, pair in enumerate(self._rolls, start=1):
            if len(pair) != 2 or not all(
                    isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in pair):
                raise ValueError(f"roll {index}: {pair!r} is not two dice of 1..6")
        self.used = 0

    @property
    def remaining(self) -> int:
        """Rolls not handed out yet."""
        return len(self._rolls) - self.used

    def roll(self) -> tuple[int, int]:
        if self.used >= len(self._rolls):
            raise DiceExhausted(f"the dice hold only {len(self._rolls)} rolls")
        pair = self._rolls[self.used]
        self.used += 1
        return pair[0], pair[1]


@dataclass(frozen=True, slots=True)
class NeighborObservation:
    """One seat's view of the game (everything is public; the API mirrors Trash's)."""

    seat: int
    players: int
    to_move: int
    phase: str  # "roll", "uncover" or "over"
    legal: tuple[int, ...]  # the legal actions when it is this seat's decision, else ()
    covered: tuple[tuple[int, ...], ...]  # per seat, sorted covered markers
    last_roll: tuple[int, int] | None
    winner: int | None
    turn: int  # how many ROLL actions so far

    def shown(self, seat: int) -> tuple[int, ...]:
        """The markers ``seat`` still shows face up."""
        down = self.covered[seat]
        return tuple(m for m in MARKERS if m not in down)

    @property
    def my_covered(self) -> tuple[int, ...]:
        """This seat's covered markers."""
        return self.covered[self.seat]


class NeighborGame:
    """One game of Help Your Neighbor, from the opening rolls to the win."""

    def __init__(self, players: int, seed: int | str = 0, *,
                 dice: DiceSource | None = None) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not (
                MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise ValueError(f"Help Your Neighbor needs {MIN_PLAYERS} to {MAX_PLAYERS} "
                             f"players, not {players!r}")
        self.players = players
        self.seed = seed
        self.dice: DiceSource = dice if dice is not None else SeededDice(seed)
        self.covered: list[set[int]] = [set() for _ in range(players)]
        self.phase = ROLL_PHASE
        self.legal: tuple[int, ...] = _ROLL_LEGAL
        self.last_roll: tuple[int, int] | None = None
        self.rolls: list[tuple[int, int]] = []
        self.actions: list[int] = []
        self.events: list[tuple] = []
        self.winner: int | None = None
        self.over = False
        self.abandoned = False
        self.turn = 0
        self.first = self._roll_for_first()
        self.to_move = self.first
        self.events.append(("first", self.first))
        self.events.append(("turn", self.first))

    # --- the opening -------------------------------------------------------------------
    def _roll_for_first(self) -> int:
        """Everybody rolls; those tied for the highest total roll again, until one is left."""
        contenders = list(range(self.players))
        while True:
            totals = []
            for seat in contenders:
                d1, d2 = self._roll()
                self.events.append(("opening", seat, d1, d2))
                totals.append(d1 + d2)
            best = max(totals)
            contenders = [seat for seat, t in zip(contenders, totals, strict=True) if t == best]
            if len(contenders) == 1:
                return contenders[0]

    def _roll(self) -> tuple[int, int]:
        pair = self.dice.roll()
        self.rolls.append(pair)
        return pair

    # --- queries -----------------------------------------------------------------------
    def shown(self, seat: int) -> tuple[int, ...]:
        """The markers ``seat`` still shows face up, in marker order."""
        down = self.covered[seat]
        return tuple(m for m in MARKERS if m not in down)

    def covered_counts(self) -> tuple[int, ...]:
        """How many markers each seat has covered."""
        return tuple(len(c) for c in self.covered)

    def observation(self, seat: int) -> NeighborObservation:
        """What ``seat`` sees (and may do) now."""
        return NeighborObservation(
            seat=seat, players=self.players, to_move=self.to_move, phase=self.phase,
            legal=self.legal if seat == self.to_move else (),
            covered=tuple(tuple(sorted(c)) for c in self.covered),
            last_roll=self.last_roll, winner=self.winner, turn=self.turn,
        )

    # --- playing -----------------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Apply a legal action of the player to move; IllegalAction otherwise."""
        if action not in self.legal:
            if self.over:
                raise IllegalAction(f"the game is over; {self._name(action)} is not legal")
            allowed = ", ".join(action_name(a) for a in self.legal)
            raise IllegalAction(f"{self._name(action)} is not legal now (seat {self.to_move} "
                                f"must choose: {allowed})")
        self.actions.append(action)
        if action == ROLL:
            self._apply_roll()
        else:
            self._apply_uncover(action - UNCOVER_BASE)

    @staticmethod
    def _name(action: int) -> str:
        try:  # what was given as an action may be anything
            return action_name(action)
        except (ValueError, TypeError):
            return repr(action)

    def _apply_roll(self) -> None:
        seat = self.to_move
        events = self.events
        d1, d2 = self._roll()
        self.turn += 1
        self.last_roll = (d1, d2)
        events.append(("roll", seat, d1, d2))
        total = d1 + d2
        if total == 7:
            events.append(("seven", seat))
            if self.covered[seat]:
                self.phase = UNCOVER_PHASE
                self.legal = tuple(UNCOVER_BASE + m for m in sorted(self.covered[seat]))
            else:
                self._pass_turn(seat)
        elif total not in self.covered[seat]:
            self._cover(seat, total)
        else:
            players = self.players
            for step in range(1, players):
                other = (seat + step) % players
                if total not in self.covered[other]:
                    events.append(("pass", seat, other, total))
                    self._cover(other, total)
                    if not self.over:
                        self.to_move = other
                        events.append(("turn", other))
                    break
            else:
                events.append(("nobody", total))
        if not self.over and self.turn >= ROLL_CAP and self.phase == ROLL_PHASE:
            self._abandon()

    def _cover(self, seat: int, total: int) -> None:
        covered = self.covered[seat]
        covered.add(total)
        self.events.append(("cover", seat, total))
        if len(covered) == len(MARKERS):
            self.winner = seat
            self.events.append(("win", seat))
            self._end()

    def _apply_uncover(self, marker: int) -> None:
        seat = self.to_move
        self.covered[seat].discard(marker)
        self.events.append(("uncover", seat, marker))
        self._pass_turn(seat)
        if self.turn >= ROLL_CAP:
            self._abandon()

    def _pass_turn(self, seat: int) -> None:
        following = (seat + 1) % self.players
        self.to_move = following
        self.phase = ROLL_PHASE
        self.legal = _ROLL_LEGAL
        self.events.append(("turn", following))

    def _abandon(self) -> None:
        self.abandoned = True
        self.events.append(("abandoned", self.turn))
        self._end()

    def _end(self) -> None:
        self.over = True
        self.phase = OVER_PHASE
        self.legal = ()
