"""Tournament throughput: matches per second with 1 and 2 workers, and what the machinery costs.

Runs ``tournaments/round-robin.toml`` (into a temporary folder and history database) with
one worker (in this process) and with two worker processes, and plays the same scheduled
games in a bare loop (bots and ``play_match`` only: no scheduling, batching, files or
database). Prints matches per second for each, the parallel efficiency
(rate with 2 workers / (2 × rate with 1)), and the 1-worker rate as a share of the bare
loop. Targets on a 2-core machine: efficiency ≥ 85%, and the 1-worker tournament within
15% of the bare loop.

    python benchmarks/tournament.py [--config FILE] [--boards N]
"""

from __future__ import annotations

import sys
from pathlib import Path

# benchmarks/bots.py shares its name with the ``bots`` package: never import it by mistake.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import dataclasses
import tempfile
import time
from pathlib import Path

from bots.registry import make_bot
from bots.runner import play_match
from trash_tui.players.rater import open_history
from trash_tui.tournament.config import load_tournament
from trash_tui.tournament.play import bot_seed
from trash_tui.tournament.runner import run_tournament
from trash_tui.tournament.schedule import schedule

ROOT = Path(__file__).resolve().parent.parent


def bare_rate(config) -> tuple[float, int]:
    """Matches per second of the scheduled games played in a plain loop."""
    games = list(schedule(config))
    started = time.perf_counter()
    for game in games:
        bots = [make_bot(config.bots[b].spec, seed=bot_seed(config, game, b))
                for b in game.seats]
        play_match(config.rules, bots, game.seed)
    return len(games) / (time.perf_counter() - started), len(games)


def tournament_rate(config, workers: int) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as folder:
        history = open_history(Path(folder) / "history.sqlite3")
        started = time.perf_counter()
        outcome = run_tournament(config, Path(folder) / "run", workers=workers,
                                 history=history)
        elapsed = time.perf_counter() - started
        history.close()
    return outcome.played_now / elapsed, outcome.played_now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(ROOT / "tournaments" / "round-robin.toml"))
    parser.add_argument("--boards", type=int, help="boards per pairing (default: the file's)")
    args = parser.parse_args()
    config = load_tournament(args.config)
    if args.boards:
        config = dataclasses.replace(config, games=args.boards)
    bare, count = bare_rate(config)
    print(f"{config.name}: {count} matches per run")
    print(f"bare loop (bots + play_match):  {bare:8.1f} matches/s")
    one, _ = tournament_rate(config, 1)
    print(f"tournament, 1 worker:           {one:8.1f} matches/s  "
          f"({100 * one / bare:.0f}% of the bare loop; target ≥ 85%)")
    two, _ = tournament_rate(config, 2)
    efficiency = two / (2 * one)
    print(f"tournament, 2 workers:          {two:8.1f} matches/s  "
          f"(parallel efficiency {100 * efficiency:.0f}%; target ≥ 85%)")


if __name__ == "__main__":
    main()
