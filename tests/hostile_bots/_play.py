"""The smallest player of bots/PROTOCOL.md, shared by the hostile bots: it answers hello,
plays the first legal action, answers match_end and stops at quit. Each hostile bot makes
its attack first and says what it learned on standard error (``LEARNED ...``) or what was
refused (``REFUSED ...``); the tests read the bot's log."""

from __future__ import annotations

import json
import sys
from typing import Any


def say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def learned(what: str) -> None:
    print("LEARNED", what, file=sys.stderr, flush=True)


def refused(what: str) -> None:
    print("REFUSED", what, file=sys.stderr, flush=True)


def play() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            say({"type": "hello", "name": "hostile", "protocol": 2})
        elif kind == "decide":
            say({"action": message["observation"]["legal"][0]})
        elif kind == "match_end":
            say({"type": "ok"})
        elif kind == "quit":
            return
