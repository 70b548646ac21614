"""Headless simulation: play many deals or matches with built-in policies and summarize.

This is what ``trash simulate`` runs. Deals (``mode="deals"``) are independent deals at
the starting layout size with seat 0 playing first, shuffled from one seeded stream;
matches (``mode="matches"``) are whole matches, match ``i`` seeded from ``(seed, i)``.
Results are reproducible from the seed; shares come with Wilson 95% intervals.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from bots.base import Bot
from bots.builtin import POLICIES, Policy, greedy_policy
from bots.registry import make_bot, parse_spec, spec_label
from bots.runner import BotFailure, play_deal, play_match
from trash_tui.cards import build_deck, decks_for
from trash_tui.engine.actions import OVER
from trash_tui.engine.deal import Deal
from trash_tui.engine.match import Match, validate_table
from trash_tui.engine.record import deal_record, match_record
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.rules import Rules, RulesError
from trash_tui.stats import wilson_interval


@dataclass
class SimulationReport:
    """What a simulation produced; ``to_json`` gives the documented JSON keys."""

    mode: str
    rules: Rules
    rules_name: str
    players: int
    bots: list[str]
    seed: int | str
    deals: int = 0
    voided: int = 0
    matches: int = 0
    abandoned: int = 0
    turns: int = 0
    seat_wins: list[int] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def decided(self) -> int:
        """The games whose wins are counted: deals (deal mode) or matches."""
        return self.deals if self.mode == "deals" else self.matches - self.abandoned

    @property
    def mean_turns_per_deal(self) -> float | None:
        return self.turns / self.deals if self.deals else None

    @property
    def mean_deals_per_match(self) -> float | None:
        return self.deals / self.matches if self.mode == "matches" and self.matches else None

    def seat_share(self) -> list[float]:
        decided = self.decided
        return [wins / decided if decided else 0.0 for wins in self.seat_wins]

    def seat_intervals(self) -> list[tuple[float, float]]:
        return [wilson_interval(wins, self.decided) for wins in self.seat_wins]

    def per_second(self, count: int) -> float:
        return count / self.elapsed if self.elapsed > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "rules": self.rules_name,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "deals": self.deals,
            "voided_deals": self.voided,
            "matches": self.matches,
            "abandoned_matches": self.abandoned,
            "mean_turns_per_deal": self.mean_turns_per_deal,
            "mean_deals_per_match": self.mean_deals_per_match,
            "seat_wins": self.seat_wins,
            "seat_win_share": self.seat_share(),
            "seat_win_share_ci95": [list(ci) for ci in self.seat_intervals()],
            "elapsed_seconds": self.elapsed,
            "deals_per_second": self.per_second(self.deals),
            "matches_per_second": self.per_second(self.matches) if self.matches else None,
        }


def seat_specs(specs: Sequence[str], players: int) -> list[str]:
    """One bot spec per seat: the given specs repeat in order to fill the table."""
    specs = list(specs) or ["greedy"]
    if len(specs) > players:
        raise RulesError(f"--bot: {len(specs)} bots for {players} seats")
    return [specs[i % len(specs)] for i in range(players)]


def fast_policies(specs: Sequence[str]) -> list[Policy] | None:
    """The fast built-in policies for these seats, if every seat names one plainly."""
    if all(spec in POLICIES for spec in specs):
        return [POLICIES[spec][0] for spec in specs]
    return None


def make_seat_bots(specs: Sequence[str], seed: int | str) -> list[Bot]:
    """Configured bots; a seat whose spec gives no seed gets one derived from ``seed``."""
    bots = []
    for seat, spec in enumerate(specs):
        table = parse_spec(spec)
        bot_seed = None if "seed" in table else derive_seed(seed, "bot", seat) % 2**31
        bots.append(make_bot(table, seed=bot_seed))
    return bots


class PolicyPlayers:
    """Seats played by the fast built-in policies, straight on the deal (the fast path)."""

    def __init__(self, policies: Sequence[Policy], seed: int | str) -> None:
        self.policies = list(policies)
        self.rng = Rng(derive_seed(seed, "policies"))
        self.all_greedy = all(policy is greedy_policy for policy in self.policies)

    def start(self, rules: Rules) -> None:
        """Nothing to prepare: policies keep no state."""

    def play_deal(self, deal: Deal) -> None:
        if self.all_greedy:  # the engine plays greedy for every seat itself: same deal
            deal.play_greedy()
            return
        policies, rng, apply = self.policies, self.rng, deal.apply
        while deal.phase != OVER:
            seat = deal.to_move
            apply(policies[seat](deal, seat, rng))

    def play_match(self, rules: Rules, seed: int) -> Match:
        match = Match(rules, len(self.policies), seed=seed)
        policies, rng, apply = self.policies, self.rng, match.apply
        while not match.over:
            deal = match.deal
            if self.all_greedy:
                match.play_deal_greedy()
                continue
            while deal.phase != OVER:
                seat = deal.to_move
                apply(policies[seat](deal, seat, rng))
        return match


class BotPlayers:
    """Seats played by configured bots, each seeing only its own observations."""

    def __init__(self, bots: Sequence[Bot]) -> None:
        self.bots = list(bots)

    def start(self, rules: Rules) -> None:
        for seat, bot in enumerate(self.bots):
            try:
                bot.start_match(seat, len(self.bots), rules)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # a bot may fail in any way; as runner.py says it
                raise BotFailure(seat, bot, "error",
                                 f"in start_match: {type(exc).__name__}: {exc}") from exc

    def play_deal(self, deal: Deal) -> None:
        play_deal(deal, self.bots)

    def play_match(self, rules: Rules, seed: int) -> Match:
        return play_match(rules, self.bots, seed)


Players = PolicyPlayers | BotPlayers


def run_deals(rules: Rules, players: int, seats: Players, count: int, seed: int | str,
              record: Callable[[Deal], None] | None = None,
              report: SimulationReport | None = None) -> SimulationReport:
    """Play ``count`` independent deals; seat 0 plays first at the starting size."""
    validate_table(rules, players)
    if report is None:
        report = SimulationReport("deals", rules, "", players, [], seed)
    report.seat_wins = [0] * players
    cards = build_deck(decks_for(players), rules.jokers)
    sizes = (rules.start_size,) * players
    roles = rules.role_table()
    deck_rng = Rng(derive_seed(seed, "deals"))
    wins = report.seat_wins
    seats.start(rules)
    play = seats.play_deal
    start = time.perf_counter()
    for _ in range(count):
        deal = Deal(rules, sizes, 0, cards, reshuffle=deck_rng.shuffle, role=roles,
                    shuffle_with=deck_rng)
        play(deal)
        if deal.voided is None:
            report.deals += 1
            report.turns += deal.turns
            assert deal.winner is not None  # a deal that is not void has a winner
            wins[deal.winner] += 1
        else:
            report.voided += 1
        if record is not None:
            record(deal)
    report.elapsed = time.perf_counter() - start
    return report


def run_matches(rules: Rules, players: int, seats: Players, count: int, seed: int | str,
                record: Callable[[Match], None] | None = None,
                report: SimulationReport | None = None) -> SimulationReport:
    """Play ``count`` whole matches; match ``i`` is seeded from ``(seed, i)``."""
    validate_table(rules, players)
    if report is None:
        report = SimulationReport("matches", rules, "", players, [], seed)
    report.seat_wins = [0] * players
    start = time.perf_counter()
    for index in range(count):
        match = seats.play_match(rules, derive_seed(seed, "match", index))
        result = match.result
        assert result is not None
        report.matches += 1
        for summary in match.history:
            if summary.voided is None:
                report.deals += 1
                report.turns += summary.turns
            else:
                report.voided += 1
        if result.winner is None:
            report.abandoned += 1
        else:
            report.seat_wins[result.winner] += 1
        if record is not None:
            record(match)
    report.elapsed = time.perf_counter() - start
    return report


def simulate(rules: Rules, rules_name: str, players: int, bot_specs: Sequence[str],
             mode: str, count: int, seed: int | str,
             record_to: IO[str] | None = None) -> SimulationReport:
    """Run a simulation as ``trash simulate`` does, writing JSON Lines records if asked.

    Seats whose bots are all plain ``random``/``greedy`` run on the fast policies; any
    other bot (a ladder bot, a user's file, parameters) runs through observations."""
    validate_table(rules, players)
    specs = seat_specs(bot_specs, players)
    policies = fast_policies(specs)
    seats: Players = (PolicyPlayers(policies, seed) if policies is not None
                      else BotPlayers(make_seat_bots(specs, seed)))
    labels = [spec_label(spec) for spec in specs]
    report = SimulationReport(mode, rules, rules_name, players, labels, seed)

    def write(document: dict) -> None:
        assert record_to is not None
        record_to.write(json.dumps(document) + "\n")

    if mode == "deals":
        return run_deals(rules, players, seats, count, seed,
                         (lambda deal: write(deal_record(deal, labels, seed)))
                         if record_to else None, report)
    return run_matches(rules, players, seats, count, seed,
                       (lambda match: write(match_record(match, labels)))
                       if record_to else None, report)
