"""Engine throughput: deals per second with greedy players, on one core.

Plays standard deals (2 and 4 players) through ``trash_tui.simulate.run_deals`` — the same
Deal code the app, the bots and ``trash simulate`` use, with lazy seeded shuffling and the
full event log — several times, and prints the best and the median run, per CPU-second
(what one core does, whatever else shares the machine) and per wall-clock second, two ways:

* ``greedy playout``: what ``trash simulate --bot greedy`` and the look-ahead bots'
  rollouts run, ``Deal.play_greedy`` (the engine answers greedy's decisions itself);
* ``decision by decision``: ``greedy_policy`` called and its answer applied with
  ``Deal.apply`` for every decision, as any other bot is played.

Both play the very same deals (``tests/test_engine_speed_greedy.py``). The target for 2
players is 25,000 deals per second on one core of the project's machine.

With ``--instructions`` it counts instead the CPU instructions per 2-player deal under
valgrind's callgrind (the difference between running N deals and none, divided by N): a
figure that does not depend on the load of a shared machine. Issue 28's reference points
in this measure: 244k instructions a deal before the issue (``decision by decision`` then
was the only way), a plain reference implementation 1.27 times that (about 310k); the
greedy playout after it: 154k (2.01 times faster than the plain one).

    python benchmarks/engine.py [--deals N] [--repeat R]
    python benchmarks/engine.py --instructions [--deals N]
"""

from __future__ import annotations

import sys
from pathlib import Path

# benchmarks/bots.py shares its name with the ``bots`` package: never import it by mistake.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import re
import shutil
import statistics
import subprocess
import time

from bots.builtin import greedy_policy
from trash_tui.presets import preset_rules
from trash_tui.simulate import PolicyPlayers, run_deals

TARGET_2P = 25_000
PLAIN_REFERENCE = 310_000  # instructions per 2-player deal of a plain implementation


def seats(players: int, seed: int, fused: bool) -> PolicyPlayers:
    chosen = PolicyPlayers([greedy_policy] * players, seed=seed)
    chosen.all_greedy = fused  # False: the policy is called for every decision
    return chosen


def measure(players: int, deals: int, repeat: int,
            fused: bool) -> tuple[list[float], list[float], float]:
    """Deals per CPU-second and per wall-second of each run, and turns per deal."""
    rules = preset_rules("standard")
    cpu_rates, wall_rates, turns = [], [], 0.0
    for run in range(repeat):
        cpu = time.process_time()
        report = run_deals(rules, players, seats(players, run, fused), deals, seed=run)
        cpu = time.process_time() - cpu
        cpu_rates.append(report.deals / cpu)
        wall_rates.append(report.deals / report.elapsed)
        turns = report.turns / report.deals
    return cpu_rates, wall_rates, turns


def play_only(deals: int, fused: bool) -> None:
    """What ``--instructions`` runs under callgrind: ``deals`` 2-player deals, nothing else."""
    run_deals(preset_rules("standard"), 2, seats(2, 0, fused), deals, seed=0)


def count_instructions(deals: int, fused: bool) -> int:
    """Instructions per deal: callgrind's total for ``deals`` deals less that for none."""
    totals = []
    for count in (0, deals):
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                   sys.executable, __file__, "--play-only", str(count)]
        if not fused:
            command.append("--stepwise")
        result = subprocess.run(command, capture_output=True, text=True, check=True)
        found = re.search(r"Collected : (\d+)", result.stderr)
        if found is None:
            raise SystemExit("benchmarks/engine.py: callgrind printed no instruction count")
        totals.append(int(found.group(1)))
    return (totals[1] - totals[0]) // deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per deal under valgrind (callgrind)")
    parser.add_argument("--play-only", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--stepwise", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play_only is not None:
        play_only(args.play_only, not args.stepwise)
        return
    if args.instructions:
        if shutil.which("valgrind") is None:
            raise SystemExit("benchmarks/engine.py: --instructions needs valgrind")
        deals = min(args.deals, 4000)
        for fused, name in ((True, "greedy playout"), (False, "decision by decision")):
            count = count_instructions(deals, fused)
            print(f"2 players, {name}: {count:,} instructions per deal "
                  f"({PLAIN_REFERENCE / count:.2f}x the plain reference's ~310k; "
                  f"{deals:,} deals under callgrind)", flush=True)
        return
    measure(2, 2000, 1, True)  # warm-up
    for players in (2, 4):
        for fused, name in ((True, "greedy playout"), (False, "decision by decision")):
            rates, wall, turns = measure(players, args.deals, args.repeat, fused)
            best, median = max(rates), statistics.median(rates)
            line = (f"{players} players, {name}: best {best:,.0f} deals per CPU-second "
                    f"({1e6 / best:.1f} us/deal), median {median:,.0f}; wall clock best "
                    f"{max(wall):,.0f}, median {statistics.median(wall):,.0f} deals/s "
                    f"({args.repeat} runs of {args.deals:,} deals; {turns:.1f} turns/deal)")
            if players == 2:
                verdict = "meets" if best >= TARGET_2P else "misses"
                line += f" — {verdict} the {TARGET_2P:,}/s target"
            print(line, flush=True)


if __name__ == "__main__":
    main()
