"""A command bot whose folder reaches the tournament's folder through a symbolic link (an
entrant's folder ``entries/x -> ..``, or a tournament file run through a linked path):
it reads every ``.toml`` file in its working folder and reports the seed on standard
error. Self-contained (a private view may hold this file alone); it plays the first
legal action."""

import glob
import json
import os
import re
import sys

for path in glob.glob(os.path.join(os.getcwd(), "*.toml")):
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError as exc:
        print("REFUSED", path, exc.strerror, file=sys.stderr, flush=True)
        continue
    seed = re.search(r"^\s*seed\s*=\s*(-?[0-9]+)", text, re.M)
    print("LEARNED" if seed else "REFUSED", "seed", seed.group(1) if seed else "none",
          "from", path, file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    answer = ({"type": "hello", "name": "hostile", "protocol": 2} if kind == "hello" else
              {"action": message["observation"]["legal"][0]} if kind == "decide" else
              {"type": "ok"} if kind == "match_end" else None)
    if kind == "quit":
        break
    if answer is not None:
        print(json.dumps(answer), flush=True)
