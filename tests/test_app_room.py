"""Issue 16 item 11: the board uses the room at every size from 80×24 up — the largest
cards at which every layout fits, the table in the middle of its room, the side column
(piles and log) wider on wide screens — while 80×24 stays as it was: everything on the
screen, the status line and the footer visible. And a move costs no new layout of the
table, its cards drawn once (Textual pilot, seeded games)."""

from __future__ import annotations

import pytest
from board_helpers import summary_up
from textual.geometry import Region, Size
from textual.widget import Widget

from trash_tui.app.app import create_app
from trash_tui.app.trash.board import BoardScreen
from trash_tui.app.widgets import table as table_module
from trash_tui.app.widgets.cards import CARD_SIZES, COMPACT, HUGE, LARGE, NORMAL, drawn_lines
from trash_tui.app.widgets.table import GROW_SPARE, LayoutView, PileView, TableView, arrange_table
from trash_tui.app.widgets.table_room import SIDE_LEAST, SIDE_USUAL, TableRoom
from trash_tui.rules import Rules


def board_app(players: int):
    return create_app(Rules(), ["human"] + ["greedy"] * (players - 1), seed=7,
                      animation="off", play_now=True)


async def board_after_moves(pilot, moves: int = 3) -> BoardScreen:
    """The board after the human's first ``moves`` moves (the bots playing between)."""
    await pilot.pause()
    board = pilot.app.screen
    assert isinstance(board, BoardScreen)
    done = 0
    while done < moves:
        await pilot.pause()
        if summary_up(pilot.app):
            await pilot.press("enter")
        elif board.controller.legal():
            await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
            done += 1
    await pilot.pause()
    return board


def text_of(widget: Widget) -> str:
    width, height = widget.outer_size
    return "\n".join(strip.text for strip in widget.render_lines(Region(0, 0, width, height)))


def check_everything_is_on_the_screen(board: BoardScreen) -> None:
    """Every layout whole and on the screen, none over another or over the side column;
    the piles, the log, the status line and the footer on the screen too."""
    screen = board.region
    table = board.query_one(TableView)
    side = board.query_one("#board-side")
    assert table.fits
    views = table.layout_views
    regions = [view.region for view in views]
    for index, (view, region) in enumerate(zip(views, regions, strict=True)):
        assert screen.contains_region(region), (index, region, screen)
        assert not region.overlaps(side.region)
        assert not any(region.overlaps(other) for other in regions[index + 1:])
        assert region.size == LayoutView.cell_size(view.rules, len(view.cards), view.card_size)
        numbers = "".join(text_of(view).split())
        assert f"{len(view.cards)}slots" in numbers
        assert all(str(slot) in numbers for slot in range(1, len(view.cards) + 1))
    for name in ("#piles", "#board-log", "#board-status", "TrashFooter"):
        widget = board.query_one(name)
        assert widget.region.height >= 1, name
        assert screen.contains_region(widget.region), name
    status = board.query_one("#board-status")
    assert "Your move" in text_of(status) or "playing" in text_of(status)


@pytest.mark.parametrize("players", [2, 4, 6])
async def test_item_11_at_80x24_everything_still_fits_as_before(players: int) -> None:
    async with board_app(players).run_test(size=(80, 24)) as pilot:
        board = await board_after_moves(pilot)
        check_everything_is_on_the_screen(board)
        # as before: a side column of 34 and normal piles beside small cards
        assert board.query_one("#board-side").size.width == SIDE_USUAL
        assert board.query_one(PileView).card_size == NORMAL
        assert board.query_one(TableView).card_size in (NORMAL, COMPACT)
        assert "Stock" in text_of(board.query_one(PileView))


async def test_item_11_at_160x48_four_layouts_fill_the_room_not_its_top_left() -> None:
    async with board_app(4).run_test(size=(160, 48)) as pilot:
        board = await board_after_moves(pilot)
        check_everything_is_on_the_screen(board)
        table = board.query_one(TableView)
        assert table.card_size in (LARGE, HUGE)
        screen = board.region
        views = [view.region for view in table.layout_views]
        covered = sum(region.area for region in views)
        assert covered >= 0.4 * screen.area, (covered, screen.area)
        quarter = Region(0, 0, screen.width // 2, screen.height // 2)
        assert not all(quarter.contains_region(region) for region in views)
        # the grid sits in the middle of the table's room, not against its top
        grid = Region.from_union(views)
        room = table.region
        assert abs((grid.x - room.x) - (room.right - grid.right)) <= 1
        assert abs((grid.y - room.y) - (room.bottom - grid.bottom)) <= 1
        # the side column is wider than at 80 columns, the piles drawn larger
        assert board.query_one("#board-side").size.width > SIDE_USUAL
        assert board.query_one(PileView).card_size == LARGE


SIZES = [(100, 32), (120, 40), (160, 48), (200, 60)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("players", [2, 4, 6])
async def test_item_11_every_size_fits_with_the_largest_cards_there_is_room_for(
        size: tuple[int, int], players: int) -> None:
    async with board_app(players).run_test(size=size) as pilot:
        board = await board_after_moves(pilot, moves=1)
        check_everything_is_on_the_screen(board)
        table = board.query_one(TableView)
        rules, sizes = table.shape or (Rules(), ())
        # no larger size would fit beside even the narrowest side column (with a line to
        # spare, so that a status line wrapping onto a second line does not shrink it)
        room = board.query_one(TableRoom).size
        for larger in CARD_SIZES[:CARD_SIZES.index(table.card_size)]:
            wide = Size(room.width - SIDE_LEAST, room.height - GROW_SPARE)
            assert not arrange_table(rules, sizes, wide, card_sizes=[larger]).fits
        side = board.query_one("#board-side").size.width
        assert SIDE_LEAST <= side <= max(SIDE_USUAL, size[0] * 3 // 10)


async def test_item_11_the_cards_keep_their_size_as_the_status_line_wraps_and_unwraps(
        ) -> None:
    """At 80×24 the status line takes one line or two from move to move; the cards must
    not grow and shrink with it."""
    async with board_app(2).run_test(size=(80, 24)) as pilot:
        board = await board_after_moves(pilot, moves=0)
        table = board.query_one(TableView)
        status = board.query_one("#board-status")
        heights, card_sizes = set(), set()
        for _ in range(30):  # the human's moves, and the end of a deal if one comes
            await pilot.pause()
            if summary_up(pilot.app):
                await pilot.press("enter")
            elif board.controller.legal():
                heights.add(status.size.height)
                card_sizes.add(table.card_size)
                await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
        assert {1, 2} <= heights, heights
        assert len(card_sizes) == 1, card_sizes


async def test_item_11_a_move_lays_the_table_out_again_only_when_a_size_changes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Within a deal no layout changes size: the moves arrange nothing again, and every
    card is drawn once and then taken from the cache."""
    arranged: list[int] = []
    real = table_module.arrange_table

    def counting(*args, **kwargs):
        arranged.append(1)
        return real(*args, **kwargs)

    async with board_app(4).run_test(size=(160, 48)) as pilot:
        board = await board_after_moves(pilot, moves=1)
        deals = len(board.controller.match.history)
        monkeypatch.setattr(table_module, "arrange_table", counting)
        drawn_lines.cache_clear()
        await board_after_moves(pilot, moves=4)
        assert len(board.controller.match.history) == deals, "a deal ended: pick a seed"
        assert arranged == []
        cache = drawn_lines.cache_info()  # each card drawn once, then reused (a row that
        assert cache.misses == cache.currsize and cache.hits > 0  # did not change: not asked)
