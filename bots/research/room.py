"""The room for skill: how much an honest player could gain on ``greedy``, decision by decision.

Research for issue 28 (``benchmarks/bots.py --only room``). Trash has no private
information: nobody sees their own face-down cards either, so every player knows exactly
what every other player knows. The cards nobody has seen are equally likely to be
anywhere among the face-down slots and the stock, except that after a reshuffle the
stock is a known set (the discards turned over, less the draws since). The value of an
action to an honest player is therefore its mean outcome over the samples
``trash_tui.engine.sampling`` draws (uniform over the deals that agree with everything
public), with everybody playing on as ``greedy`` does.

At a decision with a choice, ``decision_room`` estimates the value of every legal action
on the same samples (common random numbers), picks the best on one half of them and
measures its gain over greedy's move on the other half. Like the ``expert``, it leaves
greedy's move only when the choosing half favours another by two standard errors. The
held-out half makes the estimate honest: when every action is worth the same, the pick
is noise and its measured gain averages zero, instead of the positive bias the best of
several noisy means has. Summed over a deal (per seat), the gains estimate what one step
of policy improvement over greedy is worth. That sum counts only the picked moves: a
decision where greedy's move was kept adds 0, so a sum near zero says the picks gained
nothing measurable, not that every move is as good as greedy's (``DecisionRoom.alternative``
gives the other moves' mean gain: single alternatives lose clearly at most kinds of
decision). Where no decision offers a gain, greedy is a best response to itself at the
positions its play reaches, as far as the samples can tell; a deeper search could only
find plans of several moves none of which pays on its own (argued, not measured).

``room_match`` plays a greedy match (every seat) and measures every decision of every
seat. Values are in shrink chance: 1 if the seat's layout shrinks at the end of the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bots.builtin import greedy_policy
from bots.expert import paired_gain
from trash_tui.engine.actions import (
    CALL_CHOICE,
    DRAW,
    SWAP_CHOICE,
    WILD_SLOT,
)
from trash_tui.engine.match import Match
from trash_tui.engine.observation import Observation
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.engine.sampling import sample_deal, unseen_cards
from trash_tui.rules import Rules

CHOOSING_Z = 2.0  # standard errors by which the choosing half must favour another action
KINDS = ("pass", "fitting discard", "wild slot", "swap", "call")


@dataclass(frozen=True)
class DecisionRoom:
    """One decision's room: the best action on the choosing half of the samples, and its
    gain over greedy's move measured on the other half (0 when greedy's move is the pick)."""

    kind: str  # one of KINDS: what the alternative to greedy's move is
    greedy: int
    pick: int
    gain: float  # held-out mean difference in shrink chance, pick minus greedy
    error: float  # its standard error (0 when the pick is greedy's move)
    alternative: float  # the mean gain of the other legal actions over greedy's move
    best_other: float  # the best other action's gain on the choosing half (its point estimate)


def decision_kind(observation: Observation) -> str:
    """What kind of choice this is: at a draw, ``pass`` when the discard fits nowhere in the
    layout (taking it ends the turn) and ``fitting discard`` when it fits."""
    phase = observation.decision
    if phase == "draw":
        top = observation.discard_top
        return "fitting discard" if top is not None and observation.fits(top) else "pass"
    return {"wild": "wild slot", "swap": "swap", "call": "call"}[phase]


def rollout_values(observation: Observation, actions: Sequence[int], samples: int,
                   seed: int) -> dict[int, list[float]]:
    """For each action, its outcome on each sample of the unseen cards (1 if this seat
    shrinks when the deal is played out greedily by every seat). Sample ``i`` deals the
    same hidden cards for every action."""
    seat = observation.seat
    unseen = unseen_cards(observation)
    values: dict[int, list[float]] = {action: [] for action in actions}
    for sample in range(samples):
        sample_seed = derive_seed(seed, sample)
        for action in actions:
            deal = sample_deal(observation, Rng(sample_seed), unseen)
            deal.apply(action)
            deal.play_greedy()
            values[action].append(1.0 if deal.voided is None and seat in deal.shrinking
                                  else 0.0)
    return values


def decision_room(observation: Observation, greedy: int, samples: int,
                  seed: int) -> DecisionRoom:
    """The room at one decision (see the module's docstring); ``samples`` in all, half to
    choose and half to measure."""
    legal = list(observation.legal)
    values = rollout_values(observation, legal, samples, seed)
    half = samples // 2
    kind = decision_kind(observation)
    pick, best = greedy, 0.0  # another action only if it beats greedy's clearly
    others = []
    for action in legal:
        if action == greedy:
            continue
        gain, error = paired_gain(values[action][:half], values[greedy][:half])
        others.append(gain)
        if gain > best and gain > CHOOSING_Z * error:
            pick, best = action, gain
    alternative = sum(others) / len(others) if others else 0.0
    best_other = max(others, default=0.0)
    if pick == greedy:
        return DecisionRoom(kind, greedy, pick, 0.0, 0.0, alternative, best_other)
    gain, error = paired_gain(values[pick][half:], values[greedy][half:])
    return DecisionRoom(kind, greedy, pick, gain, error, alternative, best_other)


@dataclass
class MatchRoom:
    """Every measured decision of one greedy match, and the gains summed per deal and seat
    (the first-order worth of deviating wherever the pick differs)."""

    decisions: list[DecisionRoom] = field(default_factory=list)
    deal_gains: list[float] = field(default_factory=list)


def room_match(rules: Rules, players: int, seed: int, samples: int,
               max_decisions: int | None = None) -> MatchRoom:
    """Play a greedy match (every seat greedy) and measure the room at every decision with
    a choice, for every seat; ``max_decisions`` stops measuring (and playing) early."""
    match = Match(rules, players, seed)
    room = MatchRoom()
    current = None
    per_seat = [0.0] * players
    measured = 0
    while not match.over:
        deal = match.deal
        if deal is not current:
            if current is not None:
                room.deal_gains.extend(per_seat)
            current, per_seat = deal, [0.0] * players
        seat = match.to_move
        greedy = greedy_policy(deal, seat, None)  # type: ignore[arg-type]  # uses no rng
        if len(deal.legal) > 1 and deal.phase in (DRAW, WILD_SLOT, SWAP_CHOICE, CALL_CHOICE):
            if max_decisions is not None and measured >= max_decisions:
                break
            observation = match.observation(seat)
            found = decision_room(observation, greedy, samples,
                                  derive_seed(seed, "room", measured))
            room.decisions.append(found)
            per_seat[seat] += found.gain
            measured += 1
        match.apply(greedy)
    if current is not None:
        room.deal_gains.extend(per_seat)
    return room


__all__ = [
    "KINDS",
    "DecisionRoom",
    "MatchRoom",
    "decision_kind",
    "decision_room",
    "rollout_values",
    "room_match",
]
