"""Scenario tests for the standard game of RULES.md, one stacked deck per rule.

Match-level rules of the standard game (the cut, shrinking, who plays first next, winning
the match, re-dealing a void deal) are in test_match_rules.py.
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import card, cards, kinds, make_deal, play, stack

from trash_tui.cards import build_deck, decks_for, make_card, standard_deck
from trash_tui.engine.actions import (
    DRAW,
    DRAW_DISCARD,
    DRAW_STOCK,
    KEEP,
    OVER,
    SWAP,
    SWAP_CHOICE,
    WILD_SLOT,
    wild_action,
)
from trash_tui.engine.deal import STALL_LIMIT, Deal, IllegalAction
from trash_tui.engine.match import Match
from trash_tui.rules import TRASH, WILD, Rules, RulesError

STANDARD = Rules()
QUEENS = "QS QH QD QC QS QH QD QC QS QH"  # ten trash cards: a layout that never chains
KINGS = "KS KH KD KC KS KH KD KC KS KH"


def test_stack_helper_deals_one_card_at_a_time_clockwise_from_first():
    """Helper check: cards are dealt slot by slot clockwise from ``first``, full layouts skipped."""
    layouts = [["AS", "2S"], ["3H", "4H", "5H"], ["6D"]]
    deck = stack(layouts, ["QC"], first=1)
    assert deck == cards("3H 6D AS 4H 2S 5H QC")
    deal = Deal(STANDARD, [2, 3, 1], 1, deck)
    assert deal.down == [[0, *cards(layout)] for layout in layouts]
    assert deal.stock == [card("QC")]


# --- players and decks -------------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 9))
def test_one_standard_deck_per_two_players(players):
    """Standard 52-card decks: 1 deck for 2 players, 2 for 3-4, 3 for 5-6, 4 for 7-8."""
    decks = -(-players // 2)
    assert decks_for(players) == decks
    match = Match(STANDARD, players, seed=players)
    assert Counter(match.deal.deck) == Counter(standard_deck() * decks)
    assert len(match.deal.deck) == 52 * decks


@pytest.mark.parametrize("players", [0, 1, 9])
def test_trash_is_for_two_to_eight_players(players):
    """2 to 8 players, each for themselves."""
    with pytest.raises(RulesError, match="players"):
        Match(STANDARD, players, seed=1)


def test_suits_never_matter():
    """Suits never matter: every suit of a rank has the same role."""
    roles = STANDARD.role_table()
    for rank in range(1, 14):
        assert len({roles[make_card(rank, suit)] for suit in range(4)}) == 1
    for suit in "SHDC":
        deal = make_deal(STANDARD, [QUEENS, KINGS], [f"7{suit}"])
        play(deal, DRAW_STOCK)
        assert deal.up[0][7] == card(f"7{suit}")


# --- ranks ---------------------------------------------------------------------------------
@pytest.mark.parametrize("rank", ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"])
def test_ace_and_numbers_fill_the_slot_of_the_same_number(rank):
    """Ace = 1, 2..10 face value: these fill the slot of the same number."""
    slot = 1 if rank == "A" else int(rank)
    drawn = card(f"{rank}D")
    deal = make_deal(STANDARD, [QUEENS, KINGS], [drawn])
    play(deal, DRAW_STOCK)
    assert deal.events == [
        ("draw", 0, "stock", drawn),
        ("place", 0, slot, drawn, card(QUEENS.split()[slot - 1])),
        ("discard", 0, deal.discard[-1]),
    ]
    assert deal.up[0][slot] == drawn
    assert [s for s in range(1, 11) if deal.up[0][s]] == [slot]


def test_jack_is_wild_and_the_player_chooses_its_slot():
    """Jacks are wild: a Jack may be placed on any face-down slot (choice of slot)."""
    deal = make_deal(STANDARD, [QUEENS, KINGS], ["JC"])
    play(deal, DRAW_STOCK)
    assert deal.phase == WILD_SLOT
    assert deal.to_move == 0
    assert deal.legal == tuple(wild_action(s) for s in range(1, 11))
    play(deal, wild_action(6))
    assert deal.up[0][6] == card("JC")
    assert deal.events[-2:] == [("place", 0, 6, card("JC"), card("QH")),
                                ("discard", 0, card("QH"))]


@pytest.mark.parametrize("trash", ["QS", "QH", "KD", "KC"])
def test_queen_and_king_are_trash_and_end_the_turn(trash):
    """Queens and Kings are trash: drawing one ends the turn; it goes face up on the discard."""
    deal = make_deal(STANDARD, ["AS 2S 3S", "AH 2H 3H"], [trash, "QC"])
    play(deal, DRAW_STOCK)
    assert deal.events == [("draw", 0, "stock", card(trash)), ("discard", 0, card(trash))]
    assert deal.up[0] == [0, 0, 0, 0]
    assert deal.discard == [card(trash)]
    assert deal.observation(1).discard_top == card(trash)
    assert (deal.to_move, deal.phase) == (1, DRAW)


# --- layout --------------------------------------------------------------------------------
def test_match_starts_with_ten_face_down_slots_each():
    """Each player's layout has N slots, N = 10 at the start of the match, dealt face down."""
    match = Match(STANDARD, 3, seed=7)
    assert match.sizes == [10, 10, 10]
    assert match.deal.sizes == (10, 10, 10)
    assert all(up == [0] * 11 for up in match.deal.up)
    assert match.deal.face_down == [10, 10, 10]


