"""Game records: they replay exactly, and any corruption or tampering is reported.

A record must be rejected with ``RecordError`` (one line, naming the deal, the action or
the key at fault) whether the tampering left the original checksum in place (the checksum
no longer matches) or recomputed it (the replay itself then meets an illegal action, a
different outcome or the wrong cards). The ``trash replay`` command is exercised for real
in a subprocess: exit 0 for a good record, 1 for a differing one with ``--check``, 2 for a
file it cannot read, and never a Python traceback.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bots.builtin import greedy_policy, random_policy
from trash_tui.cards import build_deck, card_id, decks_for, parse_card, rank_of
from trash_tui.engine.actions import action_name
from trash_tui.engine.deal import Deal
from trash_tui.engine.match import Match
from trash_tui.engine.record import (
    FORMAT,
    VERSION,
    RecordError,
    check_records,
    checksum,
    deal_record,
    load_records,
    match_record,
    replay,
    summarize_deal,
)
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.rules import Rules

Document = dict[str, Any]
POLICIES = {"random": random_policy, "greedy": greedy_policy}

# Two players, stock draws only, no wilds: long deals whose stocks run out (reshuffles).
RESHUFFLING = Rules(discard_draw="never", wilds="none", max_deals=2, lucky_reveal=True,
                    places=True)
# Three players with choices everywhere: both draws, wild slots, swaps, calls.
CHOOSY = Rules(start_size=4, jokers=True, call_trash=True)


# --- making games and records ----------------------------------------------------------------
def play(rules: Rules, players: int, seed: int, seats: tuple[str, ...],
         stop_after: int | None = None) -> tuple[Match, list[tuple[int, int, tuple[int, ...]]]]:
    """A match played by ``seats``; also every decision as (deal index, action index, legal)."""
    match = Match(rules, players, seed)
    rng = Rng(derive_seed(seed, "policies"))
    decisions = []
    steps = 0
    while not match.over and (stop_after is None or steps < stop_after):
        deal = match.deal
        decisions.append((len(match.history), len(deal.actions), deal.legal))
        seat = deal.to_move
        match.apply(POLICIES[seats[seat]](deal, seat, rng))
        steps += 1
        assert steps < 100_000
    return match, decisions


def as_json(document: Document) -> Document:
    return json.loads(json.dumps(document))


def resign(document: Document) -> Document:
    """Recompute the checksum, as a careful forger would."""
    document["checksum"] = checksum(document)
    return document


@pytest.fixture(scope="module")
def reshuffling() -> tuple[Match, Document]:
    match, _ = play(RESHUFFLING, 2, 1, ("greedy", "random"))
    assert match.over and len(match.history) == 2
    assert all(len(summary.reshuffles) == 1 for summary in match.history)
    return match, as_json(match_record(match, ["Ann", "Bob"]))


@pytest.fixture(scope="module")
def choosy() -> tuple[Match, Document, list[tuple[int, int, tuple[int, ...]]]]:
    match, decisions = play(CHOOSY, 3, 5, ("greedy", "random", "random"))
    assert match.over and len(match.history) >= 3
    return match, as_json(match_record(match)), decisions


@pytest.fixture(scope="module")
def single_deal() -> tuple[Deal, Document]:
    rng = Rng(derive_seed(3, "deal"))
    deal = Deal(CHOOSY, (4, 4, 4), 1, build_deck(decks_for(3), True), reshuffle=rng.shuffle,
                shuffle_with=rng)
    policy = Rng(4)
    while not deal.over:
        deal.apply(random_policy(deal, deal.to_move, policy))
    return deal, as_json(deal_record(deal, ["a", "b", "c"], seed=3))


def rejection(document: Any) -> str:
    """The RecordError message for ``document``; it must be a single, non-empty line."""
    with pytest.raises(RecordError) as info:
        replay(document)
    message = str(info.value)
    assert message and "\n" not in message and message == message.strip(), message
    return message


# --- good records ----------------------------------------------------------------------------
def test_a_finished_match_record_replays(reshuffling: tuple[Match, Document]) -> None:
    match, document = reshuffling
    again = replay(copy.deepcopy(document))
    assert isinstance(again, Match)
    assert again.result == match.result and again.history == match.history
    assert again.events == match.events
    games = check_records([copy.deepcopy(document)])
    assert len(games) == 1 and games[0].result == match.result
    assert document["format"] == FORMAT and document["version"] == VERSION
    assert document["seats"] == ["Ann", "Bob"]
    assert document["result"]["winner"] == match.result.winner


def test_record_file_round_trip(tmp_path: Path, choosy: tuple[Match, Document, list]) -> None:
    match, document, _ = choosy
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")  # one multi-line doc
    records = load_records(path)
    assert records == [document]
    (game,) = check_records(records)
    assert game.result == match.result and game.events == match.events


def test_json_lines_with_several_records(tmp_path: Path, reshuffling: tuple[Match, Document],
                                         choosy: tuple[Match, Document, list],
                                         single_deal: tuple[Deal, Document]) -> None:
    unfinished, _ = play(CHOOSY, 3, 8, ("random",) * 3, stop_after=25)
    documents = [reshuffling[1], choosy[1], single_deal[1], as_json(match_record(unfinished))]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(d) for d in documents[:2]) + "\n\n"
                    + "\n".join(json.dumps(d) for d in documents[2:]) + "\n", encoding="utf-8")
    records = load_records(path)
    assert records == documents
    games = check_records(records)
    assert [type(g).__name__ for g in games] == ["Match", "Match", "Deal", "Match"]
    assert games[0].result == reshuffling[0].result
    assert games[2].winner == single_deal[0].winner
    assert not games[3].over
    # a tampered record among several is named by its number
    records[2]["deals"][0]["turns"] += 1
    with pytest.raises(RecordError, match=r"^record 3: record: checksum mismatch"):
        check_records(records)
    resign(records[2])
    with pytest.raises(RecordError, match=r"^record 3: deal 1: recorded turns"):
        check_records(records)


def test_a_deal_record_replays(single_deal: tuple[Deal, Document]) -> None:
    deal, document = single_deal
    again = replay(copy.deepcopy(document))
    assert isinstance(again, Deal)
    assert again.events == deal.events and summarize_deal(again) == summarize_deal(deal)
    assert document["kind"] == "deal" and document["result"] == {"winner": deal.winner}


@pytest.mark.parametrize("stop_after", [1, 7, 30, 61, -1])
def test_an_unfinished_match_replays_to_the_same_position(
        stop_after: int, choosy: tuple[Match, Document, list]) -> None:
    if stop_after == -1:  # just after the first deal: the second deal has no action yet
        stop_after = len(choosy[0].history[0].actions)
    match, _ = play(CHOOSY, 3, 5, ("greedy", "random", "random"), stop_after=stop_after)
    assert not match.over
    document = as_json(match_record(match))
    assert document["result"] is None
    again = replay(copy.deepcopy(document))
    assert isinstance(again, Match) and not again.over
    assert again.deal_number == match.deal_number and again.history == match.history
    assert again.events == match.events
    assert again.to_move == match.to_move and again.legal == match.legal
    for seat in range(3):
        assert again.observation(seat) == match.observation(seat)
    assert again.deal.stock == match.deal.stock and again.deal.down == match.deal.down
    # the replayed position plays on
    again.apply(again.legal[0])
    # an unfinished record that claims a result is rejected
    document["result"] = {"winner": 0, "places": [1, 2, 2], "sizes": [3, 4, 4], "deals": 1,
                          "abandoned": False}
    assert rejection(resign(document)).startswith("result: the record has a result but the "
                                                   "match is not over")


def test_an_unfinished_deal_record_replays() -> None:
    rng = Rng(9)
    deal = Deal(CHOOSY, (4, 4), 0, build_deck(1, True), reshuffle=rng.shuffle,
                shuffle_with=rng)
    for _ in range(5):
        deal.apply(greedy_policy(deal, deal.to_move, rng))
    assert not deal.over
    again = replay(as_json(deal_record(deal)))
    assert isinstance(again, Deal) and not again.over
    assert again.events == deal.events
    assert [again.observation(s) for s in range(2)] == [deal.observation(s) for s in range(2)]


# --- tampering -------------------------------------------------------------------------------
def swap_deck_cards(document: Document, number: int, i: int, j: int) -> None:
    deck = document["deals"][number - 1]["deck"].split()
    deck[i], deck[j] = deck[j], deck[i]
    document["deals"][number - 1]["deck"] = " ".join(deck)


def first_draw_swap(document: Document) -> None:
    """Swap deal 1's first stock card with the first dealt card of another rank."""
    entry = document["deals"][0]
    deck = entry["deck"].split()
    top = sum(entry["sizes"])
    other = next(i for i in range(top)
                 if rank_of(parse_card(deck[i])) != rank_of(parse_card(deck[top])))
    swap_deck_cards(document, 1, other, top)


