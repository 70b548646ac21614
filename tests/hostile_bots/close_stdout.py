"""Answers hello, then closes its standard output at the first decision and sleeps."""

from __future__ import annotations

import json
import os
import sys
import time

from _play import say

for line in sys.stdin:
    if json.loads(line).get("type") == "hello":
        say({"type": "hello", "name": "close_stdout", "protocol": 2})
    else:
        sys.stdout.flush()
        os.close(1)
        time.sleep(3600)
