"""The admin console's socket (issue 26): for the server's own user only, bounded, and
garbage on it leaves the server unharmed; ``trash admin`` itself (the health check)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from admin_helpers import admin, admin_ok
from ssh_helpers import server_config, serving

from trash_tui.admin import console
from trash_tui.admin.console import MAX_REQUEST, reachable
from trash_tui.ssh.config import ServeError
from trash_tui.ssh.server import start_server


def raw(path: Path, data: bytes, close_write: bool = True, timeout: float = 10.0) -> bytes:
    """Send ``data`` to the socket as it is; what comes back until it closes."""
    with reachable(path) as address, socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(timeout)
        sock.connect(address)
        with contextlib.suppress(OSError):
            sock.sendall(data)
            if close_write:
                sock.shutdown(socket.SHUT_WR)
        answer = bytearray()
        while chunk := sock.recv(65536):
            answer += chunk
        return bytes(answer)


def one_error(answer: bytes) -> str:
    """The error of a one-line answer."""
    assert answer.count(b"\n") == 1 and answer.endswith(b"\n"), answer
    reply = json.loads(answer)
    assert reply["ok"] is False and "\n" not in reply["error"], reply
    return str(reply["error"])


async def test_the_socket_is_the_owners_only_and_refuses_another_user(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        path = server.config.admin_path
        assert path.parent == tmp_path  # in the server's data folder
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert (await admin_ok(server, "stats"))["data"]["sessions"] == {}
        server.state.console.allowed_uid = os.geteuid() + 4242  # as if we were another user
        error = one_error(await asyncio.to_thread(raw, path, b'{"command": "who"}\n'))
        assert "refused" in error and "user who runs the server" in error
        server.state.console.allowed_uid = os.geteuid()
        assert (await admin_ok(server, "who"))["text"] == "nobody is on"


SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin:/bin")  # one any user may run


@pytest.mark.skipif(os.geteuid() != 0 or SYSTEM_PYTHON is None,
                    reason="needs root (and a system python3) to run a process as another user")
async def test_a_process_of_another_user_is_refused_even_when_the_socket_lets_it_in(
        tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="trash-admin-"))  # (pytest's folders are 0700)
    try:
        folder.chmod(0o755)
        async with serving(tmp_path, admin_socket=folder / "admin.sock") as server:
            server.config.admin_path.chmod(0o666)  # as if the operator loosened it
            probe = ("import socket, sys; s = socket.socket(socket.AF_UNIX); "
                     "s.connect(sys.argv[1]); print(s.recv(4096).decode(), end='')")
            ran = await asyncio.to_thread(
                subprocess.run, [str(SYSTEM_PYTHON), "-c", probe, str(server.config.admin_path)],
                capture_output=True, text=True, timeout=30, user=65534, group=65534)
            assert ran.returncode == 0, ran.stderr
            assert "refused" in one_error(ran.stdout.encode())
            assert (await admin_ok(server, "who"))["ok"]  # its own user still gets in
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def test_garbage_on_the_socket_gets_one_line_and_the_server_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console, "REQUEST_TIMEOUT", 0.5)  # (5 s on a real server)
    async with serving(tmp_path) as server:
        path = server.config.admin_path
        garbage = [b"\x00\xff\x1b[2J not json\n", b"[1, 2, 3]\n", b'{"command": 7}\n',
                   b'{"command": "who", "args": []}\n', b'{"command": "rm -rf"}\n',
                   b'{"command": "_figures"}\n', b"no newline at all",
                   b"{" * 5000 + b"\n", b"x" * (MAX_REQUEST + 10) + b"\n"]
        for data in garbage:
            error = one_error(await asyncio.to_thread(raw, path, data))
            assert "\x1b" not in error and len(error) <= 500
        assert "no such command" in one_error(
            await asyncio.to_thread(raw, path, b'{"command": "rm -rf"}\n'))
        # a client that says nothing is cut off after the request timeout, one line
        silent = asyncio.to_thread(raw, path, b"", False)
        # many at once: at most MAX_CONNECTIONS are served, the others told so
        crowd = [asyncio.to_thread(raw, path, b'{"command": "stats"}\n') for _ in range(12)]
        answers = await asyncio.gather(silent, *crowd)
        assert "no request within" in one_error(answers[0])
        assert all(json.loads(a)["ok"] or "busy" in json.loads(a)["error"]
                   for a in answers[1:])
        bad_args = await admin(server, "say", text=["not", "text"])
        assert not bad_args["ok"] and "text" in bad_args["error"]
        reply = await admin_ok(server, "stats")  # unharmed
        assert reply["data"]["errors_logged"] >= 0


async def test_trash_admin_prints_the_answer_and_fails_in_one_line_without_a_server(
        tmp_path: Path) -> None:
    command = [sys.executable, "-m", "trash_tui.cli.main", "admin", "--socket"]
    async with serving(tmp_path) as server:
        path = str(server.config.admin_path)
        ran = await asyncio.to_thread(subprocess.run, [*command, path, "stats", "--json"],
                                      capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0, ran.stderr
        assert json.loads(ran.stdout)["sessions_started"] == 0
        ran = await asyncio.to_thread(subprocess.run, [*command, path, "kick", "Nobody"],
                                      capture_output=True, text=True, timeout=60)
        assert ran.returncode == 2
        assert ran.stderr == "trash: error: no session of 'Nobody' is on\n"
    ran = subprocess.run([*command, path, "stats"], capture_output=True, text=True,
                         timeout=60)
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1
    assert "no server is running" in ran.stderr


async def test_a_second_server_on_the_same_data_folder_is_refused_and_a_stale_socket_cleared(
        tmp_path: Path) -> None:
    async with serving(tmp_path):
        with pytest.raises(ServeError, match="another server is running with this data "
                                             "folder"):
            await start_server(server_config(tmp_path))
    stale = socket.socket(socket.AF_UNIX)  # a socket file nobody answers on (a crash)
    with reachable(tmp_path / "admin.sock") as address:
        stale.bind(address)
    stale.close()
    async with serving(tmp_path) as server:
        assert (await admin_ok(server, "stats"))["ok"]
