"""Scenario tests for every variant row of RULES.md (house rules), one stacked deck per rule.

The match-level variant rows (Short game, Fixed number of deals, First player rotates,
Places for the rest) are tested with whole matches in test_match_rules.py.
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import card, cards, first_legal, kinds, make_deal, play

from trash_tui.cards import JOKER, build_deck, make_card, standard_deck
from trash_tui.engine.actions import (
    CALL,
    CALL_CHOICE,
    DRAW,
    DRAW_DISCARD,
    DRAW_STOCK,
    OVER,
    SILENT,
    SWAP,
    SWAP_CHOICE,
    WILD_SLOT,
    wild_action,
)
from trash_tui.engine.deal import IllegalAction
from trash_tui.engine.match import Match
from trash_tui.presets import PRESETS, preset_rules
from trash_tui.rules import TRASH, WILD, Rules, RulesError

FILL5 = "9S 9H 9D 9C 9S"  # five cards above a five-slot layout: never placed, never wild
FILL5B = "8S 8H 8D 8C 8S"
ALL_SLOTS5 = tuple(wild_action(s) for s in range(1, 6))


def test_every_variant_row_has_a_preset():
    """RULES.md names every variant so that each can be switched on as a house rule."""
    for name in ("kings-wild", "jokers", "all-faces-wild", "eight-card", "kids", "short-game",
                 "fixed-deals", "rotate-first", "discard-when-playable", "last-turn",
                 "lucky-reveal", "three-free-draws", "call-trash", "places", "seven-up"):
        assert PRESETS[name].rules != Rules(), name


# --- Kings wild ----------------------------------------------------------------------------
def test_kings_wild_variant_makes_kings_wild():
    """Kings wild: Kings are wild."""
    deal = make_deal(Rules(wilds="kings"), [FILL5, FILL5B], ["KD", "QC"])
    play(deal, DRAW_STOCK)
    assert (deal.phase, deal.legal) == (WILD_SLOT, ALL_SLOTS5)
    play(deal, wild_action(2))
    assert deal.up[0][2] == card("KD")


@pytest.mark.parametrize("trash", ["JS", "QH"])
def test_kings_wild_variant_makes_jacks_and_queens_trash(trash):
    """Kings wild: Jacks and Queens are trash (drawing one ends the turn)."""
    assert preset_rules("kings-wild").wilds == "kings"
    deal = make_deal(Rules(wilds="kings"), [FILL5, FILL5B], [trash, "QC"])
    play(deal, DRAW_STOCK)
    assert deal.events == [("draw", 0, "stock", card(trash)), ("discard", 0, card(trash))]
    assert (deal.to_move, deal.phase) == (1, DRAW)


# --- Jokers --------------------------------------------------------------------------------
def test_jokers_variant_adds_two_jokers_per_deck():
    """Jokers: 2 Jokers per deck."""
    assert Counter(build_deck(1, True)) == Counter([*standard_deck(), *cards("*B *R")])
    match = Match(Rules(jokers=True), 4, seed=3)
    deck = match.deal.deck
    assert len(deck) == 2 * 54
    assert sum(1 for c in deck if c & 15 == JOKER) == 4
    assert Match(Rules(), 4, seed=3).deal.deck.count(make_card(JOKER, 0)) == 0


@pytest.mark.parametrize("wild", ["*R", "*B", "JC"])
def test_jokers_variant_makes_jokers_wild_in_addition_to_jacks(wild):
    """Jokers: wild in addition to the normal wilds."""
    deal = make_deal(Rules(jokers=True), [FILL5, FILL5B], [wild, "QC"])
    play(deal, DRAW_STOCK)
    assert (deal.phase, deal.legal) == (WILD_SLOT, ALL_SLOTS5)
    play(deal, wild_action(5))
    assert deal.events[-2:] == [("place", 0, 5, card(wild), card("9S")),
                                ("discard", 0, card("9S"))]


# --- All faces wild ------------------------------------------------------------------------
@pytest.mark.parametrize("face", ["JS", "QH", "KD"])
def test_all_faces_wild_variant_makes_jacks_queens_and_kings_wild(face):
    """All faces wild: J, Q, K all wild."""
    deal = make_deal(Rules(wilds="faces"), [FILL5, FILL5B], [face, "9C"])
    play(deal, DRAW_STOCK)
    assert (deal.phase, deal.legal) == (WILD_SLOT, ALL_SLOTS5)


def test_all_faces_wild_variant_has_no_trash():
    """All faces wild: no trash; a turn ends only on a duplicate or a rank above N."""
    rules = Rules(wilds="faces")
    assert preset_rules("all-faces-wild") == rules
    roles = rules.role_table()
    assert all(roles[make_card(rank, 0)] != TRASH for rank in range(1, 14))
    # AS -> slot 1 reveals QH: a Queen continues the chain as a wild instead of ending it.
    deal = make_deal(rules, ["QH 2S 9D 9C 9S", FILL5B], ["AS", "3C"])
    play(deal, DRAW_STOCK)
    assert (deal.phase, deal.legal) == (WILD_SLOT, tuple(wild_action(s) for s in range(2, 6)))
    play(deal, wild_action(4))  # QH on 4 reveals 9C: rank above N ends the turn
    assert deal.events[-2:] == [("place", 0, 4, card("QH"), card("9C")),
                                ("discard", 0, card("9C"))]
    play(deal, DRAW_STOCK)  # seat 1: 3C -> slot 3 reveals 8D: rank above N
    assert deal.events[-1] == ("discard", 1, card("8D"))


def test_all_faces_wild_variant_ends_the_turn_on_a_duplicate():
    """All faces wild: a duplicate of a naturally filled slot still ends the turn."""
    deal = make_deal(Rules(wilds="faces"), ["QH 2S 2D 9C 9S", FILL5B], ["2C", "3C"])
    play(deal, DRAW_STOCK)  # 2C -> slot 2 reveals 2S: duplicate
    assert deal.events[-2:] == [("place", 0, 2, card("2C"), card("2S")),
                                ("discard", 0, card("2S"))]


# --- Eight-card start, Kids' quick game ------------------------------------------------------
def test_eight_card_start_variant_starts_the_match_at_eight_slots_in_two_rows_of_four():
    """Eight-card start: the match starts at 8 slots (two rows of four)."""
    rules = preset_rules("eight-card")
    assert rules.start_size == 8
    assert rules.row_length(8) == 4 and rules.layout_rows == 2
    match = Match(rules, 3, seed=5)
    assert match.sizes == [8, 8, 8]
    assert match.deal.sizes == (8, 8, 8) and match.deal.face_down == [8, 8, 8]


@pytest.mark.parametrize("high", ["9H", "10D"])
def test_eight_card_start_variant_makes_nines_and_tens_unplayable(high):
    """Eight-card start: with 8 slots, 9s and 10s are ranks above N."""
    deal = make_deal(preset_rules("eight-card"), ["QS " * 8, "KS " * 8], [high, "QC"])
    play(deal, DRAW_STOCK)
    assert deal.events == [("draw", 0, "stock", card(high)), ("discard", 0, card(high))]


def test_kids_quick_game_variant_starts_the_match_at_five_slots():
    """Kids' quick game: the match starts at 5 slots (6 and up are unplayable)."""
    rules = preset_rules("kids")
    assert rules.start_size == 5
    match = Match(rules, 4, seed=2)
    assert match.sizes == [5, 5, 5, 5] and match.deal.sizes == (5, 5, 5, 5)
    deal = make_deal(rules, [FILL5, FILL5B], ["6S", "5S"])
    play(deal, DRAW_STOCK)
    assert deal.events[-1] == ("discard", 0, card("6S"))
    play(deal, DRAW_STOCK)
    assert deal.events[-2] == ("place", 1, 5, card("5S"), card("8S"))


