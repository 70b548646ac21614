"""Records from elsewhere: whatever a record holds, ``trash replay`` and ``trash neighbor
replay`` print no control character (the names, the seed and the context come out with
their escape sequences, bidi overrides and newlines written as ``\\x1b``, ``\\u202e``,
``\\n``), and a record of the wrong shape is one error line (exit 2; 1 with ``--check``,
which calls it a difference), never a Python traceback, in both modes alike."""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bots.builtin import greedy_policy
from bots.neighbor import make_neighbor_bot, play_neighbor
from trash_tui.cards import build_deck, decks_for
from trash_tui.cli.main import main
from trash_tui.engine.deal import Deal
from trash_tui.engine.match import Match
from trash_tui.engine.record import (
    RecordError,
    checksum,
    deal_record,
    load_records,
    match_record,
    replay,
    replay_start,
)
from trash_tui.engine.rng import Rng
from trash_tui.neighbor.engine import NeighborGame
from trash_tui.neighbor.record import neighbor_record, replay_neighbor
from trash_tui.rules import Rules

Document = dict[str, Any]
RULES = Rules(start_size=3)
HOSTILE = ["\x1b[2JEve", "\x1b]0;owned\x07Ann", "Bob\u202eevil", "Cy\nforged line"]
SHOWN = ["\\x1b[2JEve", "\\x1b]0;owned\\x07Ann", "Bob\\u202eevil", "Cy\\nforged line"]


def control_characters(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c)[0] == "C" and c != "\n"]


def trash(*args: str) -> tuple[int, str, str]:
    """``trash ARGS`` in this process as the console script runs it: exit code, stdout,
    stderr. Any other exception escapes (and fails the test)."""
    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue().decode(), err.getvalue().decode()


def resign(document: Document) -> Document:
    document["checksum"] = checksum(document)
    return document


def match_document(players: int = 3) -> Document:
    match = Match(RULES, players, 6)
    rng = Rng(1)
    while not match.over:
        match.apply(greedy_policy(match.deal, match.deal.to_move, rng))
    return json.loads(json.dumps(match_record(match, HOSTILE[:players], context={
        "tournament": "\x1b[31mred", "game": "\x1b]0;title\x07"})))


def deal_document() -> Document:
    rng = Rng(2)
    deal = Deal(RULES, (3, 3), 0, build_deck(decks_for(2), RULES.jokers),
                reshuffle=rng.shuffle, shuffle_with=rng)
    while not deal.over:
        deal.apply(greedy_policy(deal, deal.to_move, rng))
    return json.loads(json.dumps(deal_record(deal, HOSTILE[:2], seed="\x1b[2J")))


def neighbor_document() -> Document:
    game = play_neighbor(NeighborGame(4, 3), [make_neighbor_bot("random", s) for s in range(4)])
    return json.loads(json.dumps(neighbor_record(game, HOSTILE)))


