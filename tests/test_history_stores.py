"""The history database split by concern (issue 30): matches, tournament runs, players and
ratings are stores of their own on one connection; the rating model is handed in from
above, a forgotten one is caught, and a finished match is rated in the transaction that
finishes it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from trash_tui.games import TRASH
from trash_tui.history import (
    FINISHED,
    LOCAL_OWNER,
    PLAYING,
    FinishedMatch,
    History,
    HistoryError,
)
from trash_tui.players.rater import RATER, open_history
from trash_tui.players.rating import Rating

RESULT = {"places": [1, 2], "sizes": [1, 1], "abandoned": False}


def started(history: History) -> int:
    match_id = history.matches.start_match(LOCAL_OWNER, {}, ["human", "easy"],
                                           ["Robin", "Easy"], 7)
    history.matches.add_action(match_id, 0, 3, 1)
    return match_id


def test_a_history_cannot_be_opened_without_saying_which_rating_model_it_uses(
        tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="rater"):
        History(tmp_path / "h.sqlite3")  # type: ignore[call-arg]


def test_a_history_opened_without_a_rater_reads_everything_but_refuses_to_finish_a_match(
        tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    with open_history(path) as history:
        match_id = started(history)
    with History(path, rater=None) as history:
        assert history.matches.get_match(match_id).status == PLAYING
        with pytest.raises(HistoryError, match="without the rating model"):
            history.matches.finish_match(match_id, "Robin", 1, RESULT, {"first": 0})
        row = history.matches.get_match(match_id)
        assert row.status == PLAYING and row.result is None  # nothing half-written
        assert history.matches.match_actions(match_id) == [3]


class FailingRater:
    """A rating model that breaks while it rates."""

    def rated_seats(self, match: FinishedMatch) -> list[dict[str, Any]] | None:
        return RATER.rated_seats(match)

    def rate(self, game: str, seats: Sequence[Mapping[str, Any]],
             before: Mapping[str, Rating]) -> dict[str, Rating] | None:
        raise RuntimeError("the model broke")


def test_a_match_and_its_rating_finish_together_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    with History(path, rater=FailingRater()) as history:
        match_id = started(history)
        with pytest.raises(RuntimeError):
            history.matches.finish_match(match_id, "Robin", 1, RESULT, {"first": 0})
        assert history.matches.get_match(match_id).status == PLAYING
        assert history.db.execute("SELECT COUNT(*) FROM rated_matches").fetchone()[0] == 0
    with open_history(path) as history:
        history.matches.finish_match(match_id, "Robin", 1, RESULT, {"first": 0})
        assert history.matches.get_match(match_id).status == FINISHED
        rated = history.players.rating(LOCAL_OWNER, TRASH)
        assert rated is not None and rated.matches == 1


def test_the_stores_share_one_connection_and_each_keeps_its_own_tables(tmp_path: Path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        assert history.matches.db is history.players.db is history.tournaments.db
        run = history.tournaments.open_run("t", "f" * 16, "/out", {})
        history.tournaments.add_games(run, [(0, {"places": [1, 2]})])
        history.players.register_player("SHA256:k", "Kim")
        assert [r.games for r in history.tournaments.runs()] == [1]
        assert history.players.player_name("SHA256:k") == "Kim"
        assert history.matches.of_player("SHA256:k") == []


def test_a_file_only_ever_opened_without_a_rater_is_rated_when_first_opened_with_one(
        tmp_path: Path) -> None:
    """A finished match the rating has never seen (a database from before ratings) is
    rated the first time the file is opened with the model, and only then."""
    path = tmp_path / "h.sqlite3"
    with open_history(path) as history:
        match_id = started(history)
        history.matches.finish_match(match_id, "Robin", 1, RESULT, {"first": 0})
        history.db.execute("DELETE FROM rated_matches")
        history.db.execute("DELETE FROM ratings")
        history.db.execute("PRAGMA user_version = 0")  # as a version before ratings left it
    with History(path, rater=None) as history:
        assert history.players.rating(LOCAL_OWNER, TRASH) is None
    with open_history(path) as history:
        rated = history.players.rating(LOCAL_OWNER, TRASH)
        assert rated is not None and rated.matches == 1


def test_the_last_closed_table_of_a_player_is_one_query_bounded_in_age(tmp_path: Path) -> None:
    """The lobby names a seat at a table that closed: the latest such table of that
    player, and only a recent one (a table closed long ago is not mentioned for ever)."""
    with open_history(tmp_path / "h.sqlite3") as history:
        tables = history.matches
        seats = [{"spec": "human", "identity": "key:ann", "name": "Ann"},
                 {"spec": "human", "identity": "key:bob", "name": "Bob"}]
        first = tables.save_table(None, "AAAA", "key:ann", "closed", {"name": "One"}, seats,
                                  None)
        second = tables.save_table(None, "BBBB", "key:ann", "closed", {"name": "Two"},
                                   seats[:1], None)
        tables.save_table(None, "CCCC", "key:cat", "waiting", {"name": "Open"},
                          [{"spec": "human", "identity": "key:bob"}], None)
        tables.save_table(None, "DDDD", "key:dan", "closed", {"name": "Odd"},
                          ["not a seat", 3], None)
        row = tables.last_closed_table_of("key:ann", since=0)
        assert row is not None and row["id"] == second
        row = tables.last_closed_table_of("key:bob", since=0)
        assert row is not None and row["id"] == first  # not the open one, not Ann's alone
        assert tables.last_closed_table_of("key:cat", since=0) is None
        assert tables.last_closed_table_of("key:ann", since=2e9) is None  # too long ago
        history.db.execute("UPDATE shared_tables SET seats = 'not json' WHERE code = 'DDDD'")
        assert tables.last_closed_table_of("key:ann", since=0) is not None


def test_guests_not_seen_for_a_day_are_forgotten_and_nobody_else_is(tmp_path: Path) -> None:
    """A guest is a new identity at every connection: the names of those long gone do not
    pile up in the players table (a stream of keyless connections once grew it for ever)."""
    with open_history(tmp_path / "h.sqlite3") as history:
        db = history.players.db
        for index in range(200):
            history.players.register_player(f"guest:old{index}", "Player OLD")
        history.players.register_player("SHA256:kim", "Kim")
        history.players.register_player("guest:recent", "Player NEW")
        with db:  # two days ago, the key's owner and the old guests alike
            db.execute("UPDATE players SET last_seen = last_seen - 2 * 86400 "
                       "WHERE identity != 'guest:recent'")
        history.players.register_player("guest:now", "Player NOW")
        left = {row[0] for row in db.execute("SELECT identity FROM players")}
        assert left == {"SHA256:kim", "guest:recent", "guest:now"}
        assert history.players.player_name("SHA256:kim") == "Kim"
