"""The Help Your Neighbor replay cursor: positions, clamping, turn jumps, the game at each
position (against the engine and ``replay_neighbor``) and records that do not check."""

from __future__ import annotations

from typing import Any

import pytest

from bots.neighbor import RandomNeighborBot, SmartNeighborBot, play_neighbor
from trash_tui.engine.record import RecordError, checksum
from trash_tui.neighbor.engine import ROLL, FixedDice, NeighborGame, uncover_action
from trash_tui.neighbor.record import neighbor_record, replay_neighbor
from trash_tui.neighbor.stepper import NeighborReplayCursor

NAMES = ["Ann", "Bob", "Cy"]
# Opening: seat 0 rolls 12 and starts. Seat 0 covers 2, rolls 2 again: it passes to seat 1
# (turn 2 starts after action 2). Seat 1 rolls a 7 and uncovers 2 (turn 3 after action 4).
# Seat 2 covers 6. Unfinished, but every roll is used.
SCENARIO_ROLLS = [(6, 6), (1, 1), (1, 2), (1, 1), (1, 1), (3, 4), (3, 3)]
SCENARIO_ACTIONS = [ROLL, ROLL, ROLL, uncover_action(2), ROLL]


def scenario() -> NeighborGame:
    game = NeighborGame(3, dice=FixedDice(SCENARIO_ROLLS))
    for action in SCENARIO_ACTIONS:
        game.apply(action)
    return game


def played(seed: int, players: int = 3) -> NeighborGame:
    bots = [(SmartNeighborBot if seat % 2 == 0 else RandomNeighborBot)(seat + 1)
            for seat in range(players)]
    return play_neighbor(NeighborGame(players, seed), bots)


def record_of(game: NeighborGame) -> dict[str, Any]:
    return neighbor_record(game, NAMES if game.players == len(NAMES) else None)


def test_a_cursor_starts_before_the_first_action() -> None:
    game = scenario()
    cursor = NeighborReplayCursor(record_of(game))
    assert cursor.position == 0 and cursor.length == len(SCENARIO_ACTIONS)
    assert cursor.game.actions == [] and cursor.game.first == 0 and cursor.game.to_move == 0
    assert cursor.game.events == game.events[:5]  # the opening, first and turn
    assert cursor.game.last_roll is None


def test_forward_back_and_seek_are_clamped_to_the_record() -> None:
    game = scenario()
    cursor = NeighborReplayCursor(record_of(game))
    cursor.back()
    assert cursor.position == 0
    cursor.forward()
    assert cursor.position == 1 and cursor.game.covered[0] == {2}
    cursor.forward(2)
    assert cursor.position == 3 and cursor.game.phase == "uncover"
    cursor.seek(99)
    assert cursor.position == cursor.length == 5
    cursor.forward()
    assert cursor.position == 5
    assert cursor.game.events == game.events
    cursor.seek(-4)
    assert cursor.position == 0 and cursor.game.actions == []
    cursor.seek(2)
    cursor.back(7)
    assert cursor.position == 0


def test_the_cursor_knows_where_each_decision_s_events_end() -> None:
    game = scenario()
    cursor = NeighborReplayCursor(record_of(game))
    assert cursor.event_counts == [5, 7, 11, 13, 15, 17]
    for position, count in enumerate(cursor.event_counts):
        cursor.seek(position)
        assert len(cursor.game.events) == count


def test_turn_jumps_go_to_where_the_dice_change_hands() -> None:
    cursor = NeighborReplayCursor(record_of(scenario()))
    assert cursor.turn_starts == [0, 2, 4] and cursor.turns == 3
    indexes = []
    for position in range(cursor.length + 1):
        cursor.seek(position)
        indexes.append(cursor.turn_index)
    assert indexes == [0, 0, 1, 1, 2, 2]
    cursor.seek(0)
    cursor.next_turn()
    assert cursor.position == 2 and cursor.game.to_move == 1
    assert cursor.game.events[-1] == ("turn", 1)
    cursor.next_turn()
    assert cursor.position == 4 and cursor.game.events[-1] == ("turn", 2)
    cursor.next_turn()
    assert cursor.position == cursor.length  # no later turn: the end
    cursor.next_turn()
    assert cursor.position == cursor.length
    cursor.previous_turn()
    assert cursor.position == 4  # the start of this turn
    cursor.previous_turn()
    assert cursor.position == 2  # already at a start: the one before
    cursor.forward()
    cursor.previous_turn()
    assert cursor.position == 2
    cursor.previous_turn()
    cursor.previous_turn()
    assert cursor.position == 0


@pytest.mark.parametrize("seed", [2, 8])
def test_every_turn_start_is_a_turn_event_of_the_player_to_move(seed: int) -> None:
    game = played(seed)
    cursor = NeighborReplayCursor(record_of(game))
    starts = []
    while cursor.position < cursor.length:
        cursor.next_turn()
        starts.append(cursor.position)
    assert starts[:-1] == cursor.turn_starts[1:]
    for position in cursor.turn_starts[1:]:
        cursor.seek(position)
        assert cursor.game.events[-1] == ("turn", cursor.game.to_move)
        assert cursor.game.phase == "roll"
    between = set(range(1, cursor.length + 1)) - set(cursor.turn_starts)
    for position in between:
        cursor.seek(position)
        step = cursor.game.events[cursor.event_counts[position - 1]:]
        assert all(event[0] != "turn" for event in step)
    assert cursor.turns == sum(1 for event in game.events if event[0] == "turn")


@pytest.mark.parametrize(("seed", "players"), [(2, 3), (8, 3), (4, 5)])
def test_the_game_at_the_end_is_the_recorded_game(seed: int, players: int) -> None:
    game = played(seed, players)
    record = record_of(game)
    cursor = NeighborReplayCursor(record)
    assert cursor.length == len(game.actions) > 20
    cursor.seek(cursor.length)
    ended = replay_neighbor(record)
    assert cursor.game.over and ended.over
    assert cursor.game.winner == ended.winner == record["winner"] == game.winner
    assert cursor.game.covered == ended.covered
    assert cursor.game.events == ended.events == game.events
    assert cursor.game.rolls == game.rolls  # every roll used at the end


def test_going_back_rebuilds_the_same_game() -> None:
    cursor = NeighborReplayCursor(record_of(played(8)))
    cursor.seek(37)
    seen = cursor.game.observation(1), list(cursor.game.events)
    cursor.forward(11)
    cursor.back(11)
    assert (cursor.game.observation(1), cursor.game.events) == seen
    cursor.seek(cursor.length)
    cursor.seek(37)
    assert (cursor.game.observation(1), cursor.game.events) == seen


def test_a_record_that_does_not_check_is_refused() -> None:
    record = record_of(played(2))
    tampered = dict(record, actions=record["actions"].replace("roll", "uncover:5", 1))
    with pytest.raises(RecordError, match="checksum"):
        NeighborReplayCursor(tampered)
    tampered["checksum"] = checksum(tampered)
    with pytest.raises(RecordError, match="action 1"):
        NeighborReplayCursor(tampered)
    shorter = dict(record, rolls=record["rolls"].rsplit(" ", 1)[0])
    shorter["checksum"] = checksum(shorter)
    with pytest.raises(RecordError):
        NeighborReplayCursor(shorter)
