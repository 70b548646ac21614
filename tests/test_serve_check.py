"""``trash serve --check`` (and ``trash admin check``), issue 37: the server's config and
data folder checked without starting anything, one line per problem, exit status 0 with
one "all fine" line, 1 otherwise. What a valid config is comes from the server's own
reader (``trash_tui.ssh.config``)."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from serve_process import TRASH, Serve, namespace_problem

from trash_tui.cli.main import cli
from trash_tui.history.players import RATED_VERSION

CONTAINER_ID = "3f2a9c1b7d4e"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def good_config(folder: Path, **lines: str) -> Path:
    """A config whose data folder is ``folder``; ``lines`` add or replace keys."""
    keys = {"host": '"0.0.0.0"', "port": str(free_port()),
            "public_host": '"games.example.org"', "history": '"data/history.sqlite3"',
            "host_key": '"data/ssh_host_ed25519_key"', "players_dir": '"data/players"',
            "log": '"data/ssh.log"', **lines}
    path = folder / "ssh-server.toml"
    path.write_text("[server]\n" + "".join(f"{key} = {value}\n" for key, value
                                            in keys.items() if value), encoding="utf-8")
    return path


def check(path: Path, *how: str, env: dict[str, str] | None = None) -> tuple[int, list[str]]:
    runner = CliRunner()
    args = ["admin", "--config", str(path), "check"] if how == ("admin",) else \
        ["serve", "--config", str(path), "--check"]
    result = runner.invoke(cli, args, env=env)
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output.splitlines()


@pytest.mark.parametrize("how", [(), ("admin",)])
def test_a_good_config_is_all_fine_and_nothing_is_started_or_made(tmp_path: Path,
                                                                   how: tuple[str, ...]
                                                                   ) -> None:
    path = good_config(tmp_path)
    status, lines = check(path, *how)
    assert status == 0, lines
    assert len(lines) == 1 and "all fine" in lines[0]
    assert "CODE@games.example.org" in lines[0]  # what players will be told
    assert not (tmp_path / "data").exists()  # no host key, database, log or socket made


def test_every_problem_is_one_line_and_the_status_is_1(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "ssh_host_ed25519_key").write_text("not a key\n")
    (data / "ssh_host_ed25519_key").chmod(0o600)
    (data / "history.sqlite3").write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    (tmp_path / "afile").write_text("")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        path = good_config(tmp_path, host='"127.0.0.1"', port=str(port),
                           max_sessions="0", colour='"green"', idle_timeout='"soon"',
                           players_dir='"afile/players"', motd_file='"motd.txt"')
        status, lines = check(path)
    assert status == 1
    text = "\n".join(lines)
    for said in ("server.max_sessions: expected a whole number",
                 "server.colour: unknown key",
                 "server.idle_timeout: expected a number of seconds",
                 "cannot read the host key",
                 "history.sqlite3: damaged",
                 "afile",  # the players folder cannot be made
                 "motd.txt",  # the motd file is missing
                 f"127.0.0.1:{port}: in use"):
        assert sum(said in line for line in lines) == 1, (said, text)
    assert "all fine" not in text
    assert lines[-1].startswith("trash serve --check: 8 problems")
    assert (data / "ssh_host_ed25519_key").read_text() == "not a key\n"  # left as it was


def test_a_history_database_from_a_newer_version_is_named(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    with sqlite3.connect(tmp_path / "data" / "history.sqlite3") as db:
        db.execute("CREATE TABLE matches (id INTEGER PRIMARY KEY)")
        db.execute(f"PRAGMA user_version = {RATED_VERSION + 5}")
    status, lines = check(good_config(tmp_path))
    assert status == 1
    assert any("newer version of trash-tui" in line for line in lines), lines


def test_an_unreadable_toml_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "ssh-server.toml"
    path.write_text("[server\nport = 2\n")
    status, lines = check(path)
    assert status == 1 and len(lines) == 2 and "ssh-server.toml:1" in lines[0], lines


def test_a_container_hostname_as_public_host_is_a_problem(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "gethostname", lambda: CONTAINER_ID)
    monkeypatch.setattr(socket, "getfqdn", lambda name="": CONTAINER_ID)
    status, lines = check(good_config(tmp_path, public_host=""))
    assert status == 1
    [problem] = [line for line in lines if "public_host" in line]
    assert CONTAINER_ID in problem and "set public_host" in problem
    assert "all fine" in check(good_config(tmp_path))[1][0]  # set: fine
    status, lines = check(good_config(tmp_path, public_host=""),  # as the container sets it
                          env={"TRASH_PUBLIC_HOST": "games.example.org"})
    assert status == 0 and "CODE@games.example.org" in lines[0], lines


def test_a_read_only_data_folder_is_named(tmp_path: Path) -> None:
    """As root every folder looks writable to a mode check: the data folder is made
    read-only by a mount (in a namespace of its own), and --check tries a file in it."""
    if why := namespace_problem("-m"):
        pytest.skip(why)
    data = tmp_path / "data"
    data.mkdir()
    path = good_config(tmp_path)
    shell = (f"mount --bind {data} {data} && mount -o remount,bind,ro {data} && "
             f'exec "$@"')
    ran = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", shell,
                          "sh", TRASH, "serve", "--config", str(path), "--check"],
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 1, ran
    problems = ran.stdout.splitlines()[:-1]
    assert problems and all("Read-only file system" in line for line in problems), problems
    assert any("the history database" in line for line in problems)


def test_with_the_server_running_its_own_ports_are_not_problems(tmp_path: Path) -> None:
    """An edited config is checked before a reload: the running server's port is its own."""
    path = good_config(tmp_path, host='"127.0.0.1"')
    serve = Serve(tmp_path, ["--config", str(path)])
    try:
        serve.wait_for("listening on")
        status, lines = check(path)
    finally:
        assert serve.stop() == 0
    assert status == 0 and "a server is running" in lines[0], lines
    with socket.socket() as taken:  # stopped: the port is checked again
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        status, lines = check(good_config(tmp_path, host='"127.0.0.1"',
                                          port=str(taken.getsockname()[1])))
    assert status == 1 and "in use" in lines[0], lines
