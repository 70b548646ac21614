"""The rating model: openskill's Plackett–Luce ratings, one per player and game.

A rating (``rating.py``) is a mean ``mu`` and an uncertainty ``sigma``, shown on a familiar
scale (about 400 points for 10-to-1 odds between two established players). The history
database keeps the ratings; this model is handed to it from above (``rater.py``) and
computes them as each match finishes.

Which matches are rated, and how (``rated_seats``):

- a finished match with a result; one stopped by the engine (50 void deals, the dice
  game's safety cap) has none and is not rated; a match given up at home (``abandoned``
  in the history) never finished and is not rated either;
- every seat is a known player or a bot level with an anchor rating (``anchors.py``): a
  human at a shared table is their SSH identity; the one human of a match at home is its
  owner; a match with several humans at one keyboard (hot seat), or with a bot that has
  no anchor (a player's own bot), is not rated; nor is a match with a guest in it (a
  player with no SSH key, ``identity.is_guest``: nothing is kept for a guest);
- the places of the result: Trash's ``places`` (equal places tie), the dice game's winner
  first and then by markers covered; a human who is not back at a shared table when its
  match ends — they left with esc, their connection dropped, or their turn clock ran out
  and they pressed no key since — abandoned it: they are last, whatever the stand-in did
  for them, and several such leavers tie for last place (``trash_tui/standing.py``,
  which the standings box, the history and the statistics read too).

Bots keep their anchors: a match moves only the people's ratings.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from trash_tui.games import NEIGHBOR, TRASH
from trash_tui.players.identity import is_guest
from trash_tui.players.rating import Rating
from trash_tui.standing import final_places, ranked

HUMAN = "human"


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a rated match: a player (an identity) or a bot level, and its rank
    (1 is first; equal ranks tie)."""

    rank: int
    player: str | None = None
    bot: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, **({"player": self.player} if self.player is not None
                                      else {"bot": self.bot})}

    @classmethod
    def from_dict(cls, data: Any) -> RatedSeat:
        """The seat ``to_dict`` kept; ValueError saying what is wrong with anything else."""
        if not isinstance(data, Mapping):
            raise ValueError("not an object")
        rank, player, bot = data.get("rank"), data.get("player"), data.get("bot")
        if not isinstance(rank, int) or isinstance(rank, bool) or rank < 1:
            raise ValueError("its rank is not a whole number from 1")
        if (player is None) == (bot is None):
            raise ValueError("it is not one player or one bot")
        if not isinstance(player if bot is None else bot, str) or not (player or bot):
            raise ValueError(f"its {'player' if bot is None else 'bot'} is not a name")
        return cls(rank, player, bot)


def seats_from_dicts(data: Any) -> list[RatedSeat]:
    """The seats of a rated match as kept (each seat's ``to_dict``, in seat order);
    ValueError saying what is wrong when they are not of that shape (a database edited by
    hand, or damaged): a list of 2 or more seats, ranks from 1 to their number, no player
    twice."""
    if not isinstance(data, list):
        raise ValueError("its seats are not a list")
    if len(data) < 2:
        raise ValueError(f"it has {len(data)} seat{'' if len(data) == 1 else 's'}, not 2 or more")
    seats = []
    for number, seat in enumerate(data, 1):
        try:
            seats.append(RatedSeat.from_dict(seat))
        except ValueError as exc:
            raise ValueError(f"seat {number}: {exc}") from None
        if seats[-1].rank > len(data):
            raise ValueError(f"seat {number}: its rank is more than the {len(data)} seats")
    players = [seat.player for seat in seats if seat.player is not None]
    if len(set(players)) != len(players):
        raise ValueError("a player sits in two of its seats")
    return seats


