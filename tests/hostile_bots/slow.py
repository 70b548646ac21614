"""Plays like _play, but takes $DELAY seconds over every answer."""

from __future__ import annotations

import json
import os
import sys
import time

from _play import say

delay = float(os.environ.get("DELAY", "0.05"))
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        say({"type": "hello", "name": "slow", "protocol": 2})
    elif kind == "decide":
        time.sleep(delay)
        say({"action": message["observation"]["legal"][0]})
    elif kind == "match_end":
        say({"type": "ok"})
    elif kind == "quit":
        break
