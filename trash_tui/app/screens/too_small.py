"""The minimum-size guard: below 80×24 the app shows a message instead of a cramped screen.

The app calls ``check_size(app)`` from its ``on_mount`` and ``on_resize`` handlers. While
the terminal is too small a ``TooSmallScreen`` sits on top of the screen stack; once the
size is back it is popped, and the screen below (a running board included) is exactly as
it was. The guard also keeps itself on top when another screen is pushed while the
terminal is still too small.
"""

from __future__ import annotations

from typing import ClassVar
from weakref import WeakSet

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from trash_tui.app.widgets.footer import TrashFooter

MIN_WIDTH = 80
MIN_HEIGHT = 24

_WATCHED: WeakSet[App] = WeakSet()  # apps whose screen changes re-check the guard


def is_too_small(size: Size) -> bool:
    """Whether a terminal of ``size`` is below the minimum in either direction."""
    return size.width < MIN_WIDTH or size.height < MIN_HEIGHT


def too_small_message(size: Size) -> str:
    """What the guard says for a terminal of ``size``."""
    return (f"The terminal is {size.width}×{size.height}; Trash needs at least "
            f"{MIN_WIDTH}×{MIN_HEIGHT}. Make the window larger.")


class TooSmallScreen(ModalScreen[None]):
    """Covers the app while the terminal is too small; removed by ``check_size``."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; }
    #too-small { width: 100%; max-width: 56; height: auto; padding: 0 1;
                 border: round $warning; background: $surface; }
    #too-small-title { text-style: bold; color: $warning; width: 100%;
                       content-align: center middle; }
    #too-small-message { width: 100%; margin: 1 0; }
    #too-small-buttons { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", "Quit", id="quit"),
    ]

    def __init__(self, size: Size) -> None:
        super().__init__()
        self.terminal_size = size

    def compose(self) -> ComposeResult:
        with Vertical(id="too-small"):
            yield Static("⚠ Window too small", id="too-small-title", markup=False)
            yield Static(too_small_message(self.terminal_size), id="too-small-message",
                         markup=False)
            with Center(id="too-small-buttons"):
                yield Button("Quit", id="too-small-quit", compact=True)
        yield TrashFooter()

    def show_size(self, size: Size) -> None:
        """Update the message for a new terminal size."""
        self.terminal_size = size
        if self.is_mounted:
            self.query_one("#too-small-message", Static).update(too_small_message(size))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "too-small-quit":
            self.app.exit()


def check_size(app: App) -> None:
    """Show the guard if ``app``'s terminal is too small, remove it when it is big enough.

    Call it from the app's ``on_mount`` and ``on_resize``. The check runs once the current
    message is handled, so it sees the new size (the App base class stores it after a
    subclass's ``on_resize``) and the screens ``on_mount`` pushes.
    """
    if app not in _WATCHED and app.is_running:
        _WATCHED.add(app)
        app.screen_change_signal.subscribe(app, lambda _screen: _apply_guard(app))
    app.call_later(_apply_guard, app)


def _apply_guard(app: App) -> None:
    """Push, update or pop the guard so that it is on top exactly while the app is small."""
    if not app.is_running or not app.screen_stack:
        return
    top: Screen[object] = app.screen
    size = app.size
    if is_too_small(size):
        if isinstance(top, TooSmallScreen):
            top.show_size(size)
        else:
            app.push_screen(TooSmallScreen(size))
    elif isinstance(top, TooSmallScreen) and len(app.screen_stack) > 1:
        app.pop_screen()
