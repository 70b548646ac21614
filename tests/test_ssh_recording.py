"""Recordings of sessions (issue 37), opt-in: ``record_sessions = true`` writes what each
session draws as an asciicast v2 file (a JSON header line, then ``[time, "o", text]``
lines; ``"r"`` for a window change) in ``recordings/`` of the data folder, 0600; files
older than ``recordings_days`` are deleted; a recording stops at ``recording_max_mb``.

A real session (an asyncssh client running the real app) on a real server.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from ssh_helpers import screen_text
from table_ssh_helpers import Player, enter_lobby, table_server, wait_until

from trash_tui.ssh import recording
from trash_tui.ssh.config import ServeError, load_server_config

TABLES_TITLE = "Tables on this server"


def casts(folder: Path) -> list[Path]:
    return sorted((folder / "recordings").glob("*.cast"))


def read_cast(path: Path) -> tuple[dict[str, Any], list[list[Any]]]:
    """The header and the events of an asciicast v2 file, each line checked."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    events = [json.loads(line) for line in lines[1:]]
    for event in events:
        assert isinstance(event, list) and len(event) == 3, event
        assert isinstance(event[0], float | int) and event[1] in ("o", "r"), event
        assert isinstance(event[2], str)
    times = [event[0] for event in events]
    assert times == sorted(times) and times[0] >= 0
    return header, events


def asciinema() -> str | None:
    """The asciinema player's command, where it is installed (beside this Python or on
    the PATH)."""
    beside = Path(sys.executable).parent / "asciinema"
    return str(beside) if beside.exists() else shutil.which("asciinema")


async def test_a_recorded_session_is_asciicast_v2_and_holds_what_the_player_saw(
        tmp_path: Path) -> None:
    async with table_server(tmp_path, record_sessions=True) as server:
        ann = Player(server, "Ann")
        await enter_lobby(ann, server)
        await ann.press("t")
        await ann.sees(TABLES_TITLE)
        assert ann.process is not None
        ann.process.change_terminal_size(120, 40)
        await asyncio.sleep(1.0)
        await ann.close()
        await wait_until(lambda: server.session_count == 0, what="the session to end")
    [cast] = casts(tmp_path)
    assert (cast.stat().st_mode & 0o777) == 0o600
    assert (cast.parent.stat().st_mode & 0o777) == 0o700
    header, events = read_cast(cast)
    assert header["version"] == 2 and header["width"] == 100 and header["height"] == 32
    assert abs(header["timestamp"] - time.time()) < 120
    assert ann.identity in header["title"]
    assert ["r", "120x40"] in [event[1:] for event in events]
    recorded = "".join(event[2] for event in events if event[1] == "o").encode()
    seen = bytes(ann.output)
    shorter = min(len(recorded), len(seen))
    assert shorter > 10_000 and recorded[:shorter] == seen[:shorter]  # what she was sent
    text = "".join(screen_text(recorded).split())
    assert "Newmatch" in text and "".join(TABLES_TITLE.split()) in text
    player = asciinema()
    if player is not None:  # a common player replays it
        shown = subprocess.run([player, "cat", str(cast)], capture_output=True, timeout=60)
        assert shown.returncode == 0, shown.stderr
        assert "Newmatch" in "".join(screen_text(shown.stdout).split())


async def test_no_recording_unless_asked_old_ones_deleted_and_a_size_cap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "recordings"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    old, young, other = folder / "old.cast", folder / "young.cast", folder / "notes.txt"
    for path in (old, young, other):
        path.write_text("{}\n", encoding="utf-8")
    day = 86400
    os.utime(old, (time.time() - 15 * day, time.time() - 15 * day))
    os.utime(other, (time.time() - 15 * day, time.time() - 15 * day))
    os.utime(young, (time.time() - 13 * day, time.time() - 13 * day))
    async with table_server(tmp_path) as server:  # not asked: nothing recorded
        ann = Player(server, "Ann")
        await enter_lobby(ann, server)
        await ann.close()
    # (the old ones go all the same: 14 days by default)
    assert casts(tmp_path) == [young] and other.exists()

    monkeypatch.setattr(recording, "MEGABYTE", 20_000)  # recording_max_mb = 1: 20 kB
    async with table_server(tmp_path, record_sessions=True, recordings_days=12,
                            recording_max_mb=1) as server:
        assert not young.exists() and other.exists()
        ann = Player(server, "Ann")
        await enter_lobby(ann, server)
        assert ann.process is not None
        for turn in range(6):  # each window change draws everything again
            ann.process.change_terminal_size(*((120, 40) if turn % 2 else (100, 32)))
            await asyncio.sleep(0.3)
        await ann.close()
        await wait_until(lambda: server.session_count == 0, what="the session to end")
    [cast] = casts(tmp_path)
    assert (folder.stat().st_mode & 0o777) == 0o700  # (it was 0755: others could look)
    assert len(ann.output) > 40_000
    assert cast.stat().st_size <= 20_000
    read_cast(cast)  # whole lines: it still parses


def test_the_recording_keys_are_checked_in_one_line(tmp_path: Path) -> None:
    config = tmp_path / "server.toml"
    config.write_text("[server]\nrecord_sessions = true\nrecordings_days = 3\n"
                      "recording_max_mb = 50\n", encoding="utf-8")
    loaded = load_server_config(config)
    assert loaded.record_sessions and loaded.recordings_days == 3
    assert loaded.recording_max_mb == 50
    assert loaded.recordings_path == loaded.history.parent / "recordings"
    for line, key in (("record_sessions = 'yes'", "record_sessions"),
                      ("recordings_days = 0", "recordings_days"),
                      ("recording_max_mb = 0", "recording_max_mb")):
        config.write_text(f"[server]\n{line}\n", encoding="utf-8")
        with pytest.raises(ServeError) as caught:
            load_server_config(config)
        assert f"server.{key}" in str(caught.value) and "\n" not in str(caught.value)
