"""Players' ratings (issue 17): each update is openskill's Plackett–Luce update (checked
against the library itself) for a 2-player win, a 4-player result with places and a tie;
which matches are rated (hot seat, a player's own bot, an abandoned match, leaving a
shared table); ratings kept match by match equal a rebuild from scratch after a few
hundred random matches; an old database gets its finished matches rated when opened."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from players_helpers import ANCHORS, finish, fixed_anchors, shared

from trash_tui.games import NEIGHBOR, TRASH
from trash_tui.history import LOCAL_OWNER, History
from trash_tui.players.model import (
    RatedSeat,
    nearest_level,
    rate,
    rated_seats,
    result_places,
    wilson_interval,
)
from trash_tui.players.rater import open_history
from trash_tui.players.rating import DEFAULT_MU, DEFAULT_SIGMA, Rating, shown_rating

BOTS = ANCHORS[TRASH]


@pytest.fixture(autouse=True)
def _anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_anchors(monkeypatch)


def library(ratings: list[tuple[float, float]], ranks: list[float]) -> list[tuple[float, float]]:
    """openskill's own update, straight from the library."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=ranks)]


def test_a_two_player_win_against_a_bot_is_the_libraries_update() -> None:
    after = rate([RatedSeat(1, player="ann"), RatedSeat(2, bot="normal")], {}, BOTS)
    expected = library([(DEFAULT_MU, DEFAULT_SIGMA), (25.5, 0.8)], [1, 2])
    assert after == {"ann": Rating(*expected[0])}
    assert after["ann"].mu > DEFAULT_MU and after["ann"].sigma < DEFAULT_SIGMA


def test_a_four_player_result_with_places_moves_only_the_people() -> None:
    ann, bob = Rating(27.0, 5.0), Rating(22.0, 7.0)
    seats = [RatedSeat(3, player="ann"), RatedSeat(1, bot="hard"),
             RatedSeat(2, player="bob"), RatedSeat(4, bot="easy")]
    after = rate(seats, {"ann": ann, "bob": bob}, BOTS)
    expected = library([(27.0, 5.0), (28.0, 0.8), (22.0, 7.0), (21.0, 0.8)], [3, 1, 2, 4])
    assert after == {"ann": Rating(*expected[0]), "bob": Rating(*expected[2])}
    assert after["ann"].mu < 27.0  # third place costs Ann
    assert after["bob"].mu > 22.0  # second place beats two, Bob gains


def test_a_tie_is_the_libraries_update_with_equal_ranks() -> None:
    after = rate([RatedSeat(1, player="ann"), RatedSeat(1, player="bob")],
                 {"ann": Rating(30.0, 3.0), "bob": Rating(20.0, 3.0)}, BOTS)
    expected = library([(30.0, 3.0), (20.0, 3.0)], [1, 1])
    assert after == {"ann": Rating(*expected[0]), "bob": Rating(*expected[1])}
    assert after["ann"].mu < 30.0 and after["bob"].mu > 20.0  # a draw pulls them together


def test_which_matches_are_rated() -> None:
    levels = set(BOTS)
    places = {"places": [2, 1], "abandoned": False}
    one = rated_seats(TRASH, "me", ["human", "hard"], places, {}, set(), levels, False)
    assert one == [RatedSeat(2, player="me"), RatedSeat(1, bot="hard")]
    # several humans at one keyboard, a player's own bot, an engine-abandoned match
    assert rated_seats(TRASH, "me", ["human", "human"], places, {}, set(), levels,
                       False) is None
    assert rated_seats(TRASH, "me", ["human", {"bot": "mine.py"}], places, {}, set(), levels,
                       False) is None
    assert rated_seats(TRASH, "me", ["human", "hard"], {**places, "abandoned": True}, {},
                       set(), levels, False) is None
    # at a shared table the one who left is last, whatever the stand-in did
    table = rated_seats(TRASH, "shared", ["human", "human", "normal"],
                        {"places": [1, 2, 3]}, {0: "ann", 1: "bob"}, {"ann"}, levels, True)
    assert table == [RatedSeat(3, player="ann"), RatedSeat(1, player="bob"),
                     RatedSeat(2, bot="normal")]
    # the dice game: the winner first, then by markers covered
    assert result_places(NEIGHBOR, {"winner": 2, "covered": [7, 9, 10]}, 3) == [3, 2, 1]


