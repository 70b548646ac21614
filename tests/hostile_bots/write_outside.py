"""Writes a file in its own folder, at $TARGET (a folder of the runner's) and in /tmp."""

from __future__ import annotations

import os

from _play import learned, play, refused

token = os.environ.get("TOKEN", "x")
targets = [os.path.join(os.getcwd(), f"written-{token}"),
           os.path.join(os.environ.get("TARGET", "/nonexistent"), f"written-{token}"),
           f"/tmp/written-{token}"]
for path in targets:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("a stranger's bot was here\n")
        learned(f"wrote {path}")
    except OSError as exc:
        refused(f"write {path}: {exc.strerror}")
play()
