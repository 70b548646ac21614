"""The bot protocol (``bots/PROTOCOL.md``): JSON lines between the runner and a bot process.

This module only builds and reads the messages; ``bots.process`` moves the bytes and
``bots.external`` plays a match with them. Observations travel in the engine's own
dictionary form (``Observation.to_dict``) less what ``hello`` already said (seat, players,
rules), written by ``bots.wire``; actions by their record names (``stock``, ``wild:3``,
...). Anything a bot does wrong is a ``BotProtocolError`` whose ``kind`` is the forfeit
reason the results show.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from bots.wire import actions_json, clock_json, observation_json
from trash_tui.cards import rank_name
from trash_tui.engine.actions import WILD_BASE, action_name, parse_action
from trash_tui.engine.observation import Observation
from trash_tui.rules import Rules
from trash_tui.text import clean, visible

PROTOCOL_VERSION = 2  # 2: observations leave out seat, players and rules (in hello)
MAX_LINE = 1 << 20  # a line the bot writes may be at most 1 MiB long
GAME = "trash"

#: Forfeit reasons a bot process can cause, beside the runner's "illegal" and "error".
MALFORMED, UNKNOWN, EXIT, TIME, TIMEOUT = "malformed", "unknown", "exit", "time", "timeout"

_WILD_NAME = re.compile(r"wild:([0-9]{1,6})")
_dumps = json.JSONEncoder(separators=(",", ":")).encode


class BotProtocolError(Exception):
    """A bot process that broke the protocol: ``kind`` is the forfeit reason, ``detail``
    says what happened (one line)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class BotSilent(BotProtocolError):
    """No answer in time; the runner decides whether the clock or the time limit fell."""

    def __init__(self, waited: float) -> None:
        super().__init__(TIMEOUT, f"no answer after {waited:.3f} s")
        self.waited = waited


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as the bytes of one line."""
    return (_dumps(message) + "\n").encode()


def card_roles(rules: Rules) -> dict[str, int]:
    """Each rank's role under ``rules``, keyed by a card name without its suit letter
    (``"A"``, ``"10"``, ``"J"``, ``"*"`` for Jokers): the slot 1..10 it fits, 0 for a wild,
    15 for a card that never fits."""
    table = rules.role_table()
    roles = {rank_name(rank): table[rank] for rank in range(1, 14)}
    roles["*"] = table[14]
    return roles


def hello(rules: Rules, seat: int, players: int, params: Mapping[str, Any],
          seed: int) -> bytes:
    """The first message of every match; the bot answers with its name."""
    return encode({"type": "hello", "protocol": PROTOCOL_VERSION, "game": GAME,
                   "seat": seat, "players": players, "rules": rules.to_dict(),
                   "roles": card_roles(rules), "params": dict(params), "seed": seed})


def deal_start(observation: Observation) -> bytes:
    """A deal begins (no answer)."""
    return f'{{"type":"deal","observation":{observation_json(observation)}}}\n'.encode()


def decide(observation: Observation, legal: Sequence[int], remaining: float | None,
           increment: float | None, limit: float | None) -> bytes:
    """A decision for the bot: it answers with one of the observation's ``legal`` actions
    (``legal``, which the runner took from the observation)."""
    seen = observation_json(observation, actions_json(legal))
    return (f'{{"type":"decide","observation":{seen},'
            f'"clock":{clock_json(remaining, increment, limit)}}}\n').encode()


def deal_end(observation: Observation) -> bytes:
    """A deal ended (no answer)."""
    return f'{{"type":"deal_end","observation":{observation_json(observation)}}}\n'.encode()


def match_end(places: Sequence[int] | None, forfeit: tuple[int, str] | None = None
              ) -> bytes:
    """The match ended (``places`` None: it was stopped early, with nobody to blame; with
    ``forfeit`` (seat, reason): that seat forfeited and ``places`` are the game's places);
    the bot answers ``ok``."""
    message: dict[str, Any] = {"type": "match_end",
                               "places": None if places is None else list(places)}
    if forfeit is not None:
        message["forfeit"] = {"seat": forfeit[0], "reason": forfeit[1]}
    return encode(message)


QUIT = encode({"type": "quit"})


def _short(text: bytes | str) -> str:
    """What the bot wrote, for a message: decoded, escaped (``visible``), at most 80 chars."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return visible(text.strip(), 80)


def read_message(line: bytes) -> dict[str, Any]:
    """A line from the bot as a JSON object; a bot that resigns (``{"error": ...}``)
    raises BotProtocolError("error", its reason)."""
    try:
        message = json.loads(line)
    except ValueError:
        raise BotProtocolError(MALFORMED, f"not a JSON line: {_short(line)}") from None
    if not isinstance(message, dict):
        raise BotProtocolError(MALFORMED, f"not a JSON object: {_short(line)}")
    error = message.get("error")
    if error is not None:
        reason = error if isinstance(error, str) else json.dumps(error)
        raise BotProtocolError("error", _short(reason) or "resigned")
    return message


def _usual_answers() -> dict[bytes, int]:
    """Every action's answer line, compact and as ``json.dumps`` spaces it: most answers
    are found in this table without decoding any JSON."""
    answers = {}
    for action in (*range(WILD_BASE), *range(WILD_BASE + 1, WILD_BASE + 11)):
        try:
            name = action_name(action)
        except ValueError:
            continue
        answers[f'{{"action":"{name}"}}'.encode()] = action
        answers[f'{{"action": "{name}"}}'.encode()] = action
    return answers


_ANSWERS = _usual_answers()


def read_action(line: bytes) -> int:
    """The action a decision's answer names. A name that is no action at all is UNKNOWN;
    a well-formed one (even ``wild:99``) is returned for the runner to check."""
    action = _ANSWERS.get(line)
    if action is not None:
        return action
    message = read_message(line)
    name = message.get("action")
    if not isinstance(name, str):
        raise BotProtocolError(MALFORMED, f"no \"action\" string in the answer: {_short(line)}")
    try:
        return parse_action(name)
    except ValueError:
        wild = _WILD_NAME.fullmatch(name)
        if wild and int(wild.group(1)) >= 1:
            return WILD_BASE + int(wild.group(1))
        raise BotProtocolError(UNKNOWN, f"answered {_short(name)!r}, which is not "
                                        "an action") from None


def read_hello(line: bytes) -> dict[str, str]:
    """The bot's answer to ``hello``: its name, author and version."""
    message = read_message(line)
    if message.get("type") != "hello" or not isinstance(message.get("name"), str):
        raise BotProtocolError(MALFORMED, "expected {\"type\": \"hello\", \"name\": ...} in "
                                          f"answer to hello, got: {_short(line)}")
    version = message.get("protocol", PROTOCOL_VERSION)
    if isinstance(version, str) and version.strip() == str(PROTOCOL_VERSION):
        raise BotProtocolError(MALFORMED, f"\"protocol\" must be the JSON number "
                                          f"{PROTOCOL_VERSION}, not the string "
                                          f"{_short(repr(version))} (see bots/PROTOCOL.md)")
    if version != PROTOCOL_VERSION or isinstance(version, bool):
        raise BotProtocolError("error", f"the bot speaks protocol {_short(repr(version))}; "
                                        f"this runner speaks {PROTOCOL_VERSION} (see "
                                        "bots/PROTOCOL.md)")
    return {key: clean(str(message.get(key, "")), 80) for key in ("name", "author", "version")}


def read_ok(line: bytes) -> None:
    """The bot's answer to ``match_end``."""
    message = read_message(line)
    if message.get("type") != "ok":
        raise BotProtocolError(MALFORMED, "expected {\"type\": \"ok\"} in answer to "
                                          f"match_end, got: {_short(line)}")
