"""Who sits directly after whom: at 3 and more players the schedule seats each pairing in
several cyclic seat orders, so over a whole schedule every bot sits directly after every
other equally often (a cyclic rotation alone never changes it), and ``trash tournament
check`` shows the counts. A run started before seat orders keeps its cyclic seats."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from trash_tui.tournament.config import load_tournament
from trash_tui.tournament.schedule import follow_counts, schedule, seat_orders

ROOT = Path(__file__).resolve().parent.parent


def _file(tmp_path: Path, players: int, bots: int, boards: int, duplicate: bool) -> Path:
    path = tmp_path / "t.toml"
    names = ["greedy", "easy", "normal", "hard", "counter", "random", "greedy", "easy",
             "normal", "hard"]
    path.write_text(f"seed = 5\nplayers = {players}\ndeals = {boards}\n"
                    f"duplicate = {'true' if duplicate else 'false'}\n"
                    + "".join(f'[[bots]]\nname = "b{i}"\nbot = "{names[i]}"\n'
                              for i in range(bots)), encoding="utf-8")
    return path


def _follows(games: list) -> Counter:
    after: Counter = Counter()
    for game in games:
        seats = game.seats
        for seat, bot in enumerate(seats):
            after[(seats[(seat + 1) % len(seats)], bot)] += 1
    return after


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_every_bot_sits_directly_after_every_other_equally_often(players: int) -> None:
    orders = seat_orders(players)
    for order in orders:
        assert sorted(order) == list(range(players))
    arcs = Counter((o[(s + 1) % players], o[s]) for o in orders for s in range(players))
    assert len(arcs) == players * (players - 1) and len(set(arcs.values())) == 1


@pytest.mark.parametrize(("players", "bots", "duplicate"),
                         [(3, 3, False), (3, 5, True), (4, 4, True), (4, 6, False),
                          (5, 6, True)])
def test_a_whole_schedule_balances_who_follows_whom(tmp_path: Path, players: int, bots: int,
                                                    duplicate: bool) -> None:
    cycle = len(seat_orders(players)) * (1 if duplicate else players)
    config = load_tournament(_file(tmp_path, players, bots, cycle, duplicate))
    games = list(schedule(config))
    after = _follows(games)
    pairs = [(a, b) for a in range(bots) for b in range(bots) if a != b]
    assert max(after[p] for p in pairs) - min(after[p] for p in pairs) <= 1
    counts = follow_counts(config)
    assert all(counts[a][b] == after[(a, b)] for a, b in pairs)
    # and every bot still sits in every seat equally often
    seats = Counter((bot, seat) for g in games for seat, bot in enumerate(g.seats))
    assert len(set(seats.values())) == 1


def test_follow_counts_match_the_schedule_on_an_unfinished_round(tmp_path: Path) -> None:
    config = load_tournament(_file(tmp_path, 4, 5, 7, False))
    after = _follows(list(schedule(config)))
    counts = follow_counts(config)
    assert all(counts[a][b] == after[(a, b)] for a in range(5) for b in range(5) if a != b)


def test_a_cyclic_run_keeps_its_old_seats(tmp_path: Path) -> None:
    config = load_tournament(_file(tmp_path, 3, 3, 6, False))
    old = dataclasses.replace(config, seating="cyclic")
    assert [g.seats for g in schedule(old)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)] * 2
    assert [g.seats for g in schedule(config)][3:] == [(0, 2, 1), (2, 1, 0), (1, 0, 2)]


def test_check_shows_who_sits_after_whom(tmp_path: Path) -> None:
    path = _file(tmp_path, 3, 4, 6, False)
    done = subprocess.run([sys.executable, "-m", "trash_tui.cli.main", "tournament", "check",
                           str(path)], capture_output=True, text=True, check=False, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "seating: 2 seat orders per pairing; each bot sits directly after each other " \
        "6 times" in lines
    assert "  games where the row's bot sits directly after the column's:" in lines
    assert any(line.split() == ["b0", "-", "6", "6", "6"] for line in lines)
