"""Game records: a JSON document holding everything needed to replay a game exactly.

A record holds the rules, the seats, the cut, and for every deal (void ones included) the
deck in dealt order, every reshuffled stock, every action, and what the deal produced;
then the match's result and a SHA-256 checksum of the rest. Replaying never uses a
random generator: the cards come from the record. ``replay`` checks everything while it
goes and raises ``RecordError`` naming the first difference, so a corrupt or tampered
record is reported and never half-replayed.
"""

from __future__ import annotations

import hashlib
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
from trash_tui.rules import Rules, RulesError

FORMAT = "trash-tui-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read, or that does not replay to what it says."""


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


def checksum(document: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of ``document`` without its checksum."""
    body = {k: v for k, v in document.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


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
def load_records(path: str | Path) -> list[dict[str, Any]]:
    """The records in a file: one JSON document, or JSON Lines (one record per line)."""
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
        return [json.loads(stripped)]
    except json.JSONDecodeError:
        pass
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}:{number}: not valid JSON: {exc.msg}") from None
    return records


def _need(document: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in document:
        raise RecordError(f"{where}: missing '{key}'")
    value = document[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: '{key}' has the wrong type ({type(value).__name__})")
    return value


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


class RecordSource:
    """Cards taken from a record, checked to be the cards the table really uses."""

    def __init__(self, document: dict[str, Any], players: int, rules: Rules) -> None:
        self.document = document
        self.deals = document["deals"]
        self.index = 0
        self.expected = build_deck(decks_for(players), rules.jokers)
        self.unused_reshuffles: list[list[list[int]]] = []  # per deal started

    def cut_cards(self, count: int) -> list[int]:
        cut = _parse_cards(_need(self.document, "cut", str, "record"), "record: cut")
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


def _deal_from_entry(entry: Any, rules: Rules, sizes: Sequence[int], first: int,
                     cards: Sequence[int], events: list[tuple],
                     where: str) -> tuple[Deal, list[list[int]]]:
    """The deal an entry describes, and the list of its recorded reshuffles not yet used."""
    if not isinstance(entry, dict):
        raise RecordError(f"{where}: expected an object")
    recorded_sizes = _need(entry, "sizes", list, where)
    if list(recorded_sizes) != list(sizes):
        raise RecordError(f"{where}: recorded layout sizes {recorded_sizes}, replay gives "
                          f"{list(sizes)}")
    if _need(entry, "first", int, where) != first:
        raise RecordError(f"{where}: recorded first player {entry['first']}, replay gives "
                          f"{first}")
    deck = _parse_cards(_need(entry, "deck", str, where), f"{where}: deck")
    _check_permutation(deck, cards, f"{where}: deck")
    queue = []
    for text in _need(entry, "reshuffles", list, where):
        if not isinstance(text, str):
            raise RecordError(f"{where}: 'reshuffles' must hold card lists")
        queue.append(_parse_cards(text, f"{where}: reshuffle"))

    def reshuffle(discards: list[int]) -> list[int]:
        if not queue:
            raise RecordError(f"{where}: the stock ran out but the record has no reshuffle")
        order = queue.pop(0)
        _check_permutation(order, discards, f"{where}: reshuffle")
        return order

    try:
        deal = Deal(rules, sizes, first, deck, reshuffle=reshuffle, events=events)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None
    return deal, queue


def _check_reshuffles_used(left: list[list[int]], where: str) -> None:
    if left:
        raise RecordError(f"{where}: the record lists {len(left)} reshuffle(s) that never "
                          "happened")


def _header(document: Any) -> tuple[Rules, int]:
    if not isinstance(document, dict):
        raise RecordError("record: expected a JSON object")
    if document.get("format") != FORMAT:
        raise RecordError(f"record: not a trash-tui record (format {document.get('format')!r})")
    if document.get("version") != VERSION:
        raise RecordError(f"record: version {document.get('version')!r} is not supported "
                          f"(this is version {VERSION})")
    recorded = document.get("checksum")
    if not isinstance(recorded, str):
        raise RecordError("record: missing checksum")
    if recorded != checksum(document):
        raise RecordError("record: checksum mismatch: the record was changed after it was "
                          "written")
    try:
        rules = Rules.from_dict(_need(document, "rules", dict, "record"))
    except RulesError as exc:
        raise RecordError(f"record: {exc}") from None
    players = _need(document, "players", int, "record")
    _need(document, "deals", list, "record")
    return rules, players


def _play_actions(deal: Deal, entry: dict[str, Any], where: str, apply: Any) -> None:
    text = _need(entry, "actions", str, where)
    for index, token in enumerate(text.split(), start=1):
        try:
            action = parse_action(token)
        except ValueError as exc:
            raise RecordError(f"{where}, action {index}: {exc}") from None
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
            raise RecordError(f"{where}: recorded {key} {entry.get(key)!r}, replay gives "
                              f"{value!r}")


def _start_match(document: dict[str, Any], rules: Rules,
                 players: int) -> tuple[Match, RecordSource]:
    """The recorded match before its first action, dealt from the record's cards."""
    cut = _need(document, "cut", str, "record")
    first = None
    if not cut.strip():  # a match started without a cut names its first player
        first = _need(document, "first", int, "record")
        if not 0 <= first < players:
            raise RecordError(f"record: first player {first} is not a seat")
    try:
        source = RecordSource(document, players, rules)
        match = Match(rules, players, document.get("seed", 0), source=source, first=first)
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
    rules, players = _header(document)
    match, _ = _start_match(document, rules, players)
    actions = [[parse_action(token) for token in entry["actions"].split()]
               for entry in document["deals"]]
    return match, actions


def replay(document: Any) -> Match | Deal:
    """Replay a record and check it; return the final Match (or Deal for a deal record)."""
    rules, players = _header(document)
    kind = document.get("kind")
    if kind == "deal":
        return _replay_deal(document, rules, players)
    if kind != "match":
        raise RecordError(f"record: unknown kind {kind!r} (expected 'match' or 'deal')")
    match, source = _start_match(document, rules, players)
    if _need(document, "dealer", int, "record") != match.dealer:
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
            raise RecordError(f"result: recorded {result!r}, replay gives {expected!r}")
    elif result is not None:
        raise RecordError("result: the record has a result but the match is not over")
    return match


def _replay_deal(document: dict[str, Any], rules: Rules, players: int) -> Deal:
    try:
        validate_table(rules, players)
    except RulesError as exc:
        raise RecordError(f"record: {exc}") from None
    deals = document["deals"]
    if len(deals) != 1:
        raise RecordError("record: a deal record holds exactly one deal")
    entry = deals[0]
    if not isinstance(entry, dict):
        raise RecordError("deal 1: expected an object")
    sizes = _need(entry, "sizes", list, "deal 1")
    if len(sizes) != players or not all(
            isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= 10 for s in sizes):
        raise RecordError("deal 1: 'sizes' must list one layout size (1..10) per player")
    first = _need(entry, "first", int, "deal 1")
    if not 0 <= first < players:
        raise RecordError(f"deal 1: first player {first} is not a seat")
    result = document.get("result")
    if not isinstance(result, dict):
        raise RecordError("result: expected an object holding the deal's winner")
    cards = build_deck(decks_for(players), rules.jokers)
    deal, unused = _deal_from_entry(entry, rules, sizes, first, cards, [], "deal 1")
    _play_actions(deal, entry, "deal 1", deal.apply)
    if deal.over:
        _check_reshuffles_used(unused, "deal 1")
        _compare_deal(entry, summarize_deal(deal), "deal 1")
    if result.get("winner") != deal.winner:
        raise RecordError(f"result: recorded winner {result.get('winner')!r}, replay gives "
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
