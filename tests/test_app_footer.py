"""The footer shows the keys that work now, repaints one line when they change and
nothing when they do not, and a click on a key presses it (Textual pilot on a small
screen whose one key comes and goes)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen

from trash_tui.app.widgets.footer import TrashFooter


class Door(Screen[None]):
    """A screen whose "open" key works only while the door is closed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "open_door", "Open", id="open-door"),
        Binding("l", "lock", "Lock", id="lock-door"),
        Binding("q", "app.quit", "Quit", id="quit-door"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.closed = True
        self.locked = False

    def compose(self) -> ComposeResult:
        yield TrashFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open_door":
            return self.closed
        if action == "lock":
            return None if self.locked else True  # shown dimmed once locked
        return True

    def action_open_door(self) -> None:
        self.closed = False
        self.refresh_bindings()

    def action_lock(self) -> None:
        self.locked = True
        self.refresh_bindings()


class DoorApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Door())


def footer_text(app: App[None]) -> str:
    footer = app.screen.query_one(TrashFooter)
    return " ".join(f"{key.key_display} {key.description}" for key in footer.drawn_keys())


async def test_the_footer_follows_the_keys_and_repaints_only_on_a_change() -> None:
    app = DoorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(TrashFooter)
        assert footer_text(app).startswith("o Open l Lock q Quit")
        assert footer.drawn_keys()[-1].palette  # the palette key, on the right
        painted = []
        original = footer.refresh

        def counted(*args, **kwargs):
            painted.append(kwargs.get("layout", False))
            return original(*args, **kwargs)

        footer.refresh = counted  # type: ignore[method-assign]
        for _ in range(5):  # nothing changed: no repaint, however often it is told
            app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert painted == []
        await pilot.press("o")  # the key goes away: one repaint, never a layout
        await pilot.pause()
        await pilot.pause()
        assert painted == [False]
        assert "Open" not in footer_text(app) and "Quit" in footer_text(app)


async def test_a_click_on_a_key_presses_it_and_a_disabled_key_only_rings() -> None:
    app = DoorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        footer = screen.query_one(TrashFooter)
        [lock] = [key for key in footer.drawn_keys() if key.action == "lock"]
        await pilot.click(TrashFooter, offset=(lock.start + 1, 0))
        await pilot.pause()
        assert screen.locked
        [lock] = [key for key in footer.drawn_keys() if key.action == "lock"]
        assert not lock.enabled  # still shown, dimmed
        [open_key] = [key for key in footer.drawn_keys() if key.action == "open_door"]
        await pilot.click(TrashFooter, offset=(open_key.start + 1, 0))
        await pilot.pause()
        assert not screen.closed


async def test_keys_that_do_not_fit_are_left_out_and_the_palette_stays() -> None:
    app = DoorApp()
    async with app.run_test(size=(30, 10)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(TrashFooter)
        keys = footer.drawn_keys()
        assert keys[-1].palette and keys[-1].end <= 30
        assert all(key.end <= keys[-1].start for key in keys[:-1])
