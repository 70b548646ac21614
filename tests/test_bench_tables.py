"""benchmarks/tables.py's count of actions lost (issue 13): each draw a player made and saw
is looked for among their seat's saved draws by the stock's count they saw.

A shared table's match is saved here as the table service saves it (``start_saved_match``
under the shared owner, the players' keys in ``match_players``); the players are what the
benchmark keeps of each one: their name, key, and for each draw the stock's count when
they pressed ``s`` and the count their screen showed next.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from trash_tui.engine.actions import DRAW_STOCK
from trash_tui.history import SHARED_OWNER
from trash_tui.play.controller import MatchController
from trash_tui.play.saving import start_saved_match
from trash_tui.players.rater import open_history
from trash_tui.presets import PRESETS

NAMES = ["P01a", "P01b", "P01c", "P01d"]
SEED = 20261201


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "tables.py"
    spec = importlib.util.spec_from_file_location("bench_tables", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_tables"] = module
    spec.loader.exec_module(module)
    return module


def play_draws(controller: MatchController, players: list[SimpleNamespace],
               draws: int) -> None:
    """Every seat draws from the stock ``draws`` times (other questions: the first legal
    answer); each player keeps the counts their screen would show around their draw."""
    while min(player.draws for player in players) < draws and not controller.over:
        seat = controller.to_move
        legal = controller.legal()
        if DRAW_STOCK in legal:
            before = controller.observation(seat).stock_count
            controller.play(DRAW_STOCK)
            after = controller.observation(seat).stock_count
            players[seat].draws += 1
            players[seat].seen.append((before, after))
        else:
            controller.play(legal[0])


def saved_table(tmp_path: Path) -> tuple[Path, MatchController, list[SimpleNamespace]]:
    path = tmp_path / "history.sqlite3"
    players = [SimpleNamespace(name=name, identity=f"key:{name}", draws=0, seen=[])
               for name in NAMES]
    with open_history(path) as history:
        for player in players:
            history.players.register_player(player.identity, player.name)
        controller = start_saved_match(history, SHARED_OWNER, PRESETS["standard"].rules,
                                       ["human"] * 4, SEED, human_names=NAMES)
        history.matches.add_match_players(controller.match_id or 0,
                                          [(seat, player.identity)
                                           for seat, player in enumerate(players)])
        play_draws(controller, players, 8)
    return path, controller, players


def test_every_draw_made_and_saved_is_no_action_lost(bench: ModuleType,
                                                      tmp_path: Path) -> None:
    path, _, players = saved_table(tmp_path)
    check = bench.count_saved_draws(path, [SimpleNamespace(number=1, players=players)])
    assert check.lost == 0, check.details
    assert check.saved == sum(player.draws for player in players) >= 32


def test_a_draw_shown_but_not_saved_is_an_action_lost_naming_the_player(
        bench: ModuleType, tmp_path: Path) -> None:
    path, controller, players = saved_table(tmp_path)
    controller.listeners.clear()  # the table takes the next move but does not save it
    while DRAW_STOCK not in controller.legal():
        controller.play(controller.legal()[0])
    mover = players[controller.to_move]
    before = controller.observation(controller.to_move).stock_count
    controller.play(DRAW_STOCK)
    mover.draws += 1
    mover.seen.append((before, controller.observation(controller.to_move).stock_count))
    check = bench.count_saved_draws(path, [SimpleNamespace(number=1, players=players)])
    assert check.lost == 1
    assert check.details[0].startswith(f"{mover.name} drew at a stock of {before} ")


def test_another_seats_draw_taken_for_a_players_own_is_an_action_lost(
        bench: ModuleType, tmp_path: Path) -> None:
    """The benchmark's old mistake: a player's screen still showed the count before the
    last player's draw when it asked them to move, so that draw looked like theirs."""
    path, _, players = saved_table(tmp_path)
    first, second = players[0], players[1]
    claimed = next(seen for seen in second.seen if seen not in first.seen)
    first.seen.append(claimed)
    first.draws += 1
    check = bench.count_saved_draws(path, [SimpleNamespace(number=1, players=players)])
    assert check.lost == 1
    assert check.details == [
        f"P01a drew at a stock of {claimed[0]} (then saw {claimed[1]}): seat 1's saved "
        f"draws are at {', '.join(str(before) for before, _ in first.seen[:-1])}"]


def test_a_table_whose_match_is_not_in_the_database_loses_all_its_draws(
        bench: ModuleType, tmp_path: Path) -> None:
    path, _, players = saved_table(tmp_path)
    strangers = [SimpleNamespace(name=f"P02{letter}", identity=f"key:P02{letter}", draws=2,
                                 seen=[(60, 59), (56, 55)]) for letter in "abcd"]
    check = bench.count_saved_draws(path, [SimpleNamespace(number=1, players=players),
                                           SimpleNamespace(number=2, players=strangers)])
    assert check.lost == 8
    assert check.details == ["table 2: 0 saved matches of its four players, not one "
                             "(8 draws made)"]
