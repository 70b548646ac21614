"""Tournament configuration: a TOML file naming the rules, the bots, the format and when to stop.

A file looks like this (``tournaments/round-robin.toml`` is a commented example)::

    name = "The bot ladder"   # optional; default: the file's stem
    game = "trash"            # or "help-your-neighbor" (default "trash")
    seed = 2026               # required integer
    players = 2               # table size, 2..8 (default 2)
    format = "round-robin"    # or "gauntlet" (then gauntlet = "<bot name>")
    matches = 200             # per pairing ... or deals = 2000; exactly one of the two
    duplicate = true          # every board in every seat rotation (default false)
    time_limit = 2.0          # optional: seconds per decision

    [rules]                   # exactly like config.toml: preset + overrides
    preset = "standard"

    [[bots]]
    name = "hard"             # a unique label (default: the bot reference)
    bot = "hard"              # registry name, package.module:Class or a .py path
    mistakes = 0.02           # any other key is a bot parameter (or seed)

    [sandbox]                 # optional: defaults for command and isolated bots
    enabled = true            # run them in bubblewrap (a bot's sandbox = false opts out)
    processes = 64            # also files, tmp_mb, read_only = ["paths", ...]

    [stop]                    # optional
    rule = "sprt"             # "fixed" (default) or "sprt" (only with exactly 2 bots)
    elo0 = 0.0
    elo1 = 10.0
    alpha = 0.05
    beta = 0.05

Every number has bounds (``BOUNDS`` below and the checks in ``_Loader``): a seed is a
64-bit integer, ``matches``/``deals`` at most ``MAX_BOARDS``, the whole schedule at most
``MAX_GAMES`` games and ``MAX_BOTS`` bots, ``time_limit`` from ``TIME_LIMIT[0]`` to
``TIME_LIMIT[1]`` seconds, the SPRT's ``elo0``/``elo1`` within ``ELO_RANGE`` and at least
``MIN_ELO_GAP`` apart, ``alpha``/``beta`` from ``MIN_ERROR_RATE`` to below 0.5; nan and
infinities are refused everywhere.

``matches``/``deals`` count *boards* per pairing: without ``duplicate`` a board is one game;
with it, a board is one deck played once in each of the ``players`` cyclic seat rotations,
so ``matches = N`` gives N·players games per pairing. With SPRT the count is the most boards
to play; the test may stop earlier.

Every problem is a ``TournamentError`` with one line ``path:LINE: key: what is wrong and
what is allowed`` (``path: key: ...`` when the key is not in the file), with any control
character from the file escaped (``trash_tui.text.visible``) and long or deeply nested values
shortened. Items of
``[[bots]]`` are named ``bots[N]``, counting from 1 in file order, e.g. ``bots[2].mistakes``.
A bot given as a path is resolved relative to the folder of the TOML file.

``game = "help-your-neighbor"`` plays the dice game of RULES.md (003) instead: 3 to 8
players (default 4), ``matches`` only (one match is one game), no ``[rules]``, and bots
from ``bots.neighbor.NEIGHBOR_BOTS`` (``random``, ``smart``; the only key besides ``name``
and ``bot`` is ``seed``). With ``duplicate`` a board's dice seed is replayed in every seat
rotation, as a Trash board's deck is.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import reprlib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bots.base import BotError
from bots.clock import TimeControl
from bots.neighbor import NEIGHBOR_BOTS, neighbor_bot_from_spec
from bots.registry import make_bot
from bots.sandbox import read_sandbox
from trash_tui.engine.match import MAX_PLAYERS, MIN_PLAYERS, validate_table
from trash_tui.games import GAMES, NEIGHBOR, TRASH
from trash_tui.neighbor import engine as neighbor_engine
from trash_tui.rules import Rules, RulesError, key_text
from trash_tui.rules_file import rules_from_table
from trash_tui.text import is_unsafe, visible
from trash_tui.toml_file import read_toml
from trash_tui.tournament.bot_processes import (
    canonical_process_spec,
    process_spec,
    wants_process,
)

TOP_KEYS = ("name", "game", "seed", "players", "format", "gauntlet", "matches", "deals",
            "duplicate", "time_limit", "rules", "bots", "stop", "time_control", "sandbox")
FORMATS = ("round-robin", "gauntlet")
NEIGHBOR_DEFAULT_PLAYERS = 4
UNITS = ("matches", "deals")
STOP_RULES = ("fixed", "sprt")
STOP_KEYS = ("rule", "elo0", "elo1", "alpha", "beta")
SANDBOX_KEYS = ("enabled", "processes", "files", "tmp_mb", "read_only")
FINGERPRINT_VERSION = 1

SEED_RANGE = (-(2**63), 2**63 - 1)  # a 64-bit integer, as TOML defines integers
MAX_BOARDS = 1_000_000  # matches or deals per pairing
MAX_GAMES = 100_000_000  # in the whole schedule (pairings x boards x seat rotations)
MAX_BOTS = 64
TIME_LIMIT = (0.001, 3600.0)  # seconds per decision
ELO_RANGE = (-2000.0, 2000.0)
MIN_ELO_GAP = 0.1  # elo1 - elo0: closer hypotheses cannot be told apart
MIN_ERROR_RATE = 0.0001  # alpha and beta, up to (not including) 0.5
MAX_DEPTH = 16  # arrays and tables nested in a rules option or a bot parameter


class TournamentError(ValueError):
    """A tournament file that cannot be used; one line: ``path:LINE: key: message``."""


@dataclass(frozen=True)
class BotEntry:
    """One bot of the tournament: its unique label and the spec ``make_bot`` builds it from
    (``bot`` resolved to a registry name, import path or absolute file path, plus the bot's
    parameters and optional ``seed``)."""

    name: str
    spec: dict[str, Any] = field(hash=False)


@dataclass(frozen=True)
class StopRule:
    """When a tournament stops: ``fixed`` (after every scheduled game) or ``sprt`` (a
    sequential test of Elo ``elo0`` against ``elo1`` with error rates ``alpha``, ``beta``)."""

    kind: str = "fixed"
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def llr_bounds(self) -> tuple[float, float]:
        """The SPRT's log-likelihood-ratio bounds: accept H0 below, H1 above."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))


