"""``trash serve`` played through the real OpenSSH client (``ssh -t``) inside tmux.

The server runs as its own process (the ``trash`` command's ``main()``) with every file in
the test's tmp folder; a fresh ed25519 key and a private known_hosts file keep the user's
``~/.ssh`` out of it. tmux (on a private socket) gives ``ssh`` a real terminal whose screen
the test reads with ``capture-pane`` and types into with ``send-keys``. Skipped only when
``ssh`` or ``tmux`` is not installed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from trash_tui.history import MatchRow
from trash_tui.players.rater import open_history
from trash_tui.ssh.session import settings_file

pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None,
    reason="needs the OpenSSH client (ssh) and tmux installed "
           "(apt-get install openssh-client tmux)")

WIDTH, HEIGHT = 100, 32
SMALL_WIDTH, SMALL_HEIGHT = 60, 20
# Deadlines, not pauses: on an idle machine the whole test takes about 3 s, but on a
# loaded 2-core machine the first screen has been seen to take 14 s.
FIRST_SCREEN = 30.0  # seconds for the server, ssh and the app to show their first screen
STEP = 15.0  # seconds for any later screen (or ssh's exit, or the log line)
LOBBY_TITLE = "Trash — the card game"
NAME_PROMPT = "Welcome to Trash!"
SERVER_CODE = "from trash_tui.cli.main import main; main()"
_LISTENING = re.compile(r"listening on 127\.0\.0\.1:(\d+) \(host key (SHA256:\S+?);")
_FRAME_CHARACTERS = re.compile("[\u2500-\u259f]")  # box drawing and block elements


def flat(text: str) -> str:
    """Screen text without frame characters and with every run of whitespace one space,
    so a sentence wrapped inside a bordered box reads as one line."""
    return " ".join(_FRAME_CHARACTERS.sub(" ", text).split())


def wait_until(check: Callable[[], object], timeout: float, what: str,
               every: float = 0.1) -> object:
    """Poll ``check()`` until it returns something true; it. AssertionError naming
    ``what`` at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"after {timeout:g} s still waiting for {what}")
        time.sleep(every)


class TmuxPane:
    """One detached tmux session on a private server socket running one shell command."""

    def __init__(self, folder: Path) -> None:
        self.socket = f"trash-test-{uuid.uuid4().hex[:12]}"
        self.target = "trash"
        env = {name: value for name, value in os.environ.items()
               if name not in ("TMUX", "TMUX_PANE", "SSH_AUTH_SOCK", "SSH_AGENT_PID")}
        env.update({"TERM": "xterm-256color", "LANG": "C.UTF-8", "SHELL": "/bin/sh",
                    "HOME": str(folder)})
        self.env = env
        # where tmux puts a -L socket; it leaves the file behind when its server exits
        self.socket_path = (Path(env.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
                            / self.socket)
        self.notes: list[Path] = []  # files whose text a failure message shows

    def tmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-u", "-L", self.socket, "-f", "/dev/null", *args],
                              env=self.env, capture_output=True, text=True, timeout=10,
                              check=False)

    def start(self, command: str, width: int, height: int) -> None:
        result = self.tmux("new-session", "-d", "-s", self.target, "-x", str(width),
                           "-y", str(height), command)
        assert result.returncode == 0, f"tmux new-session failed: {result.stderr.strip()}"

    def screen(self) -> str | None:
        """The pane's visible text now (None once its command has ended)."""
        result = self.tmux("capture-pane", "-p", "-t", self.target)
        return result.stdout if result.returncode == 0 else None

    def failure(self, message: str, screen: str | None) -> AssertionError:
        """``message`` with the last screen and the note files, for a failed wait."""
        parts = [message, "screen:", screen if screen is not None else "(the pane has closed)"]
        parts += [f"{path.name}: {path.read_text(encoding='utf-8', errors='replace')}"
                  for path in self.notes if path.exists()]
        return AssertionError("\n".join(parts))

    def wait_for(self, *needles: str, absent: str | None = None,
                 timeout: float = STEP) -> str:
        """Wait until the screen shows every one of ``needles`` (and not ``absent``);
        the flattened screen text. AssertionError with the last screen otherwise."""
        wanted = [flat(needle) for needle in needles]
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            text = flat(screen or "")
            if all(needle in text for needle in wanted) and (
                    absent is None or flat(absent) not in text):
                return text
            if screen is None or time.monotonic() > deadline:
                shown = f"{needles}" + (f" without {absent!r}" if absent else "")
                raise self.failure(f"the screen never showed {shown} (waited up to "
                                   f"{timeout:g} s)", screen)
            time.sleep(0.1)

    def styled(self) -> str:
        """The screen with its colours (a moved focus or highlight changes it)."""
        return self.tmux("capture-pane", "-e", "-p", "-t", self.target).stdout

    def press(self, *keys: str) -> None:
        """Type tmux key names (``n``, ``Enter``, ``Escape``)."""
        result = self.tmux("send-keys", "-t", self.target, *keys)
        assert result.returncode == 0, f"tmux send-keys failed: {result.stderr.strip()}"

    def resize(self, width: int, height: int) -> None:
        result = self.tmux("resize-window", "-t", self.target, "-x", str(width),
                           "-y", str(height))
        assert result.returncode == 0, f"tmux resize-window failed: {result.stderr.strip()}"

    def kill(self) -> None:
        """Stop the tmux server and remove its socket file (tmux leaves it behind)."""
        self.tmux("kill-server")
        self.socket_path.unlink(missing_ok=True)


