"""``trash serve``: the SSH server in-process on a free port, played through asyncssh
clients; its config file, auth files, limits, connection log and CLI.

Sessions run the real app (``python -m trash_tui.ssh.session``) in a child process on a
PTY; the tests read its screen as text with the escape sequences removed.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import asyncssh
import click
import pytest
from click.testing import CliRunner
from ssh_helpers import (
    Terminal,
    connect,
    eventually,
    process_gone,
    quiet_player,
    server_config,
    serving,
)

from trash_tui.cli.serve_cmd import serve_group
from trash_tui.history import PLAYING, History
from trash_tui.players.rater import open_history
from trash_tui.ssh.auth import AllowList, PasswordFile, hash_password, load_or_create_host_key
from trash_tui.ssh.config import ServeError, ServerConfig, load_server_config
from trash_tui.ssh.goodbye import STOPPED_EXIT_STATUS
from trash_tui.ssh.limits import RateLimiter, SessionSlots, client_key
from trash_tui.ssh.server import start_server

REPO = Path(__file__).resolve().parents[1]
PLAY_KEYS = "stk1234567890\r"  # draw, call, keep, wild slots, next deal: whatever is legal


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


def log_entries(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


async def sit_down(term: Terminal) -> None:
    """Accept the suggested name on the welcome screen of a new key, and wait for the
    lobby (keys typed before it is drawn are dropped on purpose)."""
    await term.read_until("Sit down")
    mark = len(term.output)
    await term.press("\r", pause=0.4)
    await term.read_until("New match", "Newmatch", since=mark)


async def play_until(term: Terminal, history: History, owner: str, done, timeout: float = 30
                     ) -> None:
    """Press PLAY_KEYS round and round until ``done(match row)`` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    step = 0
    while True:
        rows = history.matches.of_player(owner)
        if rows and done(rows[0]):
            return
        assert loop.time() < deadline, f"the match did not get there: {rows[:1]}"
        await term.press(PLAY_KEYS[step % len(PLAY_KEYS)], pause=0.03)
        step += 1


async def back_to_the_lobby(term: Terminal) -> None:
    """Escape until the lobby shows (the first escape may close a notice or a dialog)."""
    for _ in range(4):
        mark = len(term.output)
        await term.press("\x1b", pause=0.6)
        if "New match" in term.text(mark) or "Newmatch" in term.text(mark).replace(" ", ""):
            return
    raise AssertionError("escape did not lead back to the lobby")


# --- playing over SSH ------------------------------------------------------------------------

async def test_a_session_plays_a_deal_into_the_players_history_and_resizes(tmp_path: Path
                                                                          ) -> None:
    echo = io.StringIO()
    async with serving(tmp_path, echo=echo) as server:
        key = new_key()
        owner = key.get_fingerprint("sha256")
        quiet_player(server.config, key)
        async with await connect(server, key) as conn:
            term = await Terminal.open(conn, size=(100, 32))
            await sit_down(term)
            assert server.session_count == 1
            assert server.sessions[0].player == owner
            await term.press("n")
            history = open_history(server.config.history)
            await eventually(lambda: history.matches.of_player(owner), 10)
            await play_until(term, history, owner, lambda row: row.deals >= 2)
            row = history.matches.of_player(owner)[0]
            assert row.status == PLAYING and row.actions >= 4
            assert len(history.matches.match_actions(row.id)) == row.actions  # every action saved
            history.close()

            mark = len(term.output)
            term.process.change_terminal_size(60, 20)
            text = await term.read_until("needs at least 80×24", since=mark)
            assert "60×20" in text.replace(" ", "")
            mark = len(term.output)
            term.process.change_terminal_size(100, 32)
            await term.read_until("Stock", "Discard", since=mark)

            await back_to_the_lobby(term)
            await term.press("q")
            result = await asyncio.wait_for(term.process.wait(), 10)
            assert result.exit_status == 0
    [entry] = [e for e in log_entries(server.config.log) if e["event"] == "session"]
    assert entry["ended"] == "quit" and entry["player"] == owner
    assert entry["term"] == "xterm-256color" and entry["size"] == "100x32"
    assert entry["seconds"] > 0 and entry["peer"].startswith("127.0.0.1:")
    human = echo.getvalue().strip().splitlines()[-1]
    assert human.startswith("trash serve: 127.0.0.1:") and human.endswith(" quit")
    assert f"{owner} xterm-256color 100x32 " in human


