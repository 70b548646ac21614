"""The engine's fused greedy playout (``Deal.play_greedy``, ``Match.play_deal_greedy``) plays
exactly the game of the ``greedy`` policy applied one decision at a time, so simulations and
the look-ahead bots' rollouts that use it give the same deals, records and results.

Speed itself is measured by ``benchmarks/engine.py``, not asserted here."""

from __future__ import annotations

import json

import pytest

from bots.builtin import greedy_policy
from trash_tui.cards import build_deck, decks_for
from trash_tui.engine.actions import OVER
from trash_tui.engine.deal import Deal, IllegalAction
from trash_tui.engine.match import Match
from trash_tui.engine.record import deal_record, match_record
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.presets import PRESETS, preset_rules
from trash_tui.simulate import PolicyPlayers, run_deals, run_matches

CASES = [(name, players) for name in PRESETS for players in (2, 3, 4)
         if not (preset_rules(name).free_draws and players != 2)]


def stepwise(deal: Deal) -> None:
    rng = Rng(0)  # greedy draws nothing from it
    while deal.phase != OVER:
        deal.apply(greedy_policy(deal, deal.to_move, rng))


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_greedy_playout_plays_the_same_deals(preset: str, players: int) -> None:
    rules = preset_rules(preset)
    cards = build_deck(decks_for(players), rules.jokers)
    for index in range(40):
        rng = Rng(derive_seed(preset, players, index))
        fused = Deal(rules, (rules.start_size,) * players, index % players, cards,
                     reshuffle=rng.shuffle, shuffle_with=rng)
        twin = fused.copy()
        fused.play_greedy()
        stepwise(twin)
        labels = ["greedy"] * players
        assert json.dumps(deal_record(fused, labels, index)) == \
            json.dumps(deal_record(twin, labels, index))
        assert fused.own_events() == twin.own_events()
        assert (fused.winner, fused.shrinking, fused.voided, fused.turns, fused.face_down) \
            == (twin.winner, twin.shrinking, twin.voided, twin.turns, twin.face_down)


@pytest.mark.parametrize(("preset", "players"), CASES[::3])
def test_greedy_matches_have_the_same_records(preset: str, players: int) -> None:
    rules = preset_rules(preset)
    for index in range(3):
        seed = derive_seed(preset, "match", index)
        fused = Match(rules, players, seed)
        while not fused.over:
            fused.play_deal_greedy()
        twin = Match(rules, players, seed)
        while not twin.over:
            twin.apply(greedy_policy(twin.deal, twin.to_move, Rng(0)))
        labels = ["greedy"] * players
        assert json.dumps(match_record(fused, labels)) == json.dumps(match_record(twin, labels))
        assert fused.events == twin.events
        assert fused.result == twin.result


def test_simulate_with_greedy_seats_counts_the_same_wins() -> None:
    """``trash simulate --bot greedy`` takes the fused playout; its counts are unchanged."""
    rules = preset_rules("standard")

    class Stepwise(PolicyPlayers):
        def __init__(self) -> None:
            super().__init__([greedy_policy] * 3, seed=5)
            self.all_greedy = False

    for run in (run_deals, run_matches):
        fused = run(rules, 3, PolicyPlayers([greedy_policy] * 3, seed=5), 30, seed=5)
        plain = run(rules, 3, Stepwise(), 30, seed=5)
        assert (fused.seat_wins, fused.deals, fused.voided, fused.turns) == \
            (plain.seat_wins, plain.deals, plain.voided, plain.turns)


def test_a_finished_match_refuses_another_greedy_deal() -> None:
    match = Match(preset_rules("kids"), 2, 3)
    while not match.over:
        match.play_deal_greedy()
    with pytest.raises(IllegalAction, match="the match is over"):
        match.play_deal_greedy()