def replace_a_card(document: Document) -> None:
    deck = document["deals"][0]["deck"].split()
    deck[5] = "QH" if deck[5] != "QH" else "QS"
    document["deals"][0]["deck"] = " ".join(deck)


def set_action(number: int, index: int, name: str) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        actions = document["deals"][number - 1]["actions"].split()
        actions[index - 1] = name
        document["deals"][number - 1]["actions"] = " ".join(actions)
    return change


def edit(path: tuple[Any, ...], value: Any) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        target = document
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value(target[path[-1]]) if callable(value) else value
    return change


def drop(path: tuple[Any, ...]) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        target = document
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


# (id, change, what the replay says once the checksum is recomputed)
TAMPERING: list[tuple[str, Callable[[Document], None], str]] = [
    ("action-illegal", set_action(1, 1, "discard"),
     r"^deal 1, action 1: illegal action discard for seat \d; legal: stock$"),
    ("action-unknown", set_action(1, 2, "fly"), r"^deal 1, action 2: not an action: 'fly'"),
    ("action-dropped", edit(("deals", 0, "actions"), lambda a: " ".join(a.split()[:-1])),
     r"^deal 1: the actions end before the deal does$"),
    ("action-added", edit(("deals", 0, "actions"), lambda a: a + " stock"),
     r"^deal 1, action \d+: the deal was already over$"),
    ("deck-swap", first_draw_swap, r"^deal 1(, action \d+)?: "),
    ("deck-card-replaced", replace_a_card,
     r"^deal 1: deck: not the right cards \(missing \S+; unexpected \S+\)$"),
    ("deck-card-removed", edit(("deals", 1, "deck"), lambda d: d.split(" ", 1)[1]),
     r"^deal 2: deck: not the right cards \(missing \S+\)$"),
    ("deck-not-cards", edit(("deals", 0, "deck"), lambda d: "XX " + d),
     r"^deal 1: deck: not a card: 'XX'"),
    ("reshuffle-replaced", edit(("deals", 0, "reshuffles", 0), lambda r: "QH " + r[3:]),
     r"^deal 1: reshuffle: not the right cards \("),
    ("rules-wilds", edit(("rules", "wilds"), "faces"), r"^deal 1(, action \d+)?: "),
    ("rules-start-size", edit(("rules", "start_size"), 9),
     r"^deal 1: recorded layout sizes \[10, 10\], replay gives \[9, 9\]$"),
    ("rules-jokers", edit(("rules", "jokers"), True),
     r"^deal 1: deck: not the right cards \(missing \*B \*R\)$"),
    ("rules-unknown", edit(("rules", "speed"), 3), r"^record: rules\.speed: unknown option"),
    ("rules-bad-value", edit(("rules", "wilds"), "queens"), r"^record: rules\.wilds: expected"),
    ("cut-order", edit(("cut",), lambda c: " ".join(reversed(c.split()))),
     r"^(record: recorded dealer \d, the cut gives \d|deal 1: recorded first player \d, "
     r"replay gives \d)$"),
    ("dealer", edit(("dealer",), lambda d: 1 - d), r"^record: recorded dealer \d, the cut"),
    ("deal-first", edit(("deals", 1, "first"), lambda f: 1 - f),
     r"^deal 2: recorded first player \d, replay gives \d$"),
    ("deal-sizes", edit(("deals", 1, "sizes"), [10, 10]),
     r"^deal 2: recorded layout sizes \[10, 10\], replay gives \[\d+, \d+\]$"),
    ("deal-winner", edit(("deals", 0, "winner"), lambda w: 1 - w),
     r"^deal 1: recorded winner \d, replay gives \d$"),
    ("deal-turns", edit(("deals", 1, "turns"), lambda t: t + 1),
     r"^deal 2: recorded turns \d+, replay gives \d+$"),
    ("deal-face-down", edit(("deals", 0, "face_down"), [0, 0]), r"^deal 1: recorded face_down"),
    ("deal-shrinking", edit(("deals", 0, "shrinking"), [0, 1]), r"^deal 1: recorded shrinking"),
    ("deal-void", edit(("deals", 0, "void"), "stuck"), r"^deal 1: recorded void 'stuck'"),
    ("deal-dropped", edit(("deals",), lambda d: d[:1]),
     r"^record: the match goes on after deal 1, but the record has no more deals$"),
    ("deal-added", edit(("deals",), lambda d: [*d, d[-1]]),
     r"^deal 3: the match was already over$"),
    ("result-winner", edit(("result", "winner"), lambda w: 1 - w),
     r"^result: recorded \{'winner': \d, .*\}, replay gives \{'winner': \d"),
    ("result-places", edit(("result", "places"), lambda p: p[::-1]), r"^result: recorded "),
    ("result-deleted", edit(("result",), None), r"^result: recorded None, replay gives "),
    ("kind", edit(("kind",), "tournament"),
     r"^record: unknown kind 'tournament' \(expected 'match' or 'deal'\)$"),
]