def test_finished_matches_move_the_rating_and_abandoned_ones_do_not(tmp_path: Path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        finish(history, LOCAL_OWNER, ["human", "normal"], [1, 2])
        first = history.players.rating(LOCAL_OWNER, TRASH)
        assert first is not None and first.matches == 1 and first.rating.mu > DEFAULT_MU
        given_up = history.matches.start_match(LOCAL_OWNER, {}, ["human", "hard"], ["a", "b"], 2)
        history.matches.abandon_match(given_up)
        finish(history, LOCAL_OWNER, ["human", "human", "easy"], [1, 2, 3])  # hot seat
        assert history.players.rating(LOCAL_OWNER, TRASH) == first
        assert shown_rating(first.rating, first.matches).endswith("?")  # provisional


def test_leaving_a_shared_table_is_a_loss_and_coming_back_is_not(tmp_path: Path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        shared(history, ["human", "human"], [1, 2], {0: "ann", 1: "bob"}, leavers=["ann"])
        ann, bob = history.players.rating("ann", TRASH), history.players.rating("bob", TRASH)
        assert ann is not None and bob is not None and ann.rating.mu < bob.rating.mu
        match_id = history.matches.start_match("shared", {}, ["human", "human"], ["a", "b"], 3)
        history.matches.add_match_players(match_id, [(0, "cat"), (1, "dan")])
        history.matches.mark_left(match_id, "cat")
        history.matches.mark_left(match_id, "cat", left=False)  # back before the end
        history.matches.finish_match(match_id, "a", 2, {"places": [1, 2], "abandoned": False}, {})
        history.matches.mark_left(match_id, "cat")  # after the end: changes nothing
        cat, dan = history.players.rating("cat", TRASH), history.players.rating("dan", TRASH)
        assert cat is not None and dan is not None and cat.rating.mu > dan.rating.mu
        assert history.rebuild_ratings() == 2
        assert history.players.rating("cat", TRASH) == cat


def ratings_table(history: History) -> list[tuple]:
    return history.db.execute("SELECT identity, game, mu, sigma, matches, updated FROM ratings "
                              "ORDER BY identity, game").fetchall()


def changes_table(history: History) -> list[tuple]:
    return history.db.execute("SELECT match_id, identity, game, finished, mu, sigma FROM "
                              "rating_changes ORDER BY match_id, identity").fetchall()


def test_a_rebuild_gives_exactly_the_ratings_kept_match_by_match(tmp_path: Path) -> None:
    rng = random.Random(17)
    people = ["ann", "bob", "cat", "dan", "eve"]
    levels = sorted(BOTS)
    with open_history(tmp_path / "h.sqlite3") as history:
        for _ in range(300):
            game = rng.choice([TRASH, TRASH, NEIGHBOR])
            bots = levels if game == TRASH else sorted(ANCHORS[NEIGHBOR])
            size = rng.randint(3 if game == NEIGHBOR else 2, 5)
            places = [rng.randint(1, size) for _ in range(size)]
            places[rng.randrange(size)] = 1
            kind = rng.random()
            if kind < 0.4:  # at home: one human against bots
                owner = rng.choice(people)
                specs = ["human"] + [rng.choice(bots) for _ in range(size - 1)]
                finish(history, owner, specs, places, game=game,
                       abandoned=rng.random() < 0.05)
            elif kind < 0.9:  # a shared table
                humans = rng.sample(people, rng.randint(1, min(size, 3)))
                specs = ["human"] * len(humans) + [rng.choice(bots)
                                                   for _ in range(size - len(humans))]
                leavers = [p for p in humans if rng.random() < 0.1]
                shared(history, specs, places, dict(enumerate(humans)), game=game,
                       leavers=leavers)
            else:  # given up at home: never rated
                match_id = history.matches.start_match(rng.choice(people), {}, ["human", "easy"],
                                                       ["a", "b"], 1)
                history.matches.abandon_match(match_id)
            if rng.random() < 0.05:  # a deleted match still counts for the rating
                last = history.db.execute("SELECT MAX(id) FROM matches").fetchone()[0]
                history.matches.delete_match(last)
        kept, kept_changes = ratings_table(history), changes_table(history)
        rated = history.db.execute("SELECT COUNT(*) FROM rated_matches").fetchone()[0]
        assert rated > 200 and len(kept) >= 8
        assert history.rebuild_ratings() == rated
        assert ratings_table(history) == kept
        assert changes_table(history) == kept_changes


def test_an_old_database_gets_its_finished_matches_rated_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with open_history(path) as history:
        for places in ([1, 2], [2, 1], [1, 2]):
            finish(history, LOCAL_OWNER, ["human", "easy"], places)
        kept = ratings_table(history)
    db = sqlite3.connect(path)  # as a version before ratings left it
    for table in ("rated_matches", "ratings", "rating_changes", "match_leavers"):
        db.execute(f"DROP TABLE {table}")
    db.commit()
    db.close()
    with open_history(path) as history:
        again = history.players.rating(LOCAL_OWNER, TRASH)
        assert again is not None and again.matches == 3
        assert [row[:5] for row in ratings_table(history)] == [row[:5] for row in kept]


def test_the_nearest_level_and_the_win_interval() -> None:
    assert nearest_level(Rating(25.0, 3.0), BOTS) == "normal"
    assert nearest_level(Rating(10.0, 3.0), BOTS, offered={"easy", "hard"}) == "easy"
    low, high = wilson_interval(7, 10)
    assert 0.39 < low < 0.40 and 0.89 < high < 0.90  # the Wilson interval of 7 in 10
    assert wilson_interval(0, 0) == (0.0, 1.0)
