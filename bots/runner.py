"""Playing games with bots: one driver shared by simulation, tournaments, benchmarks and the app.

``play_match`` and ``play_deal`` give each bot its own observation at each of its
decisions, tell bots when deals and matches start and end, and check every answer. A bot
that raises, answers with an illegal action, or (with ``time_limit``) takes too long
raises ``BotFailure`` naming the seat and what went wrong (in one printable line); the
game is left as it was. Anything a bot raises counts, ``SystemExit`` included; only
``KeyboardInterrupt`` passes through.

With ``time_control`` every seat has a chess clock (``bots.clock``): a decision that takes
longer than the seat's remaining time is a forfeit with the kind "time". A bot in a
process of its own (``bots.external``) gets its clock with each decision, is not waited
for past it, and fails with the protocol's own kinds ("malformed", "unknown", "exit");
whatever happens, every bot that has a ``release`` method is released at the end: when a
bot forfeited, with the places the game ends in (``forfeit_places``: the failing seat
last, the others by how far they got) and the failing seat, so the others learn they won.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any

from bots.base import Bot
from bots.clock import Clock, TimeControl
from bots.protocol import BotProtocolError, BotSilent
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
        self.kind = kind  # "error", "illegal", "timeout", "time" or a protocol kind
        self.detail = detail
        self.game: Any = None  # the game (Match, Deal or NeighborGame) as it stood then


def ask(bot: Bot, seat: int, game: Deal | Match, time_limit: float | None = None,
        clock: Clock | None = None) -> int:
    """Ask ``bot`` (at ``seat``) for its action in ``game`` now, and check the answer."""
    return checked_answer(bot, seat, game, time_limit, action_name, clock)


def _late(spent: float, time_limit: float | None, remaining: float | None,
          answered: bool = True) -> tuple[str, str] | None:
    """The forfeit (kind, detail) of a decision that took ``spent`` seconds, if it was too
    slow: the clock's flag ("time") or the time limit ("timeout"), whichever is shorter."""
    took = f"took {spent:.3f} s" if answered else f"no answer within {spent:.3f} s"
    if remaining is not None and (time_limit is None or remaining < time_limit):
        if spent > remaining or not answered:
            return "time", f"{took}: its flag fell ({remaining:.3f} s left on its clock)"
        return None
    if time_limit is not None and (spent > time_limit or not answered):
        return "timeout", f"{took} (limit {time_limit:g} s)"
    if not answered:
        return "timeout", took
    return None


def checked_answer(bot: Any, seat: int, game: Any, time_limit: float | None,
                   name_of: Callable[[int], str], clock: Clock | None = None) -> int:
    """Ask ``bot`` for its action in any game with ``observation(seat)`` (Trash or Help
    Your Neighbor) and check it: an exception, an illegal answer (``name_of`` names the
    actions in the message) or a slow one (``time_limit``, or the seat's ``clock``) raises
    BotFailure with the game attached."""
    observation = game.observation(seat)
    legal = observation.legal
    remaining = None if clock is None else clock.remaining[seat]
    set_clock = getattr(bot, "set_clock", None)
    if set_clock is not None:  # a bot in its own process: told its time, not waited past it
        budget = min((t for t in (time_limit, remaining) if t is not None), default=None)
        set_clock(remaining, None if clock is None else clock.control.increment,
                  time_limit, budget)
    started = time.perf_counter()
    try:
        action = bot.choose(observation, legal)
    except KeyboardInterrupt:
        raise
    except BotSilent as exc:
        late = _late(time.perf_counter() - started, time_limit, remaining, answered=False)
        assert late is not None
        raise _failure(seat, bot, game, *late) from exc
    except BotProtocolError as exc:
        raise _failure(seat, bot, game, exc.kind, exc.detail) from exc
    except BaseException as exc:  # a bot may fail in any way (sys.exit too); it forfeits
        raise _failure(seat, bot, game, "error", f"{type(exc).__name__}: {exc}") from exc
    spent = time.perf_counter() - started
    late = _late(spent, time_limit, remaining)
    if late is not None:
        raise _failure(seat, bot, game, *late)
    if clock is not None:
        clock.spend(seat, spent)
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
    except BotProtocolError as exc:
        raise _failure(seat, bot, game, exc.kind, f"in {hook}: {exc.detail}") from exc
    except BaseException as exc:  # a bot may fail in any way (sys.exit too); it forfeits
        raise _failure(seat, bot, game, "error",
                       f"in {hook}: {type(exc).__name__}: {exc}") from exc


