"""Tournament statistics: hand-computed Elo/LOS/board values, GSPRT, BT/PL fits, bootstrap, Holm."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from trash_tui.stats import wilson_interval
from trash_tui.tournament.ratings import (
    board_stats,
    bootstrap_intervals,
    bradley_terry,
    elo_from_score,
    holm,
    match_stats,
    paired_difference,
    plackett_luce,
    score_from_elo,
    sprt_bounds,
    sprt_decision,
    sprt_llr,
)

approx = pytest.approx


def _expected(delta: float) -> float:
    """Logistic expected score for an Elo difference, written out independently."""
    return 1 / (1 + 10 ** (-delta / 400))


def _sample_order(rng: random.Random, strengths: Sequence[float]) -> list[int]:
    """A Plackett–Luce finishing order: pick each next place ∝ strength among those left."""
    left = list(range(len(strengths)))
    order = []
    while left:
        r = rng.random() * sum(strengths[p] for p in left)
        chosen = left[-1]
        for p in left:
            r -= strengths[p]
            if r <= 0:
                chosen = p
                break
        order.append(chosen)
        left.remove(chosen)
    return order


def _pairwise_wins(orders: Sequence[Sequence[int]]) -> dict[tuple[int, int], float]:
    """wins[(i, j)] from 2-player orders [winner, loser]."""
    return dict(Counter((a, b) for a, b in orders))


# --- Elo <-> score --------------------------------------------------------------------------


def test_elo_score_round_trip_and_infinities() -> None:
    # 0.75 → −400·log10(1/0.75 − 1) = 400·log10(3) = 190.85
    assert elo_from_score(0.75) == approx(190.848, abs=1e-3)
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    for elo in (-800.0, -70.0, 0.0, 5.0, 400.0):
        assert elo_from_score(score_from_elo(elo)) == approx(elo)
    # 400 Elo → 10:1 odds → 10/11
    assert score_from_elo(400) == approx(10 / 11)
    assert score_from_elo(-1e6) == 0.0 and score_from_elo(1e6) == 1.0  # no overflow
    with pytest.raises(ValueError):
        elo_from_score(1.5)


# --- independent games ----------------------------------------------------------------------


def test_match_stats_60_40_by_hand() -> None:
    s = match_stats(60, 40)
    # score = 60/100 = 0.6; Elo = 400·log10(0.6/0.4) = 400·0.176091 = 70.437
    assert s.games == 100 and s.score == approx(0.6)
    assert s.elo == approx(70.4365, abs=1e-3)
    # σ = sqrt(0.6·0.4² + 0.4·0.6²)/√100 = sqrt(0.096 + 0.144)/10 = 0.0489898
    # μ ± 1.959964σ = 0.6 ± 0.0960182 → 0.5039818 .. 0.6960182
    assert (s.score_low, s.score_high) == (approx(0.5039818), approx(0.6960182))
    # Elo(0.6960182) = 143.909, Elo(0.5039818) = 2.767 → ± = (143.909 − 2.767)/2 = 70.571
    assert s.elo_margin == approx(70.571, abs=1e-3)
    # LOS = ½ + ½·erf(20/√200) = ½ + ½·erf(1.41421) = ½ + ½·0.954500 = 97.725 %
    assert s.los == approx(97.725, abs=1e-3)
    assert s.significant  # 97.725 ≥ 97.5
    assert s.p_value == approx(0.0455, abs=1e-4)  # 2·(1 − 0.97725)
    assert s.draw_ratio == 0.0


def test_match_stats_wilson_cross_check() -> None:
    s = match_stats(60, 40)
    # Wilson(60/100): centre = (0.6 + 3.8415/200)/1.038415 = 0.596303,
    # half = 1.959964/1.038415·sqrt(0.0024 + 3.8415/40000) = 0.094298 → 0.50200 .. 0.69060
    assert s.win_interval == wilson_interval(60, 100)
    assert s.win_interval == (approx(0.50200, abs=1e-5), approx(0.69060, abs=1e-5))
    # Without draws the score is the win rate: the Wald and Wilson intervals nearly agree.
    assert abs(s.score_low - s.win_interval[0]) < 0.01
    assert abs(s.score_high - s.win_interval[1]) < 0.01


def test_match_stats_with_draws() -> None:
    s = match_stats(30, 20, 50)
    # μ = 0.3 + 0.5/2 = 0.55; σ² = (0.3·0.45² + 0.2·0.55² + 0.5·0.05²)/100
    #    = (0.06075 + 0.0605 + 0.00125)/100 = 0.001225 → σ = 0.035
    assert s.score == approx(0.55)
    assert (s.score_high - s.score_low) / 2 == approx(1.959964 * 0.035, abs=1e-6)
    assert s.draw_ratio == 0.5
    # LOS ignores draws: ½ + ½·erf(10/√100) = ½ + ½·erf(1) = ½ + ½·0.842701 = 92.135 %
    assert s.los == approx(92.135, abs=1e-3)
    assert not s.significant


def test_match_stats_edge_cases() -> None:
    none = match_stats(0, 0)
    assert none.games == 0 and none.score is None and none.elo is None
    assert none.elo_margin is None and none.los is None and not none.significant
    assert none.win_interval == (0.0, 1.0)

    all_wins = match_stats(10, 0)
    assert all_wins.score == 1.0 and all_wins.elo == math.inf
    assert all_wins.elo_margin == math.inf
    # ½ + ½·erf(10/√20) = ½ + ½·erf(2.2361) = 99.92 %
    assert all_wins.los == approx(99.922, abs=1e-3) and all_wins.significant

    all_losses = match_stats(0, 7)
    assert all_losses.elo == -math.inf and all_losses.elo_margin == math.inf
    assert all_losses.significant

    draws = match_stats(0, 0, 5)
    assert draws.score == 0.5 and draws.elo == 0.0 and draws.elo_margin == 0.0
    assert draws.los == 50.0 and draws.p_value == 1.0 and not draws.significant

    # μ = 0.99, σ = sqrt(0.99·0.01/100) = 0.00995: μ + 1.96σ > 1 → the margin is unbounded.
    assert match_stats(99, 1).elo_margin == math.inf
    with pytest.raises(ValueError):
        match_stats(-1, 3)


# --- duplicate boards -----------------------------------------------------------------------


def test_board_stats_by_hand() -> None:
    s = board_stats([1, 0.5, 0.5, 0, 1])
    # mean = 3/5 = 0.6; deviations 0.4, −0.1, −0.1, −0.6, 0.4; squares sum to 0.70
    # s² = 0.70/4 = 0.175, s = 0.418330; SE = s/√5 = 0.187083
    assert s.boards == 5 and s.mean == approx(0.6)
    assert s.sd == approx(0.418330, abs=1e-6) and s.se == approx(0.187083, abs=1e-6)
    # CI = 0.6 ± 1.959964·0.187083 = 0.6 ± 0.366676 → 0.233324 .. 0.966676
    assert (s.low, s.high) == (approx(0.233324, abs=1e-6), approx(0.966676, abs=1e-6))
    # Elo = 400·log10(1.5) = 70.437; ± = (Elo(0.966676) − Elo(0.233324))/2
    #     = (585.008 + 206.661)/2 = 395.834
    assert s.elo == approx(70.4365, abs=1e-3)
    assert s.elo_margin == approx(395.834, abs=1e-3)
    # LOS = Φ(0.1/0.187083) = Φ(0.534522) = 70.351 %
    assert s.los == approx(70.351, abs=1e-3)
    assert s.excess == approx(0.1)
    assert (s.excess_low, s.excess_high) == (approx(-0.266676, abs=1e-6),
                                             approx(0.466676, abs=1e-6))
    assert not s.significant


def test_board_stats_multiplayer_fair_share() -> None:
    # 4 players, fair share ¼. Scores: 0.5 ×4, 0.25 ×4 → mean 0.375, excess 0.125
    # deviations ±0.125, s² = 8·0.015625/7 = 0.0178571, SE = sqrt(0.0178571/8) = 0.0472456
    s = board_stats([0.5, 0.25] * 4, fair=0.25)
    assert s.mean == approx(0.375) and s.excess == approx(0.125)
    assert s.se == approx(0.0472456, abs=1e-6)
    # LOS = Φ(0.125/0.0472456) = Φ(2.6458) = 99.592 %; 95 % CI 0.2824 .. 0.4676 excludes ¼
    assert s.los == approx(99.592, abs=1e-3)
    assert s.significant
    assert s.elo is None and s.elo_margin is None  # Elo only for 2 players


def test_board_stats_edge_cases() -> None:
    empty = board_stats([])
    assert empty.boards == 0 and empty.mean is None and not empty.significant
    one = board_stats([1.0])
    assert one.mean == 1.0 and one.elo == math.inf and one.se is None and one.los is None
    perfect = board_stats([1.0, 1.0, 1.0])
    assert perfect.se == 0.0 and perfect.los == 100.0 and perfect.elo_margin == math.inf
    assert perfect.significant
    with pytest.raises(ValueError):
        board_stats([0.5, 1.2])


def test_paired_difference_by_hand() -> None:
    d = paired_difference([1, 0.5, 1, 0.5], [0.5, 0.5, 0, 0.5])
    # d = 0.5, 0, 1, 0 → mean 0.375; squares of deviations 0.015625 + 0.140625 + 0.390625
    # + 0.140625 = 0.6875; var = 0.6875/3 = 0.229167; SE = sqrt(0.229167/4) = 0.239357
    assert d.boards == 4 and d.mean == approx(0.375) and d.se == approx(0.239357, abs=1e-6)
    # CI = 0.375 ± 0.469131 → −0.094131 .. 0.844131; LOS = Φ(1.566699) = 94.141 %
    assert (d.low, d.high) == (approx(-0.094131, abs=1e-6), approx(0.844131, abs=1e-6))
    assert d.los == approx(94.141, abs=1e-3)
    assert d.p_value == approx(0.117185, abs=1e-5)
    assert not d.significant
    assert paired_difference([1] * 6, [0.5, 0, 0.5, 0, 0.5, 0]).significant
    assert paired_difference([], []).mean is None
    with pytest.raises(ValueError):
        paired_difference([1, 0], [1])


# --- GSPRT ----------------------------------------------------------------------------------


def test_sprt_bounds_and_decision() -> None:
    # ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = +2.944439
    lower, upper = sprt_bounds(0.05, 0.05)
    assert (lower, upper) == (approx(-2.944439, abs=1e-6), approx(2.944439, abs=1e-6))
    assert sprt_decision(3.0, 0.05, 0.05) == "H1"
    assert sprt_decision(-3.0, 0.05, 0.05) == "H0"
    assert sprt_decision(0.0, 0.05, 0.05) is None
    with pytest.raises(ValueError):
        sprt_bounds(0.0, 0.05)


def test_sprt_llr_by_hand_and_sign() -> None:
    scores = [1.0, 0.5] * 50
    # x̄ = 0.75; σ̂² = 0.25² = 0.0625; s0 = 0.5; s1 = 1/(1 + 10^−0.025) = 0.514387
    # LLR = 100·0.014387·(1.5 − 1.014387)/(2·0.0625) = 5.5892
    assert sprt_llr(scores, 0, 10) == approx(5.5893, abs=1e-3)
    assert sprt_decision(sprt_llr(scores, 0, 10), 0.05, 0.05) == "H1"
    # x̄ = ½ lies below the midpoint (s0 + s1)/2: evidence for H0
    assert sprt_llr([1.0, 0.0, 0.5, 0.5] * 25, 0, 10) < 0
    assert sprt_llr([1.0], 0, 10) == 0.0  # no spread yet: no evidence
    assert sprt_llr([0.5, 0.5, 0.5], 0, 10) == 0.0


# --- ratings --------------------------------------------------------------------------------


TRUE_ELO = (0.0, 100.0, 200.0)


def _expected_counts(games: float = 1000.0) -> dict[tuple[int, int], float]:
    """wins[(i, j)] = games·P(i beats j) for the true ratings 0/100/200."""
    wins = {}
    for i, ei in enumerate(TRUE_ELO):
        for j, ej in enumerate(TRUE_ELO):
            if i != j:
                wins[(i, j)] = games * _expected(ei - ej)  # e.g. P(1 beats 0) = 0.640065
    return wins


def test_bradley_terry_recovers_known_strengths() -> None:
    ratings = bradley_terry(_expected_counts(), 3)
    assert sum(ratings) == approx(0.0, abs=1e-9)
    # true, centred: −100, 0, +100; the prior (½ win + ½ loss each) shrinks by < 0.1 Elo
    for fitted, true in zip(ratings, (-100.0, 0.0, 100.0), strict=True):
        assert fitted == approx(true, abs=2.0)
    tiny_prior = bradley_terry(_expected_counts(), 3, prior=1e-6)
    for fitted, true in zip(tiny_prior, (-100.0, 0.0, 100.0), strict=True):
        assert fitted == approx(true, abs=1e-3)


def test_bradley_terry_is_finite_without_wins_or_losses() -> None:
    ratings = bradley_terry({(0, 1): 10}, 3)  # 1 never wins, 0 never loses, 2 never plays
    assert all(math.isfinite(r) for r in ratings)
    assert ratings[0] > ratings[2] > ratings[1]
    assert bradley_terry({}, 2) == [0.0, 0.0]
    assert bradley_terry({}, 1) == [0.0] and bradley_terry({}, 0) == []
    with pytest.raises(ValueError):
        bradley_terry({(0, 0): 1}, 2)


def test_plackett_luce_recovers_known_strengths() -> None:
    true = (0.0, 50.0, 100.0, 150.0)  # centred: −75, −25, 25, 75
    strengths = [10 ** (e / 400) for e in true]
    rng = random.Random(2024)
    orders = [_sample_order(rng, strengths) for _ in range(3000)]
    ratings = plackett_luce(orders, 4)
    assert sum(ratings) == approx(0.0, abs=1e-9)
    for fitted, expected in zip(ratings, (-75.0, -25.0, 25.0, 75.0), strict=True):
        assert fitted == approx(expected, abs=30.0)
    assert ratings == sorted(ratings)


def test_plackett_luce_equals_bradley_terry_on_two_player_orders() -> None:
    rng = random.Random(11)
    strengths = [10 ** (e / 400) for e in TRUE_ELO]
    orders = []
    for _ in range(600):
        pair = rng.sample(range(3), 2)
        places = _sample_order(rng, [strengths[p] for p in pair])  # positions within the pair
        orders.append([pair[k] for k in places])
    pl = plackett_luce(orders, 3)
    bt = bradley_terry(_pairwise_wins(orders), 3)
    assert pl == approx(bt, abs=1e-6)


def test_plackett_luce_is_finite_for_a_player_who_always_wins() -> None:
    ratings = plackett_luce([[0, 1, 2], [0, 2, 1]] * 5, 3)
    assert all(math.isfinite(r) for r in ratings)
    assert ratings[0] == max(ratings)
    with pytest.raises(ValueError):
        plackett_luce([[0, 0, 1]], 3)


def test_bootstrap_intervals_are_deterministic_and_cover_the_estimate() -> None:
    strengths = [10 ** (e / 400) for e in (0.0, 60.0, 120.0)]
    rng = random.Random(5)
    # a board: one deal played in 3 rotations → 3 finishing orders
    boards = [[_sample_order(rng, strengths) for _ in range(3)] for _ in range(150)]

    def fit(sample: Sequence[list[list[int]]]) -> list[float]:
        return plackett_luce([order for board in sample for order in board], 3)

    point = fit(boards)
    first = bootstrap_intervals(boards, fit, rounds=60, seed=9)
    assert first == bootstrap_intervals(boards, fit, rounds=60, seed=9)
    assert first != bootstrap_intervals(boards, fit, rounds=60, seed=10)
    for (low, high), estimate in zip(first, point, strict=True):
        assert low <= estimate <= high
    narrow = bootstrap_intervals(boards, fit, rounds=60, seed=9, level=0.5)
    for (low, high), (wide_low, wide_high) in zip(narrow, first, strict=True):
        assert wide_low <= low <= high <= wide_high
    with pytest.raises(ValueError):
        bootstrap_intervals([], fit, rounds=10, seed=1)


# --- multiple comparisons -------------------------------------------------------------------


def test_holm_known_example() -> None:
    # sorted: 0.005 ≤ 0.05/4 = 0.0125 ✓, 0.01 ≤ 0.05/3 = 0.0167 ✓, 0.03 > 0.05/2 = 0.025 ✗ stop
    assert holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    # 0.001 ≤ 0.05/2 ✓, then 0.04 ≤ 0.05/1 ✓ (plain Bonferroni, 0.04 > 0.025, would keep it)
    assert holm([0.04, 0.001]) == [True, True]
    assert holm([]) == []
    assert holm([0.2, 0.5]) == [False, False]
