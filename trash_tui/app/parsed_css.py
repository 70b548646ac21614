"""Textual CSS parsed once a process: stylesheets with the same variables share it.

Textual keeps the rules it parsed from a CSS source in the stylesheet that parsed them,
and makes a new stylesheet, which parses every source again, whenever the theme changes or
a screen brings CSS of its own. An app over SSH parsed the same thirty sources (10 ms of a
first screen's 50) in every session. ``share`` puts one cache for the whole process in
front of ``Stylesheet._parse_rules``: keyed by the stylesheet's variables (the theme's
colours) as well as by the source, so a stylesheet never gets rules parsed with another
theme's colours. The parsed rules are shared between stylesheets as ``Stylesheet.copy``
already shares them (Textual never changes a parsed rule).

``prepare`` parses, for one app's variables, the default CSS of every widget class loaded
and the app's own CSS: the SSH fork server does it once, and every session it forks finds
the rules parsed.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

#: Sources kept parsed, for all themes together (the app has about fifty a theme).
MAX_PARSED = 1024

_parsed: dict[tuple[Any, ...], list[Any]] = {}
_last_variables: list[Any] = [None, ()]  # the variables last keyed, and their key


def _variables_key(variables: dict[str, str]) -> tuple[tuple[str, str], ...]:
    if _last_variables[0] is not variables:
        _last_variables[:] = [variables, tuple(sorted(variables.items()))]
    key: tuple[tuple[str, str], ...] = _last_variables[1]
    return key


def share() -> None:
    """Let every stylesheet of this process share what any of them parsed (once)."""
    original = Stylesheet._parse_rules
    if getattr(original, "shared_by_trash_tui", False):
        return

    def parse_rules(self: Stylesheet, css: str, read_from: Any,
                    is_default_rules: bool = False, tie_breaker: int = 0,
                    scope: str = "") -> list[Any]:
        key = (_variables_key(self._variables), css, read_from, is_default_rules,
               tie_breaker, scope)
        rules = _parsed.get(key)
        if rules is None:
            rules = original(self, css, read_from, is_default_rules, tie_breaker, scope)
            if len(_parsed) >= MAX_PARSED:
                del _parsed[next(iter(_parsed))]
            _parsed[key] = rules
        return rules

    parse_rules.shared_by_trash_tui = True  # type: ignore[attr-defined]
    Stylesheet._parse_rules = parse_rules  # type: ignore[method-assign]


def _widget_classes() -> Iterator[type[DOMNode]]:
    seen: set[type[DOMNode]] = set()
    stack: list[type[DOMNode]] = [DOMNode]
    while stack:
        cls = stack.pop()
        if cls not in seen:
            seen.add(cls)
            yield cls
            stack.extend(cls.__subclasses__())


def prepare(app: App[Any]) -> int:
    """Parse, with ``app``'s variables, the default CSS of every widget class loaded and
    the app's own CSS, as the app would when it first shows them; how many sources."""
    share()
    stylesheet = Stylesheet(variables=app.get_css_variables())
    count = 0
    for cls in _widget_classes():
        # Textual's own reading of a class's default CSS (its location, order and scope)
        bases = SimpleNamespace(_node_bases=cls._css_bases(cls))
        for read_from, css, tie_breaker, scope in DOMNode._get_default_css(bases):  # type: ignore[arg-type]
            with contextlib.suppress(Exception):  # the app reports it when it uses it
                stylesheet._parse_rules(css, read_from, True, tie_breaker, scope)
                count += 1
    if app.CSS:
        try:
            path = inspect.getfile(type(app))
        except (TypeError, OSError):
            path = ""
        stylesheet._parse_rules(app.CSS, (path, f"{type(app).__name__}.CSS"))
        count += 1
    return count
