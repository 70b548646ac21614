"""The bots as a user sees them: legal play under every house rule, loading a user's own bot,
reproducibility, the ladder's behaviour on crafted positions, the runner's checks, the CLI.

Crafted positions are real deals of stacked decks (see ``tests/helpers.py``), always
completed to the table's full set of cards so that the expert can sample them.

With the environment variable ``CI`` set, Hypothesis runs derandomized (the same examples on
every run); locally it explores new examples each time.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any, ClassVar

import pytest
from helpers import cards, complete, play, stack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bots.base import Bot, BotError
from bots.expert import ExpertBot
from bots.ladder import MISTAKES, CounterBot, GreedyBot
from bots.registry import REGISTRY, find_bot, make_bot, parse_spec
from bots.runner import BotFailure, ask, play_deal, play_match
from trash_tui.cards import build_deck, decks_for, rank_of
from trash_tui.engine.actions import (
    CALL,
    DRAW_DISCARD,
    DRAW_STOCK,
    KEEP,
    SILENT,
    SWAP,
    WILD_BASE,
    wild_action,
)
from trash_tui.engine.deal import Deal
from trash_tui.engine.match import Match
from trash_tui.engine.observation import Observation
from trash_tui.engine.record import match_record
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.rules import Rules
from trash_tui.tournament.ratings import board_stats

ROOT = Path(__file__).resolve().parent.parent
CAUTIOUS = ROOT / "bots" / "examples" / "cautious.py"
README = ROOT / "bots" / "README.md"

# --- Hypothesis profiles --------------------------------------------------------------------------
settings.register_profile(
    "trash-bots-ci", derandomize=True, database=None, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "trash-bots-dev", deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PROFILE = settings.get_profile("trash-bots-ci" if os.environ.get("CI") else "trash-bots-dev")

# Every registry bot, the expert kept small so that whole matches stay fast.
FAST_SPECS: dict[str, dict[str, Any]] = {name: {"name": name} for name in REGISTRY}
FAST_SPECS["expert"] = {"name": "expert", "samples": 4, "budget": 0.02}
CHEAP = sorted(name for name in REGISTRY if name != "expert")  # company for the bot tested


# --- recording bots -------------------------------------------------------------------------------
class Recorder(Bot):
    """Wraps a bot: passes every call on and records the hooks and each decision."""

    name = "recorder"

    def __init__(self, inner: Bot) -> None:
        super().__init__(0)
        self.inner = inner
        self.decisions: list[tuple[Observation, tuple[int, ...], int]] = []
        self.hooks: list[tuple[Any, ...]] = []

    def describe(self) -> str:
        return self.inner.describe()

    def start_match(self, seat: int, players: int, rules: Rules) -> None:
        super().start_match(seat, players, rules)
        self.hooks.append(("start_match", seat, players, rules))
        self.inner.start_match(seat, players, rules)

    def start_deal(self, observation: Observation) -> None:
        self.hooks.append(("start_deal", observation))
        self.inner.start_deal(observation)

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        action = self.inner.choose(observation, legal)
        self.decisions.append((observation, tuple(legal), action))
        return action

    def end_deal(self, observation: Observation) -> None:
        self.hooks.append(("end_deal", observation))
        self.inner.end_deal(observation)

    def end_match(self, places: Sequence[int]) -> None:
        self.hooks.append(("end_match", list(places)))
        self.inner.end_match(places)

    def answers(self) -> list[int]:
        return [action for _, _, action in self.decisions]


def recorders(specs: Sequence[str | dict[str, Any]], seeds: Sequence[int]) -> list[Recorder]:
    return [Recorder(make_bot(spec, seed=seed)) for spec, seed in zip(specs, seeds, strict=True)]


def unseen_naturals(observation: Observation, slot: int) -> int:
    """Copies of the natural card of ``slot`` (rank == slot) this seat cannot see: counted
    here independently of ``bots.counting``."""
    counts = Counter(rank_of(c) for c in build_deck(decks_for(observation.players),
                                                    observation.rules.jokers))
    seen = [c for layout in observation.layouts for c in layout if c is not None]
    seen += observation.discard
    if observation.hand is not None:
        seen.append(observation.hand)
    counts.subtract(rank_of(c) for c in seen)
    return counts[slot]


def check_decisions(name: str, recorder: Recorder, seat: int) -> None:
    """Every answer is legal; and what the ladder promises for ``name``'s decisions."""
    for observation, legal, action in recorder.decisions:
        assert observation.seat == seat and observation.to_move == seat
        assert legal and legal == observation.legal
        assert type(action) is int and action in legal, (name, observation.decision, legal,
                                                         action)
        decision = observation.decision
        top = observation.discard_top
        fits = top is not None and observation.fits(top)
        if decision == "draw" and action == DRAW_DISCARD and name != "random":
            assert fits, f"{name} took a discard that fits nowhere (a pass)"
        if name not in ("greedy", "counter"):
            continue
        if decision == "draw":
            assert (action == DRAW_DISCARD) == (DRAW_DISCARD in legal and fits), name
        elif decision == "swap":
            assert action == SWAP
        elif decision == "call":
            assert action == CALL
        else:
            assert decision == "wild"
            open_slots = observation.face_down_slots()
            assert sorted(a - WILD_BASE for a in legal) == open_slots
            slot = action - WILD_BASE
            if name == "greedy":
                assert slot == min(open_slots)
            else:
                fewest = min(unseen_naturals(observation, s) for s in open_slots)
                scarcest = [s for s in open_slots if unseen_naturals(observation, s) == fewest]
                assert slot == max(scarcest), (slot, scarcest)


def check_hooks(recorder: Recorder | HookBot, seat: int, players: int, match: Match) -> None:
    """start_match once, then start_deal/end_deal for each deal (void ones too), end_match."""
    hooks = recorder.hooks
    assert hooks[0][0] == "start_match" and hooks[0][1:3] == (seat, players)
    assert hooks[-1] == ("end_match", match.result.places)
    middle = hooks[1:-1]
    assert [h[0] for h in middle] == ["start_deal", "end_deal"] * len(match.history)
    for summary, end in zip(match.history, middle[1::2], strict=True):
        observation = end[1]
        assert observation.seat == seat
        assert observation.voided == summary.voided
        assert observation.shrinking == summary.shrinking


