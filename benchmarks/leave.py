"""Leaving a shared table while bots play: from the second esc to the Tables screen.

``trash serve`` runs as its own process (``ServerProcess`` of benchmarks/tables.py), at
the server's own pace: a bot's move every 0.8 s. One player connects with the real OpenSSH
client in a tmux pane of 80×24, creates a table (``t``, ``n``, ctrl+s: herself, an open
seat and two bots) and starts it (``s``: the open seat is the stand-in's, so three bots
play). Then, ``--tries`` times: once a bot is to play she presses esc, reads the question
``--read`` seconds while the bots play on, and presses esc again; measured, with
``time.perf_counter`` and the pane's text read every 10 ms (``tmux capture-pane``): the time
from that key to the screen showing the Tables screen's title, and to the list showing
her table. Then enter takes her back to her seat for the next try (her own turns she
plays with the first key the status line offers).

Printed: the median and the worst of both times, the bots' moves saved while she read
(each try's second esc answers a question the table moved under), and any try that
failed (which stage, the screen's last words).

    python benchmarks/leave.py [--tries N] [--read SECONDS]
"""

from __future__ import annotations

import sys
from pathlib import Path

# benchmarks/bots.py shares its name with the ``bots`` package: never import it by mistake.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import asyncio
import importlib.util
import os
import re
import shlex
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import time
import uuid
from typing import Any

import asyncssh

from trash_tui.players.rater import open_history
from trash_tui.ssh.session import settings_file

WIDTH, HEIGHT = 80, 24
NAME = "Ann"
STAGE = 60.0  # seconds any one stage may take
POLL = 0.01  # seconds between two reads of the pane
TITLE = "Tables on this server"
LISTED = "playing deal"  # her table's status in the list
QUESTION = "Leave the table?"


class Failed(Exception):
    """A try did not get through a stage; the message says which, and the screen."""


def tables_benchmark() -> Any:
    """``benchmarks/tables.py``, loaded from beside this file (this folder is not on the
    import path: its ``bots.py`` would hide the ``bots`` package)."""
    spec = importlib.util.spec_from_file_location(
        "tables_benchmark", Path(__file__).with_name("tables.py"))
    assert spec is not None and spec.loader is not None
    module = sys.modules["tables_benchmark"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def flat(text: str) -> str:
    """Screen text with every run of whitespace one space (a wrapped line reads whole)."""
    return " ".join(text.split())


class Pane:
    """A detached tmux session on a private socket, running the ssh client."""

    def __init__(self, folder: Path) -> None:
        self.socket = f"trash-bench-{uuid.uuid4().hex[:12]}"
        self.env = {name: value for name, value in os.environ.items()
                    if name not in ("TMUX", "TMUX_PANE", "SSH_AUTH_SOCK", "SSH_AGENT_PID")}
        self.env.update({"TERM": "xterm-256color", "LANG": "C.UTF-8", "SHELL": "/bin/sh",
                         "HOME": str(folder)})

    def tmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-u", "-L", self.socket, "-f", "/dev/null", *args],
                              env=self.env, capture_output=True, text=True, timeout=10,
                              check=False)

    def start(self, command: str) -> None:
        result = self.tmux("new-session", "-d", "-s", "bench", "-x", str(WIDTH),
                           "-y", str(HEIGHT), command)
        if result.returncode != 0:
            raise SystemExit(f"tmux new-session failed: {result.stderr.strip()}")

    def text(self) -> str:
        return flat(self.tmux("capture-pane", "-p", "-t", "bench").stdout)

    def press(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "bench", *keys)

    def wait(self, *needles: str, timeout: float = STAGE) -> float:
        """Wait until the screen shows every one of ``needles``: when it was seen."""
        deadline = time.perf_counter() + timeout
        while True:
            text = self.text()
            if all(needle in text for needle in needles):
                return time.perf_counter()
            if time.perf_counter() > deadline:
                raise Failed(f"no {needles} after {timeout:g} s: ...{text[-300:]}")
            time.sleep(POLL)

    def kill(self) -> None:
        self.tmux("kill-server")


def ssh_command(key: Path, port: int, folder: Path) -> str:
    ssh = ["ssh", "-F", "/dev/null", "-i", str(key), "-o", "IdentitiesOnly=yes",
           "-o", "IdentityAgent=none", "-o", "StrictHostKeyChecking=no",
           "-o", f"UserKnownHostsFile={folder / 'known_hosts'}",
           "-o", "GlobalKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
           "-o", "LogLevel=ERROR", "-p", str(port), "-t", "player@127.0.0.1"]
    client = ["env", "TERM=xterm-256color", "LANG=C.UTF-8", *ssh]
    return f"{shlex.join(client)} 2> {shlex.quote(str(folder / 'ssh.err'))}"