async def test_a_dropped_connection_ends_its_app_and_the_match_continues(tmp_path: Path
                                                                          ) -> None:
    async with serving(tmp_path) as server:
        key = new_key()
        owner = key.get_fingerprint("sha256")
        quiet_player(server.config, key)
        history = open_history(server.config.history)
        conn = await connect(server, key)
        term = await Terminal.open(conn)
        await sit_down(term)
        await term.press("n")
        await play_until(term, history, owner, lambda row: row.actions >= 3)
        [row] = history.matches.of_player(owner)
        pid = server.sessions[0].pid
        assert pid is not None and not process_gone(pid)

        conn.abort()
        await eventually(lambda: process_gone(pid), 8)
        await eventually(lambda: server.session_count == 0, 5)
        await eventually(lambda: any(e.get("ended") == "disconnected"
                                     for e in log_entries(server.config.log)), 5)

        async with await connect(server, key) as conn:
            term = await Terminal.open(conn)
            await term.read_until("Continue")
            before = history.matches.of_player(owner)[0].actions
            await term.press("c", pause=0.5)
            await play_until(term, history, owner, lambda again: again.actions > before + 2)
            assert [match.id for match in history.matches.of_player(owner)] == [row.id]
        history.close()


async def test_stopping_the_server_says_goodbye_and_ends_every_session(tmp_path: Path
                                                                        ) -> None:
    async with serving(tmp_path) as server:
        key = new_key()
        quiet_player(server.config, key)
        conn = await connect(server, key)
        term = await Terminal.open(conn)
        await sit_down(term)
        pid = server.sessions[0].pid
        mark = len(term.output)
        stopping = asyncio.ensure_future(server.stop())
        said = await term.read_until(f"Come back with: ssh -p {server.port} ", since=mark,
                                     timeout=5)
        assert "the server is stopping, as its operator asked" in said
        result = await asyncio.wait_for(term.process.wait(), 5)  # not waiting for the app
        assert result.exit_status == STOPPED_EXIT_STATUS
        assert "\x1b[?1049l" in term.output[mark:].decode("utf-8", "replace")
        ended = await asyncio.wait_for(stopping, 8)
        assert ended == 1
        assert pid is not None and process_gone(pid)
        assert server.session_count == 0
        conn.close()
    [entry] = [e for e in log_entries(server.config.log) if e["event"] == "session"]
    assert entry["ended"] == "server stopping"
    with pytest.raises((OSError, asyncssh.Error)):
        await connect(server, key)


async def test_an_idle_player_is_told_goodbye_and_the_app_exits(tmp_path: Path) -> None:
    async with serving(tmp_path, idle_timeout=1) as server:
        key = new_key()
        quiet_player(server.config, key)
        async with await connect(server, key) as conn:
            term = await Terminal.open(conn)
            await term.read_until("Sit down")
            pid = server.sessions[0].pid
            await term.read_until("No key pressed", timeout=10)
            mark = len(term.output)
            # what stays on the terminal once the app has left its screen: the server's
            said = await term.read_until("Come back with: ssh", since=mark, timeout=10)
            assert "no key pressed for 1 second: this session has ended" in said
            result = await asyncio.wait_for(term.process.wait(), 10)
            assert result.exit_status is not None and result.exit_status >= 0
        assert pid is not None and process_gone(pid)
        assert server.session_count == 0
    [entry] = [e for e in log_entries(server.config.log) if e["event"] == "session"]
    assert entry["exit_status"] == result.exit_status and entry["seconds"] >= 1


# --- what is refused -----------------------------------------------------------------------

