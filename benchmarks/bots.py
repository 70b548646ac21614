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

Issue 28's figures follow (each section can be run alone with ``--only``):

* ``oracle``: the research oracle (``bots/research/oracle.py``, sees every card) against ``greedy``
  on duplicate boards per house-rule preset, with and without passes: what seeing the
  cards is worth, the bound on what any honest bot can gain;
* ``expert``: the expert against ``greedy`` and against ``counter`` per preset, with the
  95% interval, then the expert's decision time (median, 95th percentile, worst) against
  its budget;
* ``room``: the room for skill (``bots/research/room.py``): in greedy matches, at every decision,
  what the best other move gains on greedy's, chosen on half of the samples of the unseen
  cards and measured on the other half; per row (the gain per deal and seat is the sum of
  the picked moves' held-out gains, 0 where greedy's move was kept) and per kind of
  decision (with the mean gain of every single alternative to greedy's move);
* ``hint``: the hint's advice (the expert's move, as the board's hint computes it) against
  greedy's move at the same decision, each played out on the real cards;
* ``anchors``: the calibration anchors as the leaderboard shows them, and which levels'
  intervals overlap.

The nine rows are what was measured: 7 of the 18 presets at 2 players (standard, Kings
wild, Jokers, kids, call "Trash!", last turn, three free draws) and standard at 3 and 4.
``--presets preset/players`` runs any other (``lucky-reveal/2``, measured since issue 36;
``standard/6``).

At 3 or 4 players a board is one deck played once with the bot at each seat (the others
``greedy`` or ``counter``); its score is the bot's share of the board's wins, against a
fair share of 1/players. Every figure is seeded: the same command prints the same numbers
(the expert's time budget aside, see bots/README.md). The full precision the issue asks
(a 95% interval of at most +-1.5 points, about 4,000 boards a pairing) is

    python benchmarks/bots.py --only expert --expert-boards 4000 --workers 2

    python benchmarks/bots.py [--matches N] [--expert-matches N] [--workers W] [--seed S]
                              [--only SECTION ...] [--presets NAME ...]
                              [--oracle-boards N] [--expert-boards N] [--hint-matches N]
                              [--room-matches N] [--room-samples N]
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
from itertools import pairwise
from typing import Any

from bots import Bot, make_bot, play_match
from bots.expert import ExpertBot
from trash_tui.engine.match import validate_table
from trash_tui.engine.observation import Observation
from trash_tui.engine.rng import derive_seed
from trash_tui.presets import PRESETS, preset_rules
from trash_tui.rules import RulesError
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


# --- issue 28: the oracle, the expert's edge, the hint, the anchors -------------------------
# (label, preset, players): the house rules the issue names, and 3 and 4 players.
PRESET_TABLES = [
    ("standard", "standard", 2),
    ("Kings wild", "kings-wild", 2),
    ("Jokers", "jokers", 2),
    ("start size 5", "kids", 2),
    ('call "Trash!"', "call-trash", 2),
    ("last turn", "last-turn", 2),
    ("three free draws", "three-free-draws", 2),
    ("3 players", "standard", 3),
    ("4 players", "standard", 4),
]
ORACLE = {"name": "oracle", "level": 2}
ORACLE_NO_PASSES = {"name": "oracle", "level": 2, "passes": False}
HINT_BUDGET = 0.4  # what the board's hint gives the expert (trash_tui/app/trash/board.py)


def rotation_board(job: tuple[Any, Any, str, int, int, int]) -> tuple[float, Times]:
    """One board of ``subject`` against ``opponent`` under ``preset`` at ``players``: the
    same deck played once with the subject at each seat (the opponent's bot at the
    others). Returns the subject's share of the board's wins and its decision times."""
    from bots.research import make_research_bot
    from bots.research.oracle import OracleBot, play_oracle_match

    subject, opponent, preset, players, seed, index = job
    rules = preset_rules(preset)
    match_seed = derive_seed(seed, preset, players, "match", index)
    wins, times = 0, defaultdict(list)
    for seat in range(players):
        specs = [subject if s == seat else opponent for s in range(players)]
        bots = [make_research_bot(spec, seed=derive_seed(seed, preset, players, index, seat, s))
                for s, spec in enumerate(specs)]
        if any(isinstance(bot, OracleBot) for bot in bots):
            match = play_oracle_match(rules, bots, match_seed)
        else:
            match = play_match(rules, bots, match_seed)
        if match.result is not None and match.result.winner == seat:
            wins += 1
        subject_bot = bots[seat]
        name = label(subject)
        if isinstance(subject_bot, ExpertBot | OracleBot):
            times[name].extend(subject_bot.decision_times)
    return wins / players, dict(times)


def run_rotations(subject: Any, opponent: Any, preset: str, players: int, boards: int,
                  seed: int, pool: ProcessPoolExecutor | None) -> tuple[list[float], Times]:
    jobs = [(subject, opponent, preset, players, seed, i) for i in range(boards)]
    results = list(pool.map(rotation_board, jobs, chunksize=4) if pool
                   else map(rotation_board, jobs))
    times: Times = defaultdict(list)
    for _, board_times in results:
        for name, values in board_times.items():
            times[name].extend(values)
    return [r[0] for r in results], times


def interval_text(scores: list[float], fair: float) -> str:
    stats = board_stats(scores, fair)
    if stats.mean is None:
        return "no boards"
    if stats.low is None or stats.high is None:
        return f"{stats.mean:6.1%}"
    return f"{stats.mean:6.1%} [{stats.low:5.1%}, {stats.high:5.1%}]"


def edge_verdict(scores: list[float], fair: float) -> str:
    stats = board_stats(scores, fair)
    if stats.sd == 0:
        return "every board the same"
    if stats.low is not None and stats.low > fair:
        return "stronger"
    if stats.high is not None and stats.high < fair:
        return "weaker"
    return "level"


def selected_tables(presets: Sequence[str] | None) -> list[tuple[str, str, int]]:
    """The rows ``--presets`` names: a row of the nine by its label, or any preset at any
    table size as ``preset/players`` (``lucky-reveal/2``, ``standard/6``: rows the nine do
    not measure)."""
    if not presets:
        return PRESET_TABLES
    chosen = [t for t in PRESET_TABLES if t[0] in presets or f"{t[1]}/{t[2]}" in presets]
    known = {f"{t[1]}/{t[2]}" for t in chosen} | {t[0] for t in chosen}
    for name in presets:
        preset, _, players = name.partition("/")
        if name in known or preset not in PRESETS or not players.isdigit():
            continue
        try:
            validate_table(PRESETS[preset].rules, int(players))
        except RulesError as error:
            raise SystemExit(f"benchmarks/bots.py: --presets {name}: {error}") from None
        chosen.append((name, preset, int(players)))
    if len(chosen) < len(presets):
        names = ", ".join(repr(t[0]) for t in PRESET_TABLES)
        raise SystemExit(f"benchmarks/bots.py: --presets: not a row in {list(presets)!r}; "
                         f"known: {names}, or preset/players for any preset of "
                         f"{', '.join(PRESETS)} (e.g. standard/5)")
    return chosen


def oracle_section(boards: int, seed: int, tables: list[tuple[str, str, int]],
                   pool: ProcessPoolExecutor | None) -> Times:
    print(f"\nThe oracle (sees every card, research only) against greedy: duplicate boards, "
          f"seed {seed}, {boards} boards a row")
    print(f"{'rules':<17} {'pl':>2} {'fair':>5}  {'oracle':>23}  {'oracle, no passes':>23}")
    times: Times = defaultdict(list)
    for name, preset, players in tables:
        started = time.perf_counter()
        row = []
        for spec in (ORACLE, ORACLE_NO_PASSES):
            scores, pair_times = run_rotations(spec, "greedy", preset, players, boards, seed,
                                               pool)
            for key, values in pair_times.items():
                times[key].extend(values)
            row.append(interval_text(scores, 1 / players))
        print(f"{name:<17} {players:>2} {1 / players:>5.0%}  {row[0]:>23}  {row[1]:>23}  "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
    return times


def expert_section(boards: int, seed: int, tables: list[tuple[str, str, int]],
                   pool: ProcessPoolExecutor | None) -> Times:
    print(f"\nThe expert's edge: duplicate boards, seed {seed}, {boards} boards a cell; score "
          f"[95% interval] against the fair share")
    print(f"{'rules':<17} {'pl':>2} {'fair':>5}  {'vs greedy':>23} {'':>20}  "
          f"{'vs counter':>23}")
    times: Times = defaultdict(list)
    for name, preset, players in tables:
        started = time.perf_counter()
        cells = []
        for opponent in ("greedy", "counter"):
            scores, pair_times = run_rotations("expert", opponent, preset, players, boards,
                                               seed, pool)
            for key, values in pair_times.items():
                times[key].extend(values)
            fair = 1 / players
            cells.append(f"{interval_text(scores, fair):>23} {edge_verdict(scores, fair):>20}")
        print(f"{name:<17} {players:>2} {1 / players:>5.0%}  {cells[0]}  {cells[1]}  "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
    return times


def print_research_times(times: Times) -> None:
    for name, values in sorted(times.items()):
        values = sorted(values)
        if not values:
            continue
        budget = (f" against its {ExpertBot.params['budget'].default} s budget"
                  if name == "expert" else "")
        print(f"{name} decision time: median {1000 * statistics.median(values):.1f} ms, "
              f"95th percentile {1000 * values[int(0.95 * (len(values) - 1))]:.1f} ms, worst "
              f"{1000 * values[-1]:.1f} ms over {len(values):,} decisions{budget}")


def hint_match(job: tuple[int, int]) -> tuple[int, int, int, int, int]:
    """A greedy-vs-greedy match; at every decision with a real choice the hint's move is
    computed as the board does, and where it differs from greedy's, both moves are played
    out on the real cards (the same stock, greedy afterwards for everyone). Returns the
    decisions with a choice, the hints that differ, and where they differ how often the
    deal then went better, worse or the same for the seat (it shrinks or not)."""
    from bots.builtin import greedy_policy
    from trash_tui.engine.match import Match

    seed, index = job
    rules = preset_rules("standard")
    match = Match(rules, 2, derive_seed(seed, "hint", index))
    choices = differ = better = worse = same = 0
    while not match.over:
        deal, seat = match.deal, match.to_move
        greedy = greedy_policy(deal, seat, None)  # type: ignore[arg-type]
        observation = match.observation(seat)
        if len(ExpertBot.candidates(observation, observation.legal)) > 1:
            choices += 1
            hint_seed = derive_seed(seed, "hint", index, len(deal.actions), deal.turns)
            expert = ExpertBot(seed=hint_seed % 2**31, budget=HINT_BUDGET)
            expert.start_match(seat, 2, rules)
            expert.start_deal(observation)
            hint = expert.choose(observation, observation.legal)
            if hint != greedy:
                differ += 1
                values = []
                for action in (hint, greedy):
                    twin = deal.copy(with_events=False)
                    twin.apply(action)
                    twin.play_greedy()
                    values.append(seat in twin.shrinking)
                better += values[0] > values[1]
                worse += values[0] < values[1]
                same += values[0] == values[1]
        match.apply(greedy)
    return choices, differ, better, worse, same


def hint_section(matches: int, seed: int, pool: ProcessPoolExecutor | None) -> None:
    from trash_tui.stats import wilson_interval

    jobs = [(seed, i) for i in range(matches)]
    results = list(pool.map(hint_match, jobs, chunksize=2) if pool else map(hint_match, jobs))
    choices, differ, better, worse, same = (sum(r[i] for r in results) for i in range(5))
    print(f"\nThe hint's advice (the expert's move, budget {HINT_BUDGET} s) against greedy's "
          f"move at the same decision: {matches} greedy-vs-greedy matches, standard rules, "
          f"seed {seed}")
    if not choices:
        print("no decision with a real choice")
        return
    print(f"decisions with a real choice: {choices:,}; the hint differs from greedy's move at "
          f"{differ:,} ({differ / choices:.1%})")
    if differ:
        decided = better + worse
        low, high = wilson_interval(better, decided) if decided else (0.0, 1.0)
        print(f"where it differs, played out on the real cards: the deal goes better for the "
              f"player {better:,} times, worse {worse:,}, the same {same:,}; following the "
              f"hint wins {better / decided if decided else 0:.1%} of the deals where it "
              f"matters (95% interval {low:.1%}-{high:.1%})")


def room_job(job: tuple[str, int, int, int, int]) -> Any:
    from bots.research.room import room_match

    preset, players, seed, index, samples = job
    return room_match(preset_rules(preset), players,
                      derive_seed(seed, "room", preset, players, index), samples)


def mean_gain_text(picks: list[Any]) -> str:
    """The mean held-out gain of the picks, in points ("-" with none)."""
    return f"{100 * sum(d.gain for d in picks) / len(picks):+.1f}" if picks else "-"


def room_section(matches: int, samples: int, seed: int, tables: list[tuple[str, str, int]],
                 pool: ProcessPoolExecutor | None) -> None:
    from bots.research.room import KINDS
    from trash_tui.stats import mean_interval

    print(f"\nThe room for skill (bots/research/room.py): greedy matches, every decision of "
          f"every seat with a choice; {samples} samples of the unseen cards a decision (half "
          f"to choose another move than greedy's, half to measure it); {matches} matches a "
          f"row, seed "
          f"{seed}. Gains in points of the chance to shrink. Per row, the gain per deal "
          f"and seat sums the picked moves' held-out gains (a decision where greedy's move "
          f"was kept adds 0); per kind, 'other moves' is the mean gain of every single "
          f"alternative to greedy's move.")
    print(f"{'rules':<17} {'pl':>2} {'decisions':>9} {'other picks':>11}  "
          f"{'gain of a pick':>14}  {'gain per deal and seat [95%]':>30}")
    by_kind: dict[str, list[Any]] = defaultdict(list)
    for name, preset, players in tables:
        started = time.perf_counter()
        jobs = [(preset, players, seed, i, samples) for i in range(matches)]
        rooms = list(pool.map(room_job, jobs) if pool else map(room_job, jobs))
        decisions = [d for room in rooms for d in room.decisions]
        deal_gains = [g for room in rooms for g in room.deal_gains]
        picks = [d for d in decisions if d.pick != d.greedy]
        for d in decisions:
            by_kind[d.kind].append(d)
        pick_gain = mean_gain_text(picks)
        mean, low, high = mean_interval(deal_gains)
        print(f"{name:<17} {players:>2} {len(decisions):>9,} {len(picks):>11,}  "
              f"{pick_gain:>14}  {100 * mean:>+10.2f} [{100 * low:+.2f}, {100 * high:+.2f}]"
              f"  ({time.perf_counter() - started:.0f} s)", flush=True)
    print(f"{'kind of decision':<17} {'decisions':>9} {'another ahead':>13} "
          f"{'other picks':>11}  {'gain of a pick':>14}  {'confirmed':>9}  "
          f"{'other moves, mean gain':>22}")
    for kind in KINDS:
        found = by_kind.get(kind, [])
        if not found:
            continue
        picks = [d for d in found if d.pick != d.greedy]
        confirmed = sum(1 for d in picks if d.gain > 2 * d.error)
        ahead = sum(1 for d in found if d.best_other > 0)
        pick_gain = mean_gain_text(picks)
        mean, low, high = mean_interval([d.alternative for d in found])
        print(f"{kind:<17} {len(found):>9,} {ahead:>13,} {len(picks):>11,}  {pick_gain:>14}  "
              f"{confirmed:>9,}  {100 * mean:>+8.2f} [{100 * low:+.2f}, {100 * high:+.2f}]")


def anchors_section() -> None:
    from trash_tui.players.anchors import anchors_info

    info = anchors_info()
    levels = info.get("games", {}).get("trash", {})
    print(f"\nCalibration anchors (trash_tui/players/anchors.json, made {info.get('made', '?')}"
          f" by {info.get('made_by', '?')}): shown rating [95% interval], games")
    rows = sorted(levels.items(), key=lambda item: -item[1].get("shown", 0))
    for name, entry in rows:
        print(f"  {name:<8} {entry.get('shown', '?'):>5} [{entry.get('shown_low', '?')}, "
              f"{entry.get('shown_high', '?')}]  {entry.get('games', '?')} games")
    tied = []
    for (a, ea), (b, eb) in pairwise(rows):
        if ea.get("shown_low", 0) <= eb.get("shown_high", 0):
            tied.append(f"{a}~{b}")
    print("levels whose intervals overlap (not separated by the calibration): "
          + (", ".join(tied) or "none"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000, help="matches per pairing")
    parser.add_argument("--expert-matches", type=int, default=200,
                        help="matches per pairing that involves the expert (0: none)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", nargs="+", default=None,
                        choices=("ladder", "oracle", "expert", "room", "hint", "anchors"),
                        help="the sections to run (default: all)")
    parser.add_argument("--presets", nargs="+", default=None,
                        help="rows of the oracle, expert and room tables (default: the nine "
                        "measured: 7 of the 18 presets at 2 players, standard at 3 and 4); "
                        "preset/players adds any other, e.g. lucky-reveal/2 or standard/6")
    parser.add_argument("--oracle-boards", type=int, default=100)
    parser.add_argument("--expert-boards", type=int, default=100)
    parser.add_argument("--hint-matches", type=int, default=40)
    parser.add_argument("--room-matches", type=int, default=10,
                        help="greedy matches per row of the room for skill (default 10)")
    parser.add_argument("--room-samples", type=int, default=1000,
                        help="samples of the unseen cards per decision of the room, half to "
                        "choose a move and half to measure it (default 1000)")
    args = parser.parse_args()
    sections = set(args.only or ("ladder", "oracle", "expert", "room", "hint", "anchors"))
    tables = selected_tables(args.presets)
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    failed: list[str] = []
    try:
        if "ladder" in sections:
            failed = ladder_section(args, pool)
        if "oracle" in sections:
            print_research_times(oracle_section(args.oracle_boards, args.seed, tables, pool))
        if "expert" in sections:
            print_research_times(expert_section(args.expert_boards, args.seed, tables, pool))
        if "room" in sections:
            room_section(args.room_matches, args.room_samples, args.seed, tables, pool)
        if "hint" in sections:
            hint_section(args.hint_matches, args.seed, pool)
        if "anchors" in sections:
            anchors_section()
    finally:
        if pool:
            pool.shutdown()
    if failed:
        print("claims that fail: " + "; ".join(failed))
        sys.exit(1)
    if "ladder" in sections:
        print("every claim of the ladder holds")


def ladder_section(args: argparse.Namespace, pool: ProcessPoolExecutor | None) -> list[str]:
    """The ladder's pairings (2 players, standard rules); the claims that fail."""
    print(f"2-player matches, standard rules, duplicate boards (seats swapped); "
          f"seed {args.seed}")
    print(f"{'pairing':<18} {'matches':>7}  {'score':>6}  {'95% interval':>16}  verdict")
    times: Times = defaultdict(list)
    failed: list[str] = []
    pairings = [(a, b, claim, args.matches) for a, b, claim in PAIRINGS]
    if args.expert_matches > 0:
        pairings += [(a, b, claim, args.expert_matches) for a, b, claim in EXPERT_PAIRINGS]
    for first, second, claim, matches in pairings:
        scores, pair_times, elapsed = run_pairing(first, second, matches, args.seed, pool)
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
    print_times(times)
    return failed


if __name__ == "__main__":
    main()
