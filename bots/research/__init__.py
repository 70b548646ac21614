"""Research bots and measurements (issue 28), outside what play imports.

``oracle.py`` (a bot that sees every card, played only by its ``play_oracle_match``) and
``room.py`` (the room for skill at each decision) serve ``benchmarks/bots.py`` only.
Nothing that plays a game (the app, the SSH server, tournaments, the CLI) imports this
package; the bot registry refuses a research bot's name (``bots.registry.RESEARCH_NAMES``)
and ``make_research_bot`` is the one door that builds one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.base import Bot
from bots.registry import make_bot, parse_spec
from bots.research.oracle import OracleBot

#: The research bots by name (``bots.registry.RESEARCH_NAMES``); ``make_bot`` loads each
#: by its import path.
BOTS: dict[str, type[Bot]] = {OracleBot.name: OracleBot}


def make_research_bot(spec: str | Mapping[str, Any], seed: int | None = None) -> Bot:
    """``make_bot`` for a research run: a research bot's name (``oracle``) is accepted
    too, with the same parameters, seed and errors; any other spec is ``make_bot``'s."""
    table = parse_spec(spec) if isinstance(spec, str) else dict(spec)
    key = "bot" if "bot" in table else "name"
    cls = BOTS.get(table.get(key)) if isinstance(table.get(key), str) else None
    if cls is not None:
        table[key] = f"{cls.__module__}:{cls.__qualname__}"
    return make_bot(table, seed)
