"""Strips make their caches only when first used (issue 14): a line of the screen that is
never cropped or styled again carries no empty caches, and the lines drawn are the same
as Textual's (every snapshot test draws with lean strips too, since ``create_app`` makes
strips lean)."""

from __future__ import annotations

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.cache import FIFOCache
from textual.strip import Strip

from trash_tui.app import lean_strips
from trash_tui.app.app import create_app

RED = Style(color="red")


def cache_in_slot(strip: Strip, name: str) -> FIFOCache | None:
    """What the strip holds in a cache's slot, without making the cache."""
    try:
        return Strip.__dict__[name].slot.__get__(strip, Strip)
    except AttributeError:
        return None


def test_a_new_strip_has_no_caches_until_it_is_used() -> None:
    assert lean_strips.share()
    strip = Strip([Segment("hello "), Segment("world", RED)])
    assert all(cache_in_slot(strip, name) is None for name in lean_strips.CACHE_SIZES)
    strip.crop(0, 5)
    crop_cache = cache_in_slot(strip, "_crop_cache")
    assert isinstance(crop_cache, FIFOCache) and len(crop_cache) == 1
    assert crop_cache._maxsize == lean_strips.CACHE_SIZES["_crop_cache"]
    assert cache_in_slot(strip, "_divide_cache") is None  # only what was used


def test_lean_strips_crop_divide_and_style_as_textual_does() -> None:
    lean_strips.share()
    strip = Strip([Segment("hello "), Segment("world", RED)])
    assert strip.cell_length == 11 and strip.text == "hello world"
    assert strip.crop(3, 8).text == "lo wo"
    assert strip.crop(3, 8) is strip.crop(3, 8)  # cached, as Textual caches it
    assert [part.text for part in strip.divide([4, 11])] == ["hell", "o world"]
    assert strip.crop(6, 11).text == "world"
    assert next(iter(strip.crop(6, 11))).style == RED
    bold = Style(bold=True)
    assert all(segment.style is not None and segment.style.bold
               for segment in strip.apply_style(bold))
    assert strip.adjust_cell_length(14).text == "hello world   "
    assert strip.extend_cell_length(13).cell_length == 13
    assert Strip.join([strip, Strip([Segment("!")])]).text == "hello world!"


def test_the_app_makes_strips_lean() -> None:
    create_app()
    assert Strip.__init__ is lean_strips.lean_init


def test_a_strip_unlike_the_one_it_knows_is_left_as_textual_made_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """If Textual's ``Strip`` makes other caches than those this knows, nothing changes."""
    monkeypatch.setattr(Strip, "__init__", Strip.__init__)  # restored after the test
    monkeypatch.setattr(lean_strips, "CACHE_SIZES", {**lean_strips.CACHE_SIZES,
                                                     "_crop_cache": 99})
    original = lean_strips.lean_init

    def textual_init(self: Strip, segments, cell_length=None) -> None:  # type: ignore[no-untyped-def]
        original(self, segments, cell_length)
        for name, size in {**lean_strips.CACHE_SIZES, "_crop_cache": 16}.items():
            Strip.__dict__[name].__set__(self, FIFOCache(size))

    monkeypatch.setattr(Strip, "__init__", textual_init)
    assert lean_strips.share() is False
    assert Strip.__init__ is textual_init
