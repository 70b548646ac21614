"""The Rules help screen (text true for the rules in play, house rules marked) and the
minimum-size guard (pushed below 80×24, removed when the terminal is large enough)."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.events import Resize
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Input, Static

from trash_tui.app.app import create_app
from trash_tui.app.screens.rules_help import (
    HOUSE_MARK,
    RulesHelpScreen,
    help_text,
    house_rules,
    preset_text,
)
from trash_tui.app.screens.too_small import (
    MIN_HEIGHT,
    MIN_WIDTH,
    TooSmallScreen,
    check_size,
    is_too_small,
)
from trash_tui.app.trash.board import BoardScreen
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.presets import PRESETS, preset_rules
from trash_tui.rules import OPTIONS, Rules

# --- the help text follows the rules -----------------------------------------------------


def test_standard_rules_explain_jacks_wild_and_queens_kings_trash() -> None:
    text = help_text(Rules())
    assert "Jacks are wild" in text
    assert "Queens and Kings are trash" in text
    assert "Joker" not in text.split("House rules in play")[0]
    assert "Everyone starts with 10 slots" in text
    assert "slots 1–5 on top and 6–10 below" in text
    assert "1–9, or 0 for slot 10" in text
    assert "Everyone else shares second place." in text
    rules_part = text.split("House rules in play")[0]  # (the options' list names them all)
    assert all(word not in rules_part for word in ("Last turn", "Lucky reveal", "Free draws"))


def test_kings_wild_says_kings_are_wild_and_jacks_queens_are_trash() -> None:
    text = help_text(preset_rules("kings-wild"))
    assert "Kings are wild" in text
    assert "Jacks and Queens are trash" in text
    assert "Jacks are wild" not in text
    assert "A wild (Kings)" in text


def test_jokers_are_mentioned_only_when_in_play() -> None:
    with_jokers = help_text(Rules(jokers=True))
    assert "Jacks are wild, and so are the Jokers" in with_jokers
    assert "each with two Jokers" in with_jokers
    only_jokers = help_text(Rules(wilds="none", jokers=True))
    assert "Jokers are the only wild cards" in only_jokers
    assert "Jacks, Queens and Kings are trash" in only_jokers


def test_all_faces_wild_has_no_trash() -> None:
    text = help_text(preset_rules("all-faces-wild"))
    assert "Jacks, Queens and Kings are wild" in text
    assert "There is no trash" in text
    assert "a trash card" not in text


def test_no_wilds_leaves_out_the_wild_keys() -> None:
    text = help_text(preset_rules("seven-up"))
    assert "There are no wild cards." in text
    assert "A wild (" not in text and "Swap:" not in text
    assert "w and k (no wilds)" in text
    assert "slot 1 holds an Ace." not in text  # one deal: the one-slot goal is out of reach


def test_start_size_8_gives_8_slots_in_two_rows_of_four() -> None:
    text = help_text(preset_rules("eight-card"))
    assert "Everyone starts with 8 slots" in text
    assert "slots 1–4 on top and 5–8 below" in text
    assert "(1–8)" in text  # the wild's slot keys
    assert "8 won deals" in text


def test_one_row_layout() -> None:
    text = help_text(preset_rules("seven-up"))
    assert "one row, slot 1 on the left and slot 7 on the right" in text


def test_short_game_and_fixed_deals() -> None:
    short = help_text(preset_rules("short-game"))
    assert "gets down to 6 slots wins the match (4 won deals" in short
    assert "win a deal with a layout of 7 slots" in short
    fixed = help_text(preset_rules("fixed-deals"))
    assert "The match lasts 5 deals; then the smallest layout wins." in fixed  # 10 needed
    reachable = help_text(Rules(start_size=5, max_deals=12))
    assert "(5 won deals" in reachable
    assert "If nobody has after 12 deals, the smallest layout wins." in reachable
    assert "equal players share a place" in fixed
    one_deal = help_text(preset_rules("seven-up"))
    assert "One deal decides the match" in one_deal
    assert "dealt again. The deal's winner" not in one_deal


def test_free_draws_and_lucky_reveal() -> None:
    text = help_text(preset_rules("three-free-draws"))
    assert "Free draws (two players only)" in text
    assert "3 free turns" in text
    assert "Lucky reveal:" in text
    assert "and everyone else who shrank" in text
    assert "the first to complete wins" in text


def test_discard_draw_rules() -> None:
    never = help_text(Rules(discard_draw="never"))
    assert "The discard pile is never drawn from." in never
    assert "d (no discard draws)" in never
    assert "draw the top discard" not in never
    playable = help_text(preset_rules("discard-when-playable"))
    assert "only when it fits one of your face-down slots" in playable
    assert "draw the top discard when it fits" in playable


def test_first_player_last_turn_call_trash_and_places() -> None:
    assert "the last deal's winner plays first" in help_text(Rules())
    assert "passes one player clockwise" in help_text(preset_rules("rotate-first"))
    assert "Last turn: after a player completes" in help_text(preset_rules("last-turn"))
    call = help_text(preset_rules("call-trash"))
    assert "Call “Trash!” (t)" in call and "Stay silent (x)" in call
    assert "t and x (no “Trash!” call)" in help_text(Rules())
    assert "ranked by layout size" in help_text(preset_rules("places"))


def test_keys_come_from_the_keymap() -> None:
    text = help_text(Rules(call_trash=True), {"draw-stock": "g,ctrl+g", "call": "c"})
    assert "Draw the top card of the stock (g / ctrl+g)" in text
    assert "Call “Trash!” (c)" in text
    assert "(d)" in text  # ids left out keep their default keys


# --- house rules -------------------------------------------------------------------------


def test_standard_rules_have_no_house_rules_marked() -> None:
    lines = house_rules(Rules())
    assert [line.name for line in lines] == [spec.name for spec in OPTIONS]
    assert not any(line.house for line in lines)
    assert not any(HOUSE_MARK in line.headline for line in lines)
    assert preset_text(Rules()) == (
        "These are the standard rules (preset “standard”): no house rules.")


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_marks_exactly_its_changed_options(name: str) -> None:
    rules = preset_rules(name)
    lines = {line.name: line for line in house_rules(rules)}
    changed = {key for key, value in PRESETS[name].overrides.items()
               if value != getattr(Rules(), key)}
    assert {key for key, line in lines.items() if line.house} == changed
    for key, line in lines.items():
        marked = line.headline.startswith(f"{HOUSE_MARK} ") and "house rule" in line.headline
        assert marked == (key in changed), line.headline
    assert f"“{name}”" in preset_text(rules)


def test_house_rule_lines_give_value_standard_and_meaning() -> None:
    lines = {line.name: line for line in house_rules(preset_rules("call-trash"))}
    call = lines["call_trash"]
    # named as the Settings screen names it (issue 27), not by its key in the file
    assert call.headline == "◆ Call trash: on  ·  house rule (standard: off)"
    assert call.meaning.startswith("the player placing their final card")
    assert lines["wilds"].headline == "  Wilds: jacks  ·  standard"


def test_custom_rules_are_named_as_custom() -> None:
    text = preset_text(Rules(start_size=9, jokers=True))
    assert text.startswith("Custom rules: they match no preset.")
    assert "2 options differ from the standard game" in text


# --- the screen --------------------------------------------------------------------------


class HelpHost(App[None]):
    """Pushes the rules help over a plain screen."""

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def on_mount(self) -> None:
        self.push_screen(RulesHelpScreen(self.rules))


def shown_text(screen: Screen[object]) -> str:
    return "\n".join(str(static.content) for static in screen.query(Static))


async def test_the_screen_shows_the_help_and_marks_house_rules() -> None:
    rules = preset_rules("kings-wild")
    app = HelpHost(rules)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesHelpScreen)
        text = shown_text(screen)
        assert "Kings are wild" in text and "Jacks and Queens are trash" in text
        assert "House rules in play" in text
        assert "Preset “kings-wild”" in text
        wilds, jokers = screen.query_one("#option-wilds"), screen.query_one("#option-jokers")
        assert wilds.has_class("-house") and not jokers.has_class("-house")
        house_line = wilds.query_one(".option-headline", Static)
        plain_line = jokers.query_one(".option-headline", Static)
        assert str(house_line.content).startswith("◆") and "house rule" in str(house_line.content)
        assert HOUSE_MARK not in str(plain_line.content)
        warning = app.theme_variables["warning"]
        assert house_line.styles.color.hex.lower() == warning.lower()[:7]
        assert plain_line.styles.color != house_line.styles.color
        assert len(screen.query(".house-option.-house")) == 1


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_the_screen_fits_and_scrolls(size: tuple[int, int]) -> None:
    width, height = size
    app = HelpHost(preset_rules("party"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        body = screen.query_one("#rules-body")
        footer = screen.query_one(TrashFooter)
        title = screen.query_one("#rules-title")
        assert footer.region.y == height - 1 and footer.region.width == width
        assert title.region.y >= 0 and title.region.height == 1
        assert body.region.x >= 0 and body.region.right <= width
        assert body.region.width <= 100
        if width == 160:  # a readable column in the middle
            assert abs(body.region.x - (width - body.region.right)) <= 2
        for static in screen.query(".rules-text"):  # list items wrap inside the column
            assert static.region.right <= body.region.right
        scroll = screen.query_one("#rules-scroll", VerticalScroll)
        assert scroll.max_scroll_y > 0
        await pilot.press("pagedown")
        assert scroll.scroll_y > 0
        await pilot.press("end")
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y
        layout_rows = screen.query_one("#option-layout_rows")
        assert scroll.region.contains_region(layout_rows.region)
        await pilot.press("home")
        await pilot.press("down")
        assert scroll.scroll_y == 1
        await pilot.press("up")
        assert scroll.scroll_y == 0


@pytest.mark.parametrize("key", ["escape", "q"])
async def test_escape_or_q_closes_the_screen(key: str) -> None:
    app = HelpHost(Rules())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RulesHelpScreen)
        await pilot.press(key)
        await pilot.pause()
        assert not isinstance(app.screen, RulesHelpScreen)
        assert len(app.screen_stack) == 1


async def test_the_footer_close_key_works_by_mouse() -> None:
    app = HelpHost(Rules())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(TrashFooter)
        [close] = [key for key in footer.drawn_keys() if key.action == "close"]
        await pilot.click(TrashFooter, offset=(close.start + 1, 0))
        await pilot.pause()
        assert not isinstance(app.screen, RulesHelpScreen)


# --- the minimum-size guard --------------------------------------------------------------


class Workbench(Screen[None]):
    """A screen with some state the guard must leave alone."""

    def compose(self) -> ComposeResult:
        yield Input(value="typed before", id="bench-input")


class GuardHost(App[None]):
    """Wires the guard exactly as TrashApp will: check_size on mount and on resize."""

    def on_mount(self) -> None:
        self.push_screen(Workbench())
        check_size(self)

    def on_resize(self, event: Resize) -> None:
        check_size(self)


def guards(app: App[object]) -> list[Screen[object]]:
    return [screen for screen in app.screen_stack if isinstance(screen, TooSmallScreen)]


def test_the_minimum_is_80_by_24() -> None:
    assert (MIN_WIDTH, MIN_HEIGHT) == (80, 24)
    assert is_too_small(Size(79, 24)) and is_too_small(Size(80, 23))
    assert not is_too_small(Size(80, 24)) and not is_too_small(Size(200, 60))


async def test_no_guard_at_the_minimum_size() -> None:
    app = GuardHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, Workbench)
        assert not guards(app)


async def test_the_guard_comes_and_goes_with_the_terminal_size() -> None:
    app = GuardHost()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        guard = app.screen
        assert isinstance(guard, TooSmallScreen)
        bench = app.screen_stack[-2]
        assert isinstance(bench, Workbench)
        message = str(guard.query_one("#too-small-message", Static).content)
        assert message == ("The terminal is 60×20; Trash needs at least 80×24. "
                           "Make the window larger.")
        await pilot.press("x")  # keys do not reach the screen below
        assert bench.query_one(Input).value == "typed before"

        await pilot.resize_terminal(75, 30)
        await pilot.pause()
        assert app.screen is guard and len(guards(app)) == 1
        assert "75×30" in str(guard.query_one("#too-small-message", Static).content)

        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.screen is bench
        assert not guards(app)
        assert bench.query_one(Input).value == "typed before"
        assert len(app.screen_stack) == 2

        await pilot.resize_terminal(100, 10)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen) and len(guards(app)) == 1
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert app.screen is bench


async def test_the_guard_stays_on_top_of_a_screen_pushed_while_small() -> None:
    app = GuardHost()
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        help_screen = RulesHelpScreen(Rules())
        app.push_screen(help_screen)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert app.screen_stack[-2] is help_screen
        await pilot.resize_terminal(90, 30)
        await pilot.pause()
        assert app.screen is help_screen
        await pilot.press("escape")  # the guard left below the help is removed too
        await pilot.pause()
        assert isinstance(app.screen, Workbench)
        assert not guards(app)


class QuitRecordingHost(GuardHost):
    """Records that the app was asked to exit."""

    quit_asked = False

    def exit(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
        self.quit_asked = True
        super().exit(*args, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("how", ["key", "mouse"])
async def test_the_guard_quits_by_key_and_by_mouse(how: str) -> None:
    app = QuitRecordingHost()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        if how == "key":
            await pilot.press("q")
        else:
            await pilot.click("#too-small-quit")
        await pilot.pause()
        assert app.quit_asked


async def test_a_running_board_is_kept_under_the_guard() -> None:
    app = create_app(Rules(start_size=4), ["human", "greedy"], seed=3, animation="off",
                     play_now=True)  # TrashApp calls check_size on mount and on resize
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BoardScreen)
        controller = board.controller
        assert controller.waiting_for_human
        events = len(controller.match.events)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.press("s")  # the board's keys are covered
        await pilot.pause()
        assert len(controller.match.events) == events
        await pilot.resize_terminal(100, 32)
        await pilot.pause()
        assert app.screen is board
        await pilot.press("s")
        await pilot.pause()
        assert len(controller.match.events) > events


def test_the_help_names_every_option_as_the_settings_screen_does() -> None:
    """Issue 27: "Start size", "Call trash" (the Settings screen's labels), never the
    file's keys start_size, call_trash."""
    from trash_tui.app.screens.settings import words
    from trash_tui.presets import PRESETS
    from trash_tui.rules import OPTIONS

    for preset in PRESETS.values():
        text = help_text(preset.rules)
        assert all(spec.name not in text for spec in OPTIONS if "_" in spec.name), preset.name
        assert all(f"{words(spec.name)}: " in text for spec in OPTIONS), preset.name
