#!/usr/bin/env python3
"""An external bot in plain Python (standard library only): it speaks bots/PROTOCOL.md on
its standard input and output and plays exactly like the built-in ``greedy`` bot: it takes
a discard that fits its layout, puts a wild on its lowest open slot, always swaps and
always calls "Trash!".

Run it in a tournament file::

    [[bots]]
    name = "py-greedy"
    command = ["python3", "../bots/examples/greedy_bot.py"]

or from the command line:
``trash simulate --matches 20 --bot '{ command = ["python3", "bots/examples/greedy_bot.py"] }'``.
The parameter ``take_discards = false`` makes it always draw from the stock.
"""

import json
import sys


def rank(card):
    """A card's name without its suit letter: '10H' -> '10', '*R' -> '*'."""
    return card[:-1]


class Greedy:
    def __init__(self):
        self.seat = 0
        self.roles = {}
        self.take_discards = True

    def hello(self, message):
        # a new match: start afresh from what the hello says (the observations that
        # follow leave out the seat, the players and the rules)
        self.seat = message["seat"]
        self.roles = message["roles"]
        self.take_discards = bool(message["params"].get("take_discards", True))
        return {"type": "hello", "name": "py-greedy", "author": "trash-tui examples",
                "version": "1", "protocol": 2}

    def fits(self, card, layout):
        role = self.roles[rank(card)]
        if role == 0:  # a wild fits any face-down slot
            return None in layout
        if role <= len(layout):
            held = layout[role - 1]
            return held is None or self.roles[rank(held)] == 0
        return False

    def decide(self, message):
        seen = message["observation"]
        legal = seen["legal"]
        decision = seen["decision"]
        if decision == "draw":
            top = seen["discard"][-1] if seen["discard"] else None
            layout = seen["layouts"][self.seat]
            if (self.take_discards and "discard" in legal and top is not None
                    and self.fits(top, layout)):
                return "discard"
            return "stock"
        if decision == "swap":
            return "swap"
        if decision == "call":
            return "call"
        return legal[0]  # wild slots come in ascending order


def main():
    bot = Greedy()
    out = sys.stdout
    for line in sys.stdin:
        # "deal" and "deal_end" need no answer and greedy needs nothing from them: the
        # runner writes "type" first, so they are skipped without decoding them
        if line.startswith('{"type":"deal'):
            continue
        message = json.loads(line)
        kind = message["type"]
        if kind == "decide":
            out.write('{"action":"' + bot.decide(message) + '"}\n')
        elif kind == "hello":
            out.write(json.dumps(bot.hello(message)) + "\n")
        elif kind == "match_end":
            out.write('{"type":"ok"}\n')
        elif kind == "quit":
            break
        else:
            continue
        out.flush()


if __name__ == "__main__":
    main()
