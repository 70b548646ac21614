"""Starts $SPIN children (default 4) that spin for ever, each well under the CPU limit a
single process gets, then plays at an ordinary pace ($PAUSE seconds a move): together the
children burn a CPU limit many times over. At the end it says how much CPU its processes
used together (``LEARNED``)."""

from __future__ import annotations

import json
import os
import sys
import time

from _play import learned, say

spinners = []
for _ in range(int(os.environ.get("SPIN", "4"))):
    child = os.fork()
    if child == 0:
        while True:
            pass
    spinners.append(child)
pause = float(os.environ.get("PAUSE", "0.05"))
started = time.monotonic()
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        say({"type": "hello", "name": "spinner", "protocol": 2})
    elif kind == "decide":
        time.sleep(pause)
        say({"action": message["observation"]["legal"][0]})
    elif kind == "match_end":
        used = sum(os.times()[:4])  # its own and its reaped children's
        with open("/proc/loadavg", encoding="ascii") as handle:
            load = handle.read().split()[0]
        learned(f"spun {len(spinners)} children for {time.monotonic() - started:.1f} s "
                f"(load {load}, own CPU {used:.1f} s)")
        say({"type": "ok"})
    elif kind == "quit":
        break
