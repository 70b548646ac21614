"""Textual CSS parsed once a process: stylesheets with the same variables share it.

Textual keeps the rules it parsed from a CSS source in the stylesheet that parsed them,
and makes a new stylesheet, which parses every source again, whenever the theme changes or
a screen brings CSS of its own. An app over SSH parsed the same thirty sources (10 ms of a
first screen's 50) in every session. ``apply`` puts one cache for the whole process in
front of ``Stylesheet._parse_rules``: keyed by the stylesheet's variables (the theme's
colours) as well as by the source, so a stylesheet never gets rules parsed with another
theme's colours. The parsed rules are shared between stylesheets as ``Stylesheet.copy``
already shares them (Textual never changes a parsed rule).

``prepare`` parses, for one app's variables, the default CSS of every widget class loaded
and the app's own CSS: the SSH fork server does it once, and every session it forks finds
the rules parsed. ``fits`` checks the private names used: ``_parse_rules``'s parameters,
the stylesheet's ``_variables``, and the two class methods that read a widget's CSS.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any, cast

from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

#: Sources kept parsed, for all themes together (the app has about fifty a theme).
MAX_PARSED = 1024
#: ``Stylesheet._parse_rules``'s parameters, as this module calls it.
PARSE_RULES_PARAMETERS = ("self", "css", "read_from", "is_default_rules", "tie_breaker",
                          "scope")

_parsed: dict[tuple[Any, ...], list[Any]] = {}
_last_variables: list[Any] = [None, ()]  # the variables last keyed, and their key
_textual_parse_rules: Callable[..., list[Any]] = Stylesheet._parse_rules


def _variables_key(variables: dict[str, str]) -> tuple[tuple[str, str], ...]:
    if _last_variables[0] is not variables:
        _last_variables[:] = [variables, tuple(sorted(variables.items()))]
    key: tuple[tuple[str, str], ...] = _last_variables[1]
    return key


def _shared_parse_rules(self: Stylesheet, css: str, read_from: Any,
                        is_default_rules: bool = False, tie_breaker: int = 0,
                        scope: str = "") -> list[Any]:
    key = (_variables_key(self._variables), css, read_from, is_default_rules, tie_breaker,
           scope)
    rules = _parsed.get(key)
    if rules is None:
        rules = _textual_parse_rules(self, css, read_from, is_default_rules, tie_breaker,
                                     scope)
        if len(_parsed) >= MAX_PARSED:
            del _parsed[next(iter(_parsed))]
        _parsed[key] = rules
    return rules


def is_applied() -> bool:
    return Stylesheet._parse_rules is _shared_parse_rules


def fits() -> bool:
    """Whether the private names this module uses are as it expects."""
    if is_applied():
        return True
    try:
        parameters = tuple(inspect.signature(Stylesheet._parse_rules).parameters)
    except (TypeError, ValueError):
        return False
    return (parameters == PARSE_RULES_PARAMETERS
            and isinstance(getattr(Stylesheet(variables={}), "_variables", None), dict)
            and callable(getattr(DOMNode, "_css_bases", None))
            and callable(getattr(DOMNode, "_get_default_css", None)))


def apply() -> None:
    """Let every stylesheet of this process share what any of them parsed (once)."""
    Stylesheet._parse_rules = _shared_parse_rules  # type: ignore[method-assign]


def revert() -> None:
    """Each stylesheet parses for itself again (what was kept is forgotten)."""
    Stylesheet._parse_rules = _textual_parse_rules  # type: ignore[method-assign]
    _parsed.clear()
    _last_variables[:] = [None, ()]


def parsed_count() -> int:
    """How many sources are kept parsed."""
    return len(_parsed)


def parsed_keys() -> frozenset[tuple[Any, ...]]:
    """What is kept parsed (tests: nothing parsed twice)."""
    return frozenset(_parsed)


def parse(stylesheet: Stylesheet, css: str, read_from: tuple[str, str]) -> list[Any]:
    """``css`` parsed by ``stylesheet`` as Textual parses an app's CSS (through the shared
    cache once applied)."""
    return stylesheet._parse_rules(css, read_from)


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
    the app's own CSS, as the app would when it first shows them; how many sources
    (0 when the patch is not applied: nothing would keep them)."""
    if not is_applied():
        return 0
    stylesheet = Stylesheet(variables=app.get_css_variables())
    count = 0
    for cls in _widget_classes():
        # Textual's own reading of a class's default CSS (its location, order and scope)
        bases = cast(DOMNode, SimpleNamespace(_node_bases=cls._css_bases(cls)))  # all it reads
        for read_from, css, tie_breaker, scope in DOMNode._get_default_css(bases):
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