def test_layout_is_shown_in_two_rows_of_five():
    """Shown in two rows of five (slots 1-5 on top, 6-10 below), fewer slots in reading order."""
    assert STANDARD.layout_rows == 2
    assert STANDARD.row_length(10) == 5
    assert STANDARD.row_length(7) == 5


def test_nobody_sees_face_down_cards():
    """Nobody looks at their face-down cards: observations show only face-up cards."""
    deal = make_deal(STANDARD, ["5H 3C 8D 9S 10H", "2D 4S 6C 7H AH"], ["AS", "QC"])
    for seat in (0, 1):
        obs = deal.observation(seat)
        assert obs.layouts == ((None,) * 5, (None,) * 5)
        assert not hasattr(obs, "down") and not hasattr(obs, "stock")
    play(deal, DRAW_STOCK)  # AS -> slot 1, 5H -> slot 5, 10H rank above 5: discarded
    assert deal.observation(1).layouts[0] == (card("AS"), None, None, None, card("5H"))
    assert deal.observation(1).layouts[1] == (None,) * 5
    assert deal.observation(1).discard == (card("10H"),)


# --- a turn --------------------------------------------------------------------------------
def test_first_turn_of_a_round_draws_from_the_stock():
    """On the first turn of a round the discard pile is empty, so the stock it is."""
    deal = make_deal(STANDARD, [QUEENS, KINGS], ["QC"])
    assert (deal.phase, deal.to_move, deal.legal) == (DRAW, 0, (DRAW_STOCK,))
    assert deal.discard == []
    with pytest.raises(IllegalAction):
        deal.apply(DRAW_DISCARD)


def test_draw_choice_is_stock_or_top_discard():
    """Draw (choice): the top card of the stock, or the top card of the discard pile."""
    deal = make_deal(STANDARD, ["QS 2S 3C", "QH 2H QD"], ["3H", "KC"])
    play(deal, DRAW_STOCK)  # 3H -> slot 3 reveals 3C: duplicate, discarded
    assert deal.discard == [card("3C")]
    assert deal.legal == (DRAW_STOCK, DRAW_DISCARD)
    play(deal, DRAW_DISCARD)
    assert deal.events[-3:] == [
        ("draw", 1, "discard", card("3C")),
        ("place", 1, 3, card("3C"), card("QD")),
        ("discard", 1, card("QD")),
    ]
    assert deal.discard == [card("QD")]


def test_any_top_discard_may_be_drawn_even_if_it_does_not_fit():
    """Discard draws are allowed whatever the top card; one that does not fit is discarded."""
    deal = make_deal(STANDARD, [QUEENS, KINGS], ["KC", "QC"])
    play(deal, DRAW_STOCK)
    assert deal.legal == (DRAW_STOCK, DRAW_DISCARD)
    play(deal, DRAW_DISCARD)
    assert deal.events[-2:] == [("draw", 1, "discard", card("KC")), ("discard", 1, card("KC"))]
    assert deal.discard == [card("KC")]
    assert (deal.to_move, deal.stock) == (0, [card("QC")])


def test_chain_places_revealed_card_in_its_own_slot():
    """A card of rank r goes face up into slot r; the face-down card there is in hand: repeat."""
    layout = "5H QS QS QS 10C QS QS QS QS KD"
    deal = make_deal(STANDARD, [layout, KINGS], ["AS", "QC"])
    play(deal, DRAW_STOCK)
    assert deal.events == [
        ("draw", 0, "stock", card("AS")),
        ("place", 0, 1, card("AS"), card("5H")),
        ("place", 0, 5, card("5H"), card("10C")),
        ("place", 0, 10, card("10C"), card("KD")),
        ("discard", 0, card("KD")),
    ]
    assert deal.up[0] == [0, card("AS"), 0, 0, 0, card("5H"), 0, 0, 0, 0, card("10C")]
    assert deal.face_down == [7, 10]
    assert deal.to_move == 1


