"""Card drawing: the Rich ``Text`` renderers and the table widgets fed with real observations.

The widget tests mount a ``TableView`` and a ``PileView`` in a small app of their own and
check what they show, and that it fits with the largest cards that can, at 80×24 and
160×48 for 2, 4 and 8 players. The snapshot tests pin the look of a 2- and a 4-player
table at both sizes (fixed decks, theme "textual-dark", NO_COLOR removed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.color import Color
from textual.geometry import Region, Size
from textual.widget import Widget

from trash_tui.app.widgets.cards import (
    BACK_CHAR,
    CARD_HEIGHT,
    CARD_SIZES,
    CARD_WIDTH,
    COMPACT,
    COMPACT_WIDTH,
    DEFAULT_PALETTE,
    HUGE,
    LARGE,
    NORMAL,
    WILD_MARK,
    CardPalette,
    CardSize,
    card_back,
    card_face,
    card_or_back,
    cards_in_a_row,
    drawn_card,
    drawn_lines,
    empty_slot,
    face_label,
    side_by_side,
    text_width,
)
from trash_tui.app.widgets.table import LayoutView, PileView, TableView, arrange_table, spread
from trash_tui.cards import (
    JOKER,
    SUIT_SYMBOLS,
    build_deck,
    card_label,
    decks_for,
    is_red,
    make_card,
    rank_name,
)
from trash_tui.engine.deal import Deal
from trash_tui.engine.observation import Observation
from trash_tui.rules import Rules

NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi")
ALL_CARDS = [make_card(rank, suit) for rank in range(1, 14) for suit in range(4)]
JOKERS = [make_card(JOKER, 0), make_card(JOKER, 1)]


@pytest.fixture(autouse=True)
def _deterministic_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


def lines_of(text: Text) -> list[str]:
    return text.plain.split("\n")


def styles_of(text: Text) -> set[str]:
    return {str(span.style) for span in text.spans}


# --- the renderers ---------------------------------------------------------------------
# every card, plain and wild (but no rule makes a 10 wild: see test_too_narrow_cards...)
CASES = [(card, wild) for card in ALL_CARDS + JOKERS for wild in (False, True)
         if not (wild and card & 15 == 10)]


@pytest.mark.parametrize(("card", "wild"), CASES)
def test_every_card_at_both_sizes(card: int, wild: bool) -> None:
    normal = card_face(card, wild)
    compact = card_face(card, wild, compact=True)
    assert len(lines_of(normal)) == CARD_HEIGHT
    assert [cell_len(line) for line in lines_of(normal)] == [CARD_WIDTH] * CARD_HEIGHT
    assert len(lines_of(compact)) == 1 and cell_len(compact.plain) == COMPACT_WIDTH
    rank = card & 15
    word = "Jk" if rank == JOKER else rank_name(rank) + SUIT_SYMBOLS[card >> 4]
    assert word in lines_of(normal)[1]
    assert word in compact.plain
    assert (WILD_MARK in compact.plain) == wild
    assert (WILD_MARK in normal.plain) == wild
    assert (normal.plain[0] == "╔") == wild  # a wild has a double border too
    assert ("red" in styles_of(normal)) == is_red(card)
    assert ("red" in styles_of(compact)) == is_red(card)
    assert ("bold" in styles_of(normal)) == wild


@pytest.mark.parametrize("size", [LARGE, HUGE], ids=["large", "huge"])
@pytest.mark.parametrize(("card", "wild"), CASES[::7])
def test_large_cards_show_the_label_in_two_corners_and_the_suit_between(
        card: int, wild: bool, size: CardSize) -> None:
    lines = lines_of(card_face(card, wild, size=size))
    assert len(lines) == size.height
    assert [cell_len(line) for line in lines] == [size.width] * size.height
    label = face_label(card, wild, size.width - 2).strip()
    assert lines[1][1:].startswith(label)  # top left, inside the border
    assert lines[-2][:-1].endswith(label)  # bottom right
    middle = lines[size.height // 2].strip("│║ ")
    assert middle == ("JOKER" if card & 15 == JOKER else SUIT_SYMBOLS[card >> 4])
    assert (lines[0][0] == "╔") == wild
    assert ("red" in styles_of(card_face(card, wild, size=size))) == is_red(card)


def test_large_backs_and_empty_slots_fill_their_box() -> None:
    back = lines_of(card_back(size=LARGE))
    assert back == ["┌─────┐", *["│░░░░░│"] * 3, "└─────┘"]
    assert lines_of(empty_slot(size=HUGE))[3] == "┆       ┆"
    assert lines_of(card_face(make_card(10, 1), False, size=LARGE)) == [
        "┌─────┐", "│10♥  │", "│  ♥  │", "│  10♥│", "└─────┘"]


def test_drawn_cards_are_kept_and_rows_of_them_match_side_by_side() -> None:
    """A card is drawn once per size and palette (the table repaints without building
    cards), and a row of kept lines is the same text and styles as ``side_by_side``."""
    ten = make_card(10, 1)
    assert drawn_card(ten, False, LARGE, DEFAULT_PALETTE) is \
        drawn_card(ten, False, LARGE, DEFAULT_PALETTE)
    assert drawn_lines(ten, True, HUGE, DEFAULT_PALETTE) is \
        drawn_lines(ten, True, HUGE, DEFAULT_PALETTE)
    for size in CARD_SIZES:
        row = [ten, None, make_card(JOKER, 0), make_card(1, 3)]
        fast = cards_in_a_row([drawn_lines(card, card is not None and card & 15 == JOKER,
                                           size, DEFAULT_PALETTE) for card in row], 1)
        slow = side_by_side([card_or_back(card, card is not None and card & 15 == JOKER,
                                          size=size) for card in row], 1)
        assert fast.plain == slow.plain
        assert fast.spans == slow.spans


def test_card_faces_read_as_expected() -> None:
    ten_hearts, jack_hearts, ace_spades = make_card(10, 1), make_card(11, 1), make_card(1, 0)
    assert lines_of(card_face(ten_hearts, False)) == ["┌───┐", "│10♥│", "└───┘"]
    assert lines_of(card_face(jack_hearts, True)) == ["╔═══╗", "║J♥*║", "╚═══╝"]
    assert lines_of(card_face(ace_spades, False)) == ["┌───┐", "│ A♠│", "└───┘"]
    assert card_face(ten_hearts, False, compact=True).plain == "10♥"
    assert card_face(ace_spades, False, compact=True).plain == " A♠"
    assert card_face(jack_hearts, True, compact=True).plain == "J♥*"
    assert card_face(JOKERS[1], True, compact=True).plain == "Jk*"
    assert lines_of(card_face(JOKERS[0], True)) == ["╔═══╗", "║Jk*║", "╚═══╝"]
    # wider cards keep the suits in one column and spell the Joker out
    assert lines_of(card_face(ace_spades, False, 6))[1] == "│ A♠ │"
    assert lines_of(card_face(ten_hearts, False, 6))[1] == "│10♥ │"
    assert lines_of(card_face(JOKERS[0], True, 8))[1] == "║JOKER*║"
    assert card_face(JOKERS[0], True, 8, compact=True).plain.strip() == "Jk*"


def test_black_cards_take_the_palette_black_and_red_ones_red() -> None:
    palette = CardPalette(red="magenta", black="blue", wild="underline", back="green")
    assert styles_of(card_face(make_card(5, 0), False, palette=palette)) == {"blue"}
    assert styles_of(card_face(make_card(5, 2), False, palette=palette)) == {"magenta"}
    assert styles_of(card_face(make_card(13, 3), True, palette=palette)) == {"blue", "underline"}
    assert styles_of(card_back(palette=palette)) == {"green"}
    assert styles_of(card_face(make_card(5, 3), False)) == set()  # default: surrounding style


def test_backs_and_empty_slots() -> None:
    back = card_back()
    assert lines_of(back) == ["┌───┐", "│░░░│", "└───┘"]
    assert card_back(compact=True).plain == BACK_CHAR * COMPACT_WIDTH
    assert card_back(4, compact=True).plain == BACK_CHAR * 4
    assert lines_of(card_back(7))[1] == "│" + BACK_CHAR * 5 + "│"
    assert "dim" in styles_of(back)
    empty = empty_slot()
    assert lines_of(empty) == ["┌┄┄┄┐", "┆   ┆", "└┄┄┄┘"]
    assert empty_slot(compact=True).plain == " · "
    assert card_or_back(None).plain == back.plain
    assert card_or_back(make_card(2, 0), compact=True).plain == " 2♠"
    for text in (back, empty, card_back(compact=True), empty_slot(compact=True)):
        assert not any(symbol in text.plain for symbol in SUIT_SYMBOLS)


def test_too_narrow_cards_are_refused() -> None:
    with pytest.raises(ValueError, match="too few"):
        card_face(make_card(10, 1), False, 2, compact=True)
    with pytest.raises(ValueError, match="at least"):
        card_back(2)
    with pytest.raises(ValueError, match="too few"):
        card_face(make_card(10, 1), True)  # "10♥*" needs four columns
    assert lines_of(card_face(make_card(10, 1), True, 6))[1] == "║10♥*║"
    assert card_face(make_card(10, 1), True, 4, compact=True).plain == "10♥*"
    assert face_label(make_card(11, 0), True, 3) == "J♠*"
    assert face_label(make_card(1, 0), False, 4) == " A♠"


def test_side_by_side_pads_every_block() -> None:
    row = side_by_side([card_face(make_card(10, 1), False), Text("ab"), card_back()], gap=2)
    assert lines_of(row) == [
        "┌───┐  ab  ┌───┐",
        "│10♥│      │░░░│",
        "└───┘      └───┘",
    ]
    assert text_width(row) == 16
    assert "red" in styles_of(row)


# --- the widgets -----------------------------------------------------------------------
def observation_after(players: int, actions: int, rules: Rules | None = None) -> Observation:
    """Seat 0's view after the first legal action was taken ``actions`` times (fixed deck)."""
    rules = rules or Rules()
    deck = build_deck(decks_for(players), False)
    deal = Deal(rules, (rules.start_size,) * players, 0, deck)
    for _ in range(actions):
        deal.apply(deal.legal[0])
    return deal.observation(0)


