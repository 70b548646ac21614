"""One player's statistics in one game, from their history and their ratings.

Matches and wins (with a 95% Wilson interval) overall, by opponents (a bot level, mixed
bots, people) and by rules preset; the mean place at tables of 3 or more; deals per match
(turns per game for the dice game); the best winning streak; how often they moved first
(and won then); and their rating after each rated match, for the chart. A match counts
once it is finished; a match given up at home is only counted as given up. Not being
at one's seat of a shared table when its match ends (left, dropped, or the clock ran out
with no key since) is last place, several such leavers tying, and never a win, with the
rating's own rule (``trash_tui/standing.py``). A match deleted from one's history is
hidden there, not forgotten: it still counts here, as it does in the rating.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from trash_tui.games import NEIGHBOR
from trash_tui.history import FINISHED, History, MatchRow
from trash_tui.players.anchors import load_anchors, tied_levels
from trash_tui.players.model import (
    HUMAN,
    nearest_level,
    result_places,
    wilson_interval,
)
from trash_tui.players.rating import PROVISIONAL_MATCHES, Rating, shown_rating
from trash_tui.players.repair import ensure_ratings
from trash_tui.presets import preset_name_of
from trash_tui.rules import Rules, RulesError
from trash_tui.standing import final_places, won

MATCH_LIMIT = 100_000


@dataclass(frozen=True)
class WinRate:
    """Wins in a number of matches, with the 95% interval of the win rate."""

    label: str
    matches: int
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.matches)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {"label": self.label, "matches": self.matches, "wins": self.wins,
                "rate": round(self.rate, 4), "low": round(low, 4), "high": round(high, 4)}


@dataclass
class PlayerStats:
    """What the statistics screen and ``trash players stats`` show."""

    identity: str
    name: str
    game: str
    overall: WinRate
    by_opponents: list[WinRate]
    by_rules: list[WinRate]
    given_up: int
    mean_place: float | None  # at 3+ players
    matches_3plus: int
    deals_per_match: float | None
    best_streak: int
    first_share: float | None
    first_wins: WinRate | None
    rating: Rating | None
    rated_matches: int
    nearest_bot: str | None
    history: list[tuple[int, float, Rating]] = field(default_factory=list)

    @property
    def shown_rating(self) -> str:
        return "unrated" if self.rating is None else shown_rating(self.rating,
                                                                  self.rated_matches)

    @property
    def provisional(self) -> bool:
        return self.rated_matches < PROVISIONAL_MATCHES

    def to_dict(self) -> dict[str, Any]:
        return {
            "identity": self.identity, "name": self.name, "game": self.game,
            "overall": self.overall.to_dict(),
            "by_opponents": [w.to_dict() for w in self.by_opponents],
            "by_rules": [w.to_dict() for w in self.by_rules],
            "given_up": self.given_up, "mean_place_3plus": self.mean_place,
            "matches_3plus": self.matches_3plus, "deals_per_match": self.deals_per_match,
            "best_streak": self.best_streak, "first_share": self.first_share,
            "first_wins": self.first_wins.to_dict() if self.first_wins else None,
            "rating": None if self.rating is None else {
                "shown": self.rating.shown, "margin": self.rating.margin,
                "mu": self.rating.mu, "sigma": self.rating.sigma,
                "matches": self.rated_matches, "provisional": self.provisional},
            "nearest_bot": self.nearest_bot,
            "rating_history": [{"match": m, "finished": t, "rating": r.shown,
                                "mu": r.mu, "sigma": r.sigma} for m, t, r in self.history],
        }


@cache
def _built_in_bots() -> frozenset[str]:
    """The names of the built-in bots of both games (a seat naming anything else, even as
    a string such as a TOML table or a file, is one of the player's own bots)."""
    from bots.neighbor import NEIGHBOR_BOTS
    from bots.registry import REGISTRY

    return frozenset((*REGISTRY, *NEIGHBOR_BOTS))


def opponents_label(specs: list[Any], seat: int) -> str:
    """Who the player faced: a bot level, "mixed bots", "people" or "own bots" (a bot
    table, a command, a file, whether the seat holds it as a table or as its text)."""
    others = [spec for index, spec in enumerate(specs) if index != seat]
    if any(spec == HUMAN for spec in others):
        return "people"
    if not all(isinstance(spec, str) and spec in _built_in_bots() for spec in others):
        return "own bots"
    levels = set(others)
    return others[0] if len(levels) == 1 else "mixed bots"


def rules_label(row: MatchRow) -> str:
    if row.game == NEIGHBOR:
        return "no house rules"
    try:
        return preset_name_of(Rules.from_dict(row.rules)) or "house rules"
    except (RulesError, TypeError, ValueError):
        return "house rules"


def _rates(counts: dict[str, list[int]]) -> list[WinRate]:
    return sorted((WinRate(label, games, wins) for label, (games, wins) in counts.items()),
                  key=lambda w: (-w.matches, w.label))


def player_stats(history: History, identity: str, game: str, name: str) -> PlayerStats:
    """``identity``'s statistics in ``game`` (``name``: how to call them, cleaned);
    ratings that went missing while their results are kept are rebuilt first."""
    ensure_ratings(history)
    rows = [row for row in history.matches.of_player(identity, limit=MATCH_LIMIT,
                                                     hidden=True)
            if row.game == game]
    given_up = sum(1 for row in rows if row.outcome == "abandoned")
    seats_at_tables = history.matches.match_seats_of(identity)
    played: list[tuple[MatchRow, int, int, bool]] = []  # (row, seat, place, won), oldest first
    for row in sorted(rows, key=lambda r: (r.updated, r.id)):
        if row.status != FINISHED:
            continue
        places = result_places(row.game, row.result, len(row.seats))
        if places is None:
            continue
        if row.shared:
            seat = seats_at_tables.get(row.id)
        else:
            seat = next((i for i, spec in enumerate(row.seats) if spec == HUMAN), None)
        if seat is None or seat >= len(places):
            continue
        left = row.left if row.shared else frozenset()
        played.append((row, seat, final_places(places, left)[seat], won(places, left, seat)))
    wins = [won_it for _row, _seat, _place, won_it in played]
    by_opponents: dict[str, list[int]] = {}
    by_rules: dict[str, list[int]] = {}
    for row, seat, _place, won_it in played:
        for counts, label in ((by_opponents, opponents_label(row.seats, seat)),
                              (by_rules, rules_label(row))):
            entry = counts.setdefault(label, [0, 0])
            entry[0] += 1
            entry[1] += int(won_it)
    streak = best = 0
    for won_it in wins:
        streak = streak + 1 if won_it else 0
        best = max(best, streak)
    big = [place for row, _seat, place, _won in played if len(row.seats) >= 3]
    firsts = history.matches.first_players([row.id for row, _seat, _place, _won in played])
    first_games = [(won_it, firsts[row.id] == seat) for (row, seat, _p, won_it) in played
                   if row.id in firsts]
    moved_first = [won_it for won_it, first in first_games if first]
    rated = history.players.rating(identity, game)
    anchors = load_anchors().get(game, {})
    return PlayerStats(
        identity=identity, name=name, game=game,
        overall=WinRate("all", len(played), sum(wins)),
        by_opponents=_rates(by_opponents), by_rules=_rates(by_rules), given_up=given_up,
        mean_place=statistics.fmean(big) if big else None, matches_3plus=len(big),
        deals_per_match=(statistics.fmean(row.deals for row, _s, _p, _w in played)
                         if played else None),
        best_streak=best,
        first_share=len(moved_first) / len(first_games) if first_games else None,
        first_wins=(WinRate("moving first", len(moved_first), sum(moved_first))
                    if first_games else None),
        rating=rated.rating if rated else None,
        rated_matches=rated.matches if rated else 0,
        nearest_bot=(nearest_level(rated.rating, anchors, prefer=tied_levels(game))
                     if rated else None),
        history=history.players.rating_changes(identity, game))