def test_wild_displaces_a_card_that_chains_as_usual():
    """The card a wild displaces is in hand and chains as usual."""
    layout = "QS KS QS 2H QS QS QS QS QS QS"
    deal = make_deal(STANDARD, [layout, KINGS], ["JS", "QC"])
    play(deal, DRAW_STOCK, wild_action(4))
    assert deal.events[1:] == [
        ("place", 0, 4, card("JS"), card("2H")),
        ("place", 0, 2, card("2H"), card("KS")),
        ("discard", 0, card("KS")),
    ]


def test_wild_must_be_played_while_a_face_down_slot_exists():
    """A wild must be played while a face-down slot exists (only face-down slots are legal)."""
    layout = "JH QS QS QS QS QS QS QS QS QS"
    deal = make_deal(STANDARD, [layout, KINGS], ["AS", "QC"])
    play(deal, DRAW_STOCK)  # AS -> slot 1 reveals JH, a wild mid-chain
    assert deal.phase == WILD_SLOT
    assert deal.legal == tuple(wild_action(s) for s in range(2, 11))
    for action in (DRAW_STOCK, DRAW_DISCARD, KEEP, wild_action(1)):
        with pytest.raises(IllegalAction):
            deal.apply(action)
    assert deal.discard == []
    play(deal, wild_action(10))
    assert deal.up[0][10] == card("JH")


def test_wild_on_the_only_face_down_slot_is_placed_automatically_and_wilds_count():
    """A wild with one face-down slot left goes there; every slot face up (wilds count) wins."""
    deal = make_deal(STANDARD, ["2S QS KS", "QH QD QC"], ["AS", "KH", "JD"])
    play(deal, DRAW_STOCK, DRAW_STOCK)  # AS, 2S placed, QS discarded; seat 1 discards KH
    assert deal.face_down == [1, 3]
    play(deal, DRAW_STOCK)
    assert deal.events[-5:] == [
        ("draw", 0, "stock", card("JD")),
        ("place", 0, 3, card("JD"), card("KS")),
        ("win", 0),
        ("discard", 0, card("KS")),
        ("end", 0, (0,)),
    ]
    assert deal.up[0] == [0, *cards("AS 2S JD")]
    assert (deal.winner, deal.phase) == (0, OVER)


def _wild_on_slot_3(stock_after):
    """Seat 0 puts a Jack on slot 3 (reveals QH, discarded); seat 1 discards KH."""
    layout = "3D QS QH QS 7C QS KC QS QS QS"
    deal = make_deal(STANDARD, [layout, KINGS], ["JS", "KH", *stock_after])
    play(deal, DRAW_STOCK, wild_action(3), DRAW_STOCK)
    assert deal.up[0][3] == card("JS")
    assert deal.to_move == 0
    return deal


def test_natural_may_replace_the_wild_in_its_slot_and_the_wild_moves_on():
    """Wild swap: a natural of rank r replaces the wild in slot r; the wild goes on (choice)."""
    deal = _wild_on_slot_3(["3C", "QC"])
    play(deal, DRAW_STOCK)
    assert (deal.phase, deal.legal, deal.to_move) == (SWAP_CHOICE, (SWAP, KEEP), 0)
    play(deal, SWAP)
    assert deal.events[-1] == ("swap", 0, 3, card("3C"), card("JS"))
    assert deal.phase == WILD_SLOT
    assert deal.legal == tuple(wild_action(s) for s in (1, 2, 4, 5, 6, 7, 8, 9, 10))
    play(deal, wild_action(5))
    assert deal.events[-3:] == [
        ("place", 0, 5, card("JS"), card("7C")),
        ("place", 0, 7, card("7C"), card("KC")),
        ("discard", 0, card("KC")),
    ]
    assert [deal.up[0][s] for s in (3, 5, 7)] == cards("3C JS 7C")


def test_declining_the_wild_swap_leaves_the_natural_unplayable():
    """Declining is legal: the natural card is then unplayable and is discarded."""
    deal = _wild_on_slot_3(["3C", "QC"])
    play(deal, DRAW_STOCK, KEEP)
    assert deal.events[-2:] == [("keep", 0, 3), ("discard", 0, card("3C"))]
    assert deal.up[0][3] == card("JS")
    assert deal.discard[-1] == card("3C")
    assert (deal.to_move, deal.phase) == (1, DRAW)