class ServerProcess:
    """``trash serve --config FILE`` as a child process, on a free port it reports
    (``code``: the Python that runs it, the ``trash`` command's ``main()``)."""

    code = SERVER_CODE

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.config = folder / "ssh-server.toml"
        self.config.write_text(
            '[server]\nhost = "127.0.0.1"\nport = 0\nhost_key = "host_key"\n'
            'history = "history.sqlite3"\nplayers_dir = "players"\nlog = "ssh.log"\n'
            'idle_timeout = 0\n', encoding="utf-8")
        self.history = folder / "history.sqlite3"
        self.players_dir = folder / "players"
        self.log = folder / "ssh.log"
        self.stdout = folder / "serve.out"
        self.stderr = folder / "serve.err"
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.host_key_fingerprint = ""

    def start(self) -> None:
        with self.stdout.open("wb") as out, self.stderr.open("wb") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-c", self.code, "serve", "--config", str(self.config)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        match = wait_until(self.listening, FIRST_SCREEN, "the server's 'listening on' line")
        assert isinstance(match, re.Match)
        self.port = int(match.group(1))
        self.host_key_fingerprint = match.group(2)

    def listening(self) -> re.Match[str] | None:
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"trash serve exited with {self.process.returncode}: "
                                 f"{self.output()}")
        return _LISTENING.search(self.stdout.read_text(encoding="utf-8", errors="replace"))

    def output(self) -> str:
        return (self.stdout.read_text(encoding="utf-8", errors="replace")
                + self.stderr.read_text(encoding="utf-8", errors="replace"))

    def sessions_logged(self) -> list[dict]:
        if not self.log.exists():
            return []
        lines = self.log.read_text(encoding="utf-8").splitlines()
        return [entry for entry in map(json.loads, lines) if entry["event"] == "session"]

    def terminate(self, timeout: float = 20.0) -> int:
        """SIGTERM and wait; the exit status."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


def make_client_key(folder: Path) -> tuple[Path, str]:
    """A new passphrase-less ed25519 key for ``ssh -i``; its path and SHA256 fingerprint."""
    key = folder / "id"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "trash-test",
                    "-f", str(key)], check=True, capture_output=True, timeout=30)
    return key, key_fingerprint(folder / "id.pub")


def key_fingerprint(path: Path) -> str:
    """The SHA256 fingerprint ``ssh-keygen -l`` gives for the (first) key in ``path``."""
    listed = subprocess.run(["ssh-keygen", "-l", "-E", "sha256", "-f", str(path)],
                            check=True, capture_output=True, text=True, timeout=30)
    return listed.stdout.split()[1]


def ssh_command(key: Path, known_hosts: Path, port: int, status: Path, errors: Path) -> str:
    """The pane's shell command: OpenSSH with nothing from the user's files, its stderr in
    ``errors``, then its exit status written to ``status``."""
    ssh = ["ssh", "-F", "/dev/null", "-i", str(key), "-o", "IdentitiesOnly=yes",
           "-o", "IdentityAgent=none", "-o", "StrictHostKeyChecking=accept-new",
           "-o", f"UserKnownHostsFile={known_hosts}", "-o", "GlobalKnownHostsFile=/dev/null",
           "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "LogLevel=ERROR",
           "-p", str(port), "-t", "player@127.0.0.1"]
    # tmux sets a pane's TERM from its default-terminal option (over ``-e``): set it here
    client = ["env", "TERM=xterm-256color", "LANG=C.UTF-8", *ssh]
    return (f"{shlex.join(client)} 2> {shlex.quote(str(errors))}; "
            f'echo "ssh-exit=$?" > {shlex.quote(str(status))}')


def latest_match(history_path: Path, owner: str) -> MatchRow | None:
    history = open_history(history_path)
    try:
        rows = history.matches.of_player(owner)
    finally:
        history.close()
    return rows[0] if rows else None


def back_to_the_lobby(pane: TmuxPane, every: float = 3.0) -> None:
    """Press escape until the lobby shows: a deal-over notice may take the first one (an
    escape that arrives in the lobby does nothing)."""
    deadline = time.monotonic() + 2 * STEP
    while time.monotonic() < deadline:
        pane.press("Escape")
        with contextlib.suppress(AssertionError):
            pane.wait_for(LOBBY_TITLE, "New match", timeout=every)
            return
    raise pane.failure("escape did not lead back to the lobby", pane.screen())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    running = ServerProcess(tmp_path)
    try:
        running.start()
        yield running
    finally:
        running.kill()


@pytest.fixture
def pane(tmp_path: Path) -> Iterator[TmuxPane]:
    tmux = TmuxPane(tmp_path)
    try:
        yield tmux
    finally:
        tmux.kill()


def test_openssh_in_tmux_plays_resizes_and_quits(tmp_path: Path, server: ServerProcess,
                                                 pane: TmuxPane) -> None:
    key, owner = make_client_key(tmp_path)
    quiet = settings_file(server.players_dir, owner)  # bots move at once
    quiet.parent.mkdir(parents=True, exist_ok=True)
    quiet.write_text('[app]\nanimation = "off"\n', encoding="utf-8")
    known_hosts = tmp_path / "known_hosts"
    status = tmp_path / "status"
    errors = tmp_path / "ssh.err"
    pane.notes += [status, errors, server.stderr]
    pane.start(ssh_command(key, known_hosts, server.port, status, errors), WIDTH, HEIGHT)

    # a new key: the name prompt over the lobby, then the lobby
    pane.wait_for(NAME_PROMPT, "Sit down", timeout=FIRST_SCREEN)
    pane.press("Enter")
    pane.wait_for(LOBBY_TITLE, "New match", absent=NAME_PROMPT)
    assert known_hosts.is_file()
    assert key_fingerprint(known_hosts) == server.host_key_fingerprint

    # a match: the human's move is a draw from the stock, saved in the history database
    pane.press("n")
    pane.wait_for("Your move", "Stock")
    before = latest_match(server.history, owner)
    saved_before = before.actions if before is not None else 0
    pane.press("s")

    def saved_draw() -> MatchRow | None:
        match = latest_match(server.history, owner)
        return match if match is not None and match.actions > saved_before else None

    row = wait_until(saved_draw, STEP, "the draw in the history database")
    assert isinstance(row, MatchRow)
    assert row.owner == owner and row.actions >= 1
    with open_history(server.history) as history:  # the name suggested on the welcome
        name = history.players.player_name(owner)  # screen and accepted: never "You"
    assert name is not None and name.startswith("Player ") and name in row.names

    # too small, then back to the board as it was
    pane.resize(SMALL_WIDTH, SMALL_HEIGHT)
    small = pane.wait_for("needs at least 80×24")
    assert f"{SMALL_WIDTH}×{SMALL_HEIGHT}" in small
    pane.resize(WIDTH, HEIGHT)
    pane.wait_for("Stock", "Discard", absent="needs at least")

    back_to_the_lobby(pane)
    pane.press("q")
    wait_until(status.is_file, STEP, "ssh to exit")
    assert wait_until(lambda: status.read_text(encoding="utf-8").strip(), 2,
                      "ssh's exit status") == "ssh-exit=0"

    [session] = wait_until(server.sessions_logged, STEP, "the session's log line")
    assert session["ended"] == "quit" and session["exit_status"] == 0
    assert session["player"] == owner
    assert session["term"] == "xterm-256color" and session["size"] == f"{WIDTH}x{HEIGHT}"

    assert server.terminate() == 0, server.output()
    assert "trash serve: stopped (0 sessions ended)" in server.output()
