"""The app's CSS is parsed once a process and theme (issue 14): a session forked from the
SSH fork server finds every source its first screen uses parsed, and rules parsed with one
theme's colours are never given to a stylesheet of another theme."""

from __future__ import annotations

import importlib
import pkgutil

from textual.css.stylesheet import Stylesheet

import trash_tui.app
from trash_tui.app import parsed_css
from trash_tui.app.app import create_app
from trash_tui.settings import Settings

ACCENT_CSS = "Static { color: $accent; }"
WHERE = ("tests/test_parsed_css.py", "ACCENT_CSS")


def import_every_screen() -> None:
    """As the fork server does: every module of the app, so every widget class is known."""
    for module in pkgutil.walk_packages(trash_tui.app.__path__, "trash_tui.app."):
        importlib.import_module(module.name)


def test_rules_parsed_with_one_theme_are_not_given_to_another() -> None:
    parsed_css.share()
    red = Stylesheet(variables={"accent": "#ff0000"})._parse_rules(ACCENT_CSS, WHERE)
    green = Stylesheet(variables={"accent": "#00ff00"})._parse_rules(ACCENT_CSS, WHERE)
    assert red[0].styles.color != green[0].styles.color
    again = Stylesheet(variables={"accent": "#ff0000"})._parse_rules(ACCENT_CSS, WHERE)
    assert again is red  # a new stylesheet with the same colours: parsed once


async def test_a_session_finds_the_css_of_its_first_screen_parsed() -> None:
    import_every_screen()
    sources = parsed_css.prepare(create_app(settings=Settings(), remote=True))
    assert sources > 50
    parsed = set(parsed_css._parsed)
    app = create_app(settings=Settings(), owner="key:newcomer", remote=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert app.screen.query("*")  # the name prompt is up, drawn with those rules
    assert set(parsed_css._parsed) == parsed  # no source parsed again


def test_the_cache_is_bounded() -> None:
    parsed_css.share()
    kept = dict(parsed_css._parsed)
    try:
        for number in range(parsed_css.MAX_PARSED + 10):
            Stylesheet(variables={"accent": f"#{number:06x}"})._parse_rules(ACCENT_CSS, WHERE)
        assert len(parsed_css._parsed) == parsed_css.MAX_PARSED
    finally:
        parsed_css._parsed.clear()
        parsed_css._parsed.update(kept)
