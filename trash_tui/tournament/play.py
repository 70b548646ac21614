"""Playing one scheduled tournament game, in whatever process runs it.

A game's bots are built afresh from their specs with seeds derived from the game's seed,
so a game's result depends only on the configuration and the game itself: never on the
worker, the executor or what ran before. A bot that fails forfeits: it takes the last
place, the others are ranked by how far they got.

A Help Your Neighbor game (``config.game``) is one game from the board's dice seed: the
winner is first, the others are ranked by markers covered (more is better; equal counts
share a place). Its result has the same keys as a Trash game's, with ``deals`` 1 and
``turns`` the number of rolls.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bots.external import ExternalBot
from bots.neighbor import neighbor_bot_from_spec, play_neighbor
from bots.process import BotLog
from bots.registry import make_bot
from bots.runner import BotFailure, forfeit_places, play_deal, play_match
from bots.sandbox import protect_runner
from trash_tui.cards import build_deck, decks_for
from trash_tui.engine.deal import Deal
from trash_tui.engine.match import Match
from trash_tui.engine.record import deal_record, match_record
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.neighbor.engine import NeighborGame
from trash_tui.neighbor.record import neighbor_record
from trash_tui.standing import ranked
from trash_tui.text import visible
from trash_tui.tournament.config import NEIGHBOR, TournamentConfig
from trash_tui.tournament.schedule import Game


def bot_seed(config: TournamentConfig, game: Game, bot: int) -> int:
    """Bot ``bot``'s seed in ``game``: from the game's seed and the bot's own ``seed``."""
    own = config.bots[bot].spec.get("seed", 0)
    return derive_seed(game.seed, "bot", bot, own) % 2**31


def _bot_logs(config: TournamentConfig, game: Game, bots: Sequence[Any],
              log_dir: Path | None) -> None:
    """Give every bot process of the game its log, ``log_dir/LABEL.log``."""
    if log_dir is None:
        return
    for index, bot in zip(game.seats, bots, strict=True):
        if isinstance(bot, ExternalBot):
            label = re.sub(r"[^A-Za-z0-9._-]", "_", config.bots[index].name)
            bot.log = BotLog(log_dir / f"{label}.log")


def _log_forfeit(failure: BotFailure, game: Game) -> None:
    """A bot process's forfeit in its log, with the tail of its standard error."""
    bot = failure.bot
    if isinstance(bot, ExternalBot) and bot.log is not None:
        tail = bot.stderr_tail.decode("utf-8", "replace")
        bot.log.note(f"game {game.index}: forfeit ({failure.kind}): {visible(failure.detail)}")
        if tail.strip():
            bot.log.note("the end of its standard error:")
            bot.log.write(tail.encode("utf-8") + (b"" if tail.endswith("\n") else b"\n"))


def bot_specs(config: TournamentConfig, hidden: Sequence[str | Path] = ()
              ) -> list[dict[str, Any]]:
    """The bots' specs for a batch: a sandboxed bot's sandbox also hides ``hidden`` (the
    run's folder, the history database), beside the tournament file it hides already."""
    specs = []
    for entry in config.bots:
        spec = entry.spec
        if hidden and isinstance(spec.get("sandbox"), dict):
            sandbox = dict(spec["sandbox"])
            sandbox["hidden"] = [*sandbox.get("hidden", []), *map(str, hidden)]
            spec = {**spec, "sandbox": sandbox}
        specs.append(spec)
    return specs


