"""Playing games with bots: one driver shared by simulation, tournaments, benchmarks and the app.

``play_match`` and ``play_deal`` give each bot its own observation at each of its
decisions, tell bots when deals and matches start and end, and check every answer. A bot
that raises, answers with an illegal action, or (with ``time_limit``) takes too long
raises ``BotFailure`` naming the seat and what went wrong (in one printable line); the
game is left as it was. Anything a bot raises counts, ``SystemExit`` included; only
``KeyboardInterrupt`` passes through.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from bots.base import Bot
from trash_tui.engine.actions import OVER, action_name
from trash_tui.engine.deal import Deal
from trash_tui.engine.match import Match
from trash_tui.engine.observation import observe
from trash_tui.rules import Rules
from trash_tui.text import visible


class BotFailure(RuntimeError):
    """A bot broke the rules of play: an exception, an illegal action or a timeout."""

    def __init__(self, seat: int, bot: Bot, kind: str, detail: str) -> None:
        super().__init__(visible(f"seat {seat} ({bot.describe()}): {kind}: {detail}"))
        self.seat = seat
        self.bot = bot
        self.kind = kind  # "error", "illegal" or "timeout"
        self.detail = detail
        self.game: Any = None  # the game (Match, Deal or NeighborGame) as it stood then


def ask(bot: Bot, seat: int, game: Deal | Match, time_limit: float | None = None) -> int:
    """Ask ``bot`` (at ``seat``) for its action in ``game`` now, and check the answer."""
    return checked_answer(bot, seat, game, time_limit, action_name)


def checked_answer(bot: Any, seat: int, game: Any, time_limit: float | None,
                   name_of: Callable[[int], str]) -> int:
    """Ask ``bot`` for its action in any game with ``observation(seat)`` (Trash or Help
    Your Neighbor) and check it: an exception, an illegal answer (``name_of`` names the
    actions in the message) or a slow one raises BotFailure with the game attached."""
    observation = game.observation(seat)
    legal = observation.legal
    started = time.perf_counter()
    try:
        action = bot.choose(observation, legal)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # a bot may fail in any way (sys.exit too); it forfeits
        raise _failure(seat, bot, game, "error", f"{type(exc).__name__}: {exc}") from exc
    spent = time.perf_counter() - started
    if time_limit is not None and spent > time_limit:
        raise _failure(seat, bot, game, "timeout",
                       f"took {spent:.3f} s (limit {time_limit:g} s)")
    if type(action) is not int or action not in legal:  # 1.0 or True must not pass
        try:
            name = name_of(action)
        except (ValueError, TypeError):
            name = repr(action)
        allowed = ", ".join(name_of(a) for a in legal)
        raise _failure(seat, bot, game, "illegal", f"answered {name}; legal: {allowed}")
    return action


def _failure(seat: int, bot: Any, game: Any, kind: str, detail: str) -> BotFailure:
    failure = BotFailure(seat, bot, kind, detail)
    failure.game = game
    return failure


def _hook(bot: Bot, seat: int, game: Match | Deal, hook: str, *args: Any) -> None:
    """Call one of a bot's hooks; a bot failing in it fails like a bad answer would."""
    try:
        getattr(bot, hook)(*args)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # a bot may fail in any way (sys.exit too); it forfeits
        raise _failure(seat, bot, game, "error",
                       f"in {hook}: {type(exc).__name__}: {exc}") from exc


def _notify_deal_end(bots: Sequence[Bot], deal: Deal, number: int, played: int,
                     game: Match | Deal) -> None:
    for seat, bot in enumerate(bots):
        _hook(bot, seat, game, "end_deal",
              observe(deal, seat, deal_number=number, deals_played=played))


def play_match(rules: Rules, bots: Sequence[Bot], seed: int | str,
               time_limit: float | None = None) -> Match:
    """Play a whole match between ``bots`` (seat order) and return the finished Match."""
    match = Match(rules, len(bots), seed)
    for seat, bot in enumerate(bots):
        _hook(bot, seat, match, "start_match", seat, len(bots), rules)
    deal: Deal | None = None
    number = 0
    while not match.over:
        if match.deal is not deal:
            deal = match.deal
            number = match.deal_number
            for seat, bot in enumerate(bots):
                _hook(bot, seat, match, "start_deal", match.observation(seat))
        seat = match.to_move
        match.apply(ask(bots[seat], seat, match, time_limit))
        if deal.phase == OVER:
            _notify_deal_end(bots, deal, number, match.deals_played, match)
    assert match.result is not None
    for seat, bot in enumerate(bots):
        _hook(bot, seat, match, "end_match", match.result.places)
    return match


def play_deal(deal: Deal, bots: Sequence[Bot], time_limit: float | None = None) -> Deal:
    """Play ``deal`` to its end with ``bots`` and return it."""
    for seat, bot in enumerate(bots):
        _hook(bot, seat, deal, "start_deal", deal.observation(seat))
    while deal.phase != OVER:
        seat = deal.to_move
        deal.apply(ask(bots[seat], seat, deal, time_limit))
    _notify_deal_end(bots, deal, 1, 1, deal)
    return deal
