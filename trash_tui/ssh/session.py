"""One SSH player's app: the child process ``trash serve`` starts for each session.

The server runs ``python -m trash_tui.ssh.session`` on a fresh pseudo-terminal and passes
who the player is and where things live in the environment (never in arguments):

- ``TRASH_TUI_PLAYER``: the player's identity (a key's SHA256 fingerprint,
  ``password:<user>``, or ``guest:<token>`` for a client with no key); their matches and
  settings belong to it (a guest's settings last for the session only: no file);
- ``TRASH_TUI_HISTORY``: the history database all sessions share;
- ``TRASH_TUI_PLAYERS_DIR``: the folder of per-player settings files;
- ``TRASH_TUI_IDLE_TIMEOUT``: seconds without input before the app says goodbye (0: never).

The child makes the terminal its controlling terminal first, so window resizes arrive as
SIGWINCH and a dropped connection as SIGHUP. The server normally forks sessions from a
fork server that has already imported the app, through ``serve_terminal``; running this
module as a program does the same from a fresh interpreter. SIGUSR1 (an operator
began to watch, ``trash_tui.ssh.watch``) makes the app draw its whole screen again; it is
ignored until the app is up. SIGTERM (the server
stopping) makes the app exit at once: the server has already taken the terminal back and
told the player itself (``trash_tui.ssh.goodbye``); every match is saved after every
action.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import resource
import signal
import sys
import termios
from pathlib import Path

PLAYER_ENV = "TRASH_TUI_PLAYER"
PLAYERS_DIR_ENV = "TRASH_TUI_PLAYERS_DIR"
IDLE_ENV = "TRASH_TUI_IDLE_TIMEOUT"
#: The server's main script, for its fork server to import once (``trash_tui.ssh.preload``).
MAIN_PATH_ENV = "TRASH_TUI_FORK_SERVER_MAIN"


def take_controlling_tty() -> None:
    """Make stdin's terminal this process's controlling terminal (it leads a new session)."""
    if not os.isatty(0):
        return
    if os.getsid(0) != os.getpid():
        with contextlib.suppress(PermissionError):  # already a session leader
            os.setsid()
    with contextlib.suppress(OSError):  # already ours, or not allowed: resizes then come
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # by the in-band protocol


def settings_file(players_dir: Path, identity: str) -> Path:
    """A player's own settings file: named after a hash of their identity."""
    return players_dir / f"{hashlib.sha256(identity.encode()).hexdigest()[:32]}.toml"


def serve_terminal(tty_path: str, env: dict[str, str],
                   limits: tuple[tuple[int, int, int], ...] = ()) -> None:
    """Run the app on the terminal ``tty_path`` with ``env`` as the whole environment: the
    entry point of a session forked from the server's preloaded fork server (see
    ``trash_tui.ssh.child``). Leads a new session, opens the terminal (it becomes the
    controlling terminal) as stdin, stdout and stderr, then runs ``main``. ``limits``, as
    ``(resource, soft, hard)`` triples, are set first of all."""
    for kind, soft, hard in limits:
        resource.setrlimit(kind, (soft, hard))
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)  # (the app draws again on it, later)
    os.setsid()
    fd = os.open(tty_path, os.O_RDWR)
    for target in (0, 1, 2):
        os.dup2(fd, target)
    if fd > 2:
        os.close(fd)
    os.environ.clear()
    os.environ.update(env)
    # multiprocessing gave this process /dev/null as stdin: use the terminal instead.
    sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stdout = sys.__stdout__ = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = sys.__stderr__ = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    main()


def main() -> None:
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)  # until the app handles it: draw again
    take_controlling_tty()
    from trash_tui.app.app import create_app
    from trash_tui.history import default_history_path
    from trash_tui.players.identity import is_guest
    from trash_tui.settings import Settings, load_settings

    identity = os.environ.get(PLAYER_ENV, "").strip()
    if not identity:
        print("trash: no player identity: this program is started by 'trash serve'",
              file=sys.stderr)
        sys.exit(2)
    players_dir = Path(os.environ.get(PLAYERS_DIR_ENV) or default_history_path().parent /
                       "players")
    try:
        idle = max(0.0, float(os.environ.get(IDLE_ENV) or 0))
    except ValueError:
        idle = 0.0
    path: Path | None = None
    if is_guest(identity):  # nothing is kept for a guest: the defaults, never saved
        settings, problems = Settings(name_chosen=False), []
    else:
        path = settings_file(players_dir, identity)
        settings, problems = load_settings(path, remote=True)  # no command or file bots
    from trash_tui.app.shared.link import TablesLink

    # (the app handles what the link says: the operator's notices, kicks, message of the day)
    app = create_app(settings=settings, problems=problems, settings_path=path,
                     owner=identity, remote=True, idle_timeout=idle,
                     tables=TablesLink.from_environment())
    app.run()
    sys.exit(app.return_code or 0)


if __name__ == "__main__":
    main()