def test_revealed_natural_may_swap_for_the_wild_mid_chain():
    """The swap choice also comes for a card turned up in a chain, not only for a drawn one."""
    deal = _wild_on_slot_3(["AS", "QC"])  # slot 1 holds 3D
    play(deal, DRAW_STOCK)
    assert deal.events[-1] == ("place", 0, 1, card("AS"), card("3D"))
    assert (deal.phase, deal.legal) == (SWAP_CHOICE, (SWAP, KEEP))
    play(deal, KEEP)
    assert deal.events[-2:] == [("keep", 0, 3), ("discard", 0, card("3D"))]


def test_wild_freed_by_a_swap_goes_to_the_only_face_down_slot():
    """After a swap the wild is placed on another face-down slot (automatic if only one)."""
    deal = make_deal(STANDARD, ["2C KH QC", "QS QH QD"], ["JS", "KS", "AD"])
    play(deal, DRAW_STOCK, wild_action(1), DRAW_STOCK)  # J on 1, 2C on 2; KH out; KS out
    assert deal.face_down == [1, 3]
    play(deal, DRAW_STOCK, SWAP)
    assert deal.events[-5:] == [
        ("swap", 0, 1, card("AD"), card("JS")),
        ("place", 0, 3, card("JS"), card("QC")),
        ("win", 0),
        ("discard", 0, card("QC")),
        ("end", 0, (0,)),
    ]


def test_rank_above_layout_size_ends_the_turn():
    """The turn ends when the card in hand is a rank above N; it goes on the discard pile."""
    deal = make_deal(STANDARD, ["QS QS QS QS QS", "KS KS KS KS KS"], ["7S", "QC"])
    play(deal, DRAW_STOCK)
    assert deal.events == [("draw", 0, "stock", card("7S")), ("discard", 0, card("7S"))]
    assert deal.face_down == [5, 5]


def test_duplicate_of_a_natural_filled_slot_ends_the_turn():
    """The turn ends on a rank whose slot is already face up with a natural card."""
    deal = make_deal(STANDARD, ["QS 2S 3C", "QH QD QC"], ["3H", "3D", "KC"])
    play(deal, DRAW_STOCK)  # 3H -> slot 3 reveals 3C: duplicate
    assert deal.events[-2:] == [("place", 0, 3, card("3H"), card("3C")),
                                ("discard", 0, card("3C"))]
    assert deal.up[0][3] == card("3H")
    assert deal.discard == [card("3C")]
    assert (deal.to_move, deal.phase) == (1, DRAW)


