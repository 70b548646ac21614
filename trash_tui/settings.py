"""The user's settings: one TOML file of rules, seats, look and keys, loaded without failing.

The file (``default_settings_path()``: the user config folder, or ``$TRASH_TUI_CONFIG``)
has up to four tables, every key optional::

    [rules]                  # exactly as in the repository's config.toml: preset + overrides
    preset = "standard"

    [seats]                  # the line-up a new match starts with (2..8 seats)
    players = ["human", "normal", { name = "hard", mistakes = 0.05 }]

    [app]
    animation = "normal"     # "off", "fast" or "normal"
    theme = "textual-dark"   # one of Textual's built-in themes (theme_names())
    name = "You"             # the player's display name
    history = "~/trash.sqlite3"  # the history database (default: the user data folder)

    [keys]                   # binding id = key (see BINDING_IDS); "s,ctrl+s" gives two keys
    draw-stock = "s"         # a key is a character or a Textual key name, with modifiers

``load_settings`` never raises on a broken file: each part that cannot be used falls back
to its default and adds one line ``path:LINE: key: what is wrong; what is used instead`` to
the problems it returns, so the app can show them and still open. ``save_settings`` writes
the file back (rules as a preset plus the options that differ), atomically.

A seat may also be a bot in its own process (``{ name = "mine", command = ["./mine"] }``,
an isolated bot, a bot file): the line-up's own bots are the lobby's extra opponents, and
under ``trash serve`` the server's bots offered in the lobby and at shared tables (over SSH
only the server's bots are accepted). ``sandbox = true`` in such a seat runs it in the
bubblewrap sandbox (``bots/sandbox.py``: its own PID, user and network namespaces, a
read-only view of its folder and program, a private /tmp, hard process and file limits).
It is off by default, because the server's bots are the operator's own programs; an
operator who offers somebody else's program writes ``sandbox = true``. A seat asking for a
sandbox that cannot run on the machine is a problem line (what to install) and the seat
takes its default, so such a bot never runs unprotected.

Every value is checked against what the app accepts (a theme it has, a key a terminal can
send, a printable name, a seat ``make_bot`` can build), so what reaches the app never
fails there.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import unicodedata
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import platformdirs
import tomli_w

from bots.registry import REGISTRY, make_bot, parse_spec, spec_label
from trash_tui.engine.match import MAX_PLAYERS, MIN_PLAYERS, validate_table
from trash_tui.history import default_history_path
from trash_tui.presets import DEFAULT_PRESET, preset_name_of
from trash_tui.rules import Rules, RulesError, key_text, shown_value
from trash_tui.rules_file import rules_from_table
from trash_tui.text import visible
from trash_tui.toml_file import read_toml
from trash_tui.tournament.config import SEED_RANGE, key_line, resolve_bot_reference

CONFIG_ENV = "TRASH_TUI_CONFIG"
HUMAN = "human"
ANIMATIONS = ("off", "fast", "normal")
DEFAULT_ANIMATION = "normal"
DEFAULT_THEME = "textual-dark"
DEFAULT_NAME = "You"
NAME_MAX_LENGTH = 24
DEFAULT_SEATS: tuple[str, ...] = (HUMAN, "normal")
#: The opponent levels the lobby and the settings screen offer (any bot spec works in the
#: file; these are the built-in ladder).
LEVELS: tuple[str, ...] = ("random", "greedy", "easy", "normal", "hard", "counter", "expert")
TABLES = ("rules", "seats", "app", "keys")
SEATS_KEYS = ("players",)
APP_KEYS = ("animation", "theme", "name", "history", "textual_speedups")

#: Every remappable binding id and its default key, in the order a help screen lists them.
BINDING_IDS: Mapping[str, str] = MappingProxyType({
    "draw-stock": "s",
    "draw-discard": "d",
    "swap": "w",
    "keep": "k",
    "call": "t",
    "silent": "x",
    "hint": "h",
    "new-match": "n",
    "quit": "q",
})
#: The keys of the wild slots 1..10 ("0" is slot 10); they are fixed, never remapped.
WILD_SLOT_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0")
#: The modifiers a key name may start with ("ctrl+s"), as Textual names them.
KEY_MODIFIERS = ("alt", "ctrl", "hyper", "meta", "shift", "super")

SeatSpec = str | dict[str, Any]


class SettingsError(ValueError):
    """Settings that cannot be saved; the message lists what is wrong."""


@dataclass(frozen=True)
class Settings:
    """Everything the user can set. The defaults are what a missing file gives.

    ``seats`` holds ``"human"`` or a bot spec per seat (a string, or a dict for a table such
    as ``{"name": "normal", "mistakes": 0.1}``). ``keymap`` is always complete: the ids a
    caller leaves out get their default keys from ``BINDING_IDS``. ``history`` None means
    the default database (see ``history_path``).
    """

    rules: Rules = field(default_factory=Rules)
    seats: tuple[SeatSpec, ...] = field(default=DEFAULT_SEATS, hash=False)
    animation: str = DEFAULT_ANIMATION
    theme: str = DEFAULT_THEME
    keymap: dict[str, str] = field(default_factory=lambda: dict(BINDING_IDS), hash=False)
    history: Path | None = None
    name: str = DEFAULT_NAME
    #: The app's speed-ups to Textual's private parts (``trash_tui.app.textual_compat``;
    #: the SSH server always applies them): off by default, the app on stock Textual.
    textual_speedups: bool = False
    #: False when the local player has not chosen a name yet (no settings file, or one
    #: without a name or with the placeholder ``DEFAULT_NAME``): the app asks for it on
    #: its first start. Never saved: a saved name is a chosen one.
    name_chosen: bool = field(default=True, compare=False)

    def __post_init__(self) -> None:
        seats = tuple(dict(s) if isinstance(s, Mapping) else s for s in self.seats)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "keymap", {**BINDING_IDS, **self.keymap})

    def remapped_keys(self) -> dict[str, str]:
        """The bindings whose keys differ from their defaults (``BINDING_IDS``): the
        keymap the app gives Textual. The bindings are declared with the default keys, so
        an unchanged one needs no entry, and Textual, which applies its keymap to every
        binding at every key press, has nothing to apply when nothing is remapped."""
        return {binding: keys for binding, keys in self.keymap.items()
                if keys != BINDING_IDS.get(binding)}

    def history_path(self) -> Path:
        """The history database to use: ``history``, or the default one."""
        return self.history if self.history is not None else default_history_path()


def default_settings_path() -> Path:
    """Where the settings file lives: ``$TRASH_TUI_CONFIG``, or config.toml in the user
    config folder."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    return platformdirs.user_config_path("trash-tui") / "config.toml"


