"""Loading rules from TOML: a ``[rules]`` table with a ``preset`` key plus overrides.

Errors name the key, what is allowed and, where it can be found, the line in the file.
``load_rules_arg`` is what the CLI's ``--rules NAME|FILE`` uses.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from trash_tui.presets import DEFAULT_PRESET, PRESETS, preset_rules
from trash_tui.rules import OPTION_NAMES, Rules, RulesError, key_text, unknown_option_message


def rules_from_table(table: Any) -> Rules:
    """Rules from a parsed ``[rules]`` table (a mapping); RulesError on any problem."""
    if not isinstance(table, dict):
        raise RulesError("rules: expected a table such as [rules] preset = \"standard\"")
    data = dict(table)
    preset = data.pop("preset", DEFAULT_PRESET)
    if not isinstance(preset, str):
        raise RulesError(f"rules.preset: expected a preset name, got {preset!r}")
    base = preset_rules(preset)
    for key in data:
        if key not in OPTION_NAMES:
            raise RulesError(unknown_option_message(key, with_preset=True))
    return base.with_options(**data)


_HEADER = re.compile(r"""^\[\s*(?:rules|"rules"|'rules')\s*\]\s*(?:#.*)?$""")


def _key_pattern(key: str, dotted: bool) -> re.Pattern[str]:
    name = rf"""(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')"""
    if dotted:
        name = rf"""(?:rules|"rules"|'rules')\s*\.\s*{name}"""
    return re.compile(rf"^{name}\s*=")


def _key_line(text: str, key: str) -> int | None:
    """The line number of ``key = ...`` in the [rules] table of ``text`` (also as a dotted
    ``rules.key = ...`` before any table header), if it can be found."""
    in_rules = False
    top_level = True
    plain, dotted = _key_pattern(key, False), _key_pattern(key, True)
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            in_rules = bool(_HEADER.match(stripped))
            top_level = False
            continue
        if (in_rules and plain.match(stripped)) or (top_level and dotted.match(stripped)):
            return number
    return None


def load_rules_file(path: str | Path) -> Rules:
    """Rules from the ``[rules]`` table of a TOML file. Missing table: standard rules."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise RulesError(f"{path}: not UTF-8 text (byte {exc.start}); TOML files are UTF-8"
                         ) from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{path}: not valid TOML: {exc}") from None
    try:
        return rules_from_table(document.get("rules", {}))
    except RulesError as exc:
        message = str(exc)
        table = document.get("rules")
        keys = [str(k) for k in table] if isinstance(table, dict) else []
        named = [k for k in keys if message.startswith(f"rules.{key_text(k)}:")]
        line = _key_line(text, named[0]) if named else None
        where = f"{path}:{line}" if line else str(path)
        raise RulesError(f"{where}: {message}") from None


def load_rules_arg(value: str) -> Rules:
    """Rules from a CLI argument: a preset name, or the path of a TOML file."""
    if value in PRESETS:
        return preset_rules(value)
    if value.endswith(".toml") or Path(value).exists():
        return load_rules_file(value)
    raise RulesError(
        f"--rules: {value!r} is neither a preset ({', '.join(PRESETS)}) nor a TOML file"
    )
