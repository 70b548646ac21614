"""The oracle: a research bot that sees every card, to measure how much skill Trash allows.

It is never offered to players and cannot play in tournaments or the app: from an
observation (all any other driver gives a bot) it refuses to choose (``choose`` raises
``BotError``, a forfeit), and the registry refuses the name ``oracle``: only a research
caller builds it (``bots.research.make_research_bot``). Only ``play_oracle_match`` here
(``benchmarks/bots.py``) plays it: it hands the oracle the live deal, with its own
face-down cards, everybody else's and the stock in the order it will be drawn (the deal's
seeded randomness is copied with it, so a reshuffle is known in advance too).

How it chooses: every legal action (a pass and leaving a wild in place included) is tried
on a copy of the deal, which is then played out to the end of the deal; the action whose
playout ends best for the oracle is taken (ties keep greedy's move). With ``passes`` off it
weighs only the decisions the expert weighs (where a wild goes, swap or keep, call): what
seeing the cards is worth without steering the stock. In the playout the
other seats play ``greedy`` (exactly what a ``greedy`` opponent will do, so against it the
prediction is exact), and the oracle's own later decisions are made the same way one
level down (a nested rollout, ``level``): level 1 plays them greedily, level 2 chooses
each by level-1 playouts, and so on. An ending is worth 1 if the oracle's layout shrinks,
less half the share of opponents who shrink, plus a hundredth for its face-up share.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, ClassVar

from bots.base import Bot, BotError, Param
from bots.builtin import greedy_policy
from bots.runner import ask
from trash_tui.engine.actions import DRAW, OVER
from trash_tui.engine.deal import Deal
from trash_tui.engine.match import Match
from trash_tui.engine.observation import Observation, observe
from trash_tui.rules import Rules


def ending_value(deal: Deal, seat: int) -> float:
    """How good a finished deal is for ``seat`` (1 for shrinking, less half the share of
    opponents who shrink, plus a hundredth for the face-up share of its layout)."""
    if deal.voided is not None:
        return 0.0
    shrinking = deal.shrinking
    others = sum(1 for s in shrinking if s != seat)
    size = deal.sizes[seat]
    value = (1.0 if seat in shrinking else 0.0) - 0.5 * others / (deal.players - 1)
    return value + 0.01 * (1.0 - deal.face_down[seat] / size if size else 1.0)


class OracleBot(Bot):
    """Sees every card; plays the action whose full-knowledge playout ends best."""

    name = "oracle"
    description = ("research only: sees every card (its own face-down ones, the stock's "
                   "order) and plays the best move it computes with that knowledge")
    params: ClassVar[dict[str, Param]] = {
        "level": Param(2, "nesting of the playouts: 1 plays its own later decisions "
                       "greedily, 2 chooses each of them by level-1 playouts", 1, 3),
        "passes": Param(True, "whether it may pass (draw a discard that fits nowhere, to "
                        "steer who draws which stock card); false: only the decisions "
                        "the expert weighs"),
    }

    def __init__(self, seed: int = 0, **options: object) -> None:
        super().__init__(seed, **options)
        self.decision_times: list[float] = []
        self.playouts = 0

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        raise BotError("the oracle sees every card and plays only in research runs "
                       "(bots.research.oracle.play_oracle_match), never from an observation")

    def choose_seeing(self, deal: Deal, seat: int) -> int:
        """The oracle's action at ``seat`` in the live ``deal`` (whose turn it is)."""
        started = time.perf_counter()
        action = self._best(deal, seat, self.level)
        self.decision_times.append(time.perf_counter() - started)
        return action

    def _best(self, deal: Deal, seat: int, level: int) -> int:
        legal = deal.legal
        greedy = greedy_policy(deal, seat, None)  # type: ignore[arg-type]  # uses no rng
        if len(legal) == 1:
            return greedy
        if not self.passes and deal.phase == DRAW:
            return greedy  # the draw's only other choice is a pass
        best, best_value = greedy, -2.0
        for action in (greedy, *(a for a in legal if a != greedy)):
            twin = deal.copy(with_events=False)
            twin.apply(action)
            value = self._playout(twin, seat, level - 1)
            if value > best_value:
                best, best_value = action, value
        return best

    def _playout(self, deal: Deal, seat: int, level: int) -> float:
        """Play ``deal`` to its end (others greedy, ``seat`` at ``level``); its value."""
        self.playouts += 1
        if level <= 0:
            deal.play_greedy()
        else:
            apply = deal.apply
            while deal.phase != OVER:
                mover = deal.to_move
                if mover == seat and len(deal.legal) > 1:
                    apply(self._best(deal, seat, level))
                else:
                    apply(greedy_policy(deal, mover, None))  # type: ignore[arg-type]
        return ending_value(deal, seat)


def play_oracle_match(rules: Rules, bots: Sequence[Bot], seed: int | str) -> Match:
    """A whole match where every ``OracleBot`` seat sees the live deal and the others play
    from their observations as ``bots.runner.play_match`` plays them (answers checked,
    hooks called). For research: benchmarks/bots.py's oracle table."""
    match = Match(rules, len(bots), seed)
    players = len(bots)
    for seat, bot in enumerate(bots):
        bot.start_match(seat, players, rules)
    deal: Any = None
    while not match.over:
        if match.deal is not deal:
            deal = match.deal
            number = match.deal_number
            for seat, bot in enumerate(bots):
                bot.start_deal(match.observation(seat))
        seat = match.to_move
        bot = bots[seat]
        if isinstance(bot, OracleBot):
            match.apply(bot.choose_seeing(deal, seat))
        else:
            match.apply(ask(bot, seat, match))
        if deal.phase == OVER:
            for other, each in enumerate(bots):
                each.end_deal(observe(deal, other, deal_number=number,
                                      deals_played=match.deals_played))
    assert match.result is not None
    for bot in bots:
        bot.end_match(match.result.places)
    return match


__all__ = ["OracleBot", "ending_value", "play_oracle_match"]
