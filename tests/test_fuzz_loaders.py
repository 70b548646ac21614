"""Fuzzing the rules and settings loaders and the commands that read rules files.

Each input is the shipped config.toml (every commented default uncommented) or a rules
file, mutated by hypothesis: lines deleted, duplicated or swapped, values swapped or
replaced by absurd ones (huge or non-finite numbers, deep nesting, odd Unicode, control
characters, markup), a byte-order mark, invalid UTF-8 bytes; or plain random TOML-like
text. Whatever the input:

- the rules loader (``load_rules_file``, ``load_rules_arg``) raises nothing but
  RulesError, and its message is one line;
- ``load_settings`` never raises, says each problem in one line, and what it returns is
  settings ``check_settings`` accepts (so the app can use them);
- ``trash rules check FILE`` and ``trash simulate --rules FILE`` end with exit code 0, or
  with exit code 2 and only ``trash: error: ...`` lines on stderr (one for simulate).

Examples per test (``EXAMPLES``): 400 for each loader, 100 for each command.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trash_tui.cli.main import main
from trash_tui.rules import RulesError
from trash_tui.rules_file import load_rules_arg, load_rules_file
from trash_tui.settings import Settings, check_settings, load_settings

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = {"loader": 400, "command": 100}
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                       HealthCheck.function_scoped_fixture])

_ASSIGNMENT = re.compile(r"^# ?((?:[A-Za-z0-9_-]+|\"[^\"]+\")\s*=\s*\S.*)$")
CONFIG = "\n".join(m.group(1) if (m := _ASSIGNMENT.match(line)) else line for line in
                   (REPO / "config.toml").read_text(encoding="utf-8").splitlines()) + "\n"
RULES = ('# house rules\n[rules]\npreset = "kings-wild"\nstart_size = 8\ntarget_size = 2\n'
         'max_deals = 10\njokers = true\nfirst_player = "rotate"\ndiscard_draw = "playable"\n'
         "free_draws = 0\nlayout_rows = 1\n")
BASES = {"config": CONFIG, "rules": RULES}

ODD_VALUES = [
    "nan", "inf", "-inf", "+nan", "1e999", "-1e-999", "9223372036854775808",
    "-9223372036854775809", "0x" + "f" * 4290, "1" + "0" * 4400, "0b" + "1" * 200, "1_0",
    "[" * 5000 + "]" * 5000, "{ a = " * 150 + "1" + " }" * 150, "[" * 99 + "]" * 99,
    '"\\u202e"', '"\\u0000"', '"\x1b[2J"', '"' + "é" * 3000 + '"', '"[/bold]"', '"[red]"',
    '"ctrl+"', '"no-such-theme"', '"nord"', '"0"', '"s,s"', '" "', '""', "true", "false",
    "[]", "{}", '["human"]', '["human", "normal", "hard"]', '{ name = "normal", seed = 1'
    + "0" * 30 + " }", '{ name = "expert", samples = 0 }', '{ bot = "x.py" }',
    "1979-05-27T07:32:00Z", "2021-02-30", "07:32:00", "'''\nline\n'''", '"~nobody/x"',
]
ODD_LINES = [
    "[rules]", "[seats]", "[app]", "[keys]", "[[rules]]", "[rules.deep]", "rules = 3",
    "[ 'rules' ]", '"[/]" = 1', "a.b.c = 1", "= 1", "[", "]]", "key = ", '"""', "\x00",
    "\x1b[31m = 1", "\u202e = 1", "preset = 'seven-up'", "players = " + "[" * 3000,
    "history = '/'", "theme = 'gruvbox'", "quit = 'q,ctrl+q'", "draw-stock = 'ctrl++'",
]
INVALID_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\x00"]


