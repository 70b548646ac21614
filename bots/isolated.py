"""A Python plug-in bot in a process of its own, behind the protocol (``isolate = true``).

``python -m bots.isolated REFERENCE`` loads the bot (a registry name, ``package.module:Class``
or a file path) and plays ``bots/PROTOCOL.md`` on its standard input and output: each
``hello`` builds the bot afresh from the hello's seed and parameters; observations are
rebuilt from their dictionary form, with the seat, players and rules the hello gave. The
bot lives in this process only, so walking frames or the heap finds the protocol loop and
its own observations, never the runner's game.
Whatever the bot raises is sent as ``{"error": ...}`` (the runner makes it a forfeit, as
for an in-process bot); what it prints goes to standard error (the bot's log).

``python -m bots.isolated --check REFERENCE PARAMS_JSON`` loads the bot and builds it with
the parameters, prints ``ok`` or the one-line problem, and exits 0 or 2: the tournament
file is checked without running a user's code in the runner's process.
"""

from __future__ import annotations

import json
import os
import sys
from typing import IO, Any

from bots.base import Bot, BotError
from bots.protocol import PROTOCOL_VERSION
from bots.registry import find_bot
from bots.wire import full_observation
from trash_tui.engine.actions import action_name
from trash_tui.engine.observation import Observation, observation_from_dict
from trash_tui.rules import Rules


def _error(exc: BaseException, where: str = "") -> dict[str, str]:
    prefix = f"in {where}: " if where else ""
    return {"error": f"{prefix}{type(exc).__name__}: {exc}"}


def _build(cls: type[Bot], reference: str, seed: int, params: dict[str, Any]) -> Bot:
    try:
        return cls(seed, **params)
    except BotError:
        raise
    except TypeError as exc:
        raise BotError(f"bot {reference}: {exc}") from None


class Host:
    """The protocol loop around one bot class."""

    def __init__(self, cls: type[Bot], reference: str, out: IO[bytes]) -> None:
        self.cls = cls
        self.reference = reference
        self.out = out
        self.bot: Bot | None = None
        self.rules = Rules()
        self.hello: dict[str, Any] = {"seat": 0, "players": 0, "rules": {}}

    def send(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        self.out.flush()

    def observation(self, data: dict[str, Any]) -> Observation:
        return observation_from_dict(full_observation(self.hello, data), self.rules)

    def hook(self, name: str, *args: Any) -> None:
        """Call a hook; a failure is reported at once (the runner reads it next)."""
        if self.bot is None:
            return
        try:
            getattr(self.bot, name)(*args)
        except Exception as exc:  # the bot may raise anything; the runner forfeits it
            self.send(_error(exc, name))
            self.bot = None

    def handle(self, message: dict[str, Any]) -> bool:
        """Answer one message; False when the runner says quit."""
        kind = message.get("type")
        if kind == "hello":
            self.rules = Rules.from_dict(message["rules"])
            self.hello = message
            try:
                self.bot = _build(self.cls, self.reference, int(message["seed"]),
                                  dict(message.get("params") or {}))
                self.bot.start_match(message["seat"], message["players"], self.rules)
            except Exception as exc:  # the bot may raise anything; the runner forfeits it
                self.bot = None
                self.send({"error": str(exc)} if isinstance(exc, BotError)
                          else _error(exc, "start_match"))
                return True
            self.send({"type": "hello", "name": self.bot.name, "author": "",
                       "version": "", "protocol": PROTOCOL_VERSION})
        elif kind == "deal":
            self.hook("start_deal", self.observation(message["observation"]))
        elif kind == "decide":
            self.decide(message)
        elif kind == "deal_end":
            self.hook("end_deal", self.observation(message["observation"]))
        elif kind == "match_end":
            places = message.get("places")
            if places is not None:
                self.hook("end_match", places)
            self.send({"type": "ok"})
            self.bot = None
        elif kind == "quit":
            return False
        return True

    def decide(self, message: dict[str, Any]) -> None:
        if self.bot is None:
            self.send({"error": "no bot: its match did not start"})
            return
        observation = self.observation(message["observation"])
        try:
            action = self.bot.choose(observation, observation.legal)
        except Exception as exc:  # the bot may raise anything; the runner forfeits it
            self.send(_error(exc))
            return
        try:
            name = action_name(action) if type(action) is int and action >= 0 else None
        except ValueError:
            name = None
        self.send({"action": name if name is not None else repr(action)})


def main(argv: list[str]) -> int:
    if argv[:1] == ["--check"] and len(argv) == 3:
        try:
            _build(find_bot(argv[1]), argv[1], 0, json.loads(argv[2]))
        except BotError as exc:
            print(str(exc))
            return 2
        except Exception as exc:  # a user's bot may raise anything as it starts
            print(f"bot {argv[1]} failed to start: {type(exc).__name__}: {exc}")
            return 2
        print("ok")
        return 0
    if len(argv) != 1:
        print("usage: python -m bots.isolated REFERENCE | --check REFERENCE PARAMS_JSON",
              file=sys.stderr)
        return 2
    # the protocol keeps the real standard output; print() of the bot goes to stderr
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        cls = find_bot(argv[0])
    except Exception as exc:  # a user's file may raise anything while loading
        print(str(exc), file=sys.stderr)
        return 2
    host = Host(cls, argv[0], out)
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        if not host.handle(json.loads(line)):
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
