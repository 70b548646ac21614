"""What the SSH fork server imports before it forks sessions: the app, then ``gc.freeze``.

Importing this module (in the fork server only) imports the app and its screens and moves
every object created so far out of the garbage collector's sight. A forked session then
never walks (and so never copies, page by page) the thousands of objects it shares with
its siblings: it starts faster and keeps more memory shared.
"""

from __future__ import annotations

import gc

import trash_tui.app.app
import trash_tui.app.board
import trash_tui.app.remote
import trash_tui.ssh.session  # noqa: F401

gc.collect()
gc.freeze()
