"""A restart seen by players through the real OpenSSH client in tmux at 80x24.

Two players are connected to ``trash serve`` (its own process, as in test_ssh_openssh.py):
Ann in the lobby, Bob seated at a shared table whose match is under way. The server gets
SIGTERM; once ``ssh`` has returned, each pane (kept after its command ended) still shows
what the server is doing, what happens to a seat and the command to come back. Then the
server starts again on the same port and each player types the command they were shown and
plays: Bob is back at his seat and moves, Ann starts a match from the lobby. The same
message must reach the terminal when no session's app can draw (stopped with SIGSTOP)
while the processors are busy. Skipped only when ``ssh`` or ``tmux`` is not installed.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_guest_openssh import KEYGEN, openssh
from test_ssh_openssh import (
    FIRST_SCREEN,
    NAME_PROMPT,
    STEP,
    ServerProcess,
    TmuxPane,
    flat,
    ssh_command,
    wait_until,
)
from test_tables_openssh import MATCH, SshPlayer

pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None,
    reason="needs the OpenSSH client (ssh) and tmux installed "
           "(apt-get install openssh-client tmux)")

WIDTH, HEIGHT = 80, 24
GRACE = 5.0  # the server's grace for its sessions when it stops (STOP_GRACE)
_CODE = re.compile(r"Code ([A-Z2-9]{4}):")
_COME_BACK = re.compile(r"Come back with: (ssh (?:-p \d+ )?(?:[A-Z2-9]{4}@)?\S+)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(folder: Path, port: int) -> ServerProcess:
    """``trash serve`` in ``folder`` on ``port``, telling players to come back to
    127.0.0.1 (the machine's own name may not lead here)."""
    server = ServerProcess(folder)
    text = server.config.read_text(encoding="utf-8")
    server.config.write_text(text.replace("port = 0", f"port = {port}")
                             + 'public_host = "127.0.0.1"\n', encoding="utf-8")
    server.start()
    return server


class Player(SshPlayer):
    """A player whose pane stays on screen after ``ssh`` returns (what it left is read)."""

    def connect(self, server: ServerProcess, username: str = "player",
                target: str | None = None) -> None:
        """``ssh`` as the player types it: ``target`` is the command's arguments after
        ``ssh`` (``-p PORT [CODE@]HOST``), default this server as ``username``."""
        status = self.folder / "status"
        status.unlink(missing_ok=True)
        command = ssh_command(self.key, self.folder / "known_hosts", server.port, status,
                              self.folder / "ssh.err")
        target = target or f"-p {server.port} {username}@127.0.0.1"
        self.pane.kill()
        # (the pane's shell stays, quiet, once ssh has returned: what ssh left is read)
        self.pane.start(command.replace(f"-p {server.port} -t player@127.0.0.1",
                                        f"-t {target}") + "; exec sleep 600", WIDTH, HEIGHT)

    def exit_status(self) -> str:
        status = self.folder / "status"
        wait_until(status.is_file, STEP, f"{self.name}'s ssh to exit")
        return str(wait_until(lambda: status.read_text(encoding="utf-8").strip(), 2,
                              f"{self.name}'s ssh exit status"))

    def told(self, *needles: str, timeout: float = STEP) -> str:
        """The pane's text once ssh has returned and it shows ``needles``."""
        self.exit_status()
        return self.pane.wait_for(*needles, timeout=timeout)

    def come_back_command(self) -> str:
        found = _COME_BACK.search(flat(self.pane.screen() or ""))
        assert found is not None, self.pane.screen()
        return found.group(1)


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def server(tmp_path: Path, port: int) -> Iterator[ServerProcess]:
    running = start_server(tmp_path, port)
    try:
        yield running
    finally:
        running.kill()


@pytest.fixture
def players(tmp_path: Path, server: ServerProcess) -> Iterator[tuple[Player, Player]]:
    ann = Player(tmp_path / "ann", server, "Ann")
    bob = Player(tmp_path / "bob", server, "Bob")
    try:
        yield ann, bob
    finally:
        ann.pane.kill()
        bob.pane.kill()


def seat_bob_and_ann(server: ServerProcess, ann: Player, bob: Player) -> str:
    """Ann in the lobby; Bob at a table of his own with two bots, its match under way.
    The table's code."""
    ann.connect(server)
    bob.connect(server)
    ann.pane.wait_for("New match", timeout=FIRST_SCREEN)
    bob.pane.wait_for("New match", timeout=FIRST_SCREEN)
    bob.pane.press("t")
    bob.pane.wait_for("Tables on this server")
    bob.pane.press("n")
    bob.pane.wait_for("A new table")
    bob.pane.press("C-s")
    found = _CODE.search(bob.pane.wait_for("j in Tables"))
    assert found is not None
    bob.pane.press("s")  # start now: the open seats get bots
    bob.pane.wait_for("Stock", "Discard")
    return found.group(1)


def session_apps(server: ServerProcess) -> list[int]:
    """The sessions' app processes: the server's descendants that lead a session."""
    assert server.process is not None
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                parents[int(entry.name)] = int(fields[1])
    descendants, frontier = set(), {server.process.pid}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier}
        descendants |= frontier
    return sorted(pid for pid in descendants
                  if pid in parents and _session_of(pid) == pid)


def _session_of(pid: int) -> int | None:
    with contextlib.suppress(OSError, IndexError, ValueError):
        return int((Path("/proc") / str(pid) / "stat").read_text()
                   .rsplit(")", 1)[1].split()[3])
    return None


