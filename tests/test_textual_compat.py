"""The app's speed-ups to Textual live in one package and are opt-in (issue 30): outside
``trash_tui/app/textual_compat`` no module uses a private name of Textual; the app runs on
stock Textual unless asked; each patch checks the Textual it meets (the version, and every
private name it uses) and leaves Textual alone when it does not fit; what the patched
Textual draws is what stock Textual draws (the snapshot suite passes both ways)."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
import textwrap
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import textual
from rich.segment import Segment
from rich.style import Style
from textual.cache import FIFOCache
from textual.css.stylesheet import Stylesheet
from textual.drivers.linux_driver import LinuxDriver
from textual.message_pump import MessagePump
from textual.strip import Strip

import trash_tui
import trash_tui.app
from trash_tui.app import textual_compat
from trash_tui.app.app import create_app
from trash_tui.app.textual_compat import css, keyboard, quiet_driver, strips
from trash_tui.settings import Settings, load_settings, save_settings

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(trash_tui.__file__).resolve().parent
COMPAT = PACKAGE / "app" / "textual_compat"
RED = Style(color="red")
ACCENT_CSS = "Static { color: $accent; }"
WHERE = ("tests/test_textual_compat.py", "ACCENT_CSS")


#: This run of the suite is the one with the patches applied (see conftest.py).
PATCHED_RUN = os.environ.get("TRASH_TEXTUAL_PATCHES") == "1"
stock_only = pytest.mark.skipif(PATCHED_RUN, reason="this run is the patched one")


@pytest.fixture
def patched() -> Any:
    with textual_compat.patched() as names:
        yield names


# --- one place -----------------------------------------------------------------------------
@functools.cache
def textual_private_names() -> frozenset[str]:
    """The private names Textual defines: its methods and the attributes it sets (read
    once: the installed Textual does not change during the run)."""
    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                name = node.name
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                name = node.attr
            else:
                continue
            if name.startswith("_") and not name.startswith("__"):
                names.add(name)
    return frozenset(names)


def private_textual_uses() -> list[str]:
    """Every place outside the compatibility package that imports a private module of
    Textual or uses a private name Textual defines (and the app itself does not)."""
    sources = {path: ast.parse(path.read_text(encoding="utf-8"))
               for path in PACKAGE.rglob("*.py") if COMPAT not in path.parents}
    ours: set[str] = set()
    for tree in sources.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                ours.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                ours.add(node.attr)
    theirs = textual_private_names() - ours
    uses: list[str] = []
    for path, tree in sorted(sources.items()):
        where = path.relative_to(PACKAGE.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                modules = []
            uses += [f"{where}:{node.lineno}: import {module}" for module in modules
                     if module.split(".")[0] == "textual"
                     and any(part.startswith("_") for part in module.split("."))]
            if (isinstance(node, ast.ImportFrom) and node.module
                    and node.module.split(".")[0] == "textual"):
                uses += [f"{where}:{node.lineno}: {alias.name}" for alias in node.names
                         if alias.name.startswith("_")]
            if isinstance(node, ast.Attribute) and node.attr in theirs:
                uses.append(f"{where}:{node.lineno}: .{node.attr}")
    return uses


def test_no_module_outside_the_compatibility_package_uses_textuals_private_names() -> None:
    assert private_textual_uses() == []


def test_the_check_finds_a_private_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """The check above is not blind: a module using ``_layout_cache`` is listed."""
    package = tmp_path / "pkg"
    (package / "app" / "textual_compat").mkdir(parents=True)
    (package / "widget.py").write_text(
        "from textual._xterm_parser import XTermParser\n"
        "def f(widget):\n    widget._layout_cache.clear()\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", package)
    monkeypatch.setattr(sys.modules[__name__], "COMPAT", package / "app" / "textual_compat")
    assert private_textual_uses() == ["pkg/widget.py:1: import textual._xterm_parser",
                                      "pkg/widget.py:3: ._layout_cache"]



def textual_overrides(modules: list[str]) -> list[str]:
    """Every private handler (``_on_*``) or other private method of a Textual base class
    that a class of ``modules`` defines again: ``ast`` cannot tell such an override from a
    private name of the app's own, so the classes themselves are asked."""
    found: list[str] = []
    for name in modules:
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if not (isinstance(cls, type) and cls.__module__ == name
                    and issubclass(cls, MessagePump)):
                continue
            bases = [base for base in cls.__mro__[1:]
                     if base.__module__.split(".")[0] == "textual"]
            for attribute, value in vars(cls).items():
                if ((inspect.isfunction(value)
                     or isinstance(value, staticmethod | classmethod | property))
                        and attribute.startswith("_") and not attribute.startswith("__")
                        and any(attribute in vars(base) for base in bases)):
                    found.append(f"{name}.{cls.__name__}.{attribute}")
    return sorted(found)


