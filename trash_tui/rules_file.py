"""Loading rules from TOML: a ``[rules]`` table with a ``preset`` key plus overrides.

Errors name the key, what is allowed and, where it can be found, the line in the file.
``check_rules_file`` finds every problem of a file (``trash rules check``, which prints
the first ``SHOWN_PROBLEMS`` and a count), in time linear in the file: the lines of the
keys are found in one pass, and only the first unknown key lists the known options;
``load_rules_file`` raises the first. ``load_rules_arg`` is what the CLI's
``--rules NAME|FILE`` uses.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from trash_tui.presets import DEFAULT_PRESET, PRESETS, preset_rules
from trash_tui.rules import (
    OPTION_NAMES,
    SPEC_BY_NAME,
    Rules,
    RulesError,
    key_text,
    shown_value,
    unknown_option_message,
)
from trash_tui.text import visible
from trash_tui.toml_file import read_toml

#: A problem of a [rules] table: the key of the table it is about (None: the table), and
#: the message (starting ``rules.KEY:``).
Problem = tuple[str | None, str]
#: How many problems ``trash rules check`` prints before it counts the rest.
SHOWN_PROBLEMS = 20


def table_problems(table: Any) -> tuple[Rules | None, list[Problem]]:
    """The rules a parsed ``[rules]`` table stands for and every problem with it (the
    rules are None when there is a problem). Each option is checked on its own; the
    combination (e.g. target_size below start_size) only when every option is good."""
    if not isinstance(table, dict):
        return None, [(None, "rules: expected a table such as [rules] preset = \"standard\", "
                             f"got {shown_value(table)}")]
    problems: list[Problem] = []
    data = dict(table)
    preset = data.pop("preset", DEFAULT_PRESET)
    base = Rules()
    if not isinstance(preset, str):
        problems.append(("preset", f"rules.preset: expected a preset name, got "
                                   f"{shown_value(preset)}"))
    else:
        try:
            base = preset_rules(preset)
        except RulesError as exc:
            problems.append(("preset", str(exc)))
    listed = False  # the known options are listed once, with the first unknown key
    for key, value in data.items():
        if key not in OPTION_NAMES:
            problems.append((key, f"rules.{key_text(key)}: unknown option" if listed
                             else unknown_option_message(key, with_preset=True)))
            listed = True
            continue
        try:
            SPEC_BY_NAME[key].check(value)
        except RulesError as exc:
            problems.append((key, str(exc)))
    if problems:
        return None, problems
    try:
        return base.with_options(**data), []
    except RulesError as exc:
        message = str(exc)
        named = [k for k in data if message.startswith(f"rules.{key_text(k)}:")]
        return None, [(named[0] if named else "preset" if "preset" in table else None,
                       message)]


def rules_from_table(table: Any) -> Rules:
    """Rules from a parsed ``[rules]`` table (a mapping); RulesError on the first problem."""
    rules, problems = table_problems(table)
    if rules is None:
        raise RulesError(problems[0][1])
    return rules


_HEADER = re.compile(r"""^\[\s*(?:rules|"rules"|'rules')\s*\]\s*(?:#.*)?$""")


_KEY = re.compile(r"""^(?:(?P<bare>[A-Za-z0-9_-]+)|"(?P<basic>[^"\\]*)"|'(?P<literal>[^']*)')"""
                  r"""\s*(?P<rest>[.=])""")
_DOTTED = re.compile(r"""^(?:rules|"rules"|'rules')\s*\.\s*""")


def _line_key(line: str) -> tuple[str, bool] | None:
    """The key a stripped line ``key = ...`` or ``rules.key = ...`` sets, and whether it
    was dotted under ``rules``; None for any other line."""
    dotted = _DOTTED.match(line)
    rest = line[dotted.end():] if dotted else line
    match = _KEY.match(rest)
    if match is None or match["rest"] != "=":
        return None
    key = match["bare"] if match["bare"] is not None else (
        match["basic"] if match["basic"] is not None else match["literal"])
    return key, dotted is not None


def _key_lines(text: str) -> dict[str, int]:
    """The line number of each ``key = ...`` of the [rules] table of ``text`` (also as a
    dotted ``rules.key = ...`` before any table header), in one pass: the first line of
    each key."""
    lines: dict[str, int] = {}
    in_rules = False
    top_level = True
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            in_rules = bool(_HEADER.match(stripped))
            top_level = False
            continue
        found = _line_key(stripped)
        if found is None:
            continue
        key, dotted = found
        if (in_rules and not dotted) or (top_level and dotted):
            lines.setdefault(key, number)
    return lines


def check_rules_file(path: str | Path) -> tuple[Rules | None, list[str]]:
    """The rules of the ``[rules]`` table of a TOML file (missing table: standard rules)
    and every problem with the file, one line each (``path[:LINE]: ...``); the rules are
    None when there is a problem."""
    path = Path(path)
    try:
        text, document = read_toml(path, RulesError)
    except RulesError as exc:
        return None, [str(exc)]
    rules, problems = table_problems(document.get("rules", {}))
    lines = _key_lines(text) if problems else {}
    located = []
    for key, message in problems:
        line = lines.get(key) if key is not None else None
        where = f"{visible(path)}:{line}" if line else visible(path)
        located.append(f"{where}: {message}")
    return rules, located


def load_rules_file(path: str | Path) -> Rules:
    """Rules from the ``[rules]`` table of a TOML file. Missing table: standard rules.
    RulesError with the first problem (see ``check_rules_file``)."""
    rules, problems = check_rules_file(path)
    if rules is None:
        raise RulesError(problems[0])
    return rules


def load_rules_arg(value: str) -> Rules:
    """Rules from a CLI argument: a preset name, or the path of a TOML file."""
    if value in PRESETS:
        return preset_rules(value)
    allowed = f"give a preset ({', '.join(PRESETS)}) or the path of a TOML file"
    if not value.strip():
        raise RulesError(f"--rules: the name is empty; {allowed}")
    if value.endswith(".toml") or Path(value).exists():
        return load_rules_file(value)
    raise RulesError(f"--rules: {shown_value(value)} is neither a preset nor a TOML file; "
                     f"{allowed}")
