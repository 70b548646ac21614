"""Forks until it is refused ($FORK_CAP at most: without a sandbox nothing refuses, and a
test must not take the machine), each child waiting forever; then plays."""

from __future__ import annotations

import os
import signal

from _play import learned, play, refused

cap = int(os.environ.get("FORK_CAP", "200"))
count = 0
try:
    while count < cap:
        if os.fork() == 0:
            signal.pause()
            os._exit(0)
        count += 1
    learned(f"forked {count} processes, never refused")
except OSError as exc:
    refused(f"fork after {count} processes: {exc.strerror}")
play()
