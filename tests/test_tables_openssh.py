"""A shared table played through the real OpenSSH client: two players, each ``ssh -t`` in
a tmux session of their own, sit at one table and each sees the other's move.

``trash serve`` runs as its own process (as in test_ssh_openssh.py, whose server and tmux
helpers this uses). Ann opens the Tables screen, creates a table and reads its join code;
Bob connects with the code as his SSH user name and goes straight to the table. Skipped
only when ``ssh`` or ``tmux`` is not installed.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from table_helpers import TableClient, play_out
from table_ssh_helpers import make_fast, table_server
from test_ssh_openssh import (
    FIRST_SCREEN,
    HEIGHT,
    STEP,
    WIDTH,
    ServerProcess,
    TmuxPane,
    flat,
    make_client_key,
    ssh_command,
    wait_until,
)

from trash_tui.players.rater import open_history
from trash_tui.ssh.session import settings_file

pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None,
    reason="needs the OpenSSH client (ssh) and tmux installed "
           "(apt-get install openssh-client tmux)")

_CODE = re.compile(r"Code ([A-Z2-9]{4}):")
MATCH = 60.0  # seconds for a player's turn to come round (two bots move 0.8 s apart)


class SshPlayer:
    """A registered player (name, animations off) with a key and a tmux pane for ssh."""

    def __init__(self, folder: Path, server: ServerProcess, name: str) -> None:
        folder.mkdir()
        self.folder = folder
        self.name = name
        self.key, self.identity = make_client_key(folder)
        with open_history(server.history) as history:
            history.players.register_player(self.identity, name)
        settings = settings_file(server.players_dir, self.identity)
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text('[app]\nanimation = "off"\n', encoding="utf-8")
        self.pane = TmuxPane(folder)
        self.pane.notes += [folder / "ssh.err", server.stderr]

    def connect(self, server: ServerProcess, username: str = "player") -> None:
        command = ssh_command(self.key, self.folder / "known_hosts", server.port,
                              self.folder / "status", self.folder / "ssh.err")
        self.pane.start(command.replace("player@127.0.0.1", f"{username}@127.0.0.1"),
                        WIDTH, HEIGHT)

    def answer(self) -> str | None:
        """If this player is asked for a move, the key of the first one offered (the
        stock, keep, a free slot for a wild), pressed; else None."""
        screen = flat(self.pane.screen() or "")
        asked = re.search(rf"Your move, {re.escape(self.name)} — (\S): ", screen)
        wild = re.search(rf"Your move, {re.escape(self.name)} — Wild: .*?\(free: (\d+)",
                         screen)
        key = asked.group(1) if asked else str(int(wild.group(1)) % 10) if wild else None
        if key is not None:
            self.pane.press(key)
            time.sleep(0.5)  # the move's update, before the status line is read again
        return key


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    running = ServerProcess(tmp_path)
    try:
        running.start()
        yield running
    finally:
        running.kill()


@pytest.fixture
def players(tmp_path: Path, server: ServerProcess) -> Iterator[tuple[SshPlayer, SshPlayer]]:
    ann = SshPlayer(tmp_path / "ann", server, "Ann")
    bob = SshPlayer(tmp_path / "bob", server, "Bob")
    try:
        yield ann, bob
    finally:
        ann.pane.kill()
        bob.pane.kill()


def test_two_openssh_clients_sit_at_one_table_and_see_each_others_moves(
        server: ServerProcess, players: tuple[SshPlayer, SshPlayer]) -> None:
    ann, bob = players
    ann.connect(server)
    ann.pane.wait_for("New match", timeout=FIRST_SCREEN)
    ann.pane.press("t")
    ann.pane.wait_for("Tables on this server")
    ann.pane.press("n")
    ann.pane.wait_for("A new table")
    ann.pane.press("C-s")
    waiting = ann.pane.wait_for("j in Tables")
    found = _CODE.search(waiting)
    assert found is not None, waiting
    code = found.group(1)

    bob.connect(server, username=code)  # straight to the table
    for player in (ann, bob):
        player.pane.wait_for("Stock", "Discard", timeout=FIRST_SCREEN)
    assert "Ann" in bob.pane.wait_for("Bob") and "Bob" in ann.pane.wait_for("Ann")

    # whoever's turn comes first draws first; each answers every later question of
    # their turn (a wild's slot) so that the turn comes round to the other
    seen: set[str] = set()
    deadline = time.monotonic() + MATCH
    while len(seen) < 2:
        assert time.monotonic() < deadline, f"after {MATCH:g} s only {seen} moved"
        for mover, other in ((ann, bob), (bob, ann)):
            if mover.answer() == "s" and mover.name not in seen:
                other.pane.wait_for(f"{mover.name} draws", timeout=STEP)
                seen.add(mover.name)
        time.sleep(0.1)

    assert server.terminate() == 0, server.output()
    wait_until(lambda: len(server.sessions_logged()) == 2, STEP, "both sessions' log lines")


async def test_a_friend_whose_code_points_at_a_match_in_play_watches_that_table(
        tmp_path: Path) -> None:
    """Issue 35: Cleo connects with ``ssh CODE@host`` (80×24) for a table whose match has
    started, while a finished table is listed first (and selected). She is told the match
    has started and that w watches it; w watches THE table of the code (its board, its
    moves coming), not the selected row. Back in the list, watching the finished table
    shows it finished (its last board, "The match is over"), never "waiting for players".
    The server runs in this process (its bots fast), Cleo through the real OpenSSH client
    in tmux; the table service is the oracle of whom she watches."""
    async def sees(pane: TmuxPane, *needles: str, absent: str | None = None,
                   timeout: float = STEP) -> str:
        return await asyncio.to_thread(pane.wait_for, *needles, absent=absent,
                                       timeout=timeout)

    async with table_server(tmp_path / "server", bot_delay=0.0,
                            sessions_per_ip=20) as server:
        service = server.state.tables
        with open_history(server.config.history) as history:
            history.players.register_player("key:ann", "Ann")
        ann = await TableClient.connect(service, "key:ann")
        await ann.send({"op": "create", "config": {"name": "Ann's table", "clock": 0,
                                                   "seats": ["human", "random"],
                                                   "preset": "kids"}})  # (a short match)
        await ann.wait_for("created")
        finished = await play_out([ann])  # the first table's match is over: still listed
        assert finished["table"]["status"] == "finished"
        make_fast(server, 0.3)  # the second table's moves come one by one
        # (Ann's message rate, 20 a second after play_out's moves: her next two
        # messages need a tenth of a second of it)
        await asyncio.sleep(0.3)
        await ann.send({"op": "create", "config": {"name": "Ann's table", "clock": 0,
                                                   "seats": ["human", "easy", "random"]}})
        created = await ann.wait_for("created")
        code, playing_id = created["code"], created["table"]
        await ann.wait_for("update", lambda m: m["table"]["status"] == "playing")  # full
        await ann.send({"op": "leave"})  # the stand-in plays her seat while anyone is there
        await ann.wait_for("left")
        playing = service.tables[playing_id]
        assert next(iter(service.tables)) != playing_id  # listed second

        folder = tmp_path / "cleo"
        folder.mkdir()
        key, identity = make_client_key(folder)
        with open_history(server.config.history) as history:
            history.players.register_player(identity, "Cleo")
        settings = settings_file(server.config.players_dir, identity)
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text('[app]\nanimation = "off"\n', encoding="utf-8")
        pane = TmuxPane(folder)
        pane.notes.append(folder / "ssh.err")
        try:
            command = ssh_command(key, folder / "known_hosts", server.port,
                                  folder / "status", folder / "ssh.err")
            pane.start(command.replace("player@127.0.0.1", f"{code}@127.0.0.1"), 80, 24)
            await sees(pane, "has started", "w watches it", timeout=FIRST_SCREEN)
            before = len(playing.controller.actions)
            pane.press("w")
            await sees(pane, "Watching", absent="waiting for players")
            watched = [c.table.id for c in service.clients
                       if c.identity == identity and c.table is not None]
            assert watched == [playing_id], f"Cleo watches table {watched}, not {playing_id}"
            assert any(c.identity == identity for c in playing.spectators)
            # the table plays on with her watching: its moves reach her screen
            await asyncio.wait_for(_until(lambda: len(playing.controller.actions) > before + 2),
                                   STEP)
            moved = flat(pane.screen() or "")
            await sees_change(pane, moved, lambda: playing.controller.over)

            # the finished table, first in the list, is shown as finished
            pane.press("Escape")
            listed = await sees(pane, "Tables on this server", "finished")
            assert "finished" in listed
            pane.press("Home")
            await asyncio.sleep(0.5)
            pane.press("w")
            over = await sees(pane, "The match is over", absent="waiting for players")
            assert "Starts when every seat is taken" not in over
        finally:
            pane.kill()
            await ann.close()


async def _until(check) -> None:
    while not check():
        await asyncio.sleep(0.05)


async def sees_change(pane: TmuxPane, shown: str, over: Callable[[], bool]) -> None:
    """Wait (the event loop free meanwhile) until the pane shows other than ``shown``,
    or ``over()``; AssertionError after STEP seconds."""
    deadline = time.monotonic() + STEP
    while flat(await asyncio.to_thread(pane.screen) or "") == shown and not over():
        assert time.monotonic() < deadline, f"the screen stayed as it was for {STEP:g} s"
        await asyncio.sleep(0.1)
