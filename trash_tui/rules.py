"""The ``Rules`` value: every house rule of Trash as one frozen option set.

Each option is described by an ``OptionSpec`` (its type, what it allows and what it means),
so that validation, ``trash rules show`` and the settings screen all read one table.
``Rules.validate()`` rejects impossible combinations with a message naming the option.
The card roles (which ranks are naturals, wilds or trash) are derived here too, so the
engine never has to interpret option names on its hot path.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from trash_tui.cards import JACK, JOKER, KING, MAX_CODE, QUEEN, rank_of

WILD = 0  # role value of a wild card
TRASH = 15  # role value of a card that never fits a slot (above any layout size)


class RulesError(ValueError):
    """A rules option or combination that is not allowed; the message names the key."""


@dataclass(frozen=True)
class OptionSpec:
    """How one option of ``Rules`` may be set and what it means."""

    name: str
    kind: type
    meaning: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    variant: str = ""  # the RULES.md variant row this option implements

    def allowed(self) -> str:
        """A short phrase naming what values are allowed."""
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.kind is bool:
            return "true or false"
        return f"an integer from {self.low} to {self.high}"

    def check(self, value: Any) -> None:
        """Raise RulesError if ``value`` has the wrong type or is out of range."""
        ok_type = isinstance(value, self.kind) and not (
            self.kind is int and isinstance(value, bool)
        )
        if not ok_type or (self.choices and value not in self.choices) or (
                self.low is not None and self.high is not None
                and not self.low <= value <= self.high):
            raise RulesError(
                f"rules.{self.name}: expected {self.allowed()}, got {shown_value(value)}")


@dataclass(frozen=True)
class Rules:
    """One complete set of rules. The defaults are the standard game of RULES.md."""

    wilds: str = "jacks"
    jokers: bool = False
    start_size: int = 10
    target_size: int = 0
    max_deals: int = 0
    first_player: str = "winner"
    discard_draw: str = "any"
    last_turn: bool = False
    lucky_reveal: bool = False
    free_draws: int = 0
    call_trash: bool = False
    places: bool = False
    layout_rows: int = 2

    def validate(self) -> Rules:
        """Check every option and the combination; return self, or raise RulesError."""
        for spec in OPTIONS:
            spec.check(getattr(self, spec.name))
        if self.target_size >= self.start_size:
            raise RulesError(
                f"rules.target_size: must be below start_size ({self.start_size}); "
                f"got {self.target_size} (0 plays down to the one-slot layout)"
            )
        return self

    def with_options(self, **changes: Any) -> Rules:
        """A copy with some options changed, validated."""
        unknown = [k for k in changes if k not in OPTION_NAMES]
        if unknown:
            raise RulesError(unknown_option_message(unknown[0]))
        return replace(self, **changes).validate()

    def to_dict(self) -> dict[str, Any]:
        """Every option and its value, in declaration order (every value is a scalar, so
        this is ``dataclasses.asdict`` without its deep copy: it runs once per message a
        bot process gets)."""
        return {name: getattr(self, name) for name in OPTION_NAMES}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a full or partial option mapping (missing options take defaults)."""
        unknown = [k for k in data if k not in OPTION_NAMES]
        if unknown:
            raise RulesError(unknown_option_message(unknown[0]))
        for key, value in data.items():
            SPEC_BY_NAME[key].check(value)
        return cls(**data).validate()

    # --- derived facts the engine uses -------------------------------------------------
    def wild_ranks(self) -> frozenset[int]:
        """Ranks that are wild under these rules."""
        ranks = {"jacks": {JACK}, "kings": {KING}, "faces": {JACK, QUEEN, KING}, "none": set()}[
            self.wilds
        ]
        if self.jokers:
            ranks.add(JOKER)
        return frozenset(ranks)

    def role_table(self) -> list[int]:
        """For each card code: its slot (1..10), WILD, or TRASH. Indexed by code."""
        wild = self.wild_ranks()
        table = [TRASH] * MAX_CODE
        for code in range(MAX_CODE):
            rank = rank_of(code)
            if rank in wild:
                table[code] = WILD
            elif 1 <= rank <= 10:
                table[code] = rank
        return table

    def row_length(self, size: int) -> int:
        """How many slots a row holds when drawing a layout of ``size`` slots."""
        if self.layout_rows == 1:
            return max(size, 1)
        return max((self.start_size + 1) // 2, 1)


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("wilds", str, "which cards are wild: Jacks (Queens and Kings are trash), Kings "
               "(Jacks and Queens are trash), all faces (no trash), or none",
               choices=("jacks", "kings", "faces", "none"), variant="Kings wild / All faces wild"),
    OptionSpec("jokers", bool, "two Jokers per deck, wild in addition to the other wilds",
               variant="Jokers"),
    OptionSpec("start_size", int, "slots in every layout at the start of the match",
               low=1, high=10, variant="Eight-card start / Kids' quick game"),
    OptionSpec("target_size", int, "short game: the first player whose layout gets down to this "
               "size wins the match (0: fill the one-slot layout, the full game)",
               low=0, high=9, variant="Short game"),
    OptionSpec("max_deals", int, "fixed number of deals: after this many the smallest layout "
               "wins, ties by fewest face-down cards (0: no limit)",
               low=0, high=1000, variant="Fixed number of deals"),
    OptionSpec("first_player", str, "who plays first in the next deal: the last deal's winner, "
               "or the next player clockwise", choices=("winner", "rotate"),
               variant="First player rotates"),
    OptionSpec("discard_draw", str, "when the top discard may be drawn: any time, only when it "
               "fits a face-down or wild-held slot, or never (stock only)",
               choices=("any", "playable", "never"), variant="Discard only when playable"),
    OptionSpec("last_turn", bool, "after a player completes a round every other player gets one "
               "more turn; whoever also completes shrinks too", variant="Last turn for the others"),
    OptionSpec("lucky_reveal", bool, "at the end of a deal a loser whose face-down cards all sit "
               "in their own slots (wilds fit any slot) shrinks too", variant="Lucky reveal"),
    OptionSpec("free_draws", int, "2-player games: the deal's loser gets this many free turns to "
               "complete before revealing (the variant uses 3; 0: off)",
               low=0, high=10, variant="Three free draws"),
    OptionSpec("call_trash", bool, "the player placing their final card must call \"Trash!\"; one "
               "who forgets draws and discards a penalty card at their next turn before the win "
               "counts", variant="Call \"Trash!\""),
    OptionSpec("places", bool, "when the match ends, rank the other players by layout size, then "
               "by face-down cards left in the last deal", variant="Places for the rest"),
    OptionSpec("layout_rows", int, "rows a layout is drawn in (2: two rows, 1: one long row)",
               low=1, high=2, variant="Seven Up"),
)
OPTION_NAMES = tuple(spec.name for spec in OPTIONS)
SPEC_BY_NAME = {spec.name: spec for spec in OPTIONS}
assert tuple(f.name for f in fields(Rules)) == OPTION_NAMES, "OPTIONS must list every field"


def shown_value(value: Any, limit: int = 60) -> str:
    """A value from a file as an error message shows it: its ``repr`` (control characters
    escaped) on one line, cut to ``limit`` characters; an integer too long to be worth
    printing is said as its number of digits."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except ValueError:  # an integer inside a list or table too long to print
        return "a value too large to show"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def option_label(name: str) -> str:
    """An option as the screens name it: ``start_size`` -> "Start size" (the Settings
    screen's label, which the rules help uses too; files and the CLI keep the key)."""
    return name.replace("_", " ").capitalize()


def key_text(key: str) -> str:
    """A key as it can be shown on one line: bare when it is a plain name, else quoted."""
    return key if key.isidentifier() and key.isascii() else repr(key)


def unknown_option_message(key: str, with_preset: bool = False) -> str:
    """The error for a key that is not a rules option (``with_preset``: in a TOML table,
    where ``preset`` is allowed too)."""
    known = ("preset", *OPTION_NAMES) if with_preset else OPTION_NAMES
    return f"rules.{key_text(key)}: unknown option; known options are " + ", ".join(known)
