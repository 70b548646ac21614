"""Reading a TOML file for a loader that reports problems as one located line.

``read_toml`` returns the file's text (loaders use it to find the line of a key) and its
parsed document. Whatever is wrong with the file raises the caller's error class with
``path[:LINE]: what is wrong`` on one line, never anything else: a file that cannot be
read (or is a directory, or is absurdly large), bytes that are not UTF-8, invalid TOML,
arrays or tables nested deeper than ``MAX_NESTING``, an integer too long to convert, or
any other failure of the parser. A UTF-8 byte-order mark at the start is skipped.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from trash_tui.text import visible

#: Deepest nesting of arrays and inline tables accepted (tomllib recurses once per level
#: and would hit Python's recursion limit at a depth that depends on the caller's stack).
MAX_NESTING = 100
#: Largest file read (a settings, rules, tournament or server file is a few kilobytes).
MAX_BYTES = 4 * 1024 * 1024
BOM = "\ufeff"

_TOKENS = re.compile(r"""\"\"\"|'''|"|'|#|\n|[\[\]{}]""")
_STRING_ENDS = {
    '"""': re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""(?!")|(?:[^"\\]|\\.|"(?!""))*"{4,5}',
                      re.DOTALL),
    "'''": re.compile(r"(?:[^']|'(?!''))*'''(?!')|(?:[^']|'(?!''))*'{4,5}", re.DOTALL),
    '"': re.compile(r'(?:[^"\\\n]|\\.)*"'),
    "'": re.compile(r"[^'\n]*'"),
}


def nesting_line(text: str, limit: int = MAX_NESTING) -> int | None:
    """The line where arrays or inline tables first nest deeper than ``limit`` levels
    (strings and comments skipped), or None if they never do."""
    depth, line, position = 0, 1, 0
    while found := _TOKENS.search(text, position):
        token = found.group()
        line += text.count("\n", position, found.start())
        position = found.end()
        if token == "\n":
            line += 1
        elif token == "#":
            end = text.find("\n", position)
            position = len(text) if end < 0 else end
        elif token in _STRING_ENDS:
            closing = _STRING_ENDS[token].match(text, position)
            end = closing.end() if closing else len(text)
            line += text.count("\n", position, end)
            position = end
        elif token in "[{":
            depth += 1
            if depth > limit:
                return line
        else:
            depth = max(0, depth - 1)
    return None


def _long_integer_line(text: str) -> int | None:
    """The first line holding a run of more digits than Python converts to an integer."""
    limit = sys.get_int_max_str_digits() or 0
    for number, row in enumerate(text.splitlines(), start=1):
        for run in re.findall(rf"[0-9A-Fa-f_]{{{limit + 1},}}", row):
            if len(run.replace("_", "")) > limit:
                return number
    return None


def _parse(text: str) -> tuple[dict[str, Any] | None, int | None, str]:
    """The document, or None with the line (if known) and what is wrong."""
    deep = nesting_line(text)
    if deep is not None:
        return None, deep, f"arrays or tables nested more than {MAX_NESTING} levels deep"
    try:
        return tomllib.loads(text), None, ""
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        return None, int(found.group(1)) if found else None, str(exc)
    except RecursionError:
        return None, nesting_line(text, 0), "arrays or tables nested too deeply"
    except ValueError as exc:  # an integer of more than 4300 digits, or the parser's own
        line = _long_integer_line(text)
        if line is not None:
            limit = sys.get_int_max_str_digits()
            return None, line, f"an integer too long to read (more than {limit} digits)"
        return None, None, str(exc)
    except MemoryError:
        raise
    except Exception as exc:  # the parser failing in a way of its own: still the file's fault
        return None, None, f"{type(exc).__name__}: {exc}"


def read_toml(path: Path, error: type[Exception]) -> tuple[str, dict[str, Any]]:
    """The text and the document of the TOML file ``path``; ``error`` on any problem."""
    shown = visible(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except IsADirectoryError:
        raise error(f"{shown}: is a directory, not a TOML file") from None
    except OSError as exc:
        raise error(" ".join(f"{shown}: cannot read: {exc.strerror or exc}".split())) from None
    except ValueError as exc:  # a path with a NUL character
        raise error(f"{shown}: cannot read: {exc}") from None
    if len(data) > MAX_BYTES:
        raise error(f"{shown}: too large for a TOML file here (over {MAX_BYTES // 1024**2} "
                    "MiB)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise error(f"{shown}:{line}: not UTF-8 text (byte {exc.start}); TOML files are "
                    "UTF-8") from None
    text = text.removeprefix(BOM)
    document, line, problem = _parse(text)
    if document is None:
        where = f"{shown}:{line}" if line else shown
        raise error(" ".join(f"{where}: not valid TOML: {visible(problem)}".split()))
    return text, document
