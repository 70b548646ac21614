"""Bots in their own processes: what the protocol costs, on one core.

Pins itself (and so the bots it starts) to one CPU, then plays the same 2-player matches
(standard rules) through the same runner (``bots.runner.play_match``): with two external
greedy bots (``bots/examples/greedy_bot.py``, kept alive across matches as a tournament
worker keeps them), the same two in the sandbox kept across matches (bubblewrap; how a
sandboxed bot ran before issue 36), the same two in the sandbox with a fresh process each
match (``sandbox = true`` now: a fresh process, sandbox and /tmp every game), and the
in-process ``greedy`` bots. Prints the round trip of one decision to an external bot (from
the runner encoding the observation to it decoding the answer: median and 99th
percentile), the speeds in matches per second, the external/in-process ratios, the time
to start a bot process and answer ``hello`` with and without the sandbox, and what a
fresh sandbox costs per game and per duplicate board (both seat rotations). The runs
play identical games (the example plays exactly like greedy).

    python benchmarks/external.py [--matches N] [--cpu C] [--bot python|awk] [--no-sandbox]

Targets (issues 15 and 25): a median round trip under 150 µs; external at least a third of
the in-process speed; the kept sandbox costs at most 20% of that ratio. Other processes on
the same core make the tail (p99) longer; the runs are interleaved in rounds so that a
busy moment of the machine falls on all of them alike.
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

from bots import protocol  # noqa: E402
from bots.external import ExternalBot, close_idle  # noqa: E402
from bots.registry import make_bot  # noqa: E402
from bots.runner import play_match  # noqa: E402
from bots.sandbox import problem as sandbox_problem  # noqa: E402
from trash_tui.engine.record import match_record  # noqa: E402
from trash_tui.rules import Rules  # noqa: E402

EXAMPLES = ROOT / "bots" / "examples"
COMMANDS = {"python": [sys.executable, "greedy_bot.py"], "awk": ["sh", "greedy_awk.sh"]}


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
    parser.add_argument("--rounds", type=int, default=3,
                        help="the matches are played in this many interleaved rounds")
    parser.add_argument("--cpu", type=int, default=None, help="the CPU to pin to")
    parser.add_argument("--bot", choices=sorted(COMMANDS), default="python")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--starts", type=int, default=30,
                        help="processes started to time a start (and its hello)")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="skip the sandboxed run (a machine without bubblewrap)")
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    cpu = args.cpu if args.cpu is not None else cpus[-1]
    os.sched_setaffinity(0, {cpu})
    spec = {"name": f"{args.bot}-greedy", "command": COMMANDS[args.bot], "cwd": str(EXAMPLES)}
    kinds = {"external": [Timed(spec, 1), Timed(spec, 2)]}
    if not args.no_sandbox:
        problem = sandbox_problem()
        if problem is not None:
            sys.exit(f"benchmarks/external.py: {problem} (or use --no-sandbox)")
        sandboxed = {**spec, "sandbox": True}
        kept = [Timed(sandboxed, 1), Timed(sandboxed, 2)]
        for bot in kept:  # as before issue 36: one sandbox for all of a worker's games
            bot.restart = "never"
        kinds["sandboxed, kept"] = kept
        kinds["sandboxed, fresh"] = [Timed(sandboxed, 1), Timed(sandboxed, 2)]
    kinds["in-process"] = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    for bots in kinds.values():  # start the processes and warm up
        play(bots, 5, 10**6)
    seconds = dict.fromkeys(kinds, 0.0)
    records: dict[str, list] = {kind: [] for kind in kinds}
    trips: dict[str, list[float]] = {kind: [] for kind in kinds}
    per_round = max(1, args.matches // args.rounds)
    for number in range(args.rounds):
        for kind, bots in kinds.items():
            Timed.round_trips = []
            spent, played = play(bots, per_round, args.seed + number * per_round)
            seconds[kind] += spent
            records[kind] += played
            trips[kind] += Timed.round_trips
    close_idle()
    matches = per_round * args.rounds
    starts = {"no sandbox": kinds["external"][0].launch}
    if "sandboxed, fresh" in kinds:
        starts["sandbox"] = kinds["sandboxed, fresh"][0].launch
    for kind in kinds:
        assert records[kind] == records["in-process"], f"the {kind} bot played differently"
    print(f"one core (CPU {cpu}), {matches} matches of two greedy bots, standard rules, "
          f"{len(trips['external']) / matches:.0f} decisions a match, in {args.rounds} rounds")
    rate = {kind: matches / seconds[kind] for kind in kinds}
    for kind in kinds:
        if kind == "in-process":
            continue
        times = sorted(trips[kind])
        median = statistics.median(times) * 1e6
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1e6
        print(f"round trip of one decision ({args.bot} bot, {kind}): median {median:.0f} µs, "
              f"p99 {p99:.0f} µs   (target: median < 150 µs)")
    for kind in kinds:
        print(f"{kind + ' greedy bots:':<25}{rate[kind]:7.1f} matches/s")
    ratio = rate["external"] / rate["in-process"]
    print(f"external / in-process:   {ratio:7.2f}   (target: >= 0.33)")
    if "sandboxed, kept" in kinds:
        before = rate["sandboxed, kept"] / rate["in-process"]
        after = rate["sandboxed, fresh"] / rate["in-process"]
        print(f"sandboxed / in-process:  {before:7.2f} before (kept: the sandbox costs "
              f"{100 * (1 - before / ratio):.1f}% of the ratio, target: <= 20%), "
              f"{after:7.2f} after (a fresh sandbox each game: "
              f"{100 * (1 - after / ratio):.1f}%)")
        per_game = (seconds["sandboxed, fresh"] - seconds["sandboxed, kept"]) / matches
        print(f"a fresh sandbox each game costs {per_game * 1e3:.1f} ms a game (both bots), "
              f"{2 * per_game * 1e3:.1f} ms a duplicate board of 2 games")
    for label, launch in starts.items():
        times = start_times(launch, args.starts)
        print(f"start a bot process and answer hello ({label}): median "
              f"{statistics.median(times) * 1e3:.1f} ms, max {max(times) * 1e3:.1f} ms")


def start_times(launch, count: int) -> list[float]:  # type: ignore[no-untyped-def]
    """Seconds to start the bot's process (its sandbox too) and read its hello answer."""
    times = []
    hello = protocol.hello(Rules(), 0, 2, {}, 1)
    for _ in range(count):
        started = time.perf_counter()
        process = launch.start()
        process.send(hello, 10.0)
        protocol.read_hello(process.read_line(10.0))
        times.append(time.perf_counter() - started)
        process.quit()
    return times


if __name__ == "__main__":
    main()
