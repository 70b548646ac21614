"""Answers hello, then never answers a decision (it sleeps, reading nothing more)."""

from __future__ import annotations

import json
import sys
import time

from _play import say

for line in sys.stdin:
    if json.loads(line).get("type") == "hello":
        say({"type": "hello", "name": "silent", "protocol": 2})
    else:
        time.sleep(3600)
