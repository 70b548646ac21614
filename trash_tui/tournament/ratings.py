"""Statistics for bot tournaments: Elo, LOS, per-board (duplicate) scores, GSPRT and ratings.

The formulas follow cutechess-cli (independent games: trinomial Elo ± and LOS), fastchess and
fishtest (per-board scores: the unit of sampling is a board, i.e. one deal played once for every
seat rotation), the fishtest GSPRT normal approximation, and Hunter (2004) MM algorithms for
Bradley–Terry (pairwise wins) and Plackett–Luce (finishing orders). Confidence intervals are 95 %
normal intervals; ratings get intervals from a bootstrap over boards.

Conventions for degenerate data:

* An Elo value is a float, ``math.inf`` / ``-math.inf`` when the score is 1 / 0.
* An Elo margin is ``math.inf`` when the score interval reaches 0 or 1 (it is unbounded in Elo).
* A statistic that cannot be computed at all (no games, no boards, a spread from one board) is
  ``None``, and ``significant`` is then False.
* LOS values are percentages (0–100), as cutechess prints them.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal, TypeVar

from trash_tui.stats import Z95, mean_interval, wilson_interval

T = TypeVar("T")

_NORMAL = NormalDist()
_LOS_LOW, _LOS_HIGH = 2.5, 97.5  # percent: a two-sided 95 % test on the LOS


# ---------------------------------------------------------------------------------------------
# Elo <-> score


def elo_from_score(score: float) -> float:
    """The logistic Elo difference for an expected score: −400·log10(1/score − 1); ±inf at 1/0."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score must lie in [0, 1], not {score}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def score_from_elo(elo: float) -> float:
    """The expected score for a logistic Elo difference: 1/(1 + 10^(−elo/400)), overflow-safe."""
    if math.isnan(elo):
        raise ValueError("an Elo difference cannot be NaN")
    if elo >= 0:
        return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))
    odds = 10.0 ** (elo / 400.0)
    return odds / (1.0 + odds)


def _elo_margin(low: float, high: float) -> float:
    """Half the width in Elo of a score interval; inf when the interval reaches 0 or 1."""
    low, high = max(0.0, low), min(1.0, high)
    if low <= 0.0 or high >= 1.0:
        return math.inf
    return (elo_from_score(high) - elo_from_score(low)) / 2.0


def _two_sided_p(los_percent: float) -> float:
    """The two-sided p-value that matches a LOS (in percent) from a normal test statistic."""
    los = los_percent / 100.0
    return min(1.0, 2.0 * min(los, 1.0 - los))


def _normal_los(excess: float, se: float) -> float:
    """LOS in percent, Φ(excess/SE); a zero SE gives 100, 0 or 50 by the sign of the excess."""
    if se > 0.0:
        return 100.0 * _NORMAL.cdf(excess / se)
    return 100.0 if excess > 0 else 0.0 if excess < 0 else 50.0


def _check_scores(scores: Sequence[float]) -> None:
    """Reject per-board scores outside [0, 1]."""
    for x in scores:
        if not 0.0 <= x <= 1.0:
            raise ValueError(f"a board score must lie in [0, 1], not {x}")


# ---------------------------------------------------------------------------------------------
# Independent 2-player games (cutechess)


@dataclass(frozen=True)
class PairStats:
    """Cutechess-style result of one bot against another over independent games.

    ``score``/``elo``/… are None with no games; see the module docstring for infinities.
    """

    wins: int
    losses: int
    draws: int
    games: int
    score: float | None  # (W + D/2)/N
    score_low: float | None  # score ± 1.96σ (trinomial σ), clamped to [0, 1]
    score_high: float | None
    elo: float | None  # Elo(score)
    elo_margin: float | None  # (Elo(μ+1.96σ) − Elo(μ−1.96σ))/2
    los: float | None  # percent; 50 when no game was decisive
    draw_ratio: float | None  # D/N
    win_interval: tuple[float, float]  # Wilson 95 % interval of the win rate W/N
    p_value: float | None  # two-sided, from the LOS
    significant: bool  # LOS ≥ 97.5 % or ≤ 2.5 %