def write(folder: Path, document: Any, name: str = "record.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


# --- what is printed -------------------------------------------------------------------------
@pytest.mark.parametrize("make", [match_document, deal_document, neighbor_document],
                         ids=["match", "deal", "help-your-neighbor"])
def test_names_seed_and_context_are_printed_escaped(tmp_path: Path,
                                                    make: Callable[[], Document]) -> None:
    document = make()
    path = write(tmp_path, document)
    commands = [("replay",)]
    if document["kind"] == "help-your-neighbor":
        commands.append(("neighbor", "replay"))
    for command in commands:
        code, out, err = trash(*command, str(path))
        assert code == 0 and err == "", err
        assert control_characters(out) == [], out
        players = document["players"]
        assert all(shown in out for shown in SHOWN[:players])
        for line in out.splitlines():  # the newline in a name did not start a line
            assert not line.startswith("forged line")
    if document["kind"] == "match":
        assert "— \\x1b[31mred, game \\x1b]0;title\\x07" in out
    if document["kind"] == "deal":
        assert "seed \\x1b[2J" in out


def test_a_title_sequence_in_the_context_does_not_reach_a_pipe(tmp_path: Path) -> None:
    """Run for real: the bytes written to the pipe hold no ESC, BEL or bidi override."""
    path = write(tmp_path, match_document())
    result = subprocess.run([sys.executable, "-m", "trash_tui", "replay", str(path)],
                            capture_output=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert b"\x1b" not in result.stdout and b"\x07" not in result.stdout
    assert "\u202e".encode() not in result.stdout
    assert b"\\x1b]0;title\\x07" in result.stdout


def test_a_lone_surrogate_in_a_name_is_printed_escaped(tmp_path: Path) -> None:
    document = match_document()
    document["seats"][0] = "\ud800Eve"
    path = tmp_path / "surrogate.json"
    path.write_text(json.dumps(resign(document)), encoding="utf-8")  # as "\ud800"
    code, out, err = trash("replay", str(path))
    assert code == 0, err
    assert "\\ud800Eve" in out and control_characters(out) == []


# --- records of the wrong shape ----------------------------------------------------------------
def edit(key: str, value: Any) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        document[key] = value
    return change


SHAPES: list[tuple[str, Callable[[], Document], Callable[[Document], None], str]] = [
    ("kind-object", match_document, edit("kind", {"a": 1}), "record: unknown kind {'a': 1}"),
    ("kind-list", match_document, edit("kind", ["match"]), "record: unknown kind ['match']"),
    ("seats-string", match_document, edit("seats", "abc"),
     "record: 'seats' has the wrong type (str)"),
    ("seats-numbers", match_document, edit("seats", [1, 2, 3]),
     "record: 'seats' must be a list of 3 strings"),
    ("seats-too-few", match_document, edit("seats", ["a"]),
     "record: 'seats' must be a list of 3 strings"),
    ("players-huge", match_document, edit("players", 10**30),
     "record: players: Trash is for 2 to 8 players, got 1" + "0" * 30),
    ("deal-seats-string", deal_document, edit("seats", "ab"),
     "record: 'seats' has the wrong type (str)"),
    ("deal-players-huge", deal_document, edit("players", 10**30), "record: players: "),
    ("context-string", match_document, edit("context", "x"),
     "record: 'context' has the wrong type (str)"),
    ("seed-list", match_document, edit("seed", [1]), "record: 'seed' has the wrong type"),
    ("neighbor-seats-string", neighbor_document, edit("seats", "abcd"),
     "record: 'seats' has the wrong type (str)"),
    ("neighbor-players-huge", neighbor_document, edit("players", 10**30),
     "record: 1" + "0" * 30 + " players (Help Your Neighbor needs 3 to 8)"),
    ("neighbor-superscript-roll", neighbor_document,
     lambda d: d.__setitem__("rolls", "3-\u00b2 " + d["rolls"]),
     "record: roll 1: '3-²' is not two dice like 3-4"),
    ("neighbor-kind-object", neighbor_document, edit("kind", {}), "record: unknown kind {}"),
]


@pytest.mark.parametrize(("make", "change", "expected"), [s[1:] for s in SHAPES],
                         ids=[s[0] for s in SHAPES])
def test_a_record_of_the_wrong_shape_is_one_line_in_both_modes(
        tmp_path: Path, make: Callable[[], Document], change: Callable[[Document], None],
        expected: str) -> None:
    document = make()
    change(document)
    path = write(tmp_path, resign(document))
    code, out, err = trash("replay", str(path))
    assert (code, out) == (2, ""), (code, err)
    assert err.startswith(f"trash: error: {expected}") and err.count("\n") == 1, err
    code, out, err = trash("replay", "--check", str(path))
    assert (code, out) == (1, ""), (code, err)  # --check: a record that does not replay
    assert err.startswith(f"trash: {path}: differs: {expected}") and err.count("\n") == 1
    with pytest.raises(RecordError):
        (replay_neighbor if document.get("kind") == "help-your-neighbor" else replay)(document)


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("deep", "[" * 100_000 + "]" * 100_000, "nested more than 32 levels deep"),
    ("deep-object", '{"a": ' * 50 + "1" + "}" * 50, "nested more than 32 levels deep"),
    ("long-int", '{"format": "trash-tui-record", "players": ' + "9" * 5000 + "}",
     "a number with 5000 digits (a record's numbers have at most 100)"),
])
def test_json_no_record_holds_is_one_line_in_both_modes(tmp_path: Path, name: str,
                                                        text: str, expected: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(text, encoding="utf-8")
    for args in (("replay",), ("replay", "--check"), ("neighbor", "replay")):
        code, out, err = trash(*args, str(path))
        assert (code, out) == (2, ""), (args, code, err)
        assert err == f"trash: error: {path}: {expected}\n", err
    with pytest.raises(RecordError, match="^" + str(path)):
        load_records(path)


def test_a_deep_line_of_a_json_lines_file_is_named(tmp_path: Path) -> None:
    good = json.dumps(match_document())
    path = tmp_path / "lines.jsonl"
    path.write_text(f"{good}\n{'[' * 5000}{']' * 5000}\n", encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_records(path)
    assert str(info.value) == f"{path}:2: nested more than 32 levels deep"


def test_stepping_through_a_record_checks_its_shape_first() -> None:
    document = match_document()
    document["seats"] = "abc"
    with pytest.raises(RecordError, match="'seats' has the wrong type"):
        replay_start(resign(document), check=False)
    document = match_document()
    document["deals"][0]["actions"] += " wild:\u00b2"
    with pytest.raises(RecordError, match=r"deal 1, action \d+: not an action: 'wild:²'"):
        replay_start(resign(document), check=False)