@st.composite
def mutated(draw: st.DrawFn, base: str) -> bytes:
    """``base`` after a few random edits, as the bytes of a file."""
    lines = base.splitlines()
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["delete", "duplicate", "swap lines", "swap values",
                                     "odd value", "odd line", "unicode", "number"]))
        if not lines:
            lines = [draw(st.sampled_from(ODD_LINES))]
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        assigned = [k for k, line in enumerate(lines) if "=" in line and line[:1] != "#"]
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(j, lines[i])
        elif kind == "swap lines":
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "swap values" and len(assigned) >= 2:
            a, b = draw(st.sampled_from(assigned)), draw(st.sampled_from(assigned))
            (ka, _, va), (kb, _, vb) = lines[a].partition("="), lines[b].partition("=")
            lines[a], lines[b] = f"{ka}={vb}", f"{kb}={va}"
        elif kind in ("odd value", "number") and assigned:
            k = draw(st.sampled_from(assigned))
            value = draw(st.sampled_from(ODD_VALUES) if kind == "odd value" else
                         st.one_of(st.integers().map(str), st.floats().map(_toml_float)))
            lines[k] = lines[k].partition("=")[0] + "= " + value
        elif kind == "odd line":
            lines.insert(j, draw(st.sampled_from(ODD_LINES)))
        else:
            text = draw(st.text(max_size=20))
            column = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:column] + text + lines[i][column:]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    if draw(st.integers(0, 5)) == 3:  # (hypothesis favours the ends of a range)
        position = draw(st.integers(0, len(data)))
        data = data[:position] + draw(st.sampled_from(INVALID_BYTES)) + data[position:]
    if draw(st.integers(0, 4)) == 0:
        data = "\ufeff".encode() + data
    return data


def _toml_float(value: float) -> str:
    text = repr(value)
    return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(text, text)


TOML_ALPHABET = st.sampled_from(list("[]{}=\"'#.,\n\t abcrulesptyhm_-+:0123456789eE\\"))
RANDOM_TOML = st.text(alphabet=TOML_ALPHABET | st.characters(codec="utf-8"),
                      max_size=300).map(lambda text: text.encode("utf-8"))
FILES = st.one_of(mutated(CONFIG), mutated(RULES), RANDOM_TOML)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def written(folder: Path, data: bytes) -> Path:
    path = folder / "fuzzed.toml"
    path.write_bytes(data)
    return path


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
    return code, out.getvalue().decode(), err.getvalue().decode()


def assert_error_lines(code: int, err: str, most: int | None = None) -> None:
    assert code in (0, 2), (code, err)
    if code == 0:
        return
    lines = err.splitlines()
    assert lines and "Traceback" not in err, err
    assert all(line.startswith("trash: error: ") for line in lines), err
    if most is not None:
        assert len(lines) <= most, err


@settings(FUZZ, max_examples=EXAMPLES["loader"])
@given(data=FILES)
def test_the_rules_loader_raises_only_its_own_one_line_error(folder: Path, data: bytes) -> None:
    path = written(folder, data)
    for load in (load_rules_file, lambda p: load_rules_arg(str(p))):
        try:
            load(path)
        except RulesError as exc:
            assert "\n" not in str(exc) and str(exc).startswith(str(path)), str(exc)


@settings(FUZZ, max_examples=EXAMPLES["loader"])
@given(data=FILES)
def test_load_settings_never_raises_and_returns_usable_settings(folder: Path,
                                                                data: bytes) -> None:
    path = written(folder, data)
    settings, problems = load_settings(path)
    assert isinstance(settings, Settings)
    for problem in problems:
        assert "\n" not in problem and problem.startswith(str(path)), problem
        assert "cannot use this file" not in problem, problem  # no check failed on its own
    assert check_settings(settings) == []


@settings(FUZZ, max_examples=EXAMPLES["command"])
@given(data=FILES)
def test_trash_rules_check_is_ok_or_error_lines(folder: Path, data: bytes) -> None:
    code, _, err = trash("rules", "check", str(written(folder, data)))
    assert_error_lines(code, err)


@settings(FUZZ, max_examples=EXAMPLES["command"])
@given(data=FILES)
def test_trash_simulate_with_a_rules_file_is_ok_or_one_error_line(folder: Path,
                                                                  data: bytes) -> None:
    code, _, err = trash("simulate", "--deals", "1", "--rules", str(written(folder, data)))
    assert_error_lines(code, err, most=1)