def match_stats(wins: int, losses: int, draws: int = 0) -> PairStats:
    """Score, Elo ± (95 %), LOS and draw ratio of W-L-D over independent games (cutechess)."""
    if min(wins, losses, draws) < 0:
        raise ValueError("win, loss and draw counts must not be negative")
    games = wins + losses + draws
    win_interval = wilson_interval(wins, games)
    if games == 0:
        return PairStats(wins, losses, draws, 0, None, None, None, None, None, None, None,
                         win_interval, None, False)
    win, loss, draw = wins / games, losses / games, draws / games
    mu = win + draw / 2
    variance = win * (1 - mu) ** 2 + loss * mu**2 + draw * (0.5 - mu) ** 2
    sigma = math.sqrt(variance / games)
    low, high = mu - Z95 * sigma, mu + Z95 * sigma
    decisive = wins + losses
    if decisive:
        los = 100.0 * (0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2 * decisive)))
    else:
        los = 50.0
    return PairStats(
        wins=wins, losses=losses, draws=draws, games=games,
        score=mu, score_low=max(0.0, low), score_high=min(1.0, high),
        elo=elo_from_score(mu), elo_margin=_elo_margin(low, high),
        los=los, draw_ratio=draw, win_interval=win_interval,
        p_value=_two_sided_p(los), significant=los >= _LOS_HIGH or los <= _LOS_LOW,
    )


# ---------------------------------------------------------------------------------------------
# Duplicate boards


@dataclass(frozen=True)
class BoardStats:
    """A bot's mean per-board score with a 95 % interval, Elo (2 players) and LOS.

    ``mean`` is None with no boards; the spread-based fields (``se``, intervals, ``elo_margin``,
    ``los``, ``p_value``) are None with fewer than 2 boards. ``elo``/``elo_margin`` are only
    given for a fair share of ½ (2 players); they are None otherwise.
    """

    boards: int
    fair: float
    mean: float | None
    sd: float | None  # sample standard deviation of the board scores
    se: float | None  # sd/√B
    low: float | None  # mean ± 1.96·SE, clamped to [0, 1]
    high: float | None
    elo: float | None
    elo_margin: float | None
    los: float | None  # percent, Φ((mean − fair)/SE)
    excess: float | None  # mean − fair
    excess_low: float | None
    excess_high: float | None
    p_value: float | None  # two-sided, H0: mean = fair
    significant: bool  # the 95 % interval excludes the fair share


def _mean_and_se(values: Sequence[float]) -> tuple[float, float | None]:
    """Mean and standard error (None for fewer than 2 values), via trash_tui.stats."""
    mean, _, high = mean_interval(list(values), z=1.0)
    return mean, (high - mean if len(values) > 1 else None)


def board_stats(scores: Sequence[float], fair: float = 0.5) -> BoardStats:
    """Statistics of per-board scores x_b ∈ [0, 1] (the bot's mean result over a board's seats)."""
    _check_scores(scores)
    boards = len(scores)
    if boards == 0:
        return BoardStats(0, fair, *([None] * 12), significant=False)
    mean, se = _mean_and_se(scores)
    elo = elo_from_score(mean) if fair == 0.5 else None
    if se is None:
        return BoardStats(boards, fair, mean, None, None, None, None, elo, None, None,
                          mean - fair, None, None, None, significant=False)
    low, high = max(0.0, mean - Z95 * se), min(1.0, mean + Z95 * se)
    los = _normal_los(mean - fair, se)
    return BoardStats(
        boards=boards, fair=fair, mean=mean, sd=se * math.sqrt(boards), se=se,
        low=low, high=high,
        elo=elo, elo_margin=_elo_margin(low, high) if fair == 0.5 else None,
        los=los, excess=mean - fair, excess_low=low - fair, excess_high=high - fair,
        p_value=_two_sided_p(los), significant=not low <= fair <= high,
    )


@dataclass(frozen=True)
class PairedDifference:
    """Mean per-board score difference A − B over boards both bots sat at, with a 95 % CI.

    ``mean`` is None with no boards; ``se``, the interval, ``los`` and ``p_value`` are None with
    fewer than 2 boards.
    """

    boards: int
    mean: float | None
    se: float | None
    low: float | None
    high: float | None
    los: float | None  # percent, Φ(mean/SE): the likelihood that A is the better bot
    p_value: float | None  # two-sided, H0: no difference
    significant: bool


def paired_difference(a_scores: Sequence[float], b_scores: Sequence[float]) -> PairedDifference:
    """Paired difference d_b = x_b(A) − x_b(B); the two lists are indexed by the same boards."""
    if len(a_scores) != len(b_scores):
        raise ValueError("paired scores need the same boards for both bots")
    _check_scores(a_scores)
    _check_scores(b_scores)
    diffs = [a - b for a, b in zip(a_scores, b_scores, strict=True)]
    if not diffs:
        return PairedDifference(0, None, None, None, None, None, None, False)
    mean, se = _mean_and_se(diffs)
    if se is None:
        return PairedDifference(1, mean, None, None, None, None, None, False)
    low, high = mean - Z95 * se, mean + Z95 * se
    los = _normal_los(mean, se)
    return PairedDifference(len(diffs), mean, se, low, high, los, _two_sided_p(los),
                            significant=not low <= 0.0 <= high)


