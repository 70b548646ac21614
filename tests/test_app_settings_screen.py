"""The settings screen through the pilot: editing, live checks, saving, cancelling, layout."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Button, Input, Select, Static, Switch

from trash_tui.app.screens.settings import SettingsScreen, key_clashes, seat_text, words
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.presets import PRESETS
from trash_tui.rules import Rules
from trash_tui.settings import BINDING_IDS, Settings, load_settings


class Host(App[None]):
    """Pushes the settings screen and records what it dismisses with and every notice."""

    def __init__(self, settings: Settings, path: Path) -> None:
        super().__init__()
        self.start = settings
        self.path = path
        self.results: list[Settings | None] = []
        self.notices: list[str] = []

    def on_mount(self) -> None:
        self.push_screen(SettingsScreen(self.start, self.path), self.results.append)

    def notify(self, message: str, **kwargs: object) -> None:  # type: ignore[override]
        self.notices.append(message)
        super().notify(message, **kwargs)  # type: ignore[arg-type]


def screen_of(app: Host) -> SettingsScreen:
    screen = app.screen
    assert isinstance(screen, SettingsScreen)
    return screen


async def choose(pilot: Pilot[None], select_id: str, value: object) -> None:
    """Pick ``value`` in a Select by keys: focus it, open the list, move, enter."""
    app = pilot.app
    select: Select[object] = app.screen.query_one(f"#{select_id}", Select)
    select.focus()
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    values = [v for _, v in select._options]
    steps = values.index(value) - values.index(select.value)
    await pilot.press(*(["down"] * steps if steps > 0 else ["up"] * -steps), "enter")
    await pilot.pause()
    assert select.value == value


async def type_into(pilot: Pilot[None], input_id: str, text: str) -> None:
    """Replace an Input's text by typing, as a user would."""
    field = pilot.app.screen.query_one(f"#{input_id}", Input)
    field.focus()
    await pilot.pause()
    await pilot.press("end", "ctrl+u", *text)
    await pilot.pause()
    assert field.value == text


def error_text(screen: SettingsScreen, control_id: str) -> str:
    label = screen.query_one(f"#{control_id}-error", Static)
    return str(label.render()) if label.has_class("-shown") else ""


def problems_text(screen: SettingsScreen) -> str:
    return str(screen.query_one("#settings-problems", Static).render())


