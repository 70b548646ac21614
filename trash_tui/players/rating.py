"""A rating as a value: a mean ``mu`` and an uncertainty ``sigma`` (openskill's defaults, 25
and 25/3), and the scale it is shown on, ``1500 + 30 × (mu − 25)``, with ``?`` while the
player has played fewer than ``PROVISIONAL_MATCHES`` rated matches (as lichess does).

Only the value: the history database keeps ratings as these, and the rating model
(``model.py``, openskill's Plackett–Luce) computes them; this module knows neither.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
DISPLAY_BASE = 1500.0
DISPLAY_SCALE = 30.0  # display points per unit of mu
PROVISIONAL_MATCHES = 10


@dataclass(frozen=True)
class Rating:
    """A player's (or a bot level's) rating in one game."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def shown(self) -> int:
        """The rating on the shown scale (1500 for a new player)."""
        return display(self.mu)

    @property
    def margin(self) -> int:
        """Half the width of the 95% interval, on the shown scale."""
        return round(1.96 * self.sigma * DISPLAY_SCALE)


def display(mu: float) -> int:
    """``mu`` on the shown scale."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - DEFAULT_MU))


def shown_rating(rating: Rating, matches: int) -> str:
    """"1623" for an established rating, "1623?" for a provisional one."""
    return f"{rating.shown}{'?' if matches < PROVISIONAL_MATCHES else ''}"
