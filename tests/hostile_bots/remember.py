"""Remembers every card it drew from the stock (by its hello seed, the deal and the stock's
size) in a module global and in a file in /tmp; when a later game has the same hello seed
(a duplicate board replays its deck in every seat rotation), it predicts each card it is
about to draw and says how many it got right (``LEARNED predicted N of M ...``), or that
it remembered nothing (``REFUSED no memory of an earlier game``). It plays like _play."""

from __future__ import annotations

import json
import os
import sys

from _play import learned, refused, say

FILE = "/tmp/remember.json"
memory: dict[str, str] = {}  # kept by a process that plays game after game


def remembered() -> tuple[dict[str, str], str]:
    if memory:
        return dict(memory), "a module global"
    try:
        with open(FILE, encoding="utf-8") as handle:
            return json.load(handle), "a file in /tmp"
    except (OSError, ValueError):
        return {}, ""


def main() -> None:
    seed, drawing, right, tried, source = 0, None, 0, 0, ""
    known: dict[str, str] = {}
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            seed, right, tried = message["seed"], 0, 0
            known, source = remembered()
            say({"type": "hello", "name": "remember", "protocol": 2})
        elif kind == "decide":
            seen = message["observation"]
            if drawing is not None and seen.get("hand"):  # the card just drawn
                memory[drawing] = seen["hand"]
                if drawing in known:
                    tried += 1
                    right += known[drawing] == seen["hand"]
            drawing = None
            legal = seen["legal"]
            if seen["decision"] == "draw" and "stock" in legal:
                drawing = f"{seed}/{seen['deal_number']}/{seen['stock_count']}"
                say({"action": "stock"})
            else:
                say({"action": legal[0]})
        elif kind == "match_end":
            with open(FILE, "w", encoding="utf-8") as handle:
                json.dump(memory, handle)
            if tried:
                learned(f"predicted {right} of {tried} stock cards from {source} "
                        f"(seed {seed})")
            else:
                refused(f"no memory of an earlier game (seed {seed}, pid {os.getpid()})")
            say({"type": "ok"})
        elif kind == "quit":
            return


main()
