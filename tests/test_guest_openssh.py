"""Who can connect, through the real OpenSSH client (``ssh -t``) in tmux at 80x24: a
friend with no SSH key is told how to make one and plays as a guest; a key still logs in
as that key; an allow-list server tells a keyless client, in words, how to get in; and two
players who keep the suggested name (esc) are told apart at a shared table.

The clients run with an empty home folder (no ``~/.ssh``), no agent and no user config,
so a "keyless" client really offers no key. ``trash serve`` runs as its own process (the
helpers of test_ssh_openssh.py). Skipped only when ``ssh`` or ``tmux`` is not installed.
"""

from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_ssh_openssh import (
    FIRST_SCREEN,
    LOBBY_TITLE,
    NAME_PROMPT,
    STEP,
    ServerProcess,
    TmuxPane,
    latest_match,
    make_client_key,
    wait_until,
)

from trash_tui.history import MatchRow
from trash_tui.players.rater import open_history

pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None,
    reason="needs the OpenSSH client (ssh) and tmux installed "
           "(apt-get install openssh-client tmux)")

WIDTH, HEIGHT = 80, 24
KEYGEN = "ssh-keygen -t ed25519"
_CODE = re.compile(r"Code ([A-Z2-9]{4}):")


def openssh(folder: Path, port: int, key: Path | None = None, user: str = "player") -> str:
    """The pane's command: OpenSSH as a friend runs it (no BatchMode: it may answer a
    keyboard-interactive prompt), with ``key`` or with no key at all (the home folder is
    ``folder``, which has no ``.ssh``; no agent); its exit status into ``folder/status``."""
    assert not (folder / ".ssh").exists()
    ssh = ["ssh", "-F", "/dev/null", "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none",
           "-o", "StrictHostKeyChecking=accept-new",
           "-o", f"UserKnownHostsFile={folder / 'known_hosts'}",
           "-o", "GlobalKnownHostsFile=/dev/null", "-o", "ConnectTimeout=10",
           "-o", "LogLevel=ERROR", "-p", str(port), "-t", f"{user}@127.0.0.1"]
    if key is not None:
        ssh[1:1] = ["-i", str(key)]
    client = ["env", "TERM=xterm-256color", "LANG=C.UTF-8", *ssh]
    status = shlex.quote(str(folder / "status"))
    # the pane stays open after ssh, so the test reads what it said last
    return f'{shlex.join(client)}; echo "ssh-exit=$?" > {status}; sleep 60'


def guests(server: ServerProcess) -> dict[str, str]:
    """The guests the server's history knows: identity -> name."""
    with open_history(server.history) as history:
        return {identity: name for identity, name, _, _ in history.players.registered()
                if identity.startswith("guest:")}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    running = ServerProcess(tmp_path)
    try:
        yield running  # (started by the test, which may change its file first)
    finally:
        running.kill()


@pytest.fixture
def panes(tmp_path: Path) -> Iterator[list[TmuxPane]]:
    made: list[TmuxPane] = []
    yield made
    for pane in made:
        pane.kill()


def client(tmp_path: Path, panes: list[TmuxPane], name: str, server: ServerProcess
           ) -> tuple[Path, TmuxPane]:
    folder = tmp_path / name
    folder.mkdir()
    pane = TmuxPane(folder)
    pane.notes += [folder / "status", server.stderr]
    panes.append(pane)
    return folder, pane


def test_a_friend_with_no_key_is_told_how_to_make_one_and_plays_as_a_guest(
        tmp_path: Path, server: ServerProcess, panes: list[TmuxPane]) -> None:
    server.start()
    folder, pane = client(tmp_path, panes, "nokey", server)
    pane.start(openssh(folder, server.port), WIDTH, HEIGHT)

    told = pane.wait_for(KEYGEN, "guest", timeout=FIRST_SCREEN)
    assert "no SSH key" in told and "rating" in told, told
    pane.press("Enter")
    prompt = pane.wait_for(NAME_PROMPT, "Sit down", timeout=FIRST_SCREEN)
    assert "guest" in prompt and KEYGEN in prompt, prompt
    pane.press("C-u", *"Gus", "Enter")
    pane.wait_for(LOBBY_TITLE, "New match", absent=NAME_PROMPT)

    [(guest, name)] = guests(server).items()
    assert name == "Gus"
    pane.press("n")
    pane.wait_for("Your move", "Stock")
    pane.press("s")

    def saved_draw() -> MatchRow | None:
        match = latest_match(server.history, guest)
        return match if match is not None and match.actions >= 1 else None

    row = wait_until(saved_draw, STEP, "the guest's draw in the history database")
    assert isinstance(row, MatchRow) and "Gus" in row.names
    assert not list((server.players_dir).glob("*.toml"))  # nothing kept for a guest


