"""The reaper: kills every bot process group of a runner that died, however it died.

``bots.process`` starts one reaper per runner process, as ``python -S -E reaper.py`` in a
session of its own (so a Ctrl-C or a signal to the runner's process group does not reach
it), with a pipe from the runner as its standard input. The runner writes ``+PGID`` when
it starts a bot's process group (``+PGID<TAB>FOLDER...`` with the folders of the bot's
cgroup, ``bots/cgroups.py``, if it has one) and ``-PGID`` when it has killed and reaped
it. When the pipe closes, the runner is gone (it exited, crashed, or was killed with
``kill -9``: the kernel closes its descriptors in every case), and the reaper sends
SIGKILL to every group still registered and to every process left in their cgroups,
removes those cgroups' folders, then exits. The killed bots' parent is gone, so init (or the nearest
subreaper) reaps them: no zombie, no orphan. Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time

CGROUP_WAIT = 2.0  # seconds for the kernel to let a killed cgroup's folder go


def main() -> None:
    for name in ("SIGINT", "SIGHUP", "SIGTERM"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    groups: dict[int, list[bytes]] = {}
    for line in sys.stdin.buffer:
        text, *folders = line.rstrip(b"\n").split(b"\t")
        try:
            pgid = int(text[1:])
        except ValueError:
            continue
        if text[:1] == b"+" and pgid > 1:
            groups[pgid] = folders
        elif text[:1] == b"-":
            groups.pop(pgid, None)
    for pgid in groups:
        with contextlib.suppress(OSError):  # already gone
            os.killpg(pgid, signal.SIGKILL)
    for folders in groups.values():
        for folder in folders:
            end_cgroup(folder)


def end_cgroup(folder: bytes) -> None:
    """Kill every process in the cgroup at ``folder`` and remove it."""
    deadline = time.monotonic() + CGROUP_WAIT
    while time.monotonic() < deadline:
        try:
            with open(os.path.join(folder, b"cgroup.procs"), "rb") as handle:
                pids = [int(word) for word in handle.read().split()]
        except (OSError, ValueError):
            return
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            os.rmdir(folder)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.01)


if __name__ == "__main__":
    main()