def _notify_deal_end(bots: Sequence[Bot], deal: Deal, number: int, played: int,
                     game: Match | Deal) -> None:
    for seat, bot in enumerate(bots):
        _hook(bot, seat, game, "end_deal",
              observe(deal, seat, deal_number=number, deals_played=played))


def forfeit_places(failure: BotFailure, players: int) -> list[int]:
    """The places of a game stopped by ``failure``: the failing seat last, the others by
    how far they got (a match: smaller layouts first, then fewer face-down cards; a deal:
    fewer face-down cards); equal seats share a place (1, 2, 2, 4)."""
    game = failure.game
    if isinstance(game, Match):
        sizes, face_down = list(game.sizes), list(game.deal.face_down)
    elif isinstance(game, Deal):
        sizes, face_down = [0] * players, list(game.face_down)
    else:
        sizes = face_down = [0] * players
    keys = [(1 if seat == failure.seat else 0, sizes[seat], face_down[seat])
            for seat in range(players)]
    order = sorted(range(players), key=keys.__getitem__)
    places = [0] * players
    for position, seat in enumerate(order):
        same = position and keys[seat] == keys[order[position - 1]]
        places[seat] = places[order[position - 1]] if same else position + 1
    return places


def release(bots: Sequence[Any], failure: BotFailure | None = None) -> None:
    """Tell every bot that has a ``release`` method (a bot process) that its game is over,
    however it ended, so its process is kept for the next game or ended; after a forfeit
    (``failure``), with the game's places and the seat that forfeited."""
    places = None if failure is None else forfeit_places(failure, len(bots))
    for bot in bots:
        done = getattr(bot, "release", None)
        if done is not None:
            with contextlib.suppress(Exception):  # letting go changes no result
                if failure is None:
                    done()
                else:
                    done(places, failure.seat, failure.kind)


def play_match(rules: Rules, bots: Sequence[Bot], seed: int | str,
               time_limit: float | None = None,
               time_control: TimeControl | None = None) -> Match:
    """Play a whole match between ``bots`` (seat order) and return the finished Match."""
    match = Match(rules, len(bots), seed)
    clock = None if time_control is None else Clock(time_control, len(bots))
    stopped: BotFailure | None = None
    try:
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
            match.apply(ask(bots[seat], seat, match, time_limit, clock))
            if deal.phase == OVER:
                _notify_deal_end(bots, deal, number, match.deals_played, match)
        assert match.result is not None
        for seat, bot in enumerate(bots):
            _hook(bot, seat, match, "end_match", match.result.places)
    except BotFailure as failure:
        stopped = failure
        raise
    finally:
        release(bots, stopped)
    return match


def play_deal(deal: Deal, bots: Sequence[Bot], time_limit: float | None = None,
              time_control: TimeControl | None = None) -> Deal:
    """Play ``deal`` to its end with ``bots`` and return it (with ``time_control``, the
    clocks run for this one deal)."""
    clock = None if time_control is None else Clock(time_control, len(bots))
    stopped: BotFailure | None = None
    try:
        for seat, bot in enumerate(bots):
            _hook(bot, seat, deal, "start_deal", deal.observation(seat))
        while deal.phase != OVER:
            seat = deal.to_move
            deal.apply(ask(bots[seat], seat, deal, time_limit, clock))
        _notify_deal_end(bots, deal, 1, 1, deal)
    except BotFailure as failure:
        stopped = failure
        raise
    finally:
        release(bots, stopped)
    return deal
