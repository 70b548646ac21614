"""Help Your Neighbor records: every roll and action of a game as one JSON document.

A record holds the players, seats and seed, every roll in order (the opening rolls
included) as ``"3-4 6-6 ..."``, the actions by name, the first player, the outcome (winner,
abandoned, covered markers per seat, rolls taken) with a fingerprint of every event, and a
SHA-256 checksum of the rest, in the same envelope as Trash records
(``trash_tui.engine.record``). ``replay_neighbor`` first checks the record's whole shape
(``check_shape``), then replays it without a random generator: the dice come from the
record, and it raises ``RecordError`` at the first difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trash_tui import __version__
from trash_tui.engine.match import events_digest
from trash_tui.engine.record_shape import (
    FORMAT,
    VERSION,
    RecordError,
    check_envelope,
    checksum,
    has_type,
    may,
    need,
    need_strings,
    show,
)
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
_DIE_FACES = frozenset("123456")


def rolls_text(rolls: Sequence[tuple[int, int]]) -> str:
    """Rolls as ``"3-4 6-6 ..."``."""
    return " ".join(f"{d1}-{d2}" for d1, d2 in rolls)


def parse_rolls(text: str) -> list[tuple[int, int]]:
    """The rolls of ``rolls_text``; RecordError naming the first bad one."""
    rolls = []
    for index, token in enumerate(text.split(), start=1):
        parts = token.split("-")
        if len(parts) != 2 or not all(p in _DIE_FACES for p in parts):
            raise RecordError(f"record: roll {index}: {show(token)} is not two dice like 3-4")
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


def check_shape(document: Any) -> int:
    """The record's number of players, once every key it has is checked to be of the
    right type and in range (RecordError otherwise): a record that passes replays, or
    fails with a RecordError, and prints without surprises."""
    check_envelope(document)
    if document.get("kind") != KIND:
        raise RecordError(f"record: kind {show(document.get('kind'))} is not {KIND!r}")
    players = need(document, "players", int, "record")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RecordError(f"record: {players} players (Help Your Neighbor needs "
                          f"{MIN_PLAYERS} to {MAX_PLAYERS})")
    seats = need(document, "seats", list, "record")
    if len(seats) != players:
        raise RecordError(f"record: {len(seats)} seats for {players} players")
    need_strings(document, "seats", "record")
    may(document, "engine", str, "record")
    may(document, "context", dict, "record")
    need(document, "seed", (int, str), "record")
    first = need(document, "first", int, "record")
    if not 0 <= first < players:
        raise RecordError(f"record: first player {first} is not a seat")
    need(document, "rolls", str, "record")
    need(document, "actions", str, "record")
    need(document, "over", bool, "record")
    need(document, "abandoned", bool, "record")
    need(document, "winner", (int, type(None)), "record")
    need(document, "turns", int, "record")
    need(document, "events", str, "record")
    covered = need(document, "covered", list, "record")
    if len(covered) != players or not all(
            isinstance(c, list) and all(has_type(m, int) for m in c) for c in covered):
        raise RecordError("record: 'covered' must list the covered markers of each player")
    return players


def _actions(document: dict[str, Any]) -> list[int]:
    actions = []
    for index, token in enumerate(document["actions"].split(), start=1):
        try:
            actions.append(parse_action(token))
        except ValueError:
            raise RecordError(f"action {index}: not an action: {show(token)} (expected roll "
                              "or uncover:2..uncover:12 without 7)") from None
    return actions


def replay_neighbor(document: Any) -> NeighborGame:
    """Replay a Help Your Neighbor record and check it; return the game as it ended (or as
    far as the record goes). RecordError names the first difference."""
    players = check_shape(document)
    dice = FixedDice(parse_rolls(document["rolls"]))
    try:
        game = NeighborGame(players, document["seed"], dice=dice)
    except DiceExhausted:
        raise RecordError("record: the rolls run out before the first player is "
                          "found") from None
    if document["first"] != game.first:
        raise RecordError(f"record: recorded first player {document['first']}, the opening "
                          f"rolls give {game.first}")
    for index, action in enumerate(_actions(document), start=1):
        where = f"action {index} ({action_name(action)})"
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
    if document["over"] != game.over:
        raise RecordError(f"record: recorded over {document['over']!r}, replay gives "
                          f"{game.over!r}")
    for key, value in _outcome(game).items():
        if document[key] != value:
            raise RecordError(f"record: recorded {key} {show(document[key])}, replay gives "
                              f"{show(value)}")
    return game
