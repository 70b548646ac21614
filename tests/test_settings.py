"""The user settings file: defaults, save/load round trips, broken files and key bindings."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from trash_tui.presets import PRESETS, preset_rules
from trash_tui.rules import Rules
from trash_tui.settings import (
    ANIMATIONS,
    BINDING_IDS,
    CONFIG_ENV,
    WILD_SLOT_KEYS,
    Settings,
    SettingsError,
    check_settings,
    default_settings_path,
    load_settings,
    rules_table,
    save_settings,
    validate_keymap,
)

REPO = Path(__file__).resolve().parents[1]
DEFAULTS = Settings()


@pytest.fixture(autouse=True)
def _no_user_paths(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A developer's own config or history never leaks into these tests."""
    monkeypatch.delenv(CONFIG_ENV, raising=False)
    monkeypatch.setenv("TRASH_TUI_HISTORY", str(tmp_path / "history.sqlite3"))


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def one_problem(path: Path) -> tuple[Settings, str]:
    settings, problems = load_settings(path)
    assert len(problems) == 1, problems
    assert "\n" not in problems[0]
    return settings, problems[0]


# --- defaults ------------------------------------------------------------------------------

def test_defaults() -> None:
    assert DEFAULTS.rules == Rules() == preset_rules("standard")
    assert DEFAULTS.seats == ("human", "normal")
    assert DEFAULTS.animation == "normal" and "normal" in ANIMATIONS
    assert DEFAULTS.theme == "textual-dark"
    assert DEFAULTS.name == "You"
    assert DEFAULTS.history is None
    assert DEFAULTS.keymap == dict(BINDING_IDS)
    assert check_settings(DEFAULTS) == []


def test_binding_ids_and_default_keys() -> None:
    assert dict(BINDING_IDS) == {
        "draw-stock": "s", "draw-discard": "d", "swap": "w", "keep": "k", "call": "t",
        "silent": "x", "hint": "h", "new-match": "n", "quit": "q"}
    assert WILD_SLOT_KEYS == ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0")
    assert validate_keymap(BINDING_IDS) == []


def test_partial_keymap_is_completed_with_defaults() -> None:
    settings = Settings(keymap={"swap": "g"})
    assert settings.keymap == {**BINDING_IDS, "swap": "g"}


def test_only_the_remapped_keys_are_given_to_textual() -> None:
    assert DEFAULTS.remapped_keys() == {}
    assert Settings(keymap={"swap": "w"}).remapped_keys() == {}  # the default, written out
    assert Settings(keymap={"swap": "s", "draw-stock": "w", "hint": "h"}).remapped_keys() == {
        "swap": "s", "draw-stock": "w"}


def test_every_binding_with_an_id_is_declared_with_its_default_key() -> None:
    """The app gives Textual only the remapped keys: a binding declared with another key
    than ``BINDING_IDS`` says would silently not be the documented default."""
    import trash_tui.app.screens.lobby as lobby
    import trash_tui.app.screens.too_small as too_small
    import trash_tui.app.trash.board as board
    declared = {binding.id: binding.key
                for screen in (board.BoardScreen, lobby.LobbyScreen, too_small.TooSmallScreen)
                for binding in screen.BINDINGS
                if getattr(binding, "id", None) in BINDING_IDS}
    assert declared == dict(BINDING_IDS)


def test_history_path_defaults_to_the_history_database(tmp_path: Path) -> None:
    assert DEFAULTS.history_path() == tmp_path / "history.sqlite3"
    assert Settings(history=tmp_path / "mine.db").history_path() == tmp_path / "mine.db"


def test_missing_file_gives_defaults_and_no_problem(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "absent" / "config.toml") == (DEFAULTS, [])


def test_empty_file_gives_defaults(tmp_path: Path) -> None:
    assert load_settings(write(tmp_path, "# nothing set\n")) == (DEFAULTS, [])


