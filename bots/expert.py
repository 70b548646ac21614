"""The expert: decides by Monte Carlo over the cards it cannot see.

For each decision it weighs (where a wild goes) it samples the hidden cards (face-down
slots and the stock) consistently with its observation, plays every candidate slot out to
the end of the deal on the same samples (common random numbers, so candidates are compared
on equal luck) with the fast greedy policy for every seat, and scores how often its own
layout shrinks (fewer face-down cards left break ties). Trash is mostly luck, so most
choices differ by less than the sampling noise: the expert starts from the counter's
choice and moves away from it only when the paired difference of the samples says another
slot is better by more than two standard errors. Its other decisions are the moves that no
other beat beyond chance where the room for skill was measured (``candidates``; "The room
for skill" in bots/README.md, which says what was measured and what is only argued): it
takes a discard that fits, never passes, swaps and calls. It stops sampling when its
per-decision time budget is spent. Its samples follow ``trash_tui.engine.sampling``:
after a reshuffle the stock holds the cards everybody saw turned over.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import ClassVar

from bots.base import Param
from bots.ladder import CounterBot, takes_discard
from trash_tui.engine.actions import CALL, DRAW_DISCARD, DRAW_STOCK, SWAP
from trash_tui.engine.match import Match
from trash_tui.engine.observation import Observation
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.engine.sampling import sample_deal, unseen_cards

MATCH_ROLLOUT_DEALS = 2000  # deals per whole-match rollout (for hints); matches end sooner


def paired_gain(these: Sequence[float], those: Sequence[float]) -> tuple[float, float]:
    """The mean of the paired differences ``these - those`` and its standard error."""
    diffs = [a - b for a, b in zip(these, those, strict=True)]
    n = len(diffs)
    if n < 2:
        return (diffs[0] if diffs else 0.0), 0.0
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return mean, spread / math.sqrt(n)


class ExpertBot(CounterBot):
    """Monte Carlo look-ahead over sampled hidden cards."""

    name = "expert"
    description = ("where a wild goes: samples the unseen cards, plays each slot out with "
                   "fast policies and picks the best within a time budget; otherwise the "
                   "counter's moves")
    params: ClassVar[dict[str, Param]] = {
        "samples": Param(128, "samples of the hidden cards per decision", 1, 100_000),
        "budget": Param(0.25, "seconds a decision may take at most", 0.001, 60.0),
        "confidence": Param(2.0, "standard errors by which another action must beat the "
                            "counter's choice", 0.0, 10.0),
    }

    def __init__(self, seed: int = 0, **options: object) -> None:
        super().__init__(seed, **options)
        self.decision_times: list[float] = []
        self._decision = 0

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        candidates = self.candidates(observation, legal)
        default = CounterBot.choose(self, observation, legal)
        if len(candidates) == 1:
            return candidates[0]
        started = time.perf_counter()
        values = self.sample_values(observation, candidates, started + self.budget)
        choice = self.pick(values, default)
        self.decision_times.append(time.perf_counter() - started)
        return choice

    @staticmethod
    def candidates(observation: Observation, legal: Sequence[int]) -> list[int]:
        """The actions worth weighing: every slot where a wild may go. Every other decision
        has a move that no other beat beyond chance where the room for skill was measured
        (bots/research/room.py: 20,943 decisions of 90 greedy matches, 7 of the 18 presets at 2
        players and standard at 3 and 4, then lucky reveal at 2 players; the other 10
        presets and 5-8 players were not measured), so it is played without sampling:
        take a discard that fits, else draw from the stock (a pass costs about 7 points of
        the chance to shrink), swap (keeping the wild costs about 27), call (silence about
        22). Weighing them anyway only let noise through: under Kings wild its rare
        departures from a fitting discard were each worse by 2.6 points on a 2,000-sample
        check."""
        decision = observation.decision
        if decision == "draw":
            return [DRAW_DISCARD if takes_discard(observation, legal) else DRAW_STOCK]
        if decision == "swap":
            return [SWAP]
        if decision == "call":
            return [CALL]
        return list(legal)

    def pick(self, values: dict[int, list[float]], default: int) -> int:
        """The default action unless another beats it clearly on the paired samples."""
        base = values[default]
        best, best_gain = default, 0.0
        for action, samples in values.items():
            if action == default or len(base) < 2:
                continue
            mean, error = paired_gain(samples, base)
            if mean > best_gain and mean > self.confidence * error:
                best, best_gain = action, mean
        return best

    def sample_values(self, observation: Observation, legal: Sequence[int],
                      deadline: float = float("inf")) -> dict[int, list[float]]:
        """Rollout values of each action, one per sample (1 = this seat shrinks)."""
        self._decision += 1
        values: dict[int, list[float]] = {action: [] for action in legal}
        seat = observation.seat
        unseen = unseen_cards(observation)
        round_time = 0.0
        for sample in range(self.samples):
            started = time.perf_counter()
            if sample and started + round_time > deadline:
                break  # another round would overrun the budget
            seed = derive_seed(self.seed, self._decision, sample)
            for action in legal:
                values[action].append(self._rollout(observation, action, seat, seed, unseen))
            round_time = max(round_time, time.perf_counter() - started)
        return values

    def evaluate(self, observation: Observation, legal: Sequence[int],
                 deadline: float = float("inf")) -> dict[int, float]:
        """The mean rollout value of each legal action (about the chance to shrink)."""
        values = self.sample_values(observation, legal, deadline)
        return {action: sum(v) / len(v) for action, v in values.items()}

    @staticmethod
    def _rollout(observation: Observation, action: int, seat: int, seed: int,
                 unseen: list[int] | None = None) -> float:
        """One sample's value of ``action``: the deal played out greedily by every seat
        (the engine's own greedy playout, a deal's stall limit ends it)."""
        rng = Rng(seed)
        deal = sample_deal(observation, rng, unseen)
        deal.apply(action)
        deal.play_greedy()
        if deal.voided is not None:
            return 0.0
        size = deal.sizes[seat]
        left = deal.face_down[seat] / size if size else 0.0
        return (1.0 if seat in deal.shrinking else 0.0) + 0.01 * (1.0 - left)

    def match_chance(self, observation: Observation, action: int, samples: int = 200,
                     deadline: float = float("inf")) -> tuple[float, int]:
        """Estimated chance that this seat wins the match after ``action``, and the number
        of samples it rests on: the hidden cards are sampled, and the deal and every later
        deal are played out with the fast greedy policy for every seat."""
        seat, wins, done = observation.seat, 0, 0
        self._decision += 1
        for sample in range(samples):
            if done and time.perf_counter() > deadline:
                break
            seed = derive_seed(self.seed, "match", self._decision, sample)
            rng = Rng(seed)
            match = Match(observation.rules, observation.players, seed,
                          deal=sample_deal(observation, rng),
                          deals_played=observation.deals_played)
            match.apply(action)
            deals = 0
            while not match.over and deals < MATCH_ROLLOUT_DEALS:
                match.play_deal_greedy()  # the same play as greedy_policy at every seat
                deals += 1
            done += 1
            if match.result is not None and match.result.places[seat] == 1:
                wins += 1
        return (wins / done if done else 0.0), done

    def win_chance(self, observation: Observation) -> float:
        """Estimated chance that this seat shrinks in this deal, from here (for hints)."""
        if not observation.legal:
            return 0.0
        started = time.perf_counter()
        estimates = self.evaluate(observation, observation.legal, started + self.budget)
        return min(1.0, max(estimates.values()))


__all__ = ["ExpertBot", "paired_gain"]
