"""Running this checkout's code as an ordinary user (uid 65534), for the tests that play
another local user or a service run by one: the system's Python (the tests' own may sit in
a folder only root enters), this checkout and its packages on ``PYTHONPATH``. Where the
machine does not allow it (not root, no system Python, a checkout or packages that user
cannot read, no mount namespaces), ``why_not`` says why, and those tests are skipped."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOBODY = 65534
SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin:/bin")
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path[1:]])}


@cache
def why_not(mount_namespace: bool = False) -> str | None:
    """None when uid 65534 can run this checkout's command line here (and, with
    ``mount_namespace``, root can make a mount namespace for it); else the reason."""
    if os.geteuid() != 0:
        return "running a command as another user needs root"
    if SYSTEM_PYTHON is None:
        return "no system python3 in /usr/bin or /bin"
    for program in ("setpriv", *(("unshare",) if mount_namespace else ())):
        if shutil.which(program) is None:
            return f"no {program} (util-linux)"
    try:
        ran = subprocess.run([SYSTEM_PYTHON, "-c", "import trash_tui.cli.main"],
                             capture_output=True, text=True, timeout=60, env=ENV,
                             user=NOBODY, group=NOBODY)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"cannot run python3 as uid {NOBODY}: {exc}"
    if ran.returncode != 0:
        last = (ran.stderr.strip().splitlines() or ["?"])[-1]
        return f"uid {NOBODY} cannot import this checkout ({last})"
    if mount_namespace:
        made = subprocess.run(["unshare", "-m", "true"], capture_output=True, text=True,
                              timeout=30)
        if made.returncode != 0:
            return f"no mount namespace here ({made.stderr.strip() or made.returncode})"
    return None