# 2 players: after one draw it is Bob's turn; 4 and 8: the third draw turns up a Jack
# (wild), so a chain is under way with a card in hand.
ACTIONS = {2: 1, 4: 3, 8: 3}


class TableApp(App[None]):
    """The piles over the table, as a board screen might show them."""

    def __init__(self, observation: Observation, names: Sequence[str] = NAMES) -> None:
        super().__init__()
        self.observation = observation
        self.names = names

    def compose(self) -> ComposeResult:
        yield PileView(id="piles")
        yield TableView(id="table")

    def on_mount(self) -> None:
        self.theme = "textual-dark"
        self.query_one(TableView).update_view(self.observation, self.names)
        self.query_one(PileView).update_view(self.observation)


def widget_text(widget: Widget) -> str:
    """What ``widget`` draws (border included), as plain text."""
    width, height = widget.outer_size
    return "\n".join(strip.text for strip in widget.render_lines(Region(0, 0, width, height)))


# players -> screen size -> the card size expected: the largest at which the table fits
EXPECTED_CARDS = {
    (2, (80, 24)): NORMAL,
    (4, (80, 24)): COMPACT,
    (8, (80, 24)): COMPACT,
    (2, (160, 48)): HUGE,
    (4, (160, 48)): HUGE,
    (8, (160, 48)): NORMAL,
}


