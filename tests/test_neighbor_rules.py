"""Help Your Neighbor rules (RULES.md 003), one scenario per rule, on dice fixed in advance.

Each game starts from ``FixedDice``: the opening rolls decide the first player, and every
``ROLL`` after that takes the next pair. A few positions are set up by covering markers by
hand (``game.covered``), where reaching them with dice would only lengthen the test.
"""

from __future__ import annotations

import pytest

from trash_tui.neighbor import engine
from trash_tui.neighbor.engine import (
    MARKERS,
    ROLL,
    ROWS,
    DiceExhausted,
    FixedDice,
    IllegalAction,
    NeighborGame,
    SeededDice,
    action_name,
    parse_action,
    uncover_action,
    uncover_marker,
)

# three players, seat 0 rolls highest at the opening
SEAT_0_STARTS = [(6, 6), (1, 1), (1, 2)]


def game_with(rolls: list[tuple[int, int]], opening: list[tuple[int, int]] | None = None,
              players: int = 3) -> NeighborGame:
    """A game on fixed dice: the opening rolls (seat 0 starts by default), then ``rolls``."""
    return NeighborGame(players, dice=FixedDice([*(opening or SEAT_0_STARTS), *rolls]))


def roll(game: NeighborGame, times: int = 1) -> list[tuple]:
    """Apply ROLL ``times`` times; the events those rolls produced."""
    start = len(game.events)
    for _ in range(times):
        game.apply(ROLL)
    return game.events[start:]


# --- the table -------------------------------------------------------------------------------
def test_every_player_has_ten_markers_in_two_rows_without_seven() -> None:
    assert ROWS == ((2, 3, 4, 5, 6), (8, 9, 10, 11, 12))
    assert ROWS[0] + ROWS[1] == MARKERS and 7 not in MARKERS
    game = NeighborGame(5, seed=1)
    assert all(game.shown(seat) == MARKERS for seat in range(5))
    assert game.covered == [set()] * 5


@pytest.mark.parametrize("players", [2, 9, 0, True, "4"])
def test_three_to_eight_players(players: object) -> None:
    with pytest.raises(ValueError, match="3 to 8 players"):
        NeighborGame(players)  # type: ignore[arg-type]
    for good in range(3, 9):
        assert NeighborGame(good).players == good


# --- the first player ------------------------------------------------------------------------
def test_the_first_player_is_whoever_rolls_highest() -> None:
    game = game_with([], opening=[(1, 2), (6, 5), (3, 3)])
    assert game.events == [("opening", 0, 1, 2), ("opening", 1, 6, 5), ("opening", 2, 3, 3),
                           ("first", 1), ("turn", 1)]
    assert (game.first, game.to_move, game.phase, game.legal) == (1, 1, "roll", (ROLL,))
    assert game.rolls == [(1, 2), (6, 5), (3, 3)]
    assert game.turn == 0 and game.last_roll is None


def test_ties_for_the_highest_opening_roll_roll_again_among_the_tied_only() -> None:
    opening = [(6, 6), (2, 2), (6, 6), (1, 1),  # seats 0 and 2 tie at 12
               (3, 4), (3, 4),                  # they tie again at 7 (seats 1, 3 sit out)
               (1, 1), (2, 1)]                  # seat 2 wins with 3 against 2
    game = game_with([], opening=opening, players=4)
    openings = [e[1] for e in game.events if e[0] == "opening"]
    assert openings == [0, 1, 2, 3, 0, 2, 0, 2]
    assert game.first == game.to_move == 2
    assert ("first", 2) in game.events
    assert game.rolls == opening


# --- covering ----------------------------------------------------------------------------------
def test_a_total_the_roller_shows_is_covered_and_the_roller_rolls_again() -> None:
    game = game_with([(2, 3), (6, 6)])
    assert roll(game) == [("roll", 0, 2, 3), ("cover", 0, 5)]
    assert game.covered[0] == {5} and 5 not in game.shown(0)
    assert (game.to_move, game.phase, game.legal) == (0, "roll", (ROLL,))
    assert roll(game) == [("roll", 0, 6, 6), ("cover", 0, 12)]
    assert game.covered == [{5, 12}, set(), set()]
    assert game.last_roll == (6, 6) and game.turn == 2


