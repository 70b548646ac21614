"""Property-based tests of Help Your Neighbor across seeds, table sizes and bot line-ups.

Every example plays a whole game with the ``random`` and ``smart`` bots (mixed per seat)
and checks what must hold whatever the dice:

* every game ends, with a winner or at the safety cap;
* covered markers stay between 0 and 10 per seat and always equal what the cover and
  uncover events say; the privilege and the legal actions match the phase;
* the winner has all ten markers covered, and nobody else does;
* a record survives JSON and replays to the very same game, also part-way through;
* a tampered record is caught, even with its checksum recomputed.

With the environment variable ``CI`` set, Hypothesis runs derandomized.
"""

from __future__ import annotations

import copy
import json
import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bots.neighbor import make_neighbor_bot
from trash_tui.engine.record import RecordError, checksum
from trash_tui.neighbor.engine import (
    MARKERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROLL,
    ROLL_CAP,
    NeighborGame,
    action_name,
    parse_action,
    uncover_action,
)
from trash_tui.neighbor.record import neighbor_record, replay_neighbor

CI = bool(os.environ.get("CI"))
PROFILE = settings(derandomize=CI, deadline=None, print_blob=True, max_examples=60,
                   suppress_health_check=[HealthCheck.too_slow],
                   **({"database": None} if CI else {}))

seeds = st.one_of(st.integers(0, 2**63), st.text(max_size=12))
tables = st.integers(MIN_PLAYERS, MAX_PLAYERS).flatmap(
    lambda n: st.lists(st.sampled_from(["random", "smart"]), min_size=n, max_size=n))


def play(seed: int | str, lineup: list[str], stop_after: int | None = None) -> NeighborGame:
    """A game of ``lineup`` on ``seed``, checking the invariants after every action;
    with ``stop_after``, left unfinished after that many actions."""
    game = NeighborGame(len(lineup), seed)
    bots = [make_neighbor_bot(name, seat) for seat, name in enumerate(lineup)]
    mirror: list[set[int]] = [set() for _ in lineup]
    seen = len(game.events)
    while not game.over and (stop_after is None or len(game.actions) < stop_after):
        observation = game.observation(game.to_move)
        game.apply(bots[game.to_move].choose(observation, observation.legal))
        for event in game.events[seen:]:
            if event[0] == "cover":
                assert event[2] not in mirror[event[1]]
                mirror[event[1]].add(event[2])
            elif event[0] == "uncover":
                assert event[2] in mirror[event[1]]
                mirror[event[1]].discard(event[2])
        seen = len(game.events)
        assert game.covered == mirror
        assert all(0 <= len(c) <= len(MARKERS) and c <= set(MARKERS) for c in game.covered)
        check_phase(game)
    return game


def check_phase(game: NeighborGame) -> None:
    """The legal actions follow the phase; only the player to move may act."""
    if game.phase == "roll":
        assert game.legal == (ROLL,)
    elif game.phase == "uncover":
        assert game.legal == tuple(uncover_action(m) for m in sorted(game.covered[game.to_move]))
        assert game.legal
    else:
        assert game.over and game.legal == ()
    for seat in range(game.players):
        legal = game.observation(seat).legal
        assert legal == (game.legal if seat == game.to_move else ())


@PROFILE
@given(seed=seeds, lineup=tables)
def test_every_game_ends_and_the_winner_has_all_ten_covered(
        seed: int | str, lineup: list[str]) -> None:
    game = play(seed, lineup)
    assert game.over
    full = [seat for seat in range(game.players) if len(game.covered[seat]) == len(MARKERS)]
    if game.abandoned:
        assert game.winner is None and game.turn >= ROLL_CAP and full == []
    else:
        assert full == [game.winner] and game.events[-1] == ("win", game.winner)
    assert game.turn == game.actions.count(ROLL) == sum(e[0] == "roll" for e in game.events)
    openings = sum(e[0] == "opening" for e in game.events)
    assert len(game.rolls) == openings + game.turn
    assert [e for e in game.events if e[0] == "first"] == [("first", game.first)]


@PROFILE
@given(seed=seeds, lineup=tables)
def test_the_same_seed_gives_the_same_game(seed: int | str, lineup: list[str]) -> None:
    one, two = play(seed, lineup), play(seed, lineup)
    assert (one.events, one.rolls, one.actions) == (two.events, two.rolls, two.actions)


@PROFILE
@given(seed=seeds, lineup=tables, cut=st.one_of(st.none(), st.integers(0, 60)))
def test_a_record_replays_exactly(seed: int | str, lineup: list[str], cut: int | None) -> None:
    game = play(seed, lineup, stop_after=cut)
    names = [f"{name}-{seat}" for seat, name in enumerate(lineup)]
    document = json.loads(json.dumps(neighbor_record(game, names)))
    replayed = replay_neighbor(document)
    assert replayed.events == game.events and replayed.covered == game.covered
    assert (replayed.winner, replayed.over, replayed.to_move, replayed.phase) == (
        game.winner, game.over, game.to_move, game.phase)
    assert neighbor_record(replayed, names) == document


def tamper(document: dict, how: str, position: int) -> bool:
    """Change ``document`` in place (checksum recomputed); False if ``how`` does not
    apply to this record."""
    rolls = document["rolls"].split()
    actions = document["actions"].split()
    if how == "roll":  # one die of one roll turned to another face
        i = position % len(rolls)
        d1, d2 = rolls[i].split("-")
        rolls[i] = f"{d1}-{int(d2) % 6 + 1}"
        document["rolls"] = " ".join(rolls)
    elif how == "another uncover":  # an uncover changed to another covered marker
        game = NeighborGame(document["players"], document["seed"])
        choices = []
        for index, token in enumerate(actions):
            others = [action_name(a) for a in game.legal if action_name(a) != token]
            if game.phase == "uncover" and others:
                choices.append((index, others[0]))
            game.apply(parse_action(token))
        if not choices:
            return False
        index, other = choices[position % len(choices)]
        actions[index] = other
        document["actions"] = " ".join(actions)
    elif how == "extra roll":
        document["rolls"] += " 3-3"
    elif how == "missing action":
        if not actions:
            return False
        document["actions"] = " ".join(actions[:-1])
    elif how == "winner":
        document["winner"] = (document["winner"] or 0) + 1
    document["checksum"] = checksum(document)
    return True


@PROFILE
@given(seed=st.integers(0, 2**32), lineup=tables, position=st.integers(0, 10_000),
       how=st.sampled_from(["roll", "another uncover", "extra roll", "missing action",
                            "winner", "no new checksum"]))
def test_a_tampered_record_is_caught(seed: int, lineup: list[str], position: int,
                                     how: str) -> None:
    document = neighbor_record(play(seed, lineup))
    changed = copy.deepcopy(document)
    if how == "no new checksum":
        changed["actions"] += " roll"
        with pytest.raises(RecordError, match="checksum mismatch"):
            replay_neighbor(changed)
        return
    assume(tamper(changed, how, position))
    with pytest.raises(RecordError) as info:
        replay_neighbor(changed)
    assert "\n" not in str(info.value)
