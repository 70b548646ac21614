"""Helpers for the tests that run ``trash serve`` as a real process (and send it real
signals): a config in a folder, the process, its output, waiting for a line in it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

TRASH = str(Path(sys.executable).with_name("trash"))


def write_config(folder: Path, **keys: str) -> Path:
    """``folder/ssh-server.toml``: every path in ``folder/data``, port 0, on 127.0.0.1;
    ``keys`` (TOML values as text) add or replace keys, "" removes one."""
    values = {"host": '"127.0.0.1"', "port": "0", "public_host": '"games.example.org"',
              "history": '"data/history.sqlite3"', "host_key": '"data/ssh_host_ed25519_key"',
              "players_dir": '"data/players"', "log": '"data/ssh.log"', "idle_timeout": "0",
              **keys}
    path = folder / "ssh-server.toml"
    path.write_text("[server]\n" + "".join(f"{key} = {value}\n" for key, value
                                            in values.items() if value), encoding="utf-8")
    return path


def namespace_problem(kind: str) -> str | None:
    """None when this machine lets the tests make a namespace of ``kind`` (``-m`` mount,
    ``-u`` host name) as root; else why not (the test is skipped)."""
    if os.geteuid() != 0:
        return "making a namespace needs root"
    if shutil.which("unshare") is None:
        return "no unshare (util-linux)"
    made = subprocess.run(["unshare", kind, "true"], capture_output=True, text=True,
                          timeout=30)
    if made.returncode != 0:
        return f"no namespace here ({made.stderr.strip() or made.returncode})"
    return None


class Serve:
    """A ``trash serve`` process (``prefix`` runs before it, e.g. ``unshare``), its stdout
    and stderr in files in ``folder``."""

    def __init__(self, folder: Path, args: list[str], shell: str | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.out = folder / "serve.out"
        self.err = folder / "serve.err"
        command = [TRASH, "serve", *args]
        if shell is not None:  # a shell line ending in ``exec "$@"``
            command = ["sh", "-c", shell, "sh", *command]
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.process = subprocess.Popen(command, stdout=out, stderr=err,
                                            env=env or dict(os.environ))

    def output(self) -> str:
        return self.out.read_text(errors="replace") + self.err.read_text(errors="replace")

    def wait_for(self, text: str, timeout: float = 30.0, since: int = 0) -> str:
        """The output once ``text`` is in it (after character ``since``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            output = self.output()
            if text in output[since:]:
                return output
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"no {text!r} in the server's output: {self.output()!r}")

    def signal(self, number: int) -> None:
        self.process.send_signal(number)

    def stop(self, timeout: float = 20.0) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout)

    def port(self) -> int:
        line = self.wait_for("listening on")
        return int(line.split("listening on ", 1)[1].split(" ", 1)[0].rsplit(":", 1)[1])
