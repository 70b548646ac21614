"""Game records: a JSON document holding everything needed to replay a game exactly.

A record holds the rules, the seats, the cut, and for every deal (void ones included) the
deck in dealt order, every reshuffled stock, every action, and what the deal produced;
then the match's result and a SHA-256 checksum of the rest. Replaying never uses a
random generator: the cards come from the record. ``replay`` first checks the record's
whole shape (every key of the right type, ``check_shape``; what both games' records share
is in ``record_shape``), then everything while it goes, and raises ``RecordError`` naming
the first difference, so a corrupt or tampered record is reported and never half-replayed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from trash_tui import __version__
from trash_tui.cards import build_deck, card_id, decks_for, parse_card
from trash_tui.engine.actions import action_name, parse_action
from trash_tui.engine.deal import Deal, IllegalAction
from trash_tui.engine.match import DealSummary, Match, events_digest, validate_table
from trash_tui.engine.record_shape import (
    FORMAT,
    VERSION,
    RecordError,
    check_envelope,
    checksum,
    has_type,
    may,
    need,
    need_ints,
    need_strings,
    parse_json,
    show,
)
from trash_tui.rules import Rules, RulesError

__all__ = ["FORMAT", "VERSION", "RecordError", "check_records", "check_shape", "checksum",
           "deal_record", "load_records", "match_record", "replay", "replay_start",
           "summarize_deal"]

# --- writing -----------------------------------------------------------------------------
def _cards_text(cards: Sequence[int]) -> str:
    return " ".join(card_id(c) for c in cards)


def _deal_entry(summary: DealSummary) -> dict[str, Any]:
    return {
        "number": summary.number,
        "first": summary.first,
        "sizes": list(summary.sizes),
        "deck": _cards_text(summary.deck),
        "reshuffles": [_cards_text(r) for r in summary.reshuffles],
        "actions": " ".join(action_name(a) for a in summary.actions),
        "void": summary.voided,
        "winner": summary.winner,
        "shrinking": list(summary.shrinking),
        "face_down": list(summary.face_down),
        "turns": summary.turns,
        "events": summary.digest,
    }


def summarize_deal(deal: Deal, number: int = 1) -> DealSummary:
    """The summary of a finished (or unfinished) deal, as records keep it."""
    return DealSummary(
        number=number, first=deal.first, sizes=deal.sizes, deck=deal.deck,
        reshuffles=list(deal.reshuffles), actions=list(deal.actions), voided=deal.voided,
        winner=deal.winner, shrinking=deal.shrinking, face_down=tuple(deal.face_down),
        turns=deal.turns, digest=events_digest(deal.own_events()),
    )


def _finish(document: dict[str, Any]) -> dict[str, Any]:
    document["checksum"] = checksum(document)
    return document


def match_record(match: Match, seats: Sequence[str] | None = None,
                 context: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``match`` (finished, or unfinished up to its last action).
    ``context`` (e.g. which tournament game this was) is kept as it is."""
    deals = [_deal_entry(s) for s in match.history]
    if not match.over:
        deals.append(_deal_entry(summarize_deal(match.deal, match.deals_played + 1)))
    result = None
    if match.result is not None:
        r = match.result
        result = {"winner": r.winner, "places": r.places, "sizes": r.sizes, "deals": r.deals,
                  "abandoned": r.abandoned}
    return _finish({
        "format": FORMAT,
        "version": VERSION,
        "kind": "match",
        "engine": f"trash-tui {__version__}",
        "rules": match.rules.to_dict(),
        "players": match.players,
        "seats": list(seats) if seats else [f"seat {i}" for i in range(match.players)],
        "seed": match.seed,
        "cut": _cards_text(match.cut),
        "dealer": match.dealer,
        "first": match.history[0].first if match.history else match.deal.first,
        "deals": deals,
        "result": result,
        **({"context": context} if context else {}),
    })


