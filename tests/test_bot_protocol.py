"""The bot protocol's messages (bots/PROTOCOL.md, version 2): each observation a bot process
gets is the engine's dictionary form less what hello said once, byte for byte as json.dumps
would write it; the usual answers and the odd ones are read alike; a bot speaking
version 1 is told why it cannot play; an isolated Python bot sees exactly what it would
see in the runner's process."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots import protocol
from bots.external import close_idle, external_bot
from bots.protocol import BotProtocolError
from bots.registry import make_bot
from bots.runner import BotFailure, play_match
from bots.wire import HELLO_FIELDS, clock_json, full_observation, observation_json
from trash_tui.engine.actions import OVER, WILD_BASE, action_name, parse_action
from trash_tui.engine.match import Match
from trash_tui.engine.observation import Observation, observe
from trash_tui.engine.record import match_record
from trash_tui.presets import PRESETS
from trash_tui.rules import Rules


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def check_messages(seen: Observation, hello: dict[str, Any]) -> None:
    """Every message carrying ``seen`` says what its dictionary form says, less the
    hello's fields, which put back give the dictionary form exactly."""
    whole = json.loads(json.dumps(seen.to_dict()))
    rest = {key: value for key, value in whole.items() if key not in HELLO_FIELDS}
    assert observation_json(seen) == compact(rest)
    assert full_observation(hello, json.loads(observation_json(seen))) == whole
    assert list(full_observation(hello, rest)) == list(whole)  # the same order of keys
    assert json.loads(protocol.deal_start(seen)) == {"type": "deal", "observation": rest}
    assert json.loads(protocol.deal_end(seen)) == {"type": "deal_end", "observation": rest}
    if seen.legal:
        decide = protocol.decide(seen, seen.legal, 12.5, 0.5, 2)
        assert decide.endswith(b"\n") and decide.count(b"\n") == 1
        assert json.loads(decide) == {
            "type": "decide", "observation": rest,
            "clock": {"remaining": 12.5, "increment": 0.5, "limit": 2}}


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), preset=st.sampled_from(sorted(PRESETS)),
       choices=st.lists(st.integers(0, 9), min_size=1, max_size=20))
def test_every_observation_travels_whole_once_the_hello_is_added(
        seed: int, preset: str, choices: list[int]) -> None:
    rules = PRESETS[preset].rules
    players = 2 if rules.free_draws else 3
    match = Match(rules, players, seed)
    hellos = [json.loads(protocol.hello(rules, seat, players, {"depth": 3}, seed))
              for seat in range(players)]
    assert all(hello["protocol"] == 2 and hello["seat"] == seat and hello["players"] == players
               and hello["rules"] == rules.to_dict() for seat, hello in enumerate(hellos))
    for turn in range(400):
        if match.over:
            break
        for seat in range(players):
            check_messages(match.observation(seat), hellos[seat])
        deal, number = match.deal, match.deal_number
        legal = match.legal
        match.apply(legal[choices[turn % len(choices)] % len(legal)])
        if deal.phase == OVER:  # the deal_end messages: reveals, shrinking, void deals
            for seat in range(players):
                check_messages(observe(deal, seat, number, match.deals_played), hellos[seat])


numbers = st.one_of(st.none(), st.integers(0, 10**6),
                    st.floats(min_value=0, max_value=1e6, allow_nan=False))


@given(remaining=numbers, increment=numbers, limit=numbers)
def test_a_decisions_clock_is_written_as_json_writes_it(
        remaining: float | None, increment: float | None, limit: float | None) -> None:
    assert clock_json(remaining, increment, limit) == compact(
        {"remaining": remaining, "increment": increment, "limit": limit})


ACTIONS = [*range(6), *(WILD_BASE + slot for slot in range(1, 11))]


@pytest.mark.parametrize("action", ACTIONS, ids=action_name)
def test_an_answer_is_read_the_same_however_it_is_spaced(action: int) -> None:
    name = action_name(action)
    for separators in ((",", ":"), (", ", ": "), (" , ", " : ")):
        line = json.dumps({"action": name}, separators=separators).encode()
        assert protocol.read_action(line) == parse_action(name)
    assert protocol.read_action(b'\t{"action":"' + name.encode() + b'"}  ') == action
    assert protocol.read_action(b'{"action":"' + name.encode() + b'","why":1}') == action


@pytest.mark.parametrize(("line", "kind"), [
    (b'{"action":"fold"}', "unknown"),
    (b'{"action":"Stock"}', "unknown"),
    (b'{"action":"stock"', "malformed"),
    (b'{"actions":"stock"}', "malformed"),
    (b'["stock"]', "malformed"),
    (b'{"action":"stock","error":"I give up"}', "error"),
])
def test_an_answer_that_is_no_action_is_a_forfeit(line: bytes, kind: str) -> None:
    with pytest.raises(BotProtocolError) as caught:
        protocol.read_action(line)
    assert caught.value.kind == kind


def test_a_slot_past_the_layout_is_read_for_the_runner_to_refuse() -> None:
    assert protocol.read_action(b'{"action":"wild:12"}') == WILD_BASE + 12


VERSION_ONE = textwrap.dedent('''\
    import json, sys
    for line in sys.stdin:
        if json.loads(line)["type"] == "hello":
            print(json.dumps({"type": "hello", "name": "old", "protocol": 1}), flush=True)
''')


