"""The bot ladder, head to head: is each level really stronger than the one below?

Plays 2-player matches (standard rules) between pairs of bots on duplicate boards: a board
is one seed played twice with the seats swapped, so the cards and the first seat's
advantage cancel out as far as they can. A board's score is the first bot's share of its
two matches; the interval is the 95% interval of the mean board score (the tournaments'
duplicate statistics, ``board_stats``). Prints each pairing's score, interval and verdict
against what the ladder claims:

* ``stronger``: the whole interval lies above 50% (random < easy < normal < hard);
* ``not worse``: the interval reaches 50% or above (hard and expert against greedy and
  counter: the top of the ladder is flat, see bots/README.md).

Then the time each bot takes per decision (``time.perf_counter`` around ``choose``): the
fast levels in microseconds, the expert (median, 95th percentile, worst) in milliseconds
against its budget. Exits with 1 if a claim fails.

    python benchmarks/bots.py [--matches N] [--expert-matches N] [--workers W] [--seed S]
"""

from __future__ import annotations

import sys
from pathlib import Path

# This script shares its name with the ``bots`` package: import the package, not itself.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bots import Bot, make_bot, play_match
from bots.expert import ExpertBot
from trash_tui.engine.observation import Observation
from trash_tui.engine.rng import derive_seed
from trash_tui.presets import preset_rules
from trash_tui.tournament.ratings import board_stats

STRONGER, NOT_WORSE = "stronger", "not worse"
PAIRINGS = [  # (first, second, what the ladder claims for the first)
    ("easy", "random", STRONGER),
    ("normal", "easy", STRONGER),
    ("hard", "normal", STRONGER),
    ("hard", "greedy", NOT_WORSE),
    ("hard", "counter", NOT_WORSE),
    ("counter", "greedy", NOT_WORSE),
]
EXPERT_PAIRINGS = [
    ("expert", "greedy", NOT_WORSE),
    ("expert", "counter", NOT_WORSE),
]

Times = dict[str, list[float]]


def timed(bot: Bot, times: list[float]) -> None:
    """Record the seconds each of ``bot``'s decisions takes in ``times``."""
    choose: Callable[[Observation, Sequence[int]], int] = bot.choose

    def timed_choose(observation: Observation, legal: Sequence[int]) -> int:
        started = time.perf_counter()
        action = choose(observation, legal)
        times.append(time.perf_counter() - started)
        return action

    bot.choose = timed_choose  # type: ignore[method-assign]


def play_board(job: tuple[Any, Any, int, int]) -> tuple[float, Times]:
    """One board: two matches on one seed with the seats swapped. Returns the first bot's
    score (its share of the two matches) and the decision times by bot name."""
    first, second, seed, index = job
    rules = preset_rules("standard")
    wins, times = 0, defaultdict(list)
    for swap in (False, True):
        specs = [second, first] if swap else [first, second]
        bots = [make_bot(spec, seed=derive_seed(seed, index, swap, seat))
                for seat, spec in enumerate(specs)]
        for bot in bots:
            if not isinstance(bot, ExpertBot):  # the expert times its own decisions
                timed(bot, times[bot.name])
        match = play_match(rules, bots, derive_seed(seed, "match", index))
        winner = match.result.winner if match.result else None
        if winner == (1 if swap else 0):
            wins += 1
        for bot in bots:
            if isinstance(bot, ExpertBot):
                times[bot.name].extend(bot.decision_times)
    return wins / 2, dict(times)


def run_pairing(first: Any, second: Any, matches: int, seed: int,
                pool: ProcessPoolExecutor | None) -> tuple[list[float], Times, float]:
    """Board scores, decision times and seconds taken."""
    jobs = [(first, second, seed, i) for i in range(max(1, matches // 2))]
    started = time.perf_counter()
    results = list(pool.map(play_board, jobs, chunksize=8) if pool else map(play_board, jobs))
    times: Times = defaultdict(list)
    for _, board_times in results:
        for name, values in board_times.items():
            times[name].extend(values)
    return [r[0] for r in results], times, time.perf_counter() - started


def verdict(spread: float | None, low: float, high: float) -> str:
    if spread == 0:
        return "identical play on every board"
    if low > 0.5:
        return "first is stronger"
    if high < 0.5:
        return "first is weaker"
    return "level (not significantly different)"


def claim_holds(claim: str, low: float, high: float) -> bool:
    return low > 0.5 if claim == STRONGER else high >= 0.5


def label(spec: Any) -> str:
    if isinstance(spec, dict):
        extra = ", ".join(f"{k}={v}" for k, v in spec.items() if k != "name")
        return f"{spec['name']}({extra})"
    return str(spec)


def print_times(times: Times) -> None:
    fast = {name: values for name, values in times.items() if name != "expert"}
    if fast:
        print("decision time (mean / 99th percentile, microseconds): " + ", ".join(
            f"{name} {1e6 * statistics.fmean(v):.1f} / "
            f"{1e6 * sorted(v)[int(0.99 * (len(v) - 1))]:.0f}"
            for name, v in sorted(fast.items())))
    expert = sorted(times.get("expert", []))
    if expert:
        print(f"expert decision time at defaults (samples "
              f"{ExpertBot.params['samples'].default}, budget "
              f"{ExpertBot.params['budget'].default} s): median "
              f"{1000 * statistics.median(expert):.1f} ms, 95th percentile "
              f"{1000 * expert[int(0.95 * (len(expert) - 1))]:.1f} ms, worst "
              f"{1000 * expert[-1]:.1f} ms over {len(expert)} decisions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000, help="matches per pairing")
    parser.add_argument("--expert-matches", type=int, default=200,
                        help="matches per pairing that involves the expert (0: none)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    print(f"2-player matches, standard rules, duplicate boards (seats swapped); "
          f"seed {args.seed}")
    print(f"{'pairing':<18} {'matches':>7}  {'score':>6}  {'95% interval':>16}  verdict")
    times: Times = defaultdict(list)
    failed: list[str] = []
    try:
        pairings = [(a, b, claim, args.matches) for a, b, claim in PAIRINGS]
        if args.expert_matches > 0:
            pairings += [(a, b, claim, args.expert_matches) for a, b, claim in EXPERT_PAIRINGS]
        for first, second, claim, matches in pairings:
            scores, pair_times, elapsed = run_pairing(first, second, matches,
                                                            args.seed, pool)
            for name, values in pair_times.items():
                times[name].extend(values)
            stats = board_stats(scores)
            mean = stats.mean if stats.mean is not None else 0.5
            low = stats.low if stats.low is not None else 0.0
            high = stats.high if stats.high is not None else 1.0
            name = f"{label(first)} vs {label(second)}"
            holds = claim_holds(claim, low, high)
            if not holds:
                failed.append(f"{name} (claimed {claim})")
            print(f"{name:<18} {2 * len(scores):>7}  {mean:>6.1%}  [{low:6.1%}, {high:6.1%}]  "
                  f"{verdict(stats.sd, low, high)}; "
                  f"ladder: {claim} — {'ok' if holds else 'FAILS'} ({elapsed:.0f} s)",
                  flush=True)
    finally:
        if pool:
            pool.shutdown()
    print_times(times)
    if failed:
        print("claims that fail: " + "; ".join(failed))
        sys.exit(1)
    print("every claim of the ladder holds")


if __name__ == "__main__":
    main()
