"""Fuzzing the tournament loader and ``trash tournament check/run`` with broken files.

Inputs: the shipped files in ``tournaments/*.toml`` mutated (lines deleted or duplicated,
values swapped, table headers changed, values replaced by huge or tiny numbers, nan and
infinities, dates, odd Unicode, control characters, deep nesting, random text spliced
in), whole documents generated from the keys the loader knows, and documents nested far
deeper than TOML files can be (as if the reader returned them).

What must hold: the only exception leaving ``load_tournament`` is ``TournamentError``, its
message is one line without control characters, a file that loads stays within the
loader's bounds, and the command line turns every failure into one line on stderr
(``trash: error: ...``) with exit code 2 and no traceback, creating no output folder.

Each test counts the inputs it tried; the counts are printed at the end of the module
(``fuzz inputs tried: ...``). With ``CI`` set, Hypothesis runs derandomized.
"""

from __future__ import annotations

import datetime
import math
import os
import re
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from trash_tui.cli.main import main
from trash_tui.text import is_unsafe
from trash_tui.tournament.config import (
    MAX_BOARDS,
    MAX_BOTS,
    MAX_GAMES,
    STOP_KEYS,
    TOP_KEYS,
    TournamentConfig,
    TournamentError,
    load_tournament,
)
from trash_tui.tournament.schedule import total_games

REPO = Path(__file__).resolve().parents[1]
SHIPPED = {path.name: path.read_text(encoding="utf-8")
           for path in sorted((REPO / "tournaments").glob("*.toml"))}