# ---------------------------------------------------------------------------------------------
# Sequential test (GSPRT, normal approximation)


def sprt_llr(scores: Sequence[float], elo0: float, elo1: float) -> float:
    """GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) from per-board scores.

    LLR = N·(s1 − s0)(2x̄ − s0 − s1)/(2σ̂²) with s = score_from_elo(elo) and σ̂² the per-board
    variance (the empirical, divide-by-N variance, as fishtest's LLR_alt2). While the spread
    cannot be estimated (fewer than 2 boards, or all boards equal) the LLR is 0.0: no evidence.
    """
    _check_scores(scores)
    n = len(scores)
    if n < 2:
        return 0.0
    mean = sum(scores) / n
    variance = sum((x - mean) ** 2 for x in scores) / n
    if variance <= 0.0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds (ln(β/(1−α)), ln((1−β)/α)): ±2.944 for α = β = 0.05."""
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
        raise ValueError("need 0 < alpha, beta < 1 and alpha + beta < 1")
    return (math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))


def sprt_decision(llr: float, alpha: float, beta: float) -> Literal["H0", "H1"] | None:
    """"H1" when the LLR reaches the upper bound, "H0" at the lower bound, else None (go on)."""
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return None


# ---------------------------------------------------------------------------------------------
# Batch ratings (Hunter 2004 MM algorithms)
#
# Prior: every player gets `prior` virtual wins and `prior` virtual losses in all, spread evenly
# over its n − 1 opponents (prior/(n − 1) virtual wins for each ordered pair i, j). This keeps
# every rating finite when a player never wins or never loses (or plays no games), connects the
# comparison graph, and shrinks ratings slightly towards each other; with thousands of games the
# effect is tiny. The prior is symmetric, so the likelihood stays invariant to a common scaling
# of the strengths, and each iteration renormalizes them (geometric mean 1).


def _centred_elo(strengths: Sequence[float]) -> list[float]:
    """Elo-scale ratings 400·log10(γ), shifted so that their mean is 0."""
    ratings = [400.0 * math.log10(g) for g in strengths]
    if not ratings:
        return []
    shift = sum(ratings) / len(ratings)
    return [r - shift for r in ratings]


def _normalized(strengths: Sequence[float]) -> list[float]:
    """Strengths divided by their geometric mean (the fits are scale-invariant)."""
    log_mean = sum(math.log(g) for g in strengths) / len(strengths)
    return [g / math.exp(log_mean) for g in strengths]


def _max_log_change(old: Sequence[float], new: Sequence[float]) -> float:
    """The largest change |ln γ_new − ln γ_old| over players (0 for no players)."""
    return max((abs(math.log(b / a)) for a, b in zip(old, new, strict=True)), default=0.0)


def _check_fit_args(n: int, prior: float, iterations: int) -> None:
    """Validate the common arguments of the rating fits."""
    if n < 0:
        raise ValueError("the number of players must not be negative")
    if not prior > 0.0:
        raise ValueError("the prior must be positive (it keeps ratings finite)")
    if iterations < 1:
        raise ValueError("iterations must be at least 1")


def bradley_terry(
    wins: Mapping[tuple[int, int], float],
    n: int,
    iterations: int = 10_000,
    prior: float = 0.5,
    tolerance: float = 1e-10,
) -> list[float]:
    """Bradley–Terry Elo ratings (mean 0) from pairwise wins; wins[(i, j)] = times i beat j.

    Hunter's MM update γ_i ← W_i / Σ_j n_ij/(γ_i + γ_j), with the symmetric prior described
    above. Iterates until no ln γ moves by more than ``tolerance`` (or ``iterations`` run out).
    """
    _check_fit_args(n, prior, iterations)
    if n < 2:
        return [0.0] * n
    virtual = prior / (n - 1)
    beat = [[0.0 if i == j else virtual for j in range(n)] for i in range(n)]
    for (i, j), count in wins.items():
        if not (0 <= i < n and 0 <= j < n) or i == j:
            raise ValueError(f"bad pair {(i, j)} for {n} players")
        if count < 0:
            raise ValueError(f"negative win count for {(i, j)}")
        beat[i][j] += count
    total_wins = [sum(row) for row in beat]
    games = [[beat[i][j] + beat[j][i] for j in range(n)] for i in range(n)]
    gamma = [1.0] * n
    for _ in range(iterations):
        new = _normalized([
            total_wins[i] / sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(n) if j != i)
            for i in range(n)
        ])
        done = _max_log_change(gamma, new) < tolerance
        gamma = new
        if done:
            break
    return _centred_elo(gamma)


def _weighted_orders(
    orders: Sequence[Sequence[int]], n: int, prior: float
) -> Counter[tuple[int, ...]]:
    """Identical orders merged into weights, plus the prior's virtual 2-player orders."""
    weights: Counter[tuple[int, ...]] = Counter()
    for order in orders:
        order = tuple(order)
        if len(set(order)) != len(order) or any(not 0 <= p < n for p in order):
            raise ValueError(f"bad finishing order {order} for {n} players")
        if len(order) >= 2:  # a lone player's "order" carries no information
            weights[order] += 1
    for i in range(n):
        for j in range(n):
            if i != j:
                weights[(i, j)] += prior / (n - 1)
    return weights