@pytest.mark.parametrize(("change", "expected"), [(c, e) for _, c, e in TAMPERING],
                         ids=[name for name, _, _ in TAMPERING])
def test_tampered_records_are_rejected(reshuffling: tuple[Match, Document],
                                       change: Callable[[Document], None],
                                       expected: str) -> None:
    _, original = reshuffling
    document = copy.deepcopy(original)
    change(document)
    assert document != original
    assert rejection(document) == ("record: checksum mismatch: the record was changed after "
                                   "it was written")
    message = rejection(resign(document))
    assert re.search(expected, message), message


def changed_choices(match: Match, original: Document,
                    decisions: list[tuple[int, int, tuple[int, ...]]]
                    ) -> list[tuple[int, Document]]:
    """For each deal, the record with the deal's last decision that had an alternative
    answered the other way (checksum recomputed)."""
    changed = []
    for number in range(1, len(match.history) + 1):
        choices = [(i, legal) for d, i, legal in decisions if d == number - 1 and len(legal) > 1]
        if not choices:
            continue
        index, legal = choices[-1]
        actions = original["deals"][number - 1]["actions"].split()
        other = next(action_name(a) for a in legal if action_name(a) != actions[index])
        document = copy.deepcopy(original)
        set_action(number, index + 1, other)(document)
        assert rejection(document).startswith("record: checksum mismatch")
        changed.append((number, resign(document)))
    return changed


