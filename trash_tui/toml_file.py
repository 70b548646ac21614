"""Reading a TOML file for a loader that reports problems as one located line.

``read_toml`` returns the file's text (loaders use it to find the line of a key) and its
parsed document; an unreadable file, bytes that are not UTF-8 or invalid TOML raise the
caller's error class with ``path[:LINE]: what is wrong``.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any


def read_toml(path: Path, error: type[Exception]) -> tuple[str, dict[str, Any]]:
    """The text and the document of the TOML file ``path``; ``error`` on any problem."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise error(" ".join(f"{path}: cannot read: {exc.strerror or exc}".split())) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise error(f"{path}:{line}: not UTF-8 text (byte {exc.start}); TOML files are "
                    "UTF-8") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        where = f"{path}:{found.group(1)}" if found else str(path)
        raise error(" ".join(f"{where}: not valid TOML: {exc}".split())) from None
    return text, document
