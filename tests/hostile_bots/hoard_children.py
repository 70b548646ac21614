"""Starts $CHILDREN children (default 4), each holding $CHILD_MB MiB (default 48) — each
well under the address-space limit a single process gets — then plays. It says how many
children still hold their memory when it plays its first move (``LEARNED``)."""

from __future__ import annotations

import os
import signal
import time

from _play import learned, play

size = int(os.environ.get("CHILD_MB", "48")) << 20
children = []
for _ in range(int(os.environ.get("CHILDREN", "4"))):
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(reader)
        hoard = bytearray(size)
        for page in range(0, size, 4096):
            hoard[page] = 1
        os.write(writer, b"1")
        signal.pause()
        os._exit(0)
    os.close(writer)
    os.read(reader, 1)  # held, or killed before it could say so
    os.close(reader)
    children.append(child)
time.sleep(0.2)
alive = [child for child in children if os.waitpid(child, os.WNOHANG) == (0, 0)]
learned(f"{len(alive)} children hold {len(alive) * size >> 20} MiB together")
play()
