"""Textual's screen lines (``Strip``) without their empty caches, made when first used.

A ``Strip`` is one line of the screen as Textual draws it. Each one made makes seven small
caches on the spot (for its crops, divisions, styles, filters, ...), about 1 KB together
and most never used: a session over SSH keeps some 3,000 strips, so about 3 MB of its
memory were empty caches, and making them was a good part of the cost of every strip drawn.

``apply()`` changes ``Strip`` so that each cache is made the first time it is asked for, in
the same slot, with the same size, and ``Strip.__init__`` sets the strip's other slots as
Textual's does. ``fits()`` checks first that Textual's ``Strip`` has exactly the slots this
module writes or makes (a new slot in a later Textual: it does not fit), that its own
``__init__`` makes exactly the caches known here (names and sizes), and that it sets the
other slots to what ``lean_init`` sets.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

#: The caches Textual's ``Strip.__init__`` makes, and their sizes.
CACHE_SIZES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
#: The other slots of a strip, which ``lean_init`` sets itself.
OTHER_SLOTS = ("_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count")

_textual_init = Strip.__init__


class LazyCache:
    """A strip's cache slot that makes the cache (a ``FIFOCache``) when first read."""

    __slots__ = ("maxsize", "slot")

    def __init__(self, slot: Any, maxsize: int) -> None:
        self.slot = slot  # the slot's own descriptor, which holds the cache in the strip
        self.maxsize = maxsize

    def __get__(self, strip: Strip | None, owner: type | None = None) -> Any:
        if strip is None:
            return self
        try:
            return self.slot.__get__(strip, owner)
        except AttributeError:
            cache: FIFOCache[Any, Any] = FIFOCache(self.maxsize)
            self.slot.__set__(strip, cache)
            return cache

    def __set__(self, strip: Strip, value: Any) -> None:
        self.slot.__set__(strip, value)


def lean_init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None
              ) -> None:
    """``Strip.__init__`` without making the caches (``LazyCache`` makes them)."""
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def textual_caches(strip: Strip) -> dict[str, int]:
    """The caches (name: size) ``strip`` holds in its slots."""
    caches: dict[str, int] = {}
    for name in Strip.__slots__:
        value = getattr(strip, name, None)
        if isinstance(value, FIFOCache):
            caches[name] = value._maxsize
    return caches


def is_applied() -> bool:
    return Strip.__init__ is lean_init


def fits() -> bool:
    """Whether Textual's ``Strip`` is the one this module knows (see the module's text)."""
    if is_applied():
        return True
    if set(Strip.__slots__) != set(CACHE_SIZES) | set(OTHER_SLOTS):
        return False
    segments = [Segment("fit"), Segment("s")]
    made_by_textual = Strip(segments, 4)
    if textual_caches(made_by_textual) != CACHE_SIZES:
        return False
    expected: dict[str, Any] = {"_segments": segments, "_cell_length": 4,
                                "_render_cache": None, "_link_ids": None,
                                "_cell_count": None}
    return all(getattr(made_by_textual, name, object()) == value
               for name, value in expected.items())


def apply() -> None:
    """Make ``Strip``'s caches when first used, from now on in this process (once)."""
    if is_applied():
        return
    for name, maxsize in CACHE_SIZES.items():
        setattr(Strip, name, LazyCache(Strip.__dict__[name], maxsize))
    Strip.__init__ = lean_init  # type: ignore[method-assign]


def revert() -> None:
    """Textual's own ``Strip`` again (strips made meanwhile keep working)."""
    if not is_applied():
        return
    Strip.__init__ = _textual_init  # type: ignore[method-assign]
    for name in CACHE_SIZES:
        lazy = Strip.__dict__[name]
        if isinstance(lazy, LazyCache):
            setattr(Strip, name, lazy.slot)