def deal_record(deal: Deal, seats: Sequence[str] | None = None,
                seed: int | str | None = None,
                context: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of a single deal played on its own (``trash simulate --deals``)."""
    return _finish({
        "format": FORMAT,
        "version": VERSION,
        "kind": "deal",
        "engine": f"trash-tui {__version__}",
        "rules": deal.rules.to_dict(),
        "players": deal.players,
        "seats": list(seats) if seats else [f"seat {i}" for i in range(deal.players)],
        "seed": seed,
        "deals": [_deal_entry(summarize_deal(deal))],
        "result": {"winner": deal.winner},
        **({"context": context} if context else {}),
    })


# --- reading -----------------------------------------------------------------------------
def load_records(path: str | Path) -> list[Any]:
    """The records in a file: one JSON document, or JSON Lines (one record per line).
    RecordError, naming the file (and the line), for a file that holds no JSON records."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a text file") from None
    stripped = text.strip()
    if not stripped:
        raise RecordError(f"{path}: the file is empty")
    try:
        document = parse_json(stripped)
    except json.JSONDecodeError:
        document = None  # not one document: read it as JSON Lines below
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    if document is not None:
        return [document]
    records = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            records.append(parse_json(line))
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}:{number}: not valid JSON: {exc.msg}") from None
        except RecordError as exc:
            raise RecordError(f"{path}:{number}: {exc}") from None
    return records


def _parse_cards(text: str, where: str) -> list[int]:
    try:
        return [parse_card(token) for token in text.split()]
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _check_permutation(cards: list[int], expected: Sequence[int], where: str) -> None:
    if Counter(cards) != Counter(expected):
        missing = Counter(expected) - Counter(cards)
        extra = Counter(cards) - Counter(expected)
        detail = []
        if missing:
            detail.append("missing " + _cards_text(sorted(missing.elements())))
        if extra:
            detail.append("unexpected " + _cards_text(sorted(extra.elements())))
        raise RecordError(f"{where}: not the right cards ({'; '.join(detail)})")


# --- the shape of a record: checked whole before anything is replayed or shown ------------
KINDS = ("match", "deal")
_OUTCOME_TYPES: dict[str, tuple[type, ...]] = {
    "void": (str, type(None)), "winner": (int, type(None)), "turns": (int,), "events": (str,),
}


def _check_entry(entry: Any, players: int, where: str) -> None:
    """One deal of a record: every key replay reads or compares, of the right type."""
    if not isinstance(entry, dict):
        raise RecordError(f"{where}: expected an object")
    may(entry, "number", int, where)
    first = need(entry, "first", int, where)
    sizes = need(entry, "sizes", list, where)
    if len(sizes) != players or not all(has_type(s, int) and 1 <= s <= 10 for s in sizes):
        raise RecordError(f"{where}: 'sizes' must list one layout size (1..10) per player")
    if not 0 <= first < players:
        raise RecordError(f"{where}: first player {first} is not a seat")
    need(entry, "deck", str, where)
    if not all(isinstance(t, str) for t in need(entry, "reshuffles", list, where)):
        raise RecordError(f"{where}: 'reshuffles' must hold card lists")
    need(entry, "actions", str, where)
    for key, kinds in _OUTCOME_TYPES.items():
        need(entry, key, kinds, where)
    need_ints(entry, "shrinking", where)
    need_ints(entry, "face_down", where)


def check_shape(document: Any) -> tuple[str, Rules, int]:
    """The record's kind ("match" or "deal"), rules and number of players, once every key
    it has is checked to be of the right type and in range (RecordError otherwise): a
    record that passes replays, or fails with a RecordError, and prints without surprises.
    """
    check_envelope(document)
    kind = document.get("kind")
    if kind not in KINDS:
        raise RecordError(f"record: unknown kind {show(kind)} (expected 'match' or 'deal')")
    try:
        rules = Rules.from_dict(need(document, "rules", dict, "record"))
        players = need(document, "players", int, "record")
        validate_table(rules, players)
    except RulesError as exc:
        raise RecordError(f"record: {exc}") from None
    need_strings(document, "seats", "record", players)
    may(document, "engine", str, "record")
    may(document, "context", dict, "record")
    if kind == "match":
        need(document, "seed", (int, str), "record")
        need(document, "cut", str, "record")
        need(document, "dealer", int, "record")
        may(document, "first", int, "record")
    else:
        need(document, "seed", (int, str, type(None)), "record")
    deals = need(document, "deals", list, "record")
    if kind == "deal" and len(deals) != 1:
        raise RecordError("record: a deal record holds exactly one deal")
    for index, entry in enumerate(deals, start=1):
        _check_entry(entry, players, f"deal {index}")
    if kind == "deal" and not isinstance(document.get("result"), dict):
        raise RecordError("result: expected an object holding the deal's winner")
    return kind, rules, players


