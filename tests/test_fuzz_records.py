"""Fuzzing the JSON record loader, the replay and ``trash replay``.

Each input starts from real records written by ``trash simulate --record`` (a match of
Trash, two single deals in a JSON Lines file) and ``trash neighbor simulate --record`` (a
game of Help Your Neighbor), mutated by hypothesis: values replaced by absurd ones (huge
or negative numbers, NaN, lone surrogates, control characters, bidi overrides, markup,
lists, objects), keys deleted, added or retyped, the tokens of the deck, action and roll
strings dropped, repeated, swapped or replaced, values swapped between keys; then the
checksum recomputed (most of the time, so the replay itself is reached); then, as text,
nesting 100,000 levels deep, an integer of thousands of digits, a cut, an invalid byte,
several records as JSON Lines. Whatever the input:

- reading and replaying it (``load_records``, ``replay`` / ``replay_neighbor``, and
  ``replay_start`` for a match that replays) raises nothing but ``RecordError``, whose
  message is one printable line;
- ``trash replay FILE`` ends with exit code 0 and a log without control characters, or
  with exit code 2 and one ``trash: error: ...`` line on stderr; ``trash replay --check
  FILE`` ends with 0, with 1 and one ``trash: FILE: differs: ...`` line (the documented
  code for a record that does not replay), or with 2 and one ``trash: error: ...`` line
  (a file that holds no records); and the two agree on which files are good.

Examples per test (``EXAMPLES``): 1000 for the loader, 400 for the command (each runs
``trash replay`` twice); ``--hypothesis-show-statistics`` shows how the loader's inputs
ended (replayed, or rejected and why).
"""

from __future__ import annotations

import copy
import json
import math
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from trash_tui.cli.main import main
from trash_tui.engine.record import RecordError, checksum, load_records, replay, replay_start
from trash_tui.games import NEIGHBOR
from trash_tui.neighbor.record import replay_neighbor

EXAMPLES = {"loader": 1000, "command": 400}
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                       HealthCheck.function_scoped_fixture,
                                                       HealthCheck.data_too_large])


def trash(*args: str) -> tuple[int, str, str]:
    """``trash ARGS`` in this process as the console script runs it: exit code, stdout,
    stderr. An exception other than the exit escapes (and fails the test)."""
    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return (code, out.getvalue().decode("utf-8", "replace"),
            err.getvalue().decode("utf-8", "replace"))


def simulated(folder: Path, *args: str) -> list[dict[str, Any]]:
    """The records ``trash ARGS --record FILE`` writes."""
    path = folder / "simulated.jsonl"
    code, _, err = trash(*args, "--record", str(path))
    assert code == 0, err
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> list[list[dict[str, Any]]]:
    """Real records: a match of Trash, two single deals, a game of Help Your Neighbor."""
    folder = tmp_path_factory.mktemp("bases")
    return [
        simulated(folder, "simulate", "--matches", "1", "--players", "3", "--rules", "kids",
                  "--seed", "5"),
        simulated(folder, "simulate", "--deals", "2", "--players", "4", "--rules", "party",
                  "--bot", "random", "--seed", "8"),
        simulated(folder, "neighbor", "simulate", "--games", "1", "--players", "3",
                  "--seed", "2"),
    ]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


# --- mutations -------------------------------------------------------------------------------
# Placeholders turned into JSON no Python value dumps to: deep nesting, very long integers.
DEEP, LONG = "\x00deep:", "\x00long:"
ODD_VALUES: list[Any] = [
    10**30, -(10**30), 2**63, -1, 0, 9, 10**100, True, False, None, math.nan, math.inf,
    -math.inf, 1e308, 0.5, "", " ", "\x1b[2J", "\x1b]0;title\x07", "\u202eevil", "a\nb",
    "\ud800", "\udfff", "[/b]", "[@click=app.quit]x[/]", "é" * 500, "0" * 200, [], {},
    [[[[1]]]], {"": {"": None}}, ["\x1b[2J", 1], {"game": "\x1b]0;x\x07"},
    f"{DEEP}40", f"{DEEP}100000", f"{LONG}101", f"{LONG}5000",
]
ODD_TOKENS = ["wild:²", "wild:0", "wild:11", "wild:" + "9" * 5000, "uncover:7", "uncover:²",
              "uncover:" + "1" * 5000, "XX", "10X", "*R", "AS", "\x1b[2J", "3-²", "7-7",
              "٣-٤", "0-1", "6-6", "1-" + "1" * 5000, "\ud800", "roll", "stock", "discard",
              "swap", "keep", "call", "silent", "-", ""]
