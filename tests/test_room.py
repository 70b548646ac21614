"""The room for skill (issue 28, ``bots/research/room.py``): at each decision, how much an honest
player could gain on greedy's move. It finds a better move where there is one, finds none
where the moves are worth the same, and its figures come from whole greedy matches."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from helpers import cards, complete, play, stack

from bots.research.room import KINDS, decision_room, room_match
from trash_tui.cards import build_deck, decks_for
from trash_tui.engine.actions import DRAW_DISCARD, DRAW_STOCK, KEEP, SWAP, wild_action
from trash_tui.engine.deal import Deal
from trash_tui.engine.observation import Observation
from trash_tui.presets import preset_rules
from trash_tui.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
STANDARD = Rules()
SEAT0 = "AS 2S 3H 4H 5S 6S 7S 8S 9S 10S"
SEAT1 = "AD 2D QH KH 5D 6D 7D 8D 9D 10D"


def position(stock: str, *actions: int) -> Observation:
    """The observation of the seat to move after ``actions`` on a stacked deck."""
    layouts: Sequence[str] = [SEAT0, SEAT1]
    sizes = [len(cards(layout)) for layout in layouts]
    deck = complete(stack(layouts, stock), build_deck(decks_for(2), STANDARD.jokers))
    deal = Deal(STANDARD, sizes, 0, deck)
    play(deal, *actions)
    return deal.observation(deal.to_move)


def swap_position() -> Observation:
    """Seat 1's slot 4 holds a wild, and it has drawn the 4D: swap or keep."""
    observation = position("4S JS QS 4D", DRAW_STOCK, DRAW_STOCK, wild_action(4), DRAW_STOCK,
                           DRAW_STOCK)
    assert observation.decision == "swap" and observation.legal == (SWAP, KEEP)
    return observation


def test_keeping_a_wild_in_place_is_measured_as_the_worse_move() -> None:
    room = decision_room(swap_position(), SWAP, samples=200, seed=1)
    assert room.kind == "swap"
    assert room.pick == SWAP and room.gain == 0.0  # greedy's move stands
    assert room.alternative < -0.1  # keeping ends the turn: the chain is lost


def test_a_better_move_than_the_given_one_is_found_and_measured_on_fresh_samples() -> None:
    """Told that the move to beat is keeping the wild, the measurement picks the swap and
    confirms its gain on the half of the samples it did not choose with."""
    room = decision_room(swap_position(), KEEP, samples=200, seed=1)
    assert room.pick == SWAP
    assert room.gain > 0.1 and room.gain > 3 * room.error


def test_a_pass_is_worth_less_than_drawing_from_the_stock() -> None:
    observation = position("QS", DRAW_STOCK)  # a Queen (trash) tops the discard pile
    assert observation.legal == (DRAW_STOCK, DRAW_DISCARD)
    room = decision_room(observation, DRAW_STOCK, samples=200, seed=2)
    assert room.kind == "pass" and room.pick == DRAW_STOCK
    assert room.alternative < 0


def test_where_a_wild_goes_changes_nothing_a_player_can_know() -> None:
    """Seat 1 holds a Jack with ten face-down slots: what each hides is unknown, and a
    wild on any slot still gives way to that slot's natural card (the swap), so every slot
    is worth the same: the measured room is zero within the noise."""
    observation = position("4S JS", DRAW_STOCK, DRAW_STOCK)
    assert observation.decision == "wild" and len(observation.legal) == 10
    room = decision_room(observation, observation.legal[0], samples=400, seed=3)
    assert room.kind == "wild slot"
    assert abs(room.alternative) < 0.03
    assert room.gain <= 2 * room.error + 1e-9  # no move confirmed better


def test_a_greedy_match_is_measured_at_every_decision_and_reproducibly() -> None:
    rules = preset_rules("kids")  # five slots: a short match
    room = room_match(rules, 2, seed=5, samples=20)
    again = room_match(rules, 2, seed=5, samples=20)
    assert room.decisions == again.decisions and room.deal_gains == again.deal_gains
    assert len(room.decisions) > 20
    assert {d.kind for d in room.decisions} <= set(KINDS)
    assert {"pass", "fitting discard"} <= {d.kind for d in room.decisions}
    # one total per deal and seat, each the sum of that seat's gains in the deal
    assert len(room.deal_gains) % 2 == 0 and len(room.deal_gains) >= 2 * 5
    assert abs(sum(room.deal_gains) - sum(d.gain for d in room.decisions)) < 1e-9
    short = room_match(rules, 2, seed=5, samples=20, max_decisions=3)
    assert short.decisions == room.decisions[:3]


def test_the_benchmark_prints_the_room_per_row_and_per_kind_of_decision() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bots.py"), "--only", "room",
         "--presets", "start size 5", "--room-matches", "1", "--room-samples", "10",
         "--workers", "1"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("start size 5") and "[" in line for line in lines), done.stdout
    assert any(line.startswith("pass ") for line in lines), done.stdout
    assert "gain per deal and seat" in done.stdout


def test_the_benchmark_measures_a_row_the_nine_leave_out() -> None:
    """``--presets preset/players`` runs any preset at any table size it allows (issue 36:
    11 of the 18 presets and 5-8 players were never measured); a table the preset does not
    allow is a one-line error."""
    bench = [sys.executable, str(ROOT / "benchmarks" / "bots.py"), "--only", "room",
             "--room-matches", "1", "--room-samples", "4", "--workers", "1", "--presets"]
    done = subprocess.run([*bench, "lucky-reveal/2"], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert any(line.startswith("lucky-reveal/2 ") and "[" in line
               for line in done.stdout.splitlines()), done.stdout
    refused = subprocess.run([*bench, "three-free-draws/5"], capture_output=True, text=True,
                             timeout=300, cwd=ROOT)
    assert refused.returncode != 0
    assert refused.stderr.strip().count("\n") == 0 and "2-player rule" in refused.stderr
