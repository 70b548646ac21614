"""The reaper: kills every bot process group of a runner that died, however it died.

``bots.process`` starts one reaper per runner process, as ``python -S -E reaper.py`` in a
session of its own (so a Ctrl-C or a signal to the runner's process group does not reach
it), with a pipe from the runner as its standard input. The runner writes ``+PGID`` when
it starts a bot's process group and ``-PGID`` when it has killed and reaped it. When the
pipe closes, the runner is gone (it exited, crashed, or was killed with ``kill -9``: the
kernel closes its descriptors in every case), and the reaper sends SIGKILL to every group
still registered, then exits. The killed bots' parent is gone, so init (or the nearest
subreaper) reaps them: no zombie, no orphan. Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys


def main() -> None:
    for name in ("SIGINT", "SIGHUP", "SIGTERM"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    groups: set[int] = set()
    for line in sys.stdin.buffer:
        text = line.strip()
        try:
            pgid = int(text[1:])
        except ValueError:
            continue
        if text[:1] == b"+" and pgid > 1:
            groups.add(pgid)
        elif text[:1] == b"-":
            groups.discard(pgid)
    for pgid in groups:
        with contextlib.suppress(OSError):  # already gone
            os.killpg(pgid, signal.SIGKILL)


if __name__ == "__main__":
    main()
