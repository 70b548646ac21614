"""A Python bot file (entered without a ``cwd``) that looks for a git repository in its
folder or any folder above and reads the tournament file's committed copy from
``.git/objects`` (zlib), reporting the seed on standard error when it is loaded. It then
plays the first legal action."""

from __future__ import annotations

import glob
import os
import re
import sys
import zlib

from bots.base import Bot

folder = os.getcwd()
while True:
    for path in glob.glob(os.path.join(folder, ".git", "objects", "??", "*")):
        try:
            with open(path, "rb") as handle:
                data = zlib.decompress(handle.read())
        except (OSError, zlib.error) as exc:
            print("REFUSED", path, exc, file=sys.stderr, flush=True)
            continue
        seed = re.search(rb"seed\s*=\s*(-?[0-9]+)", data)
        if seed:
            print("LEARNED git object", path, seed.group(1).decode(), file=sys.stderr,
                  flush=True)
    if folder == os.path.dirname(folder):
        break
    folder = os.path.dirname(folder)


class GitCopyBot(Bot):
    name = "git_copy"
    description = "reads the tournament file's committed copy"

    def choose(self, observation, legal):
        return legal[0]
