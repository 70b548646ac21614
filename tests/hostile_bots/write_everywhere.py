"""Writes $FILL_MB MiB (default 4) in every place of the sandbox's file system it may try:
the root, /etc, /dev, /dev/shm, /tmp, its own folder; says how much each place took."""

from __future__ import annotations

import os

from _play import learned, play, refused

size = int(os.environ.get("FILL_MB", "4")) << 20
for folder in ("/", "/etc", "/dev", "/dev/shm", "/tmp", os.getcwd()):
    path = os.path.join(folder, "filled")
    written = 0
    try:
        with open(path, "wb") as handle:
            chunk = bytes(1 << 16)
            while written < size:
                written += handle.write(chunk)
                handle.flush()
        learned(f"wrote {written >> 20} MiB in {folder}")
    except OSError as exc:
        if written:
            refused(f"more than {written >> 20} MiB in {folder}: {exc.strerror}")
        else:
            refused(f"write in {folder}: {exc.strerror}")
play()
