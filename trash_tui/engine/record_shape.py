"""What every record must look like before it is replayed, for both games' records.

A record file is read by people and programs we do not control: it may hold anything
JSON can say. ``parse_json`` refuses what no record holds (nesting deeper than
``MAX_DEPTH``, an integer longer than ``MAX_DIGITS`` digits) with a ``RecordError``
instead of Python's own recursion or integer-size errors; ``check_envelope`` checks the
part both games share (an object, its format, version and checksum); ``need`` and
``need_strings`` check one key's type. ``show`` puts a value from a record in a message:
quoted and escaped (``repr``), and cut short, so a message stays one printable line.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

FORMAT = "trash-tui-record"
VERSION = 1
MAX_DEPTH = 32  # a record is 4 levels deep; its free-form context may add a few
MAX_DIGITS = 100  # the longest integer in a record is a 64-bit seed (20 digits)
SHOWN = 200  # the longest value a message quotes (a result for 8 players fits)


class RecordError(ValueError):
    """A record that cannot be read, or that does not replay to what it says."""


def show(value: Any) -> str:
    """``value`` for a message: its repr (every control character escaped), cut short."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _json_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise RecordError(f"a number with {digits} digits (a record's numbers have at most "
                          f"{MAX_DIGITS})")
    return int(text)


def too_deep(value: Any) -> bool:
    """Whether ``value`` nests lists and objects more than ``MAX_DEPTH`` levels deep."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > MAX_DEPTH:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def parse_json(text: str) -> Any:
    """One JSON value. ``json.JSONDecodeError`` for bad syntax; RecordError (without a
    location) for a value no record holds: too deep, or a number too long."""
    try:
        value = json.loads(text, parse_int=_json_int)
    except RecursionError:
        value = None
    else:
        if not too_deep(value):
            return value
    raise RecordError(f"nested more than {MAX_DEPTH} levels deep")


def checksum(document: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of ``document`` without its checksum."""
    body = {k: v for k, v in document.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def check_envelope(document: Any) -> dict[str, Any]:
    """``document`` if it is a record of this format and version whose checksum matches;
    RecordError otherwise. Nothing else in it is looked at yet."""
    if not isinstance(document, dict) or not all(isinstance(k, str) for k in document):
        raise RecordError("record: expected a JSON object")
    if too_deep(document):
        raise RecordError(f"record: nested more than {MAX_DEPTH} levels deep")
    if document.get("format") != FORMAT:
        raise RecordError(f"record: not a trash-tui record (format "
                          f"{show(document.get('format'))})")
    if document.get("version") != VERSION or isinstance(document.get("version"), bool):
        raise RecordError(f"record: version {show(document.get('version'))} is not supported "
                          f"(this is version {VERSION})")
    recorded = document.get("checksum")
    if not isinstance(recorded, str):
        raise RecordError("record: missing checksum")
    try:
        expected = checksum(document)
    except (TypeError, ValueError, RecursionError):  # not JSON: made by a program, not read
        raise RecordError("record: holds values JSON cannot hold") from None
    if recorded != expected:
        raise RecordError("record: checksum mismatch: the record was changed after it was "
                          "written")
    return document


def has_type(value: Any, kinds: type | tuple[type, ...]) -> bool:
    """``isinstance`` where a bool is not an int (unless ``bool`` is asked for)."""
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    if isinstance(value, bool) and bool not in kinds:
        return False
    return isinstance(value, kinds)


def need(document: dict[str, Any], key: str, kinds: type | tuple[type, ...],
         where: str) -> Any:
    """``document[key]``, which must be there and be one of ``kinds``."""
    if key not in document:
        raise RecordError(f"{where}: missing '{key}'")
    value = document[key]
    if not has_type(value, kinds):
        raise RecordError(f"{where}: '{key}' has the wrong type ({type(value).__name__})")
    return value


def may(document: dict[str, Any], key: str, kinds: type | tuple[type, ...],
        where: str) -> Any:
    """``document[key]`` if it is there (then one of ``kinds``), else None."""
    return need(document, key, kinds, where) if key in document else None


def need_ints(document: dict[str, Any], key: str, where: str,
              count: int | None = None) -> list[int]:
    """``document[key]``: a list of integers (``count`` of them, if given)."""
    values = need(document, key, list, where)
    if not all(has_type(v, int) for v in values) or (count is not None
                                                      and len(values) != count):
        many = f"{count} " if count is not None else ""
        raise RecordError(f"{where}: '{key}' must be a list of {many}integers")
    return values


def need_strings(document: dict[str, Any], key: str, where: str,
                 count: int | None = None) -> list[str]:
    """``document[key]``: a list of strings (``count`` of them, if given)."""
    values = need(document, key, list, where)
    if not all(isinstance(v, str) for v in values) or (count is not None
                                                       and len(values) != count):
        many = f"{count} " if count is not None else ""
        raise RecordError(f"{where}: '{key}' must be a list of {many}strings")
    return values