def test_a_changed_choice_changes_the_outcome(choosy: tuple[Match, Document, list]) -> None:
    """A decision answered the other way: the replay ends differently (or meets an illegal
    action) and says where. (When the other answer happens to give a legal game that ends
    the same way, the record is accepted: see the xfail test below.)"""
    match, original, decisions = choosy
    changed = changed_choices(match, original, decisions)
    rejected = 0
    for number, document in changed:
        try:
            game = replay(document)
        except RecordError as exc:
            message = str(exc)
            assert "\n" not in message
            assert re.match(rf"^(deal {number}[:,] |result: )", message), message
            rejected += 1
        else:  # a different game that ends alike; at least it is not this one
            assert isinstance(game, Match) and game.events != match.events
    assert rejected >= max(2, len(changed) - 1)


def test_every_changed_choice_is_detected() -> None:
    for seed in range(20):
        match, decisions = play(CHOOSY, 3, seed, ("greedy", "random", "random"))
        original = as_json(match_record(match))
        for _, document in changed_choices(match, original, decisions):
            rejection(document)


def test_the_deal_record_of_a_tampered_deal_is_rejected(
        single_deal: tuple[Deal, Document]) -> None:
    _, original = single_deal
    cases = [
        (set_action(1, 1, "swap"), r"^deal 1, action 1: illegal action swap"),
        (edit(("deals", 0, "turns"), lambda t: t + 2), r"^deal 1: recorded turns"),
        (edit(("result", "winner"), lambda w: (w + 1) % 3),
         r"^result: recorded winner \d, replay gives \d$"),
        (edit(("deals", 0, "sizes"), [4, 4]),
         r"^deal 1: 'sizes' must list one layout size \(1\.\.10\) per player$"),
        (edit(("deals", 0, "first"), 3), r"^deal 1: first player 3 is not a seat$"),
        (edit(("deals",), lambda d: d * 2), r"^record: a deal record holds exactly one deal$"),
    ]
    for change, expected in cases:
        document = copy.deepcopy(original)
        change(document)
        assert rejection(document).startswith("record: checksum mismatch")
        message = rejection(resign(document))
        assert re.search(expected, message), message