@dataclass(frozen=True)
class TournamentConfig:
    """A loaded, validated tournament file.

    ``games`` is the number of boards per pairing (the value of ``matches`` or ``deals``);
    ``unit`` says whether a game is a whole match or a single deal. With ``duplicate`` each
    board is played in every cyclic seat rotation (``players`` games per board).
    ``gauntlet`` is the name of the bot facing the rest (``None`` for a round-robin).
    ``game`` is "trash" or "help-your-neighbor" (whose ``rules`` are unused defaults).
    ``secret`` and ``seating`` belong to a run, not to the file (``runner.py``): a loaded
    file has no secret and the balanced seat orders.
    """

    path: Path
    name: str
    seed: int
    rules: Rules
    bots: tuple[BotEntry, ...]
    players: int = 2
    format: str = "round-robin"
    gauntlet: str | None = None
    unit: str = "matches"
    games: int = 1
    duplicate: bool = False
    time_limit: float | None = None
    stop: StopRule = field(default_factory=StopRule)
    game: str = TRASH
    time_control: TimeControl | None = None  # a chess clock per seat: "60+0.5"
    # Not from the file, and not in the fingerprint: what the runner keeps with a run (its
    # run.json and the history database) and sets here for the games it plays.
    secret: str | None = field(default=None, repr=False)  # drawn at a run's start, if any
    seating: str = "balanced"  # the seat orders (schedule.SEATINGS; "cyclic": older runs)

    @property
    def sandboxed(self) -> tuple[str, ...]:
        """The labels of the bots that run in the sandbox."""
        return tuple(bot.name for bot in self.bots if bot.spec.get("sandbox"))

    @property
    def bot_names(self) -> tuple[str, ...]:
        """The bots' labels, in file order (a bot's index is its position here)."""
        return tuple(bot.name for bot in self.bots)

    @property
    def gauntlet_index(self) -> int | None:
        """The index of the gauntlet bot, or None for a round-robin."""
        return None if self.gauntlet is None else self.bot_names.index(self.gauntlet)


# --- finding a key's line ---------------------------------------------------------------