def back_cells(size: CardSize) -> int:
    """How many ``░`` a card back of ``size`` shows."""
    return size.width if size.height == 1 else (size.width - 2) * (size.height - 2)


@pytest.mark.asyncio
@pytest.mark.parametrize(("players", "size"), list(EXPECTED_CARDS))
async def test_the_table_fits(players: int, size: tuple[int, int]) -> None:
    observation = observation_after(players, ACTIONS[players])
    app = TableApp(observation)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        table = app.query_one(TableView)
        views = table.layout_views
        assert len(views) == players
        assert table.fits
        assert table.card_size == EXPECTED_CARDS[players, size]
        assert table.compact is (table.card_size == COMPACT)
        larger = CARD_SIZES[:CARD_SIZES.index(table.card_size)]
        if larger:  # the next size up would not fit
            assert not arrange_table(observation.rules, [10] * players, table.size,
                                     card_sizes=larger[-1:]).fits
        screen = app.screen.region
        regions = [view.region for view in views]
        for index, (view, region) in enumerate(zip(views, regions, strict=True)):
            assert view.card_size == table.card_size
            assert view.compact is table.compact
            assert region.size == LayoutView.cell_size(observation.rules, 10, table.card_size)
            assert screen.contains_region(region), (index, region)
            assert not any(region.overlaps(other) for other in regions[index + 1:])
            text = widget_text(view)
            assert NAMES[index] in text
            assert "10 slots" in text
            assert ("▶" in text) == (index == observation.to_move)
            numbers = "".join(text.split())
            assert all(str(slot) in numbers for slot in range(1, 11))
            face_down = sum(card is None for card in observation.layouts[index])
            assert text.count(BACK_CHAR) == face_down * back_cells(table.card_size)
        piles = widget_text(app.query_one(PileView))
        assert f"Stock {observation.stock_count}" in piles
        assert "Discard" in piles
        assert app.screen.region.contains_region(app.query_one(PileView).region)
        if observation.hand is not None:
            assert f"In hand: J{SUIT_SYMBOLS[observation.hand >> 4]}*" in piles


