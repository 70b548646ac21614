"""Sampling the hidden cards (``trash_tui.engine.sampling``): every sampled deal is one the
seat could be in, given everything it has seen.

Before a reshuffle every unseen card may lie anywhere among the face-down slots and the
stock. After one the stock is a known set: the discards that were turned over (every one
was face up on the pile) less the cards drawn since (each turned face up). A sample must
keep those cards in the stock and the others face down. ``PublicView`` works that set out
from the public events alone, independently of the engine's observation."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bots.builtin import greedy_policy, random_policy
from trash_tui.cards import card_id
from trash_tui.engine.deal import Deal
from trash_tui.engine.match import Match
from trash_tui.engine.observation import Observation
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.engine.sampling import sample_deal, unseen_cards
from trash_tui.presets import PRESETS
from trash_tui.rules import Rules, RulesError

SEVEN_UP = PRESETS["seven-up"].rules
RESHUFFLING_SEED = 1  # seven-up, 2 players, greedy play: the first deal reshuffles


class PublicView:
    """What any seat knows from the events everybody saw: the discard pile, and after a
    reshuffle the cards in the stock (a multiset; None before the deal's first)."""

    def __init__(self) -> None:
        self.pile: list[int] = []
        self.stock: Counter[int] | None = None

    def see(self, event: tuple) -> None:
        kind = event[0]
        if kind in ("discard", "penalty"):
            self.pile.append(event[2])
        elif kind == "draw" and event[2] == "discard":
            assert self.pile.pop() == event[3]
        elif kind == "reshuffle":
            self.stock = Counter(self.pile[:-1])  # every discard but the top
            assert sum(self.stock.values()) == event[1]
            self.pile = self.pile[-1:]
        if kind in ("draw", "penalty") and (kind == "penalty" or event[2] == "stock"):
            card = event[2] if kind == "penalty" else event[3]
            if self.stock is not None:
                assert self.stock[card] > 0, "a card drawn from a stock that cannot hold it"
                self.stock[card] -= 1


def check_samples(observation: Observation, view: PublicView, seed: int,
                  count: int = 4) -> None:
    """Every sample shows what the seat sees, puts in the stock exactly what it knows the
    stock holds (after a reshuffle), and deals the rest of the unseen cards face down."""
    assert list(observation.discard) == view.pile
    unseen = Counter(unseen_cards(observation))
    for i in range(count):
        deal = sample_deal(observation, Rng(derive_seed(seed, i)))
        down = Counter(deal.down[seat][slot] for seat in range(deal.players)
                       for slot in range(1, deal.sizes[seat] + 1) if not deal.up[seat][slot])
        assert down + Counter(deal.stock) == unseen
        assert deal.stock_count == observation.stock_count
        if view.stock is not None:
            assert Counter(deal.stock) == +view.stock, "the sample's stock is not the known one"
        for seat, layout in enumerate(observation.layouts):
            assert [card or None for card in deal.up[seat][1:]] == list(layout)
        assert tuple(deal.discard) == observation.discard
        assert (deal.hand or None) == observation.hand
        assert deal.legal == observation.legal and deal.to_move == observation.to_move


def play_first_deal(rules: Rules, players: int, seed: int, seat: int, policy: str,
                    every: int = 1) -> int:
    """Play the first deal of a match with one policy at every seat, checking ``seat``'s
    samples at every ``every``-th step; the number of steps checked after a reshuffle."""
    match = Match(rules, players, seed)
    deal = match.deal
    view = PublicView()
    rng = Rng(derive_seed(seed, "policy"))
    choose = greedy_policy if policy == "greedy" else random_policy
    seen_events = 0
    step = after = 0
    while True:
        for event in deal.own_events()[seen_events:]:
            view.see(event)
        seen_events = len(deal.own_events())
        if step % every == 0 or deal.over:
            check_samples(deal.observation(seat), view, derive_seed(seed, step))
            after += view.stock is not None
        if deal.over:
            return after
        deal.apply(choose(deal, deal.to_move, rng))
        step += 1


def test_after_a_reshuffle_the_samples_keep_the_known_stock() -> None:
    """A seeded seven-up deal reshuffles its discards into the stock; from then on every
    sample's stock is those cards (less the ones drawn since), never a face-down one."""
    match = Match(SEVEN_UP, 2, RESHUFFLING_SEED)
    deal: Deal = match.deal
    while not deal.reshuffles:
        deal.apply(greedy_policy(deal, deal.to_move, None))
    assert not deal.over
    assert play_first_deal(SEVEN_UP, 2, RESHUFFLING_SEED, 0, "greedy") > 0


def test_after_a_reshuffle_the_observation_names_the_stocks_cards() -> None:
    """The stock's cards are public after a reshuffle (its order is not): the observation
    says which they are, and says nothing of the kind before."""
    match = Match(SEVEN_UP, 2, RESHUFFLING_SEED)
    deal = match.deal
    assert deal.observation(0).stock_cards is None
    while not deal.reshuffles:
        deal.apply(greedy_policy(deal, deal.to_move, None))
    for seat in range(2):
        seen = deal.observation(seat)
        assert seen.stock_cards == tuple(sorted(deal.stock))
        assert seen.to_dict()["stock_cards"] == [card_id(card) for card in sorted(deal.stock)]


@st.composite
def first_deals(draw: st.DrawFn) -> tuple[Rules, int, int, int, str]:
    """A preset (or a stock-only variant without wilds, which reshuffles in about one deal in
    five), a table size it allows, a seed, the observing seat and the policy of every seat."""
    rules = PRESETS[draw(st.sampled_from(sorted(PRESETS)))].rules
    if draw(st.booleans()):
        rules = rules.with_options(wilds="none", discard_draw="never", jokers=False)
    players = draw(st.integers(2, 8))
    try:
        Match(rules, players, 0)
    except RulesError:  # free draws are a 2-player rule
        players = 2
    seed = draw(st.integers(0, 2**32 - 1))
    seat = draw(st.integers(0, players - 1))
    return rules, players, seed, seat, draw(st.sampled_from(("greedy", "random")))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first_deals())
def test_every_sample_is_consistent_with_everything_public(
        case: tuple[Rules, int, int, int, str]) -> None:
    rules, players, seed, seat, policy = case
    play_first_deal(rules, players, seed, seat, policy, every=7)
