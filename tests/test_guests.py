"""Guests (a friend with no SSH key) and the name of an SSH player who keeps the
suggestion: a guest's match is never rated, nothing is kept for a guest, and no SSH
player is called "You" (Textual pilot for the app's side)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import asyncssh
import pytest
from admin_helpers import admin_ok
from players_helpers import ANCHORS, finish, fixed_anchors, shared
from ssh_helpers import Terminal, connect, eventually, serving

from trash_tui.app.app import LobbyScreen, create_app
from trash_tui.app.screens.remote import NameScreen, name_problem
from trash_tui.games import TRASH
from trash_tui.players.identity import is_guest
from trash_tui.players.model import rated_seats
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules
from trash_tui.settings import default_history_path, default_settings_path
from trash_tui.ssh.auth import hash_password

GUEST = "guest:0123456789abcdef"
ALICE = "SHA256:alice-key-fingerprint"
BOB = "SHA256:bob-key-fingerprint"


@pytest.fixture(autouse=True)
def _anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_anchors(monkeypatch)


def test_a_match_with_a_guest_is_not_rated() -> None:
    levels = set(ANCHORS[TRASH])
    places = {"places": [1, 2], "abandoned": False}
    assert rated_seats(TRASH, GUEST, ["human", "hard"], places, {}, set(), levels,
                       False) is None
    assert rated_seats(TRASH, "shared", ["human", "human"], places, {0: ALICE, 1: GUEST},
                       set(), levels, True) is None
    # the same matches with a key are rated
    assert rated_seats(TRASH, ALICE, ["human", "hard"], places, {}, set(), levels, False)
    assert rated_seats(TRASH, "shared", ["human", "human"], places, {0: ALICE, 1: BOB},
                       set(), levels, True)


def test_a_guest_finishing_matches_gets_no_rating_and_moves_nobody_s(tmp_path: Path) -> None:
    with open_history(tmp_path / "h.sqlite3") as history:
        finish(history, GUEST, ["human", "normal"], [1, 2])
        shared(history, ["human", "human"], [2, 1], {0: ALICE, 1: GUEST})
        assert history.players.rating(GUEST, TRASH) is None
        assert history.players.rating(ALICE, TRASH) is None


def remote_app(owner: str, path: Path | None):
    return create_app(Rules(start_size=4), ["human", "greedy"], seed=3, animation="off",
                      owner=owner, remote=True, settings_path=path)


async def keep_the_suggestion(owner: str, path: Path | None) -> str:
    """An SSH player's first visit, esc at the name prompt: the name registered."""
    app = remote_app(owner, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        await pilot.press("escape")
        for _ in range(10):
            await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert app.settings.name != "You"
    with open_history(default_history_path()) as history:
        name = history.players.player_name(owner)
    assert name is not None and name == app.settings.name
    return name


async def test_esc_at_the_name_prompt_over_ssh_gives_a_name_others_can_tell_apart(
        tmp_path: Path) -> None:
    alice = await keep_the_suggestion(ALICE, tmp_path / "alice.toml")
    bob = await keep_the_suggestion(BOB, tmp_path / "bob.toml")
    assert "You" not in (alice, bob) and alice != bob
    assert alice.startswith("Player ") and bob.startswith("Player ")


async def test_an_ssh_player_cannot_take_the_name_you(tmp_path: Path) -> None:
    assert name_problem("You") is not None and name_problem(" you ") is not None
    app = remote_app(ALICE, tmp_path / "alice.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.query_one("Input").value = ""
        await pilot.press(*"You", "enter")
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        assert "You" in str(app.screen.query_one("#name-problem").render())


async def test_an_old_player_registered_as_you_is_asked_again(tmp_path: Path) -> None:
    with open_history(default_history_path()) as history:
        history.players.register_player(ALICE, "You")
    name = await keep_the_suggestion(ALICE, tmp_path / "alice.toml")
    assert name.startswith("Player ")


async def test_a_guest_is_told_so_and_nothing_is_kept_for_them(tmp_path: Path) -> None:
    app = remote_app(GUEST, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, NameScreen)
        said = " ".join(str(w.render()) for w in prompt.query("Static"))
        assert "guest" in said and "ssh-keygen -t ed25519" in said
        prompt.query_one("Input").value = ""
        await pilot.press(*"Gus", "enter")
        for _ in range(10):
            await pilot.pause()
        assert isinstance(app.screen, LobbyScreen) and app.settings.name == "Gus"
        app.action_open_settings()
        await pilot.pause()
        app.screen.action_save()
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
    assert list(tmp_path.rglob("*.toml")) == []
    assert not default_settings_path().exists()  # not the server's own settings either


class Answers(asyncssh.SSHClient):
    """A client with no key that answers the keyboard-interactive prompt with ``answer``
    and keeps what it was asked."""

    def __init__(self, answer: str, asked: list[str]) -> None:
        self.answer, self.asked = answer, asked

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name: str, instructions: str, lang: str,
                                  prompts: Sequence[tuple[str, bool]]) -> list[str]:
        self.asked += [prompt for prompt, _ in prompts]
        return [self.answer for _ in prompts]


async def log_in(server, answer: str, user: str = "player") -> tuple[str | None, str]:
    """Connect with no key answering ``answer``: who the log says came in (None: refused)
    and what the prompt said."""
    asked: list[str] = []
    try:
        async with await connect(server, client_keys=None, username=user,
                                 client_factory=lambda: Answers(answer, asked)) as conn:
            await conn.run(encoding="utf-8")  # (no terminal: refused, but logged in)
    except asyncssh.PermissionDenied:
        return None, "\n".join(asked)

    def players() -> list[str]:
        lines = server.config.log.read_text(encoding="utf-8").splitlines()
        return [entry["player"] for entry in map(json.loads, lines)
                if entry["event"] == "session"]

    return (await eventually(players))[-1], "\n".join(asked)


async def test_a_keyless_client_is_told_how_to_make_a_key_and_comes_in_as_a_guest(
        tmp_path: Path) -> None:
    async with serving(tmp_path / "open") as server:
        first, said = await log_in(server, "")
        second, _ = await log_in(server, "")
        refused, _ = await log_in(server, "secret")  # no password file: no passwords
    assert first and second and is_guest(first) and is_guest(second) and first != second
    assert "no SSH key" in said and "ssh-keygen -t ed25519" in said and "guest" in said
    assert refused is None


async def test_an_idle_guest_is_not_promised_a_match_to_come_back_to(tmp_path: Path) -> None:
    """The idle goodbye, the app's box and the lines left on a guest's terminal, says
    that nothing is kept for a guest and how a key keeps it, not that their match is
    saved for them to continue."""
    async with serving(tmp_path, idle_timeout=1) as server, await connect(
            server, client_keys=None, client_factory=lambda: Answers("", [])) as conn:
        term = await Terminal.open(conn)
        await term.read_until("Sit down")
        mark = len(term.output)
        said = await term.read_until("Come back with: ssh", since=mark, timeout=10)
    box = said[said.index("Goodbye"):said.index("trash: no key pressed")]
    box = " ".join(box.replace("█", " ").split())
    assert "No key pressed for 1 second" in box and "guest" in box, box
    assert "saved" not in box and "kept:" not in box, box
    said = " ".join(said.split())
    assert "no key pressed for 1 second" in said and "guest" in said, said
    assert "ssh-keygen -t ed25519" in said and "Nothing is lost" not in said, said


async def test_with_an_allow_list_a_keyless_client_is_refused_in_words(tmp_path: Path) -> None:
    listed = tmp_path / "authorized_keys"
    listed.write_text("", encoding="utf-8")
    async with serving(tmp_path / "listed", auth="allow-list",
                       authorized_keys=listed) as server:
        player, said = await log_in(server, "")
    assert player is None
    assert "ssh-keygen -t ed25519" in said and ".pub" in said and "operator" in said


async def test_a_password_file_still_lets_its_users_in_at_the_same_prompt(
        tmp_path: Path) -> None:
    passwords = tmp_path / "passwords"
    passwords.write_text(f"alice:{hash_password('secret')}\n", encoding="utf-8")
    async with serving(tmp_path / "pw", password_file=passwords) as server:
        alice, said = await log_in(server, "secret", user="alice")
        wrong, _ = await log_in(server, "wrong", user="alice")
        guest, _ = await log_in(server, "", user="alice")
    assert alice == "password:alice" and "password" in said
    assert wrong is None and guest is not None and is_guest(guest)


async def test_banning_a_guest_bans_the_address_it_came_from(tmp_path: Path) -> None:
    """A guest is new at every connection: a ban on the guest alone would be gone at the
    next one. The operator's ban of a guest is a ban of its address."""
    async with serving(tmp_path) as server:
        async with await connect(server, client_keys=None,
                                 client_factory=lambda: Answers("", [])):
            [guest] = [c.player for c in server.state.connections if c.player]
            assert guest is not None and is_guest(guest)
            reply = await admin_ok(server, "ban", target=guest, reason="rude")
            assert "127.0.0.1" in reply["text"]
        with pytest.raises((ConnectionError, asyncssh.Error)):
            await log_in(server, "")  # a new guest from the same address: closed at once
        assert server.state.metrics.refused_by_reason().get("banned") == 1


async def test_muting_a_guest_mutes_the_address_it_came_from(tmp_path: Path) -> None:
    """A guest is new at every connection, so a mute of the guest alone was gone when they
    came back: the operator's mute of a guest is a mute of the guests from its address
    (players with a key there are not touched)."""
    from table_helpers import TableClient

    async with serving(tmp_path) as server:
        async with await connect(server, client_keys=None,
                                 client_factory=lambda: Answers("", [])) as conn:
            process = await conn.create_process(term_type="xterm", term_size=(80, 24))
            [session] = await eventually(lambda: [s for s in server.state.sessions
                                                  if s.token] or None)
            guest = session.player
            assert guest is not None and is_guest(guest)
            assert server.state.tables.hub.addresses[session.token] == "127.0.0.1"
            reply = await admin_ok(server, "mute", target=guest, reason="abuse")
            assert "127.0.0.1" in reply["text"]
            process.close()
        service = server.state.tables
        # back as a new guest from the same address, and a player with a key from there
        again = await TableClient.connect(service, "guest:fedcba9876543210", "127.0.0.1")
        keyed = await TableClient.connect(service, "SHA256:kim", "127.0.0.1")
        await again.send({"op": "create", "config": {"seats": ["human", "human", "easy"]}})
        created = await again.wait_for("update")
        await keyed.send({"op": "join", "code": created["table"]["code"]})
        await keyed.wait_for("update")
        await again.send({"op": "chat", "text": "you are all idiots"})
        told = await again.wait_for("notice", lambda m: "muted" in m["text"])
        assert "reach nobody" in told["text"]
        await keyed.send({"op": "chat", "text": "hello"})
        heard = await keyed.wait_for("chat")
        assert heard["text"] == "hello"
        assert all(m.get("text") != "you are all idiots" for m in keyed.messages)