def app_modules() -> list[str]:
    """The app's modules outside the compatibility package, every one imported."""
    return [module.name for module in pkgutil.walk_packages(trash_tui.app.__path__,
                                                            "trash_tui.app.")
            if not module.name.startswith(textual_compat.__name__)]


def test_no_class_of_the_app_redefines_a_private_handler_of_textual() -> None:
    """Issue 38: a screen or widget that defines ``_on_focus`` replaces Textual's own
    handler of its base class (Textual calls the handlers of every class in the chain,
    the public ``on_*`` ones included), which the name check above cannot see."""
    assert textual_overrides(app_modules()) == []


def test_the_override_check_finds_an_override(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above is not blind: an ``Input`` with ``_on_blur`` is listed, one with
    ``on_blur`` or a private name Textual does not define is not."""
    (tmp_path / "overriding_widget.py").write_text(textwrap.dedent("""
        from textual.widgets import Input

        class Field(Input):
            def _on_blur(self, event):
                pass

        class Public(Input):
            def on_blur(self, event):
                pass

            def _own_helper(self):
                pass
        """), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert textual_overrides(["overriding_widget"]) == ["overriding_widget.Field._on_blur"]


# --- opt-in --------------------------------------------------------------------------------
@stock_only
def test_the_app_runs_on_stock_textual_unless_asked() -> None:
    create_app(settings=Settings())
    create_app(settings=Settings(), remote=True)
    assert textual_compat.applied() == ()
    assert Strip.__init__ is not strips.lean_init
    assert not css.is_applied()
    assert keyboard.driver_class(LinuxDriver) is LinuxDriver


def test_the_settings_file_turns_the_speedups_on(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[app]\ntextual_speedups = true\n", encoding="utf-8")
    settings, problems = load_settings(path)
    assert settings.textual_speedups and problems == []
    save_settings(settings, path)
    assert "textual_speedups = true" in path.read_text(encoding="utf-8")
    path.write_text('[app]\ntextual_speedups = "yes"\n', encoding="utf-8")
    settings, problems = load_settings(path)
    assert not settings.textual_speedups
    assert len(problems) == 1 and "expected true or false" in problems[0]


@stock_only
def test_the_local_app_applies_them_when_its_settings_ask() -> None:
    try:
        create_app(settings=Settings(textual_speedups=True))
        assert textual_compat.applied() == ("strips", "css", "keyboard")
    finally:
        textual_compat.revert()


@stock_only
def test_a_textual_outside_the_tested_set_runs_unpatched_with_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textual_compat, "textual_version", lambda: "9.0.0")
    said: list[str] = []
    assert textual_compat.apply(said.append) == ()
    assert textual_compat.applied() == ()
    assert len(said) == 1 and "Textual 9.0.0" in said[0] and "8.2.8" in said[0]
    assert not textual_compat.supported("9.0.0") and textual_compat.supported("8.2.8")


def test_the_tested_set_holds_the_installed_textual() -> None:
    """The suite runs on the installed Textual: it must be one of the tested set (add it
    there once the whole suite passed on it, patched and not)."""
    assert textual_compat.supported(), textual_compat.textual_version()


@stock_only
def test_apply_applies_every_patch_and_revert_undoes_them(patched: tuple[str, ...]) -> None:
    assert patched == ("strips", "css", "keyboard")
    assert Strip.__init__ is strips.lean_init and css.is_applied()
    assert keyboard.driver_class(LinuxDriver) is quiet_driver.QuietLinuxDriver
    textual_compat.revert()
    assert Strip.__init__ is not strips.lean_init and not css.is_applied()
    assert all(not isinstance(Strip.__dict__[name], strips.LazyCache)
               for name in strips.CACHE_SIZES)
    assert keyboard.driver_class(LinuxDriver) is LinuxDriver


@stock_only
def test_a_patch_that_does_not_fit_is_left_out_with_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textual_compat, "PATCHES", (
        replace(textual_compat.PATCHES[0], fits=lambda: False), *textual_compat.PATCHES[1:]))
    said: list[str] = []
    try:
        assert textual_compat.apply(said.append) == ("css", "keyboard")
    finally:
        textual_compat.revert()
    assert len(said) == 1 and "'strips'" in said[0]


SESSION_CHECK_SCRIPT = """
    def speedups():
        from trash_tui.app import textual_compat
        from trash_tui.app.textual_compat import css

        return list(textual_compat.applied()), css.parsed_count()


    def main() -> None:
        from trash_tui.ssh.child import fork_context, start_fork_server

        start_fork_server()
        with fork_context().Pool(1) as pool:
            names, parsed = pool.apply(speedups)
        print(" ".join(names), parsed)


    if __name__ == "__main__":
        main()
"""


def test_the_ssh_servers_sessions_run_with_every_speedup(tmp_path: Path) -> None:
    """A session forked from the SSH server's fork server finds the patches applied and
    the CSS of every widget parsed (the server itself never imports Textual)."""
    script = tmp_path / "server_main.py"
    script.write_text(textwrap.dedent(SESSION_CHECK_SCRIPT), encoding="utf-8")
    result = subprocess.run([sys.executable, str(script)], check=True, timeout=120,
                            capture_output=True, text=True)
    names, parsed = result.stdout.rsplit(maxsplit=1)
    assert names.split() == ["strips", "css", "keyboard"]
    assert int(parsed) > 50


# --- strips --------------------------------------------------------------------------------
def cache_in_slot(strip: Strip, name: str) -> FIFOCache | None:
    """What the strip holds in a cache's slot, without making the cache."""
    try:
        return Strip.__dict__[name].slot.__get__(strip, Strip)
    except AttributeError:
        return None


def test_a_new_strip_has_no_caches_until_it_is_used(patched: tuple[str, ...]) -> None:
    strip = Strip([Segment("hello "), Segment("world", RED)])
    assert all(cache_in_slot(strip, name) is None for name in strips.CACHE_SIZES)
    strip.crop(0, 5)
    crop_cache = cache_in_slot(strip, "_crop_cache")
    assert isinstance(crop_cache, FIFOCache) and len(crop_cache) == 1
    assert crop_cache._maxsize == strips.CACHE_SIZES["_crop_cache"]
    assert cache_in_slot(strip, "_divide_cache") is None  # only what was used


def test_lean_strips_crop_divide_and_style_as_textual_does(patched: tuple[str, ...]) -> None:
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


@stock_only
def test_a_strip_with_a_slot_the_patch_does_not_know_does_not_fit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A later Textual whose ``Strip`` has one more slot, set in its ``__init__``: the
    lean ``__init__`` would leave it unset, so the patch must not apply."""
    assert strips.fits()
    monkeypatch.setattr(Strip, "__slots__", (*Strip.__slots__, "_new_cache"))
    assert not strips.fits()


@stock_only
def test_a_strip_whose_other_slots_start_otherwise_does_not_fit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    textual_init = Strip.__init__

    def init(self: Strip, segments: Any, cell_length: int | None = None) -> None:
        textual_init(self, segments, cell_length)
        self._render_cache = []  # (lean_init sets None)

    monkeypatch.setattr(Strip, "__init__", init)
    assert not strips.fits()


@stock_only
def test_a_strip_whose_caches_differ_does_not_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strips, "CACHE_SIZES", {**strips.CACHE_SIZES, "_crop_cache": 99})
    assert not strips.fits()


# --- css -----------------------------------------------------------------------------------
def test_rules_parsed_with_one_theme_are_not_given_to_another(patched: tuple[str, ...]
                                                               ) -> None:
    red = css.parse(Stylesheet(variables={"accent": "#ff0000"}), ACCENT_CSS, WHERE)
    green = css.parse(Stylesheet(variables={"accent": "#00ff00"}), ACCENT_CSS, WHERE)
    assert red[0].styles.color != green[0].styles.color
    again = css.parse(Stylesheet(variables={"accent": "#ff0000"}), ACCENT_CSS, WHERE)
    assert again is red  # a new stylesheet with the same colours: parsed once


def import_every_screen() -> None:
    """As the fork server does: every module of the app, so every widget class is known."""
    for module in pkgutil.walk_packages(trash_tui.app.__path__, "trash_tui.app."):
        importlib.import_module(module.name)


async def test_a_session_finds_the_css_of_its_first_screen_parsed(
        patched: tuple[str, ...]) -> None:
    import_every_screen()
    sources = css.prepare(create_app(settings=Settings(), remote=True))
    assert sources > 50
    parsed = css.parsed_keys()
    app = create_app(settings=Settings(), owner="key:newcomer", remote=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert app.screen.query("*")  # the name prompt is up, drawn with those rules
    assert css.parsed_keys() == parsed  # no source parsed again


def test_the_css_cache_is_bounded(patched: tuple[str, ...]) -> None:
    for number in range(css.MAX_PARSED + 10):
        css.parse(Stylesheet(variables={"accent": f"#{number:06x}"}), ACCENT_CSS, WHERE)
    assert css.parsed_count() == css.MAX_PARSED


@stock_only
def test_css_does_not_fit_a_parser_with_other_parameters(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    def parse_rules(self: Stylesheet, css_text: str, read_from: Any) -> list[Any]:
        return []

    monkeypatch.setattr(Stylesheet, "_parse_rules", parse_rules)
    assert not css.fits()


@stock_only
def test_unpatched_prepare_keeps_nothing() -> None:
    assert css.prepare(create_app(settings=Settings(), remote=True)) == 0
    assert css.parsed_count() == 0


# --- keyboard ------------------------------------------------------------------------------
def test_the_keyboard_thread_never_sleeps_before_it_has_told_a_lone_escape() -> None:
    """A thread that got the processor late (a busy server) must not sleep with an escape
    key still untold: it looks until one look came well after the last input, even past
    its second awake (seen: one player in ten whose esc did nothing under load)."""
    assert quiet_driver.keep_looking(now=0.5, last_input=0.0, last_look=0.4)
    assert not quiet_driver.keep_looking(now=quiet_driver.AWAKE + 1, last_input=0.0,
                                         last_look=quiet_driver.AWAKE)
    assert quiet_driver.keep_looking(now=quiet_driver.AWAKE + 1, last_input=0.0,
                                     last_look=quiet_driver.SETTLED / 4)


async def test_a_quiet_driver_that_does_not_fit_runs_textuals_own_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quiet_driver, "textual_fits", lambda: False)
    ran: list[str] = []
    monkeypatch.setattr(LinuxDriver, "run_input_thread", lambda self: ran.append("textual"))
    driver = quiet_driver.QuietLinuxDriver(create_app(settings=Settings()))
    try:
        assert type(driver.exit_event) is threading.Event  # Textual's own, untouched
        driver.run_input_thread()
        assert ran == ["textual"]
    finally:
        driver.close()


# --- the snapshot suite on the patched Textual -----------------------------------------------
@stock_only
def test_the_snapshot_suite_passes_with_the_patches_applied() -> None:
    """Every snapshot drawn with the speed-ups (as the SSH sessions draw) is the same as
    drawn by stock Textual (this suite's own run). (This file's own tests are not run
    again there: each one applies the patches itself or does not draw, so this suite's
    run of them is the same check.)"""
    env = {**os.environ, "TRASH_TEXTUAL_PATCHES": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
         "-p", "no:hypothesispytest", "tests/test_app_snapshots.py"],  # (no Hypothesis there)
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "snapshots passed" in result.stdout and "failed" not in result.stdout
