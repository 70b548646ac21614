"""The leaderboard: players (and, at home, the bot levels) ranked by their rating in a game.

Every line is ranked by its rating, highest first, whether it is provisional or not (a
provisional rating, marked ``?``, is the player's best estimate so far: fewer than
``PROVISIONAL_MATCHES`` rated matches); ``RANKING`` says so in the screens' own words, so a
player is never below a bot with a lower rating. Over SSH
the board is the server's players, each by the name they chose (``players`` table,
cleaned) — never by their key; at home it is this computer's player beside the bot
levels' anchors. ``Leaderboard.you`` is the asking player's own line, whatever their rank.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trash_tui.history import LOCAL_OWNER, History
from trash_tui.players.anchors import load_anchors, tied_levels
from trash_tui.players.identity import PLACEHOLDER_NAME, default_name
from trash_tui.players.rating import PROVISIONAL_MATCHES, Rating, shown_rating
from trash_tui.players.repair import ensure_ratings
from trash_tui.text import clean

NAME_LENGTH = 32
UNNAMED = "(no name yet)"
#: How the board ranks, in the words the app and the CLI show under it.
RANKING = (f"Ranked by rating, highest first; ? marks a provisional rating (fewer than "
           f"{PROVISIONAL_MATCHES} rated matches), ranked by that rating too; equal ratings "
           "share a rank.")


@dataclass(frozen=True)
class BoardEntry:
    """One line of the leaderboard: a player or a bot level."""

    rank: int
    name: str  # cleaned: safe to show
    rating: Rating
    matches: int
    last_seen: float | None = None
    identity: str | None = None  # a player's (never shown on a screen)
    bot: str | None = None  # a bot level's name
    you: bool = False

    @property
    def provisional(self) -> bool:
        return self.bot is None and self.matches < PROVISIONAL_MATCHES

    @property
    def shown(self) -> str:
        """The rating as shown: "1623", or "1512?" while provisional."""
        return shown_rating(self.rating, PROVISIONAL_MATCHES if self.bot else self.matches)

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "name": self.name, "identity": self.identity,
                "bot": self.bot, "rating": self.rating.shown, "margin": self.rating.margin,
                "provisional": self.provisional, "mu": self.rating.mu,
                "sigma": self.rating.sigma, "matches": self.matches,
                "last_seen": self.last_seen, "you": self.you}


@dataclass(frozen=True)
class Leaderboard:
    """The top of the board, and the asking player's line (None before they are rated)."""

    game: str
    entries: list[BoardEntry]
    you: BoardEntry | None
    total: int  # lines in the whole board

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "total": self.total,
                "entries": [entry.to_dict() for entry in self.entries],
                "you": self.you.to_dict() if self.you else None}


def leaderboard(history: History, game: str, you: str | None = None, *, bots: bool = False,
                players: bool = True, top: int = 20, your_name: str = "You") -> Leaderboard:
    """The leaderboard of ``game``: the rated players (with ``players``; the local
    player only at home) and, with ``bots``, the bot levels' anchors; the first ``top``
    lines, and ``you``'s line wherever it is. Ratings that went missing while their
    results are kept are rebuilt first (``ensure_ratings``)."""
    ensure_ratings(history)
    names = {identity: name for identity, name, _first, _last in history.players.registered()}
    seen = {identity: last for identity, _name, _first, last in history.players.registered()}
    people = [row for row in history.players.ratings(game)
              if (players and row.identity != LOCAL_OWNER) or row.identity == you]
    lines: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    for row in people:
        is_you = row.identity == you
        if row.identity == LOCAL_OWNER:
            name = your_name if is_you else "this computer's player"
        else:
            name = names.get(row.identity) or (your_name if is_you else UNNAMED)
            if name.casefold() == PLACEHOLDER_NAME.casefold():  # (registered before it
                name = default_name(row.identity)  # was refused: told apart from others)
        lines.append(((-row.rating.shown, -row.rating.mu, clean(name), row.identity),
                      {"name": clean(name, NAME_LENGTH), "rating": row.rating,
                       "matches": row.matches, "identity": row.identity, "you": is_you,
                       "last_seen": seen.get(row.identity, row.updated)}))
    if bots:
        prefer = tied_levels(game)  # tied levels in the order the anchors list them
        for level, rating in load_anchors().get(game, {}).items():
            order = prefer.index(level) if level in prefer else len(prefer)
            lines.append(((-rating.shown, -rating.mu, "", order, level),
                          {"name": f"{level} (bot)", "rating": rating, "matches": 0,
                           "bot": level}))
    lines.sort(key=lambda line: line[0])
    entries: list[BoardEntry] = []
    for position, (key, fields) in enumerate(lines, 1):
        # an equal rating shares the rank above it (bot levels with one anchor are tied)
        tied = bool(entries) and lines[position - 2][0][:2] == key[:2]
        entries.append(BoardEntry(entries[-1].rank if tied else position, **fields))
    mine = next((entry for entry in entries if entry.you), None)
    return Leaderboard(game, entries[:top], mine, len(entries))
