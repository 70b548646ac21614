"""The schedule of a tournament: which bots sit where in every game, and with which seed.

A *pairing* is one set of ``players`` bots (round-robin: every combination of the bots;
gauntlet: the gauntlet bot with every combination of ``players - 1`` others). For each
pairing the tournament plays ``config.games`` *boards*:

* with ``duplicate``, a board is one seed (so one deck order) played in each of the
  ``players`` cyclic seat rotations of one seat order of the pairing; the seed is derived
  from ``(config.seed, "board", pairing, board)``;
* without it, a board is a single game in rotation ``board % players`` (so seats even out
  over the boards) with its own seed from ``(config.seed, "game", pairing, board)``.

A rotation keeps who sits directly after whom, so at 3 and more players the pairing's
bots are also seated in several cyclic *seat orders* (``seat_orders``): a set of orders in
which every bot sits directly after every other bot of the pairing equally often. Board
``b`` of pairing ``p`` uses order ``(b + p) % L`` with ``duplicate``, else
``(b // players + p) % L`` (so each order is played in every rotation first); over ``L``
boards (``players·L`` without ``duplicate``) every ordered pair of a pairing is as often
"A directly after B" (``follow_counts`` counts it for the whole schedule, ``trash
tournament check`` shows it). ``config.seating = "cyclic"`` keeps the one order of runs
started before seat orders existed, so they resume exactly.

A run with a secret (``config.secret``: ``runner.py`` draws one when a run of a tournament
with sandboxed bots starts) derives its seeds from ``(config.seed, secret, ...)`` instead:
nothing a bot sees, its ``hello`` seed included, leads back to a deal without the secret.

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
from trash_tui.text import clean
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
    order: int = 0  # the pairing's seat order (an index into ``seat_orders``)


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


#: Cyclic seat orders (positions in the pairing) in which every ordered pair sits "directly
#: after" equally often: found by a search and checked by tests/test_tournament_seating.py.
#: 4 players: the six cyclic orders there are (each pair twice; no set of three does it,
#: Tillson 1980); 6 players: ten orders, each pair twice (five cannot); 8: seven, once.
_SEARCHED: dict[int, tuple[tuple[int, ...], ...]] = {
    4: ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 1, 3), (0, 2, 3, 1), (0, 3, 1, 2), (0, 3, 2, 1)),
    6: ((0, 1, 4, 2, 5, 3), (0, 1, 5, 4, 3, 2), (0, 2, 4, 3, 5, 1), (0, 2, 4, 5, 3, 1),
        (0, 3, 1, 2, 5, 4), (0, 3, 2, 1, 4, 5), (0, 4, 1, 2, 3, 5), (0, 4, 1, 5, 2, 3),
        (0, 5, 1, 3, 4, 2), (0, 5, 2, 1, 3, 4)),
    8: ((0, 1, 7, 3, 5, 2, 6, 4), (0, 2, 3, 6, 7, 4, 5, 1), (0, 3, 2, 5, 7, 1, 4, 6),
        (0, 4, 3, 1, 2, 7, 6, 5), (0, 5, 4, 2, 1, 6, 3, 7), (0, 6, 1, 5, 3, 4, 7, 2),
        (0, 7, 5, 6, 2, 4, 1, 3)),
}
SEATINGS = ("balanced", "cyclic")


def seat_orders(players: int, seating: str = "balanced") -> tuple[tuple[int, ...], ...]:
    """The cyclic seat orders of a table of ``players``: seat ``s`` of order ``o`` holds the
    pairing's bot ``pairing[o[s]]``. With 2 players (or ``seating = "cyclic"``) the one
    order; with a prime number of players the orders ``s -> s·m mod players`` for every
    ``m`` (bot ``i + m`` follows bot ``i``: each ordered pair once); else ``_SEARCHED``."""
    if seating == "cyclic" or players <= 2:
        return (tuple(range(players)),)
    if players in _SEARCHED:
        return _SEARCHED[players]
    return tuple(tuple(s * m % players for s in range(players)) for m in range(1, players))


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
    rotations); with the run's secret, from the seed and the secret."""
    kind = "board" if config.duplicate else "game"
    if config.secret:
        return derive_seed(config.seed, "secret", config.secret, kind, pairing, board)
    return derive_seed(config.seed, kind, pairing, board)


