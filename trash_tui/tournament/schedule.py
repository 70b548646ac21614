"""The schedule of a tournament: which bots sit where in every game, and with which seed.

A *pairing* is one set of ``players`` bots (round-robin: every combination of the bots;
gauntlet: the gauntlet bot with every combination of ``players - 1`` others). For each
pairing the tournament plays ``config.games`` *boards*:

* with ``duplicate``, a board is one seed (so one deck order) played in each of the
  ``players`` cyclic seat rotations of the pairing; the seed is derived from
  ``(config.seed, "board", pairing, board)``;
* without it, a board is a single game in rotation ``board % players`` (so seats even out
  over the boards) with its own seed from ``(config.seed, "game", pairing, board)``.

Games are numbered board by board: board 0 of every pairing (every rotation), then board 1,
and so on. ``Game.index`` is the game's position in that order. The order depends only on
the configuration (never on workers or batches), so results can be keyed by the index and
a resumed run skips the indices it has. Because boards are the outer loop, the schedule of
N boards is the start of the schedule of N + 1 boards, and a run stopped early has played
every pairing about equally often.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

from trash_tui.engine.rng import derive_seed
from trash_tui.tournament.config import TournamentConfig


@dataclass(frozen=True)
class Game:
    """One scheduled game: ``seats[s]`` is the index (into ``config.bots``) of the bot in
    seat ``s``; ``pairing`` indexes ``pairings(config)``."""

    index: int
    pairing: int
    board: int
    rotation: int
    seats: tuple[int, ...]
    seed: int


def iter_pairings(config: TournamentConfig) -> Iterator[tuple[int, ...]]:
    """Every set of bots that shares a table, as bot indices (gauntlet bot first), one at
    a time (there may be many: nothing is listed)."""
    count = len(config.bots)
    if config.format == "gauntlet":
        hero = config.gauntlet_index
        assert hero is not None
        others = [b for b in range(count) if b != hero]
        for combo in itertools.combinations(others, config.players - 1):
            yield (hero, *combo)
        return
    yield from itertools.combinations(range(count), config.players)


def pairings(config: TournamentConfig) -> list[tuple[int, ...]]:
    """Every set of bots that shares a table, as a list (``iter_pairings``)."""
    return list(iter_pairings(config))


def rotate(pairing: tuple[int, ...], rotation: int) -> tuple[int, ...]:
    """The seats of ``pairing`` in cyclic rotation ``rotation``: seat s holds
    ``pairing[(s + rotation) % k]``."""
    k = len(pairing)
    return tuple(pairing[(seat + rotation) % k] for seat in range(k))


def games_per_board(config: TournamentConfig) -> int:
    """Games in one board: every seat rotation with ``duplicate``, else one."""
    return config.players if config.duplicate else 1


def pairing_count(config: TournamentConfig) -> int:
    """How many pairings the tournament has (without listing them)."""
    count = len(config.bots)
    if config.format == "gauntlet":
        return math.comb(count - 1, config.players - 1)
    return math.comb(count, config.players)


def total_games(config: TournamentConfig) -> int:
    """Games in the whole schedule."""
    return pairing_count(config) * config.games * games_per_board(config)


def board_seed(config: TournamentConfig, pairing: int, board: int) -> int:
    """The seed of a game of ``board`` of ``pairing`` (shared by a duplicate board's
    rotations)."""
    kind = "board" if config.duplicate else "game"
    return derive_seed(config.seed, kind, pairing, board)


def schedule(config: TournamentConfig, start: int = 0) -> Iterator[Game]:
    """Every game in index order, from index ``start`` on.

    Lazy all the way: games are made as they are asked for, so memory stays flat however
    many boards and pairings the tournament has, and starting at ``start`` costs at most
    one pass over the pairings (no game is made for a skipped one)."""
    per_board = games_per_board(config)
    per_round = pairing_count(config) * per_board  # games in one board of every pairing
    if per_round == 0:
        return
    first_board, skip = divmod(max(start, 0), per_round)
    index = first_board * per_round
    k = config.players
    for board in range(first_board, config.games):
        pairs: Iterator[tuple[int, tuple[int, ...]]] = enumerate(iter_pairings(config))
        if skip >= per_board:  # whole pairings before ``start``
            skipped, skip = divmod(skip, per_board)
            pairs = itertools.islice(pairs, skipped, None)
            index += skipped * per_board
        for p, pairing in pairs:
            seed = board_seed(config, p, board)
            rotations = range(k) if config.duplicate else (board % k,)
            for rotation in rotations:
                if skip:
                    skip -= 1
                else:
                    yield Game(index, p, board, rotation, rotate(pairing, rotation), seed)
                index += 1
