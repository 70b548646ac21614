"""Chains shown step by step: the frames between two decisions end where the engine does,
and never show a card the viewer cannot see."""

from __future__ import annotations

from board_helpers import summary_up
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.builtin import greedy_policy
from trash_tui.app.app import create_app
from trash_tui.app.trash.animation import chain_frames
from trash_tui.app.trash.board import BoardScreen
from trash_tui.engine.match import Match
from trash_tui.engine.rng import Rng
from trash_tui.rules import Rules

SHOWN_ONLY = {"draw", "place", "swap", "keep", "discard", "call", "silent"}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 5),
       wilds=st.sampled_from(["jacks", "kings", "faces", "none"]), jokers=st.booleans())
def test_the_last_frame_of_a_chain_is_the_table_the_engine_leaves(
        seed: int, players: int, wilds: str, jokers: bool) -> None:
    match = Match(Rules(wilds=wilds, jokers=jokers, start_size=6), players, seed)
    rng = Rng(seed)
    viewer = 0
    for _ in range(400):
        if match.over:
            break
        before = match.observation(viewer)
        start = len(match.events)
        match.apply(greedy_policy(match.deal, match.to_move, rng))
        events = match.events[start:]
        frames = chain_frames(before, events)
        if not frames:
            continue
        after = match.observation(viewer)
        last, count = frames[-1]
        placed = {(e[1], e[2] - 1, e[3]) for e in events if e[0] in ("place", "swap")}
        for frame, _ in frames:  # face up: what the viewer saw, or a card placed in public
            for seat, layout in enumerate(frame.layouts):
                for slot, card in enumerate(layout):
                    assert card is None or card == before.layouts[seat][slot] or \
                        (seat, slot, card) in placed
        if all(event[0] in SHOWN_ONLY for event in events):
            assert count == len(events)
            assert last.layouts == after.layouts
            assert last.discard == after.discard
            assert last.stock_count == after.stock_count
            assert last.hand == after.hand


async def test_with_animation_a_chain_is_shown_step_by_step_and_play_goes_on() -> None:
    app = create_app(Rules(start_size=4), ["human", "greedy"], seed=7, animation="fast",
                     play_now=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BoardScreen)
        seen_animating = False
        for _ in range(400):
            await pilot.pause(0.03)
            seen_animating = seen_animating or board.animating
            if board.controller.over or len(board.controller.actions) > 60:
                break
            if summary_up(app):
                await pilot.press("enter")
            elif board.controller.waiting_for_human and not board.animating:
                await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
        assert seen_animating
        assert len(board.controller.actions) > 20