async def test_only_the_game_runs_no_pty_exec_sftp_or_forwarding(tmp_path: Path) -> None:
    async with serving(tmp_path) as server, await connect(server, new_key()) as conn:
        shell = await conn.run(encoding="utf-8")
        assert shell.exit_status == 1
        assert shell.stderr.strip() == "trash: this is a game: connect with a terminal (ssh -t)"
        command = await conn.run("cat /etc/passwd", encoding="utf-8")
        assert command.exit_status == 1 and "commands cannot be run" in command.stderr
        assert "root" not in command.stdout
        with_pty = await conn.run("ls", term_type="xterm", encoding="utf-8")
        assert with_pty.exit_status == 1
        with pytest.raises((asyncssh.Error, OSError)):
            await asyncio.wait_for(conn.start_sftp_client(), 10)
        other = await conn.create_process(subsystem="netconf", encoding="utf-8")
        result = await asyncio.wait_for(other.wait(), 10)
        assert result.exit_status == 1 and "subsystems such as netconf" in result.stderr
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", server.port)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)
        assert server.session_count == 0
        refused = server.state.metrics.refused_by_reason()  # (the metrics' labels are ours)
        assert refused["no terminal"] == 1 and refused["command"] == 2
        assert refused["subsystem"] == 1 and not any("netconf" in r for r in refused)
    ended = {e["ended"] for e in log_entries(server.config.log)}
    assert {"refused: no terminal", "refused: command", "refused: subsystem netconf"} <= ended


async def test_allow_list_lets_in_listed_keys_only(tmp_path: Path) -> None:
    friend, stranger = new_key(), new_key()
    listed = tmp_path / "authorized_keys"
    listed.write_text("# friends\n" + friend.export_public_key().decode(), encoding="utf-8")
    async with serving(tmp_path, auth="allow-list", authorized_keys=listed) as server:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server, stranger)
        async with await connect(server, friend) as conn:
            assert (await conn.run(encoding="utf-8")).exit_status == 1  # in, but no PTY
        listed.write_text(friend.export_public_key().decode() +
                          stranger.export_public_key().decode(), encoding="utf-8")
        os.utime(listed, ns=(1, 1))  # a different stamp even within the same tick
        async with await connect(server, stranger):
            pass  # added while the server runs
    ended = [e["ended"] for e in log_entries(server.config.log)]
    assert "refused: authentication failed" in ended


async def test_passwords_only_with_a_password_file(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server, client_keys=None, password="secret")
    passwords = tmp_path / "passwords"
    passwords.write_text(f"alice:{hash_password('secret')}\n", encoding="utf-8")
    folder = tmp_path / "with-passwords"
    async with serving(folder, password_file=passwords) as server:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server, client_keys=None, username="alice", password="wrong")
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server, client_keys=None, username="bob", password="secret")
        async with await connect(server, client_keys=None, username="alice",
                                 password="secret") as conn:
            await conn.run(encoding="utf-8")
    entries = log_entries(folder / "ssh.log")
    assert any(e["player"] == "password:alice" for e in entries)
    assert "secret" not in (folder / "ssh.log").read_text(encoding="utf-8")


async def test_too_many_failed_keys_drop_the_connection(tmp_path: Path) -> None:
    listed = tmp_path / "authorized_keys"
    listed.write_text(new_key().export_public_key().decode(), encoding="utf-8")
    async with serving(tmp_path, auth="allow-list", authorized_keys=listed) as server:
        with pytest.raises(asyncssh.DisconnectError, match="too many authentication failures"):
            await connect(server, client_keys=[new_key() for _ in range(8)])


