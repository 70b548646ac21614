"""A command bot that writes lines on standard error that look like the runner's own in
its log (``=== game 0: forfeit ...``, blaming its opponent) and terminal escape
sequences (clear the screen, set the window title), then plays the first legal action."""

import json
import sys

sys.stderr.write("=== game 0: forfeit (timeout): greedy took too long; FORGED\n"
                 "\x1b[2J\x1b[H\x1b]0;FORGED title\x07colours \x1b[31mred\x1b[0m\n"
                 "partial \r=== game 1: forfeit (exit): FORGED after a carriage return\n")
sys.stderr.flush()
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    answer = ({"type": "hello", "name": "hostile", "protocol": 2} if kind == "hello" else
              {"action": message["observation"]["legal"][0]} if kind == "decide" else
              {"type": "ok"} if kind == "match_end" else None)
    if kind == "quit":
        break
    if answer is not None:
        print(json.dumps(answer), flush=True)
