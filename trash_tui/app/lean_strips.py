"""Textual's strips without their empty caches, made only when first used.

A ``Strip`` is one line of the screen as Textual draws it. Each one made makes seven small
caches on the spot (for its crops, divisions, styles, filters, ...), about 1 KB together
and most never used: a session over SSH keeps some 3,000 strips (in its widgets' caches
and in other strips' caches), so about 3 MB of its memory were empty caches, and making
them was a good part of the cost of every strip drawn.

``share()`` changes ``Strip`` once a process so that each cache is made the first time it
is asked for, in the same slot, with the same size: a strip that is never cropped has no
crop cache. It checks first that Textual's ``Strip`` makes exactly the caches this module
knows (their names and sizes); if a later Textual makes others, it leaves ``Strip`` as it
is. This changes a private part of Textual (pinned to ``>=8.2,<9``); the tests check the
strips it makes draw and crop as Textual's own.
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


def textual_caches() -> dict[str, int]:
    """The caches (name: size) a strip made by ``Strip.__init__`` has now (``share``
    compares them with ``CACHE_SIZES`` before it changes anything)."""
    strip = Strip([])
    caches: dict[str, int] = {}
    for name in Strip.__slots__:
        value = getattr(strip, name, None)
        if isinstance(value, FIFOCache):
            caches[name] = value._maxsize
    return caches


def share() -> bool:
    """Make ``Strip``'s caches when first used, from now on in this process (once);
    whether strips are lean (False: Textual's ``Strip`` is not the one this knows)."""
    if Strip.__init__ is lean_init:
        return True
    if textual_caches() != CACHE_SIZES:
        return False
    for name, maxsize in CACHE_SIZES.items():
        setattr(Strip, name, LazyCache(Strip.__dict__[name], maxsize))
    Strip.__init__ = lean_init  # type: ignore[method-assign]
    return True