def test_a_full_file_loads(tmp_path: Path) -> None:
    path = write(tmp_path, """
[rules]
preset = "kings-wild"
start_size = 8

[seats]
players = ["human", "hard", { name = "normal", mistakes = 0.1 }]

[app]
animation = "off"
theme = "nord"
name = "Ann"
history = "~/games/trash.sqlite3"

[keys]
draw-stock = "g"
"draw-discard" = "f,ctrl+f"
""")
    settings, problems = load_settings(path)
    assert problems == []
    assert settings.rules == Rules(wilds="kings", start_size=8)
    assert settings.seats == ("human", "hard", {"name": "normal", "mistakes": 0.1})
    assert (settings.animation, settings.theme, settings.name) == ("off", "nord", "Ann")
    assert settings.history == Path("~/games/trash.sqlite3").expanduser()
    assert settings.keymap == {**BINDING_IDS, "draw-stock": "g", "draw-discard": "f,ctrl+f"}


def test_relative_history_and_bot_paths_are_relative_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "bots").mkdir()
    bot = tmp_path / "bots" / "mine.py"
    bot.write_text("from bots.ladder import GreedyBot\n\n\nclass Mine(GreedyBot):\n"
                   "    name = 'mine'\n", encoding="utf-8")
    path = write(tmp_path, '[seats]\nplayers = ["human", "bots/mine.py:Mine"]\n'
                           '[app]\nhistory = "data/h.sqlite3"\n')
    settings, problems = load_settings(path)
    assert problems == []
    assert settings.seats == ("human", f"{bot}:Mine")
    assert settings.history == tmp_path / "data" / "h.sqlite3"


# --- round trips ---------------------------------------------------------------------------

def test_round_trip_of_the_defaults(tmp_path: Path) -> None:
    path = save_settings(DEFAULTS, tmp_path / "config.toml")
    assert load_settings(path) == (DEFAULTS, [])


def test_round_trip_of_everything_changed(tmp_path: Path) -> None:
    settings = Settings(
        rules=preset_rules("catsatcards").with_options(start_size=8, places=True),
        seats=("human", {"name": "hard", "mistakes": 0.05}, "expert", "random"),
        animation="fast",
        theme="gruvbox",
        keymap={"draw-stock": "w", "swap": "s", "quit": "ctrl+q,q"},
        history=tmp_path / "elsewhere" / "h.sqlite3",
        name="Zoë the Ünïcode",
    )
    path = save_settings(settings, tmp_path / "deep" / "folder" / "config.toml")
    assert path == tmp_path / "deep" / "folder" / "config.toml"
    assert load_settings(path) == (settings, [])


@pytest.mark.parametrize("preset", list(PRESETS))
def test_round_trip_of_every_preset(tmp_path: Path, preset: str) -> None:
    settings = Settings(rules=preset_rules(preset))
    path = save_settings(settings, tmp_path / "config.toml")
    assert load_settings(path) == (settings, [])
    assert f'preset = "{preset}"' in path.read_text(encoding="utf-8")


def test_rules_are_written_as_a_preset_plus_the_differences(tmp_path: Path) -> None:
    assert rules_table(preset_rules("seven-up")) == {"preset": "seven-up"}
    assert rules_table(Rules(jokers=True, start_size=7)) == {
        "preset": "standard", "jokers": True, "start_size": 7}
    rules = Rules(jokers=True, last_turn=True)
    path = save_settings(Settings(rules=rules), tmp_path / "config.toml")
    text = path.read_text(encoding="utf-8")
    assert '[rules]\npreset = "standard"\njokers = true\nlast_turn = true\n\n' in text
    assert "start_size" not in text and "draw-stock" not in text  # only what differs


def test_save_is_atomic_and_keeps_the_mode(tmp_path: Path) -> None:
    path = write(tmp_path, "# old\n")
    os.chmod(path, 0o640)
    save_settings(Settings(theme="nord"), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]  # no temp left
    assert load_settings(path)[0].theme == "nord"


def test_save_writes_through_a_symlink(tmp_path: Path) -> None:
    real = write(tmp_path, "", name="real.toml")
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    save_settings(Settings(name="Bo"), link)
    assert link.is_symlink()
    assert load_settings(real)[0].name == "Bo"