@pytest.mark.asyncio
async def test_side_by_side_when_wide_stacked_when_narrow() -> None:
    observation = observation_after(4, ACTIONS[4])
    app = TableApp(observation)
    async with app.run_test(size=(160, 16)) as pilot:
        await pilot.pause()
        tops = {view.region.y for view in app.query_one(TableView).layout_views}
        assert len(tops) == 1  # one row of four
        await pilot.resize_terminal(80, 48)
        await pilot.pause()
        table = app.query_one(TableView)
        assert table.card_size == NORMAL  # 48 lines: two rows of two normal layouts
        assert len({view.region.y for view in table.layout_views}) == 2
        await pilot.resize_terminal(40, 40)
        await pilot.pause()
        assert len({view.region.x for view in table.layout_views}) == 1  # stacked
        assert table.fits and table.compact


@pytest.mark.asyncio
async def test_a_table_that_cannot_fit_says_so() -> None:
    observation = observation_after(8, ACTIONS[8])
    app = TableApp(observation)
    async with app.run_test(size=(80, 14)) as pilot:
        await pilot.pause()
        table = app.query_one(TableView)
        assert not table.fits and table.compact
        notice = widget_text(table.query_one("#table-notice"))
        assert "Not enough room for 8 layouts" in notice
        assert app.screen.region.contains_region(table.query_one("#table-notice").region)
        await pilot.resize_terminal(80, 30)
        await pilot.pause()
        assert table.fits
        assert not table.query_one("#table-notice").display


@pytest.mark.asyncio
async def test_seven_up_draws_one_row_and_a_won_deal_says_who_won() -> None:
    rules = Rules(start_size=7, layout_rows=1)
    seven_up = observation_after(2, 1, rules)
    app = TableApp(seven_up)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = app.query_one(TableView).layout_views[0]
        text = widget_text(view).split("\n")
        assert "7 slots" in text[1]
        assert "".join(text[-2].split("│")).split() == [str(slot) for slot in range(1, 8)]
        over = observation_after(2, 2)
        assert over.decision == "over" and over.winner == 1
        app.query_one(TableView).update_view(over, ["Alice", "Bob"])
        await pilot.pause()
        bob = widget_text(app.query_one(TableView).layout_views[1])
        assert "★ won" in bob and "▶" not in bob


