"""``trash history``: list the app's saved matches of both games, list SSH players, and
export a match's record (finished, or rebuilt up to where it stopped) that ``trash
replay`` prints and checks; bad ids and other players' matches are one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli import trash

from trash_tui.play.saving import start_saved_match, start_saved_neighbor_game
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules

ALICE = "SHA256:alice"


def fill(path: Path) -> tuple[int, int, int]:
    """A finished dice game, an unfinished match of Trash (local) and one of Alice's."""
    with open_history(path) as history:
        dice = start_saved_neighbor_game(history, "local", ["smart", "random", "smart"], 79)
        while not dice.over:
            dice.step_bot()
        cards = start_saved_match(history, "local", Rules(start_size=3), ["human", "greedy"], 4)
        for _ in range(4):
            if cards.waiting_for_human:
                cards.play(cards.legal()[0])
            else:
                cards.step_bot()
        theirs = start_saved_match(history, ALICE, Rules(start_size=3), ["human", "greedy"], 5)
        history.players.register_player(ALICE, "Alice")
    assert dice.match_id and cards.match_id and theirs.match_id
    return dice.match_id, cards.match_id, theirs.match_id


def test_list_shows_both_games_and_players_lists_ssh_players(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    dice, cards, theirs = fill(db)
    listed = trash("history", "list", "--history", str(db), cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == 3  # the header and the two local matches, not Alice's
    assert any(line.split()[0] == str(dice) and "Neighbor" in line and "won by" in line
               for line in lines)
    assert any(line.split()[0] == str(cards) and "Trash" in line and "unfinished" in line
               for line in lines)
    alice = trash("history", "list", "--player", ALICE, "--history", str(db), cwd=tmp_path)
    assert alice.stdout.splitlines()[1].split()[0] == str(theirs)
    players = trash("history", "players", "--history", str(db), cwd=tmp_path)
    assert players.returncode == 0 and f"{ALICE}  Alice" in players.stdout


def test_exported_records_replay_for_finished_and_unfinished_matches(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    dice, cards, _ = fill(db)
    for match_id, kind in ((dice, "help-your-neighbor"), (cards, "match")):
        out = tmp_path / f"{match_id}.json"
        done = trash("history", "export", str(match_id), "-o", str(out), "--history", str(db),
                     cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        record = json.loads(out.read_text())
        assert record["kind"] == kind and record["context"] == {"app_match": match_id}
        check = trash("replay", str(out), "--check", cwd=tmp_path)
        assert check.returncode == 0, check.stderr
    printed = trash("history", "export", str(cards), "--history", str(db), cwd=tmp_path)
    assert json.loads(printed.stdout)["kind"] == "match"


def test_bad_ids_and_other_players_matches_are_one_line_errors(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    _, _, theirs = fill(db)
    for args, words in ((["export", "999"], "no match 999"),
                        (["export", str(theirs)], "is not 'local'"),
                        (["export", "0"], "0")):
        result = trash("history", *args, "--history", str(db), cwd=tmp_path)
        assert result.returncode == 2
        assert result.stderr.count("\n") == 1 and words in result.stderr
        assert "Traceback" not in result.stderr


def test_nothing_played_yet_is_not_an_error(tmp_path: Path) -> None:
    none = str(tmp_path / "none.sqlite3")
    for args, words in ((["list"], "Nothing has been played yet."),
                        (["players"], "No SSH players yet.")):
        result = trash("history", *args, "--history", none, cwd=tmp_path)
        assert (result.returncode, result.stderr) == (0, ""), result.stderr
        assert result.stdout.strip() == words
    assert not (tmp_path / "none.sqlite3").exists()  # nothing is created by looking
    export = trash("history", "export", "3", "--history", none, cwd=tmp_path)
    assert export.returncode == 2 and "no match 3: nothing has been played yet" in export.stderr


def test_player_takes_a_display_name_too(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    _, _, theirs = fill(db)
    by_name = trash("history", "list", "--player", "Alice", "--history", str(db), cwd=tmp_path)
    assert by_name.returncode == 0, by_name.stderr
    assert by_name.stdout.splitlines()[1].split()[0] == str(theirs)
    exported = trash("history", "export", str(theirs), "--player", "Alice", "--history",
                     str(db), cwd=tmp_path)
    assert exported.returncode == 0 and json.loads(exported.stdout)["kind"] == "match"
    any_case = trash("history", "list", "--player", "alice", "--history", str(db),
                     cwd=tmp_path)
    assert any_case.returncode == 0 and any_case.stdout == by_name.stdout
    typo = trash("history", "list", "--player", "Alise", "--history", str(db), cwd=tmp_path)
    assert typo.returncode == 2 and typo.stderr.count("\n") == 1
    assert "no player 'Alise'" in typo.stderr and "did you mean 'Alice'?" in typo.stderr
    helped = trash("history", "list", "--help", cwd=tmp_path)
    assert "display name" in " ".join(helped.stdout.split())
    with open_history(db) as history:
        history.players.register_player("SHA256:another", "Alice")
    twice = trash("history", "list", "--player", "Alice", "--history", str(db), cwd=tmp_path)
    assert twice.returncode == 2 and twice.stderr.count("\n") == 1
    assert "2 SSH players are called 'Alice': give one's identity" in twice.stderr


def test_an_id_too_large_for_the_database_is_no_such_match(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    fill(db)
    result = trash("history", "export", "99999999999999999999999", "--history", str(db),
                   cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr == f"trash: error: no match 99999999999999999999999 in {db}\n"


def test_names_from_the_database_are_printed_escaped(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    dice, _, _ = fill(db)
    with open_history(db) as history:
        history.players.register_player("SHA256:\x1b[2J", "Eve\x1b]0;owned\x07")
        history.db.execute("UPDATE matches SET names = ?, winner = ? WHERE id = ?",
                           (json.dumps(["Ann\u202e", "Bob\nforged", "Cy"]), "Ann\u202e", dice))
    listed = trash("history", "list", "--history", str(db), cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "won by Ann\\u202e; Ann\\u202e, Bob\\nforged, Cy" in listed.stdout
    players = trash("history", "players", "--history", str(db), cwd=tmp_path)
    assert "SHA256:\\x1b[2J  Eve\\x1b]0;owned\\x07  (last seen" in players.stdout
    for output in (listed.stdout, players.stdout):
        assert "\x1b" not in output and "\u202e" not in output and "\x07" not in output
    assert len(listed.stdout.splitlines()) == 3  # no forged line


def test_a_damaged_row_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    dice, _, _ = fill(db)
    with open_history(db) as history:
        history.db.execute("UPDATE matches SET names = '[1' WHERE id = ?", (dice,))
    for args in (["list"], ["export", str(dice)]):
        result = trash("history", *args, "--history", str(db), cwd=tmp_path)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
        assert result.stderr.startswith(f"trash: error: history database {db}: cannot read it")


def test_a_player_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    import subprocess

    from test_cli import _trash_exe

    db = tmp_path / "h.sqlite3"
    fill(db)
    result = subprocess.run([_trash_exe().encode(), b"history", b"list", b"--player",
                             b"caf\xe9", b"--history", bytes(db)], capture_output=True,
                            text=True, timeout=60, check=False)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "--player" in result.stderr and "caf\\udce9 is not UTF-8 text" in result.stderr