# --- reading records: format, version, keys, files -------------------------------------------
@pytest.mark.parametrize(("change", "expected"), [
    (edit(("format",), "chess-pgn"), r"^record: not a trash-tui record \(format 'chess-pgn'\)$"),
    (drop(("format",)), r"^record: not a trash-tui record \(format None\)$"),
    (edit(("version",), 2), r"^record: version 2 is not supported \(this is version 1\)$"),
    (edit(("version",), "1"), r"^record: version '1' is not supported"),
    (drop(("version",)), r"^record: version None is not supported"),
    (drop(("checksum",)), r"^record: missing checksum$"),
    (edit(("checksum",), 12), r"^record: missing checksum$"),
], ids=["format", "no-format", "version", "version-str", "no-version", "no-checksum",
        "checksum-int"])
def test_format_version_and_checksum_are_checked(reshuffling: tuple[Match, Document],
                                                 change: Callable[[Document], None],
                                                 expected: str) -> None:
    document = copy.deepcopy(reshuffling[1])
    change(document)
    assert re.search(expected, rejection(document))


@pytest.mark.parametrize(("path", "where"), [
    (("rules",), "record"), (("players",), "record"), (("deals",), "record"),
    (("cut",), "record"), (("dealer",), "record"),
    (("deals", 0, "sizes"), "deal 1"), (("deals", 0, "first"), "deal 1"),
    (("deals", 0, "deck"), "deal 1"), (("deals", 0, "reshuffles"), "deal 1"),
    (("deals", 1, "actions"), "deal 2"),
], ids=lambda value: "-".join(map(str, value)) if isinstance(value, tuple) else value)
def test_missing_keys_are_named(reshuffling: tuple[Match, Document], path: tuple[Any, ...],
                                where: str) -> None:
    document = copy.deepcopy(reshuffling[1])
    drop(path)(document)
    assert rejection(resign(document)) == f"{where}: missing '{path[-1]}'"


@pytest.mark.parametrize(("path", "value", "expected"), [
    (("players",), "2", r"^record: 'players' has the wrong type \(str\)$"),
    (("players",), True, r"^record: 'players' has the wrong type \(bool\)$"),
    (("players",), 9, r"^record: players: Trash is for 2 to 8 players, got 9$"),
    (("rules",), [], r"^record: 'rules' has the wrong type \(list\)$"),
    (("deals",), {}, r"^record: 'deals' has the wrong type \(dict\)$"),
    (("deals", 0), "deal", r"^deal 1: expected an object$"),
    (("deals", 0, "actions"), ["stock"], r"^deal 1: 'actions' has the wrong type \(list\)$"),
    (("deals", 0, "reshuffles"), [1], r"^deal 1: 'reshuffles' must hold card lists$"),
], ids=["players-str", "players-bool", "players-9", "rules-list", "deals-dict", "deal-str",
        "actions-list", "reshuffles-ints"])
def test_wrong_types_are_named(reshuffling: tuple[Match, Document], path: tuple[Any, ...],
                               value: Any, expected: str) -> None:
    document = copy.deepcopy(reshuffling[1])
    edit(path, value)(document)
    message = rejection(resign(document))
    assert re.search(expected, message), message


def test_not_an_object() -> None:
    assert rejection([1, 2]) == "record: expected a JSON object"
    assert rejection("record") == "record: expected a JSON object"