def plackett_luce(
    orders: Sequence[Sequence[int]],
    n: int,
    iterations: int = 10_000,
    prior: float = 0.5,
    tolerance: float = 1e-10,
) -> list[float]:
    """Plackett–Luce Elo ratings (mean 0) from finishing orders (player indices, best first).

    Hunter's MM update γ_i ← w_i / Σ_orders Σ_{stages s with i still in} 1/Σ_{t ≥ s} γ_t, where
    w_i counts the stages i won (every place but last); same symmetric prior as
    ``bradley_terry``, with which it agrees on 2-player orders. Identical orders are merged.
    """
    _check_fit_args(n, prior, iterations)
    weights = _weighted_orders(orders, n, prior)
    if n < 2:
        return [0.0] * n
    stage_wins = [0.0] * n
    for order, weight in weights.items():
        for player in order[:-1]:
            stage_wins[player] += weight
    gamma = [1.0] * n
    for _ in range(iterations):
        denominators = [0.0] * n
        for order, weight in weights.items():
            remaining = sum(gamma[p] for p in order)
            running = 0.0  # Σ over the stages so far of weight/(strength still in play)
            for place, player in enumerate(order):
                if place < len(order) - 1:
                    running += weight / remaining
                    remaining -= gamma[player]
                denominators[player] += running
        new = _normalized([stage_wins[i] / denominators[i] for i in range(n)])
        done = _max_log_change(gamma, new) < tolerance
        gamma = new
        if done:
            break
    return _centred_elo(gamma)


# ---------------------------------------------------------------------------------------------
# Bootstrap and multiple comparisons


def _percentile(ordered: Sequence[float], q: float) -> float:
    """The q-quantile (0 ≤ q ≤ 1) of sorted values, interpolating linearly between ranks."""
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    fraction = position - below
    return ordered[below] + (ordered[above] - ordered[below]) * fraction


def bootstrap_intervals(
    groups: Sequence[T],
    fit: Callable[[Sequence[T]], list[float]],
    rounds: int,
    seed: int,
    level: float = 0.95,
) -> list[tuple[float, float]]:
    """Per-player percentile intervals from refitting on groups (boards) drawn with replacement.

    ``random.Random(seed)`` draws the resamples (through ``random()``, which Python keeps stable
    across versions), so the intervals are deterministic for a seed.
    """
    if not groups:
        raise ValueError("the bootstrap needs at least one group")
    if rounds < 1:
        raise ValueError("the bootstrap needs at least one round")
    if not 0.0 < level < 1.0:
        raise ValueError("the level must lie strictly between 0 and 1")
    rng = random.Random(seed)
    estimates = [fit(rng.choices(groups, k=len(groups))) for _ in range(rounds)]
    tail = (1.0 - level) / 2.0
    intervals = []
    for column in zip(*estimates, strict=True):
        ordered = sorted(column)
        intervals.append((_percentile(ordered, tail), _percentile(ordered, 1.0 - tail)))
    return intervals


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm–Bonferroni: which hypotheses are rejected at family-wise level alpha (input order)."""
    m = len(p_values)
    rejected = [False] * m
    for rank, index in enumerate(sorted(range(m), key=lambda k: p_values[k])):
        if p_values[index] > alpha / (m - rank):
            break
        rejected[index] = True
    return rejected