@pytest.mark.asyncio
async def test_the_piles_compact_and_empty() -> None:
    observation = observation_after(4, ACTIONS[4])
    app = TableApp(observation)
    async with app.run_test(size=(80, 24)) as pilot:
        piles = app.query_one(PileView)
        piles.compact = True
        await pilot.pause()
        line = widget_text(piles).strip()
        assert line.startswith(BACK_CHAR)
        assert f"Stock {observation.stock_count} · Discard" in line
        assert line.endswith("In hand: J♠*")
        piles.compact = False
        piles.styles.width = 24  # too narrow for three cards and their labels: one per line
        await pilot.pause()
        lines = [line for line in widget_text(piles).split("\n") if line.strip()]
        assert [line.strip()[:7] for line in lines] == ["░ Stock", "Discard", "In hand"]
        assert all(cell_len(line) <= 24 for line in lines)
        empty = observation_after(2, 0)
        piles.update_view(empty)
        piles.styles.width = None
        await pilot.pause()
        assert "Discard" in widget_text(piles) and "empty" not in widget_text(piles)
        assert "┆   ┆" in widget_text(piles)  # the empty pile's outline says it (issue 27)
        piles.compact = True
        await pilot.pause()
        assert "Discard: empty" in widget_text(piles)  # no outline on the compact line


@pytest.mark.asyncio
@pytest.mark.parametrize("width", [80, 34, 24, 16])
async def test_drawing_a_card_and_discarding_it_never_changes_the_piles_height(width: int) -> None:
    """The piles keep room for a card in hand, so the log under them does not jump (and the
    screen is not laid out again) at every draw and discard."""
    held = observation_after(4, ACTIONS[4])
    assert held.hand is not None
    app = TableApp(held)
    async with app.run_test(size=(80, 24)) as pilot:
        piles = app.query_one(PileView)
        piles.styles.width = width
        await pilot.pause()
        heights = [piles.outer_size.height]
        empty_handed = replace(held, hand=None)
        for observation in (empty_handed, held, empty_handed):
            piles.update_view(observation)
            await pilot.pause()
            heights.append(piles.outer_size.height)
            assert piles.lines_at(piles.content_size.width) == heights[0]
        assert len(set(heights)) == 1 and heights[0] > 0


@pytest.mark.asyncio
async def test_another_number_of_players_replaces_the_layouts() -> None:
    app = TableApp(observation_after(2, 1))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        table = app.query_one(TableView)
        for players in (4, 8, 2):
            table.update_view(observation_after(players, ACTIONS[players]), NAMES)
            await pilot.pause()
            assert len(table.layout_views) == players
            assert len(table.query(LayoutView)) == players
            assert NAMES[players - 1] in widget_text(table.layout_views[-1])


@pytest.mark.asyncio
async def test_long_names_are_shortened_to_fit_the_header() -> None:
    observation = observation_after(4, ACTIONS[4])
    names = ["Bartholomew the Magnificent"] * 4
    app = TableApp(observation, names)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.query_one(TableView)
        assert table.compact
        for seat, view in enumerate(table.layout_views):
            header = widget_text(view).split("\n")[0]
            assert cell_len(header.rstrip()) <= view.size.width + 1  # inside the padding
            # the word "slots" goes before any of the name (issue 27); the number stays
            assert "Bartholomew" in header and "…" in header
            assert header.rstrip().endswith(" 10")
            assert header.lstrip().startswith("▶") == (seat == observation.to_move)


@pytest.mark.asyncio
async def test_a_layout_keeps_its_width_as_it_shrinks() -> None:
    rules = Rules()
    assert LayoutView.measure(rules, 10, False) == Size(29, 9)
    assert LayoutView.measure(rules, 3, False) == Size(29, 5)
    assert LayoutView.measure(rules, 1, True) == Size(19, 3)
    seven_up = Rules(start_size=7, layout_rows=1)
    assert LayoutView.measure(seven_up, 7, True) == Size(27, 3)
    assert LayoutView.measure(seven_up, 1, False) == Size(17, 5)


def test_arrangement_prefers_the_largest_cards_then_balanced_rows() -> None:
    rules = Rules()
    plan = arrange_table(rules, [10] * 5, Size(160, 48))
    assert (plan.card_size, plan.columns, plan.rows, plan.fits) == (LARGE, 3, 2, True)
    plan = arrange_table(rules, [10] * 5, Size(160, 48), card_sizes=(NORMAL, COMPACT))
    assert (plan.compact, plan.columns, plan.rows, plan.fits) == (False, 3, 2, True)
    plan = arrange_table(rules, [10] * 8, Size(80, 20))
    assert (plan.compact, plan.columns, plan.rows, plan.fits) == (True, 3, 3, True)
    plan = arrange_table(rules, [10] * 8, Size(80, 10))
    assert plan.compact and not plan.fits