def test_a_drawn_duplicate_is_discarded():
    """A drawn natural whose slot is already face up with a natural is discarded at once."""
    deal = make_deal(STANDARD, ["QS 2S 3C", "QH QD QC"], ["AS", "KS", "AH", "KC"])
    play(deal, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert deal.events[-2:] == [("draw", 0, "stock", card("AH")), ("discard", 0, card("AH"))]
    assert deal.up[0][1] == card("AS")


def test_when_the_stock_runs_out_the_top_discard_stays_and_the_rest_is_the_new_stock():
    """Stock runs out: set the top discard aside, the rest is the new stock; it stays on top."""
    deal = make_deal(STANDARD, ["QS KS", "QH KH", "QD KD"], ["QC", "KC", "QS"])
    play(deal, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert deal.stock == [] and deal.discard == cards("QC KC QS")
    play(deal, DRAW_STOCK)
    assert deal.events[-3:] == [
        ("reshuffle", 2),
        ("draw", 0, "stock", card("QC")),
        ("discard", 0, card("QC")),
    ]
    assert deal.discard == cards("QS QC")
    assert deal.stock == [card("KC")]
    assert deal.reshuffles == [tuple(cards("QC KC"))]
    assert (deal.to_move, deal.phase) == (1, DRAW)


# --- winning a round -------------------------------------------------------------------
def test_first_player_with_every_slot_face_up_wins_the_round_at_once():
    """The first player whose every slot is face up wins the round at once; the others stop."""
    deal = make_deal(STANDARD, ["QS KS QS", "2H 3H KH", "QD KD QD"], ["QC", "AS", "JC"])
    play(deal, DRAW_STOCK, DRAW_STOCK)
    assert deal.events[-6:] == [
        ("place", 1, 1, card("AS"), card("2H")),
        ("place", 1, 2, card("2H"), card("3H")),
        ("place", 1, 3, card("3H"), card("KH")),
        ("win", 1),
        ("discard", 1, card("KH")),
        ("end", 1, (1,)),
    ]
    assert (deal.winner, deal.shrinking, deal.phase, deal.legal) == (1, (1,), OVER, ())
    assert deal.discard == cards("QC KH")
    assert not [e for e in deal.events if e[0] == "draw" and e[1] == 2]
    with pytest.raises(IllegalAction):
        deal.apply(DRAW_STOCK)


def test_winner_of_one_round_cannot_play_tens():
    """A winner of one round plays slots 1-9, and 10s are unplayable for them."""
    deal = make_deal(STANDARD, ["QS " * 9, QUEENS], ["10H", "10D", "QC"])
    assert deal.sizes == (9, 10)
    play(deal, DRAW_STOCK)
    assert deal.events[-1] == ("discard", 0, card("10H"))
    play(deal, DRAW_STOCK)
    assert deal.events[-2] == ("place", 1, 10, card("10D"), card("QH"))


@pytest.mark.parametrize("filler", ["AH", "JD"])
def test_one_slot_layout_is_filled_by_an_ace_or_a_wild(filler):
    """A layout down to one slot (the Ace) is filled with an Ace or a wild."""
    deal = make_deal(STANDARD, ["QS", "KS"], ["2S", filler, "QC"])
    play(deal, DRAW_STOCK)
    assert deal.events[-1] == ("discard", 0, card("2S"))  # a 2 is a rank above N = 1
    play(deal, DRAW_STOCK)
    assert deal.events[-4:] == [("place", 1, 1, card(filler), card("KS")), ("win", 1),
                                ("discard", 1, card("KS")), ("end", 1, (1,))]


# --- termination ---------------------------------------------------------------------------
def test_deal_where_nobody_can_place_a_card_again_is_void():
    """A deal in which no player can ever place a card again is detected and voided."""
    deal = make_deal(STANDARD, ["QS 5S", "KS 5H"], ["QH", "KH", "QD", "KD", "3C", "QC"])
    play(deal, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert deal.phase == DRAW
    play(deal, DRAW_STOCK)  # 2 * players turns in a row without a placement
    assert deal.phase == OVER and deal.legal == ()
    assert deal.voided
    assert deal.events[-1] == ("void", deal.voided)
    assert deal.winner is None and deal.shrinking == ()
    assert not kinds(deal, "end")


@pytest.mark.parametrize("live", ["AS", "2D", "JS"])
def test_deal_with_a_placeable_card_left_is_not_void(live):
    """Only a deal without possible progress is void: a natural or wild still to come saves it."""
    deal = make_deal(STANDARD, ["QS KC", "KS QC"], ["QH", "KH", "QD", "KD", live, "QC"])
    play(deal, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert deal.voided is None
    assert (deal.phase, deal.to_move) == (DRAW, 0)
    play(deal, DRAW_STOCK)
    if deal.phase == WILD_SLOT:
        play(deal, wild_action(1))
    assert kinds(deal, "place")


def test_deal_without_a_placement_for_stall_limit_turns_is_void():
    """A deal that makes no progress (here: a swap always declined) is voided after 1000 turns."""
    deal = make_deal(STANDARD, ["QS 5S", "KS 5H"], ["JS", "AH", "AS", "QH"])
    play(deal, DRAW_STOCK, wild_action(1))  # J on slot 1 reveals QS
    play(deal, DRAW_STOCK)  # seat 1: AH on slot 1 reveals KS
    assert deal.up == [[0, card("JS"), 0], [0, card("AH"), 0]]
    last_place = len(deal.events)
    for _ in range(2 * STALL_LIMIT):
        if deal.phase == OVER:
            break
        play(deal, KEEP if deal.phase == SWAP_CHOICE else DRAW_STOCK)
    assert deal.voided and str(STALL_LIMIT) in deal.voided
    assert deal.events[-1] == ("void", deal.voided)
    draws = [e for e in deal.events[last_place:] if e[0] == "draw"]
    assert len(draws) == STALL_LIMIT
    assert kinds(deal, "keep")  # the Ace kept being offered for the wild on slot 1
    assert not [e for e in deal.events[last_place:] if e[0] == "place"]


def test_roles_of_the_standard_game():
    """Jacks are wild; Queens and Kings are trash; Ace..10 are naturals of their own slot."""
    roles = STANDARD.role_table()
    assert [roles[c] for c in cards("AS 2S 9S 10S")] == [1, 2, 9, 10]
    assert [roles[c] for c in cards("JS QS KS")] == [WILD, TRASH, TRASH]
    assert sorted(build_deck(1, False)) == sorted(standard_deck())