# --- passing to a neighbour ----------------------------------------------------------------------
def test_a_covered_total_passes_clockwise_to_the_next_player_who_shows_it() -> None:
    game = game_with([(4, 4), (5, 3)])
    roll(game)  # seat 0 covers 8
    assert roll(game) == [("roll", 0, 5, 3), ("pass", 0, 1, 8), ("cover", 1, 8),
                          ("turn", 1)]
    assert game.covered == [{8}, {8}, set()]
    assert (game.to_move, game.phase, game.legal) == (1, "roll", (ROLL,))


def test_a_pass_skips_players_who_have_the_total_covered_and_the_privilege_follows_it() -> None:
    game = game_with([(4, 4), (4, 4),   # seat 0 covers 8, then passes it to seat 1
                      (5, 4), (3, 4),   # seat 1 covers 9, then a 7: it uncovers 9
                      (1, 6),           # seat 2 rolls a 7 with nothing covered: it passes
                      (2, 6)])          # seat 0's 8 skips seat 1 (covered) to seat 2
    roll(game, 4)
    game.apply(uncover_action(9))
    roll(game)
    assert game.to_move == 0 and game.covered == [{8}, {8}, set()]
    assert roll(game) == [("roll", 0, 2, 6), ("pass", 0, 2, 8), ("cover", 2, 8),
                          ("turn", 2)]
    assert game.to_move == 2 and game.covered == [{8}, {8}, {8}]


def test_a_pass_wraps_around_the_table() -> None:
    game = game_with([(1, 1), (1, 1)], opening=[(1, 1), (1, 2), (6, 6)])  # seat 2 starts
    roll(game)
    assert roll(game)[1:] == [("pass", 2, 0, 2), ("cover", 0, 2), ("turn", 0)]
    assert game.to_move == 0


def test_nobody_can_use_the_total_so_the_roller_rolls_again() -> None:
    game = game_with([(5, 5)])
    for seat in range(3):
        game.covered[seat].add(10)
    assert roll(game) == [("roll", 0, 5, 5), ("nobody", 10)]
    assert (game.to_move, game.phase, game.legal) == (0, "roll", (ROLL,))
    assert game.covered == [{10}, {10}, {10}]


# --- the 7 ----------------------------------------------------------------------------------------
def test_a_seven_with_covered_markers_lets_the_roller_uncover_one_of_them_then_passes() -> None:
    game = game_with([(1, 2), (5, 6), (2, 2), (3, 4)])
    roll(game, 3)  # seat 0 covers 3, 11, 4
    assert roll(game) == [("roll", 0, 3, 4), ("seven", 0)]
    assert game.phase == "uncover" and game.to_move == 0
    assert game.legal == tuple(uncover_action(m) for m in (3, 4, 11))
    assert game.observation(0).legal == game.legal
    assert game.observation(1).legal == ()
    start = len(game.events)
    game.apply(uncover_action(11))
    assert game.events[start:] == [("uncover", 0, 11), ("turn", 1)]
    assert game.covered[0] == {3, 4} and 11 in game.shown(0)
    assert (game.to_move, game.phase, game.legal) == (1, "roll", (ROLL,))


def test_a_seven_with_one_covered_marker_still_asks_which() -> None:
    game = game_with([(6, 6), (6, 1)])
    roll(game, 2)
    assert game.phase == "uncover" and game.legal == (uncover_action(12),)


def test_a_seven_with_nothing_covered_just_passes_the_turn() -> None:
    game = game_with([(3, 4)], opening=[(1, 1), (1, 1), (6, 6)])  # seat 2 starts
    assert roll(game) == [("roll", 2, 3, 4), ("seven", 2), ("turn", 0)]
    assert (game.to_move, game.phase, game.legal) == (0, "roll", (ROLL,))
    assert game.covered == [set(), set(), set()]