# --- replaying ---------------------------------------------------------------------------
class RecordSource:
    """Cards taken from a record, checked to be the cards the table really uses."""

    def __init__(self, document: dict[str, Any], players: int, rules: Rules) -> None:
        self.document = document
        self.deals = document["deals"]
        self.index = 0
        self.expected = build_deck(decks_for(players), rules.jokers)
        self.unused_reshuffles: list[list[list[int]]] = []  # per deal started

    def cut_cards(self, count: int) -> list[int]:
        cut = _parse_cards(self.document["cut"], "record: cut")
        if len(set(cut)) != len(cut):
            raise RecordError("record: cut: a card appears twice in the cut")
        return cut

    def start_deal(self, rules: Rules, sizes: Sequence[int], first: int,
                   cards: list[int], events: list[tuple]) -> Deal:
        if self.index >= len(self.deals):
            raise RecordError(f"record: the match goes on after deal {self.index}, but the "
                              "record has no more deals")
        entry = self.deals[self.index]
        where = f"deal {self.index + 1}"
        self.index += 1
        deal, unused = _deal_from_entry(entry, rules, sizes, first, cards, events, where)
        self.unused_reshuffles.append(unused)
        return deal


def _deal_from_entry(entry: dict[str, Any], rules: Rules, sizes: Sequence[int], first: int,
                     cards: Sequence[int], events: list[tuple],
                     where: str) -> tuple[Deal, list[list[int]]]:
    """The deal a (shape-checked) entry describes, and the list of its recorded reshuffles
    not yet used."""
    recorded_sizes = entry["sizes"]
    if list(recorded_sizes) != list(sizes):
        raise RecordError(f"{where}: recorded layout sizes {recorded_sizes}, replay gives "
                          f"{list(sizes)}")
    if entry["first"] != first:
        raise RecordError(f"{where}: recorded first player {entry['first']}, replay gives "
                          f"{first}")
    deck = _parse_cards(entry["deck"], f"{where}: deck")
    _check_permutation(deck, cards, f"{where}: deck")
    queue = [_parse_cards(text, f"{where}: reshuffle") for text in entry["reshuffles"]]

    def reshuffle(discards: list[int]) -> list[int]:
        if not queue:
            raise RecordError(f"{where}: the stock ran out but the record has no reshuffle")
        order = queue.pop(0)
        _check_permutation(order, discards, f"{where}: reshuffle")
        return order

    try:
        deal = Deal(rules, sizes, first, deck, reshuffle=reshuffle, events=events)
    except ValueError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"{where}: {exc}") from None
    return deal, queue


def _check_reshuffles_used(left: list[list[int]], where: str) -> None:
    if left:
        raise RecordError(f"{where}: the record lists {len(left)} reshuffle(s) that never "
                          "happened")


def _actions(entry: dict[str, Any], where: str) -> list[int]:
    actions = []
    for index, token in enumerate(entry["actions"].split(), start=1):
        try:
            actions.append(parse_action(token))
        except ValueError:
            raise RecordError(f"{where}, action {index}: not an action: {show(token)} (expected "
                              "stock, discard, swap, keep, call, silent or wild:1..wild:10)"
                              ) from None
    return actions


def _play_actions(deal: Deal, entry: dict[str, Any], where: str, apply: Any) -> None:
    for index, action in enumerate(_actions(entry, where), start=1):
        if deal.over:
            raise RecordError(f"{where}, action {index}: the deal was already over")
        try:
            apply(action)
        except IllegalAction as exc:
            raise RecordError(f"{where}, action {index}: {exc}") from None


