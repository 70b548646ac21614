"""A browser's player (issue 39): ``web:`` and 16 hex digits is a kept, rated player like a
key, not a guest: suggested a name like a key's, rated at a shared table, on the
leaderboard (by the start of its identity while it has no name) and in the statistics; the
operator can ban or mute it by its identity."""

from __future__ import annotations

import json
from pathlib import Path

from players_helpers import shared
from test_cli import trash

from trash_tui.admin.moderation import is_key
from trash_tui.games import TRASH
from trash_tui.players.identity import default_name, is_guest, is_web
from trash_tui.players.rater import open_history

ANN = "SHA256:annAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
TABLET = "web:0123456789abcdef"
PHONE = "web:fedcba9876543210"


def test_a_browsers_player_is_kept_and_suggested_a_name_like_a_keys() -> None:
    assert is_web(TABLET) and not is_guest(TABLET) and not is_web(ANN)
    assert default_name(TABLET).startswith("Player ") and default_name(TABLET) != \
        default_name(PHONE)
    assert default_name(TABLET, lambda name: name == default_name(TABLET)) != \
        default_name(TABLET)  # (unique on the server, as a key's)
    assert is_key(TABLET)  # the operator's ban, mute and kick take it


def test_a_browsers_player_is_rated_and_shown_without_a_name_by_its_identity(
        tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    with open_history(db) as history:
        history.players.register_player(ANN, "Ann")
        history.players.register_player(PHONE, "Phone Bob")
        shared(history, ["human", "human", "normal"], [1, 2, 3], {0: TABLET, 1: ANN})
        shared(history, ["human", "human", "normal"], [2, 1, 3], {0: PHONE, 1: ANN})
        shared(history, ["human", "human"], [1, 2], {0: TABLET, 1: "guest:00aa"})
        rated = {row.identity for row in history.players.ratings(TRASH)}
    assert rated == {ANN, TABLET, PHONE}  # (not the match with a guest in it)
    board = trash("players", "leaderboard", "--history", str(db), cwd=tmp_path)
    assert board.returncode == 0, board.stderr
    [tablet] = [line for line in board.stdout.splitlines()
                if "(no name yet)" in line and line.split()[0].isdigit()]
    shown = tablet.split("(no name yet)")[1].split()[0]
    assert shown.startswith("web:") and TABLET.startswith(shown)
    assert "a browser" in board.stdout  # the note says what the start shown is
    assert any("Phone Bob" in line for line in board.stdout.splitlines())
    stats = trash("players", "stats", shown, "--json", "--history", str(db), cwd=tmp_path)
    assert stats.returncode == 0, stats.stderr
    found = json.loads(stats.stdout)
    assert found["identity"] == TABLET and found["overall"]["matches"] == 2
    by_name = trash("players", "stats", "Phone Bob", "--json", "--history", str(db),
                    cwd=tmp_path)
    assert json.loads(by_name.stdout)["identity"] == PHONE


def test_a_new_browser_is_asked_its_name_as_a_browser_not_as_a_key() -> None:
    from trash_tui.app.screens.remote import NameScreen

    question = NameScreen("Player ABCD", web=True).question()
    assert "browser" in question and "key is new" not in question
    assert "b in the SSH lobby" in question  # how to be the same player as over SSH
    assert "Your key is new here" in NameScreen("Player ABCD").question()