def play_game(config: TournamentConfig, game: Game,
              with_record: bool = False, log_dir: Path | None = None,
              specs: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Play one game of the schedule and return its result as a JSON-ready dict
    (with ``with_record``, the game's replayable record under ``"record"``; ``specs``: the
    bots' specs, ``bot_specs(config)`` if not given)."""
    if config.game == NEIGHBOR:
        return play_neighbor_game(config, game, with_record)
    started = time.perf_counter()
    played: Match | Deal | None = None
    players = len(game.seats)
    specs = bot_specs(config) if specs is None else specs
    bots = [make_bot(specs[b], seed=bot_seed(config, game, b)) for b in game.seats]
    _bot_logs(config, game, bots, log_dir)
    forfeit = None
    deals = turns = 0
    try:
        if config.unit == "matches":
            match = played = play_match(config.rules, bots, game.seed, config.time_limit,
                                        config.time_control)
            assert match.result is not None
            places = list(match.result.places)
            if match.result.winner is None:  # abandoned after void deals: everyone shares
                places = [1] * players
            deals = match.deals_played
            turns = sum(s.turns for s in match.history if s.voided is None)
        else:
            rng = Rng(game.seed)
            deal = played = Deal(config.rules, (config.rules.start_size,) * players, 0,
                                 build_deck(decks_for(players), config.rules.jokers),
                                 reshuffle=rng.shuffle, shuffle_with=rng)
            play_deal(deal, bots, config.time_limit, config.time_control)
            deals, turns = 1, deal.turns
            if deal.winner is None:  # a void deal: nobody won
                places = [1] * players
            else:
                keys = [(0 if seat == deal.winner else 1, deal.face_down[seat])
                        for seat in range(players)]
                places = ranked(keys)
    except BotFailure as failure:
        _log_forfeit(failure, game)
        played = failure.game
        places = forfeit_places(failure, players)
        if isinstance(failure.game, Match):
            deals = failure.game.deals_played
            turns = sum(s.turns for s in failure.game.history if s.voided is None)
        elif isinstance(failure.game, Deal):
            deals, turns = 1, failure.game.turns
        forfeit = {"seat": failure.seat, "bot": config.bots[game.seats[failure.seat]].name,
                   "kind": failure.kind, "detail": failure.detail[:300]}
    result = {
        "index": game.index, "pairing": game.pairing, "board": game.board,
        "rotation": game.rotation, "seats": list(game.seats), "places": places,
        "deals": deals, "turns": turns, "forfeit": forfeit,
        "seconds": round(time.perf_counter() - started, 6),
    }
    if with_record and played is not None:
        names = [config.bots[b].name for b in game.seats]
        context = {"tournament": config.name, "game": game.index, "pairing": game.pairing,
                   "board": game.board, "rotation": game.rotation}
        result["record"] = (match_record(played, names, context) if isinstance(played, Match)
                            else deal_record(played, names, game.seed, context))
    return result


def neighbor_places(game: NeighborGame, failed: int | None = None) -> list[int]:
    """Places in a Help Your Neighbor game: the winner first, then by markers covered
    (more is better, equal counts share). A bot that failed (seat ``failed``) is last."""
    keys = [(1 if seat == failed else 0, 0 if seat == game.winner else 1,
             -len(game.covered[seat])) for seat in range(game.players)]
    return ranked(keys)


def play_neighbor_game(config: TournamentConfig, game: Game,
                       with_record: bool = False) -> dict[str, Any]:
    """One scheduled Help Your Neighbor game, as ``play_game`` reports a Trash game."""
    started = time.perf_counter()
    bots = [neighbor_bot_from_spec(config.bots[b].spec, seed=bot_seed(config, game, b))
            for b in game.seats]
    played = NeighborGame(len(game.seats), game.seed)
    forfeit = None
    try:
        play_neighbor(played, bots, config.time_limit)
        places = neighbor_places(played)
    except BotFailure as failure:
        places = neighbor_places(played, failure.seat)
        forfeit = {"seat": failure.seat, "bot": config.bots[game.seats[failure.seat]].name,
                   "kind": failure.kind, "detail": failure.detail[:300]}
    result: dict[str, Any] = {
        "index": game.index, "pairing": game.pairing, "board": game.board,
        "rotation": game.rotation, "seats": list(game.seats), "places": places,
        "deals": 1, "turns": played.turn, "forfeit": forfeit,
        "seconds": round(time.perf_counter() - started, 6),
    }
    if with_record:
        names = [config.bots[b].name for b in game.seats]
        context = {"tournament": config.name, "game": game.index, "pairing": game.pairing,
                   "board": game.board, "rotation": game.rotation}
        result["record"] = neighbor_record(played, names, context)
    return result


def play_batch(config: TournamentConfig, games: Sequence[Game],
               with_records: bool = False, log_dir: Path | None = None,
               hidden: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Play several games in one task (so the per-task cost stays small); bot processes
    write their logs into ``log_dir``; sandboxed bots cannot see ``hidden`` either."""
    protect_runner()
    specs = bot_specs(config, hidden)
    return [play_game(config, game, with_records, log_dir, specs) for game in games]