def test_rows_close_up_when_that_lets_larger_cards_fit() -> None:
    """Six layouts of large cards need three rows of 15 lines: 47 with a line between
    rows, 45 without, so in 46 lines the rows touch rather than the cards shrink."""
    plan = arrange_table(Rules(), [10] * 6, Size(126, 46))
    assert (plan.card_size, plan.columns, plan.rows, plan.gap) == (LARGE, 2, 3, (1, 0))
    assert plan.need == Size(87, 45)


def test_spare_room_widens_the_gaps_a_little() -> None:
    plan = arrange_table(Rules(), [10] * 4, Size(120, 60))
    wide = spread(plan, Size(120, 60))
    assert wide.card_size == plan.card_size and wide.columns == plan.columns
    assert plan.gap < wide.gap <= (4, 2)
    assert wide.need.width <= 120 and wide.need.height <= 60
    assert spread(plan, plan.need) == plan  # no room to spare: the gaps stay


# --- snapshots -------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_table_snapshot(
    snap_compare: Callable[..., bool], players: int, size: tuple[int, int]
) -> None:
    app = TableApp(observation_after(players, ACTIONS[players]))
    assert snap_compare(app, terminal_size=size)


@pytest.mark.asyncio
async def test_a_card_turned_up_repaints_only_its_row_and_shows_at_once() -> None:
    """A move that changes one slot of a layout repaints the lines of that row of cards
    (not the header, not the other row) and the view shows the new card, never the old."""
    before = observation_after(2, 0)
    app = TableApp(before)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        view = app.query_one(TableView).layout_views[0]
        width, height = view.outer_size
        lines_before = view.render_lines(Region(0, 0, width, height))
        layouts = [list(layout) for layout in before.layouts]
        slot = next(index for index, card in enumerate(layouts[0]) if card is None)
        layouts[0][slot] = 1
        after = replace(before, layouts=tuple(tuple(layout) for layout in layouts))
        drawn: list[int] = []
        render_line = view.render_line
        view.render_line = lambda y: drawn.append(y) or render_line(y)  # type: ignore[method-assign]
        app.query_one(TableView).update_view(after, NAMES)
        await pilot.pause()
        lines_after = view.render_lines(Region(0, 0, width, height))
        changed = [y for y, (old, new) in enumerate(zip(lines_before, lines_after, strict=True))
                   if old != new]
        assert len(changed) == view.card_size.height  # the card's lines, nothing else
        assert sorted(set(drawn)) == [y - 1 for y in changed]  # content lines, under the border
        assert card_label(1) in "".join(line.text for line in lines_after)
        assert card_label(1) not in "".join(line.text for line in lines_before)
        assert view.cards == after.layouts[0]


def border_colour(view: LayoutView) -> Color:
    """The colour of ``view``'s top border, as drawn."""
    return view.styles.border_top[1]


@pytest.mark.asyncio
async def test_the_seat_to_move_has_the_themes_accent_border_and_keeps_it_in_a_new_theme(
) -> None:
    """The seat to move is framed in the theme's accent, the others in the usual panel
    colour; the frame moves with the turn and follows a change of theme."""
    before = observation_after(2, 0)
    app = TableApp(before)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        views = app.query_one(TableView).layout_views
        mover = before.to_move

        def accent() -> Color:
            return Color.parse(app.theme_variables["accent"])

        assert border_colour(views[mover]) == accent()
        assert border_colour(views[1 - mover]) != accent()
        app.query_one(TableView).update_view(replace(before, to_move=1 - mover), NAMES)
        await pilot.pause()
        assert border_colour(views[1 - mover]) == accent()
        assert border_colour(views[mover]) != accent()
        dark_accent = accent()
        app.theme = "nord"
        await pilot.pause()
        await pilot.pause()
        assert accent() != dark_accent
        assert border_colour(views[1 - mover]) == accent()
        assert border_colour(views[mover]) != accent()
