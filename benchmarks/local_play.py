"""The app's CPU per action in a local match: a seeded match against a bot, played headless.

The app is built as ``trash`` builds it (``create_app``) and run with Textual's test
driver at 100×32: the board draws every frame as it would on a terminal, but nothing is
written out. The human always plays the first legal move; the deal's summary is closed
with enter. The animation is "fast" (the same frames as "normal", shorter waits). Prints
the CPU seconds (this process, user + system) from the first move to the last divided by
the actions played (the bot's included), the best of ``--runs`` runs.

``benchmarks/ssh.py`` runs it before and after its load as its reference: the ms of CPU
of its figures depend on the hour on this machine (the same code has measured 34 ms and
19 ms an action on different evenings), and this figure moves with them.

    python benchmarks/local_play.py [--moves N] [--runs N]
"""

from __future__ import annotations

import sys
from pathlib import Path

# benchmarks/bots.py shares its name with the ``bots`` package: never import it by mistake.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import asyncio
import os
import tempfile
import time

from trash_tui.app.app import create_app
from trash_tui.app.trash.board import BoardScreen
from trash_tui.rules import Rules

SEED = 5
SIZE = (100, 32)


async def play(moves: int) -> tuple[float, int]:
    """(CPU seconds, actions) of ``moves`` human moves in a seeded match."""
    app = create_app(Rules(), ["human", "normal"], seed=SEED, animation="fast",
                     play_now=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BoardScreen)
        controller = board.controller
        started = time.process_time()
        first = len(controller.actions)
        made = 0
        while made < moves and not controller.over:
            await pilot.pause(0.02)
            if board.summary_shown:
                await pilot.press("enter")
            elif controller.waiting_for_human and not board.animating:
                await pilot.press(BoardScreen.key_for(controller.legal()[0]))
                made += 1
        return time.process_time() - started, len(controller.actions) - first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=30, help="human moves a run plays")
    parser.add_argument("--runs", type=int, default=3, help="runs (the best is kept)")
    args = parser.parse_args()
    if args.moves < 1 or args.runs < 1:
        parser.error("--moves and --runs must be at least 1")
    with tempfile.TemporaryDirectory() as folder:  # never the user's history
        os.environ["TRASH_TUI_HISTORY"] = os.path.join(folder, "history.sqlite3")
        results = [asyncio.run(play(args.moves)) for _ in range(args.runs)]
    per_action = min(cpu / max(1, actions) for cpu, actions in results)
    print(f"local play, headless at {SIZE[0]}×{SIZE[1]}: {per_action * 1000:.1f} ms of CPU "
          f"an action (best of {args.runs} runs of {args.moves} human moves, "
          f"{results[0][1]} actions each)")


if __name__ == "__main__":
    main()