_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')"""
_DOTTED = rf"{_KEY}(?:\s*\.\s*{_KEY})*"
_TABLE_HEADER = re.compile(rf"^\[\s*({_DOTTED})\s*\]\s*(?:#.*)?$")
_ARRAY_HEADER = re.compile(rf"^\[\[\s*({_DOTTED})\s*\]\]\s*(?:#.*)?$")
_ASSIGN = re.compile(rf"^({_DOTTED})\s*=")
_PART = re.compile(_KEY)


def _unquoted(part: str) -> str:
    """One part of a dotted key as TOML reads it: quotes removed, escapes decoded."""
    if part[0] == '"' and "\\" in part:
        try:
            return str(tomllib.loads(f"k = {part}")["k"])
        except tomllib.TOMLDecodeError:
            return part[1:-1]
    return part[1:-1] if part[0] in "\"'" else part


def _parts(dotted: str) -> tuple[str, ...]:
    """The key names of a dotted TOML key, quotes removed and escapes decoded."""
    return tuple(_unquoted(part) for part in _PART.findall(dotted))


def key_line(text: str, key: str | None, table: str = "", index: int | None = None
             ) -> int | None:
    """The line (from 1) of ``key = ...`` in ``text``.

    ``table`` names the table the key is in ("" for the top level); ``index`` picks the
    ``index``-th (from 0) ``[[table]]`` of an array of tables. Dotted keys are found too
    (``table.key = ...`` at the top level). With ``key=None`` the table's own line: its
    header, or its ``table = ...`` line at the top level. None if it cannot be found.
    """
    want_table = (table,) if table else ()
    want = (*want_table, key) if key is not None else want_table
    current: tuple[str, ...] = ()
    in_wanted = not table
    seen = -1  # occurrences of [[table]] so far
    top_line = None  # the line of "table = ..." (or "table.x = ...") at the top level
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        array = _ARRAY_HEADER.match(stripped)
        header = array or _TABLE_HEADER.match(stripped)
        if header:
            current = _parts(header.group(1))
            if array and current == want_table:
                seen += 1
            in_wanted = current == want_table and (index is None or seen == index)
            if in_wanted and key is None:
                return number
            continue
        assign = _ASSIGN.match(stripped)
        if not assign:
            continue
        name = _parts(assign.group(1))
        if in_wanted and key is not None and name[:1] == (key,) and current == want_table:
            return number
        if not current and table:
            if name[: len(want)] == want and key is not None:
                return number
            if name[:1] == want_table and top_line is None:
                top_line = number
    return top_line if key is None else None


def _one_line(message: str) -> str:
    """``message`` on one line, with whatever control characters it still holds escaped."""
    joined = " ".join(message.split())
    return visible(joined) if any(is_unsafe(c) for c in joined) else joined


_SHORT = reprlib.Repr()  # (keyword arguments only from Python 3.12)
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxlong, _SHORT.maxother = 2, 60, 40, 60
_SHORT.maxtuple = _SHORT.maxlist = _SHORT.maxdict = _SHORT.maxset = 4


def shown(value: Any) -> str:
    """A value from the file as an error message quotes it: its repr, shortened (long
    strings and numbers cut, nested lists and tables two levels deep at most)."""
    return _SHORT.repr(value)


# --- loading -------------------------------------------------------------------------------

def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    """An integer or a finite float (an integer too large for a float counts as a number
    here; the range checks refuse it)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return isinstance(value, int) or math.isfinite(value)


def _too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether arrays or tables nest deeper than ``limit`` levels in ``value`` (walked
    without recursion, so any depth is safe to ask about)."""
    level: list[Any] = [value]
    for _ in range(limit + 1):
        level = [item for container in level if isinstance(container, list | dict)
                 for item in (container.values() if isinstance(container, dict)
                              else container)]
        if not level:
            return False
    return True


def _in_range(value: Any, low: float, high: float) -> bool:
    """A number from ``low`` to ``high`` (inclusive); never raises, whatever ``value`` is."""
    return _is_number(value) and low <= value <= high


def _is_path_reference(reference: str) -> bool:
    """Whether a bot reference names a file (as ``bots.registry.find_bot`` decides)."""
    target = reference.partition(":")[0]
    return target.endswith(".py") or "/" in target or "\\" in target


