"""Answers hello, then writes half an answer with no end of line and sleeps."""

from __future__ import annotations

import json
import sys
import time

from _play import say

for line in sys.stdin:
    if json.loads(line).get("type") == "hello":
        say({"type": "hello", "name": "partial_line", "protocol": 2})
    else:
        sys.stdout.write('{"action": "sto')
        sys.stdout.flush()
        time.sleep(3600)
