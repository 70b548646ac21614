"""Bots in their own processes: what the protocol costs, on one core.

Pins itself (and so the bots it starts) to one CPU, then plays the same 2-player matches
(standard rules) twice through the same runner (``bots.runner.play_match``): once with two
external greedy bots (``bots/examples/greedy_bot.py``, kept alive across matches as a
tournament worker keeps them), once with the in-process ``greedy`` bots. Prints the round
trip of one decision to an external bot (from the runner encoding the observation to it
decoding the answer: median and 99th percentile) and both speeds in matches per second.
The two runs play identical games (the example plays exactly like greedy).

    python benchmarks/external.py [--matches N] [--cpu C] [--bot python|awk]

Targets (issue 15): a median round trip under 150 µs; external at least a third of the
in-process speed. Other processes on the same core make the tail (p99) longer.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bots.external import ExternalBot, close_idle  # noqa: E402
from bots.registry import make_bot  # noqa: E402
from bots.runner import play_match  # noqa: E402
from trash_tui.engine.record import match_record  # noqa: E402
from trash_tui.rules import Rules  # noqa: E402

EXAMPLES = ROOT / "bots" / "examples"
COMMANDS = {"python": [sys.executable, str(EXAMPLES / "greedy_bot.py")],
            "awk": ["sh", str(EXAMPLES / "greedy_awk.sh")]}


class Timed(ExternalBot):
    """An external bot that keeps the duration of every decision's round trip."""

    round_trips: list[float] = []  # noqa: RUF012 - shared by both seats on purpose

    def choose(self, observation, legal):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        action = super().choose(observation, legal)
        Timed.round_trips.append(time.perf_counter() - started)
        return action


def play(bots: list, matches: int, seed: int) -> tuple[float, list]:
    rules = Rules()
    records = []
    started = time.perf_counter()
    for index in range(matches):
        match = play_match(rules, bots, seed + index)
        records.append(match_record(match, ["a", "b"]))
    return time.perf_counter() - started, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--cpu", type=int, default=None, help="the CPU to pin to")
    parser.add_argument("--bot", choices=sorted(COMMANDS), default="python")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    cpu = args.cpu if args.cpu is not None else cpus[-1]
    os.sched_setaffinity(0, {cpu})
    spec = {"name": f"{args.bot}-greedy", "command": COMMANDS[args.bot]}
    external = [Timed(spec, 1), Timed(spec, 2)]
    local = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    play(external, 5, 10**6)  # start the processes and warm up
    play(local, 5, 10**6)
    Timed.round_trips.clear()
    outside, external_records = play(external, args.matches, args.seed)
    inside, local_records = play(local, args.matches, args.seed)
    close_idle()
    assert external_records == local_records, "the external bot played differently"
    trips = sorted(Timed.round_trips)
    median = statistics.median(trips) * 1e6
    p99 = trips[min(len(trips) - 1, int(len(trips) * 0.99))] * 1e6
    rate_out, rate_in = args.matches / outside, args.matches / inside
    print(f"one core (CPU {cpu}), {args.matches} matches of two greedy bots, standard rules, "
          f"{len(trips) / args.matches:.0f} decisions a match")
    print(f"round trip of one decision ({args.bot} bot): median {median:.0f} µs, "
          f"p99 {p99:.0f} µs   (target: median < 150 µs)")
    print(f"external greedy bots:   {rate_out:7.1f} matches/s")
    print(f"in-process greedy bots: {rate_in:7.1f} matches/s")
    print(f"external / in-process:  {rate_out / rate_in:7.2f}   (target: >= 0.33)")


if __name__ == "__main__":
    main()