@pytest.mark.parametrize("settings", [
    Settings(seats=("human",)),
    Settings(seats=("human", "nope")),
    Settings(animation="slow"),
    Settings(theme=" "),
    Settings(name=""),
    Settings(name="x" * 25),
    Settings(keymap={"draw-stock": "d"}),
    Settings(rules=Rules(free_draws=3), seats=("human", "normal", "hard")),
])
def test_invalid_settings_are_not_saved(tmp_path: Path, settings: Settings) -> None:
    assert check_settings(settings)
    with pytest.raises(SettingsError):
        save_settings(settings, tmp_path / "config.toml")
    assert not (tmp_path / "config.toml").exists()


# --- the path ------------------------------------------------------------------------------

def test_default_path_is_in_the_user_config_folder() -> None:
    path = default_settings_path()
    assert path.name == "config.toml" and "trash-tui" in path.parts


def test_env_overrides_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "mine" / "settings.toml"
    monkeypatch.setenv(CONFIG_ENV, str(target))
    assert default_settings_path() == target
    assert save_settings(Settings(name="Env")) == target
    assert load_settings() == (Settings(name="Env"), [])


# --- broken files: defaults for the broken part, one clear problem -------------------------

def test_invalid_toml_gives_all_defaults(tmp_path: Path) -> None:
    path = write(tmp_path, '[app]\nname = "Ann"\ntheme = \n')
    settings, problem = one_problem(path)
    assert settings == DEFAULTS
    assert problem.startswith(f"{path}:3: not valid TOML:") and "using the defaults" in problem


def test_not_utf8_gives_all_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b'[app]\nname = "Ann"\nname = "\xe9"\n')
    settings, problem = one_problem(path)
    assert settings == DEFAULTS
    assert problem.startswith(f"{path}:3: not UTF-8 text")


def test_a_folder_gives_all_defaults(tmp_path: Path) -> None:
    settings, problem = one_problem(tmp_path)  # a folder, not a file
    assert settings == DEFAULTS
    assert problem == f"{tmp_path}: is a directory, not a TOML file; using the defaults"


def test_unreadable_file_gives_all_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.symlink_to(tmp_path / "moved-away.toml")  # there, but it cannot be read
    settings, problem = one_problem(path)
    assert settings == DEFAULTS
    assert problem.startswith(f"{path}: cannot read:")