def stop_and_time(server: ServerProcess, players: tuple[Player, ...]) -> list[float]:
    """SIGTERM the server; the seconds until each player's terminal showed the way back."""
    assert server.process is not None
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    seen: dict[str, float] = {}
    while len(seen) < len(players):
        for player in players:
            if player.name not in seen and "Come back with" in flat(player.pane.screen() or ""):
                seen[player.name] = time.monotonic() - started
        if time.monotonic() - started > STEP:
            raise players[0].pane.failure(f"after {STEP:g} s only {sorted(seen)} were told",
                                          players[0].pane.screen())
        time.sleep(0.02)
    return [seen[player.name] for player in players]


def check_told(ann: Player, bob: Player, port: int, code: str) -> None:
    """What stays on each terminal once ssh has returned (with a status that says the
    session did not end normally)."""
    for player in (ann, bob):
        assert player.exit_status() != "ssh-exit=0"
    said = ann.told("server is stopping", "Come back with", f"ssh -p {port} 127.0.0.1")
    assert "Nothing is lost" in said and "seat" not in said
    said = bob.told("server is stopping", "Come back with", f"ssh -p {port} {code}@127.0.0.1")
    assert f"seat at Bob's table (code {code}) is kept" in said
    assert "stand-in" in said


def test_a_restart_is_announced_on_the_terminal_and_the_players_come_back(
        tmp_path: Path, port: int, server: ServerProcess,
        players: tuple[Player, Player]) -> None:
    ann, bob = players
    code = seat_bob_and_ann(server, ann, bob)

    seconds = stop_and_time(server, (ann, bob))
    print(f"SIGTERM to the message on the terminal: {max(seconds):.2f} s")
    assert max(seconds) < GRACE
    assert server.process is not None and server.process.wait(20) == 0
    check_told(ann, bob, port, code)

    again = start_server(tmp_path, port)
    try:
        bob.connect(again, target=bob.come_back_command().removeprefix("ssh "))
        ann.connect(again, target=ann.come_back_command().removeprefix("ssh "))
        bob.pane.wait_for("Stock", "Discard", timeout=FIRST_SCREEN)
        ann.pane.wait_for("New match", timeout=FIRST_SCREEN)
        ann.pane.press("n")
        ann.pane.wait_for("Your move", "Stock")
        deadline = time.monotonic() + MATCH
        while bob.answer() != "s":  # Bob's turn comes round: he draws from the stock
            assert time.monotonic() < deadline, bob.pane.screen()
            time.sleep(0.1)
        bob.pane.wait_for("Bob draws")
    finally:
        again.kill()


def test_a_restart_is_announced_when_no_app_can_draw_on_a_busy_server(
        port: int, server: ServerProcess, players: tuple[Player, Player]) -> None:
    ann, bob = players
    code = seat_bob_and_ann(server, ann, bob)
    apps = session_apps(server)
    assert len(apps) == 2
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(2 * (os.cpu_count() or 1))]
    try:
        for pid in apps:
            os.kill(pid, signal.SIGSTOP)  # no app draws anything any more
        seconds = stop_and_time(server, (ann, bob))
        print(f"SIGTERM to the message on the terminal (busy): {max(seconds):.2f} s")
        assert max(seconds) < GRACE
    finally:
        for process in busy:
            process.kill()
            process.wait()
    assert server.process is not None and server.process.wait(20) == 0
    check_told(ann, bob, port, code)


def test_a_restart_tells_a_guest_and_one_who_had_left_what_becomes_of_their_seat(
        tmp_path: Path, port: int, server: ServerProcess,
        players: tuple[Player, Player]) -> None:
    """Gus, a friend with no key, hosts a table and Bob joins it by its code, then leaves
    it (esc, esc). At the restart Gus's terminal does not promise him a seat or a match
    to come back to (a guest is new at every visit) and says how a key keeps them; Bob's
    says that the stand-in plays for him, as it did, until he is back."""
    _, bob = players
    folder = tmp_path / "gus"
    folder.mkdir()
    gus = TmuxPane(folder)
    gus.notes += [folder / "status", server.stderr]
    try:
        gus.start(openssh(folder, port), WIDTH, HEIGHT)
        gus.wait_for(KEYGEN, "guest", timeout=FIRST_SCREEN)
        gus.press("Enter")
        gus.wait_for(NAME_PROMPT, "Sit down", timeout=FIRST_SCREEN)
        gus.press("C-u", *"Gus", "Enter")
        gus.wait_for("New match", absent=NAME_PROMPT)
        gus.press("t")
        gus.wait_for("Tables on this server")
        gus.press("n")
        gus.wait_for("A new table")
        gus.press("C-s")  # Gus, an open seat, two bots
        found = _CODE.search(gus.wait_for("j in Tables"))
        assert found is not None
        code = found.group(1)
        bob.connect(server, username=code)  # the open seat: the match begins
        bob.pane.wait_for("Stock", "Discard", timeout=FIRST_SCREEN)
        bob.pane.press("Escape")
        bob.pane.wait_for("Leave the table?")
        bob.pane.press("Escape")
        bob.pane.wait_for("Tables on this server", "playing deal")

        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        status = folder / "status"
        wait_until(status.is_file, STEP, "Gus's ssh to exit")
        said = gus.wait_for("server is stopping", "Come back with", f"ssh -p {port} 127.0.0.1")
        assert "guest" in said and KEYGEN in said, said
        assert f"(code {code}) is kept" not in said and "Nothing is lost" not in said, said
        assert "cannot be given back to you" in said, said
        said = bob.told("server is stopping", f"ssh -p {port} {code}@127.0.0.1")
        assert "is kept" in said and "the stand-in plays for you" in said, said
        assert "no stand-in plays for you" not in said, said
    finally:
        gus.kill()
