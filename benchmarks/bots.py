"""The bot ladder, head to head: is each rung really stronger than the one below?

Plays 2-player matches (standard rules) between pairs of bots. Matches come in pairs on the
same seed with the seats swapped, so the cards and the first-seat advantage cancel out as
far as they can. Prints each pairing's match win rate for the first bot with its 95%
Wilson interval, the number of matches and a verdict; then the expert's decision time
(median and worst) at its default settings.

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
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bots import make_bot, play_match
from bots.expert import ExpertBot
from trash_tui.engine.rng import derive_seed
from trash_tui.presets import preset_rules
from trash_tui.stats import wilson_interval

PAIRINGS = [  # (first, second, what the ladder claims)
    ("greedy", "random", "better"),
    ("normal", "easy", "better"),
    ("hard", "easy", "better"),
    ("hard", "normal", "better"),
    ("counter", "greedy", "not worse"),
    ("hard", "counter", "close"),
]
EXPERT_PAIRINGS = [
    ("expert", "greedy", "not worse"),
    ("expert", "counter", "not worse"),
]


def play_pair(job: tuple[Any, Any, int, int]) -> tuple[int, int, list[float]]:
    """Two matches on one seed with seats swapped: (wins of the first bot, matches, times)."""
    first, second, seed, index = job
    rules = preset_rules("standard")
    wins, times = 0, []
    for swap in (False, True):
        specs = [second, first] if swap else [first, second]
        bots = [make_bot(spec, seed=derive_seed(seed, index, swap, seat))
                for seat, spec in enumerate(specs)]
        match = play_match(rules, bots, derive_seed(seed, "match", index))
        winner = match.result.winner if match.result else None
        if winner == (1 if swap else 0):
            wins += 1
        for bot in bots:
            if isinstance(bot, ExpertBot):
                times.extend(bot.decision_times)
    return wins, 2, times


def run_pairing(first: Any, second: Any, matches: int, seed: int,
                pool: ProcessPoolExecutor | None) -> tuple[int, int, list[float], float]:
    jobs = [(first, second, seed, i) for i in range(max(1, matches // 2))]
    started = time.perf_counter()
    results = list(pool.map(play_pair, jobs, chunksize=4) if pool else map(play_pair, jobs))
    wins = sum(r[0] for r in results)
    played = sum(r[1] for r in results)
    times = [t for r in results for t in r[2]]
    return wins, played, times, time.perf_counter() - started


def verdict(low: float, high: float) -> str:
    if low > 0.5:
        return "first is stronger"
    if high < 0.5:
        return "first is weaker"
    return "statistically indistinguishable"


def label(spec: Any) -> str:
    if isinstance(spec, dict):
        extra = ", ".join(f"{k}={v}" for k, v in spec.items() if k != "name")
        return f"{spec['name']}({extra})"
    return str(spec)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000, help="matches per pairing")
    parser.add_argument("--expert-matches", type=int, default=200,
                        help="matches per pairing that involves the expert")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    print(f"2-player matches, standard rules, seats alternated; seed {args.seed}")
    print(f"{'pairing':<26} {'matches':>7}  {'first wins':>10}  {'95% interval':>17}  verdict")
    expert_times: list[float] = []
    try:
        pairings = [(a, b, claim, args.matches) for a, b, claim in PAIRINGS]
        pairings += [(a, b, claim, args.expert_matches) for a, b, claim in EXPERT_PAIRINGS]
        for first, second, claim, matches in pairings:
            wins, played, times, elapsed = run_pairing(first, second, matches, args.seed, pool)
            expert_times.extend(times)
            low, high = wilson_interval(wins, played)
            name = f"{label(first)} vs {label(second)}"
            print(f"{name:<26} {played:>7}  {wins / played:>10.1%}  "
                  f"[{low:6.1%}, {high:6.1%}]  {verdict(low, high)} (ladder: {claim}; "
                  f"{elapsed:.0f} s)", flush=True)
    finally:
        if pool:
            pool.shutdown()
    if expert_times:
        ordered = sorted(expert_times)
        print(f"expert decision time at defaults (samples "
              f"{ExpertBot.params['samples'].default}, budget "
              f"{ExpertBot.params['budget'].default} s): median "
              f"{1000 * statistics.median(ordered):.1f} ms, 95th percentile "
              f"{1000 * ordered[int(0.95 * (len(ordered) - 1))]:.1f} ms, worst "
              f"{1000 * ordered[-1]:.1f} ms over {len(ordered)} decisions")


if __name__ == "__main__":
    main()