def test_a_check_that_fails_on_its_own_still_gives_the_defaults(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(value: object) -> str | None:
        raise RuntimeError("a bug in a check")

    monkeypatch.setattr("trash_tui.settings._name_problem", broken)
    path = write(tmp_path, '[app]\nname = "Ann"\n')
    settings, problem = one_problem(path)
    assert settings == DEFAULTS
    assert problem == (f"{path}: cannot use this file (RuntimeError: a bug in a check); "
                       "using the defaults")


APP = '[app]\nname = "Ann"\n'

# (the whole file, the problem's line, its key, the Settings field that must be default;
# every file also sets name = "Ann", which must survive)
BROKEN = {
    "rules unknown option": (APP + '[rules]\npreset = "jokers"\ncolour = "red"\n', 5,
                             "rules.colour", "rules"),
    "rules bad value": (APP + '[rules]\npreset = "jokers"\nstart_size = 11\n', 5,
                        "rules.start_size", "rules"),
    "rules unknown preset": (APP + '[rules]\npreset = "poker"\n', 4, "rules.preset", "rules"),
    # target_size comes from the preset, so the problem is at the preset's line
    "rules combination": (APP + '[rules]\npreset = "short-game"\nstart_size = 5\n', 4,
                          "rules.target_size", "rules"),
    "rules not a table": ('rules = "standard"\n' + APP, 1, "rules", "rules"),
    "unknown bot": (APP + '[seats]\nplayers = ["human", "nope"]\n', 4, "seats.players[2]",
                    "seats"),
    "bot parameter": (APP + '[seats]\nplayers = [\n  "human",\n'
                      '  { name = "normal", mistakes = 2 },\n]\n', 6, "seats.players[2]",
                      "seats"),
    "seat not a spec": (APP + '[seats]\nplayers = ["human", 3]\n', 4, "seats.players[2]",
                        "seats"),
    "too few seats": (APP + '[seats]\nplayers = ["human"]\n', 4, "seats.players", "seats"),
    "too many seats": (APP + '[seats]\nplayers = ["human"' + ', "easy"' * 8 + "]\n", 4,
                       "seats.players", "seats"),
    "seats not a list": (APP + '[seats]\nplayers = "human"\n', 4, "seats.players", "seats"),
    "seats unknown key": (APP + '[seats]\nplayers = ["human", "easy"]\nopponents = 3\n', 5,
                          "seats.opponents", ""),
    "animation": (APP + 'animation = "slow"\n', 3, "app.animation", "animation"),
    "theme empty": (APP + 'theme = ""\n', 3, "app.theme", "theme"),
    "theme not a string": (APP + "theme = 3\n", 3, "app.theme", "theme"),
    "history not a string": (APP + "history = 7\n", 3, "app.history", "history"),
    "app unknown key": (APP + "colour = true\n", 3, "app.colour", ""),
    "unknown binding": (APP + '[keys]\ndraw = "s"\n', 4, "keys.draw", ""),
    "empty key": (APP + '[keys]\nswap = ""\n', 4, "keys.swap", "keymap"),
    "key not a string": (APP + "[keys]\nswap = 5\n", 4, "keys.swap", "keymap"),
    "key with spaces": (APP + '[keys]\nswap = "ctrl + w"\n', 4, "keys.swap", "keymap"),
    "wild slot key": (APP + '[keys]\nhint = "0"\n', 4, "keys.hint", "keymap"),
    "clash with a default": (APP + '[keys]\nkeep = "s"\n', 4, "keys.keep", "keymap"),
    "keys not a table": ('keys = "vim"\n' + APP, 1, "keys", "keymap"),
    "unknown table": (APP + "[sound]\nvolume = 3\n", 3, "sound", ""),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_broken_part_falls_back_with_one_problem(tmp_path: Path, case: str) -> None:
    text, line, key, field = BROKEN[case]
    path = write(tmp_path, text)
    settings, problem = one_problem(path)
    assert problem.startswith(f"{path}:{line}: {key}: "), problem
    assert re.search(r"; (using the (default|defaults|standard rules)\b|ignored)", problem), (
        problem)
    assert settings.name == "Ann"  # the good part is kept
    if field:
        assert getattr(settings, field) == getattr(DEFAULTS, field)


def test_unknown_bot_message_names_the_known_bots(tmp_path: Path) -> None:
    path = write(tmp_path, '[seats]\nplayers = ["human", "nope"]\n')
    _, problem = one_problem(path)
    assert re.fullmatch(rf"{re.escape(str(path))}:2: seats\.players\[2\]: unknown bot 'nope'; "
                        r"known bots are .*normal.*; using the default line-up human, normal",
                        problem)


def test_free_draws_with_three_seats_keeps_the_rules(tmp_path: Path) -> None:
    path = write(tmp_path, '[rules]\npreset = "three-free-draws"\n'
                           '[seats]\nplayers = ["human", "easy", "hard"]\n')
    settings, problem = one_problem(path)
    assert problem.startswith(f"{path}:4: seats.players: free draws are a 2-player rule")
    assert settings.rules == preset_rules("three-free-draws")
    assert settings.seats == DEFAULTS.seats


def test_a_clash_between_two_remapped_keys_reverts_both(tmp_path: Path) -> None:
    path = write(tmp_path, '[keys]\nswap = "z"\nkeep = "z"\nhint = "?"\n')
    settings, problems = load_settings(path)
    assert problems == [
        f"{path}:2: keys.swap: 'z' is also the key of keep; using the default 'w'",
        f"{path}:3: keys.keep: 'z' is also the key of swap; using the default 'k'",
    ]
    assert settings.keymap == {**BINDING_IDS, "hint": "?"}


def test_swapping_two_keys_is_no_clash(tmp_path: Path) -> None:
    path = write(tmp_path, '[keys]\ndraw-stock = "d"\ndraw-discard = "s"\n')
    settings, problems = load_settings(path)
    assert problems == []
    assert settings.keymap["draw-stock"] == "d" and settings.keymap["draw-discard"] == "s"


def test_every_problem_is_reported_in_line_order(tmp_path: Path) -> None:
    path = write(tmp_path, '[keys]\nswap = ""\n[app]\nanimation = 1\n[rules]\njokers = 2\n'
                           '[seats]\nplayers = ["x", "human"]\n')
    settings, problems = load_settings(path)
    assert [p.split(": ")[0] for p in problems] == [f"{path}:{n}" for n in (2, 4, 6, 8)]
    assert [p.split(": ")[1] for p in problems] == [
        "keys.swap", "app.animation", "rules.jokers", "seats.players[1]"]
    assert settings == DEFAULTS


# --- validate_keymap -------------------------------------------------------------------------

@pytest.mark.parametrize(("keymap", "expected"), [
    ({"draw-stock": "g"}, []),
    ({"draw-stock": "d", "draw-discard": "s"}, []),
    ({"quit": "q,ctrl+q"}, []),
    ({"fly": "f"}, ["keys.fly: unknown binding"]),
    ({"swap": ""}, ["keys.swap: expected a key"]),
    ({"swap": "w,"}, ["keys.swap: expected a key"]),
    ({"swap": None}, ["keys.swap: expected a key"]),
    ({"swap": "5"}, ["keys.swap: '5' is the key of wild slot 5"]),
    ({"keep": "s"}, ["keys: 's' is bound to both draw-stock and keep"]),
    ({"keep": "z", "call": "y,z"}, ["keys: 'z' is bound to both keep and call"]),
])
def test_validate_keymap(keymap: dict[str, object], expected: list[str]) -> None:
    problems = validate_keymap(keymap)
    assert len(problems) == len(expected), problems
    for problem, start in zip(problems, expected, strict=True):
        assert problem.startswith(start), problem


# --- the repository's config.toml ------------------------------------------------------------

def test_repository_config_loads_without_problems() -> None:
    settings, problems = load_settings(REPO / "config.toml")
    assert problems == []
    assert settings.rules == Rules()


def test_repository_config_comments_show_the_defaults(tmp_path: Path) -> None:
    """Uncommenting every one-line ``# key = value`` of config.toml changes nothing."""
    assignment = re.compile(r"^# ?((?:[A-Za-z0-9_-]+|\"[^\"]+\")\s*=\s*\S.*)$")
    text = (REPO / "config.toml").read_text(encoding="utf-8")
    lines = [m.group(1) if (m := assignment.match(line)) else line
             for line in text.splitlines()]
    uncommented = write(tmp_path, "\n".join(lines) + "\n")
    settings, problems = load_settings(uncommented)
    assert problems == []
    assert settings == DEFAULTS


def test_the_name_is_asked_only_when_no_name_was_chosen(tmp_path: Path) -> None:
    """Issue 27: the first start (no file, or a good file without a name or with the old
    placeholder "You") asks for the local player's name; a chosen name, or a file with
    problems (it is not rewritten to save a name), does not."""
    assert load_settings(tmp_path / "missing.toml")[0].name_chosen is False
    for text, chosen in (('[app]\ntheme = "nord"\n', False), ('[app]\nname = "You"\n', False),
                         ('[app]\nname = "Robin"\n', True),
                         ('[app]\ntheme = "nord"\nbogus = 1\n', True)):
        path = tmp_path / "config.toml"
        path.write_text(text)
        assert load_settings(path)[0].name_chosen is chosen, text
    saved = save_settings(Settings(name="Robin", name_chosen=False), tmp_path / "saved.toml")
    assert load_settings(saved)[0].name_chosen is True
