"""Reads the runner's /proc: its command line, its environment and 4 KiB of its memory
(the runner's pid from $RUNNER_PID, as a bot could guess it, and the bot's parent)."""

from __future__ import annotations

import os
import re

from _play import learned, play, refused


def read_memory(pid: int) -> None:
    try:
        with open(f"/proc/{pid}/maps", encoding="ascii") as handle:
            maps = handle.read()
        found = re.search(r"^([0-9a-f]+)-\S+ rw", maps, re.M)
        if found is None:
            refused(f"mem of {pid}: no writable mapping listed")
            return
        with open(f"/proc/{pid}/mem", "rb") as handle:
            handle.seek(int(found.group(1), 16))
            data = handle.read(4096)
        learned(f"mem of {pid}: {len(data)} bytes")
    except OSError as exc:
        refused(f"mem of {pid}: {exc.strerror}")


pids = {os.getppid()}
if os.environ.get("RUNNER_PID", "").isdigit():
    pids.add(int(os.environ["RUNNER_PID"]))
for pid in sorted(pids):
    for name in ("cmdline", "environ"):
        try:
            with open(f"/proc/{pid}/{name}", "rb") as handle:
                data = handle.read()
        except OSError as exc:
            refused(f"{name} of {pid}: {exc.strerror}")
            continue
        if data:
            learned(f"{name} of {pid}: {data[:2000]!r}")
        else:
            refused(f"{name} of {pid}: empty")
    read_memory(pid)
play()