def test_a_client_with_a_key_logs_in_as_its_key_not_as_a_guest(
        tmp_path: Path, server: ServerProcess, panes: list[TmuxPane]) -> None:
    server.start()
    folder, pane = client(tmp_path, panes, "keyed", server)
    key, fingerprint = make_client_key(folder)
    pane.start(openssh(folder, server.port, key), WIDTH, HEIGHT)

    prompt = pane.wait_for(NAME_PROMPT, "Sit down", timeout=FIRST_SCREEN)
    assert "Your key is new here" in prompt and "guest" not in prompt, prompt
    pane.press("C-u", *"Kay", "Enter")
    pane.wait_for(LOBBY_TITLE, "New match", absent=NAME_PROMPT)
    with open_history(server.history) as history:
        assert history.players.player_name(fingerprint) == "Kay"
    assert guests(server) == {}


def test_an_allow_list_server_tells_a_keyless_client_how_to_get_in(
        tmp_path: Path, server: ServerProcess, panes: list[TmuxPane]) -> None:
    (tmp_path / "authorized_keys").write_text("", encoding="utf-8")
    server.config.write_text(server.config.read_text(encoding="utf-8") +
                             'auth = "allow-list"\nauthorized_keys = "authorized_keys"\n',
                             encoding="utf-8")
    server.start()
    folder, pane = client(tmp_path, panes, "nokey", server)
    pane.start(openssh(folder, server.port), WIDTH, HEIGHT)

    told = pane.wait_for(KEYGEN, timeout=FIRST_SCREEN)
    assert "operator" in told and ".pub" in told and "guest" not in told, told
    pane.press("Enter")
    wait_until((folder / "status").is_file, STEP, "ssh to give up")
    assert (folder / "status").read_text(encoding="utf-8").strip() == "ssh-exit=255"
    assert server.sessions_logged() == [] and guests(server) == {}


def test_players_who_keep_the_suggested_name_are_told_apart_at_a_shared_table(
        tmp_path: Path, server: ServerProcess, panes: list[TmuxPane]) -> None:
    server.start()
    ann_folder, ann = client(tmp_path, panes, "ann", server)
    bob_folder, bob = client(tmp_path, panes, "bob", server)
    ann_key, ann_id = make_client_key(ann_folder)
    bob_key, bob_id = make_client_key(bob_folder)

    ann.start(openssh(ann_folder, server.port, ann_key), WIDTH, HEIGHT)
    ann.wait_for(NAME_PROMPT, "Sit down", timeout=FIRST_SCREEN)
    ann.press("Escape")  # keeps the suggestion
    ann.wait_for(LOBBY_TITLE, "New match", absent=NAME_PROMPT)
    ann.press("t")
    ann.wait_for("Tables on this server")
    ann.press("n")
    ann.wait_for("A new table")
    ann.press("C-s")
    waiting = ann.wait_for("j in Tables")
    found = _CODE.search(waiting)
    assert found is not None, waiting

    bob.start(openssh(bob_folder, server.port, bob_key, user=found.group(1)), WIDTH, HEIGHT)
    bob.wait_for(NAME_PROMPT, "Sit down", timeout=FIRST_SCREEN)
    bob.press("Escape")
    with open_history(server.history) as history:
        def registered() -> tuple[str, str] | None:
            pair = (history.players.player_name(ann_id), history.players.player_name(bob_id))
            return pair if all(pair) else None  # type: ignore[return-value]

        names = wait_until(registered, STEP, "both names registered")
    assert isinstance(names, tuple)
    ann_name, bob_name = names
    assert "You" not in (ann_name, bob_name) and ann_name != bob_name, names
    for pane in (ann, bob):  # both at the table's board, each seeing both names
        pane.wait_for(ann_name, bob_name, "Stock", timeout=FIRST_SCREEN)