async def test_a_failing_app_ends_its_own_session_only(tmp_path: Path) -> None:
    crash = (sys.executable, "-c", "import sys; sys.exit(5)")
    async with serving(tmp_path / "crash", command=crash) as server, \
            await connect(server, new_key()) as conn:
        result = await conn.run(term_type="xterm", encoding="utf-8")
        assert result.exit_status == 5
    [entry] = log_entries(tmp_path / "crash" / "ssh.log")
    assert entry["ended"] == "error: the app exited with status 5"

    echo = io.StringIO()
    missing = (str(tmp_path / "no-such-program"),)
    async with serving(tmp_path / "missing", echo=echo, command=missing) as server, \
            await connect(server, new_key()) as conn:
        for _ in range(2):  # the server goes on after a session failed
            result = await conn.run(term_type="xterm", encoding="utf-8")
            assert result.exit_status == 1
            assert "something went wrong on the server" in result.stderr
        assert server.session_count == 0
    entries = log_entries(tmp_path / "missing" / "ssh.log")
    assert [e["ended"].split(":")[:2] for e in entries] == [["error", " FileNotFoundError"]] * 2
    assert "Traceback" in echo.getvalue()


# --- limits --------------------------------------------------------------------------------

@pytest.mark.parametrize(("limits", "said", "logged"), [
    ({"max_sessions": 1}, "the server is full, try again later", "refused: server full"),
    ({"sessions_per_ip": 1}, "this address has 1 session open, the most one address may have",
     "refused: too many sessions from this address")])
async def test_a_full_server_turns_the_next_session_away(tmp_path: Path, limits: dict,
                                                         said: str, logged: str) -> None:
    """Each limit says which it is: the whole server, or one address's sessions."""
    async with serving(tmp_path, **limits) as server:
        first_key = new_key()
        quiet_player(server.config, first_key)
        async with await connect(server, first_key) as first, \
                await connect(server, new_key()) as second:
            term = await Terminal.open(first)
            await term.read_until("Sit down")
            refused = await second.run(term_type="xterm", encoding="utf-8")
            assert refused.exit_status == 1
            assert said in refused.stderr
            assert server.session_count == 1
    assert any(e["ended"] == logged for e in log_entries(server.config.log))


async def test_connections_over_the_rate_are_closed_at_once(tmp_path: Path) -> None:
    async with serving(tmp_path, connections_per_minute=2) as server:
        key = new_key()
        for _ in range(2):
            async with await connect(server, key):
                pass
        for _ in range(3):
            with pytest.raises((OSError, asyncssh.Error)):
                await connect(server, key)
        await eventually(lambda: not server.state.connections, 5)
    refused = [e for e in log_entries(server.config.log) if e["ended"] == "refused: rate limit"]
    assert len(refused) == 1  # the first refusal of a run is logged, not every one


