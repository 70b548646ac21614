"""Match-level rules: the cut, shrinking layouts, who plays first, how a match is won.

Decks are stacked with ``StackedSource`` (helpers.py); ``quick_deal`` builds a deal in
which the seats before ``winner`` (in turn order) draw one card each and ``winner`` then
completes in one chain from an Ace.
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import StackedSource, card, cards, chain_layout, first_legal, play

from trash_tui.cards import build_deck, decks_for, rank_of
from trash_tui.engine.actions import DRAW_STOCK, OVER
from trash_tui.engine.deal import IllegalAction
from trash_tui.engine.match import Match
from trash_tui.engine.record import match_record, replay
from trash_tui.presets import preset_rules
from trash_tui.rules import Rules

FILL_SUITS = "SDCS"  # seat s's filler suit; the winner's chain is in hearts
TRASH_DRAWS = ("QS", "QD", "QC", "KS", "KD", "KC")


def filler(seat: int, size: int) -> list[str]:
    """A layout whose slot k holds rank k: a natural drawn for it is placed, then a duplicate."""
    return [f"{'A' if r == 1 else r}{FILL_SUITS[seat]}" for r in range(1, size + 1)]


def quick_deal(sizes, first, winner, draws=None, layouts=None):
    """A stacked deal: seats before ``winner`` draw ``draws[seat]`` (default trash), then
    ``winner`` draws the Ace of hearts and completes a chain layout."""
    draws = draws or {}
    layouts = layouts or {}
    players = len(sizes)
    lays = []
    for seat in range(players):
        if seat in layouts:
            lays.append(layouts[seat])
        elif seat == winner:
            lays.append(chain_layout(sizes[seat], "H"))
        else:
            lays.append(filler(seat, sizes[seat]))
    trash = iter(TRASH_DRAWS)
    stock = []
    seat = first
    while seat != winner:
        stock.append(draws.get(seat) or next(trash))
        seat = (seat + 1) % players
    stock.append("AH")
    return lays, stock


def run_deal(match: Match) -> None:
    """Play the current deal with stock draws (and the first legal choice) until it ends."""
    number = len(match.history)
    for _ in range(10_000):
        if match.over or len(match.history) > number:
            return
        play(match, first_legal(match))
    raise AssertionError("the deal did not end")


def play_out(match: Match) -> None:
    for _ in range(1_000_000):
        if match.over:
            return
        play(match, first_legal(match))
    raise AssertionError("the match did not end")


# --- the cut for the first dealer -------------------------------------------------------------
def test_lowest_cut_card_deals_and_the_player_left_of_the_dealer_plays_first():
    """First deal: the lowest card of a cut deals; the player to the dealer's left plays first."""
    source = StackedSource([None], cut="5S 2H 9D")
    match = Match(Rules(), 3, source=source)
    assert match.events[0] == ("cut", ((0, card("5S")), (1, card("2H")), (2, card("9D"))), 1)
    assert (match.dealer, match.first) == (1, 2)
    assert (match.deal.first, match.deal.to_move) == (2, 2)
    assert source.dealt == [((10, 10, 10), 2)]
    assert match.events[1] == ("deal", 1, 2, (10, 10, 10))


def test_ace_is_the_lowest_cut_card_and_the_last_dealer_passes_to_seat_zero():
    """The cut: the lowest card deals, Ace low; left of the last seat is seat 0."""
    match = Match(Rules(), 2, source=StackedSource([None], cut="KS AH"))
    assert (match.dealer, match.first, match.deal.to_move) == (1, 0, 0)


def test_players_tied_for_the_lowest_cut_card_cut_again():
    """The cut: players tied for the lowest card cut again (suits never matter)."""
    match = Match(Rules(), 3, source=StackedSource([None], cut="2S 9H 2D KS 3C"))
    assert [e for e in match.events if e[0] == "cut"] == [
        ("cut", ((0, card("2S")), (1, card("9H")), (2, card("2D"))), None),
        ("cut", ((0, card("KS")), (2, card("3C"))), 2),
    ]
    assert (match.dealer, match.first) == (2, 0)
    assert match.cut == cards("2S 9H 2D KS 3C")