settings.register_profile(
    "tournament-fuzz-ci", derandomize=True, database=None, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "tournament-fuzz-dev", deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PROFILE = settings.get_profile("tournament-fuzz-ci" if os.environ.get("CI")
                               else "tournament-fuzz-dev")

#: Inputs tried by each test of this module (printed when the module is done).
TRIED: Counter[str] = Counter()


def examples(count: int) -> settings:
    return settings(PROFILE, max_examples=count)


@pytest.fixture(scope="module", autouse=True)
def _report_counts(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    line = "fuzz inputs tried: " + ", ".join(f"{name} {count}"
                                             for name, count in sorted(TRIED.items()))
    plugins = request.config.pluginmanager
    reporter = plugins.get_plugin("terminalreporter")
    capture = plugins.get_plugin("capturemanager")
    if reporter is None or capture is None:
        print(line)
        return
    with capture.global_and_fixture_disabled():  # past pytest's capture of teardowns
        reporter.write_line("\n" + line)


# --- TOML text from Python values --------------------------------------------------------------

def toml_string(text: str) -> str:
    """A TOML basic string holding ``text`` (control characters as \\u escapes)."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_string(key)


def toml_value(value: Any) -> str:
    """``value`` as a TOML literal (tables inline)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(type(value))


# --- strategies -------------------------------------------------------------------------------

ODD_TEXT = [
    "", " ", "\x1b[2J", "\x1b]0;owned\x07", "\u202e", "\x00", "\ufeff", "a\nb", "\r", "\\",
    "'", '"', "é", "🃏", "𝓽𝓻𝓪𝓼𝓱", "\u0301", "\u200b", "x" * 300, "hard\x7f", "../../x",
    "bots/x.py", "\t", "null", "true",
]
#: Random text never holds ":" (a "module:Class" bot reference would import a module).
TEXT = st.text(st.characters(blacklist_characters=":", blacklist_categories=("Cs",)),
               max_size=12)
WORDS = st.sampled_from([
    "hard", "greedy", "random", "smart", "expert", "easy", "normal", "counter", "sprt",
    "fixed", "gauntlet", "round-robin", "trash", "help-your-neighbor", "standard",
    "kings-wild", "jokers", "matches", "deals"])
EDGES = st.sampled_from([
    2**63 - 1, 2**63, -(2**63) - 1, 10**30, 99999999999999999, MAX_BOARDS, MAX_BOARDS + 1,
    int("9" * 400), -int("9" * 400), math.nan, math.inf, -math.inf, 1e-300, 5e-324, 1e308,
    -0.0, 0.0, 0, -1, 0.5, 0.05, 0.0001, 2.0, 3600.0, 3600.5, 1e400])
NUMBERS = st.one_of(
    EDGES, EDGES,  # the edges are drawn about half of the time
    st.integers(-3, 10),
    st.integers(),
    st.integers(-(2**80), 2**80),
    st.floats(allow_nan=True, allow_infinity=True),
)
SCALARS = st.one_of(
    NUMBERS, st.booleans(), WORDS, TEXT, st.sampled_from(ODD_TEXT),
    st.dates(), st.datetimes(min_value=datetime.datetime(1900, 1, 1)),
)
KEYS = st.one_of(st.sampled_from([*TOP_KEYS, *STOP_KEYS, "bot", "mistakes", "preset",
                                  "start_size", "wilds", "jokers", "samples"]),
                 TEXT.filter(bool), st.sampled_from(ODD_TEXT[1:]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(KEYS, inner, max_size=3), max_leaves=8)


def nested(depth: int, leaf: Any = 1) -> Any:
    """``leaf`` inside ``depth`` arrays, built without recursion."""
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


ASSIGNMENT = re.compile(r"^(\s*[A-Za-z0-9_.\"'-]+\s*=\s*)(.*)$")
HEADERS = ["[[bots]]", "[bots]", "[rules]", "[[rules]]", "[stop]", "[[stop]]", "[name]",
           "[bots.x]", "[[bots.rules]]", "[rules.preset]", "[\"\\u001b\"]"]


@st.composite
def mutated_files(draw: st.DrawFn) -> tuple[str, str]:
    """A shipped tournament file with one to five mutations, and its name."""
    name = draw(st.sampled_from(sorted(SHIPPED)))
    lines = SHIPPED[name].splitlines()
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from([
            "delete", "duplicate", "swap", "value", "huge", "deep", "insert", "header",
            "splice", "control"]))
        at = draw(st.integers(0, max(0, len(lines) - 1)))
        assigned = [i for i, line in enumerate(lines) if ASSIGNMENT.match(line)]
        if kind == "delete" and lines:
            del lines[at]
        elif kind == "duplicate" and lines:
            lines.insert(at, lines[at])
        elif kind == "swap" and len(assigned) >= 2:
            i, j = draw(st.sampled_from(assigned)), draw(st.sampled_from(assigned))
            a, b = ASSIGNMENT.match(lines[i]), ASSIGNMENT.match(lines[j])
            assert a and b
            lines[i], lines[j] = a.group(1) + b.group(2), b.group(1) + a.group(2)
        elif kind in ("value", "huge", "deep") and assigned:
            i = draw(st.sampled_from(assigned))
            match = ASSIGNMENT.match(lines[i])
            assert match
            if kind == "value":
                literal = toml_value(draw(VALUES))
            elif kind == "huge":
                literal = toml_value(draw(NUMBERS))
            else:
                depth = draw(st.one_of(st.integers(1, 120), st.just(5000)))
                literal = "[" * depth + "]" * depth
            lines[i] = match.group(1) + literal
        elif kind == "insert":
            lines.insert(at, f"{toml_key(draw(KEYS))} = {toml_value(draw(VALUES))}")
        elif kind == "header":
            lines.insert(at, draw(st.sampled_from(HEADERS)))
        elif kind == "splice" and lines:
            line = lines[at]
            cut = draw(st.integers(0, len(line)))
            lines[at] = line[:cut] + draw(TEXT) + line[cut + draw(st.integers(0, 5)):]
        elif kind == "control":
            char = draw(st.sampled_from(["\x00", "\x1b", "\ufeff", "\r", "\x7f", "\u2028",
                                         "\x0c", "\ud7ff"]))
            text = "\n".join(lines)
            spot = draw(st.integers(0, len(text)))
            lines = (text[:spot] + char + text[spot:]).split("\n")
    return name, "\n".join(lines) + "\n"


VALID_BOTS = [{"bot": "greedy"}, {"bot": "random"}, {"name": "third", "bot": "hard"}]


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    """Whole tournament documents: a valid one with one to three of its keys (or of its
    bots' or tables' keys) given random values of any type, and now and then a key the
    loader does not know, so that every check of the loader is reached."""
    document: dict[str, Any] = {"seed": 1, "matches": 2,
                                "bots": [dict(bot) for bot in VALID_BOTS]}
    if draw(st.booleans()):
        document["game"] = "help-your-neighbor"
        document["bots"] = [{"bot": "smart"}, {"bot": "random"}, {"name": "r2", "bot": "random"}]
        document["players"] = 3
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from([*TOP_KEYS, "rules.", "stop.", "bots.", "bots.", "?"]))
        value = draw(st.one_of(NUMBERS, NUMBERS, SCALARS, VALUES))
        if where == "?":
            document[draw(KEYS)] = value
        elif where == "bots.":
            bots = document["bots"] if isinstance(document.get("bots"), list) else []
            bot = draw(st.sampled_from(bots)) if bots else {}
            if isinstance(bot, dict):
                key = draw(st.sampled_from(["name", "bot", "seed", "mistakes", "samples"])
                           | KEYS)
                bot[key] = value
        elif where.endswith("."):
            table = document.setdefault(where[:-1], {})
            if isinstance(table, dict):
                keys = ["preset", "start_size", "wilds", "jokers", "max_deals"] if (
                    where == "rules.") else list(STOP_KEYS)
                table[draw(st.sampled_from(keys) | KEYS)] = draw(
                    st.one_of(NUMBERS, WORDS, st.sampled_from(["sprt", "fixed"]), VALUES))
        else:
            document[where] = value
    return document


def document_text(document: dict[str, Any]) -> str:
    return "".join(f"{toml_key(k)} = {toml_value(v)}\n" for k, v in document.items())


# --- checks -------------------------------------------------------------------------------------

def assert_one_safe_line(message: str) -> None:
    assert "\n" not in message and "\r" not in message, repr(message)
    assert not any(is_unsafe(c) for c in message), repr(message)


def load_or_error(path: Path, in_hypothesis: bool = True) -> TournamentConfig | str:
    """The loaded file, or its TournamentError's message; any other exception fails."""
    try:
        config = load_tournament(path)
    except TournamentError as exc:
        message = str(exc)
        assert_one_safe_line(message)
        assert message.startswith(str(path)), message
        if in_hypothesis:  # which key (of the loader's) was refused, for the statistics
            label = message[len(str(path)):].split(": ")[1]
            known = re.match(r"[a-z_]+(\[\d+\])?(\.[a-z_]+)?", label)
            event("refused: " + (known.group() if known else "another key or the TOML"))
        return message
    if in_hypothesis:
        event("loaded")
    assert 1 <= config.games <= MAX_BOARDS and len(config.bots) <= MAX_BOTS
    assert 0 < total_games(config) <= MAX_GAMES
    assert config.time_limit is None or 0.001 <= config.time_limit <= 3600
    assert -(2**63) <= config.seed < 2**63
    return config


def run_cli(*args: str | Path) -> tuple[int, str, str]:
    """``trash ARGS`` through the console script's ``main``, isolated by click's CliRunner:
    (exit code, stdout, stderr)."""
    runner = CliRunner()
    code: Any = 0
    with runner.isolation() as (stdout, stderr, _):
        try:
            main([str(arg) for arg in args])
        except SystemExit as exc:
            code = exc.code
        out, err = stdout.getvalue(), stderr.getvalue()
    return (0 if code is None else code if isinstance(code, int) else 1,
            out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))