# --- checking single values (messages without a location) -------------------------------

def _one_line(message: str) -> str:
    return " ".join(message.split())


def _label(table: str, key: str) -> str:
    """``table.key`` with the key quoted only when TOML would need it."""
    shown = key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else key_text(key)
    return f"{table}.{shown}"


def _key_parts(value: str) -> list[str]:
    return [part.strip() for part in value.split(",")]


def binding_keys(keymap: Mapping[str, str], binding_id: str) -> tuple[str, ...]:
    """The keys ``keymap`` binds to ``binding_id`` ("s,ctrl+s": two), its default ones if
    it has none."""
    keys = keymap.get(binding_id) or BINDING_IDS[binding_id]
    return tuple(part for part in _key_parts(keys) if part)


@functools.cache
def _named_keys() -> frozenset[str]:
    """The names of the keys that are not characters ("f1", "escape", "space", ...), as
    Textual reports them (Textual is imported only when such a name is checked)."""
    from textual.keys import Keys

    return frozenset(k.value for k in Keys if "+" not in k.value and "<" not in k.value)


def _key_name_problem(key: str) -> str | None:
    """What is wrong with one key name, or None: a printable character, or a name Textual
    gives a key ("f1", "escape", "question_mark"), after modifiers such as "ctrl+"."""
    if len(key) == 1:
        return None if key.isprintable() else f"a key is a printable character, got {key!r}"
    *modifiers, base = key.split("+")
    if base == "" and modifiers and modifiers[-1] == "":  # "ctrl++": the plus key
        modifiers, base = modifiers[:-1], "plus"
    odd = [m for m in modifiers if m not in KEY_MODIFIERS]
    if odd or len(set(modifiers)) != len(modifiers):
        return (f"{shown_value(key)}: modifiers are " + ", ".join(KEY_MODIFIERS)
                + ", each at most once, before the key (as in 'ctrl+s')")
    if len(base) == 1 and base.isprintable():
        return None
    if base in _named_keys() or _character_named(base):
        return None
    return (f"unknown key {shown_value(key)}; a key is a character or a key name such as "
            "'f1', 'escape', 'space' or 'question_mark', with modifiers such as 'ctrl+'")


