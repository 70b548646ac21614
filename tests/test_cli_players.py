"""``trash players``: the leaderboard and a player's statistics as tables or ``--json``
(names, never keys, for other players; the same numbers the database keeps), ``rebuild``
giving the same ratings, ``calibrate`` printing anchors with their intervals; unknown or
ambiguous players and bad options are one-line errors with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from players_helpers import finish, shared
from test_cli import assert_one_line_error, trash

from trash_tui.games import TRASH
from trash_tui.history import LOCAL_OWNER
from trash_tui.players.rater import open_history

ALICE, BOB = "SHA256:alice", "SHA256:bob"


def fill(path: Path) -> None:
    """Alice and Bob at shared tables and against the bots; the local player at home."""
    with open_history(path) as history:
        history.players.register_player(ALICE, "Alice")
        history.players.register_player(BOB, "Bob\x1b[2J")
        for places in ([1, 2, 3], [1, 3, 2], [2, 1, 3], [1, 2, 3]):
            shared(history, ["human", "human", "normal"], places, {0: ALICE, 1: BOB})
        finish(history, ALICE, ["human", "easy"], [1, 2])
        finish(history, LOCAL_OWNER, ["human", "hard"], [2, 1])


def test_the_leaderboard_ranks_the_players_by_name(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    fill(db)
    done = trash("players", "leaderboard", "--json", "--history", str(db), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    board = json.loads(done.stdout)
    with open_history(db) as history:
        alice, bob = history.players.rating(ALICE, TRASH), history.players.rating(BOB, TRASH)
    assert alice is not None and bob is not None
    names = [entry["name"] for entry in board["entries"]]
    assert names[:2] == ["Alice", "Bob[2J"]  # Alice won more; the escape character is gone
    assert board["entries"][0]["rating"] == alice.rating.shown
    assert board["entries"][0]["matches"] == alice.matches == 5
    assert board["entries"][0]["provisional"] is True
    table = trash("players", "leaderboard", "--bots", "--history", str(db), cwd=tmp_path)
    assert table.returncode == 0 and "Alice" in table.stdout and "\x1b" not in table.stdout
    assert "normal (bot)" in table.stdout and f"{alice.rating.shown}?" in table.stdout


def test_stats_by_name_or_key_and_as_json(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    fill(db)
    by_name = trash("players", "stats", "Alice", "--json", "--history", str(db), cwd=tmp_path)
    by_key = trash("players", "stats", ALICE, "--json", "--history", str(db), cwd=tmp_path)
    assert by_name.returncode == 0, by_name.stderr
    stats = json.loads(by_name.stdout)
    assert stats == json.loads(by_key.stdout)
    assert stats["overall"]["matches"] == 5 and stats["overall"]["wins"] == 4
    assert stats["best_streak"] == 2 and stats["mean_place_3plus"] == 1.25
    assert {row["label"] for row in stats["by_opponents"]} == {"people", "easy"}
    assert len(stats["rating_history"]) == 5
    text = trash("players", "stats", "--history", str(db), cwd=tmp_path)
    assert text.returncode == 0 and "0 of 1 won" in text.stdout


def test_rebuild_keeps_the_ratings(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    fill(db)
    before = json.loads(trash("players", "leaderboard", "--json", "--history", str(db),
                              cwd=tmp_path).stdout)
    done = trash("players", "rebuild", "--history", str(db), cwd=tmp_path)
    assert done.returncode == 0 and "6 rated matches: 3 players" in done.stdout
    after = json.loads(trash("players", "leaderboard", "--json", "--history", str(db),
                             cwd=tmp_path).stdout)
    assert after == before


def test_bad_players_and_options_are_one_line_errors(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    fill(db)
    with open_history(db) as history:
        history.players.register_player("SHA256:other", "Alice")
    for args, words in ((["stats", "Nobody"], "no player 'Nobody'"),
                        (["stats", "Alice"], "2 SSH players are called 'Alice'"),
                        (["leaderboard", "--game", "poker"], "poker"),
                        (["leaderboard", "--top", "0"], "--top")):
        result = trash("players", *args, "--history", str(db), cwd=tmp_path)
        assert result.returncode == 2
        assert_one_line_error(result, words)
    typo = trash("players", "stats", "alise", "--history", str(db), cwd=tmp_path)
    assert_one_line_error(typo, "no player 'alise'", "did you mean 'Alice'?")


def test_nothing_played_yet_is_not_an_error(tmp_path: Path) -> None:
    none = str(tmp_path / "none.sqlite3")
    board = trash("players", "leaderboard", "--history", none, cwd=tmp_path)
    assert (board.returncode, board.stderr) == (0, "")
    assert board.stdout == "Nobody is rated in Trash yet: nothing has been played yet.\n"
    as_json = trash("players", "leaderboard", "--json", "--history", none, cwd=tmp_path)
    assert as_json.returncode == 0 and json.loads(as_json.stdout)["entries"] == []
    stats = trash("players", "stats", "--json", "--history", none, cwd=tmp_path)
    assert stats.returncode == 0 and json.loads(stats.stdout)["overall"]["matches"] == 0
    text = trash("players", "stats", "--history", none, cwd=tmp_path)
    assert text.returncode == 0 and "no matches" in text.stdout
    rebuilt = trash("players", "rebuild", "--history", none, cwd=tmp_path)
    assert rebuilt.returncode == 0 and "nothing has been played yet" in rebuilt.stdout
    assert not (tmp_path / "none.sqlite3").exists()


def test_a_dropped_ratings_table_is_rebuilt_from_the_kept_results(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    fill(db)
    before = json.loads(trash("players", "leaderboard", "--json", "--history", str(db),
                              cwd=tmp_path).stdout)
    with open_history(db) as history:
        history.db.execute("DROP TABLE ratings")
    after = json.loads(trash("players", "leaderboard", "--json", "--history", str(db),
                             cwd=tmp_path).stdout)
    assert before["entries"] and after == before


def test_one_match_is_one_match(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    with open_history(db) as history:
        history.players.register_player(ALICE, "Alice")
        shared(history, ["human", "human", "normal"], [1, 2, 3], {0: ALICE, 1: BOB})
    text = trash("players", "stats", "Alice", "--history", str(db), cwd=tmp_path)
    assert "at 3+ players (1 match)" in text.stdout


def test_calibrate_prints_the_anchors_with_their_intervals(tmp_path: Path) -> None:
    small = tmp_path / "small.toml"
    small.write_text('name = "small"\nseed = 5\nplayers = 2\nmatches = 6\nduplicate = true\n'
                     '[rules]\npreset = "standard"\nstart_size = 3\n'
                     '[[bots]]\nbot = "random"\n[[bots]]\nbot = "greedy"\n')
    anchors = tmp_path / "anchors.json"
    done = trash("players", "calibrate", str(small), "--out", str(tmp_path / "runs"),
                 "--resamples", "20", "--anchors", str(anchors), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    document = json.loads(anchors.read_text())
    greedy, rand = document["games"]["trash"]["greedy"], document["games"]["trash"]["random"]
    assert greedy["mu"] > rand["mu"] and greedy["games"] == 12
    for anchor in (greedy, rand):
        assert anchor["low"] <= anchor["mu"] <= anchor["high"]
        assert f"{anchor['shown_low']:>5} – {anchor['shown_high']:<5}" in done.stdout
    bad = trash("players", "calibrate", str(tmp_path / "none.toml"), "--no-write",
                cwd=tmp_path)
    assert bad.returncode == 2
    assert_one_line_error(bad, "none.toml")


CAROL = "SHA256:carolAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
CARL = "SHA256:carolBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"


def test_a_player_with_no_name_yet_is_found_by_the_key_the_leaderboard_shows(
        tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    with open_history(db) as history:  # Carol and Carl never chose a name
        history.players.register_player(ALICE, "Alice")
        shared(history, ["human", "human", "normal"], [1, 2, 3], {0: CAROL, 1: ALICE})
        shared(history, ["human", "human", "normal"], [2, 1, 3], {0: CARL, 1: ALICE})
    board = trash("players", "leaderboard", "--history", str(db), cwd=tmp_path)
    assert board.returncode == 0, board.stderr
    unnamed = [line for line in board.stdout.splitlines()
               if "(no name yet)" in line and line.split()[0].isdigit()]
    assert len(unnamed) == 2
    # the board tells how to refer to them: by the start of their key, shown on their line
    assert "trash players stats" in board.stdout and "key" in board.stdout
    shown = [line.split("(no name yet)")[1].split()[0] for line in unnamed]
    assert {CAROL, CARL} == {next(k for k in (CAROL, CARL) if k.startswith(s)) for s in shown}
    by_key = trash("players", "stats", CAROL, "--json", "--history", str(db), cwd=tmp_path)
    assert by_key.returncode == 0, by_key.stderr
    stats = json.loads(by_key.stdout)
    assert stats["identity"] == CAROL and stats["overall"] == {**stats["overall"],
                                                               "matches": 1, "wins": 1}
    carol_shown = next(s for s in shown if CAROL.startswith(s))
    by_prefix = trash("players", "stats", carol_shown, "--json", "--history", str(db),
                      cwd=tmp_path)
    assert by_prefix.returncode == 0, by_prefix.stderr
    assert json.loads(by_prefix.stdout) == stats
    text = trash("players", "stats", carol_shown, "--history", str(db), cwd=tmp_path)
    assert text.returncode == 0 and "1 of 1 won" in text.stdout
    both = trash("players", "stats", "SHA256:carol", "--history", str(db), cwd=tmp_path)
    assert_one_line_error(both, "SHA256:carol", "2 players")
    literal = trash("players", "stats", "(no name yet)", "--history", str(db), cwd=tmp_path)
    assert_one_line_error(literal, "key")


BAD_SEATS = {
    "not JSON": "nonsense",
    "an object": '{"rank": 1, "player": "SHA256:alice"}',
    "a text": '"seats"',
    "a number": "5",
    "null": "null",
    "no seat": "[]",
    "one seat": '[{"rank": 1, "player": "SHA256:alice"}]',
    "entries not objects": "[1, 2]",
    "one entry not an object": '[{"rank": 1, "player": "SHA256:alice"}, "normal"]',
    "rank missing": '[{"player": "SHA256:alice"}, {"rank": 2, "bot": "normal"}]',
    "rank a text": '[{"rank": "1", "player": "SHA256:alice"}, {"rank": 2, "bot": "normal"}]',
    "rank a boolean": '[{"rank": true, "player": "SHA256:alice"}, {"rank": 2, "bot": "normal"}]',
    "rank a fraction": '[{"rank": 1.5, "player": "SHA256:alice"}, {"rank": 2, "bot": "normal"}]',
    "rank NaN": '[{"rank": NaN, "player": "SHA256:alice"}, {"rank": 2, "bot": "normal"}]',
    "rank infinite": '[{"rank": 1e400, "player": "SHA256:alice"}, {"rank": 2, "bot": "normal"}]',
    "rank huge": '[{"rank": 1' + "0" * 40 + ', "player": "SHA256:alice"}, '
                 '{"rank": 2, "bot": "normal"}]',
    "rank 0": '[{"rank": 0, "player": "SHA256:alice"}, {"rank": 2, "bot": "normal"}]',
    "neither player nor bot": '[{"rank": 1}, {"rank": 2, "bot": "normal"}]',
    "both player and bot": '[{"rank": 1, "player": "SHA256:alice", "bot": "easy"}, '
                           '{"rank": 2, "bot": "normal"}]',
    "player a number": '[{"rank": 1, "player": 5}, {"rank": 2, "bot": "normal"}]',
    "player empty": '[{"rank": 1, "player": ""}, {"rank": 2, "bot": "normal"}]',
    "bot a list": '[{"rank": 1, "player": "SHA256:alice"}, {"rank": 2, "bot": [1]}]',
    "bot an object": '[{"rank": 1, "player": "SHA256:alice"}, {"rank": 2, "bot": {}}]',
    "one player twice": '[{"rank": 1, "player": "SHA256:alice"}, '
                        '{"rank": 2, "player": "SHA256:alice"}]',
    "nested deep": "[" * 100_000 + "]" * 100_000,
}


def corrupt(path: Path, seats: str) -> None:
    """The history of ``fill`` with rated match 1's seats replaced by ``seats``."""
    fill(path)
    with open_history(path) as history:
        history.db.execute("UPDATE rated_matches SET seats = ? WHERE match_id = 1", (seats,))


@pytest.mark.parametrize("seats", BAD_SEATS.values(), ids=BAD_SEATS.keys())
def test_a_rated_match_of_the_wrong_shape_is_a_one_line_error(tmp_path: Path,
                                                              seats: str) -> None:
    db = tmp_path / "h.sqlite3"
    corrupt(db, seats)
    rebuilt = trash("players", "rebuild", "--history", str(db), cwd=tmp_path)
    line = assert_one_line_error(rebuilt, "rated match 1", str(db))
    assert len(line) < 400
    with open_history(db) as history:  # the ratings lost: the repair on reading rebuilds
        history.db.execute("DELETE FROM ratings")
    for args in (["leaderboard"], ["stats", "Alice"]):
        read = trash("players", *args, "--history", str(db), cwd=tmp_path)
        assert assert_one_line_error(read, "rated match 1") == line
