"""SIGHUP reloads ``trash serve`` instead of killing it (issue 37 item 10): a real server
process, real signals. It rereads the config (what is read live takes effect, what needs
a restart is named and the running value kept), the message of the day's file, and
reopens the connection log (logrotate without copytruncate: after ``mv ssh.log
ssh.log.1`` the next lines go to a new ``ssh.log``). A broken config keeps the running
one, with one line saying why. ``trash admin reload`` does the same and tells it."""

from __future__ import annotations

import io
import json
import signal
import socket
import subprocess
import time
from pathlib import Path

from serve_process import TRASH, Serve, write_config

from trash_tui.ssh.config import load_server_config
from trash_tui.ssh.server import start_server


def touch_server(port: int) -> None:
    """A TCP connection that closes before logging in: one line in the connection log."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.recv(100)  # the server's version line


def logged(path: Path, count: int, timeout: float = 10.0) -> list[dict[str, object]]:
    deadline = time.monotonic() + timeout
    while True:
        lines = [json.loads(line) for line in path.read_text().splitlines()] \
            if path.exists() else []
        if len(lines) >= count or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


def admin(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TRASH, "admin", "--config", str(config), *args],
                          capture_output=True, text=True, timeout=30)


def reload_line(serve: Serve, since: int) -> str:
    """The one line the server logged for the SIGHUP sent after output ``since``."""
    output = serve.wait_for("reload", since=since)
    [line] = [line for line in output[since:].splitlines() if "reload" in line]
    return line


def test_sighup_reloads_the_config_the_motd_and_the_log(tmp_path: Path) -> None:
    motd = tmp_path / "motd.txt"
    motd.write_text("Cup final at 8 pm\n")
    config = write_config(tmp_path, motd_file='"motd.txt"', max_sessions="20")
    log = tmp_path / "data" / "ssh.log"
    serve = Serve(tmp_path, ["--config", str(config)])
    try:
        port = serve.port()
        assert admin(config, "motd").stdout.strip() == "Cup final at 8 pm"
        touch_server(port)
        assert len(logged(log, 1)) == 1

        # logrotate without copytruncate: the file is renamed, then SIGHUP
        log.rename(log.with_name("ssh.log.1"))
        motd.write_text("Cup final moved\nto 9 pm\n")
        config.write_text(config.read_text().replace("max_sessions = 20", "max_sessions = 30")
                          .replace("port = 0", f"port = {port + 1}"))
        since = len(serve.output())
        serve.signal(signal.SIGHUP)
        line = reload_line(serve, since)
        assert "max_sessions 20 → 30" in line and "motd" in line, line
        assert "restart" in line and "port" in line, line
        assert serve.process.poll() is None  # alive
        assert admin(config, "motd").stdout.strip() == "Cup final moved to 9 pm"
        touch_server(port)  # still on the port it listened on
        assert len(logged(log, 1)) == 1  # a new ssh.log
        assert len(logged(log.with_name("ssh.log.1"), 1)) == 1  # the old one left alone

        # a broken config: the running one stays, one line says why
        config.write_text(config.read_text().replace("max_sessions = 30",
                                                     'max_sessions = "many"'))
        since = len(serve.output())
        serve.signal(signal.SIGHUP)
        line = reload_line(serve, since)
        assert "server.max_sessions" in line and "running config stays" in line, line
        assert serve.process.poll() is None
        touch_server(port)
        assert len(logged(log, 2)) == 2

        # the console does the same and tells it
        config.write_text(config.read_text().replace('max_sessions = "many"',
                                                     "max_sessions = 25"))
        told = admin(config, "reload")
        assert told.returncode == 0 and "max_sessions 30 → 25" in told.stdout, told
    finally:
        status = serve.stop()
    assert status == 0, serve.output()
    assert "Traceback" not in serve.output()


async def test_a_reload_puts_the_live_values_in_force_and_keeps_the_others(
        tmp_path: Path) -> None:
    """What the message says is what the server does (in-process, the same reload)."""
    config_path = write_config(tmp_path, max_sessions="20", sessions_per_ip="4",
                               chat_per_minute="12", connections_per_minute="20")
    server = await start_server(load_server_config(config_path), echo=io.StringIO())
    try:
        state = server.state
        text = config_path.read_text()
        for old, new in (("max_sessions = 20", "max_sessions = 7"),
                         ("sessions_per_ip = 4", "sessions_per_ip = 2"),
                         ("chat_per_minute = 12", "chat_per_minute = 3"),
                         ("connections_per_minute = 20", "connections_per_minute = 60"),
                         ('"games.example.org"', '"play.example.org"'),
                         ('log = "data/ssh.log"', 'log = "data/other.log"'),
                         ("idle_timeout = 0", "idle_timeout = 60\nmetrics = 9999")):
            text = text.replace(old, new)
        config_path.write_text(text)
        line = await state.reload()
        assert (state.slots.total, state.slots.per_address) == (7, 2)
        assert state.tables.limits.chat_per_minute == 3
        assert state.rate.per_minute == 60 and state.config.idle_timeout == 60
        assert state.tables.public_address == ("play.example.org", server.port)
        assert state.config.metrics is None and "metrics none → 127.0.0.1:9999" in line
        assert state.log.path == tmp_path / "data" / "other.log"
        again = await state.reload()  # nothing new: only what still waits for a restart
        assert again.startswith("trash serve: reloaded (SIGHUP): needs a restart"), again
    finally:
        await server.stop(grace=3.0)
