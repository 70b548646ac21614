"""The bot levels' anchor ratings: fixed ratings per game and level, so people and bots
are on one scale.

They are made by a calibration tournament over the whole ladder (``trash players
calibrate``, ``calibration.py``) and shipped in ``anchors.json`` beside this module. A bot
level without an anchor is not rated against: a match with such a bot is not rated.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from trash_tui.players.rating import Rating

ANCHORS_PATH = Path(__file__).with_name("anchors.json")


@cache
def load_anchors(path: Path = ANCHORS_PATH) -> dict[str, dict[str, Rating]]:
    """game -> level -> anchor rating, from ``anchors.json`` (empty if it is missing or
    broken: then no match is rated against a bot)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return parse_anchors(document)


def parse_anchors(document: Any) -> dict[str, dict[str, Rating]]:
    """The anchors of an ``anchors.json`` document; entries of the wrong shape are left
    out."""
    anchors: dict[str, dict[str, Rating]] = {}
    games = document.get("games") if isinstance(document, dict) else None
    if not isinstance(games, dict):
        return anchors
    for game, levels in games.items():
        if not isinstance(levels, dict):
            continue
        for level, entry in levels.items():
            try:
                mu, sigma = float(entry["mu"]), float(entry["sigma"])
            except (KeyError, TypeError, ValueError):
                continue
            if sigma > 0:
                anchors.setdefault(str(game), {})[str(level)] = Rating(mu, sigma)
    return anchors


@cache
def tied_levels(game: str, path: Path = ANCHORS_PATH) -> tuple[str, ...]:
    """The bot levels of ``game`` that share one anchor because no measurement separates
    them (``anchors.json``'s ``tied``), in the order they are listed: the first is the one
    to propose among them. Empty when none are tied."""
    tied = anchors_info(path).get("tied")
    entry = tied.get(game) if isinstance(tied, dict) else None
    levels = entry.get("levels") if isinstance(entry, dict) else None
    if not isinstance(levels, list):
        return ()
    return tuple(level for level in levels if isinstance(level, str))


def anchors_info(path: Path = ANCHORS_PATH) -> dict[str, Any]:
    """The whole ``anchors.json`` document (with the intervals and how it was made), or {}."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return document if isinstance(document, dict) else {}