def _character_named(name: str) -> bool:
    """Whether Textual calls some character by ``name`` ("question_mark", "plus")."""
    from textual.keys import REPLACED_KEYS, key_to_character

    return name.isascii() and key_to_character(REPLACED_KEYS.get(name, name)) is not None


def _binding_problem(binding: str, value: Any) -> str | None:
    """What is wrong with one ``[keys]`` entry, or None."""
    if binding not in BINDING_IDS:
        return ("unknown binding; known bindings are " + ", ".join(BINDING_IDS)
                + " (the wild slot keys 1..9 and 0 cannot be remapped)")
    example = f"expected a key such as {BINDING_IDS[binding]!r} (or several, comma-separated)"
    if not isinstance(value, str):
        return f"{example}, got {shown_value(value)}"
    for part in _key_parts(value):
        if not part:
            return f"{example}, got {shown_value(value)}"
        if any(char.isspace() for char in part):
            return f"a key name has no spaces, got {shown_value(part)}"
        if part in WILD_SLOT_KEYS:
            slot = WILD_SLOT_KEYS.index(part) + 1
            return f"{part!r} is the key of wild slot {slot} and cannot be remapped"
        problem = _key_name_problem(part)
        if problem:
            return problem
    return None


def _clashes(keymap: Mapping[str, str]) -> list[tuple[str, list[str]]]:
    """Every key bound to more than one id, with those ids (in BINDING_IDS order)."""
    by_key: dict[str, list[str]] = {}
    for binding in BINDING_IDS:
        for part in dict.fromkeys(_key_parts(keymap[binding])):
            by_key.setdefault(part, []).append(binding)
    return [(key, ids) for key, ids in by_key.items() if len(ids) > 1]


def validate_keymap(keymap: Mapping[str, Any]) -> list[str]:
    """The problems of a keymap (complete, or only some ids, taken over the defaults):
    unknown ids, keys that are not strings or are empty, wild slot digits, and one key
    bound to two ids. An empty list means it can be used."""
    problems: list[str] = []
    good: dict[str, str] = {}
    for binding, value in keymap.items():
        binding_text = binding if isinstance(binding, str) else repr(binding)
        problem = _binding_problem(binding_text, value)
        if problem:
            problems.append(f"{_label('keys', binding_text)}: {problem}")
        else:
            good[binding] = value
    for key, ids in _clashes({**BINDING_IDS, **good}):
        problems.append(f"keys: {key!r} is bound to both " + " and ".join(ids))
    return problems


def _seat_problem(spec: Any) -> str | None:
    """What is wrong with one seat: "human", or a bot spec ``make_bot`` accepts."""
    if spec == HUMAN:
        return None
    if not isinstance(spec, str | Mapping):
        return ('expected "human", a bot name or a bot table such as '
                f'{{ name = "normal", mistakes = 0.1 }}, got {shown_value(spec)}')
    seed = spec.get("seed") if isinstance(spec, Mapping) else None
    if isinstance(seed, int) and not isinstance(seed, bool) and not (
            SEED_RANGE[0] <= seed <= SEED_RANGE[1]):
        return (f"seed: expected an integer from {SEED_RANGE[0]} to {SEED_RANGE[1]} (64 bits), "
                f"got {shown_value(seed)}")
    try:
        make_bot(dict(spec) if isinstance(spec, Mapping) else spec)
    except Exception as exc:  # a user's bot file may raise anything while loading
        return _one_line(str(exc)) or type(exc).__name__
    return None


