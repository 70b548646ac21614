"""The ``trash`` console script, run for real in a subprocess, and the Wilson interval."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from trash_tui.presets import PRESETS, preset_rules
from trash_tui.rules import OPTIONS, Rules
from trash_tui.rules_file import load_rules_file, rules_from_table
from trash_tui.stats import wilson_interval

TIMING_KEYS = ("elapsed_seconds", "deals_per_second", "matches_per_second")
JSON_KEYS = ("deals", "matches", "mean_turns_per_deal", "mean_deals_per_match",
             "seat_win_share", "deals_per_second")


def _trash_exe() -> str:
    """The console script of this environment. The venv's own script comes first: the
    venv's bin directory is often not on PATH, and another ``trash`` (trash-cli) may be."""
    sibling = Path(sys.executable).parent / "trash"
    if sibling.exists():
        return str(sibling)
    found = shutil.which("trash")
    if found is None:
        pytest.skip("the trash console script is not installed")
    return found


def trash(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([_trash_exe(), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60, check=False)


def simulate_json(*args: str, cwd: Path) -> dict[str, Any]:
    result = trash("simulate", *args, "--json", cwd=cwd)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    document = json.loads(result.stdout)  # the whole output is one JSON value
    assert isinstance(document, dict)
    return document


def assert_one_line_error(result: subprocess.CompletedProcess[str], *fragments: str) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert line.startswith("trash: error: "), line
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    assert result.stdout == ""
    return line


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A scratch directory holding a good and a bad rules file."""
    (tmp_path / "good.toml").write_text('[rules]\npreset = "kids"\njokers = true\n',
                                        encoding="utf-8")
    (tmp_path / "bad.toml").write_text('[rules]\npreset = "standard"\nbogus = 1\n',
                                       encoding="utf-8")
    return tmp_path


# --- help and rules -----------------------------------------------------------------------

def test_no_arguments_prints_help(tmp_path: Path) -> None:
    result = trash(cwd=tmp_path)
    assert result.returncode == 0
    assert result.stderr == ""
    assert result.stdout.startswith("Usage: trash")
    for command in ("rules", "simulate", "replay"):
        assert re.search(rf"^\s+{command}\s", result.stdout, re.MULTILINE), command


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_flag(tmp_path: Path, flag: str) -> None:
    result = trash(flag, cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: trash")


def test_rules_list_lists_every_preset(tmp_path: Path) -> None:
    result = trash("rules", "list", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(PRESETS)
    for line, preset in zip(lines, PRESETS.values(), strict=True):
        assert preset.description in line


def _show_lines(stdout: str) -> dict[str, str]:
    """Option name -> its line in ``trash rules show`` output."""
    found = {}
    for line in stdout.splitlines():
        parts = line[2:].split()
        if len(line) > 2 and line[0] in " *" and parts and parts[0] in {s.name for s in OPTIONS}:
            found[parts[0]] = line
    return found


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def test_rules_show_standard_every_option(tmp_path: Path) -> None:
    result = trash("rules", "show", "standard", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("standard: " + PRESETS["standard"].description)
    lines = _show_lines(result.stdout)
    assert set(lines) == {s.name for s in OPTIONS}
    standard = Rules()
    for spec in OPTIONS:
        line = lines[spec.name]
        value = _toml_value(getattr(standard, spec.name))
        assert re.match(rf"^  {spec.name}\s+= {re.escape(value)}\s", line), line
        assert line.endswith(spec.meaning), line


def test_rules_show_marks_changed_options(tmp_path: Path) -> None:
    result = trash("rules", "show", "catsatcards", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = _show_lines(result.stdout)
    starred = {name for name, line in lines.items() if line.startswith("*")}
    assert starred == {"wilds", "discard_draw", "last_turn"}
    assert re.match(r'^\* wilds\s+= "kings"\s', lines["wilds"])


def test_rules_show_toml_loads_back(tmp_path: Path) -> None:
    result = trash("rules", "show", "catsatcards", "--toml", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    document = tomllib.loads(result.stdout)
    assert rules_from_table(document["rules"]) == preset_rules("catsatcards")
    path = tmp_path / "shown.toml"
    path.write_text(result.stdout, encoding="utf-8")
    assert load_rules_file(path) == preset_rules("catsatcards")


def test_rules_show_toml_of_custom_file_loads_back(work: Path) -> None:
    result = trash("rules", "show", "good.toml", "--toml", cwd=work)
    assert result.returncode == 0, result.stderr
    document = tomllib.loads(result.stdout)
    assert rules_from_table(document["rules"]) == Rules(start_size=5, jokers=True)


def test_rules_check_good(work: Path) -> None:
    result = trash("rules", "check", "good.toml", cwd=work)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.startswith("good.toml: ok")
    assert "start_size = 5" in result.stdout and "jokers = true" in result.stdout


def test_rules_check_preset_file(tmp_path: Path) -> None:
    (tmp_path / "c.toml").write_text('[rules]\npreset = "catsatcards"\n', encoding="utf-8")
    result = trash("rules", "check", "c.toml", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "'catsatcards'" in result.stdout


def test_rules_check_bad(work: Path) -> None:
    result = trash("rules", "check", "bad.toml", cwd=work)
    assert_one_line_error(result, "bad.toml:3:", "rules.bogus", "unknown option")


# --- simulate -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def deals_runs(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    cwd = tmp_path_factory.mktemp("sim")
    return [simulate_json("--deals", "2000", "--seed", "7", cwd=cwd) for _ in range(2)]


def test_simulate_deals_json(deals_runs: list[dict[str, Any]]) -> None:
    report = deals_runs[0]
    for key in JSON_KEYS:
        assert key in report, key
    assert report["mode"] == "deals"
    assert report["players"] == 2
    assert report["bots"] == ["greedy", "greedy"]
    assert report["seed"] == 7
    assert report["deals"] + report["voided_deals"] == 2000
    assert report["deals"] > 1900
    assert report["matches"] == 0
    assert report["mean_deals_per_match"] is None
    assert report["mean_turns_per_deal"] > 1
    share = report["seat_win_share"]
    assert isinstance(share, list) and len(share) == 2
    assert sum(share) == pytest.approx(1.0)
    assert share == pytest.approx([w / report["deals"] for w in report["seat_wins"]])
    assert report["deals_per_second"] > 0
    for (low, high), p in zip(report["seat_win_share_ci95"], share, strict=True):
        assert low <= p <= high


def test_simulate_is_reproducible(deals_runs: list[dict[str, Any]]) -> None:
    first, second = ({k: v for k, v in run.items() if k not in TIMING_KEYS} for run in deals_runs)
    assert first == second


def test_simulate_seed_matters(tmp_path: Path) -> None:
    a = simulate_json("--deals", "300", "--seed", "7", cwd=tmp_path)
    b = simulate_json("--deals", "300", "--seed", "8", cwd=tmp_path)
    c = simulate_json("--deals", "300", "--seed", "seven", cwd=tmp_path)
    assert c["seed"] == "seven"
    assert len({(r["seat_wins"][0], r["mean_turns_per_deal"]) for r in (a, b, c)}) > 1


def test_simulate_matches(tmp_path: Path) -> None:
    report = simulate_json("--matches", "20", "--players", "3", cwd=tmp_path)
    assert report["mode"] == "matches"
    assert report["matches"] == 20
    assert report["players"] == 3
    assert len(report["seat_win_share"]) == 3
    assert sum(report["seat_wins"]) + report["abandoned_matches"] == 20
    assert report["deals"] >= 20
    assert report["mean_deals_per_match"] == pytest.approx(report["deals"] / 20)
    assert report["matches_per_second"] > 0


@pytest.mark.parametrize(
    ("players", "seats"),
    [("2", ["random", "greedy"]), ("4", ["random", "greedy", "random", "greedy"])],
)
def test_simulate_bots_set_the_seats(tmp_path: Path, players: str, seats: list[str]) -> None:
    report = simulate_json("--deals", "50", "--players", players, "--bot", "random",
                           "--bot", "greedy", cwd=tmp_path)
    assert report["bots"] == seats


def test_simulate_text_output(tmp_path: Path) -> None:
    result = trash("simulate", "--deals", "200", "--seed", "7", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "95%" in out
    seat_line = re.compile(r"^\s+seat (\d)\s+(\w+)\s+(\d+)\s+([\d.]+)%\s+"
                           r"\[\s*([\d.]+)%,\s*([\d.]+)%\]$", re.MULTILINE)
    seats = seat_line.findall(out)
    assert [int(s[0]) for s in seats] == [0, 1]
    decided = int(re.search(r"^deals played\s+(\d+)", out, re.MULTILINE).group(1))
    for _, _, wins, share, low, high in seats:
        expected_low, expected_high = wilson_interval(int(wins), decided)
        assert float(share) == pytest.approx(100 * int(wins) / decided, abs=0.051)
        assert float(low) == pytest.approx(100 * expected_low, abs=0.051)
        assert float(high) == pytest.approx(100 * expected_high, abs=0.051)
    assert re.search(r"^throughput\s+[\d,]+ deals/s \([\d.]+ s\)$", out, re.MULTILINE), out


def test_simulate_text_output_matches(tmp_path: Path) -> None:
    result = trash("simulate", "--matches", "3", "--players", "3", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(r"^matches played\s+3", result.stdout, re.MULTILINE)
    assert re.search(r"^mean deals per match\s+[\d.]+$", result.stdout, re.MULTILINE)
    assert re.search(r"deals/s, [\d,.]+ matches/s", result.stdout)


def test_simulate_with_rules_file(work: Path) -> None:
    report = simulate_json("--deals", "50", "--rules", "good.toml", cwd=work)
    assert report["rules"] == "good.toml"
    assert report["deals"] + report["voided_deals"] == 50


def test_simulate_record_and_replay(tmp_path: Path) -> None:
    result = trash("simulate", "--deals", "5", "--record", "out.jsonl", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5
    assert all(isinstance(json.loads(line), dict) for line in lines)
    check = trash("replay", "out.jsonl", "--check", cwd=tmp_path)
    assert check.returncode == 0, check.stderr


# --- error cases --------------------------------------------------------------------------

ERRORS = [
    pytest.param(["simulate", "--deals", "10", "--rules", "nope"], ["'nope'", "preset"],
                 id="unknown-preset"),
    pytest.param(["simulate", "--deals", "10", "--bot", "nope"], ["unknown bot 'nope'"],
                 id="unknown-bot"),
    pytest.param(["simulate", "--deals", "10", "--bot", "random", "--bot", "greedy",
                  "--bot", "random"], ["--bot", "3 bots for 2 seats"], id="too-many-bots"),
    pytest.param(["simulate", "--deals", "10", "--matches", "3"], ["--deals", "--matches"],
                 id="deals-and-matches"),
    pytest.param(["simulate"], ["--deals", "--matches"], id="neither"),
    pytest.param(["simulate", "--deals", "0"], ["--deals"], id="zero-deals"),
    pytest.param(["simulate", "--deals", "10", "--players", "9"], ["--players", "9"],
                 id="nine-players"),
    pytest.param(["simulate", "--deals", "10", "--players", "1"], ["--players"],
                 id="one-player"),
    pytest.param(["simulate", "--deals", "10", "--rules", "bad.toml"],
                 ["bad.toml:3:", "rules.bogus"], id="rules-file-bad-key"),
    pytest.param(["simulate", "--deals", "10", "--rules", "missing.toml"],
                 ["missing.toml", "cannot read"], id="rules-file-missing"),
    pytest.param(["simulate", "--deals", "10", "--rules", "three-free-draws", "--players", "4"],
                 ["rules.free_draws", "4 players"], id="free-draws-four-players"),
    pytest.param(["simulate", "--deals", "10", "--record", "no/such/dir/out.jsonl"],
                 ["--record", "no/such/dir/out.jsonl"], id="record-missing-dir"),
    pytest.param(["frobnicate"], ["frobnicate"], id="unknown-subcommand"),
    pytest.param(["rules", "frobnicate"], ["frobnicate"], id="unknown-rules-subcommand"),
    pytest.param(["simulate", "--deals", "10", "--frobnicate"], ["--frobnicate"],
                 id="unknown-option"),
    pytest.param(["replay", "missing.json"], ["missing.json"], id="replay-missing"),
    pytest.param(["rules", "show", "nope"], ["'nope'"], id="show-unknown-preset"),
    pytest.param(["rules", "check", "missing.toml"], ["missing.toml", "cannot read"],
                 id="check-missing-file"),
]


@pytest.mark.parametrize(("args", "fragments"), ERRORS)
def test_errors_are_one_line(work: Path, args: list[str], fragments: list[str]) -> None:
    assert_one_line_error(trash(*args, cwd=work), *fragments)


def test_bad_record_directory_writes_nothing(work: Path) -> None:
    trash("simulate", "--deals", "10", "--record", "no/such/dir/out.jsonl", cwd=work)
    assert not (work / "no").exists()


def test_non_utf8_rules_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "latin1.toml").write_bytes('[rules]\n# café\n'.encode("latin-1"))
    assert_one_line_error(trash("rules", "check", "latin1.toml", cwd=tmp_path), "latin1.toml")


def test_odd_digit_seed_is_not_a_traceback(tmp_path: Path) -> None:
    result = trash("simulate", "--deals", "5", "--seed", "²", cwd=tmp_path)
    assert "Traceback" not in result.stderr
    assert result.returncode in (0, 2)


def test_key_with_newline_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "nl.toml").write_text('[rules]\n"bad\\nkey" = 1\n', encoding="utf-8")
    assert_one_line_error(trash("rules", "check", "nl.toml", cwd=tmp_path), "nl.toml")


# --- Wilson interval ----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (50, 100, 0.403832, 0.596168),
        (0, 10, 0.0, 0.277540),
        (10, 10, 0.722460, 1.0),
        (1, 3, 0.061491, 0.792340),
        (0, 0, 0.0, 1.0),
    ],
)
def test_wilson_interval(successes: int, trials: int, low: float, high: float) -> None:
    got_low, got_high = wilson_interval(successes, trials)
    assert got_low == pytest.approx(low, abs=1e-5)
    assert got_high == pytest.approx(high, abs=1e-5)


def test_wilson_interval_with_z_one() -> None:
    # z = 1, 5/10: centre (0.5 + 0.05) / 1.1 = 0.5, half = sqrt(0.0275) / 1.1
    half = math.sqrt(0.025 + 0.0025) / 1.1
    assert wilson_interval(5, 10, z=1.0) == pytest.approx((0.5 - half, 0.5 + half))


@pytest.mark.parametrize(("successes", "trials"), [(0, 1), (3, 17), (40, 97), (500, 1000)])
def test_wilson_interval_is_symmetric_and_contains_p(successes: int, trials: int) -> None:
    low, high = wilson_interval(successes, trials)
    other_low, other_high = wilson_interval(trials - successes, trials)
    assert low == pytest.approx(1 - other_high)
    assert high == pytest.approx(1 - other_low)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


# --- hardening: what used to end in a traceback -------------------------------------------------
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize("args", [
    ["simulate", "--deals", "50"],
    ["simulate", "--matches", "2", "--players", "3", "--bot", "random", "--bot", "normal"],
    ["neighbor", "simulate", "--games", "20"],
], ids=["deals", "matches-with-bots", "neighbor"])
def test_a_record_file_that_cannot_be_written_is_one_line(tmp_path: Path,
                                                          args: list[str]) -> None:
    assert_one_line_error(trash(*args, "--record", "/dev/full", cwd=tmp_path),
                          "--record: cannot write /dev/full: No space left on device")


def test_a_record_file_in_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    assert_one_line_error(trash("neighbor", "simulate", "--games", "2", "--record",
                                "nowhere/out.jsonl", cwd=tmp_path),
                          "--record: cannot write nowhere/out.jsonl")


@pytest.mark.parametrize("command", [[b"simulate", b"--deals", b"5"],
                                     [b"neighbor", b"simulate", b"--games", b"5"]],
                         ids=["simulate", "neighbor-simulate"])
def test_a_seed_that_is_not_utf8_is_one_line(tmp_path: Path, command: list[bytes]) -> None:
    """The seed reaches the program as bytes that are not UTF-8 (a Latin-1 terminal)."""
    result = subprocess.run([_trash_exe().encode(), *command, b"--seed", b"caf\xe9"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60,
                            check=False)
    assert_one_line_error(result, "--seed", "caf\\udce9 is not UTF-8 text")


def test_bot_labels_are_printed_escaped(tmp_path: Path) -> None:
    label = '{ bot = "greedy", name = "\\u001b[2Jevil\\u202e" }'
    result = trash("simulate", "--deals", "5", "--bot", label, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "bots \\x1b[2Jevil\\u202e, \\x1b[2Jevil\\u202e, seed 1" in result.stdout
    assert "  seat 0  \\x1b[2Jevil\\u202e  " in result.stdout


def test_help_texts_show_no_markup(tmp_path: Path) -> None:
    """Docstrings' double backticks are for the code's readers, not ``trash --help``."""
    from trash_tui.cli.main import SUBCOMMANDS

    for args in [[], *([name] for name in SUBCOMMANDS)]:
        helped = trash(*args, "--help", cwd=tmp_path)
        assert helped.returncode == 0 and "``" not in helped.stdout, (args, helped.stdout)