def test_files_that_are_not_records(tmp_path: Path,
                                    reshuffling: tuple[Match, Document]) -> None:
    text = json.dumps(reshuffling[1])
    truncated = tmp_path / "truncated.json"
    truncated.write_text(text[: len(text) // 2], encoding="utf-8")
    pretty_truncated = tmp_path / "pretty.json"
    pretty_truncated.write_text(json.dumps(reshuffling[1], indent=1)[:300], encoding="utf-8")
    lines = tmp_path / "lines.jsonl"
    lines.write_text(text + "\n" + text[:-40] + "\n" + text + "\n", encoding="utf-8")
    empty = tmp_path / "empty.json"
    empty.write_text(" \n\n", encoding="utf-8")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00\x81record")
    cases = [
        (truncated, rf"^{re.escape(str(truncated))}:1: not valid JSON: "),
        (pretty_truncated, rf"^{re.escape(str(pretty_truncated))}:1: not valid JSON: "),
        (lines, rf"^{re.escape(str(lines))}:2: not valid JSON: "),
        (empty, rf"^{re.escape(str(empty))}: the file is empty$"),
        (binary, rf"^{re.escape(str(binary))}: not a text file$"),
        (tmp_path / "missing.json", r"missing\.json: cannot read: "),
        (tmp_path, rf"^{re.escape(str(tmp_path))}: cannot read: "),
    ]
    for path, expected in cases:
        with pytest.raises(RecordError) as info:
            load_records(path)
        message = str(info.value)
        assert "\n" not in message and re.search(expected, message), message


# --- engine/record bugs found by these tests -------------------------------------------------
def one_more_player(document: Document) -> None:
    """A third player everywhere the record's shape needs one (seats, layout sizes)."""
    document["players"] = 3
    document["seats"] = [*document["seats"], "Cy"]
    for entry in document["deals"]:
        entry["sizes"] = [*entry["sizes"], entry["sizes"][0]]


@pytest.mark.parametrize("change", [edit(("cut",), lambda c: c.split()[0]), one_more_player],
                         ids=["one-card-cut", "more-players"])
def test_a_short_cut_is_a_record_error(reshuffling: tuple[Match, Document],
                                       change: Callable[[Document], None]) -> None:
    """(Found by these tests: this used to raise a bare ValueError from the cut.)"""
    document = copy.deepcopy(reshuffling[1])
    change(document)
    message = rejection(resign(document))
    assert re.fullmatch(r"record: the cut needs \d more cards, \d are left", message), message


def test_a_record_without_a_cut_starts_with_its_first_player(
        reshuffling: tuple[Match, Document]) -> None:
    """An empty cut is a match begun without a cut: the recorded first player starts."""
    match, original = reshuffling
    document = copy.deepcopy(original)
    document["cut"] = ""
    assert rejection(document).startswith("record: checksum mismatch")
    again = replay(resign(document))
    assert isinstance(again, Match)
    assert again.history == match.history and again.result == match.result
    assert [e for e in again.events if e[0] != "cut"] == [e for e in match.events
                                                          if e[0] != "cut"]
    document["first"] = 1 - document["first"]
    assert rejection(resign(document)) == (f"deal 1: recorded first player "
                                           f"{original['first']}, replay gives "
                                           f"{document['first']}")
    document["first"] = 2
    assert rejection(resign(document)) == "record: first player 2 is not a seat"


@pytest.mark.parametrize("result", [None, "won", [1]], ids=["null", "string", "list"])
def test_a_deal_record_with_a_bad_result_is_a_record_error(
        single_deal: tuple[Deal, Document], result: Any) -> None:
    document = copy.deepcopy(single_deal[1])
    document["result"] = result
    assert rejection(resign(document)).startswith("result: ")


@pytest.mark.parametrize("entry", [7, "sizes"], ids=["number", "string"])
def test_a_deal_record_with_a_bad_entry_is_a_record_error(
        single_deal: tuple[Deal, Document], entry: Any) -> None:
    document = copy.deepcopy(single_deal[1])
    document["deals"] = [entry]
    assert rejection(resign(document)) == "deal 1: expected an object"


def test_an_unused_reshuffle_is_rejected(reshuffling: tuple[Match, Document]) -> None:
    document = copy.deepcopy(reshuffling[1])
    entry = document["deals"][0]
    entry["reshuffles"].append(entry["reshuffles"][0])
    assert rejection(resign(document)).startswith("deal 1: ")


@pytest.mark.parametrize(("players", "rules"), [(1, Rules()), (9, Rules()),
                                                (3, Rules(free_draws=2, lucky_reveal=True))],
                         ids=["1-player", "9-players", "free-draws-3-players"])
def test_deal_records_of_impossible_tables_are_rejected(players: int, rules: Rules) -> None:
    rng = Rng(1)
    deal = Deal(rules, (10,) * players, 0, build_deck(decks_for(players), rules.jokers),
                reshuffle=rng.shuffle, shuffle_with=rng)
    while not deal.over:
        deal.apply(random_policy(deal, deal.to_move, rng))
    assert rejection(as_json(deal_record(deal))).startswith("record: ")


# --- the trash command -----------------------------------------------------------------------
def _trash_exe() -> list[str]:
    """The console script of this environment (the venv's own script first)."""
    sibling = Path(sys.executable).parent / "trash"
    if sibling.exists():
        return [str(sibling)]
    found = shutil.which("trash")
    if found is None:
        pytest.skip("the trash console script is not installed")
    return [found]


def trash(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*_trash_exe(), *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=120, check=False)


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def record_files(tmp_path_factory: pytest.TempPathFactory,
                 reshuffling: tuple[Match, Document],
                 choosy: tuple[Match, Document, list]) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("records")
    good = folder / "good.json"
    good.write_text(json.dumps(choosy[1]), encoding="utf-8")
    tampered = copy.deepcopy(reshuffling[1])
    set_action(1, 1, "discard")(tampered)
    stale = folder / "stale.json"
    stale.write_text(json.dumps(tampered), encoding="utf-8")
    forged = folder / "forged.json"
    forged.write_text(json.dumps(resign(tampered)), encoding="utf-8")
    not_json = folder / "notes.txt"
    not_json.write_text("a game I played yesterday\n", encoding="utf-8")
    return {"good": good, "stale": stale, "forged": forged, "not_json": not_json,
            "missing": folder / "nowhere.json", "folder": folder}


def test_cli_check_accepts_a_good_record(record_files: dict[str, Path]) -> None:
    result = trash("replay", record_files["good"], "--check", cwd=record_files["folder"])
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "ok (1 record replay identically)" in result.stdout


def test_cli_check_rejects_tampered_records(record_files: dict[str, Path]) -> None:
    result = trash("replay", record_files["stale"], "--check", cwd=record_files["folder"])
    assert result.returncode == 1
    line = one_line_error(result)
    assert "stale.json" in line and "checksum mismatch" in line
    result = trash("replay", record_files["forged"], "--check", cwd=record_files["folder"])
    assert result.returncode == 1
    line = one_line_error(result)
    assert "forged.json" in line and "deal 1, action 1: illegal action discard" in line
    assert result.stdout == ""


@pytest.mark.parametrize("name", ["missing", "not_json", "folder"])
def test_cli_unreadable_files_exit_2(record_files: dict[str, Path], name: str) -> None:
    for args in (("--check",), ()):
        result = trash("replay", record_files[name], *args, cwd=record_files["folder"])
        assert result.returncode == 2, (result.stdout, result.stderr)
        line = one_line_error(result)
        assert line.startswith("trash: error: ")
        assert str(record_files[name]) in line or record_files[name].name in line


def test_cli_replay_without_check_rejects_a_forged_record(
        record_files: dict[str, Path]) -> None:
    result = trash("replay", record_files["forged"], cwd=record_files["folder"])
    assert result.returncode != 0
    line = one_line_error(result)
    assert "deal 1, action 1" in line
    assert result.stdout == ""  # nothing is printed from a record that does not replay


def test_cli_replay_prints_a_readable_log(record_files: dict[str, Path],
                                          choosy: tuple[Match, Document, list]) -> None:
    match = choosy[0]
    result = trash("replay", record_files["good"], cwd=record_files["folder"])
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and "Traceback" not in result.stdout
    out = result.stdout
    assert out.startswith("match for 3 players, seed 5")
    assert re.search(r"^Cut: .* deals$", out, re.M)
    assert re.search(r"^Deal 1: seat \d plays first; layouts ", out, re.M)  # once
    assert re.search(r" draws \S+ from the stock$", out, re.M)
    assert re.search(r" puts \S+ on slot \d+ and turns up \S+$", out, re.M)
    assert re.search(r" discards \S+$", out, re.M)
    assert re.search(r" completes the layout and wins the deal$", out, re.M)
    assert re.search(r"^End of the deal: seat \d won; shrinking: ", out, re.M)
    winner = match.result.winner
    assert f"seat {winner} wins the match. Places: " in out
    assert out.count("End of the deal:") == len(match.history)


def test_cli_replay_of_an_unfinished_match(tmp_path: Path) -> None:
    match, _ = play(CHOOSY, 3, 5, ("greedy", "random", "random"), stop_after=30)
    path = tmp_path / "unfinished.json"
    path.write_text(json.dumps(match_record(match)), encoding="utf-8")
    result = trash("replay", path, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith("(the record stops here: the match is unfinished)")
    assert trash("replay", path, "--check", cwd=tmp_path).returncode == 0


def test_cli_simulate_records_replay(tmp_path: Path) -> None:
    result = trash("simulate", "--matches", "3", "--seed", "5", "--record", "out.jsonl",
                   cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    assert all(json.loads(line)["kind"] == "match" for line in lines)
    check = trash("replay", "out.jsonl", "--check", cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    assert "ok (3 records replay identically)" in check.stdout
    log = trash("replay", "out.jsonl", cwd=tmp_path)
    assert log.returncode == 0 and log.stdout.count("wins the match") == 3
    assert [f"=== record {n} ===" in log.stdout for n in (1, 2, 3)] == [True] * 3
    # the same seed writes the same records
    again = trash("simulate", "--matches", "3", "--seed", "5", "--record", "again.jsonl",
                  cwd=tmp_path)
    assert again.returncode == 0
    assert (tmp_path / "again.jsonl").read_text() == (tmp_path / "out.jsonl").read_text()
    # one tampered line in the file is found and named
    document = json.loads(lines[1])
    document["deals"][0]["actions"] = "discard " + document["deals"][0]["actions"]
    lines[1] = json.dumps(resign(document))
    (tmp_path / "bad.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad = trash("replay", "bad.jsonl", "--check", cwd=tmp_path)
    assert bad.returncode == 1
    assert "record 2: deal 1, action 1: illegal action discard" in one_line_error(bad)


def test_cli_simulate_deal_records_replay(tmp_path: Path) -> None:
    result = trash("simulate", "--deals", "4", "--players", "3", "--bot", "random",
                   "--rules", "party", "--seed", "11", "--record", "deals.jsonl", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    records = load_records(tmp_path / "deals.jsonl")
    assert [r["kind"] for r in records] == ["deal"] * 4
    assert len(check_records(records)) == 4
    check = trash("replay", "deals.jsonl", "--check", cwd=tmp_path)
    assert check.returncode == 0 and "ok (4 records" in check.stdout


def test_cli_never_prints_a_traceback_for_a_short_cut(
        tmp_path: Path, reshuffling: tuple[Match, Document]) -> None:
    """(Found by these tests: this used to end in a ValueError traceback.)"""
    document = copy.deepcopy(reshuffling[1])
    document["cut"] = document["cut"].split()[0]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(resign(document)), encoding="utf-8")
    result = trash("replay", path, "--check", cwd=tmp_path)
    assert result.returncode == 1
    assert "record: the cut needs" in one_line_error(result)
    result = trash("replay", path, cwd=tmp_path)
    assert result.returncode == 2
    assert one_line_error(result).startswith("trash: error: record: the cut needs")


def test_card_names_in_records_are_the_documented_ids(
        reshuffling: tuple[Match, Document]) -> None:
    """The deck strings use card_id names, so hand-edited records stay readable."""
    document = reshuffling[1]
    tokens = document["deals"][0]["deck"].split()
    assert len(tokens) == 52
    assert all(card_id(parse_card(t)) == t for t in tokens)


def test_cli_never_prints_a_traceback_for_a_deal_record_without_result(
        tmp_path: Path, single_deal: tuple[Deal, Document]) -> None:
    document = copy.deepcopy(single_deal[1])
    document["result"] = None
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(resign(document)), encoding="utf-8")
    result = trash("replay", path, "--check", cwd=tmp_path)
    assert result.returncode == 1
    assert "result" in one_line_error(result)
