"""Help Your Neighbor: does the smart bot beat the random one, and how fast is the engine?

Two line-ups at a 4-player table: one smart bot with three random ones (fair share 25%),
and two smart with two random, the smart ones side by side (fair share 50% for the pair).
Every board is one dice seed played in all four cyclic seat rotations (paired seeds), so
each bot sits in each seat on the same dice. Prints the smart share of wins with its 95%
Wilson interval against the fair share, games per second, and a verdict line; then the
engine alone (four random bots): games and rolls per second.

    python benchmarks/neighbor.py [--boards N] [--seed S]
"""

from __future__ import annotations

import sys
from pathlib import Path

# benchmarks/bots.py shares its name with the ``bots`` package: import the package.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import time

from bots.neighbor import make_neighbor_bot, play_neighbor
from trash_tui.engine.rng import derive_seed
from trash_tui.neighbor.engine import NeighborGame
from trash_tui.stats import wilson_interval

LINEUPS = [  # (label, seats of one rotation)
    ("1 smart vs 3 random", ("smart", "random", "random", "random")),
    ("2 smart vs 2 random", ("smart", "smart", "random", "random")),
]


def play_lineup(lineup: tuple[str, ...], boards: int, seed: int) -> tuple[int, int, float]:
    """(games the smart bots won, games played, seconds) over ``boards`` boards."""
    players = len(lineup)
    wins = games = 0
    started = time.perf_counter()
    for board in range(boards):
        game_seed = derive_seed(seed, "board", board)
        for rotation in range(players):
            names = [lineup[(seat + rotation) % players] for seat in range(players)]
            bots = [make_neighbor_bot(name, derive_seed(game_seed, "bot", seat) % 2**31)
                    for seat, name in enumerate(names)]
            game = play_neighbor(NeighborGame(players, game_seed), bots)
            games += 1
            if game.winner is not None and names[game.winner] == "smart":
                wins += 1
    return wins, games, time.perf_counter() - started


def engine_speed(games: int, seed: int) -> tuple[float, float]:
    """(games/s, rolls/s) of four random bots: the engine and the driver, little else."""
    bots = [make_neighbor_bot("random", seat) for seat in range(4)]
    rolls = 0
    started = time.perf_counter()
    for index in range(games):
        rolls += play_neighbor(NeighborGame(4, derive_seed(seed, "speed", index)), bots).turn
    seconds = time.perf_counter() - started
    return games / seconds, rolls / seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000,
                        help="boards per line-up (4 games each; default 1000)")
    parser.add_argument("--seed", type=int, default=3003)
    args = parser.parse_args(argv)
    beats = True
    print(f"Help Your Neighbor, 4 players, {args.boards} boards x 4 seat rotations per "
          f"line-up, seed {args.seed}")
    for label, lineup in LINEUPS:
        wins, games, seconds = play_lineup(lineup, args.boards, args.seed)
        fair = lineup.count("smart") / len(lineup)
        low, high = wilson_interval(wins, games)
        share = wins / games
        if low > fair:
            verdict = "smart wins more than its fair share"
        elif high < fair:
            verdict = "smart wins LESS than its fair share"
            beats = False
        else:
            verdict = "no clear difference"
            beats = False
        print(f"  {label}: smart won {wins}/{games} = {100 * share:.1f}% "
              f"[{100 * low:.1f}%, {100 * high:.1f}%] vs fair {100 * fair:.0f}% "
              f"({100 * (share - fair):+.1f} points) — {verdict}; "
              f"{games / seconds:,.0f} games/s")
    games_rate, roll_rate = engine_speed(args.boards, args.seed)
    print(f"  engine alone (4 random bots): {games_rate:,.0f} games/s, {roll_rate:,.0f} rolls/s")
    print("Verdict: " + ("smart beats random" if beats else
                         "smart does NOT clearly beat random"))
    return 0 if beats else 1


if __name__ == "__main__":
    sys.exit(main())