def test_a_bot_speaking_version_1_is_told_which_version_the_runner_speaks(
        tmp_path: Path) -> None:
    script = tmp_path / "old_bot.py"
    script.write_text(VERSION_ONE, encoding="utf-8")
    old = external_bot({"name": "old", "command": [sys.executable, str(script)]})
    with pytest.raises(BotFailure) as caught:
        play_match(Rules(start_size=4), [old, make_bot("greedy")], 1)
    assert caught.value.kind == "error"
    assert "speaks protocol 1; this runner speaks 2" in caught.value.detail


# A bot whose every choice depends on every observation it was given (in its hooks too):
# it plays the same games isolated as in process only if it sees exactly the same things.
WITNESS = textwrap.dedent('''\
    import zlib

    from bots.base import Bot


    class Witness(Bot):
        name = "witness"

        def start_match(self, seat, players, rules):
            super().start_match(seat, players, rules)
            self.seen = zlib.crc32(repr((seat, players, rules)).encode())

        def note(self, observation):
            self.seen = zlib.crc32(repr(observation).encode(), self.seen)

        def start_deal(self, observation):
            self.note(observation)

        def end_deal(self, observation):
            self.note(observation)

        def choose(self, observation, legal):
            self.note(observation)
            return legal[(self.seen + self.rng.below(2)) % len(legal)]
''')


@pytest.mark.parametrize("preset", ["standard", "kings-wild", "catsatcards"])
def test_an_isolated_bot_sees_what_it_would_see_in_process(tmp_path: Path,
                                                           preset: str) -> None:
    path = tmp_path / "witness.py"
    path.write_text(WITNESS, encoding="utf-8")
    rules = PRESETS[preset].rules
    players = 2 if rules.free_draws else 3
    names = ["a", "b", "c"][:players]
    for seed in range(2):
        isolated = play_match(rules, [make_bot({"bot": str(path), "isolate": True}, seed=s)
                                      for s in range(players)], seed)
        in_process = play_match(rules, [make_bot({"bot": str(path)}, seed=s)
                                        for s in range(players)], seed)
        assert match_record(isolated, names) == match_record(in_process, names)
    close_idle()


# --- what a bot is told, and what it must say (issue 25) -----------------------------------

RECORDER = textwrap.dedent("""\
    import json, sys, time
    log = open(sys.argv[1], "a")
    for line in sys.stdin:
        log.write(line)
        log.flush()
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            print(json.dumps({"type": "hello", "name": "rec", "protocol": PROTOCOL}),
                  flush=True)
        elif kind == "decide":
            print(json.dumps({"action": message["observation"]["legal"][0]}), flush=True)
        elif kind == "match_end":
            print('{"type": "ok"}', flush=True)
        elif kind == "quit":
            time.sleep(0.2)
            log.write("exited after quit\\n")
            break
""")


def _recorder(tmp_path: Path, protocol_value: str = "2") -> tuple[dict[str, Any], Path]:
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER.replace("PROTOCOL", protocol_value), encoding="utf-8")
    log = tmp_path / "messages.jsonl"
    return {"name": "rec", "command": [sys.executable, str(script), str(log)],
            "cwd": str(tmp_path)}, log


class _Resigns:
    """An in-process bot that gives up at its first decision."""

    name = "resigns"

    def __init__(self) -> None:
        from bots.ladder import RandomBot
        self.inner = RandomBot(0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def describe(self) -> str:
        return "resigns"

    def choose(self, observation: Observation, legal: Any) -> int:
        raise RuntimeError("I give up")


def test_a_bot_whose_opponent_forfeits_is_told_its_place(tmp_path: Path) -> None:
    spec, log = _recorder(tmp_path)
    with pytest.raises(BotFailure):
        play_match(Rules(), [external_bot(spec, 1), _Resigns()], 3)
    close_idle()
    ends = [json.loads(line) for line in log.read_text().splitlines()
            if line.startswith('{"type":"match_end"')]
    assert ends == [{"type": "match_end", "places": [1, 2],
                     "forfeit": {"seat": 1, "reason": "error"}}]


def test_a_match_played_out_sends_its_places_without_forfeit(tmp_path: Path) -> None:
    spec, log = _recorder(tmp_path)
    match = play_match(Rules(), [external_bot(spec, 1), make_bot("greedy", seed=2)], 3)
    close_idle()
    assert match.result is not None
    ends = [json.loads(line) for line in log.read_text().splitlines()
            if line.startswith('{"type":"match_end"')]
    assert ends == [{"type": "match_end", "places": list(match.result.places)}]


def test_quit_gives_the_bot_time_to_exit_by_itself(tmp_path: Path) -> None:
    spec, log = _recorder(tmp_path)
    play_match(Rules(), [external_bot(spec, 1), make_bot("greedy", seed=2)], 3)
    close_idle()  # quit, then up to QUIT_GRACE (0.5 s) before the kill
    assert log.read_text().endswith('{"type":"quit"}\nexited after quit\n')


def test_protocol_as_a_string_says_it_must_be_a_number(tmp_path: Path) -> None:
    spec, _ = _recorder(tmp_path, '"2"')
    with pytest.raises(BotFailure) as failure:
        play_match(Rules(), [external_bot(spec, 1), make_bot("greedy", seed=2)], 3)
    close_idle()
    assert failure.value.kind == "malformed"
    assert failure.value.detail == ('in start_match: "protocol" must be the JSON number 2, '
                                    "not the string '2' (see bots/PROTOCOL.md)")


def test_a_blank_line_is_malformed_and_a_crlf_line_is_read() -> None:
    with pytest.raises(BotProtocolError) as failure:
        protocol.read_action(b"")
    assert failure.value.kind == "malformed"
    assert protocol.read_action(b'{"action": "stock"}\r') == parse_action("stock")
    assert protocol.read_hello(b'{"type": "hello", "name": "x"}\r')["name"] == "x"
