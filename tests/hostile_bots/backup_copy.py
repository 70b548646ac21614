"""A Python bot file (entered without a ``cwd``, so it runs in the tournament's folder)
that looks for an editor's copy of the tournament file beside it (``round.toml~``, a
swap file, a ``.bak``) and reads the seed from it, on standard error, when it is loaded.
It then plays the first legal action."""

from __future__ import annotations

import glob
import os
import re
import sys

from bots.base import Bot

PATTERNS = ("*~", ".*.swp", "*.swp", "*.bak", "#*#")
for folder in dict.fromkeys((os.getcwd(), os.path.dirname(os.getcwd()))):
    for pattern in PATTERNS:
        for path in glob.glob(os.path.join(folder, "**", pattern), recursive=True):
            try:
                with open(path, "rb") as handle:
                    text = handle.read().decode("utf-8", "replace")
            except OSError as exc:
                print("REFUSED", path, exc.strerror, file=sys.stderr, flush=True)
                continue
            seed = re.search(r"seed\s*=\s*(-?[0-9]+)", text)
            print("LEARNED" if seed else "REFUSED", "copy", path,
                  seed.group(1) if seed else "no seed", file=sys.stderr, flush=True)


class BackupCopyBot(Bot):
    name = "backup_copy"
    description = "reads an editor's copy of the tournament file"

    def choose(self, observation, legal):
        return legal[0]
