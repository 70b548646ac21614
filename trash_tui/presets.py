"""Named rule presets: at least one per variant row of RULES.md, plus combinations.

A preset is a description and a set of overrides on the standard rules. ``standard`` is
the default everywhere a preset is not named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trash_tui.rules import Rules, RulesError, shown_value


@dataclass(frozen=True)
class Preset:
    """A named, described set of overrides on the standard rules."""

    name: str
    description: str
    overrides: dict[str, Any] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        """The full rules this preset stands for."""
        return Rules().with_options(**self.overrides)


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("standard", "The standard game: Jacks wild, Queens and Kings trash, ten slots, "
               "play down to the one-slot layout."),
        Preset("kings-wild", "Kings are wild; Jacks and Queens are trash.", {"wilds": "kings"}),
        Preset("jokers", "Two Jokers per deck, wild beside the Jacks.", {"jokers": True}),
        Preset("all-faces-wild", "Jacks, Queens and Kings are all wild; there is no trash.",
               {"wilds": "faces"}),
        Preset("eight-card", "The match starts at eight slots, two rows of four.",
               {"start_size": 8}),
        Preset("kids", "Kids' quick game: the match starts at five slots.", {"start_size": 5}),
        Preset("short-game", "Short game: the first player down to a six-slot layout wins.",
               {"target_size": 6}),
        Preset("fixed-deals", "Five deals; then the smallest layout wins (ties: fewest "
               "face-down cards in the last deal).", {"max_deals": 5}),
        Preset("rotate-first", "The first turn of each deal passes clockwise instead of going "
               "to the last winner.", {"first_player": "rotate"}),
        Preset("discard-when-playable", "The discard may be drawn only when it fits a "
               "face-down or wild-held slot.", {"discard_draw": "playable"}),
        Preset("last-turn", "After a player completes a round, every other player gets one more "
               "turn; whoever also completes shrinks too.", {"last_turn": True}),
        Preset("lucky-reveal", "Losers turn up their face-down cards; one whose cards all sit in "
               "their own slots shrinks too.", {"lucky_reveal": True}),
        Preset("three-free-draws", "Two players: the loser of a deal gets three free turns to "
               "complete, then the lucky reveal.", {"free_draws": 3, "lucky_reveal": True}),
        Preset("call-trash", "The player placing their final card must call \"Trash!\" or pay a "
               "penalty draw at their next turn before the win counts.", {"call_trash": True}),
        Preset("places", "When the match ends the others are ranked by layout size, then by "
               "face-down cards left.", {"places": True}),
        Preset("seven-up", "Seven Up: seven slots in one row, Ace to 7 playable, no wilds, stock "
               "draws only, one deal decides.",
               {"start_size": 7, "wilds": "none", "discard_draw": "never", "max_deals": 1,
                "layout_rows": 1}),
        Preset("catsatcards", "The game as CatsAtCards.com describes it: Kings wild, Jacks and "
               "Queens trash, discard only when playable, last turn for the others.",
               {"wilds": "kings", "discard_draw": "playable", "last_turn": True}),
        Preset("party", "A lively table: Jokers, call \"Trash!\", places for the rest, first "
               "player rotates.",
               {"jokers": True, "call_trash": True, "places": True, "first_player": "rotate"}),
    )
}
DEFAULT_PRESET = "standard"


def preset_rules(name: str) -> Rules:
    """The rules of the preset ``name``; RulesError naming the known presets otherwise."""
    try:
        return PRESETS[name].rules
    except KeyError:
        raise RulesError(
            f"rules.preset: unknown preset {shown_value(name)}; known presets are "
            + ", ".join(PRESETS)
        ) from None


def preset_name_of(rules: Rules) -> str | None:
    """The name of a preset with exactly these rules, if there is one."""
    for preset in PRESETS.values():
        if preset.rules == rules:
            return preset.name
    return None