def write_in(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


# --- the tests ----------------------------------------------------------------------------------

@examples(600)
@given(case=mutated_files())
def test_mutated_shipped_files_raise_only_tournament_errors(fuzz_dir: Path,
                                                            case: tuple[str, str]) -> None:
    TRIED["mutated files (loader)"] += 1
    name, text = case
    load_or_error(write_in(fuzz_dir, name, text))


@examples(500)
@given(document=documents())
def test_generated_documents_raise_only_tournament_errors(fuzz_dir: Path,
                                                          document: dict[str, Any]) -> None:
    TRIED["generated documents (loader)"] += 1
    load_or_error(write_in(fuzz_dir, "generated.toml", document_text(document)))


@examples(150)
@given(document=documents(), depth=st.integers(17, 3000),
       where=st.sampled_from(["name", "seed", "matches", "rules", "rules.preset", "bots",
                              "bots.bot", "bots.mistakes", "bots.seed", "stop", "stop.alpha",
                              "gauntlet", "extra"]))
def test_documents_nested_deeper_than_files_can_be_raise_only_tournament_errors(
        fuzz_dir: Path, document: dict[str, Any], depth: int, where: str) -> None:
    """Whatever document the reader hands over, however deep: the loader's own error (a
    TOML file cannot nest this deep; the loader must not rely on that)."""
    TRIED["deep documents (loader)"] += 1
    deep = nested(depth)
    document = {"seed": 1, "matches": 2, "bots": [{"bot": "greedy"}, {"bot": "random"}],
                **document}
    table, _, key = where.partition(".")
    if not key:
        document[table] = deep
    elif table == "bots":
        document["bots"] = [{"bot": "hard", key: deep}, {"bot": "random"}]
    else:
        document[table] = {key: deep}
    path = fuzz_dir / "deep.toml"
    with mock.patch("trash_tui.tournament.config.read_toml", return_value=("", document)):
        message = load_or_error(path)
    assert isinstance(message, str)


@examples(120)
@given(case=mutated_files())
def test_the_command_line_says_any_problem_in_one_line_with_exit_code_2(
        fuzz_dir: Path, case: tuple[str, str]) -> None:
    TRIED["mutated files (trash tournament check/run)"] += 1
    name, text = case
    path = write_in(fuzz_dir, "cli-" + name, text)
    loaded = load_or_error(path)
    code, out, err = run_cli("tournament", "check", path)
    if isinstance(loaded, TournamentConfig):
        assert (code, err) == (0, ""), err
        assert_one_safe_line(out.replace("\n", " "))
        return
    assert code == 2 and out == "", (code, out, err)
    assert err == f"trash: error: {loaded}\n"
    out_dir = Path(tempfile.mkdtemp(dir=fuzz_dir)) / "out"
    code, out, err = run_cli("tournament", "run", path, "--out", out_dir)
    assert code == 2 and out == "" and "Traceback" not in err, (code, out, err)
    assert err == f"trash: error: {loaded}\n"
    assert not out_dir.exists()


@pytest.mark.parametrize("depth", [120, 5000])
def test_a_file_nested_5000_deep_is_one_line(tmp_path: Path, depth: int) -> None:
    """tomllib recurses once per level; the reader and the loader turn any depth into the
    loader's error, and the command line into one line."""
    TRIED["nesting depths (explicit)"] += 1
    path = write_in(tmp_path, "t.toml", "seed = 1\nmatches = " + "[" * depth + "]" * depth
                    + '\n[[bots]]\nbot = "greedy"\n[[bots]]\nbot = "random"\n')
    message = load_or_error(path, in_hypothesis=False)
    assert isinstance(message, str) and message.startswith(f"{path}:2: ")
    assert run_cli("tournament", "run", path)[:2] == (2, "")