def saved_moves(history: Path) -> int:
    with sqlite3.connect(f"file:{history}?mode=ro", uri=True, timeout=5.0) as db:
        row = db.execute("SELECT actions FROM matches ORDER BY id DESC LIMIT 1").fetchone()
    return int(row[0]) if row else 0


def bots_to_play(pane: Pane) -> None:
    """Play her own turns (the first key offered) until a bot is to play."""
    asked = re.compile(rf"Your move, {NAME} — (\S): ")
    wild = re.compile(rf"Your move, {NAME} — Wild: .*?\(free: (\d+)")
    deadline = time.perf_counter() + STAGE
    while time.perf_counter() < deadline:
        text = pane.text()
        if "The match is over" in text:
            raise Failed("the match ended")
        found, slot = asked.search(text), wild.search(text)
        if found or slot:
            pane.press(found.group(1) if found else str(int(slot.group(1)) % 10))
            time.sleep(0.5)
        elif "is playing" in text:
            return
        time.sleep(0.1)
    raise Failed(f"no bot's turn in {STAGE:g} s: ...{pane.text()[-300:]}")


def one_try(pane: Pane, history: Path, read: float) -> tuple[float, float, int]:
    """esc, read, esc: (seconds to the title, to her table listed, bots' moves read)."""
    bots_to_play(pane)
    pane.press("Escape")
    pane.wait(QUESTION)
    moves = saved_moves(history)
    time.sleep(read)
    moved = saved_moves(history) - moves
    if QUESTION not in pane.text():
        raise Failed(f"the question went by itself: ...{pane.text()[-300:]}")
    pressed = time.perf_counter()
    pane.press("Escape")
    title = pane.wait(TITLE, timeout=15.0) - pressed
    listed = pane.wait(TITLE, LISTED, timeout=15.0) - pressed
    pane.press("Enter")  # her table, the list's only row: back at her seat
    pane.wait("Discard")
    return title, listed, moved


def bench(tries: int, read: float) -> None:
    tables = tables_benchmark()
    folder = Path(tempfile.mkdtemp(prefix="trash-bench-leave-"))
    server = tables.ServerProcess(folder, 4)
    pane = Pane(folder)
    try:
        asyncio.run(server.start())
        key = asyncssh.generate_private_key("ssh-ed25519")
        key_path = folder / "id"
        key.write_private_key(str(key_path))
        key_path.chmod(0o600)
        with open_history(server.history) as history:
            history.players.register_player(key.get_fingerprint("sha256"), NAME)
        settings = settings_file(server.players_dir, key.get_fingerprint("sha256"))
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text('[app]\nanimation = "off"\n', encoding="utf-8")

        pane.start(ssh_command(key_path, server.port, folder))
        pane.wait("New match")
        for key_name, then in (("t", TITLE), ("n", "A new table"), ("C-s", "Start now"),
                               ("s", "Discard")):
            pane.press(key_name)
            pane.wait(then)
        titles, lists, moved, failures = [], [], [], []
        for number in range(1, tries + 1):
            try:
                title, listed, moves = one_try(pane, server.history, read)
            except Failed as failure:
                failures.append(f"try {number}: {failure}")
                if "match ended" in str(failure):
                    break
                continue
            titles.append(title)
            lists.append(listed)
            moved.append(moves)
            print(f"try {number}: {moves} bot moves while reading; second esc to the title "
                  f"{title * 1000:.0f} ms, to her table listed {listed * 1000:.0f} ms",
                  flush=True)
    finally:
        pane.kill()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"\n{len(titles)} of {tries} tries left the table with the second esc "
          f"(read {read:g} s; bots' moves saved meanwhile: "
          f"{min(moved, default=0)}–{max(moved, default=0)})")
    for label, values in (("to the Tables screen", titles),
                          ("to her table in its list", lists)):
        if values:
            print(f"second esc {label}: median {statistics.median(values) * 1000:.0f} ms, "
                  f"max {max(values) * 1000:.0f} ms")
    for failure in failures:
        print(f"FAILED {failure}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=10, help="leaves measured")
    parser.add_argument("--read", type=float, default=2.5,
                        help="seconds between the two escs (the bots play on)")
    args = parser.parse_args()
    if shutil.which("ssh") is None or shutil.which("tmux") is None:
        raise SystemExit("needs the OpenSSH client (ssh) and tmux")
    bench(args.tries, args.read)


if __name__ == "__main__":
    main()