# --- winning ------------------------------------------------------------------------------
def test_covering_the_tenth_marker_wins_and_ends_the_game_at_once() -> None:
    game = game_with([(6, 6), (1, 1)])
    game.covered[0].update(m for m in MARKERS if m != 12)
    assert roll(game) == [("roll", 0, 6, 6), ("cover", 0, 12), ("win", 0)]
    assert game.over and game.winner == 0
    assert (game.phase, game.legal) == ("over", ())
    assert game.observation(0).winner == 0 and game.observation(0).legal == ()
    assert game.rolls[-1] == (6, 6)  # the last prepared roll was never taken


def test_a_neighbour_passed_their_last_marker_wins_at_once() -> None:
    game = game_with([(1, 1)])
    game.covered[0].add(2)
    game.covered[2].update(m for m in MARKERS if m != 2)
    assert roll(game) == [("roll", 0, 1, 1), ("pass", 0, 1, 2), ("cover", 1, 2),
                          ("turn", 1)]
    game = game_with([(1, 1)])
    game.covered[0].add(2)
    game.covered[1].add(2)
    game.covered[2].update(m for m in MARKERS if m != 2)
    assert roll(game) == [("roll", 0, 1, 1), ("pass", 0, 2, 2), ("cover", 2, 2),
                          ("win", 2)]
    assert game.over and game.winner == 2 and game.legal == ()


# --- illegal actions ------------------------------------------------------------------------------
def test_illegal_actions_raise_and_change_nothing() -> None:
    game = game_with([(2, 2), (3, 4)])
    with pytest.raises(IllegalAction, match="uncover:4 is not legal"):
        game.apply(uncover_action(4))  # nothing to uncover: the phase is "roll"
    roll(game, 2)  # seat 0 covers 4, then rolls a 7
    with pytest.raises(IllegalAction, match=r"roll is not legal.*uncover:4"):
        game.apply(ROLL)
    with pytest.raises(IllegalAction):
        game.apply(uncover_action(5))  # face up: not coverable back
    with pytest.raises(IllegalAction):
        game.apply(7)
    assert game.actions == [ROLL, ROLL] and game.phase == "uncover"


def test_no_action_is_legal_once_the_game_is_over() -> None:
    game = game_with([(6, 6)])
    game.covered[0].update(m for m in MARKERS if m != 12)
    roll(game)
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply(ROLL)


def test_the_safety_cap_abandons_a_game_without_a_winner(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "ROLL_CAP", 3)
    game = game_with([(2, 2), (4, 4), (5, 5)])
    roll(game, 3)
    assert game.over and game.abandoned and game.winner is None
    assert game.events[-1] == ("abandoned", 3) and game.legal == ()


# --- actions and dice ---------------------------------------------------------------------------
def test_action_names_round_trip_and_bad_names_are_refused() -> None:
    assert action_name(ROLL) == "roll" and parse_action("roll") == ROLL
    for marker in MARKERS:
        action = uncover_action(marker)
        assert uncover_marker(action) == marker
        assert action_name(action) == f"uncover:{marker}"
        assert parse_action(f"uncover:{marker}") == action
    for bad in ("uncover:7", "uncover:13", "uncover:", "draw", "ROLL"):
        with pytest.raises(ValueError, match="not an action"):
            parse_action(bad)
    with pytest.raises(ValueError):
        uncover_action(7)
    with pytest.raises(ValueError, match="not an uncover action"):
        uncover_marker(ROLL)


def test_fixed_dice_refuse_bad_faces_and_run_out_loudly() -> None:
    with pytest.raises(ValueError, match="roll 2"):
        FixedDice([(1, 1), (0, 6)])
    dice = FixedDice([(3, 3)])
    assert dice.roll() == (3, 3) and dice.remaining == 0
    with pytest.raises(DiceExhausted):
        dice.roll()


def test_seeded_dice_repeat_for_a_seed_and_differ_between_seeds() -> None:
    a, b, c = SeededDice(7), SeededDice(7), SeededDice(8)
    rolls_a = [a.roll() for _ in range(50)]
    assert rolls_a == [b.roll() for _ in range(50)]
    assert rolls_a != [c.roll() for _ in range(50)]
    assert all(1 <= d <= 6 for pair in rolls_a for d in pair)
    assert SeededDice("table").roll() == SeededDice("table").roll()
    assert NeighborGame(4, 7).rolls == NeighborGame(4, 7).rolls