# --- legal play under every house rule ------------------------------------------------------------
@st.composite
def tables(draw: st.DrawFn) -> tuple[int, Rules]:
    """2 to 5 players and valid house rules; short matches (few deals, or small layouts)."""
    players = draw(st.integers(2, 5))
    start = draw(st.integers(1, 10))
    rules = Rules(
        wilds=draw(st.sampled_from(("jacks", "kings", "faces", "none"))),
        jokers=draw(st.booleans()),
        start_size=start,
        target_size=draw(st.one_of(st.just(0), st.integers(0, start - 1))),
        max_deals=draw(st.integers(0 if start <= 3 else 1, 4)),
        first_player=draw(st.sampled_from(("winner", "rotate"))),
        discard_draw=draw(st.sampled_from(("any", "playable", "never"))),
        last_turn=draw(st.booleans()),
        lucky_reveal=draw(st.booleans()),
        free_draws=draw(st.integers(0, 3)) if players == 2 else 0,
        call_trash=draw(st.booleans()),
        places=draw(st.booleans()),
        layout_rows=draw(st.integers(1, 2)),
    ).validate()
    return players, rules


@pytest.mark.parametrize("name", list(REGISTRY))
@settings(PROFILE, max_examples=150)
@given(table=tables(), data=st.data())
def test_every_bot_plays_only_legal_actions(name: str, table: tuple[int, Rules],
                                            data: st.DataObject) -> None:
    players, rules = table
    seat = data.draw(st.integers(0, players - 1), label="seat of the bot tested")
    names = [data.draw(st.sampled_from(CHEAP), label="company") for _ in range(players)]
    names[seat] = name
    specs = [FAST_SPECS[n] for n in names]
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    seeds = [derive_seed(seed, "bot", s) for s in range(players)]

    # A whole match: play_match raises BotFailure on any illegal answer.
    bots = recorders(specs, seeds)
    match = play_match(rules, bots, seed)
    assert match.over and match.result is not None
    assert len(match.result.places) == players
    for s, bot in enumerate(bots):
        check_decisions(names[s], bot, s)
        check_hooks(bot, s, players, match)
    if name == "expert":
        assert len(bots[seat].inner.decision_times) <= len(bots[seat].decisions)

    # One deal on its own, with layouts of different sizes, through play_deal.
    sizes = [data.draw(st.integers(1, rules.start_size), label="size") for _ in range(players)]
    first = data.draw(st.integers(0, players - 1), label="first")
    rng = Rng(derive_seed(seed, "deal"))
    deal = Deal(rules, sizes, first, build_deck(decks_for(players), rules.jokers),
                reshuffle=rng.shuffle, shuffle_with=rng)
    bots = recorders(specs, seeds)
    assert play_deal(deal, bots) is deal
    assert deal.over
    for s, bot in enumerate(bots):
        check_decisions(names[s], bot, s)
        assert [h[0] for h in bot.hooks] == ["start_deal", "end_deal"]
        assert bot.hooks[1][1].shrinking == deal.shrinking


# --- crafted positions ----------------------------------------------------------------------------
STANDARD = Rules()
SEAT0 = "AS 2S 3H 4H 5S 6S 7S 8S 9S 10S"
SEAT1 = "AD 2D QH KH 5D 6D 7D 8D 9D 10D"


def stacked(rules: Rules, layouts: Sequence[str], stock: str, *actions: int) -> Deal:
    """A deal of a stacked deck (seat 0 first), completed with the rest of the table's cards,
    after ``actions``."""
    sizes = [len(cards(layout)) for layout in layouts]
    deck = complete(stack(layouts, stock), build_deck(decks_for(len(layouts)), rules.jokers))
    deal = Deal(rules, sizes, 0, deck)
    play(deal, *actions)
    return deal


