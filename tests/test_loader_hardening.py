"""Bad input to the rules and settings loaders and their commands: one clear located line,
never a traceback (deep nesting, huge numbers, a BOM, an empty or directory --rules, a bad
theme or key, ``trash play`` without a terminal, every problem of ``trash rules check``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from trash_tui.app.app import create_app
from trash_tui.cli.main import main
from trash_tui.presets import PRESETS, preset_rules
from trash_tui.rules import Rules, RulesError
from trash_tui.rules_file import check_rules_file, load_rules_arg, load_rules_file
from trash_tui.settings import (
    BINDING_IDS,
    DEFAULT_THEME,
    Settings,
    check_settings,
    load_settings,
    theme_names,
    validate_keymap,
)
from trash_tui.toml_file import MAX_NESTING

DEEP = "[rules]\nstart_size = " + "[" * 5000 + "]" * 5000 + "\n"


def write(tmp_path: Path, text: str, name: str = "file.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def trash(*args: str) -> tuple[int, str, str]:
    """``trash ARGS`` in this process as the console script runs it (its one-line errors
    included): exit code, stdout, stderr. No terminal: stdin and stdout are pipes."""
    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue().decode(), err.getvalue().decode()


def rules_error(path: Path) -> str:
    with pytest.raises(RulesError) as info:
        load_rules_file(path)
    message = str(info.value)
    assert "\n" not in message
    return message


# --- the TOML reader, through the rules and settings loaders ------------------------------

def test_deep_nesting_is_a_located_rules_error(tmp_path: Path) -> None:
    path = write(tmp_path, DEEP)
    assert rules_error(path) == (f"{path}:2: not valid TOML: arrays or tables nested more "
                                 f"than {MAX_NESTING} levels deep")


def test_deep_nesting_gives_default_settings_and_one_problem(tmp_path: Path) -> None:
    path = write(tmp_path, '[app]\nname = "Ann"\n' + DEEP)
    settings, problems = load_settings(path)
    assert settings == Settings()
    assert problems == [f"{path}:4: not valid TOML: arrays or tables nested more than "
                        f"{MAX_NESTING} levels deep; using the defaults"]


@pytest.mark.parametrize("loader", ["rules", "settings", "tournament", "server"])
def test_every_toml_loader_says_deep_nesting_in_its_own_error(tmp_path: Path,
                                                              loader: str) -> None:
    from trash_tui.ssh.config import ServeError, load_server_config
    from trash_tui.tournament.config import TournamentError, load_tournament

    path = write(tmp_path, "seed = 1\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    expected = (f"{path}:2: not valid TOML: arrays or tables nested more than {MAX_NESTING} "
                "levels deep")
    if loader == "settings":
        assert load_settings(path)[1] == [f"{expected}; using the defaults"]
        return
    load, error = {"rules": (load_rules_file, RulesError),
                   "tournament": (load_tournament, TournamentError),
                   "server": (load_server_config, ServeError)}[loader]
    with pytest.raises(error) as info:
        load(path)
    assert str(info.value) == expected


def test_nesting_up_to_the_limit_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, "other = " + "[" * MAX_NESTING + "]" * MAX_NESTING
                 + '\n[rules]\npreset = "kids"\n')
    assert load_rules_file(path) == preset_rules("kids")


def test_brackets_in_strings_and_comments_are_not_nesting(tmp_path: Path) -> None:
    many = "[" * 300
    path = write(tmp_path, f'title = "{many}"\nnote = \'\'\'\n{many}\n\'\'\'\n# {many}\n'
                           '[rules]\njokers = true\n')
    assert load_rules_file(path) == Rules(jokers=True)


def test_an_integer_too_long_to_read_is_located(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\njokers = true\nstart_size = 1" + "0" * 5000 + "\n")
    assert rules_error(path) == (f"{path}:3: not valid TOML: an integer too long to read "
                                 "(more than 4300 digits)")


def test_a_huge_integer_is_out_of_range_and_said_briefly(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\nmax_deals = 0x" + "f" * 4000 + "\n")
    message = rules_error(path)
    assert re.fullmatch(rf"{re.escape(str(path))}:2: rules\.max_deals: expected an integer "
                        r"from 0 to 1000, got an integer of about \d+ digits", message), message


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e999", "9223372036854775807",
                                   "-9223372036854775808"])
def test_absurd_numbers_are_rejected_with_the_key_and_line(tmp_path: Path, value: str) -> None:
    path = write(tmp_path, f"[rules]\nplaces = true\nfree_draws = {value}\n")
    message = rules_error(path)
    assert message.startswith(f"{path}:3: rules.free_draws: expected an integer from 0 to 10"
                              ), message


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes('\ufeff[rules]\npreset = "kids"\n'.encode())
    assert load_rules_file(path) == preset_rules("kids")
    path.write_bytes('\ufeff[app]\nname = "Ann"\n'.encode())
    assert load_settings(path) == (Settings(name="Ann"), [])


def test_a_file_name_with_control_characters_is_shown_escaped(tmp_path: Path) -> None:
    path = tmp_path / "evil\x1b[2J.toml"
    message = rules_error(path)
    assert "\x1b" not in message and "evil\\x1b[2J.toml: cannot read" in message


# --- trash rules check: every problem --------------------------------------------------------

def test_check_rules_file_finds_every_problem_in_file_order(tmp_path: Path) -> None:
    path = write(tmp_path, '[rules]\npreset = "nope"\njokers = 1\ncolour = "red"\n'
                           "start_size = 99\n")
    rules, problems = check_rules_file(path)
    assert rules is None
    assert [p.split(": ")[0:2] for p in problems] == [
        [f"{path}:2", "rules.preset"], [f"{path}:3", "rules.jokers"],
        [f"{path}:4", "rules.colour"], [f"{path}:5", "rules.start_size"]]


def test_trash_rules_check_prints_every_problem_and_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\njokers = 1\nstart_size = 0\nbogus = true\n")
    code, out, err = trash("rules", "check", str(path))
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert [line.split(": ")[3] for line in lines] == [
        "rules.jokers", "rules.start_size", "rules.bogus"]
    assert all(line.startswith(f"trash: error: {path}:") for line in lines)


def test_trash_rules_check_of_a_folder_says_it_is_one(tmp_path: Path) -> None:
    assert trash("rules", "check", str(tmp_path)) == (
        2, "", f"trash: error: {tmp_path}: is a directory, not a TOML file\n")


def test_trash_rules_check_of_a_good_file_still_says_ok(tmp_path: Path) -> None:
    path = write(tmp_path, '[rules]\npreset = "kids"\n')
    code, out, err = trash("rules", "check", str(path))
    assert (code, err) == (0, "")
    assert out == f"{path}: ok (the preset 'kids')\n"


# --- --rules NAME|FILE -----------------------------------------------------------------------

@pytest.mark.parametrize("value", ["", "   "])
def test_an_empty_rules_name_says_so_and_lists_the_presets(value: str) -> None:
    with pytest.raises(RulesError) as info:
        load_rules_arg(value)
    message = str(info.value)
    assert message.startswith("--rules: the name is empty; give a preset (")
    assert all(name in message for name in PRESETS)


def test_a_rules_directory_says_it_is_a_directory(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match=r"is a directory, not a TOML file$"):
        load_rules_arg(str(tmp_path))


def test_simulate_with_empty_rules_is_one_line() -> None:
    code, out, err = trash("simulate", "--deals", "1", "--rules", "")
    assert (code, out) == (2, "")
    assert err.startswith("trash: error: --rules: the name is empty;") and err.count("\n") == 1


def test_no_preset_description_names_a_source_by_its_file_number() -> None:
    for preset in PRESETS.values():
        assert not re.search(r"\b00\d\b", preset.description), preset.description
    code, out, _ = trash("rules", "show", "catsatcards")
    assert code == 0 and out.startswith("catsatcards: The game as CatsAtCards.com describes")


# --- trash play without a terminal -----------------------------------------------------------

@pytest.mark.parametrize("command", ["play", "lobby"])
def test_the_app_refuses_to_run_without_a_terminal(command: str) -> None:
    code, out, err = trash(command)
    assert (code, out) == (2, "")
    assert err == (f"trash: error: trash {command} is a full-screen app: run it in a "
                   "terminal (stdin and stdout are not one)\n")


# --- settings values the app could not use ---------------------------------------------------

def test_theme_names_are_the_themes_the_app_has() -> None:
    assert set(theme_names()) == set(create_app().available_themes)
    assert DEFAULT_THEME in theme_names()


@pytest.mark.parametrize("theme", ["no-such-theme", "Nord", "textual-dark ", "x" * 500])
def test_an_unknown_theme_falls_back_to_the_default(tmp_path: Path, theme: str) -> None:
    path = write(tmp_path, f'[app]\nname = "Ann"\ntheme = "{theme}"\n')
    settings, problems = load_settings(path)
    assert (settings.theme, settings.name) == (DEFAULT_THEME, "Ann")
    assert len(problems) == 1 and problems[0].startswith(f"{path}:3: app.theme: expected a "
                                                         "theme such as 'textual-dark' (one of")
    assert "nord" in problems[0] and problems[0].endswith("; using the default 'textual-dark'")
    assert len(problems[0]) < 800
    assert check_settings(Settings(theme=theme))  # and such settings are never saved


async def test_the_app_starts_with_the_default_theme_and_says_why(tmp_path: Path) -> None:
    path = write(tmp_path, '[app]\ntheme = "no-such-theme"\n')
    settings, problems = load_settings(path)
    app = create_app(settings=settings, problems=problems, seed=1, settings_path=path)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert app.theme == DEFAULT_THEME
        shown = " ".join(str(toast.render()) for toast in app.screen.query("Toast"))
        assert "app.theme" in shown and "no-such-theme" in shown


async def test_a_problem_that_looks_like_markup_is_shown_as_it_is(tmp_path: Path) -> None:
    path = write(tmp_path, '[app]\n"[/bold]" = 1\n"[red]x" = 2\n')
    settings, problems = load_settings(path)
    assert len(problems) == 2
    app = create_app(settings=settings, problems=problems, seed=1, settings_path=path)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        await pilot.pause()
        shown = " ".join(str(toast.render()) for toast in app.screen.query("Toast"))
        assert "[/bold]" in shown and "[red]x" in shown


@pytest.mark.parametrize("key", ["g", "G", "?", "ctrl+s", "ctrl+shift+up", "f5", "space",
                                 "question_mark", "alt+x", "ctrl++", "é", "escape"])
def test_keys_a_terminal_can_send_are_accepted(key: str) -> None:
    assert validate_keymap({"hint": key}) == []


@pytest.mark.parametrize(("key", "problem"), [
    ("ctrl+", "unknown key 'ctrl+'"),
    ("spacebar", "unknown key 'spacebar'"),
    ("f99", "unknown key 'f99'"),
    ("control+s", "'control+s': modifiers are alt, ctrl"),
    ("ctrl+ctrl+s", "'ctrl+ctrl+s': modifiers are"),
    ("Ctrl+s", "'Ctrl+s': modifiers are"),
    ("\x1b", "a key is a printable character, got '\\x1b'"),
    ("\u202e", "a key is a printable character"),
])
def test_keys_no_terminal_sends_are_refused(key: str, problem: str) -> None:
    problems = validate_keymap({"hint": key})
    assert len(problems) == 1 and problems[0].startswith(f"keys.hint: {problem}"), problems


def test_a_bad_key_in_the_file_falls_back_to_its_default(tmp_path: Path) -> None:
    path = write(tmp_path, '[keys]\nhint = "ctrl+"\nswap = "f6"\n')
    settings, problems = load_settings(path)
    assert settings.keymap == {**BINDING_IDS, "swap": "f6"}
    assert problems == [f"{path}:2: keys.hint: unknown key 'ctrl+'; a key is a character or "
                        "a key name such as 'f1', 'escape', 'space' or 'question_mark', with "
                        "modifiers such as 'ctrl+'; using the default 'h'"]


@pytest.mark.parametrize("value", ['"a\\u0000b"', '"~/x\\ny"', '""', "3"])
def test_a_history_path_that_cannot_be_a_file_falls_back(tmp_path: Path, value: str) -> None:
    path = write(tmp_path, f"[app]\nhistory = {value}\n")
    settings, problems = load_settings(path)
    assert settings.history is None
    assert len(problems) == 1 and problems[0].startswith(f"{path}:2: app.history: ")


def test_a_seat_with_absurd_numbers_falls_back_to_the_default_line_up(tmp_path: Path) -> None:
    path = write(tmp_path, '[seats]\nplayers = ["human", { name = "normal", mistakes = nan },'
                           " { name = \"hard\", seed = 1" + "0" * 4000 + " }]\n")
    settings, problems = load_settings(path)
    assert settings.seats == Settings().seats
    assert len(problems) == 2
    assert problems[0].startswith(f"{path}:2: seats.players[2]: bot normal: mistakes must be "
                                  "a number from 0 to 1, got nan")
    assert re.fullmatch(rf"{re.escape(str(path))}:2: seats\.players\[3\]: seed: expected an "
                        r"integer from -9223372036854775808 to 9223372036854775807 \(64 bits\), "
                        r"got an integer of about \d+ digits; using the default line-up "
                        "human, normal", problems[1]), problems[1]
