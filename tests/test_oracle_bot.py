"""The oracle (issue 28): a research bot that sees every card. It plays only through
``bots.research.oracle.play_oracle_match``; players, tournaments and the app can never pick it, and
given only an observation it refuses to play. ``Deal.copy``, its window on the future, plays
on exactly like the deal it copies."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bots.base import BotError
from bots.builtin import random_policy
from bots.registry import REGISTRY, RESEARCH_NAMES, make_bot
from bots.research import BOTS, make_research_bot
from bots.research.oracle import OracleBot, ending_value, play_oracle_match
from bots.runner import BotFailure, play_match
from trash_tui.cards import build_deck, decks_for
from trash_tui.engine.actions import OVER
from trash_tui.engine.deal import Deal
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.presets import preset_rules
from trash_tui.tournament.config import TournamentError, load_tournament

STANDARD = preset_rules("standard")


def test_the_oracle_is_not_offered_and_its_name_is_refused() -> None:
    assert "oracle" not in REGISTRY  # `trash bots list`, the lobby, the settings
    for spec in ("oracle", {"name": "oracle", "level": 1}):
        with pytest.raises(BotError, match="research only"):
            make_bot(spec)
    assert set(BOTS) == RESEARCH_NAMES
    assert isinstance(make_research_bot("oracle"), OracleBot)
    oracle = make_research_bot({"name": "oracle", "level": 2, "passes": False}, seed=5)
    assert isinstance(oracle, OracleBot) and (oracle.level, oracle.passes) == (2, False)
    assert make_research_bot("greedy").name == "greedy"  # the others as make_bot makes them


def test_play_the_app_and_the_server_do_not_load_the_research_code() -> None:
    """Issue 38: what the app, a game's play and ``trash serve`` import (its fork server
    imports every module of the app and of play) leaves the oracle and the room
    measurement out: a fresh interpreter that imports them, makes every built-in bot and
    plays a match has no research module loaded."""
    script = textwrap.dedent("""
        import importlib, pkgutil, sys
        import trash_tui.app.app, trash_tui.cli.main, trash_tui.ssh.server
        import trash_tui.tables.service, trash_tui.tournament.play
        for name in ("trash_tui.app", "trash_tui.play"):  # as trash_tui/ssh/preload.py
            package = importlib.import_module(name)
            for module in pkgutil.walk_packages(package.__path__, name + "."):
                importlib.import_module(module.name)
        from bots.registry import REGISTRY, make_bot
        from bots.runner import play_match
        from trash_tui.presets import preset_rules
        bots = [make_bot(name, seed=1) for name in REGISTRY]
        play_match(preset_rules("standard"), [make_bot("greedy"), make_bot("random")], 3)
        print(" ".join(sorted(name for name in sys.modules
                              if name.startswith("bots.research"))))
        """)
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, timeout=120).stdout.split()
    assert loaded == []


def test_a_tournament_naming_the_oracle_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cup.toml"
    path.write_text('seed = 1\nmatches = 2\n[[bots]]\nbot = "oracle"\n'
                    '[[bots]]\nbot = "greedy"\n', encoding="utf-8")
    with pytest.raises(TournamentError, match="research only"):
        load_tournament(path)


def test_given_only_an_observation_the_oracle_forfeits() -> None:
    """Loaded by its import path into an ordinary match, it cannot see anything and says
    so: the runner reports a forfeit naming it."""
    oracle = make_bot("bots.research.oracle:OracleBot")
    with pytest.raises(BotFailure, match="plays only in research runs"):
        play_match(STANDARD, [oracle, make_bot("greedy")], 7)


def test_the_oracle_beats_greedy_on_duplicate_boards() -> None:
    """Seeing the stock's order it can steer which card each player draws (a pass): it
    wins every match of these boards, from either seat."""
    for board in range(4):
        for swap in (False, True):
            oracle = make_research_bot({"name": "oracle", "level": 1}, seed=board)
            bots = [make_bot("greedy"), oracle] if swap else [oracle, make_bot("greedy")]
            match = play_oracle_match(STANDARD, bots, derive_seed("oracle", board))
            assert match.result is not None
            assert match.result.winner == (1 if swap else 0), (board, swap)
            assert oracle.decision_times and oracle.playouts > 0


def test_without_passes_the_oracle_never_takes_a_discard_that_fits_nowhere() -> None:
    oracle = make_research_bot({"name": "oracle", "passes": False}, seed=1)
    greedy = make_bot("greedy")
    match = play_oracle_match(preset_rules("kids"), [oracle, greedy], 11)
    deals = match.history
    assert deals
    for summary in deals:
        # replay the deal's actions and check every discard the oracle drew fitted
        rules = preset_rules("kids")
        deal = Deal(rules, summary.sizes, summary.first, list(summary.deck))
        for action in summary.actions:
            if deal.to_move == 0 and action == 1:  # DRAW_DISCARD
                assert deal.fits(0, deal.discard[-1])
            deal.apply(action)


def test_an_ending_is_worth_most_when_only_the_oracle_shrinks() -> None:
    deal = Deal(STANDARD, (3, 3), 0, build_deck(decks_for(2), False))
    deal.shrinking, deal.face_down = (0,), [0, 2]
    deal.phase = OVER
    assert ending_value(deal, 0) == pytest.approx(1.01)
    assert ending_value(deal, 1) == pytest.approx(-0.5 + 0.01 / 3)


@pytest.mark.parametrize("preset", ["standard", "jokers", "call-trash", "three-free-draws"])
def test_a_copied_deal_plays_on_exactly_like_the_original(preset: str) -> None:
    """Copies taken anywhere in a deal (lazily shuffled stock, reshuffles) draw the same
    cards under the same decisions, and playing a copy leaves the original untouched."""
    rules = preset_rules(preset)
    cards = build_deck(decks_for(2), rules.jokers)
    for index in range(12):
        rng = Rng(derive_seed(preset, index))
        deal = Deal(rules, (rules.start_size, rules.start_size), 0, cards,
                    reshuffle=rng.shuffle, shuffle_with=rng)
        policy_rng = Rng(index)
        step = 0
        while deal.phase != OVER:
            if step % 7 == 3:
                twin = deal.copy()
                before = (list(deal.actions), list(deal.discard), deal.stock_count)
                twin_rng = Rng(step)
                while twin.phase != OVER:
                    twin.apply(random_policy(twin, twin.to_move, twin_rng))
                assert (deal.actions, deal.discard, deal.stock_count) == before
                shadow, shadow_rng = deal.copy(with_events=False), Rng(step)
                while shadow.phase != OVER:
                    shadow.apply(random_policy(shadow, shadow.to_move, shadow_rng))
                assert (shadow.actions, shadow.deck, shadow.reshuffles, shadow.shrinking) == \
                    (twin.actions, twin.deck, twin.reshuffles, twin.shrinking)
            deal.apply(random_policy(deal, deal.to_move, policy_rng))
            step += 1