@pytest.mark.parametrize("players", [2, 5, 8])
def test_seeded_cuts_pick_a_lowest_card(players):
    """The cut with shuffled cards: the dealer holds the lowest card of the deciding round."""
    for seed in range(15):
        match = Match(Rules(), players, seed=seed)
        cut_events = [e for e in match.events if e[0] == "cut"]
        *ties, (_, drawn, dealer) = cut_events
        lowest = min(rank_of(c) for _, c in drawn)
        assert [s for s, c in drawn if rank_of(c) == lowest] == [dealer]
        assert match.first == (dealer + 1) % players == match.deal.first
        for _, tied_round, decided in ties:
            assert decided is None
            low = min(rank_of(c) for _, c in tied_round)
            assert sum(rank_of(c) == low for _, c in tied_round) > 1


# --- next round: shrinking, who plays first ------------------------------------------------
def test_round_winner_layout_has_one_slot_fewer_next_deal():
    """The round winner's layout has one slot fewer; everyone else keeps their size."""
    source = StackedSource([quick_deal([10, 10, 10], 0, 2), None])
    match = Match(Rules(), 3, source=source, first=0)
    play(match, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert match.history[0].winner == 2 and match.history[0].shrinking == (2,)
    assert match.sizes == [10, 10, 9]
    assert match.deal.sizes == (10, 10, 9)
    assert source.dealt[-1][0] == (10, 10, 9)
    assert Counter(match.deal.deck) == Counter(build_deck(decks_for(3), False))  # re-dealt


def test_round_winner_plays_first_in_the_next_deal():
    """The winner of a round plays first in the next (001/004)."""
    source = StackedSource([quick_deal([10, 10, 10], 0, 2), None])
    match = Match(Rules(), 3, source=source, first=0)
    play(match, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert match.first == 2
    assert (match.deal.first, match.deal.to_move) == (2, 2)
    assert match.events[-1] == ("deal", 2, 2, (10, 10, 9))


def test_first_player_rotates_variant_passes_the_first_turn_clockwise():
    """First player rotates: the first turn of each deal passes clockwise, not to the winner."""
    rules = preset_rules("rotate-first")
    assert rules.first_player == "rotate"
    source = StackedSource([quick_deal([10, 10, 10], 0, 2), quick_deal([10, 10, 9], 1, 2), None])
    match = Match(rules, 3, source=source, first=0)
    play(match, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert (match.first, match.deal.to_move) == (1, 1)
    play(match, DRAW_STOCK, DRAW_STOCK)
    assert match.sizes == [10, 10, 8]
    assert (match.first, match.deal.to_move) == (2, 2)
    assert [d[1] for d in source.dealt] == [0, 1, 2]


@pytest.mark.parametrize("first_player", ["winner", "rotate"])
def test_seeded_matches_shrink_winners_and_pass_the_first_turn_by_the_rule(first_player):
    """Across seeded matches: only shrinking seats lose one slot; first player by the rule."""
    rules = Rules(start_size=3, first_player=first_player)
    for seed in range(4):
        match = Match(rules, 3, seed=seed)
        play_out(match)
        sizes = [3, 3, 3]
        history = match.history
        for i, summary in enumerate(history):
            assert summary.sizes == tuple(sizes)
            assert Counter(summary.deck) == Counter(build_deck(2, False))
            if summary.voided:
                if i + 1 < len(history):
                    assert history[i + 1].first == summary.first
                continue
            for seat in summary.shrinking:
                sizes[seat] -= 1
            if i + 1 < len(history):
                expected = (summary.winner if first_player == "winner"
                            else (summary.first + 1) % 3)
                assert history[i + 1].first == expected
        assert match.result.sizes == sizes
        assert sizes[match.result.winner] == 0


# --- winning the match ----------------------------------------------------------------------
@pytest.mark.parametrize("filler_card", ["AD", "JD"])
def test_match_is_won_by_filling_the_one_slot_layout(filler_card):
    """A player whose layout is down to one slot and who fills it (Ace or wild) wins the match."""
    assert Rules().target_size == 0
    source = StackedSource([
        (["2S QS", "KS KD"], ["AS"]),
        (["KH", "QD QC"], [filler_card]),
    ])
    match = Match(Rules(start_size=2), 2, source=source, first=0)
    play(match, DRAW_STOCK)
    assert match.sizes == [1, 2] and not match.over
    assert match.deal.sizes == (1, 2)
    play(match, DRAW_STOCK)
    assert match.over and match.phase == OVER and match.legal == ()
    result = match.result
    assert (result.winner, result.places, result.sizes, result.deals) == (0, [1, 2], [0, 2], 2)
    assert match.events[-1] == ("match", 0, (1, 2))
    with pytest.raises(IllegalAction):
        match.apply(DRAW_STOCK)


def test_others_all_take_second_place_without_the_places_variant():
    """Standard game: one player wins the match; nobody else is ranked."""
    draws = {0: "5C"}  # seat 0 places a card (9 face down), seat 1 places none (10)
    source = StackedSource([quick_deal([10, 10, 10], 0, 2, draws)])
    match = Match(Rules(target_size=9), 3, source=source, first=0)
    play(match, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert match.history[0].face_down == (9, 10, 0)
    assert match.result.winner == 2
    assert match.result.places == [2, 2, 1]


def test_short_game_variant_first_player_down_to_the_target_size_wins():
    """Short game: the first player to get down to a given layout size wins the match."""
    assert preset_rules("short-game").target_size == 6
    source = StackedSource([quick_deal([10, 10], 0, 1), quick_deal([10, 9], 1, 1)])
    match = Match(Rules(target_size=8), 2, source=source, first=0)
    play(match, DRAW_STOCK, DRAW_STOCK)
    assert match.sizes == [10, 9] and not match.over
    play(match, DRAW_STOCK)
    assert match.over
    assert (match.result.winner, match.result.sizes, match.result.deals) == (1, [10, 8], 2)


@pytest.mark.parametrize("rules", [Rules(target_size=9, last_turn=True),
                                   Rules(max_deals=1, last_turn=True)])
def test_several_finishers_the_first_to_complete_wins(rules):
    """Several players completing in one deal: the first in completion order wins the match."""
    layouts = [chain_layout(10, "H"), chain_layout(10, "D", last="K")]
    source = StackedSource([(layouts, ["KS", "AH", "AD"])])
    match = Match(rules, 2, source=source, first=1)  # seat 1 plays first: turn order favours it
    play(match, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert match.history[0].shrinking == (0, 1)
    assert match.history[0].face_down == (0, 0)
    assert match.result.sizes == [9, 9]
    assert (match.result.winner, match.result.places) == (0, [1, 2])


# --- fixed number of deals --------------------------------------------------------------------
def test_fixed_number_of_deals_variant_smallest_layout_wins():
    """Fixed number of deals: after it, the smallest layout wins."""
    assert preset_rules("fixed-deals").max_deals == 5
    source = StackedSource([
        quick_deal([10, 10], 0, 0), quick_deal([9, 10], 0, 0), quick_deal([8, 10], 0, 1),
    ])
    match = Match(Rules(max_deals=3), 2, source=source, first=0)
    play(match, DRAW_STOCK, DRAW_STOCK)
    assert not match.over
    play(match, DRAW_STOCK, DRAW_STOCK)
    assert match.over
    assert match.history[-1].winner == 1 and match.history[-1].face_down[1] == 0
    result = match.result
    assert (result.winner, result.sizes, result.places, result.deals) == (0, [8, 9], [1, 2], 3)


def test_fixed_number_of_deals_variant_ties_by_fewest_face_down_cards():
    """Fixed number of deals: ties by fewest face-down cards in the last deal (others ranked)."""
    source = StackedSource([
        quick_deal([10, 10, 10], 0, 0),
        quick_deal([9, 10, 10], 0, 1, {0: "5C"}),  # seat 0: 9 - 1 face down; seat 1 wins
    ])
    match = Match(Rules(max_deals=2), 3, source=source, first=0)
    play(match, DRAW_STOCK)
    play(match, DRAW_STOCK, DRAW_STOCK)
    assert match.result.sizes == [9, 9, 10]
    assert match.history[-1].face_down == (8, 0, 10)
    assert (match.result.winner, match.result.places) == (1, [2, 1, 3])


def test_fixed_number_of_deals_ranks_the_others_with_shared_places_for_ties():
    """Fixed number of deals: the others are ranked by size, then face-down cards; ties share."""
    source = StackedSource([quick_deal([10, 10, 10, 10], 0, 3)])
    match = Match(Rules(max_deals=1), 4, source=source, first=0)
    play(match, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert match.history[0].face_down == (10, 10, 10, 0)
    assert match.result.winner == 3
    assert match.result.places == [2, 2, 2, 1]


# --- places for the rest ---------------------------------------------------------------------
def test_places_variant_ranks_the_rest_by_face_down_cards_at_equal_size():
    """Places for the rest: the others are ranked by face-down cards left in the last deal."""
    assert preset_rules("places").places
    source = StackedSource([quick_deal([10, 10, 10], 0, 2, {0: "5C"})])
    match = Match(Rules(places=True, target_size=9), 3, source=source, first=0)
    play(match, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert match.history[0].face_down == (9, 10, 0)
    assert match.result.places == [2, 3, 1]


def test_places_variant_ranks_the_rest_by_layout_size_first():
    """Places for the rest: ranked by layout size first, then by face-down cards left."""
    rules = Rules(places=True, target_size=8, first_player="rotate")
    seat0 = "AS 2S 3S 4S 6S 6D 7S 8S 9S 10S"  # a 5 places 5 and 6, then 6D is a duplicate
    source = StackedSource([
        quick_deal([10, 10, 10], 0, 2),
        quick_deal([10, 10, 9], 1, 1),
        quick_deal([10, 9, 9], 2, 1, {0: "5C"}, {0: seat0}),
    ])
    match = Match(rules, 3, source=source, first=0)
    play(match, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)  # deal 1: seat 2 wins
    play(match, DRAW_STOCK)  # deal 2: seat 1 wins at once
    play(match, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)  # deal 3: 2 trash, 0 places two, 1 wins
    assert match.result.sizes == [10, 8, 9]
    assert match.history[-1].face_down == (8, 0, 9)
    assert (match.result.winner, match.result.places) == (1, [3, 1, 2])


def test_places_variant_tied_players_share_a_place():
    """Places for the rest: players equal on size and face-down cards share a place."""
    source = StackedSource([quick_deal([10, 10, 10, 10], 0, 3, {0: "5C", 1: "7C"})])
    match = Match(Rules(places=True, target_size=9), 4, source=source, first=0)
    play(match, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert match.history[0].face_down == (9, 9, 10, 0)
    places = match.result.places
    assert places[3] == 1 and places[0] == places[1] == 2
    assert places[2] > 2


# --- void deals --------------------------------------------------------------------------------
def test_void_deal_is_redealt_with_the_same_sizes_and_first_player():
    """A deal without progress is voided and re-dealt with the same layout sizes (and recorded)."""
    dead = (["5S " * 10, "5D " * 9], ["QS", "KS", "QH", "KH", "QD", "KD"], False)
    source = StackedSource([quick_deal([10, 10], 0, 1), dead, None])
    match = Match(Rules(), 2, source=source, first=0)
    play(match, DRAW_STOCK, DRAW_STOCK)  # deal 1: seat 1 wins
    assert (match.sizes, match.first) == ([10, 9], 1)
    run_deal(match)  # deal 2 is stuck: four turns without a placement, nothing playable
    voided = match.history[-1]
    assert voided.voided and voided.winner is None
    assert match.sizes == [10, 9]
    assert (match.deals_played, match.deal_number) == (1, 2)
    assert (match.deal.sizes, match.deal.first, match.deal.to_move) == ((10, 9), 1, 1)
    assert source.dealt == [((10, 10), 0), ((10, 9), 1), ((10, 9), 1)]
    void_at = match.events.index(("void", voided.voided))
    assert match.events[void_at + 1] == ("deal", 2, 1, (10, 9))
    record = match_record(match)
    assert record["deals"][1]["void"] == voided.voided


def test_a_stacked_match_record_replays():
    """Helper check: stacked matches use the match's full multiset, so their records replay."""
    source = StackedSource([quick_deal([10, 10], 0, 1), quick_deal([10, 9], 1, 1)], cut="KS AH")
    match = Match(Rules(target_size=8), 2, source=source)
    assert match.first == 0
    play(match, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    replayed = replay(match_record(match))
    assert replayed.result.winner == 1 and replayed.result.sizes == [10, 8]


def test_record_of_a_match_started_without_a_cut_replays():
    """Records: a match begun with a given first player (no cut) replays to the same result."""
    source = StackedSource([quick_deal([10, 10], 0, 1), quick_deal([10, 9], 1, 1)])
    match = Match(Rules(target_size=8), 2, source=source, first=0)
    play(match, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    replayed = replay(match_record(match))
    assert replayed.result.winner == 1