# --- Discard only when playable --------------------------------------------------------------
PLAYABLE = Rules(discard_draw="playable")


def test_discard_when_playable_variant_allows_a_discard_that_fits_a_face_down_slot():
    """Discard only when playable: the top discard may be drawn if it fits a face-down slot."""
    assert preset_rules("discard-when-playable") == PLAYABLE
    deal = make_deal(PLAYABLE, [FILL5, "QS " * 8], ["7S", "QC"])
    play(deal, DRAW_STOCK)  # 7 is above seat 0's five slots; seat 1 has eight
    assert deal.legal == (DRAW_STOCK, DRAW_DISCARD)
    play(deal, DRAW_DISCARD)
    assert deal.events[-2] == ("place", 1, 7, card("7S"), card("QS"))


@pytest.mark.parametrize("top", ["QS", "KH", "7D"])
def test_discard_when_playable_variant_refuses_trash_and_high_ranks(top):
    """Discard only when playable: a top card that fits no slot of the player cannot be drawn."""
    deal = make_deal(PLAYABLE, [FILL5, FILL5B], [top, "QC"])
    play(deal, DRAW_STOCK)
    assert deal.discard == [card(top)]
    assert deal.legal == (DRAW_STOCK,)
    with pytest.raises(IllegalAction):
        deal.apply(DRAW_DISCARD)