def order_index(config: TournamentConfig, pairing: int, board: int, count: int) -> int:
    """Which of the ``count`` seat orders ``board`` of ``pairing`` is played in."""
    step = board if config.duplicate else board // config.players
    return (step + pairing) % count


def follow_counts(config: TournamentConfig) -> list[list[int]]:
    """``counts[a][b]``: in how many games of the whole schedule bot ``a`` sits directly
    after bot ``b`` (in the next seat, the last seat followed by the first). Counted per
    pairing from how many boards use each seat order, never game by game."""
    bots, k = len(config.bots), config.players
    counts = [[0] * bots for _ in range(bots)]
    orders = seat_orders(k, config.seating)
    per_board = games_per_board(config)
    for p, pairing in enumerate(iter_pairings(config)):
        uses = [0] * len(orders)
        if config.duplicate:
            full, extra = divmod(config.games, len(orders))
        else:
            full, extra = divmod(config.games, k * len(orders))
        for j in range(len(orders)):
            uses[j] = full * (1 if config.duplicate else k)
        done = config.games - extra
        for board in range(done, config.games):  # the last, incomplete round of orders
            uses[order_index(config, p, board, len(orders))] += 1
        for order, used in zip(orders, uses, strict=True):
            if not used:
                continue
            for seat in range(k):
                before, after = pairing[order[seat]], pairing[order[(seat + 1) % k]]
                counts[after][before] += used * per_board
    return counts


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
    orders = seat_orders(k, config.seating)
    for board in range(first_board, config.games):
        pairs: Iterator[tuple[int, tuple[int, ...]]] = enumerate(iter_pairings(config))
        if skip >= per_board:  # whole pairings before ``start``
            skipped, skip = divmod(skip, per_board)
            pairs = itertools.islice(pairs, skipped, None)
            index += skipped * per_board
        for p, pairing in pairs:
            seed = board_seed(config, p, board)
            order = order_index(config, p, board, len(orders))
            seated = tuple(pairing[i] for i in orders[order])
            rotations = range(k) if config.duplicate else (board % k,)
            for rotation in rotations:
                if skip:
                    skip -= 1
                else:
                    yield Game(index, p, board, rotation, rotate(seated, rotation), seed,
                               order)
                index += 1


MAX_COUNTED = 20_000  # pairings: ``seating_lines`` does not count beyond this
MAX_TABLE = 10  # bots: ``seating_lines`` shows the whole table of counts up to this


def seating_lines(config: TournamentConfig) -> list[str]:
    """What ``trash tournament check`` says of who sits directly after whom (tables of 3
    and more): the seat orders, the fewest and most times an ordered pair occurs in the
    schedule and, for a few bots, every count."""
    k = config.players
    if k < 3:
        return []
    orders = len(seat_orders(k, config.seating))
    cycle = orders if config.duplicate else k * orders
    head = f"seating: {orders} seat orders per pairing"
    if pairing_count(config) > MAX_COUNTED:
        return [head + f" (balanced over every {cycle} boards; too many pairings to count)"]
    counts = follow_counts(config)
    bots = len(counts)
    values = [counts[a][b] for a in range(bots) for b in range(bots) if a != b]
    low, high = min(values), max(values)
    times = f"{low} times" if low == high else f"{low} to {high} times"
    balance = ("" if high - low <= 1 else f" (even with a multiple of {cycle} boards)")
    lines = [head + f"; each bot sits directly after each other {times}{balance}"]
    if bots <= MAX_TABLE:
        names = [clean(name, 12) for name in config.bot_names]
        width = max(5, *(len(n) for n in names))
        lines.append("  games where the row's bot sits directly after the column's:")
        lines.append("  " + " " * width + "".join(f" {n[:width]:>{width}}" for n in names))
        for a, name in enumerate(names):
            cells = "".join(f" {'-' if a == b else counts[a][b]:>{width}}"
                            for b in range(bots))
            lines.append(f"  {name:<{width}}{cells}")
    return lines