def _compare_deal(entry: dict[str, Any], summary: DealSummary, where: str) -> None:
    got = {"void": summary.voided, "winner": summary.winner,
           "shrinking": list(summary.shrinking), "face_down": list(summary.face_down),
           "turns": summary.turns,
           "deck": _cards_text(summary.deck), "events": summary.digest}
    for key, value in got.items():
        if entry.get(key) != value:
            raise RecordError(f"{where}: recorded {key} {show(entry.get(key))}, replay gives "
                              f"{show(value)}")


def _start_match(document: dict[str, Any], rules: Rules,
                 players: int) -> tuple[Match, RecordSource]:
    """The recorded match before its first action, dealt from the record's cards."""
    first = None
    if not document["cut"].strip():  # a match started without a cut names its first player
        first = need(document, "first", int, "record")
        if not 0 <= first < players:
            raise RecordError(f"record: first player {first} is not a seat")
    try:
        source = RecordSource(document, players, rules)
        match = Match(rules, players, document["seed"], source=source, first=first)
    except (RulesError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"record: {exc}") from None
    return match, source


def replay_start(document: Any, check: bool = True) -> tuple[Match, list[list[int]]]:
    """For stepping through a match record: the match before its first action (its cards
    come from the record) and the recorded actions, deal by deal. The whole record is
    checked first (``replay``), so stepping never meets a bad action; ``check=False``
    skips that for a record already checked."""
    if not isinstance(document, dict) or document.get("kind") != "match":
        raise RecordError("record: only match records can be stepped through")
    if check:
        replay(document)
    _, rules, players = check_shape(document)
    match, _ = _start_match(document, rules, players)
    actions = [_actions(entry, f"deal {number}")
               for number, entry in enumerate(document["deals"], start=1)]
    return match, actions


def replay(document: Any) -> Match | Deal:
    """Replay a record and check it; return the final Match (or Deal for a deal record).
    Anything wrong with it, from its shape to its last outcome, is a RecordError."""
    kind, rules, players = check_shape(document)
    if kind == "deal":
        return _replay_deal(document, rules, players)
    match, source = _start_match(document, rules, players)
    if document["dealer"] != match.dealer:
        raise RecordError(f"record: recorded dealer {document['dealer']}, the cut gives "
                          f"{match.dealer}")
    for index, entry in enumerate(document["deals"], start=1):
        where = f"deal {index}"
        if match.over:
            raise RecordError(f"{where}: the match was already over")
        deal = match.deal
        _play_actions(deal, entry, where, match.apply)
        if deal.over:
            _check_reshuffles_used(source.unused_reshuffles[index - 1], where)
            _compare_deal(entry, match.history[-1], where)
        elif index != len(document["deals"]):
            raise RecordError(f"{where}: the actions end before the deal does")
    result = document.get("result")
    if match.over:
        assert match.result is not None
        r = match.result
        expected = {"winner": r.winner, "places": r.places, "sizes": r.sizes,
                    "deals": r.deals, "abandoned": r.abandoned}
        if result != expected:
            raise RecordError(f"result: recorded {show(result)}, replay gives {show(expected)}")
    elif result is not None:
        raise RecordError("result: the record has a result but the match is not over")
    return match


def _replay_deal(document: dict[str, Any], rules: Rules, players: int) -> Deal:
    entry = document["deals"][0]
    cards = build_deck(decks_for(players), rules.jokers)
    deal, unused = _deal_from_entry(entry, rules, entry["sizes"], entry["first"], cards, [],
                                    "deal 1")
    _play_actions(deal, entry, "deal 1", deal.apply)
    if deal.over:
        _check_reshuffles_used(unused, "deal 1")
        _compare_deal(entry, summarize_deal(deal), "deal 1")
    result = document["result"]
    if result.get("winner") != deal.winner:
        raise RecordError(f"result: recorded winner {show(result.get('winner'))}, replay gives "
                          f"{deal.winner!r}")
    return deal


def check_records(records: list[Any]) -> list[Match | Deal]:
    """Replay every record; RecordError names the record (1-based) with the problem."""
    games = []
    for number, document in enumerate(records, start=1):
        try:
            games.append(replay(document))
        except RecordError as exc:
            prefix = f"record {number}: " if len(records) > 1 else ""
            raise RecordError(prefix + str(exc)) from None
    return games
