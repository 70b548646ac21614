"""Help Your Neighbor records: every roll and action of a game as one JSON document.

A record holds the players, seats and seed, every roll in order (the opening rolls
included) as ``"3-4 6-6 ..."``, the actions by name, the first player, the outcome (winner,
abandoned, covered markers per seat, rolls taken) with a fingerprint of every event, and a
SHA-256 checksum of the rest, in the same envelope as Trash records
(``trash_tui.engine.record``). ``replay_neighbor`` never uses a random generator: the dice
come from the record, and it raises ``RecordError`` at the first difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trash_tui import __version__
from trash_tui.engine.match import events_digest
from trash_tui.engine.record import FORMAT, VERSION, RecordError, checksum
from trash_tui.games import NEIGHBOR
from trash_tui.neighbor.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    DiceExhausted,
    FixedDice,
    IllegalAction,
    NeighborGame,
    action_name,
    parse_action,
)

KIND = NEIGHBOR


def rolls_text(rolls: Sequence[tuple[int, int]]) -> str:
    """Rolls as ``"3-4 6-6 ..."``."""
    return " ".join(f"{d1}-{d2}" for d1, d2 in rolls)


def parse_rolls(text: str) -> list[tuple[int, int]]:
    """The rolls of ``rolls_text``; RecordError naming the first bad one."""
    rolls = []
    for index, token in enumerate(text.split(), start=1):
        parts = token.split("-")
        if len(parts) != 2 or not all(p.isdigit() and 1 <= int(p) <= 6 for p in parts):
            raise RecordError(f"record: roll {index}: {token!r} is not two dice like 3-4")
        rolls.append((int(parts[0]), int(parts[1])))
    return rolls


def _outcome(game: NeighborGame) -> dict[str, Any]:
    return {
        "winner": game.winner,
        "abandoned": game.abandoned,
        "covered": [sorted(c) for c in game.covered],
        "turns": game.turn,
        "events": events_digest(game.events),
    }


def neighbor_record(game: NeighborGame, seats: Sequence[str] | None = None,
                    context: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``game`` (finished, or unfinished up to its last action).
    ``context`` (e.g. which tournament game this was) is kept as it is."""
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "kind": KIND,
        "engine": f"trash-tui {__version__}",
        "players": game.players,
        "seats": list(seats) if seats else [f"seat {i}" for i in range(game.players)],
        "seed": game.seed,
        "first": game.first,
        "rolls": rolls_text(game.rolls),
        "actions": " ".join(action_name(a) for a in game.actions),
        "over": game.over,
        **_outcome(game),
        **({"context": context} if context else {}),
    }
    document["checksum"] = checksum(document)
    return document


def _need(document: dict[str, Any], key: str, kind: type) -> Any:
    if key not in document:
        raise RecordError(f"record: missing '{key}'")
    value = document[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"record: '{key}' has the wrong type ({type(value).__name__})")
    return value


def _header(document: Any) -> int:
    if not isinstance(document, dict):
        raise RecordError("record: expected a JSON object")
    if document.get("format") != FORMAT:
        raise RecordError(f"record: not a trash-tui record (format {document.get('format')!r})")
    if document.get("version") != VERSION:
        raise RecordError(f"record: version {document.get('version')!r} is not supported "
                          f"(this is version {VERSION})")
    if document.get("kind") != KIND:
        raise RecordError(f"record: kind {document.get('kind')!r} is not {KIND!r}")
    recorded = document.get("checksum")
    if not isinstance(recorded, str):
        raise RecordError("record: missing checksum")
    if recorded != checksum(document):
        raise RecordError("record: checksum mismatch: the record was changed after it was "
                          "written")
    players = _need(document, "players", int)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RecordError(f"record: {players} players (Help Your Neighbor needs "
                          f"{MIN_PLAYERS} to {MAX_PLAYERS})")
    seats = _need(document, "seats", list)
    if len(seats) != players:
        raise RecordError(f"record: {len(seats)} seats for {players} players")
    return players


def replay_neighbor(document: Any) -> NeighborGame:
    """Replay a Help Your Neighbor record and check it; return the game as it ended (or as
    far as the record goes). RecordError names the first difference."""
    players = _header(document)
    dice = FixedDice(parse_rolls(_need(document, "rolls", str)))
    seed = document.get("seed", 0)
    try:
        game = NeighborGame(players, seed if isinstance(seed, int | str) else 0, dice=dice)
    except DiceExhausted:
        raise RecordError("record: the rolls run out before the first player is "
                          "found") from None
    if _need(document, "first", int) != game.first:
        raise RecordError(f"record: recorded first player {document['first']}, the opening "
                          f"rolls give {game.first}")
    tokens = _need(document, "actions", str).split()
    for index, token in enumerate(tokens, start=1):
        where = f"action {index} ({token})"
        try:
            action = parse_action(token)
        except ValueError as exc:
            raise RecordError(f"{where}: {exc}") from None
        if game.over:
            raise RecordError(f"{where}: the game was already over")
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise RecordError(f"{where}: {exc}") from None
        except DiceExhausted:
            raise RecordError(f"{where}: the record's rolls run out") from None
    if dice.remaining:
        raise RecordError(f"record: {dice.remaining} recorded roll(s) were never used")
    if document.get("over") != game.over:
        raise RecordError(f"record: recorded over {document.get('over')!r}, replay gives "
                          f"{game.over!r}")
    for key, value in _outcome(game).items():
        if document.get(key) != value:
            raise RecordError(f"record: recorded {key} {document.get(key)!r}, replay gives "
                              f"{value!r}")
    return game