async def test_edits_are_saved_and_load_back_exactly(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    app = Host(Settings(), path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        screen.query_one("#rule-jokers", Switch).focus()
        await pilot.press("space")
        await choose(pilot, "rule-discard_draw", "playable")
        await type_into(pilot, "rule-start_size", "8")
        await choose(pilot, "settings-animation", "fast")
        await type_into(pilot, "key-hint", "g")
        await choose(pilot, "settings-players", 3)
        await choose(pilot, "settings-level", "hard")
        await type_into(pilot, "settings-name", "Ann")
        assert screen.problems == []
        assert str(screen.query_one("#rule-jokers-state", Static).render()) == "on"
        await pilot.press("ctrl+s")
        await pilot.pause()
    expected = Settings(
        rules=Rules(jokers=True, discard_draw="playable", start_size=8),
        seats=("human", "hard", "hard"),
        animation="fast",
        keymap={"hint": "g"},
        name="Ann",
    )
    assert path.is_file()
    loaded, problems = load_settings(path)
    assert problems == []
    assert loaded == expected
    assert app.results == [expected]
    assert f"Settings saved to {path}" in app.notices


async def test_an_integer_out_of_range_is_named_by_its_field_and_not_saved(
        tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    app = Host(Settings(), path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        await type_into(pilot, "rule-start_size", "42")
        field = screen.query_one("#rule-start_size", Input)
        assert field.has_class("-invalid")
        assert "start_size: an integer from 1 to 10" in error_text(screen, "rule-start_size")
        assert "start_size: an integer from 1 to 10" in problems_text(screen)
        await pilot.click("#settings-save")
        await pilot.pause()
        assert not path.exists()
        assert app.results == []
        assert app.screen is screen
        assert app.notices[-1].startswith("Not saved: start_size: an integer from 1 to 10")
        await type_into(pilot, "rule-start_size", "6")
        assert error_text(screen, "rule-start_size") == ""
        assert not field.has_class("-invalid")
        assert screen.problems == []


async def test_a_key_clash_is_shown_on_both_keys_and_refused(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    app = Host(Settings(), path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        await type_into(pilot, "key-draw-stock", "w")
        assert "'w' is also the key of swap" in error_text(screen, "key-draw-stock")
        assert "'w' is also the key of draw-stock" in error_text(screen, "key-swap")
        assert "keys: 'w' is bound to both draw-stock and swap" in problems_text(screen)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not path.exists()
        assert app.results == []
        assert "keys: 'w' is bound to both draw-stock and swap" in app.notices[-1]


async def test_a_cross_field_problem_goes_to_the_problems_area(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    app = Host(Settings(), path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        await type_into(pilot, "rule-free_draws", "3")
        assert screen.problems == []
        await choose(pilot, "settings-players", 4)
        assert "free draws are a 2-player rule" in problems_text(screen)
        assert "free draws are a 2-player rule" in error_text(screen, "settings-players")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not path.exists()
        assert "free draws" in app.notices[-1]


async def test_choosing_a_preset_sets_every_rule_control(tmp_path: Path) -> None:
    app = Host(Settings(), tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        await choose(pilot, "settings-preset", "seven-up")
        seven_up = PRESETS["seven-up"].rules
        assert screen.query_one("#rule-wilds", Select).value == "none"
        assert screen.query_one("#rule-discard_draw", Select).value == "never"
        for name in ("start_size", "max_deals", "layout_rows"):
            assert screen.query_one(f"#rule-{name}", Input).value == str(
                getattr(seven_up, name))
        status = str(screen.query_one("#settings-preset-status", Static).render())
        assert "seven-up preset" in status
        screen.query_one("#rule-places", Switch).focus()
        await pilot.press("space")
        await pilot.pause()
        status = str(screen.query_one("#settings-preset-status", Static).render())
        assert "custom" in status
        assert screen.query_one("#settings-preset", Select).is_blank()


async def test_cancel_writes_nothing_and_restores_the_theme(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    app = Host(Settings(), path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = app.theme
        await choose(pilot, "settings-theme", "nord")
        assert app.theme == "nord"
        await type_into(pilot, "settings-name", "Bo")
        await pilot.press("escape")
        await pilot.pause()
        assert app.theme == before
        assert app.results == [None]
        assert not isinstance(app.screen, SettingsScreen)
    assert not path.exists()


async def test_a_switch_is_toggled_by_mouse_and_shows_its_state_in_words(
        tmp_path: Path) -> None:
    app = Host(Settings(), tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        state = screen.query_one("#rule-jokers-state", Static)
        assert str(state.render()) == "off"
        await pilot.click("#rule-jokers")
        await pilot.pause()
        assert screen.query_one("#rule-jokers", Switch).value is True
        assert str(state.render()) == "on"
        assert "jokers preset" in str(screen.query_one("#settings-preset-status",
                                                       Static).render())


async def test_the_cancel_button_closes_too(tmp_path: Path) -> None:
    app = Host(Settings(), tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.click("#settings-cancel")
        await pilot.pause()
        assert app.results == [None]


async def test_saving_keeps_the_previewed_theme(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    app = Host(Settings(), path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await choose(pilot, "settings-theme", "gruvbox")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.theme == "gruvbox"
    assert load_settings(path)[0].theme == "gruvbox"


async def test_reset_to_defaults_fills_the_form_and_save_writes_it(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    history = tmp_path / "games.sqlite3"
    start = Settings(rules=PRESETS["party"].rules, seats=("human", "easy", "easy", "easy"),
                     animation="off", theme="nord", keymap={"hint": "?", "quit": "ctrl+q"},
                     history=history, name="Cleo")
    app = Host(start, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        assert screen.query_one("#settings-preset", Select).value == "party"
        await pilot.click("#settings-reset")
        await pilot.pause()
        assert screen.query_one("#settings-preset", Select).value == "standard"
        assert screen.query_one("#rule-jokers", Switch).value is False
        assert screen.query_one("#settings-players", Select).value == 2
        assert screen.query_one("#settings-level", Select).value == "normal"
        assert screen.query_one("#settings-animation", Select).value == "normal"
        assert screen.query_one("#settings-name", Input).value == "You"
        assert screen.query_one("#key-hint", Input).value == "h"
        assert app.theme == "textual-dark"
        assert not path.exists()  # nothing is written before Save
        await pilot.press("ctrl+s")
        await pilot.pause()
    expected = Settings(history=history)
    assert app.results == [expected]
    assert load_settings(path) == (expected, [])


async def test_a_richer_line_up_is_kept_until_players_or_level_change(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    seats = ("human", {"name": "hard", "mistakes": 0.05}, "counter")
    app = Host(Settings(seats=seats), path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        lineup = str(screen.query_one("#settings-lineup", Static).render())
        assert "hard (mistakes=0.05)" in lineup and "counter" in lineup
        assert screen.query_one("#settings-players", Select).value == 3
        await choose(pilot, "settings-animation", "off")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.results[-1] is not None and app.results[-1].seats == seats
    assert load_settings(path)[0].seats == seats

    app = Host(Settings(seats=seats), path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        await choose(pilot, "settings-level", "easy")
        lineup = str(screen.query_one("#settings-lineup", Static).render())
        assert lineup == "Line-up: human, easy, easy"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert load_settings(path)[0].seats == ("human", "easy", "easy")


async def test_a_file_that_cannot_be_written_is_reported_and_the_screen_stays(
        tmp_path: Path) -> None:
    path = tmp_path / "taken"
    path.mkdir()  # a folder where the file should go: replacing it fails
    app = Host(Settings(), path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.results == []
        assert isinstance(app.screen, SettingsScreen)
        assert app.notices[-1].startswith("Not saved: ")
        assert "\n" not in app.notices[-1]


async def test_the_layout_fits_80x24_and_uses_two_columns_at_160x48(tmp_path: Path) -> None:
    for size, columns in (((80, 24), 1), ((160, 48), 2)):
        app = Host(Settings(), tmp_path / "config.toml")
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = screen_of(app)
            whole = screen.region
            footer = screen.query_one(TrashFooter).region
            assert footer.bottom == whole.bottom and footer.height == 1
            for button in screen.query(Button):
                assert whole.contains_region(button.region)
                assert button.region.bottom <= footer.y
            left = screen.query_one("#settings-left").region
            right = screen.query_one("#settings-right").region
            side_by_side = right.x >= left.right
            assert side_by_side == (columns == 2)
            form = screen.query_one("#settings-form")
            assert form.max_scroll_y > 0  # the form scrolls; the buttons stay put
            title = screen.query_one("#settings-title").region
            preset = screen.query_one("#settings-preset", Select).region
            assert title.y == 0 and whole.contains_region(preset) and preset.area > 0
            players = screen.query_one("#settings-players", Select).region
            # Two columns show the seats beside the rules without scrolling.
            assert (players.area > 0 and players.bottom <= form.region.bottom) == (
                columns == 2)


def test_helpers_name_things_in_words() -> None:
    assert words("start_size") == "Start size"
    assert words("draw-stock") == "Draw stock"
    assert seat_text({"name": "hard", "mistakes": 0.05}) == "hard (mistakes=0.05)"
    assert seat_text("normal") == "normal"
    clashes = key_clashes({**BINDING_IDS, "hint": "s,ctrl+h"})
    assert clashes == {"draw-stock": "keys.draw-stock: 's' is also the key of hint",
                       "hint": "keys.hint: 's' is also the key of draw-stock"}


async def test_a_number_field_entered_by_click_or_tab_has_its_value_selected(
        tmp_path: Path) -> None:
    """However a number's field is entered, what is typed replaces its value ("5", not
    "510"); a second click in a field already entered places the cursor as usual."""
    app = Host(Settings(), tmp_path / "config.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        field = screen.query_one("#rule-start_size", Input)
        field.scroll_visible(animate=False)
        await pilot.pause()
        assert not field.has_focus and field.value == "10"
        await pilot.click("#rule-start_size")
        await pilot.pause()
        assert field.has_focus
        assert field.selected_text == "10"
        await pilot.press("5")
        await pilot.pause()
        assert field.value == "5"
        await pilot.press("backspace", "1", "0")
        await pilot.click("#rule-start_size", offset=(1, 0))
        await pilot.pause()
        assert field.selection.is_empty and field.value == "10"
        await pilot.press("7")
        await pilot.pause()
        assert field.value == "170", field.value  # the cursor where the click put it
        await pilot.press("shift+tab", "tab")
        await pilot.pause()
        assert field.has_focus and field.selected_text == field.value
        await pilot.press("4")
        await pilot.pause()
        assert field.value == "4"