def test_discard_when_playable_variant_refuses_a_duplicate_of_a_natural_slot():
    """Discard only when playable: a natural whose slot is face up with a natural does not fit."""
    deal = make_deal(PLAYABLE, ["QS QS QH QS QS", "3D QS 3S QS QS"], ["3H", "AS", "QC"])
    play(deal, DRAW_STOCK)  # seat 0: 3H on slot 3
    play(deal, DRAW_STOCK)  # seat 1: AS on 1, 3D on 3, 3S is a duplicate
    assert deal.discard[-1] == card("3S")
    assert (deal.to_move, deal.legal) == (0, (DRAW_STOCK,))


def test_discard_when_playable_variant_allows_a_natural_for_a_wild_held_slot():
    """Discard only when playable: a natural fitting a wild-held slot may be drawn."""
    deal = make_deal(PLAYABLE, ["QS QS QH QS QS", "QD QC"], ["JS", "3C", "QC"])
    play(deal, DRAW_STOCK, wild_action(3))  # J on slot 3 of seat 0
    play(deal, DRAW_STOCK)  # seat 1 (two slots) discards 3C
    assert (deal.to_move, deal.legal) == (0, (DRAW_STOCK, DRAW_DISCARD))
    play(deal, DRAW_DISCARD)
    assert (deal.phase, deal.legal) == (SWAP_CHOICE, (SWAP, 3))


def test_discard_when_playable_variant_allows_a_wild_while_a_slot_is_face_down():
    """Discard only when playable: a wild fits whenever a slot is face down."""
    rules = Rules(discard_draw="playable", last_turn=True)
    deal = make_deal(rules, ["JC", "QS KS"], ["AS", "QC"])
    play(deal, DRAW_STOCK)  # AS fills seat 0's only slot; the Jack displaced is discarded
    assert deal.winner == 0 and deal.discard == [card("JC")]
    assert (deal.to_move, deal.legal) == (1, (DRAW_STOCK, DRAW_DISCARD))
    play(deal, DRAW_DISCARD)
    assert (deal.phase, deal.legal) == (WILD_SLOT, (wild_action(1), wild_action(2)))


# --- Last turn for the others ------------------------------------------------------------------
LAST = Rules(last_turn=True)