REMOTE_REFUSAL = ("over SSH only the server's own bots can play (a name such as \"normal\", "
                  "with its parameters); a command, an isolated bot or a bot file is refused")


def _remote_seat_problem(spec: Any) -> str | None:
    """Over SSH a seat is "human" or one of the server's bots by registry name: never a
    command, an isolated bot, an import path or a file (checked before anything loads)."""
    if spec == HUMAN or not isinstance(spec, str | Mapping):
        return None
    try:
        table = parse_spec(spec) if isinstance(spec, str) else dict(spec)
    except Exception:  # a broken inline table: _seat_problem says what is wrong
        return None
    reference = table.get("bot", table.get("name"))
    if reference not in REGISTRY or any(key in table for key in ("command", "cwd", "env",
                                                                  "isolate", "restart")):
        return REMOTE_REFUSAL
    return None


def own_bots(seats: Sequence[SeatSpec]) -> list[tuple[str, SeatSpec]]:
    """The line-up's bots that are more than a plain level (a command, a file, a table
    with parameters), each once, with a label: the lobby offers them as opponents."""
    own: dict[str, SeatSpec] = {}
    for spec in seats:
        if spec != HUMAN and not (isinstance(spec, str) and spec in LEVELS):
            own.setdefault(spec_label(spec), spec)
    return list(own.items())


def _resolve_seat(spec: SeatSpec, folder: Path) -> SeatSpec:
    """A seat with a relative bot file path made absolute against ``folder``."""
    if isinstance(spec, str):
        return spec if spec == HUMAN or spec.lstrip().startswith("{") else (
            resolve_bot_reference(spec, folder))
    key = "bot" if "bot" in spec else "name"
    if isinstance(spec.get(key), str):
        return {**spec, key: resolve_bot_reference(spec[key], folder)}
    return spec


def _seats_count_problem(seats: Sequence[Any]) -> str | None:
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        return f"expected {MIN_PLAYERS} to {MAX_PLAYERS} seats, got {len(seats)}"
    return None


def _table_problem(rules: Rules, seats: Sequence[Any]) -> str | None:
    """Whether the rules can be played by this many seats (e.g. free draws need two)."""
    try:
        validate_table(rules, len(seats))
    except RulesError as exc:
        return str(exc).partition(": ")[2] or str(exc)
    return None


def _animation_problem(value: Any) -> str | None:
    if isinstance(value, str) and value in ANIMATIONS:
        return None
    return "expected one of " + ", ".join(map(repr, ANIMATIONS)) + f", got {shown_value(value)}"


@functools.cache
def theme_names() -> tuple[str, ...]:
    """The themes the app can use: Textual's built-in ones (the app registers no others).
    Textual is imported only when a theme other than the default is checked."""
    from textual.theme import BUILTIN_THEMES

    return tuple(sorted(BUILTIN_THEMES))


def _theme_problem(value: Any) -> str | None:
    if value == DEFAULT_THEME:
        return None
    if isinstance(value, str) and value in theme_names():
        return None
    return (f"expected a theme such as {DEFAULT_THEME!r} (one of " + ", ".join(theme_names())
            + f"), got {shown_value(value)}")


