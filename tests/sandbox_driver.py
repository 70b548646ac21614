"""Runs hostile bots (tests/hostile_bots/) in sandboxes at once and prints what each said,
for tests that run the sandbox as another user (``setpriv`` to an ordinary user, whose
Python cannot be the tests' own). Run as ``python3 sandbox_driver.py JSON`` with the
project on ``PYTHONPATH``; JSON: ``{"cwd": ..., "tmp_mb": ..., "bots": [[script, env]...]}``.
Each bot's stdin is closed: it makes its attack, sees the end of its input and stops.
Prints a JSON list of what each bot wrote on stdout and stderr."""

from __future__ import annotations

import json
import subprocess
import sys

from bots.sandbox import Sandbox, sandbox_command

order = json.loads(sys.argv[1])
started = []
for script, env in order["bots"]:
    prepared = sandbox_command([sys.executable, script], order["cwd"],
                               {"PATH": "/usr/bin:/bin", **env},
                               Sandbox(tmp_mb=order.get("tmp_mb", 64)))
    popen = subprocess.Popen(prepared.argv, pass_fds=prepared.pass_fds,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
    prepared.started(popen.pid)
    started.append(popen)
print(json.dumps([popen.communicate(timeout=120)[0].decode("utf-8", "replace")
                  for popen in started]))