def test_last_turn_variant_gives_every_other_player_one_more_turn():
    """Last turn: after a player completes a round, every other player gets one more turn."""
    deal = make_deal(LAST, ["QS", "KS", "QH"], ["KH", "AS", "QD", "QC", "KC"])
    play(deal, DRAW_STOCK, DRAW_STOCK)  # seat 0 discards KH; seat 1 wins
    assert deal.events[-3:] == [("win", 1), ("discard", 1, card("KS")),
                                ("extra", "last-turn", (2, 0))]
    assert (deal.to_move, deal.phase, deal.winner) == (2, DRAW, 1)
    play(deal, DRAW_STOCK)
    assert (deal.to_move, deal.phase) == (0, DRAW)
    play(deal, DRAW_STOCK)
    assert deal.phase == OVER
    assert [e[1] for e in kinds(deal, "draw")] == [0, 1, 2, 0]
    assert deal.events[-1] == ("end", 1, (1,))
    assert deal.shrinking == (1,)


def test_last_turn_variant_shrinks_whoever_also_completes():
    """Last turn: whoever also completes shrinks too (after the winner, in turn order)."""
    deal = make_deal(LAST, ["QS", "KS", "QH"], ["KH", "AS", "JD", "AH", "KC"])
    play(deal, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert kinds(deal, "complete") == [("complete", 2), ("complete", 0)]
    assert deal.shrinking == (1, 2, 0)
    assert deal.events[-1] == ("end", 1, (1, 2, 0))
    assert deal.winner == 1


def test_without_last_turn_nobody_plays_after_the_winner():
    """Standard game: the round is won at once and the others stop (no last turn)."""
    deal = make_deal(Rules(), ["QS", "KS", "QH"], ["KH", "AS", "JD", "AH", "KC"])
    play(deal, DRAW_STOCK, DRAW_STOCK)
    assert deal.phase == OVER and deal.shrinking == (1,)
    assert not kinds(deal, "extra")


# --- Lucky reveal ------------------------------------------------------------------------------
LUCKY = Rules(lucky_reveal=True)


def test_lucky_reveal_variant_shrinks_a_loser_whose_face_down_cards_sit_in_their_slots():
    """Lucky reveal: losers turn up their face-down cards; all in their own slots shrinks too."""
    deal = make_deal(LUCKY, ["2S 3S QS", "AH JH 3D", "2D AD 3C"], ["AS", "QC"])
    play(deal, DRAW_STOCK)
    assert deal.events[-4:] == [
        ("discard", 0, card("QS")),
        ("reveal", 1, tuple(cards("AH JH 3D")), True),
        ("reveal", 2, tuple(cards("2D AD 3C")), False),
        ("end", 0, (0, 1)),
    ]
    assert deal.shrinking == (0, 1)
    assert deal.revealed == {1: tuple(cards("AH JH 3D")), 2: tuple(cards("2D AD 3C"))}
    assert dict(deal.observation(2).revealed)[1] == tuple(cards("AH JH 3D"))


def test_lucky_reveal_variant_turns_up_only_face_down_cards():
    """Lucky reveal: only the cards still face down are turned up and judged."""
    deal = make_deal(LUCKY, ["2S 3S QS", "9H 2C 3C"], ["QD", "AH", "AS", "QC"])
    play(deal, DRAW_STOCK, DRAW_STOCK)  # seat 0 discards QD; seat 1 AH on 1, 9H out
    play(deal, DRAW_STOCK)  # seat 0 completes
    assert deal.events[-2:] == [("reveal", 1, tuple(cards("2C 3C")), True), ("end", 0, (0, 1))]


def test_without_lucky_reveal_nothing_is_revealed():
    """Standard game: losers' face-down cards are not turned up and do not shrink them."""
    deal = make_deal(Rules(), ["2S 3S QS", "AH JH 3D"], ["AS", "QC"])
    play(deal, DRAW_STOCK)
    assert not kinds(deal, "reveal") and deal.shrinking == (0,)


# --- Three free draws ----------------------------------------------------------------------------
FREE = Rules(free_draws=3)


def test_three_free_draws_variant_gives_the_loser_three_more_turns():
    """Three free draws: in a 2-player game the loser gets three free draws to complete."""
    assert preset_rules("three-free-draws").free_draws == 3
    deal = make_deal(FREE, ["2S QS", "QH QD"], ["AS", "KS", "KH", "KD", "KC"])
    play(deal, DRAW_STOCK)
    assert deal.events[-2:] == [("discard", 0, card("QS")), ("extra", "free-draws", (1, 1, 1))]
    for _ in range(3):
        assert (deal.to_move, deal.phase) == (1, DRAW)
        play(deal, DRAW_STOCK)
    assert deal.phase == OVER and deal.shrinking == (0,)
    assert [e[1] for e in kinds(deal, "draw")] == [0, 1, 1, 1]


def test_three_free_draws_variant_shrinks_a_loser_who_completes():
    """Three free draws: a loser who completes with them shrinks too."""
    deal = make_deal(FREE, ["2S QS", "2H KH"], ["AS", "QD", "AH", "KC"])
    play(deal, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert deal.phase == OVER
    assert kinds(deal, "complete") == [("complete", 1)]
    assert deal.events[-1] == ("end", 0, (0, 1))


def test_three_free_draws_come_after_the_last_turn_and_before_the_reveal():
    """Three free draws: the loser gets them to complete before revealing."""
    rules = Rules(free_draws=3, last_turn=True, lucky_reveal=True)
    deal = make_deal(rules, ["2S QS", "QH 2D"], ["AS", "KS", "KH", "KD", "QC", "QD"])
    play(deal, DRAW_STOCK)
    assert kinds(deal, "extra") == [("extra", "last-turn", (1,))]
    play(deal, DRAW_STOCK)
    assert kinds(deal, "extra")[-1] == ("extra", "free-draws", (1, 1, 1))
    play(deal, DRAW_STOCK, DRAW_STOCK, DRAW_STOCK)
    assert deal.events[-2:] == [("reveal", 1, tuple(cards("QH 2D")), False), ("end", 0, (0,))]
    assert [e[1] for e in kinds(deal, "draw")] == [0, 1, 1, 1, 1]


def test_three_free_draws_variant_is_for_two_players_only():
    """Three free draws: a 2-player rule; a table of more players is refused."""
    Match(FREE, 2, seed=1)
    with pytest.raises(RulesError, match="free_draws"):
        Match(FREE, 3, seed=1)


@pytest.mark.parametrize(("layout", "stock", "actions"), [
    ("KS", "AH JD QC KC", (DRAW_STOCK, SILENT)),
    ("KS QH", "JH 2C AH QC KC",  # J on slot 1, then 2C completes silently
     (DRAW_STOCK, wild_action(1), DRAW_STOCK, SILENT)),
])
def test_uncalled_completion_in_a_free_draw_does_not_count_and_ends_the_free_draws(
        layout, stock, actions):
    """Call "Trash!" + free draws: with no next turn to pay the penalty, a completion without
    the call does not count, and the player, with nothing face down, has no draws left."""
    rules = Rules(free_draws=3, call_trash=True, lucky_reveal=True)
    deal = make_deal(rules, ["QS", layout], ["AS", *stock.split()])
    play(deal, DRAW_STOCK, CALL)  # seat 0 wins with the call; seat 1 gets three free draws
    play(deal, *actions)
    assert kinds(deal, "silent") and not kinds(deal, "complete")
    assert deal.phase == OVER
    assert deal.shrinking == (0,)  # not "lucky" either: nothing was left face down


# --- Call "Trash!" ----------------------------------------------------------------------------
CALLING = Rules(call_trash=True)


def _about_to_complete(rules=CALLING, other="2H 3H KH", stock=("AS", "KD", "AH", "QC")):
    deal = make_deal(rules, ["2S 3S QS", other], list(stock))
    play(deal, DRAW_STOCK)
    return deal


def test_call_trash_variant_asks_for_the_call_before_the_final_placement():
    """Call "Trash!": the player placing their final card must call (a choice)."""
    deal = _about_to_complete()
    assert (deal.phase, deal.to_move, deal.legal) == (CALL_CHOICE, 0, (CALL, SILENT))
    assert deal.up[0] == [0, *cards("AS 2S"), 0]
    assert deal.face_down[0] == 1 and deal.winner is None


def test_calling_trash_wins_the_round_at_once():
    """Call "Trash!": a called final placement wins the round."""
    deal = _about_to_complete()
    play(deal, CALL)
    assert deal.events[-5:] == [
        ("call", 0),
        ("place", 0, 3, card("3S"), card("QS")),
        ("win", 0),
        ("discard", 0, card("QS")),
        ("end", 0, (0,)),
    ]


def test_a_wild_on_the_last_slot_also_needs_the_call():
    """Call "Trash!": the call is asked also when a wild goes on the last face-down slot."""
    deal = make_deal(CALLING, ["QS", "KS"], ["JD", "QC"])
    play(deal, DRAW_STOCK)
    assert deal.phase == CALL_CHOICE
    play(deal, CALL)
    assert deal.events[-4:-1] == [("place", 0, 1, card("JD"), card("QS")), ("win", 0),
                                  ("discard", 0, card("QS"))]


def test_forgetting_to_call_costs_a_penalty_card_before_the_win_counts():
    """Call "Trash!": one who forgets draws and discards a penalty card at their next turn."""
    deal = _about_to_complete()
    play(deal, SILENT)
    assert deal.events[-3:] == [("silent", 0), ("place", 0, 3, card("3S"), card("QS")),
                                ("discard", 0, card("QS"))]
    assert deal.face_down[0] == 0 and deal.winner is None
    assert (deal.to_move, deal.phase) == (1, DRAW)
    assert deal.observation(1).forgot_call == (0,)
    play(deal, DRAW_STOCK)  # seat 1 discards KD; seat 0's turn starts with the penalty
    assert deal.events[-5:] == [
        ("draw", 1, "stock", card("KD")),
        ("discard", 1, card("KD")),
        ("penalty", 0, card("AH")),
        ("win", 0),
        ("end", 0, (0,)),
    ]
    assert deal.discard[-1] == card("AH")
    assert deal.winner == 0 and deal.shrinking == (0,)


def test_forgetting_to_call_lets_another_player_win_first():
    """Call "Trash!": the others get one more turn to win first."""
    deal = _about_to_complete(stock=("AS", "AH", "QC"))
    play(deal, SILENT, DRAW_STOCK)  # seat 1: AH, 2H, 3H chain to its last slot
    assert deal.phase == CALL_CHOICE and deal.to_move == 1
    play(deal, CALL)
    assert deal.winner == 1 and deal.shrinking == (1,)
    assert not kinds(deal, "penalty")
    assert kinds(deal, "win") == [("win", 1)]


@pytest.mark.parametrize(("action", "shrinking"), [(CALL, (0, 1)), (SILENT, (0,))])
def test_completion_in_a_last_turn_counts_only_with_the_call(action, shrinking):
    """Call "Trash!" with last turns: a completion in an extra turn needs the call to count."""
    rules = Rules(call_trash=True, last_turn=True)
    deal = _about_to_complete(rules, stock=("AS", "AH", "QC"))
    play(deal, CALL)
    assert deal.to_move == 1
    play(deal, DRAW_STOCK)
    assert deal.phase == CALL_CHOICE
    play(deal, action)
    assert deal.phase == OVER
    assert deal.shrinking == shrinking
    assert bool(kinds(deal, "complete")) == (action == CALL)


# --- Seven Up ------------------------------------------------------------------------------------
SEVEN_UP = preset_rules("seven-up")


def test_seven_up_preset_is_seven_slots_in_one_row_no_wilds_stock_only_one_deal():
    """Seven Up: 7 slots in one row, no wilds, draws only from the stock, one deal decides."""
    assert SEVEN_UP.start_size == 7 and SEVEN_UP.layout_rows == 1
    assert SEVEN_UP.row_length(7) == 7
    assert SEVEN_UP.wilds == "none" and not SEVEN_UP.jokers
    assert SEVEN_UP.discard_draw == "never" and SEVEN_UP.max_deals == 1
    roles = SEVEN_UP.role_table()
    assert [roles[c] for c in cards("AS 7S")] == [1, 7]
    assert all(roles[c] > SEVEN_UP.start_size for c in cards("8S 9S 10S"))  # above N
    assert all(roles[c] == TRASH for c in cards("JS QS KS"))
    assert WILD not in roles


@pytest.mark.parametrize("dead", ["8S", "10H", "JD", "QC", "KS"])
def test_seven_up_makes_eight_through_king_unplayable(dead):
    """Seven Up: Ace..7 playable, 8 through King unplayable."""
    deal = make_deal(SEVEN_UP, ["QS " * 7, "KS " * 7], [dead, "7D", "QC"])
    play(deal, DRAW_STOCK)
    assert deal.events == [("draw", 0, "stock", card(dead)), ("discard", 0, card(dead))]
    play(deal, DRAW_STOCK)
    assert deal.events[-2] == ("place", 1, 7, card("7D"), card("KS"))


def test_seven_up_draws_only_from_the_stock():
    """Seven Up: draws only from the stock, even when the top discard would fit."""
    deal = make_deal(SEVEN_UP, ["QS " * 7, "KS " * 7], ["9S", "7S", "QC"])
    play(deal, DRAW_STOCK)  # seat 1 could use nothing; seat 0 discards 9S
    play(deal, DRAW_STOCK)  # seat 1: 7S on 7 reveals KS
    assert deal.discard == cards("9S KS")
    assert deal.legal == (DRAW_STOCK,)
    deal = make_deal(SEVEN_UP, ["QS 2S 3C 4S 5S 6S 7S", "KS " * 7], ["3H", "QC"])
    play(deal, DRAW_STOCK)  # 3C (a duplicate) is discarded; seat 1 needs a 3
    assert deal.discard == [card("3C")] and deal.legal == (DRAW_STOCK,)


@pytest.mark.parametrize("seed", [1, 2])
def test_seven_up_one_deal_decides_the_game(seed):
    """Seven Up: one deal decides the game (the deal's winner wins the match)."""
    match = Match(SEVEN_UP, 3, seed=seed)
    for _ in range(100_000):
        if match.over:
            break
        play(match, first_legal(match))
    result = match.result
    assert result is not None and result.deals == 1
    last = match.history[-1]
    assert result.winner == last.winner
    assert sorted(result.sizes) == [6, 7, 7] or len(last.shrinking) > 1
    assert result.places[last.winner] == 1
    assert len([h for h in match.history if not h.voided]) == 1


def test_forgotten_call_beaten_to_the_win_gets_no_free_draws_and_no_shrink():
    """Call "Trash!" + free draws: a player whose uncalled win was beaten has nothing face
    down, so no free draws are left to take; the penalty is never paid and they keep their
    size (free draws are not last turns)."""
    rules = Rules(call_trash=True, free_draws=3)
    deal = make_deal(rules, ["2S QS", "2H QH"], ["AS", "AH", "5S", "5H", "5D", "5C"])
    play(deal, DRAW_STOCK, SILENT)  # seat 0 completes without the call: the win waits
    play(deal, DRAW_STOCK, CALL)  # seat 1 completes with the call and wins first
    assert deal.winner == 1
    assert not kinds(deal, "penalty") and not kinds(deal, "extra")
    assert deal.phase == OVER and deal.shrinking == (1,)


def test_lucky_reveal_never_reaches_the_match_goal():
    """Lucky reveal at the one-slot stage: the match is won only by filling the slot, so an
    Ace lying face down under a loser's last slot does not shrink them to the goal."""
    deal = make_deal(LUCKY, ["2S", "AH"], ["AS", "KD", "KC", "KH"])  # one slot each
    play(deal, DRAW_STOCK)  # seat 0: AS fills its only slot and wins the deal
    assert deal.phase == OVER and deal.winner == 0
    [reveal] = kinds(deal, "reveal")
    assert reveal[1] == 1 and reveal[3] is False
    assert deal.shrinking == (0,)
