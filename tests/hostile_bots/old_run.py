"""A command bot that looks for an earlier run's records beside the run's output
(``--fresh`` moves the old folder to ``OUT.old-N``) in its working folder and the
folders below it, and reports the first deck it finds on standard error: the same
tournament seed deals the same decks. Self-contained; it plays the first legal action."""

import glob
import json
import os
import sys

for pattern in ("*/records.jsonl", "*/*/records.jsonl"):
    for path in glob.glob(os.path.join(os.getcwd(), pattern)):
        try:
            with open(path, encoding="utf-8") as handle:
                first = handle.readline()
        except OSError as exc:
            print("REFUSED", path, exc.strerror, file=sys.stderr, flush=True)
            continue
        deck = first[first.find('"deck'):][:60] if '"deck' in first else ""
        print("LEARNED" if deck else "REFUSED", "records", path, deck or "empty",
              file=sys.stderr, flush=True)
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