#: A value to put in a record. The odd ones are copied: a mutation that changes a list or
#: a dict put in an earlier document must not change ``ODD_VALUES`` (hypothesis then sees
#: different data for the same choices, and fails the test as flaky).
ANY_VALUE = st.one_of(
    st.sampled_from(ODD_VALUES).map(copy.deepcopy), st.integers(), st.floats(),
    st.text(max_size=12), st.booleans(), st.none(), st.lists(st.integers(-2, 12), max_size=6),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=3))


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``value``: the root, and every key and item, however deep."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def put(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    """``document`` with ``value`` at ``path`` (the root replaced when ``path`` is empty)."""
    if not path:
        return value
    get(document, path[:-1])[path[-1]] = value
    return document


def retyped(value: Any) -> Any:
    """The same value, of another JSON type."""
    if isinstance(value, bool | int | float):
        return str(value)
    if isinstance(value, str):
        return value.split() or [value]
    if isinstance(value, list):
        return {str(i): item for i, item in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return 0


@st.composite
def mutated_document(draw: st.DrawFn, document: dict[str, Any]) -> Any:
    document = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 4))):
        places = paths(document)
        path = draw(st.sampled_from(places))
        kind = draw(st.sampled_from(["replace", "delete", "add", "retype", "tokens",
                                     "tokens", "swap"]))
        target = get(document, path)
        if kind == "replace":
            document = put(document, path, draw(ANY_VALUE))
        elif kind == "delete" and path:
            parent = get(document, path[:-1])
            del parent[path[-1]]
        elif kind == "add" and isinstance(target, dict):
            target[draw(st.sampled_from(["extra", "kind", "seats", "", "\x1b"]))] = draw(
                ANY_VALUE)
        elif kind == "retype":
            document = put(document, path, retyped(target))
        elif kind == "tokens" and isinstance(target, str) and target.split():
            tokens = target.split()
            i = draw(st.integers(0, len(tokens) - 1))
            j = draw(st.integers(0, len(tokens) - 1))
            how = draw(st.sampled_from(["drop", "repeat", "swap", "odd"]))
            if how == "drop":
                del tokens[i]
            elif how == "repeat":
                tokens.insert(j, tokens[i])
            elif how == "swap":
                tokens[i], tokens[j] = tokens[j], tokens[i]
            else:
                tokens[i] = draw(st.sampled_from(ODD_TOKENS))
            document = put(document, path, " ".join(tokens))
        elif kind == "swap":
            other = draw(st.sampled_from(places))
            if path and other and path[:len(other)] != other and other[:len(path)] != path:
                a, b = copy.deepcopy(target), copy.deepcopy(get(document, other))
                document = put(put(document, path, b), other, a)
    if isinstance(document, dict) and draw(st.integers(0, 5)) > 0:
        document["checksum"] = checksum(document)  # as a careful forger would
    return document


def as_text(document: Any, indent: int | None, ascii_only: bool) -> str:
    text = json.dumps(document, indent=indent, ensure_ascii=ascii_only)
    for marker, build in ((DEEP, lambda n: "[" * n + "]" * n), (LONG, lambda n: "7" * n)):
        quoted = json.dumps(marker, ensure_ascii=ascii_only)[:-1]  # '"\u0000deep:'
        while quoted in text:
            start = text.index(quoted)
            end = text.index('"', start + len(quoted))
            text = text[:start] + build(int(text[start + len(quoted):end])) + text[end + 1:]
    return text


@st.composite
def record_files(draw: st.DrawFn, bases: list[list[dict[str, Any]]]) -> bytes:
    """The bytes of a record file: one or more mutated records, as JSON or JSON Lines."""
    base = draw(st.sampled_from(bases))
    documents = [draw(mutated_document(document)) if draw(st.integers(0, 3)) else document
                 for document in base]
    ascii_only = draw(st.booleans())
    if len(documents) == 1 and draw(st.booleans()):
        text = as_text(documents[0], draw(st.sampled_from([None, 1])), ascii_only)
    else:
        text = "\n".join(as_text(d, None, ascii_only) for d in documents) + "\n"
    data = text.encode("utf-8", "surrogatepass")  # a raw lone surrogate: not UTF-8
    edit = draw(st.integers(0, 9))
    if edit == 0:
        data = data[:draw(st.integers(0, len(data)))]
    elif edit == 1:
        position = draw(st.integers(0, len(data)))
        data = data[:position] + draw(st.sampled_from([b"\xff", b"\x00", b"\n", b"{", b"]",
                                                       b"\xed\xa0\x80"])) + data[position:]
    return data


# --- what must hold --------------------------------------------------------------------------
def control_characters(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c)[0] == "C" and c != "\n"]


def replay_any(document: Any) -> None:
    """Replay a record of either game, as ``trash replay`` picks the game."""
    if isinstance(document, dict) and document.get("kind") == NEIGHBOR:
        replay_neighbor(document)
        return
    replay(document)
    if isinstance(document, dict) and document.get("kind") == "match":
        replay_start(document, check=False)  # the app's replay screen starts here


@settings(FUZZ, max_examples=EXAMPLES["loader"])
@given(data=st.data())
def test_the_loader_and_the_replay_raise_only_one_line_record_errors(
        bases: list[list[dict[str, Any]]], folder: Path, data: st.DataObject) -> None:
    path = folder / "fuzzed.json"
    path.write_bytes(data.draw(record_files(bases)))
    try:
        for document in load_records(path):
            replay_any(document)
        event("replays")
    except RecordError as exc:
        event(f"rejected: {str(exc).removeprefix(str(path)).split(':')[1].strip()[:24]}")
        message = str(exc)
        assert message and "\n" not in message, message
        assert control_characters(message) == [], message


@settings(FUZZ, max_examples=EXAMPLES["command"])
@given(data=st.data())
def test_trash_replay_prints_a_clean_log_or_one_error_line_and_check_agrees(
        bases: list[list[dict[str, Any]]], folder: Path, data: st.DataObject) -> None:
    path = folder / "fuzzed.json"
    path.write_bytes(data.draw(record_files(bases)))
    code, out, err = trash("replay", str(path))
    assert code in (0, 2), (code, err)
    if code == 0:
        assert err == "" and out and control_characters(out) == [], out
    else:
        assert len(err.splitlines()) == 1 and err.startswith("trash: error: "), err
        assert out == "" and control_characters(err) == [], err
    checked, out, err = trash("replay", "--check", str(path))
    assert (checked == 0) == (code == 0), (code, checked, err)
    if checked == 0:
        assert err == "" and "ok (" in out
        return
    assert out == "" and len(err.splitlines()) == 1, err
    assert control_characters(err) == [], err
    prefix = f"trash: {path}: differs: " if checked == 1 else "trash: error: "
    assert checked in (1, 2) and err.startswith(prefix), (checked, err)
