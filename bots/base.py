"""The bot interface: a bot sees its own observation and the legal actions, and answers.

Subclass ``Bot``, give it a ``name``, a one-line ``description`` and its ``params``
(each a ``Param`` with a default, a range and a meaning), and implement ``choose``. The
hooks ``start_match``, ``start_deal``, ``end_deal`` and ``end_match`` tell the bot where it
is; by default they do nothing. A bot never sees the engine's state: each call gets a fresh
``Observation`` snapshot. Its randomness comes from ``self.rng``, seeded from ``seed``.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from trash_tui.engine.observation import Observation
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.rules import Rules


class BotError(ValueError):
    """A bot that cannot be found or configured; the message names the bot and the key."""


@dataclass(frozen=True)
class Param:
    """One parameter of a bot: its default (which fixes its type), range and meaning."""

    default: Any
    meaning: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    @property
    def kind(self) -> type:
        return type(self.default)

    def allowed(self) -> str:
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.kind is bool:
            return "true or false"
        kind = "a number" if self.kind is float else "an integer"
        if self.low is not None and self.high is not None:
            return f"{kind} from {self.low:g} to {self.high:g}"
        if self.low is not None:
            return f"{kind} of at least {self.low:g}"
        return kind

    def check(self, bot: str, key: str, value: Any) -> Any:
        """The value converted to the parameter's type, or BotError naming bot and key."""
        kind = self.kind
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise BotError(f"bot {bot}: {key} must be {self.allowed()}, got {value!r}")
        if self.choices and value not in self.choices:
            raise BotError(f"bot {bot}: {key} must be {self.allowed()}, got {value!r}")
        if kind is float and not math.isfinite(value):
            raise BotError(f"bot {bot}: {key} must be {self.allowed()}, got {value!r}")
        if (self.low is not None and not self.low <= value) or (
                self.high is not None and not value <= self.high):
            raise BotError(f"bot {bot}: {key} must be {self.allowed()}, got {value!r}")
        return value


class Bot(ABC):
    """Base class of every bot. ``choose`` must return one of ``legal``."""

    name: ClassVar[str] = "bot"
    description: ClassVar[str] = ""
    params: ClassVar[dict[str, Param]] = {}

    def __init__(self, seed: int = 0, **options: Any) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BotError(f"bot {self.name}: seed must be an integer, got {seed!r}")
        self.seed = seed
        self.rng = Rng(derive_seed(seed, "bot", self.name))
        for key in options:
            if key not in self.params:
                known = ", ".join(["seed", *self.params]) or "seed"
                raise BotError(f"bot {self.name}: unknown parameter {key!r}; "
                               f"its parameters are {known}")
        self.options = {key: param.check(self.name, key, options.get(key, param.default))
                        for key, param in self.params.items()}
        self.seat = 0
        self.players = 0
        self.rules = Rules()

    def __getattr__(self, key: str) -> Any:
        options = self.__dict__.get("options")
        if options is not None and key in options:
            return options[key]
        raise AttributeError(key)

    # --- the protocol ------------------------------------------------------------------
    def start_match(self, seat: int, players: int, rules: Rules) -> None:
        """A match begins; this bot sits at ``seat``."""
        self.seat, self.players, self.rules = seat, players, rules

    def start_deal(self, observation: Observation) -> None:  # noqa: B027 - optional hook
        """A deal begins (the observation is taken before the first decision)."""

    @abstractmethod
    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        """Return one of ``legal`` for the decision ``observation`` describes."""

    def end_deal(self, observation: Observation) -> None:  # noqa: B027 - optional hook
        """A deal ended (``observation.shrinking`` says who shrinks)."""

    def end_match(self, places: Sequence[int]) -> None:  # noqa: B027 - optional hook
        """The match ended; ``places[seat]`` is each seat's place (1 = winner)."""

    def describe(self) -> str:
        """The bot and its settings, e.g. ``normal(seed=3, mistakes=0.1)``."""
        settings = ", ".join([f"seed={self.seed}",
                              *(f"{k}={v!r}" for k, v in self.options.items())])
        return f"{self.name}({settings})"