def _absolute_path(path: str, folder: Path) -> str:
    """``path`` (``~`` expanded) made absolute against ``folder``."""
    expanded = Path(path).expanduser()
    return os.path.abspath(expanded if expanded.is_absolute() else folder / expanded)


def resolve_bot_reference(reference: str, folder: Path) -> str:
    """A bot reference with a relative file path made absolute against ``folder``."""
    if not _is_path_reference(reference):
        return reference
    target, colon, class_name = reference.partition(":")
    expanded = Path(target).expanduser()
    if not expanded.is_absolute():
        expanded = folder / expanded
    return os.path.normpath(os.path.abspath(expanded)) + colon + class_name


class _Loader:
    """Reads one parsed document and raises TournamentError at the first problem."""

    def __init__(self, path: Path, text: str, document: dict[str, Any]) -> None:
        self.path = path
        self.text = text
        self.doc = document
        self.game = TRASH
        self.sandbox: dict[str, Any] | None = None

    def error(self, label: str, message: str, key: str | None = None, table: str = "",
              index: int | None = None) -> TournamentError:
        """An error at ``key`` of ``table`` (falling back to the table's line)."""
        line = key_line(self.text, key, table, index)
        if line is None and key is not None:
            # a key of a table: the table's header; a top-level key: its [key] table
            line = (key_line(self.text, None, table, index) if table
                    else key_line(self.text, None, key))
        where = f"{self.path}:{line}" if line else str(self.path)
        return TournamentError(_one_line(f"{where}: {label}: {message}"))

    def top_error(self, key: str, message: str) -> TournamentError:
        return self.error(key_text(key), message, key)

    # --- top-level values ----------------------------------------------------------------
    def load(self) -> TournamentConfig:
        for key in self.doc:
            if key not in TOP_KEYS:
                raise self.top_error(key, "unknown key; known keys are " + ", ".join(TOP_KEYS))
        name = self.doc.get("name", self.path.stem)
        if not isinstance(name, str) or not name.strip():
            raise self.top_error("name", f"expected a non-empty string, got {shown(name)}")
        game = self.doc.get("game", TRASH)
        if game not in GAMES:
            raise self.top_error("game", "expected one of " + ", ".join(map(repr, GAMES))
                                 + f", got {shown(game)}")
        self.game = game
        if "seed" not in self.doc:
            raise self.top_error("seed", "missing; give an integer such as seed = 2026")
        seed = self.doc["seed"]
        if not _is_int(seed):
            raise self.top_error("seed", f"expected an integer, got {shown(seed)}")
        if not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
            raise self.top_error("seed", f"expected an integer from {SEED_RANGE[0]} to "
                                         f"{SEED_RANGE[1]} (64 bits), got {shown(seed)}")
        players = self.players()
        fmt = self.doc.get("format", "round-robin")
        if fmt not in FORMATS:
            raise self.top_error("format", "expected one of " + ", ".join(map(repr, FORMATS))
                                 + f", got {shown(fmt)}")
        unit, games = self.games()
        duplicate = self.doc.get("duplicate", False)
        if not isinstance(duplicate, bool):
            raise self.top_error("duplicate", f"expected true or false, got {shown(duplicate)}")
        time_limit = self.doc.get("time_limit")
        if time_limit is not None and not _in_range(time_limit, *TIME_LIMIT):
            raise self.top_error("time_limit", f"expected a number of seconds above 0, from "
                                               f"{TIME_LIMIT[0]:g} to {TIME_LIMIT[1]:g}, got "
                                               f"{shown(time_limit)}")
        time_control = self.time_control()
        rules = self.rules(players) if game == TRASH else self.no_rules()
        self.sandbox = self.sandbox_defaults()
        bots = self.bots()
        if len(bots) < players:
            raise self.top_error("players", f"a table of {players} needs at least {players} "
                                            f"distinct bots; this file has {len(bots)} "
                                            "(add [[bots]] tables or lower players)")
        gauntlet = self.gauntlet(fmt, bots)
        self.check_size(unit, games, len(bots), players, fmt, duplicate)
        stop = self.stop(len(bots))
        return TournamentConfig(
            path=self.path, name=name, seed=seed, rules=rules, bots=bots, players=players,
            format=fmt, gauntlet=gauntlet, unit=unit, games=games, duplicate=duplicate,
            time_limit=None if time_limit is None else float(time_limit), stop=stop,
            game=game, time_control=time_control)

    def time_control(self) -> TimeControl | None:
        """``time_control = "60+0.5"``: seconds per match (or deal) plus an increment."""
        text = self.doc.get("time_control")
        if text is None:
            return None
        try:
            return TimeControl.parse(text)
        except ValueError as exc:
            raise self.top_error("time_control", str(exc)) from None

    def sandbox_defaults(self) -> dict[str, Any] | None:
        """The ``[sandbox]`` table: None when off, else the settings every command and
        isolated bot gets (``read_only`` made absolute against the file's folder)."""
        table = self.doc.get("sandbox", {})
        if not isinstance(table, dict):
            raise self.top_error("sandbox", "expected a table such as [sandbox] enabled = "
                                            f"true, got {shown(table)}")
        for key in table:
            if key not in SANDBOX_KEYS:
                raise self.error(f"sandbox.{key_text(key)}", "unknown key; known keys are "
                                 + ", ".join(SANDBOX_KEYS), key, "sandbox")
        enabled = table.get("enabled", False)
        if not isinstance(enabled, bool):
            raise self.error("sandbox.enabled", f"expected true or false, got {shown(enabled)}",
                             "enabled", "sandbox")
        settings = {key: value for key, value in table.items() if key != "enabled"}
        paths = settings.get("read_only", [])
        if isinstance(paths, list) and all(isinstance(p, str) and p for p in paths):
            settings["read_only"] = [_absolute_path(p, self.path.parent) for p in paths]
        try:
            read_sandbox(settings, "sandbox")
        except ValueError as exc:
            text = str(exc).partition(": ")[2]  # "sandbox.KEY must be ..."
            key = next((k for k in settings if text.startswith(f"sandbox.{k} ")), None)
            raise self.error(f"sandbox.{key}" if key else "sandbox",
                             text.partition(" ")[2] if key else text, key, "sandbox") from None
        settings["hidden"] = [str(self.path.resolve())]
        return {"enabled": enabled, **settings}

    def players(self) -> int:
        if self.game == NEIGHBOR:
            low, high = neighbor_engine.MIN_PLAYERS, neighbor_engine.MAX_PLAYERS
            players = self.doc.get("players", NEIGHBOR_DEFAULT_PLAYERS)
        else:
            low, high = MIN_PLAYERS, MAX_PLAYERS
            players = self.doc.get("players", 2)
        if not _is_int(players) or not low <= players <= high:
            raise self.top_error("players", f"expected an integer from {low} to {high} "
                                            f"(the table size), got {shown(players)}")
        return players

    def no_rules(self) -> Rules:
        """Help Your Neighbor has no house rules: a [rules] table is a mistake."""
        if "rules" in self.doc:
            raise self.top_error("rules", "Help Your Neighbor has no house rules; remove the "
                                          "[rules] table (it is for game = \"trash\")")
        return Rules()

    def games(self) -> tuple[str, int]:
        if self.game == NEIGHBOR and "deals" in self.doc:
            raise self.top_error("deals", "Help Your Neighbor has no deals (one match is one "
                                          "game); use matches = N")
        given = [unit for unit in UNITS if unit in self.doc]
        if not given:
            raise self.top_error("matches", "missing; give matches = N (whole matches per "
                                            "pairing) or deals = N (single deals per pairing)")
        if len(given) > 1:
            raise self.top_error("deals", "give either matches = N or deals = N, not both")
        unit = given[0]
        games = self.doc[unit]
        if not _is_int(games) or not 1 <= games <= MAX_BOARDS:
            raise self.top_error(unit, f"expected an integer of at least 1 and at most "
                                       f"{MAX_BOARDS:,} (boards per pairing), got "
                                       f"{shown(games)}")
        return unit, games

    def check_size(self, unit: str, boards: int, bots: int, players: int, fmt: str,
                   duplicate: bool) -> None:
        """The whole schedule (pairings x boards x seat rotations) within MAX_GAMES."""
        pairings = (math.comb(bots - 1, players - 1) if fmt == "gauntlet"
                    else math.comb(bots, players))
        rotations = players if duplicate else 1
        total = pairings * boards * rotations
        if total > MAX_GAMES:
            raise self.top_error(unit, f"the schedule would hold {total:,} games ({pairings:,} "
                                       f"pairings x {boards:,} boards x {rotations} seat "
                                       f"rotations); at most {MAX_GAMES:,}: lower {unit} or "
                                       "players, or list fewer bots")

    def rules(self, players: int) -> Rules:
        table = self.doc.get("rules", {})
        if not isinstance(table, dict):
            raise self.top_error("rules", "expected a table such as [rules] preset = "
                                          f"\"standard\", got {shown(table)}")
        for key, value in table.items():
            if _too_deep(value):
                raise self.error(f"rules.{key_text(key)}", "arrays or tables nested more "
                                 f"than {MAX_DEPTH} levels deep", key, "rules")
        try:
            rules = rules_from_table(table)
            validate_table(rules, players)
        except RulesError as exc:
            message = str(exc)
            label, _, detail = message.partition(": ")
            parts = label.split(".", 1)
            if parts[0] == "players":
                raise self.top_error("players", detail) from None
            key = parts[1] if len(parts) == 2 else None
            if isinstance(table, dict) and key is not None:
                named = [k for k in table if key_text(str(k)) == key]
                if named:
                    raise self.error(label, detail, named[0], "rules") from None
                if "preset" in table:  # the value came from the preset
                    raise self.error(label, detail, "preset", "rules") from None
            raise self.error(label, detail, None, "rules") from None
        return rules

    # --- bots ----------------------------------------------------------------------------
    def bots(self) -> tuple[BotEntry, ...]:
        if "bots" not in self.doc:
            raise self.top_error("bots", "missing; add one [[bots]] table per bot, e.g. "
                                         "[[bots]] bot = \"greedy\"")
        items = self.doc["bots"]
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise self.top_error("bots", "expected [[bots]] tables (one per bot), got "
                                         f"{shown(items)}")
        if len(items) > MAX_BOTS:
            raise self.top_error("bots", f"at most {MAX_BOTS} bots; this file has "
                                         f"{len(items)}")
        entries: list[BotEntry] = []
        for number, item in enumerate(items, start=1):
            entry = self.bot(number, item)
            earlier = [i for i, e in enumerate(entries, start=1) if e.name == entry.name]
            if earlier:
                raise self.bot_error(number, "name" if "name" in item else "bot",
                                     f"{shown(entry.name)} is already the name of "
                                     f"bots[{earlier[0]}]; give each bot a unique "
                                     "name = \"...\"")
            entries.append(entry)
        return tuple(entries)

    def bot_error(self, number: int, key: str | None, message: str) -> TournamentError:
        label = f"bots[{number}]" + (f".{key_text(key)}" if key is not None else "")
        return self.error(label, message, key, "bots", number - 1)

    def bot(self, number: int, item: dict[str, Any]) -> BotEntry:
        for key, value in item.items():
            if _too_deep(value):
                raise self.bot_error(number, key, "arrays or tables nested more than "
                                     f"{MAX_DEPTH} levels deep")
        for key in ("name", "bot"):
            value = item.get(key)
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise self.bot_error(number, key,
                                     f"expected a non-empty string, got {shown(value)}")
        own_seed = item.get("seed")
        if _is_int(own_seed) and not SEED_RANGE[0] <= own_seed <= SEED_RANGE[1]:
            raise self.bot_error(number, "seed", f"expected an integer from {SEED_RANGE[0]} "
                                 f"to {SEED_RANGE[1]} (64 bits), got {shown(own_seed)}")
        reference = item.get("bot", item.get("name"))
        wanted = item.get("sandbox")
        if wanted is not None and (self.game == NEIGHBOR or not isinstance(wanted, bool)):
            raise self.bot_error(number, "sandbox", "expected true or false, got "
                                 f"{shown(wanted)}" if self.game != NEIGHBOR else
                                 "Help Your Neighbor bots are built in and need no sandbox")
        if self.game != NEIGHBOR and wants_process(item, reference):
            return self.process_bot(number, item, reference)
        if reference is None:
            raise self.bot_error(number, "bot", "missing; say which bot with bot = \"NAME\" "
                                 "(a registry name, package.module:Class or a .py file)")
        name = item.get("name", reference)
        if self.game == NEIGHBOR:
            return self.neighbor_bot(number, item, name, reference)
        spec = {"bot": resolve_bot_reference(reference, self.path.parent)}
        spec.update((k, v) for k, v in item.items() if k not in ("name", "bot"))
        try:
            make_bot(spec)
        except BotError as exc:
            message = str(exc)
            key = next((k for k in item if k not in ("name", "bot") and (
                f": {k} must be" in message or f"parameter {k!r}" in message)), None)
            raise self.bot_error(number, key or ("bot" if "bot" in item else "name"),
                                 message) from None
        except Exception as exc:  # a user's bot may raise anything while it starts
            raise self.bot_error(number, "bot" if "bot" in item else "name",
                                 f"bot {reference} failed to start: "
                                 f"{type(exc).__name__}: {exc}") from None
        return BotEntry(name, spec)

    def process_bot(self, number: int, item: dict[str, Any], reference: Any) -> BotEntry:
        """A command, or a Python bot isolated in its own process (bot_processes.py)."""
        resolved = (resolve_bot_reference(reference, self.path.parent)
                    if isinstance(reference, str) and "command" not in item else None)
        try:
            spec = process_spec(item, resolved, self.path.parent, self.sandbox)
        except BotError as exc:
            message = str(exc)
            key = next((k for k in item if k not in ("name", "bot") and (
                f": {k} must be" in message or f"parameter {k!r}" in message)), None)
            raise self.bot_error(number, key or ("command" if "command" in item else "bot"
                                                 if "bot" in item else "name"),
                                 message) from None
        command = item.get("command")
        label = item.get("name") or (reference if "command" not in item
                                     else Path(str(command[0])).name)
        return BotEntry(str(label), spec)

    def neighbor_bot(self, number: int, item: dict[str, Any], name: str,
                     reference: str) -> BotEntry:
        """A Help Your Neighbor bot: a name from NEIGHBOR_BOTS and an optional seed."""
        key = "bot" if "bot" in item else "name"
        if reference not in NEIGHBOR_BOTS:
            raise self.bot_error(number, key, f"unknown Help Your Neighbor bot {shown(reference)}; "
                                 "known bots are " + ", ".join(NEIGHBOR_BOTS))
        spec = {"bot": reference}
        spec.update((k, v) for k, v in item.items() if k not in ("name", "bot"))
        try:
            neighbor_bot_from_spec(spec)
        except BotError as exc:
            bad = next((k for k in item if k not in ("name", "bot")), key)
            raise self.bot_error(number, bad, str(exc)) from None
        except Exception as exc:  # whatever the bot does with a value it did not expect
            raise self.bot_error(number, key, f"bot {reference} failed to start: "
                                 f"{type(exc).__name__}: {exc}") from None
        return BotEntry(name, spec)

    def gauntlet(self, fmt: str, bots: tuple[BotEntry, ...]) -> str | None:
        gauntlet = self.doc.get("gauntlet")
        if fmt != "gauntlet":
            if gauntlet is not None:
                raise self.top_error("gauntlet", "only with format = \"gauntlet\" (this is a "
                                                 f"{fmt})")
            return None
        names = [bot.name for bot in bots]
        if gauntlet is None:
            raise self.top_error("gauntlet", "missing; with format = \"gauntlet\" say which bot "
                                             "faces the rest, one of " + ", ".join(names))
        if gauntlet not in names:
            raise self.top_error("gauntlet", f"no bot is named {shown(gauntlet)}; expected one of "
                                 + ", ".join(names))
        return gauntlet

    # --- stop rule -----------------------------------------------------------------------
    def stop(self, bot_count: int) -> StopRule:
        table = self.doc.get("stop", {})
        if not isinstance(table, dict):
            raise self.top_error("stop", f"expected a [stop] table, got {shown(table)}")

        def fail(key: str | None, message: str) -> TournamentError:
            label = "stop" + (f".{key_text(key)}" if key is not None else "")
            return self.error(label, message, key, "stop")

        for key in table:
            if key not in STOP_KEYS:
                raise fail(key, "unknown key; known keys are " + ", ".join(STOP_KEYS))
        kind = table.get("rule", "fixed")
        if kind not in STOP_RULES:
            raise fail("rule", "expected one of " + ", ".join(map(repr, STOP_RULES))
                       + f", got {shown(kind)}")
        default = StopRule()
        values: dict[str, float] = {}
        for key in ("elo0", "elo1", "alpha", "beta"):
            value = table.get(key, getattr(default, key))
            if not _is_number(value):
                raise fail(key, f"expected a number, got {shown(value)}")
            if key.startswith("elo") and not _in_range(value, *ELO_RANGE):
                raise fail(key, f"expected a number of Elo from {ELO_RANGE[0]:g} to "
                                f"{ELO_RANGE[1]:g}, got {shown(value)}")
            if key in ("alpha", "beta") and not (MIN_ERROR_RATE <= value < 0.5):
                raise fail(key, f"expected a number between 0 and 0.5: from "
                                f"{MIN_ERROR_RATE:g} to below 0.5, got {shown(value)}")
            values[key] = float(value)
        if values["elo1"] - values["elo0"] < MIN_ELO_GAP:
            raise fail("elo1", f"must be above elo0 ({values['elo0']:g}) by at least "
                               f"{MIN_ELO_GAP:g}; got {values['elo1']:g}")
        if kind == "sprt" and bot_count != 2:
            raise fail("rule", f"\"sprt\" compares exactly 2 bots; this file has {bot_count} "
                               "(use rule = \"fixed\")")
        return StopRule(kind, **values)


