"""The bot levels' anchor ratings, from calibration tournaments over the whole ladder.

``trash players calibrate`` runs (or continues) ``tournaments/calibration.toml`` (Trash)
and ``tournaments/calibration-neighbor.toml`` (Help Your Neighbor) with the tournament
runner, then rates every bot of them with the same openskill model the players have:

- the anchor of a bot is the mean of its final rating over ``ORDERINGS`` random orders of
  all the games (a sequential rating depends on the order; bots do not change, so no
  order is better than another), with openskill's drift ``tau`` set to 0;
- its 95% interval comes from ``resamples`` bootstrap samples of the tournament's boards
  (a duplicate board's rotations stay together), each rated in a random order;
- entries of one level (``random-a``, ``random-b``) are one level: their mean.

The result is written to ``trash_tui/players/anchors.json`` with how it was made (the
files, their fingerprints, the commit). This module sits above the tournament runner:
only the command line imports it.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trash_tui.players.anchors import ANCHORS_PATH
from trash_tui.players.rating import DEFAULT_MU, DEFAULT_SIGMA, Rating, display
from trash_tui.tournament.config import TournamentConfig, config_fingerprint
from trash_tui.tournament.runner import RunOutcome, run_tournament

ORDERINGS = 20
DEFAULT_RESAMPLES = 200
CALIBRATION_FILES = ("calibration.toml", "calibration-neighbor.toml")


@dataclass(frozen=True)
class Anchor:
    """One bot level's calibrated rating, with the 95% interval of its mean."""

    level: str
    rating: Rating
    low: float
    high: float
    games: int

    def to_dict(self) -> dict[str, Any]:
        return {"mu": round(self.rating.mu, 4), "sigma": round(self.rating.sigma, 4),
                "low": round(self.low, 4), "high": round(self.high, 4),
                "shown": display(self.rating.mu), "shown_low": display(self.low),
                "shown_high": display(self.high), "games": self.games}


def entry_level(config: TournamentConfig, index: int) -> str:
    """The level a tournament entry calibrates: its registry bot's name."""
    return str(config.bots[index].spec.get("bot", config.bots[index].name))


def _rate_sequence(games: Sequence[dict[str, Any]], entries: int) -> list[Rating]:
    """Every entry's rating after ``games`` in this order (no drift: bots do not change)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    ratings = [model.create_rating([DEFAULT_MU, DEFAULT_SIGMA]) for _ in range(entries)]
    for game in games:
        seats = game["seats"]
        teams = [[ratings[bot]] for bot in seats]
        after = model.rate(teams, ranks=[float(p) for p in game["places"]])
        for bot, team in zip(seats, after, strict=True):
            ratings[bot] = team[0]
    return [Rating(float(r.mu), float(r.sigma)) for r in ratings]


def _by_level(config: TournamentConfig, ratings: Sequence[Rating]) -> dict[str, Rating]:
    groups: dict[str, list[Rating]] = defaultdict(list)
    for index, rating in enumerate(ratings):
        groups[entry_level(config, index)].append(rating)
    return {level: Rating(statistics.fmean(r.mu for r in group),
                          statistics.fmean(r.sigma for r in group))
            for level, group in groups.items()}


def compute_anchors(config: TournamentConfig, games: Sequence[dict[str, Any]],
                    resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> list[Anchor]:
    """The anchors of the levels of ``config`` from its played ``games`` (a run's
    results), strongest first."""
    rng = random.Random(seed)
    entries = len(config.bots)
    games = [g for g in games if len(g.get("seats", ())) == len(g.get("places", ())) >= 2]
    runs = []
    for _ in range(ORDERINGS):
        order = list(games)
        rng.shuffle(order)
        runs.append(_by_level(config, _rate_sequence(order, entries)))
    boards: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for game in games:
        boards[(int(game.get("pairing", 0)), int(game.get("board", game.get("index", 0))))
               ].append(game)
    keys = sorted(boards)
    samples: dict[str, list[float]] = defaultdict(list)
    for _ in range(resamples if keys else 0):
        drawn = [game for _ in keys for game in boards[keys[rng.randrange(len(keys))]]]
        rng.shuffle(drawn)
        for level, rating in _by_level(config, _rate_sequence(drawn, entries)).items():
            samples[level].append(rating.mu)
    played: dict[str, int] = defaultdict(int)
    for game in games:
        for bot in game["seats"]:
            played[entry_level(config, bot)] += 1
    anchors = []
    for level in runs[0]:
        mu = statistics.fmean(run[level].mu for run in runs)
        sigma = statistics.fmean(run[level].sigma for run in runs)
        values = sorted(samples[level]) or [mu]
        low = values[int(0.025 * (len(values) - 1))]
        high = values[round(0.975 * (len(values) - 1))]
        anchors.append(Anchor(level, Rating(mu, sigma), low, high, played[level]))
    return sorted(anchors, key=lambda a: -a.rating.mu)


def current_commit(folder: Path) -> str | None:
    """The commit the code is at (``git rev-parse HEAD``), or None outside a checkout."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True,
                              text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else None


def run_calibration(config: TournamentConfig, out_dir: Path, workers: int = 1,
                    progress: Callable[..., None] | None = None) -> RunOutcome:
    """Run (or continue) one calibration tournament into ``out_dir``."""
    return run_tournament(config, out_dir, workers=workers, progress=progress)


def anchors_document(calibrated: Sequence[tuple[TournamentConfig, RunOutcome, list[Anchor]]],
                     commit: str | None, resamples: int) -> dict[str, Any]:
    """What ``anchors.json`` holds: the anchors per game and how they were made."""
    return {
        "made_by": "trash players calibrate",
        "made": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": commit,
        "model": "openskill Plackett-Luce (defaults; tau = 0 for bots); shown = "
                 "1500 + 30 x (mu - 25); 95% interval of mu from "
                 f"{resamples} bootstrap samples of the boards",
        "tournaments": {config.game: {"file": config.path.name, "name": config.name,
                                      "fingerprint": config_fingerprint(config),
                                      "games": len(outcome.games), "status": outcome.status}
                        for config, outcome, _ in calibrated},
        "games": {config.game: {a.level: a.to_dict() for a in anchors}
                  for config, _, anchors in calibrated},
    }


def write_anchors(document: dict[str, Any], path: Path = ANCHORS_PATH) -> None:
    """Write ``anchors.json`` atomically."""
    temporary = path.with_suffix(".json.tmp")
    temporary.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    temporary.replace(path)


def format_anchors(title: str, anchors: Sequence[Anchor]) -> str:
    """The anchors as a table: level, rating shown, its 95% interval, mu and sigma."""
    lines = [title, f"  {'level':<8} {'rating':>6}  {'95% interval':<13}  {'mu':>6}  "
                    f"{'interval of mu':<15}  {'sigma':>5}  {'games':>6}"]
    for a in anchors:
        lines.append(f"  {a.level:<8} {display(a.rating.mu):>6}  "
                     f"{display(a.low):>5} – {display(a.high):<5}  {a.rating.mu:6.2f}  "
                     f"{a.low:6.2f} – {a.high:<6.2f}  {a.rating.sigma:5.2f}  {a.games:>6}")
    return "\n".join(lines)