def test_rate_limiter_is_a_token_bucket_per_address() -> None:
    now = [0.0]
    limiter = RateLimiter(3, clock=lambda: now[0])
    assert [limiter.allow("10.0.0.1") for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("10.0.0.2")
    now[0] = 19.0  # 3 a minute: not yet one token back
    assert not limiter.allow("10.0.0.1")
    now[0] = 40.0  # 0.95 + 21 s × 0.05 a second: two tokens
    assert [limiter.take("10.0.0.1") for _ in range(4)] == \
        [(True, 0), (True, 0), (False, 1), (False, 2)]
    now[0] = 1000.0  # a full bucket again, never more than 3
    assert [limiter.allow("10.0.0.1") for _ in range(4)] == [True, True, True, False]


def test_session_slots_count_all_and_per_address() -> None:
    slots = SessionSlots(total=3, per_address=2)
    assert slots.acquire("1.1.1.1") and slots.acquire("1.1.1.1")
    assert not slots.acquire("1.1.1.1")
    assert slots.acquire("2.2.2.2")
    assert not slots.acquire("3.3.3.3")
    slots.release("1.1.1.1")
    assert slots.acquire("3.3.3.3")
    slots.release("9.9.9.9")  # never acquired: no effect
    assert slots.used == 3


def test_addresses_are_counted_per_ipv4_address_and_ipv6_network() -> None:
    assert client_key("192.0.2.7") == "192.0.2.7"
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key("2001:db8::1") == client_key("2001:db8::ffff:2") == "2001:db8::/64"
    assert client_key("2001:db8:0:1::1") != client_key("2001:db8::1")


# --- config, keys and passwords ------------------------------------------------------------

def write(tmp_path: Path, text: str, name: str = "server.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_gives_the_defaults_and_the_options_override() -> None:
    config = load_server_config()
    assert (config.host, config.port, config.auth) == ("127.0.0.1", 2222, "open")
    assert (config.max_sessions, config.sessions_per_ip, config.connections_per_minute) == \
        (20, 4, 20)
    assert (config.login_timeout, config.idle_timeout) == (30, 900)
    assert config.password_file is None and config.host_key.name == "ssh_host_ed25519_key"
    assert load_server_config(host="0.0.0.0", port=0).port == 0


def test_the_example_file_loads(tmp_path: Path) -> None:
    config = load_server_config(REPO / "ssh-server.toml")
    assert isinstance(config, ServerConfig) and config.auth == "open"


def test_a_file_sets_every_key_with_paths_relative_to_it(tmp_path: Path) -> None:
    write(tmp_path, "alice:" + hash_password("pw") + "\n", "passwords")
    write(tmp_path, new_key().export_public_key().decode(), "keys")
    path = write(tmp_path, '[server]\nhost = "0.0.0.0"\nport = 2200\nauth = "allow-list"\n'
                           'authorized_keys = "keys"\npassword_file = "passwords"\n'
                           'host_key = "hk"\nhistory = "/abs/h.sqlite3"\nplayers_dir = "p"\n'
                           'log = "l.log"\nmax_sessions = 5\nsessions_per_ip = 2\n'
                           'connections_per_minute = 6\nlogin_timeout = 10\n'
                           'idle_timeout = 0\nkeepalive_interval = 15\nkeepalive_count_max = 2\n')
    config = load_server_config(path, port=2300)
    assert config.port == 2300 and config.host == "0.0.0.0"
    assert config.authorized_keys == tmp_path / "keys" and config.host_key == tmp_path / "hk"
    assert config.history == Path("/abs/h.sqlite3") and config.log == tmp_path / "l.log"
    assert (config.max_sessions, config.idle_timeout, config.keepalive_count_max) == (5, 0, 2)


@pytest.mark.parametrize(("text", "line", "message"), [
    ('[server]\nport = "22"\n', 2, "server.port: expected a port number"),
    ('[server]\nport = 70000\n', 2, "server.port: expected a port number"),
    ('[server]\n\nmax_session = 3\n', 3, "server.max_session: unknown key; known keys are"),
    ('[server]\nauth = "allow-list"\n', 2, "server.auth: \"allow-list\" needs authorized_keys"),
    ('[server]\nauthorized_keys = "k"\n', 2, "server.authorized_keys: only used with auth"),
    ('[server]\nauth = "closed"\n', 2, "server.auth: expected one of 'open', 'allow-list'"),
    ('[server]\nsessions_per_ip = 0\n', 2, "server.sessions_per_ip: expected a whole number"),
    ('[server]\nlogin_timeout = 0\n', 2, "server.login_timeout: expected a number of seconds"),
    ('[server]\nidle_timeout = -1\n', 2, "server.idle_timeout: expected a number of seconds"),
    ('[server]\npassword_file = "missing"\n', 2, "is not a readable file"),
    ('[server]\nhost = ""\n', 2, "server.host: expected an address"),
    ('port = 2222\n', 1, "port: unknown key; the file has a [server] table and a [web] table"),
    ('[server]\nport = \n', 2, "not valid TOML"),
])
def test_config_errors_are_one_line_with_the_file_and_line(tmp_path: Path, text: str,
                                                           line: int, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ServeError) as caught:
        load_server_config(path)
    error = str(caught.value)
    assert "\n" not in error
    assert error.startswith(f"{path}:{line}: ") and message in error


def test_the_host_key_is_made_once_private_and_then_reused(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "host"
    key = load_or_create_host_key(path)
    assert path.stat().st_mode & 0o777 == 0o600
    assert load_or_create_host_key(path).get_fingerprint() == key.get_fingerprint()
    path.chmod(0o644)
    with pytest.raises(ServeError, match="readable by other users"):
        load_or_create_host_key(path)


async def test_the_server_keeps_its_host_key_across_restarts(tmp_path: Path) -> None:
    first = await start_server(server_config(tmp_path), echo=io.StringIO())
    await first.stop()
    second = await start_server(server_config(tmp_path), echo=io.StringIO())
    await second.stop()
    assert first.host_key_fingerprint == second.host_key_fingerprint
    assert first.describe().startswith("trash serve: listening on 127.0.0.1:")
    assert f"host key {first.host_key_fingerprint}; auth open" in first.describe()


def test_password_file_checks_and_errors(tmp_path: Path) -> None:
    path = write(tmp_path, f"# players\n\nalice:{hash_password('pw')}\n", "passwords")
    passwords = PasswordFile(path)
    assert passwords.check("alice", "pw")
    assert not passwords.check("alice", "Pw") and not passwords.check("bob", "pw")
    write(tmp_path, "alice:plaintext\n", "passwords")
    with pytest.raises(ServeError, match=r"passwords:1: expected scrypt\$N\$r\$p\$salt\$hash"):
        PasswordFile(path)
    write(tmp_path, "\nno colon here\n", "passwords")
    with pytest.raises(ServeError, match=r"passwords:2: expected user:<hash>"):
        PasswordFile(path)


def test_allow_list_errors_name_the_line_and_a_broken_edit_keeps_the_old_keys(
        tmp_path: Path) -> None:
    private = new_key()
    key = private.convert_to_public()
    path = write(tmp_path, "# nobody yet\n", "keys")
    allow = AllowList(path)
    assert allow.count == 0 and not allow.allows(key, "h", "10.0.0.1")
    write(tmp_path, private.export_public_key().decode(), "keys")
    os.utime(path, ns=(2, 2))
    assert allow.allows(key, "h", "10.0.0.1") and allow.count == 1
    write(tmp_path, private.export_public_key().decode() + "ssh-ed25519 garbage\n", "keys")
    os.utime(path, ns=(3, 3))
    assert allow.allows(key, "h", "10.0.0.1")
    assert allow.problem is not None and f"{path}:2: not a public key line" in allow.problem
    with pytest.raises(ServeError, match=r"keys:2: not a public key line"):
        AllowList(path)


# --- the command ---------------------------------------------------------------------------

def test_hash_password_prints_a_password_file_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(serve_group, ["hash-password", "alice"], input="pw\npw\n")
    assert result.exit_code == 0, result.output
    line = result.stdout.strip().splitlines()[-1]
    assert line.startswith("alice:scrypt$")
    write(tmp_path, line + "\n", "passwords")
    assert PasswordFile(tmp_path / "passwords").check("alice", "pw")
    bad = CliRunner().invoke(serve_group, ["hash-password", "a:b"], input="pw\npw\n")
    assert bad.exit_code == 2 and "colon" in bad.output


def test_a_bad_config_is_a_click_error(tmp_path: Path) -> None:
    path = write(tmp_path, "[server]\nport = -1\n")
    with pytest.raises(click.ClickException) as caught:
        serve_group.main(["--config", str(path)], standalone_mode=False)
    assert caught.value.format_message().startswith(f"{path}:2: server.port:")


def test_trash_serve_starts_and_stops_on_sigterm(tmp_path: Path) -> None:
    config = write(tmp_path, '[server]\nport = 0\nhost_key = "hk"\nlog = "ssh.log"\n'
                             'history = "h.sqlite3"\nplayers_dir = "players"\n')
    code = ("import sys; from trash_tui.cli.serve_cmd import serve_group; "
            "serve_group.main(sys.argv[1:], prog_name='trash serve')")
    server = subprocess.Popen([sys.executable, "-c", code, "--config", str(config)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        assert first.startswith("trash serve: listening on 127.0.0.1:")
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=20)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 0, err
    assert out.strip() == "trash serve: stopped (0 sessions ended)"
