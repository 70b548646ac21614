"""Engine throughput: deals per second with greedy players, on one core.

Plays standard deals (2 and 4 players) through ``trash_tui.simulate.run_deals`` — the same
Deal code the app, the bots and ``trash simulate`` use, with lazy seeded shuffling and the
full event log — several times, and prints the best and the median run, per CPU-second
(what one core does, whatever else shares the machine) and per wall-clock second. The
target for 2 players is 25,000 deals per second on one core of the project's machine.

    python benchmarks/engine.py [--deals N] [--repeat R]
"""

from __future__ import annotations

import sys
from pathlib import Path

# benchmarks/bots.py shares its name with the ``bots`` package: never import it by mistake.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import statistics
import time

from bots.builtin import greedy_policy
from trash_tui.presets import preset_rules
from trash_tui.simulate import PolicyPlayers, run_deals

TARGET_2P = 25_000


def measure(players: int, deals: int, repeat: int) -> tuple[list[float], list[float], float]:
    """Deals per CPU-second and per wall-second of each run, and turns per deal."""
    rules = preset_rules("standard")
    cpu_rates, wall_rates, turns = [], [], 0.0
    for run in range(repeat):
        seats = PolicyPlayers([greedy_policy] * players, seed=run)
        cpu = time.process_time()
        report = run_deals(rules, players, seats, deals, seed=run)
        cpu = time.process_time() - cpu
        cpu_rates.append(report.deals / cpu)
        wall_rates.append(report.deals / report.elapsed)
        turns = report.turns / report.deals
    return cpu_rates, wall_rates, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    measure(2, 2000, 1)  # warm-up
    for players in (2, 4):
        rates, wall, turns = measure(players, args.deals, args.repeat)
        best, median = max(rates), statistics.median(rates)
        line = (f"{players} players: best {best:,.0f} deals per CPU-second "
                f"({1e6 / best:.1f} us/deal), median {median:,.0f}; wall clock best "
                f"{max(wall):,.0f}, median {statistics.median(wall):,.0f} deals/s "
                f"({args.repeat} runs of {args.deals:,} deals; {turns:.1f} turns/deal)")
        if players == 2:
            verdict = "meets" if best >= TARGET_2P else "misses"
            line += f" — {verdict} the {TARGET_2P:,}/s target"
        print(line, flush=True)


if __name__ == "__main__":
    main()