def load_tournament(path: str | Path) -> TournamentConfig:
    """The validated tournament of a TOML file; TournamentError (one line) on any problem."""
    path = Path(path)
    text, document = read_toml(path, TournamentError)
    return _Loader(path, text, document).load()


# --- fingerprint ---------------------------------------------------------------------------

def _canonical_spec(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A bot spec as it affects play: a file bot is named by its code's SHA-256, not its
    path, so moving the folder keeps the fingerprint and editing the bot changes it."""
    spec = canonical_process_spec(spec)  # where and how a bot process runs: left out
    canonical = dict(spec)
    reference = str(canonical.get("bot", ""))
    if _is_path_reference(reference):
        target, colon, class_name = reference.partition(":")
        try:
            digest = hashlib.sha256(Path(target).read_bytes()).hexdigest()
        except OSError:
            digest = "unreadable:" + target
        canonical["bot"] = f"file:{digest}{colon}{class_name}"
    return canonical


def canonical_config(config: TournamentConfig) -> dict[str, Any]:
    """Everything in ``config`` that affects results, as JSON-ready data.

    Left out: the tournament ``name`` and the file's ``path`` (labels and locations only).
    Kept: the bots' labels (records and tables name bots by them), their order (it fixes
    the schedule's bot indices), the game count and the stop rule (they fix which games
    exist). SPRT bounds count only when ``rule = "sprt"``. A Help Your Neighbor
    tournament adds ``game`` and has no rules; a Trash one leaves ``game`` out, so its
    fingerprint is what it was before there was a second game.
    """
    stop: dict[str, Any] = {"rule": config.stop.kind}
    if config.stop.kind == "sprt":
        stop.update(elo0=config.stop.elo0, elo1=config.stop.elo1, alpha=config.stop.alpha,
                    beta=config.stop.beta)
    canonical: dict[str, Any] = {
        "fingerprint_version": FINGERPRINT_VERSION,
        "seed": config.seed,
        "rules": config.rules.to_dict(),
        "players": config.players,
        "format": config.format,
        "gauntlet": config.gauntlet,
        "unit": config.unit,
        "games": config.games,
        "duplicate": config.duplicate,
        "time_limit": config.time_limit,
        "stop": stop,
        "bots": [{"name": bot.name, "spec": _canonical_spec(bot.spec)} for bot in config.bots],
    }
    if config.game != TRASH:
        canonical["game"] = config.game
        del canonical["rules"]
    if config.time_control is not None:  # absent before clocks: old fingerprints stay
        canonical["time_control"] = str(config.time_control)
    return canonical


def config_fingerprint(config: TournamentConfig) -> str:
    """SHA-256 (hex) of the canonical JSON of ``canonical_config(config)``."""
    text = json.dumps(canonical_config(config), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()
