"""The pure, seeded rules engine: deals, matches, observations, records. No UI imports."""

from trash_tui.engine.actions import (
    CALL,
    DRAW_DISCARD,
    DRAW_STOCK,
    KEEP,
    SILENT,
    SWAP,
    action_name,
    parse_action,
    wild_action,
)
from trash_tui.engine.deal import Deal, IllegalAction
from trash_tui.engine.match import Match, MatchResult, RandomSource
from trash_tui.engine.observation import Observation
from trash_tui.engine.record import RecordError, deal_record, match_record, replay

__all__ = [
    "CALL", "DRAW_DISCARD", "DRAW_STOCK", "KEEP", "SILENT", "SWAP", "Deal", "IllegalAction",
    "Match", "MatchResult", "Observation", "RandomSource", "RecordError", "action_name",
    "deal_record", "match_record", "parse_action", "replay", "wild_action",
]
