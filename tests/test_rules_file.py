"""Loading rules from TOML files: load_rules_file, load_rules_arg and error locations."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomli_w

from trash_tui.presets import PRESETS, preset_rules
from trash_tui.rules import OPTION_NAMES, Rules, RulesError
from trash_tui.rules_file import load_rules_arg, load_rules_file, rules_from_table

REPO = Path(__file__).resolve().parents[1]


def trash_exe() -> str:
    """The console script of this environment (the venv's own, before anything on PATH)."""
    sibling = Path(sys.executable).parent / "trash"
    if sibling.exists():
        return str(sibling)
    found = shutil.which("trash")
    if found is None:
        pytest.skip("the trash console script is not installed")
    return found


def write(tmp_path: Path, text: str, name: str = "rules.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path) -> str:
    with pytest.raises(RulesError) as info:
        load_rules_file(path)
    message = str(info.value)
    assert "\n" not in message
    return message


# --- good files ---------------------------------------------------------------------------

def test_preset_with_overrides(tmp_path: Path) -> None:
    path = write(tmp_path, '[rules]\npreset = "kings-wild"\nstart_size = 8\njokers = true\n')
    assert load_rules_file(path) == Rules(wilds="kings", start_size=8, jokers=True)


def test_overrides_replace_preset_values(tmp_path: Path) -> None:
    path = write(tmp_path, '[rules]\npreset = "seven-up"\nstart_size = 6\nmax_deals = 3\n')
    expected = preset_rules("seven-up").with_options(start_size=6, max_deals=3)
    assert load_rules_file(path) == expected
    assert expected.layout_rows == 1 and expected.wilds == "none"


def test_overrides_without_preset_start_from_standard(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\nlast_turn = true\n")
    assert load_rules_file(path) == Rules(last_turn=True)


def test_preset_only(tmp_path: Path) -> None:
    path = write(tmp_path, '[rules]\npreset = "catsatcards"\n')
    assert load_rules_file(path) == preset_rules("catsatcards")


def test_other_tables_and_comments_are_ignored(tmp_path: Path) -> None:
    text = (
        "# a config file\n"
        "title = \"my table\"\n"
        "[display]\n"
        "start_size = \"huge\"\n"
        "[rules]  # house rules\n"
        "preset = \"kids\"  # five slots\n"
        "jokers = true\n"
        "[server]\n"
        "port = 2222\n"
    )
    path = write(tmp_path, text)
    assert load_rules_file(path) == Rules(start_size=5, jokers=True)


@pytest.mark.parametrize("text", ["", "# nothing\n", "[display]\ntheme = \"dark\"\n"],
                         ids=["empty", "comment", "other-table"])
def test_missing_rules_table_gives_standard(tmp_path: Path, text: str) -> None:
    assert load_rules_file(write(tmp_path, text)) == Rules()


def test_empty_rules_table_gives_standard(tmp_path: Path) -> None:
    assert load_rules_file(write(tmp_path, "[rules]\n")) == Rules()


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_round_trips_through_a_full_file(tmp_path: Path, name: str) -> None:
    rules = preset_rules(name)
    text = tomli_w.dumps({"rules": {"preset": "standard", **rules.to_dict()}})
    assert load_rules_file(write(tmp_path, text)) == rules
    text = tomli_w.dumps({"rules": {"preset": name}})
    assert load_rules_file(write(tmp_path, text)) == rules


def test_path_may_be_a_string(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\nplaces = true\n")
    assert load_rules_file(str(path)) == Rules(places=True)


# --- errors with a line number ------------------------------------------------------------

def test_unknown_preset(tmp_path: Path) -> None:
    path = write(tmp_path, '[rules]\npreset = "nope"\n')
    message = load_error(path)
    assert message.startswith(f"{path}:2: rules.preset: unknown preset 'nope'"), message
    for name in PRESETS:
        assert name in message


def test_preset_not_a_string(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\n\npreset = 3\n")
    message = load_error(path)
    assert message.startswith(f"{path}:3: rules.preset: expected a preset name"), message


def test_unknown_key(tmp_path: Path) -> None:
    path = write(tmp_path, '[rules]\npreset = "standard"\nstart_size = 8\nbogus = 1\n')
    message = load_error(path)
    assert message.startswith(f"{path}:4: rules.bogus: unknown option"), message
    for name in ("preset", *OPTION_NAMES):
        assert name in message


def test_wrong_type_points_at_the_key_in_the_rules_table(tmp_path: Path) -> None:
    text = (
        "# comment\n"                 # 1
        "[display]\n"                 # 2
        "start_size = \"big\"\n"      # 3  (same key, another table: not this one)
        "\n"                          # 4
        "[rules]\n"                   # 5
        "preset = \"standard\"\n"     # 6
        "# the layout\n"              # 7
        "start_size = \"10\"\n"       # 8
    )
    path = write(tmp_path, text)
    message = load_error(path)
    assert message.startswith(f"{path}:8: rules.start_size: expected an integer from 1 to 10"), \
        message
    assert "got '10'" in message


@pytest.mark.parametrize(
    ("line", "key", "allowed"),
    [
        ("jokers = 1", "jokers", "true or false"),
        ("start_size = true", "start_size", "an integer from 1 to 10"),
        ("start_size = 0", "start_size", "an integer from 1 to 10"),
        ("start_size = 11", "start_size", "an integer from 1 to 10"),
        ("discard_draw = \"sometimes\"", "discard_draw", "one of 'any', 'playable', 'never'"),
        ("wilds = [\"jacks\"]", "wilds", "one of 'jacks', 'kings', 'faces', 'none'"),
        ("max_deals = 2.5", "max_deals", "an integer from 0 to 1000"),
    ],
)
def test_bad_values(tmp_path: Path, line: str, key: str, allowed: str) -> None:
    path = write(tmp_path, f"[rules]\nplaces = true\n{line}\n")
    message = load_error(path)
    assert message.startswith(f"{path}:3: rules.{key}: expected {allowed}"), message


def test_target_size_not_below_start_size(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\nstart_size = 5\ntarget_size = 5\n")
    message = load_error(path)
    assert message.startswith(f"{path}:3: rules.target_size: must be below start_size (5)"), \
        message


def test_target_size_from_preset_conflicting_with_start_size(tmp_path: Path) -> None:
    """The conflicting target_size comes from the preset: the file is named, and the key."""
    path = write(tmp_path, '[rules]\npreset = "short-game"\nstart_size = 5\n')
    message = load_error(path)
    assert message.startswith(str(path))
    assert "rules.target_size: must be below start_size (5)" in message


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('[rules]\npreset = "standard"\n"start_size" = 0\n', 3),
        ('[ rules ]\npreset = "standard"\nstart_size = 0\n', 3),
        ('title = "x"\nrules.start_size = 0\n', 2),
    ],
    ids=["quoted-key", "spaced-header", "dotted-key"],
)
def test_line_found_for_other_toml_spellings(tmp_path: Path, text: str, line: int) -> None:
    path = write(tmp_path, text)
    message = load_error(path)
    assert message.startswith(f"{path}:{line}: rules.start_size:"), message


# --- errors about the whole file ----------------------------------------------------------

def test_rules_not_a_table(tmp_path: Path) -> None:
    path = write(tmp_path, 'rules = "kids"\n')
    message = load_error(path)
    assert message.startswith(f"{path}: rules: expected a table"), message


def test_invalid_toml_reports_the_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\nstart_size = \n")
    message = load_error(path)
    assert message.startswith(f"{path}:2: not valid TOML"), message
    assert "line 2" in message


def test_duplicate_key_is_invalid_toml(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\njokers = true\njokers = false\n")
    assert load_error(path).startswith(f"{path}:3: not valid TOML")


def test_missing_file_cannot_read(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    message = load_error(path)
    assert message.startswith(f"{path}: cannot read"), message


def test_directory_says_it_is_a_directory(tmp_path: Path) -> None:
    assert load_error(tmp_path) == f"{tmp_path}: is a directory, not a TOML file"


def test_non_utf8_file_is_a_rules_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('[rules]\n# café\npreset = "standard"\n'.encode("latin-1"))
    message = load_error(path)
    assert message.startswith(str(path))


def test_rules_from_table_rejects_non_table() -> None:
    with pytest.raises(RulesError, match=r"^rules: expected a table"):
        rules_from_table(["standard"])


# --- load_rules_arg -----------------------------------------------------------------------

@pytest.mark.parametrize("name", list(PRESETS))
def test_arg_preset_name(name: str) -> None:
    assert load_rules_arg(name) == preset_rules(name)


def test_arg_toml_path(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\nstart_size = 8\n")
    assert load_rules_arg(str(path)) == Rules(start_size=8)


def test_arg_existing_file_without_toml_suffix(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\nstart_size = 8\n", name="house.rules")
    assert load_rules_arg(str(path)) == Rules(start_size=8)


def test_arg_missing_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "missing.toml"
    with pytest.raises(RulesError, match=r"cannot read") as info:
        load_rules_arg(str(path))
    assert str(info.value).startswith(str(path))


def test_arg_file_error_keeps_the_location(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\nbogus = 1\n")
    with pytest.raises(RulesError) as info:
        load_rules_arg(str(path))
    assert str(info.value).startswith(f"{path}:2: rules.bogus:")


def test_arg_neither_preset_nor_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesError) as info:
        load_rules_arg("nope")
    message = str(info.value)
    assert message.startswith("--rules: 'nope' is neither a preset")
    for name in PRESETS:
        assert name in message


# --- the repository's own config ----------------------------------------------------------

CONFIG = REPO / "config.toml"


@pytest.mark.skipif(not CONFIG.exists(), reason="config.toml does not exist yet")
def test_repository_config_checks() -> None:
    load_rules_file(CONFIG)
    result = subprocess.run([trash_exe(), "rules", "check", "config.toml"], cwd=REPO,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("config.toml: ok")
    assert result.stderr == ""
