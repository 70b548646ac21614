"""Fuzzing the kept rated results (``rated_matches.seats``) through ``trash players``.

A history holds real rated matches (a shared table of two SSH players and a bot, a match at
home against a bot); the seats of its first rated match, as the app wrote them, are
mutated by hypothesis (values replaced by absurd ones — huge numbers, NaN, infinities,
booleans, texts with control characters, lists, objects, deep nesting —, keys deleted,
added or retyped, seats dropped, repeated or swapped) and written back as JSON, or
replaced by text that is not JSON at all. Whatever they hold:

- ``trash players rebuild`` ends with exit code 0, or with 2 and one ``trash: error:``
  line naming the history and the rated match; never a traceback;
- with the computed ratings lost, ``trash players leaderboard`` and ``trash players stats``
  (which rebuild them first) end the same way, with the same line, or show finite ratings.
"""

from __future__ import annotations

import copy
import json
import math
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from players_helpers import finish, shared
from test_fuzz_records import ANY_VALUE, FUZZ, as_text, get, paths, put, retyped, trash

from trash_tui.history import LOCAL_OWNER
from trash_tui.players.rater import open_history

EXAMPLES = 250
ALICE, BOB = "SHA256:alice", "SHA256:bob"
KEYS = ["rank", "player", "bot", "", "extra"]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """A history with rated matches, and the seats kept for its first one."""
    path = tmp_path_factory.mktemp("rated") / "base.sqlite3"
    with open_history(path) as history:
        history.players.register_player(ALICE, "Alice")
        shared(history, ["human", "human", "normal"], [1, 2, 3], {0: ALICE, 1: BOB})
        finish(history, LOCAL_OWNER, ["human", "hard"], [2, 1])
        seats = json.loads(history.db.execute(
            "SELECT seats FROM rated_matches WHERE match_id = 1").fetchone()[0])
    return path, seats


@st.composite
def mutated_seats(draw: st.DrawFn, seats: list[dict[str, Any]]) -> str:
    """The kept seats mutated, as the text of the ``seats`` column."""
    if draw(st.integers(0, 19)) == 0:
        return draw(st.sampled_from(["", "nonsense", "[", "[{", "{}", "NaN", "-Infinity",
                                     "[" * 100_000 + "]" * 100_000, "7" * 5000,
                                     "[" + "1" * 5000 + "]", "\x00", "[{\"rank\": 1}]"]))
    document: Any = copy.deepcopy(seats)
    for _ in range(draw(st.integers(1, 4))):
        places = paths(document)
        path = draw(st.sampled_from(places))
        kind = draw(st.sampled_from(["replace", "replace", "delete", "add", "retype",
                                     "copy"]))
        target = get(document, path)
        if kind == "replace":
            document = put(document, path, draw(ANY_VALUE))
        elif kind == "delete" and path:
            del get(document, path[:-1])[path[-1]]
        elif kind == "add" and isinstance(target, dict):
            target[draw(st.sampled_from(KEYS))] = draw(ANY_VALUE)
        elif kind == "add" and isinstance(target, list):
            target.insert(draw(st.integers(0, len(target))),
                          copy.deepcopy(draw(st.sampled_from(seats))))
        elif kind == "retype":
            document = put(document, path, retyped(target))
        elif kind == "copy":  # another place's value here (a seat twice, a rank as a name)
            other = copy.deepcopy(get(document, draw(st.sampled_from(places))))
            if path:
                document = put(document, path, other)
    text = as_text(document, None, draw(st.booleans()))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: SQLite keeps it escaped only
        text = as_text(document, None, True)
    return text


def _finite(board: dict[str, Any]) -> bool:
    return all(math.isfinite(entry[key]) for entry in board["entries"]
               for key in ("rating", "mu", "sigma"))


@settings(FUZZ, max_examples=EXAMPLES)
@given(data=st.data())
def test_damaged_rated_seats_are_one_line_errors(base: tuple[Path, list[dict[str, Any]]],
                                                 tmp_path_factory: pytest.TempPathFactory,
                                                 data: st.DataObject) -> None:
    path, seats = base
    text = data.draw(mutated_seats(seats))
    copied = tmp_path_factory.mktemp("case") / "h.sqlite3"
    shutil.copy(path, copied)
    with sqlite3.connect(copied) as db:
        db.execute("UPDATE rated_matches SET seats = ? WHERE match_id = 1", (text,))
    db.close()
    code, out, err = trash("players", "rebuild", "--history", str(copied))
    line = _checked(code, out, err, copied)
    with sqlite3.connect(copied) as db:  # the computed ratings lost
        db.execute("DELETE FROM ratings")
    db.close()
    for args in (["leaderboard", "--json"], ["stats", "Alice", "--json"]):
        code, out, err = trash("players", *args, "--history", str(copied))
        assert _checked(code, out, err, copied) == line
        if code == 0 and args[0] == "leaderboard":
            assert _finite(json.loads(out))


def _checked(code: int, out: str, err: str, path: Path) -> str | None:
    """None for a success; the error line (checked) otherwise."""
    assert "Traceback" not in err, err
    if code == 0:
        assert err == ""
        return None
    assert code == 2, (code, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].isprintable(), err
    assert lines[0].startswith(f"trash: error: history database {path}: rated match 1 "), err
    assert out == ""
    return lines[0]
