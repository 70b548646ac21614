"""The rooms of the table service (issue 38): who sits, watches and leaves where, tested
as plain calls, with no socket, no thread and no event loop. Each change says what the
service is to send to whom and what it is to save (an ``Outbox``)."""

from __future__ import annotations

from typing import Any

import pytest

from trash_tui.tables.hub import Client
from trash_tui.tables.rooms import DEMOTED, Outbox, RoomLimits, Rooms
from trash_tui.tables.table import PLAYING, SeatState, Table, TableConfig, TableError

CONFIG = {"name": "Friday game", "seats": ["human", "human", "normal"], "clock": 0}


class Now:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.time = 1000.0

    def __call__(self) -> float:
        return self.time


def rooms(**limits: Any) -> Rooms:
    return Rooms(lambda: RoomLimits(**limits), Now())


def person(identity: str, name: str) -> Client:
    return Client(writer=None, identity=identity, name=name)  # type: ignore[arg-type]


def open_table(where: Rooms, host: Client, number: int = 1, **config: Any) -> Outbox:
    settings = where.new_config(host, {"config": {**CONFIG, **config}})
    table = Table(number, f"CAB{number + 1}", host.identity or "", settings,
                  [SeatState(spec) for spec in settings.seats])
    return where.create(host, table)


def ops(messages: list[dict[str, Any]]) -> list[str]:
    return [message["op"] for message in messages]


def test_the_host_sits_first_and_the_table_starts_when_its_last_human_seat_is_taken() -> None:
    where, ann, bob = rooms(), person("key:ann", "Ann"), person("key:bob", "Bob")
    made = open_table(where, ann)
    assert ops(made.to(ann)) == ["update", "created"]
    table = where.tables[1]
    assert ann.table is table and ann.seat == 0 and table in made.saves
    assert made.starts == []  # Bob's seat is still open
    joined = where.join(bob, {"code": "cab2"})  # a code in any case
    assert (bob.table, bob.seat) == (table, 1)
    assert joined.starts == [table] and table in joined.saves
    assert joined.to(bob)[0]["reset"] and joined.to(bob)[0]["seat"] == 1
    assert joined.tables("show") == [table]  # everyone there sees Bob sit down


def test_a_started_table_offers_to_watch_and_the_limits_refuse_in_one_line() -> None:
    where = rooms(tables_per_player=1, spectators_per_table=1)
    ann, bob, cy, dee = (person(f"key:{n}", n.title()) for n in ("ann", "bob", "cy", "dee"))
    open_table(where, ann)
    with pytest.raises(TableError, match="you host 1 open tables already"):
        open_table(where, ann, 2)
    table = where.tables[1]
    table.status = PLAYING
    refused = where.join(bob, {"table": 1})
    [offer] = refused.to(bob)
    assert offer["op"] == "error" and offer["watch"] and offer["name"] == "Friday game"
    assert bob.table is None and refused.saves == []  # nothing changed
    where.watch(bob, {"table": 1})
    assert bob.table is table and bob.seat is None and bob in table.spectators
    with pytest.raises(TableError, match="as many spectators"):
        where.watch(cy, {"table": 1})
    with pytest.raises(TableError, match="private table needs its code"):
        where.join(dee, {"table": 99})


def test_leaving_a_waiting_table_opens_the_seat_and_the_host_leaving_it_empty_closes_it() -> None:
    where, ann, bob = rooms(), person("key:ann", "Ann"), person("key:bob", "Bob")
    open_table(where, ann, seats=["human", "human", "human"])
    table = where.tables[1]
    where.join(bob, {"table": 1})
    out = Outbox()
    where.leave(bob, out)
    assert bob.table is None and table.seats[1].identity is None  # open again
    assert table in out.saves and out.closes == []
    out = Outbox()
    where.leave(ann, out)
    assert out.closes == [(table, "the host left before the match began")]
    assert where.remove(table, "gone").to(ann) == [] and 1 not in where.tables


def test_leaving_a_match_in_play_hands_the_seat_to_the_stand_in_until_the_player_is_back(
        ) -> None:
    where, ann, bob = rooms(), person("key:ann", "Ann"), person("key:bob", "Bob")
    open_table(where, ann)
    table = where.tables[1]
    where.join(bob, {"table": 1})
    table.status, table.match_id = PLAYING, 7
    out = Outbox()
    where.leave(bob, out, dropped=True)
    assert table.seats[1].away and out.marks == [(7, "key:bob", True)]  # kept: he left
    [told] = out.to(ann)
    assert told == {"op": "notice", "text": "Bob lost the connection: the stand-in plays "
                                            "for them until they are back."}
    assert table.seats[1].identity == "key:bob"  # his seat still
    back = where.join(bob, {"table": 1})
    assert not table.seats[1].away and back.marks == [(7, "key:bob", False)]
    assert {"op": "notice", "text": "Bob is back."} in back.to(ann)
    assert back.to(bob)[-1]["text"].startswith("You are back at your seat")


def test_sitting_down_in_another_session_takes_the_seat_from_the_first() -> None:
    where, ann = rooms(), person("key:ann", "Ann")
    open_table(where, ann)
    again = person("key:ann", "Ann")  # the same player, a second session
    out = where.join(again, {"table": 1})
    assert out.to(ann) == [{"op": "left", "why": DEMOTED}]
    assert ann.table is None and again.table is where.tables[1] and again.seat == 0


def test_a_table_nobody_is_at_closes_after_the_empty_timeout() -> None:
    clock = Now()
    where = Rooms(lambda: RoomLimits(empty_timeout=60.0), clock)
    ann = person("key:ann", "Ann")
    open_table(where, ann, seats=["human", "normal"])
    table = where.tables[1]
    table.status = PLAYING
    where.leave(ann, Outbox())
    assert table.empty_since == clock.time
    clock.time += 59
    assert list(where.expired(clock.time)) == []
    clock.time += 2
    assert list(where.expired(clock.time)) == [(table, "nobody was at the table")]


def test_a_new_table_is_checked_and_named_apart_from_those_listed() -> None:
    where, ann, bob = rooms(), person("key:ann", "Ann"), person("key:bob", "Bob")
    open_table(where, ann)
    config = where.new_config(bob, {"config": CONFIG})
    assert isinstance(config, TableConfig) and config.name == "Friday game (2)"
    with pytest.raises(TableError, match="the first seat is the host's"):
        where.new_config(bob, {"config": {**CONFIG, "seats": ["normal", "human"]}})