def position(kind: str) -> Observation:
    """The observation of the seat to move in a crafted position."""
    if kind == "fits":  # seat 0 puts 3S on slot 3 and discards the 3H it turns up
        deal = stacked(STANDARD, [SEAT0, SEAT1], "3S", DRAW_STOCK)
    elif kind == "fits-wild-held":  # seat 1 has a wild on slot 3; 3H is discarded
        deal = stacked(STANDARD, [SEAT0, SEAT1], "QS JS 3S",
                       DRAW_STOCK, DRAW_STOCK, wild_action(3), DRAW_STOCK)
    elif kind == "trash":  # a Queen (trash: Jacks are wild) is on the discard pile
        deal = stacked(STANDARD, [SEAT0, SEAT1], "QS", DRAW_STOCK)
    elif kind == "too-high":  # a 5 is discarded; seat 1's layout has two slots
        deal = stacked(STANDARD, [SEAT0, "AD 2D"], "5C", DRAW_STOCK)
    elif kind == "slot-filled":  # seat 1's slot 3 already holds the natural 3C; 3H discarded
        deal = stacked(STANDARD, [SEAT0, SEAT1], "QS 3C 3S", DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    elif kind == "wild":  # seat 1 drew a Jack; two 4s are visible (4S in a layout, 4H discarded)
        deal = stacked(STANDARD, [SEAT0, SEAT1], "4S JS", DRAW_STOCK, DRAW_STOCK)
    elif kind == "swap":  # seat 1's slot 4 holds a wild, and it drew the 4D
        deal = stacked(STANDARD, [SEAT0, SEAT1], "4S JS QS 4D",
                       DRAW_STOCK, DRAW_STOCK, wild_action(4), DRAW_STOCK, DRAW_STOCK)
    elif kind == "call":  # seat 0 places its last card: call "Trash!" or not
        deal = stacked(Rules(call_trash=True, start_size=2), ["2H QS", "AD 2D"], "AS",
                       DRAW_STOCK)
    else:
        raise AssertionError(kind)
    return deal.observation(deal.to_move)


PLAYABLE = ("fits", "fits-wild-held")
UNPLAYABLE = ("trash", "too-high", "slot-filled")


def test_crafted_positions_are_what_they_claim() -> None:
    for kind in PLAYABLE + UNPLAYABLE:
        observation = position(kind)
        assert observation.decision == "draw" and observation.legal == (DRAW_STOCK, DRAW_DISCARD)
        assert observation.fits(observation.discard_top) == (kind in PLAYABLE), kind
    wild = position("wild")
    assert wild.decision == "wild" and wild.seat == 1
    assert wild.legal == tuple(wild_action(s) for s in range(1, 11))
    assert [unseen_naturals(wild, s) for s in range(1, 11)] == [4, 4, 4, 2, 4, 4, 4, 4, 4, 4]
    swap = position("swap")
    assert swap.decision == "swap" and swap.legal == (SWAP, KEEP)
    call = position("call")
    assert call.decision == "call" and call.legal == (CALL, SILENT)


# --- the ladder on crafted positions --------------------------------------------------------------
@pytest.mark.parametrize("name", ["greedy", "counter"])
def test_greedy_and_counter_take_a_discard_only_when_it_fits(name: str) -> None:
    for seed in range(5):
        bot = make_bot(name, seed=seed)
        for kind in PLAYABLE:
            observation = position(kind)
            assert bot.choose(observation, observation.legal) == DRAW_DISCARD, kind
        for kind in UNPLAYABLE:
            observation = position(kind)
            assert bot.choose(observation, observation.legal) == DRAW_STOCK, kind


@pytest.mark.parametrize("name", ["greedy", "counter"])
def test_greedy_and_counter_swap_and_call(name: str) -> None:
    bot = make_bot(name)
    for kind, expected in (("swap", SWAP), ("call", CALL)):
        observation = position(kind)
        assert bot.choose(observation, observation.legal) == expected


def test_greedy_puts_a_wild_on_the_lowest_open_slot() -> None:
    observation = position("wild")
    assert make_bot("greedy").choose(observation, observation.legal) == wild_action(1)
    # With slots 1 and 2 face up, the lowest open slot is 3.
    deal = stacked(STANDARD, [SEAT0, "2C KC 3C 4C 5D 6D 7D 8D 9D 10D"], "QS AC QC JS",
                   DRAW_STOCK, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    observation = deal.observation(1)
    assert observation.my_layout[:2] == tuple(cards("AC 2C"))
    assert observation.decision == "wild" and observation.legal[0] == wild_action(3)
    assert make_bot("greedy").choose(observation, observation.legal) == wild_action(3)


def test_counter_puts_a_wild_where_the_natural_is_scarcest() -> None:
    observation = position("wild")
    for seed in range(3):
        assert make_bot("counter", seed=seed).choose(observation, observation.legal) == \
            wild_action(4)
    # Without any visible natural, every slot is alike: the tie goes to the highest slot.
    deal = stacked(STANDARD, [SEAT0, SEAT1], "JS", DRAW_STOCK)
    observation = deal.observation(0)
    assert observation.decision == "wild"
    assert make_bot("counter").choose(observation, observation.legal) == wild_action(10)


def test_the_example_bot_keeps_wilds_for_the_highest_slot() -> None:
    observation = position("wild")
    assert make_bot(str(CAUTIOUS)).choose(observation, observation.legal) == wild_action(10)


def rates(value: float) -> dict[str, float]:
    return {"miss_discard": value, "stop_chain": value, "forget_call": value,
            "bad_wild": value}


@pytest.mark.parametrize("name", ["easy", "normal", "hard"])
def test_skilled_bots_with_every_mistake_always_make_them(name: str) -> None:
    for seed in range(20):
        bot = make_bot({"name": name, **rates(1.0)}, seed=seed)
        for kind in PLAYABLE:
            observation = position(kind)
            assert bot.choose(observation, observation.legal) == DRAW_STOCK, kind
        observation = position("swap")
        assert bot.choose(observation, observation.legal) == KEEP
        observation = position("call")
        assert bot.choose(observation, observation.legal) == SILENT


@pytest.mark.parametrize("name", ["easy", "normal", "hard"])
def test_skilled_bots_without_mistakes_never_make_them(name: str) -> None:
    for seed in range(20):
        bot = make_bot({"name": name, **rates(0.0)}, seed=seed)
        for kind in PLAYABLE:
            observation = position(kind)
            assert bot.choose(observation, observation.legal) == DRAW_DISCARD, kind
        for kind in UNPLAYABLE:
            observation = position(kind)
            assert bot.choose(observation, observation.legal) == DRAW_STOCK, kind
        for kind, expected in (("swap", SWAP), ("call", CALL), ("wild", wild_action(4))):
            observation = position(kind)
            assert bot.choose(observation, observation.legal) == expected, kind


def test_a_bad_wild_goes_to_a_random_open_slot() -> None:
    observation = position("wild")
    chosen = {make_bot({"name": "easy", "bad_wild": 1.0}, seed=seed).choose(
        observation, observation.legal) for seed in range(40)}
    assert chosen <= set(observation.legal)
    assert len(chosen) >= 5


def test_mistakes_sets_every_rate_and_an_explicit_rate_overrides_it() -> None:
    bot = make_bot({"name": "hard", "mistakes": 1.0})
    assert (bot.miss_discard, bot.stop_chain, bot.forget_call, bot.bad_wild) == (1.0,) * 4
    bot = make_bot({"name": "easy", "mistakes": 0.0, "forget_call": 1.0})
    assert (bot.miss_discard, bot.stop_chain, bot.forget_call, bot.bad_wild) == \
        (0.0, 0.0, 1.0, 0.0)
    for seed in range(20):
        bot = make_bot({"name": "normal", "mistakes": 1.0, "forget_call": 0.0}, seed=seed)
        fits = position("fits")
        assert bot.choose(fits, fits.legal) == DRAW_STOCK  # the blanket rate
        swap = position("swap")
        assert bot.choose(swap, swap.legal) == KEEP
        call = position("call")
        assert bot.choose(call, call.legal) == CALL  # the explicit rate
    # The defaults: easy 0.5, normal 0.2, hard none, for every kind of mistake.
    for name, rate in (("easy", 0.5), ("normal", 0.2), ("hard", 0.0)):
        bot = make_bot(name)
        assert (bot.miss_discard, bot.stop_chain, bot.forget_call, bot.bad_wild) == (rate,) * 4


# --- the ladder ranks as named (issue 16, item 12) ------------------------------------------------
def test_item_12_each_level_makes_fewer_mistakes_than_the_one_below() -> None:
    levels = [make_bot(name) for name in ("easy", "normal", "hard")]
    for lower, higher in pairwise(levels):
        for kind in MISTAKES:
            assert getattr(higher, kind) < getattr(lower, kind), (higher.name, kind)
    hard = levels[-1]
    assert all(getattr(hard, kind) == 0.0 for kind in MISTAKES)


def test_item_12_hard_plays_the_counters_game_move_for_move() -> None:
    rules = Rules(call_trash=True, max_deals=4)
    for seed in (3, 4):
        hard = play_recorded(["hard", "normal", "greedy"], [1, 2, 3], rules, seed)[0][0]
        counter = play_recorded(["counter", "normal", "greedy"], [1, 2, 3], rules, seed)[0][0]
        assert hard == counter


def duplicate_board_scores(first: str, second: str, boards: int, seed: int) -> list[float]:
    """The first bot's share of each board: one deck played twice, seats swapped."""
    scores = []
    for board in range(boards):
        won = 0
        for swap in (False, True):
            specs = [second, first] if swap else [first, second]
            bots = [make_bot(spec, seed=derive_seed(seed, board, swap, seat))
                    for seat, spec in enumerate(specs)]
            match = play_match(STANDARD, bots, derive_seed(seed, "board", board))
            assert match.result is not None
            won += match.result.winner == (1 if swap else 0)
        scores.append(won / 2)
    return scores


def test_item_12_each_level_beats_the_one_below_on_duplicate_boards() -> None:
    """A small seeded version of benchmarks/bots.py (2,000 matches a pairing there, 300
    here): random < easy < normal < hard, each with a 95% interval above 50%; hard not
    significantly worse than greedy."""
    for first, second in (("easy", "random"), ("normal", "easy"), ("hard", "normal")):
        stats = board_stats(duplicate_board_scores(first, second, 150, seed=12))
        assert stats.low is not None and stats.low > 0.5, (first, second, stats.mean)
    stats = board_stats(duplicate_board_scores("hard", "greedy", 150, seed=12))
    assert stats.high is not None and stats.high >= 0.5, stats.mean


def test_the_expert_never_passes() -> None:
    for kind in UNPLAYABLE:
        observation = position(kind)
        for seed in range(3):
            expert = make_bot({"name": "expert", "samples": 8}, seed=seed)
            assert expert.choose(observation, observation.legal) == DRAW_STOCK, kind
            assert expert.decision_times == []  # no real choice: nothing sampled


def test_the_expert_answers_within_its_budget_and_times_its_decisions() -> None:
    budget = 0.1
    expert = make_bot({"name": "expert", "samples": 100_000, "budget": budget}, seed=3)
    assert isinstance(expert, ExpertBot) and expert.decision_times == []
    observation = position("wild")
    started = time.perf_counter()
    action = expert.choose(observation, observation.legal)
    elapsed = time.perf_counter() - started
    assert action in observation.legal
    assert len(expert.decision_times) == 1
    # 100 000 samples cannot be done in time: the expert uses most of its budget and
    # stops before another round of samples would overrun it.
    assert budget / 2 <= expert.decision_times[-1] <= elapsed < budget + 2.0
    assert expert.decision_times[-1] <= budget * 1.5


def test_the_expert_weighs_only_where_a_wild_goes() -> None:
    """Every other decision has a move no other beat beyond chance where the room for skill
    was measured (bots/research/room.py): the expert plays it at once, sampling nothing, whatever
    its budget: a discard that fits is taken, otherwise the stock, a swap, the call."""
    expert = make_bot({"name": "expert", "samples": 100_000, "budget": 5.0}, seed=4)
    expected = {"fits": DRAW_DISCARD, "fits-wild-held": DRAW_DISCARD, "trash": DRAW_STOCK,
                "too-high": DRAW_STOCK, "slot-filled": DRAW_STOCK, "swap": SWAP, "call": CALL}
    for kind, move in expected.items():
        observation = position(kind)
        started = time.perf_counter()
        assert expert.choose(observation, observation.legal) == move, kind
        assert time.perf_counter() - started < 0.5, kind  # not a sample drawn
    assert expert.decision_times == []


def test_the_expert_with_few_samples_answers_legally_everywhere() -> None:
    expert = make_bot({"name": "expert", "samples": 16, "budget": 60.0}, seed=1)
    for kind in (*PLAYABLE, *UNPLAYABLE, "wild", "swap", "call"):
        observation = position(kind)
        assert expert.choose(observation, observation.legal) in observation.legal, kind
    assert len(expert.decision_times) == 1  # only the wild's slot was weighed



def test_the_experts_rollouts_are_greedy_play_on_the_sampled_cards() -> None:
    """The expert's rollouts run the engine's greedy playout; each one's value is that of
    sampling the same cards and playing ``greedy`` decision by decision (so the faster
    rollouts changed no decision of the expert's)."""
    from bots.builtin import greedy_policy
    from trash_tui.engine.actions import OVER
    from trash_tui.engine.sampling import sample_deal, unseen_cards

    for kind in (*PLAYABLE, "wild", "swap", "call"):
        observation = position(kind)
        unseen = unseen_cards(observation)
        for action in observation.legal:
            for seed in range(5):
                value = ExpertBot._rollout(observation, action, observation.seat, seed, unseen)
                rng = Rng(seed)
                deal = sample_deal(observation, rng)
                deal.apply(action)
                while deal.phase != OVER:
                    deal.apply(greedy_policy(deal, deal.to_move, rng))
                seat = observation.seat
                expected = 0.0 if deal.voided else (
                    (1.0 if seat in deal.shrinking else 0.0)
                    + 0.01 * (1.0 - deal.face_down[seat] / deal.sizes[seat]))
                assert value == expected, (kind, action, seed)

# --- user bots: by path, by import path, and the errors -------------------------------------------
TINY_BOT = '''
from typing import ClassVar

from bots.base import Bot, Param


class FirstBot(Bot):
    name = "first"
    description = "always the first legal action"
    params: ClassVar[dict[str, Param]] = {"zeal": Param(0.5, "unused", 0.0, 1.0)}

    def choose(self, observation, legal):
        self.calls = getattr(self, "calls", 0) + 1
        return legal[0]
'''


def test_the_example_bot_loads_from_an_absolute_path() -> None:
    bot = make_bot(str(CAUTIOUS))
    assert type(bot).__name__ == "CautiousBot" and bot.name == "cautious"
    assert isinstance(bot, Bot) and bot.forget == 0.0
    match = play_match(STANDARD, [bot, make_bot("greedy")], 5)
    assert match.over


def test_the_example_bot_loads_from_a_relative_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert type(make_bot("bots/examples/cautious.py")).__name__ == "CautiousBot"
    monkeypatch.chdir(ROOT / "bots")
    assert type(make_bot("examples/cautious.py")).__name__ == "CautiousBot"
    monkeypatch.chdir(ROOT / "bots" / "examples")
    assert type(make_bot("cautious.py:CautiousBot")).__name__ == "CautiousBot"


def test_the_example_bot_takes_its_class_name_and_parameters() -> None:
    bot = make_bot(f"{CAUTIOUS}:CautiousBot")
    assert type(bot).__name__ == "CautiousBot"
    call = position("call")
    forgetful = make_bot({"name": str(CAUTIOUS), "forget": 1.0})
    assert forgetful.choose(call, call.legal) == SILENT
    assert make_bot({"name": str(CAUTIOUS), "forget": 0.0}).choose(call, call.legal) == CALL
    inline = make_bot(f'{{ name = "{CAUTIOUS}", forget = 0.5, seed = 7 }}')
    assert (inline.forget, inline.seed) == (0.5, 7)
    assert inline.describe() == "cautious(seed=7, forget=0.5)"


def test_a_bot_file_written_by_the_user_plays_a_match(tmp_path: Path) -> None:
    path = tmp_path / "first_bot.py"
    path.write_text(TINY_BOT, encoding="utf-8")
    for spec in (str(path), f"{path}:FirstBot", {"name": str(path), "zeal": 1.0, "seed": 4}):
        bot = make_bot(spec)
        assert type(bot).__name__ == "FirstBot" and bot.name == "first"
        match = play_match(Rules(max_deals=3), [bot, make_bot("greedy")], 8)
        assert match.over and bot.calls > 0
    assert make_bot({"name": str(path), "zeal": 1.0, "seed": 4}).describe() == \
        "first(seed=4, zeal=1.0)"


def test_a_user_bot_may_subclass_a_ladder_bot(tmp_path: Path) -> None:
    path = tmp_path / "greedier.py"
    path.write_text("from bots.ladder import GreedyBot\n\n\n"
                    "class GreedierBot(GreedyBot):\n    name = 'greedier'\n", encoding="utf-8")
    bot = make_bot(str(path))  # GreedyBot is imported, not defined there: one Bot subclass
    assert type(bot).__name__ == "GreedierBot" and isinstance(bot, GreedyBot)


def test_a_bot_by_import_path() -> None:
    assert find_bot("bots.ladder:GreedyBot") is GreedyBot
    bot = make_bot("bots.ladder:CounterBot", seed=2)
    assert type(bot) is CounterBot and bot.seed == 2
    assert make_bot({"name": "bots.expert:ExpertBot", "samples": 3}).samples == 3


def bot_error(spec: str | dict[str, Any], *fragments: str) -> str:
    """The BotError ``make_bot(spec)`` raises: one line holding every fragment."""
    with pytest.raises(BotError) as info:
        make_bot(spec)
    message = str(info.value)
    assert message and "\n" not in message, message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    return message


def test_errors_loading_a_bot_file(tmp_path: Path) -> None:
    bot_error(str(tmp_path / "nope.py"), "nope.py", "no such file")
    bad = tmp_path / "broken.py"
    bad.write_text("from bots.base import Bot\n\nclass Broken(Bot:\n    pass\n",
                   encoding="utf-8")
    bot_error(str(bad), "broken.py", "SyntaxError")
    raising = tmp_path / "raising.py"
    raising.write_text("raise RuntimeError('not today')\n", encoding="utf-8")
    bot_error(str(raising), "raising.py", "RuntimeError", "not today")
    empty = tmp_path / "empty.py"
    empty.write_text("from bots.ladder import GreedyBot\n\nX = 1\n", encoding="utf-8")
    bot_error(str(empty), "empty.py", "exactly one Bot subclass", "found none")
    two = tmp_path / "two.py"
    two.write_text(TINY_BOT + "\n\nclass SecondBot(FirstBot):\n    name = 'second'\n",
                   encoding="utf-8")
    bot_error(str(two), "two.py", "FirstBot", "SecondBot", ":ClassName")
    assert type(make_bot(f"{two}:SecondBot")).__name__ == "SecondBot"
    bot_error(f"{two}:ThirdBot", "two.py", "no Bot subclass named 'ThirdBot'")
    bot_error(f"{two}:Param", "no Bot subclass named 'Param'")  # a class, not a bot


def test_errors_naming_a_bot() -> None:
    message = bot_error("grandmaster", "unknown bot 'grandmaster'")
    for name in REGISTRY:
        assert name in message
    bot_error("no_such_package.module:SomeBot", "cannot import no_such_package.module")
    bot_error("bots.ladder:NoSuchBot", "bots.ladder", "no Bot subclass named 'NoSuchBot'")
    bot_error({"seed": 3}, "name")
    bot_error("{ seed = 3 }", "name")
    bot_error("{ name = ", "not a valid TOML inline table")


@pytest.mark.parametrize(("spec", "fragments"), [
    ({"name": "normal", "bogus": 1}, ("normal", "unknown parameter 'bogus'", "mistakes")),
    ({"name": "random", "mistakes": 0.1}, ("random", "unknown parameter 'mistakes'")),
    ({"name": "easy", "mistakes": 2}, ("easy", "mistakes", "from 0 to 1", "2")),
    ({"name": "hard", "forget_call": -0.5}, ("hard", "forget_call", "-0.5")),
    ({"name": "normal", "mistakes": True}, ("normal", "mistakes", "True")),
    ({"name": "expert", "samples": "many"}, ("expert", "samples", "integer", "'many'")),
    ({"name": "expert", "samples": 0}, ("expert", "samples", "from 1")),
    ({"name": "expert", "samples": 4.0}, ("expert", "samples", "integer")),
    ({"name": "expert", "budget": 0}, ("expert", "budget", "0.001")),
    ({"name": "counter", "seed": "x"}, ("counter", "seed", "integer", "'x'")),
    ({"name": "greedy", "seed": 1.5}, ("greedy", "seed", "integer")),
    ('{ name = "normal", mistakes = 2 }', ("normal", "mistakes")),
    ('{ name = "expert", samples = "many" }', ("expert", "samples")),
])
def test_errors_configuring_a_bot(spec: str | dict[str, Any], fragments: tuple[str, ...]) -> None:
    bot_error(spec, *fragments)


@pytest.mark.parametrize("spec", ['{ name = "normal", mistakes = nan }',
                                  '{ name = "expert", budget = nan }'])
def test_nan_is_out_of_range(spec: str) -> None:
    bot_error(spec, "must be")


def test_the_readme_shows_the_example_bot_verbatim() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert CAUTIOUS.read_text(encoding="utf-8") in blocks


def test_parse_spec() -> None:
    assert parse_spec("  hard ") == {"name": "hard"}
    assert parse_spec('{ name = "normal", seed = 3, mistakes = 0.1 }') == \
        {"name": "normal", "seed": 3, "mistakes": 0.1}
    bot = make_bot('{ bot = "normal", name = "Alice", mistakes = 0.1 }')
    assert bot.name == "normal" and bot.mistakes == 0.1
    # A seed given to make_bot overrides the spec's.
    assert make_bot({"name": "random", "seed": 5}, seed=9).seed == 9


# --- reproducibility ------------------------------------------------------------------------------
def play_recorded(specs: Sequence[str | dict[str, Any]], seeds: Sequence[int], rules: Rules,
                  seed: int) -> tuple[list[list[int]], dict[str, Any]]:
    bots = recorders(specs, seeds)
    match = play_match(rules, bots, seed)
    return [bot.answers() for bot in bots], match_record(match, [b.describe() for b in bots])


@pytest.mark.parametrize("spec", [
    "random", "easy", "normal", "hard", "counter", str(CAUTIOUS),
    {"name": str(CAUTIOUS), "forget": 0.5},
    {"name": "expert", "samples": 4, "budget": 60.0},  # a budget never reached: samples rule
])
def test_same_spec_and_seed_same_decisions_and_record(spec: str | dict[str, Any]) -> None:
    rules = Rules(call_trash=True, max_deals=4)
    other = "normal"
    first = play_recorded([spec, other, spec], [11, 12, 13], rules, 21)
    second = play_recorded([spec, other, spec], [11, 12, 13], rules, 21)
    assert first[0] == second[0]
    assert first[1] == second[1]


@pytest.mark.parametrize("name", ["random", "easy"])
def test_another_seed_changes_the_decisions(name: str) -> None:
    rules = Rules(max_deals=3)
    answers = [play_recorded([name, "greedy"], [seed, 0], rules, 5)[0][0] for seed in (1, 2)]
    assert answers[0] != answers[1]
    records = [play_recorded([name, "greedy"], [seed, 0], rules, 5)[1] for seed in (1, 2)]
    assert records[0]["deals"] != records[1]["deals"]


# --- the runner: failures and hooks ---------------------------------------------------------------
class RaisingBot(Bot):
    name = "raising"

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        raise ValueError("boom")


class AnswerBot(Bot):
    """Answers ``answer`` (a value, or a function of the legal actions) at every decision."""

    name = "answer"
    answer: ClassVar[Any] = 99

    def choose(self, observation: Observation, legal: Sequence[int]) -> Any:
        return self.answer(legal) if callable(self.answer) else self.answer


class SleepyBot(Bot):
    name = "sleepy"

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        time.sleep(0.05)
        return legal[0]


def answering(value: Any) -> Bot:
    bot = AnswerBot()
    bot.answer = value  # type: ignore[misc]
    return bot


def check_failure(bot: Bot, kind: str, *fragments: str, time_limit: float | None = None) -> None:
    with pytest.raises(BotFailure) as info:
        play_match(STANDARD, [make_bot("greedy"), bot], 3, time_limit=time_limit)
    failure = info.value
    assert failure.seat == 1 and failure.kind == kind and failure.bot is bot
    message = str(failure)
    assert message.startswith("seat 1 (") and "\n" not in message
    assert bot.describe() in message and kind in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_a_bot_that_raises_fails() -> None:
    check_failure(RaisingBot(), "error", "ValueError", "boom")


@pytest.mark.parametrize(("answer", "fragments"), [
    (99, ("illegal",)),
    (lambda legal: DRAW_DISCARD if legal == (DRAW_STOCK,) else 42, ("legal: stock",)),
    (lambda legal: KEEP, ("keep",)),
    (None, ("None",)),
    ("stock", ("'stock'",)),
])
def test_a_bot_that_answers_an_illegal_action_fails(answer: Any,
                                                    fragments: tuple[str, ...]) -> None:
    check_failure(answering(answer), "illegal", *fragments)


def test_a_bot_that_overruns_its_time_limit_fails() -> None:
    check_failure(SleepyBot(), "timeout", "limit 0.01", time_limit=0.01)


def test_a_failing_bot_leaves_the_game_as_it_was() -> None:
    match = Match(STANDARD, 2, 4)
    for bot in (RaisingBot(), answering(99), answering(KEEP)):
        seat = match.to_move
        before = (list(match.deal.actions), match.legal, len(match.events))
        with pytest.raises(BotFailure) as info:
            ask(bot, seat, match)
        assert info.value.seat == seat
        assert (list(match.deal.actions), match.legal, len(match.events)) == before
    assert ask(make_bot("greedy"), match.to_move, match) in match.legal


def test_a_float_answer_is_an_illegal_action() -> None:
    def float_for_wilds(legal: tuple[int, ...]) -> Any:
        return float(legal[-1]) if legal[-1] > WILD_BASE else legal[0]

    check_failure(answering(float_for_wilds), "illegal")


class HookBot(Bot):
    """Records its hooks; passes (takes every discard) until ``voids`` deals were void."""

    name = "hooks"

    def __init__(self, seed: int = 0, voids: int = 0) -> None:
        super().__init__(seed)
        self.voids = voids
        self.hooks: list[tuple[Any, ...]] = []

    def start_match(self, seat: int, players: int, rules: Rules) -> None:
        super().start_match(seat, players, rules)
        self.hooks.append(("start_match", seat, players, rules))

    def start_deal(self, observation: Observation) -> None:
        self.hooks.append(("start_deal", observation))

    def end_deal(self, observation: Observation) -> None:
        self.hooks.append(("end_deal", observation))
        if observation.voided:
            self.voids -= 1

    def end_match(self, places: Sequence[int]) -> None:
        self.hooks.append(("end_match", list(places)))

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        if self.voids > 0 and observation.decision == "draw":
            return legal[-1]  # the discard whenever it may be drawn
        return legal[0]


def test_hooks_with_void_deals() -> None:
    rules = Rules(max_deals=2)
    bots = [HookBot(voids=2), HookBot(voids=2)]
    match = play_match(rules, bots, 5)
    assert [summary.voided is not None for summary in match.history] == \
        [True, True, False, False]
    for seat, bot in enumerate(bots):
        check_hooks(bot, seat, 2, match)
        starts = [h[1] for h in bot.hooks if h[0] == "start_deal"]
        assert [o.deal_number for o in starts] == [1, 1, 1, 2]  # a void deal is re-dealt
        assert all(o.seat == seat and o.turn <= 1 for o in starts)
        assert bot.hooks[0][3] is rules


def test_hooks_of_an_abandoned_match() -> None:
    bots = [HookBot(voids=10**6), HookBot(voids=10**6)]
    match = play_match(Rules(start_size=3), bots, 2)
    assert match.result is not None and match.result.abandoned
    for seat, bot in enumerate(bots):
        check_hooks(bot, seat, 2, match)
        assert bot.hooks[-1] == ("end_match", match.result.places)


def test_hooks_through_play_deal() -> None:
    bots = [HookBot(), HookBot()]
    deal = stacked(STANDARD, [SEAT0, SEAT1], "")
    play_deal(deal, bots)
    assert deal.over
    for seat, bot in enumerate(bots):
        assert [h[0] for h in bot.hooks] == ["start_deal", "end_deal"]
        assert bot.hooks[1][1].shrinking == deal.shrinking and bot.hooks[1][1].seat == seat


# --- the command line -----------------------------------------------------------------------------
TRASH = Path(sys.executable).parent / "trash"
TIMING_KEYS = ("elapsed_seconds", "deals_per_second", "matches_per_second")


def trash(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    if not TRASH.exists():
        pytest.skip("the trash console script is not installed in this environment")
    return subprocess.run([str(TRASH), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, check=False)


def simulate_json(*args: str, cwd: Path = ROOT) -> dict[str, Any]:
    result = trash("simulate", *args, "--json", cwd=cwd)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    document = json.loads(result.stdout)
    for key in TIMING_KEYS:
        document.pop(key)
    return document


def one_line_error(result: subprocess.CompletedProcess[str], *fragments: str) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("trash: error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def test_cli_bots_list() -> None:
    result = trash("bots", "list")
    assert result.returncode == 0 and result.stderr == ""
    listed: dict[str, list[str]] = {}
    current = ""
    for line in result.stdout.splitlines():
        if line and not line[0].isspace() and line.split()[0] in REGISTRY:
            current = line.split()[0]
            listed[current] = []
            assert REGISTRY[current].description in line
        elif line.startswith(" ") and current:
            listed[current].append(line.split()[0])
    assert list(listed) == list(REGISTRY)
    for name, cls in REGISTRY.items():
        assert listed[name] == ["seed", *cls.params], name
    assert "my_bot.py" in result.stdout and "package.module:Class" in result.stdout


def test_cli_bots_show() -> None:
    result = trash("bots", "show", "expert")
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == f"expert: {ExpertBot.description}"
    assert [line.split()[0] for line in lines[1:]] == ["seed", "samples", "budget", "confidence"]
    assert "samples = 128" in result.stdout and "budget = 0.25" in result.stdout
    result = trash("bots", "show", "bots/examples/cautious.py")
    assert result.returncode == 0 and result.stdout.startswith("cautious: ")
    assert "forget = 0" in result.stdout
    one_line_error(trash("bots", "show", "grandmaster"), "unknown bot 'grandmaster'")


def test_cli_simulate_with_bots_is_reproducible() -> None:
    args = ("--matches", "20", "--bot", "hard", "--bot", "easy", "--seed", "7")
    first = simulate_json(*args)
    assert first == simulate_json(*args)
    assert first["bots"] == ["hard", "easy"] and first["matches"] == 20
    assert sum(first["seat_wins"]) + first["abandoned_matches"] == 20
    deals = ("--deals", "30", "--bot", "normal", "--bot", "counter", "--seed", "7")
    first = simulate_json(*deals)
    assert first == simulate_json(*deals)
    assert first["mode"] == "deals" and sum(first["seat_wins"]) == first["deals"] == 30


def test_cli_simulate_with_user_and_configured_bots() -> None:
    document = simulate_json("--matches", "5", "--bot", "bots/examples/cautious.py",
                             "--bot", "greedy")
    assert document["bots"] == ["bots/examples/cautious.py", "greedy"]
    assert document["matches"] == 5
    document = simulate_json("--matches", "5", "--players", "3",
                             "--bot", '{ name = "normal", mistakes = 0.1 }', "--bot", "counter")
    assert document["bots"] == ["normal(mistakes=0.1)", "counter", "normal(mistakes=0.1)"]
    assert document["matches"] == 5
    table = '{ name = "bots/examples/cautious.py", forget = 0.5 }'
    document = simulate_json("--matches", "5", "--bot", table, "--bot", "hard")
    assert document["bots"] == ["bots/examples/cautious.py(forget=0.5)", "hard"]


@pytest.mark.parametrize(("spec", "fragments"), [
    ("grandmaster", ("unknown bot 'grandmaster'",)),
    ('{ name = "normal", bogus = 1 }', ("normal", "unknown parameter 'bogus'")),
    ('{ name = "normal", mistakes = 2 }', ("normal", "mistakes", "from 0 to 1")),
    ('{ name = "normal", ', ("not a valid TOML inline table",)),
    ("missing_bot.py", ("missing_bot.py", "no such file")),
])
def test_cli_bot_errors_are_one_line(spec: str, fragments: tuple[str, ...]) -> None:
    one_line_error(trash("simulate", "--matches", "2", "--bot", spec), *fragments)


def test_cli_error_for_a_multi_line_spec_is_one_line() -> None:
    one_line_error(trash("simulate", "--matches", "2", "--bot",
                         '{ name = "normal",\n  mistakes = 0.1 }'), "TOML")


# --- bots that misbehave in any way: one line, exit 2 -------------------------------------------
MISBEHAVING = {
    "base_exception.py": "raise BaseException('at import')\n",
    "exits.py": "import sys\nsys.exit(3)\n",
    "interrupts_generator.py": "raise GeneratorExit\n",
}


@pytest.mark.parametrize(("name", "fragments"), [
    ("base_exception.py", ("failed to load", "BaseException: at import")),
    ("exits.py", ("failed to load", "it called sys.exit(3)")),
    ("interrupts_generator.py", ("failed to load", "GeneratorExit")),
])
def test_a_bot_file_that_raises_anything_or_exits_at_import_is_a_bot_error(
        tmp_path: Path, name: str, fragments: tuple[str, ...]) -> None:
    path = tmp_path / name
    path.write_text(MISBEHAVING[name], encoding="utf-8")
    bot_error(str(path), name, *fragments)
    one_line_error(trash("simulate", "--matches", "1", "--bot", str(path)), name, *fragments)
    one_line_error(trash("bots", "show", str(path)), name, *fragments)


def test_a_folder_given_as_a_bot_file_is_said_to_be_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "my_bots"
    folder.mkdir()
    for spec in (str(folder), f"{folder}/", f"{folder}:SomeBot"):
        bot_error(spec, "my_bots", "is a directory, not a Python file")
    one_line_error(trash("simulate", "--matches", "1", "--bot", "my_bots", cwd=tmp_path),
                   "bot file my_bots: is a directory")


EXITING_BOTS = '''
import sys

from bots.base import Bot


class ExitingBot(Bot):
    name = "exiting"
    where = "choose"

    def start_match(self, seat, players, rules):
        if self.where == "start_match":
            sys.exit(4)

    def choose(self, observation, legal):
        if self.where == "choose":
            raise SystemExit("\\x1b[2Jbye")
        return legal[0]
'''


@pytest.mark.parametrize("where", ["choose", "start_match"])
@pytest.mark.parametrize("mode", ["--deals", "--matches"])
def test_a_bot_that_exits_while_playing_forfeits_with_one_line(tmp_path: Path, where: str,
                                                                mode: str) -> None:
    path = tmp_path / "exiting.py"
    path.write_text(EXITING_BOTS.replace('where = "choose"', f'where = "{where}"'),
                    encoding="utf-8")
    line = one_line_error(trash("simulate", mode, "2", "--bot", "greedy", "--bot", str(path)),
                          "a bot failed: seat 1 (exiting(seed=", "SystemExit")
    assert "\x1b" not in line
    if where == "choose":
        assert "\\x1b[2Jbye" in line  # what the bot said, escaped


class InterruptedBot(Bot):
    name = "interrupted"

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        raise KeyboardInterrupt


def test_a_bot_failure_covers_system_exit_but_not_ctrl_c() -> None:
    class ExitBot(Bot):
        name = "exit"

        def choose(self, observation: Observation, legal: Sequence[int]) -> int:
            raise SystemExit(5)

    check_failure(ExitBot(), "error", "SystemExit: 5")
    with pytest.raises(KeyboardInterrupt):
        play_match(STANDARD, [make_bot("greedy"), InterruptedBot()], 3)


def test_a_bot_that_fails_to_start_is_a_bot_error(tmp_path: Path) -> None:
    path = tmp_path / "fragile.py"
    path.write_text("from bots.base import Bot\n\n\nclass FragileBot(Bot):\n"
                    "    name = 'fragile'\n\n    def __init__(self, seed=0, **options):\n"
                    "        raise ValueError('\\x1b]0;no\\x07')\n\n"
                    "    def choose(self, observation, legal):\n        return legal[0]\n",
                    encoding="utf-8")
    message = bot_error(str(path), "fragile.py", "failed to start",
                        "ValueError: \\x1b]0;no\\x07")
    assert "\x1b" not in message


def test_bots_show_escapes_what_a_bot_says_about_itself(tmp_path: Path) -> None:
    path = tmp_path / "loud.py"
    path.write_text("from bots.base import Bot, Param\n\n\nclass LoudBot(Bot):\n"
                    "    '''A bot\n\n    with a docstring.'''\n"
                    "    name = 'loud\\x1b[2J'\n    description = ''\n"
                    "    params = {'\\x1b]0;t\\x07': Param(0.5, 'clears \\x1b[2J', 0.0, 1.0)}\n\n"
                    "    def choose(self, observation, legal):\n        return legal[0]\n",
                    encoding="utf-8")
    result = trash("bots", "show", str(path))
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    lines = result.stdout.splitlines()
    assert lines[0] == "loud\\x1b[2J: A bot with a docstring."
    assert lines[2].startswith("  \\x1b]0;t\\x07 = 0.5") and "clears \\x1b[2J" in lines[2]
    broken = tmp_path / "broken_params.py"
    broken.write_text("from bots.base import Bot\n\n\nclass B(Bot):\n    name = 'b'\n"
                      "    params = 3\n\n    def choose(self, observation, legal):\n"
                      "        return legal[0]\n", encoding="utf-8")
    one_line_error(trash("bots", "show", str(broken)), "cannot describe its parameters")


def test_the_shipped_anchors_show_the_top_of_the_ladder_as_one_level() -> None:
    """greedy, hard, counter and expert measure as one strength (bots/README.md: none of
    them separates from another on duplicate boards), so the leaderboard shows them at one
    rating, still above normal; whichever of them the lobby proposes, it shows the same
    rating as the others (the expert is never presented as harder)."""
    from trash_tui.players.anchors import ANCHORS_PATH, parse_anchors
    from trash_tui.players.model import nearest_level

    document = json.loads(ANCHORS_PATH.read_text(encoding="utf-8"))
    anchors = parse_anchors(document)["trash"]
    top = {anchors[level] for level in ("greedy", "hard", "counter", "expert")}
    assert len(top) == 1
    (rating,) = top
    assert anchors["normal"].mu < rating.mu and anchors["easy"].mu < anchors["normal"].mu
    for offered in ({"expert", "greedy"}, {"expert", "hard", "normal"}, None):
        level = nearest_level(rating, anchors, offered)
        assert level is not None and anchors[level] == rating
    assert set(document["tied"]["trash"]["levels"]) == {"greedy", "hard", "counter", "expert"}