def _name_problem(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return f"expected a name such as {DEFAULT_NAME!r}, got {shown_value(value)}"
    if len(value) > NAME_MAX_LENGTH:
        return f"a name has at most {NAME_MAX_LENGTH} characters, got {len(value)}"
    if any(unicodedata.category(char).startswith("C") for char in value):
        return f"a name is one line of printable text, got {shown_value(value)}"
    return None


def _history_problem(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return f"expected the path of the history database as a string, got {shown_value(value)}"
    if any(unicodedata.category(char).startswith("C") for char in value):
        return f"a path is one line of printable text, got {shown_value(value)}"
    return None


def check_settings(settings: Settings) -> list[str]:
    """Every problem of a Settings value (one line each); empty when it can be saved."""
    problems: list[str] = []
    try:
        settings.rules.validate()
    except RulesError as exc:
        problems.append(str(exc))
    count = _seats_count_problem(settings.seats)
    if count:
        problems.append(f"seats.players: {count}")
    for number, spec in enumerate(settings.seats, start=1):
        problem = _seat_problem(spec)
        if problem:
            problems.append(f"seats.players[{number}]: {problem}")
    table = None if count else _table_problem(settings.rules, settings.seats)
    if table:
        problems.append(f"seats.players: {table}")
    for key, check in (("animation", _animation_problem), ("theme", _theme_problem),
                       ("name", _name_problem)):
        problem = check(getattr(settings, key))
        if problem:
            problems.append(f"app.{key}: {problem}")
    if not isinstance(settings.textual_speedups, bool):
        problems.append("app.textual_speedups: expected true or false, got "
                        f"{settings.textual_speedups!r}")
    if settings.history is not None and not isinstance(settings.history, Path):
        problems.append(f"app.history: expected a Path or None, got {settings.history!r}")
    problems.extend(validate_keymap(settings.keymap))
    return problems


# --- loading -------------------------------------------------------------------------------

def _item_line(text: str, line: int, index: int) -> int | None:
    """The line of item ``index`` (from 0) of the array assigned on ``line``, if found."""
    position = sum(len(row) for row in text.splitlines(keepends=True)[: line - 1])
    equals = text.find("=", position)
    if equals < 0:
        return None
    match = re.compile(r"\s*\[").match(text, equals + 1)
    if not match:
        return None
    i, depth, count, expecting = match.end(), 1, 0, True
    while i < len(text):
        char = text[i]
        if char == "#":
            i = text.find("\n", i)
            if i < 0:
                return None
            continue
        if char.isspace():
            i += 1
            continue
        if depth == 1 and char == ",":
            count, expecting, i = count + 1, True, i + 1
            continue
        if depth == 1 and char == "]":
            return None
        if depth == 1 and expecting:
            if count == index:
                return text.count("\n", 0, i) + 1
            expecting = False
        if char in "\"'":
            i = _string_end(text, i)
            continue
        depth += 1 if char in "[{" else -1 if char in "]}" else 0
        i += 1
    return None


def _string_end(text: str, start: int) -> int:
    """The index just after the TOML string that starts at ``start``."""
    quote = text[start]
    delimiter = quote * 3 if text.startswith(quote * 3, start) else quote
    i = start + len(delimiter)
    while i < len(text):
        if quote == '"' and text[i] == "\\":
            i += 2
            continue
        if text.startswith(delimiter, i):
            return i + len(delimiter)
        i += 1
    return len(text)


class _Reader:
    """Reads one parsed file part by part, collecting a problem for every broken part."""

    def __init__(self, path: Path, text: str, document: dict[str, Any],
                 remote: bool = False) -> None:
        self.path = path
        self.text = text
        self.doc = document
        self.remote = remote  # a player over SSH: only the server's bots
        self.problems: list[tuple[int, str]] = []

    def line(self, table: str, key: str | None = None) -> int | None:
        found = key_line(self.text, key, table) if key is not None else None
        if found is None:
            found = key_line(self.text, None, table)
        return found

    def add(self, line: int | None, label: str, message: str) -> None:
        where = f"{visible(self.path)}:{line}" if line else visible(self.path)
        self.problems.append((line or 0, _one_line(f"{where}: {label}: {message}")))

    def table(self, name: str) -> dict[str, Any]:
        value = self.doc.get(name, {})
        if isinstance(value, dict):
            return value
        self.add(self.line(name), name, f"expected a table such as [{name}], got "
                                        f"{shown_value(value)}; using the defaults")
        return {}

    def read(self) -> Settings:
        for key in self.doc:
            if key not in TABLES:
                self.add(self.line(key), key_text(key), "unknown table; known tables are "
                         + ", ".join(TABLES) + "; ignored")
        rules = self.rules()
        seats = self.seats(rules)
        app = self.app()
        keymap = self.keymap()
        # a file with problems is not rewritten to save a name: nothing asked then
        named = app.get("name", DEFAULT_NAME) != DEFAULT_NAME or bool(self.problems)
        return Settings(rules=rules, seats=seats, keymap=keymap, name_chosen=named, **app)

    def rules(self) -> Rules:
        table = self.table("rules")
        try:
            return rules_from_table(table)
        except RulesError as exc:
            label, _, detail = str(exc).partition(": ")
            key = label.partition(".")[2]
            named = [k for k in table if key_text(str(k)) == key]
            if not named and "preset" in table:  # the value came from the preset
                named = ["preset"]
            self.add(self.line("rules", named[0] if named else None), label,
                     f"{detail}; using the {DEFAULT_PRESET} rules")
            return Rules()

    def seats(self, rules: Rules) -> tuple[SeatSpec, ...]:
        table = self.table("seats")
        for key in table:
            if key not in SEATS_KEYS:
                self.add(self.line("seats", key), _label("seats", key),
                         "unknown key; known keys are " + ", ".join(SEATS_KEYS) + "; ignored")
        if "players" not in table:
            return DEFAULT_SEATS
        players = table["players"]
        line = self.line("seats", "players")
        fallback = "; using the default line-up " + ", ".join(DEFAULT_SEATS)
        if not isinstance(players, list):
            self.add(line, "seats.players", 'expected a list such as ["human", "normal"], got '
                     f"{shown_value(players)}{fallback}")
            return DEFAULT_SEATS
        count = _seats_count_problem(players)
        if count:
            self.add(line, "seats.players", count + fallback)
            return DEFAULT_SEATS
        folder = self.path.parent
        seats = [_resolve_seat(s, folder) if isinstance(s, str | dict) else s for s in players]
        broken = False
        for index, spec in enumerate(seats):
            problem = _remote_seat_problem(spec) if self.remote else None
            problem = problem or _seat_problem(spec)
            if problem:
                broken = True
                item = _item_line(self.text, line, index) if line else None
                self.add(item or line, f"seats.players[{index + 1}]", problem + fallback)
        if broken:
            return DEFAULT_SEATS
        table_problem = _table_problem(rules, seats)
        if table_problem:
            self.add(line, "seats.players", table_problem + fallback)
            return DEFAULT_SEATS
        return tuple(seats)

    def app(self) -> dict[str, Any]:
        table = self.table("app")
        values: dict[str, Any] = {}
        checks = {"animation": _animation_problem, "theme": _theme_problem,
                  "name": _name_problem}
        defaults = {"animation": DEFAULT_ANIMATION, "theme": DEFAULT_THEME,
                    "name": DEFAULT_NAME}
        for key, value in table.items():
            label = _label("app", key)
            if key in checks:
                problem = checks[key](value)
                if problem is None:
                    values[key] = value
                else:
                    self.add(self.line("app", key), label,
                             f"{problem}; using the default {defaults[key]!r}")
            elif key == "textual_speedups":
                if isinstance(value, bool):
                    values[key] = value
                else:
                    self.add(self.line("app", key), label, "expected true or false, got "
                             f"{shown_value(value)}; using the default false")
            elif key == "history":
                problem = _history_problem(value)
                if problem is None:
                    path = _expand_user(Path(value))
                    if not path.is_absolute():  # relative to the settings file's folder
                        path = self.path.parent.absolute() / path
                    values[key] = path
                else:
                    self.add(self.line("app", key), label, f"{problem}; using the default "
                             f"{visible(default_history_path())!r}")
            else:
                self.add(self.line("app", key), label, "unknown key; known keys are "
                         + ", ".join(APP_KEYS) + "; ignored")
        return values

    def keymap(self) -> dict[str, str]:
        table = self.table("keys")
        chosen: dict[str, str] = {}
        for binding, value in table.items():
            problem = _binding_problem(binding, value)
            if problem is None:
                chosen[binding] = value
                continue
            default = BINDING_IDS.get(binding)
            instead = f"using the default {default!r}" if default else "ignored"
            self.add(self.line("keys", binding), _label("keys", binding),
                     f"{problem}; {instead}")
        while clashes := _clashes({**BINDING_IDS, **chosen}):
            for key, ids in clashes:
                for binding in (b for b in ids if b in chosen):
                    others = " and ".join(b for b in ids if b != binding)
                    self.add(self.line("keys", binding), _label("keys", binding),
                             f"{key!r} is also the key of {others}; using the default "
                             f"{BINDING_IDS[binding]!r}")
                    del chosen[binding]
        return {**BINDING_IDS, **chosen}


def _expand_user(path: Path) -> Path:
    """``path`` with a leading ``~`` expanded; as it is when that is not possible (an
    unknown user, no home folder)."""
    try:
        return path.expanduser()
    except (RuntimeError, KeyError, ValueError):
        return path


class _FileError(Exception):
    """The settings file cannot be read or parsed (read_toml's message)."""


def load_settings(path: str | Path | None = None,
                  remote: bool = False) -> tuple[Settings, list[str]]:
    """The settings in ``path`` (default: ``default_settings_path()``) and their problems.

    Never raises on a bad file: a missing file gives the defaults and no problems; a file
    that cannot be read or parsed gives the defaults and one problem; otherwise each
    broken part (a rules table, the seat line-up, one [app] value, one key binding) takes
    its default and adds one line ``path:LINE: key: ...`` (sorted by line). A missing file,
    or a good one without a name, has ``name_chosen`` False (the app asks for it). With
    ``remote`` (a player over SSH) a seat naming a command, an isolated bot or a bot file
    is refused before anything is loaded (``REMOTE_REFUSAL``). Should a
    check itself fail on some content, the defaults are used and that is the one problem.
    """
    path = Path(path) if path is not None else default_settings_path()
    if not os.path.lexists(path):
        return Settings(name_chosen=False), []  # the first start: the app asks the name
    try:
        text, document = read_toml(path, _FileError)
    except _FileError as exc:
        return Settings(), [f"{exc}; using the defaults"]
    reader = _Reader(path, text, document, remote)
    try:
        settings = reader.read()
    except Exception as exc:  # a check that failed in a way of its own: still never fail
        return Settings(), [_one_line(f"{visible(path)}: cannot use this file "
                                      f"({type(exc).__name__}: {visible(exc)}); using the "
                                      "defaults")]
    return settings, [message for _, message in sorted(reader.problems, key=lambda p: p[0])]


# --- saving --------------------------------------------------------------------------------

HEADER = """\
# trash-tui settings, written by the app (comments are not kept).
# The repository's config.toml explains every key.

"""


def rules_table(rules: Rules) -> dict[str, Any]:
    """A ``[rules]`` table for ``rules``: its preset's name, or the standard preset plus
    the options that differ from it."""
    name = preset_name_of(rules)
    if name is not None:
        return {"preset": name}
    standard = Rules().to_dict()
    changed = {k: v for k, v in rules.to_dict().items() if standard[k] != v}
    return {"preset": DEFAULT_PRESET, **changed}


def settings_document(settings: Settings) -> dict[str, Any]:
    """The TOML document ``save_settings`` writes (key bindings: only the remapped ones)."""
    app: dict[str, Any] = {"animation": settings.animation, "theme": settings.theme,
                           "name": settings.name}
    if settings.history is not None:
        app["history"] = str(settings.history)
    if settings.textual_speedups:
        app["textual_speedups"] = True
    document: dict[str, Any] = {
        "rules": rules_table(settings.rules),
        "seats": {"players": [dict(s) if isinstance(s, Mapping) else s
                              for s in settings.seats]},
        "app": app,
    }
    keys = {b: k for b, k in settings.keymap.items() if BINDING_IDS.get(b) != k}
    if keys:
        document["keys"] = keys
    return document


def save_settings(settings: Settings, path: str | Path | None = None) -> Path:
    """Write ``settings`` to ``path`` (default: ``default_settings_path()``) and return it.

    Folders are created as needed; the file is replaced atomically (a temporary file in the
    same folder, then ``os.replace``), keeping an existing file's permissions and writing
    through a symlink. SettingsError if the settings are not valid (``check_settings``);
    OSError if the file cannot be written.
    """
    problems = check_settings(settings)
    if problems:
        raise SettingsError("; ".join(problems))
    path = Path(path) if path is not None else default_settings_path()
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    text = HEADER + tomli_w.dumps(settings_document(settings))
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileNotFoundError):  # a new file keeps the umask's mode
            os.chmod(temporary, target.stat().st_mode & 0o7777)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path