def result_places(game: str, result: Mapping[str, Any] | None, players: int
                  ) -> list[int] | None:
    """The places (1 first) of a finished match's result, or None when it has none (a
    match stopped by the engine, or a result of the wrong shape)."""
    if not isinstance(result, Mapping) or result.get("abandoned"):
        return None
    if game == TRASH:
        places = result.get("places")
        if (isinstance(places, list) and len(places) == players and
                all(isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= players
                    for p in places)):
            return list(places)
        return None
    if game == NEIGHBOR:
        winner, covered = result.get("winner"), result.get("covered")
        if (not isinstance(winner, int) or not isinstance(covered, list) or
                len(covered) != players or not all(isinstance(c, int) for c in covered)):
            return None
        return ranked([(0 if seat == winner else 1, -covered[seat])
                        for seat in range(players)])
    return None


def rated_seats(game: str, owner: str, specs: Sequence[Any], result: Mapping[str, Any] | None,
                identities: Mapping[int, str], leavers: Collection[str], levels: Collection[str],
                shared: bool) -> list[RatedSeat] | None:
    """The seats of a finished match as the rating sees them, or None if it is not rated
    (see the module's docstring). ``identities``: a shared table's seat -> identity;
    ``leavers``: who left that table before the end; ``levels``: the bot levels with an
    anchor in this game."""
    places = result_places(game, result, len(specs))
    if places is None or len(specs) < 2:
        return None
    humans = [seat for seat, spec in enumerate(specs) if spec == HUMAN]
    if not humans or (not shared and len(humans) > 1):
        return None
    players: dict[int, str] = {}
    for seat in humans:
        identity = identities.get(seat) if shared else owner
        if not identity or is_guest(identity):
            return None
        players[seat] = identity
    if len(set(players.values())) != len(players):
        return None
    if any(spec != HUMAN and not (isinstance(spec, str) and spec in levels) for spec in specs):
        return None
    left = {seat for seat, identity in players.items() if shared and identity in leavers}
    ranks = final_places(places, left)
    return [RatedSeat(ranks[seat], player=players[seat]) if seat in players
            else RatedSeat(ranks[seat], bot=str(spec)) for seat, spec in enumerate(specs)]


@cache
def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def rate(seats: Sequence[RatedSeat], ratings: Mapping[str, Rating],
         anchors: Mapping[str, Rating]) -> dict[str, Rating] | None:
    """The players' new ratings after a match (``ratings``: their ratings before it, a
    new player starting at the default; the bots keep their ``anchors``), or None when a
    bot of the match has no anchor."""
    model = _model()
    teams = []
    for seat in seats:
        if seat.player is not None:
            before = ratings.get(seat.player, Rating())
        elif seat.bot in anchors:
            before = anchors[seat.bot]
        else:
            return None
        teams.append([model.create_rating([before.mu, before.sigma])])
    after = model.rate(teams, ranks=[float(seat.rank) for seat in seats])
    return {seat.player: Rating(float(team[0].mu), float(team[0].sigma))
            for seat, team in zip(seats, after, strict=True) if seat.player is not None}


def nearest_level(rating: Rating, anchors: Mapping[str, Rating],
                  offered: Collection[str] | None = None,
                  prefer: Sequence[str] = ()) -> str | None:
    """The bot level (of ``offered``, if given) whose anchor is nearest ``rating``; among
    levels as near as each other (tied levels share an anchor), the first of ``prefer``,
    then by name."""
    levels = [level for level in anchors if offered is None or level in offered]
    if not levels:
        return None
    return min(levels, key=lambda level: (abs(anchors[level].mu - rating.mu),
                                          prefer.index(level) if level in prefer
                                          else len(prefer), level))


def as_strong(level: str, anchors: Mapping[str, Rating],
              offered: Collection[str] | None = None) -> list[str]:
    """The other levels (of ``offered``, if given) with the same anchor as ``level``:
    one strength under several names."""
    return [other for other in anchors if other != level and anchors[other] == anchors[level]
            and (offered is None or other in offered)]


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% (Wilson score) interval of a win rate of ``wins`` in ``games``."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))
