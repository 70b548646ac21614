"""The footer shows the keys that work now, and rebuilds itself only when they change
(Textual pilot on a small screen whose one key comes and goes)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen

from trash_tui.app.footer import TrashFooter


class Door(Screen[None]):
    """A screen whose "open" key works only while the door is closed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "open_door", "Open", id="open-door"),
        Binding("q", "app.quit", "Quit", id="quit-door"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.closed = True

    def compose(self) -> ComposeResult:
        yield TrashFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.closed if action == "open_door" else True

    def action_open_door(self) -> None:
        self.closed = False
        self.refresh_bindings()


class DoorApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Door())


def footer_text(app: App[None]) -> str:
    footer = app.screen.query_one(TrashFooter)
    return " ".join(str(key.render()) for key in footer.children)


async def test_the_footer_follows_the_keys_and_rebuilds_only_on_a_change() -> None:
    app = DoorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(TrashFooter)
        assert "Open" in footer_text(app) and "Quit" in footer_text(app)
        built = []
        original = footer.recompose

        async def counted() -> None:
            built.append(1)
            await original()

        footer.recompose = counted  # type: ignore[method-assign]
        for _ in range(5):  # nothing changed: no rebuild, however often it is told
            app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert built == []
        await pilot.press("o")  # the key goes away: one rebuild
        await pilot.pause()
        await pilot.pause()
        assert built == [1]
        assert "Open" not in footer_text(app) and "Quit" in footer_text(app)
