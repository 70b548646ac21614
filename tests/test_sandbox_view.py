"""What a sandboxed bot may read: its own files, nothing of the organiser's (issue 36,
routes 1-3 of the red team), and a log of its standard error it cannot forge.

Each hostile bot (tests/hostile_bots/) plays in a real tournament set up as an organiser
would: the tournament file in its folder with an editor's backup (``t.toml~``), a
committed copy in ``.git/objects``, a run's output beside it moved to ``out.old-1`` by
``--fresh``, an entrant's folder that is a symbolic link to the tournament's folder, or
the tournament file run through a linked folder. Every such folder is out of the bot's
view: a folder that holds (or sits above) the tournament file, the run's output or the
history database is never bound; the bot gets only the files its command names in it.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import zlib
from pathlib import Path

import pytest
from test_cli import trash

from bots.external import external_bot
from bots.process import LOG_LIMIT, BotLog, BotProcess, Limits, bot_environment
from bots.protocol import BotProtocolError
from bots.sandbox import problem
from trash_tui.tournament.config import load_tournament
from trash_tui.tournament.runner import run_tournament

HOSTILE = Path(__file__).with_name("hostile_bots")
SEED = 8731906650228510123  # a tournament seed no bot can guess
PROBLEM = problem()
pytestmark = pytest.mark.skipif(
    PROBLEM is not None and ("kernel refuses" in PROBLEM or "needs Linux" in PROBLEM),
    reason=f"the sandbox cannot run here: {PROBLEM}")


def _tournament(folder: Path, bots: str, name: str = "t.toml") -> Path:
    """The tournament file ``name`` in ``folder``: a sandboxed hostile bot against greedy."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    path = folder / name
    path.write_text(f"seed = {SEED}\nmatches = 1\n[sandbox]\nenabled = true\n\n{bots}"
                    '[[bots]]\nbot = "greedy"\n', encoding="utf-8")
    return path


def _entrant(folder: Path, *scripts: str) -> Path:
    """An entrant's folder holding copies of hostile bots (readable by every user)."""
    folder.mkdir(parents=True, exist_ok=True)
    for script in scripts:
        shutil.copy(HOSTILE / script, folder / script)
        (folder / script).chmod(0o644)
    for step in [folder, *folder.parents][:3]:
        step.chmod(0o755)
    return folder


def _logs(out: Path) -> str:
    return "".join(path.read_text(errors="replace") for path in (out / "logs").glob("*.log"))


def _run(path: Path, out: Path, **options) -> str:
    outcome = run_tournament(load_tournament(path), out, **options)
    assert outcome.status == "finished"
    assert not [game["forfeit"] for game in outcome.games if game["forfeit"]]  # it played
    return _logs(out)


# --- route 1: a copy of the tournament file beside it --------------------------------------

def test_a_bot_file_without_a_cwd_reads_no_editors_backup(tmp_path: Path) -> None:
    folder = tmp_path / "round"
    _entrant(folder / "entries" / "x", "backup_copy.py")
    path = _tournament(folder, '[[bots]]\nbot = "entries/x/backup_copy.py"\n')
    shutil.copy(path, folder / "t.toml~")  # an editor's backup, readable by every user
    (folder / ".t.toml.swp").write_bytes(path.read_bytes())
    logs = _run(path, tmp_path / "out")
    assert "LEARNED" not in logs, logs
    assert str(SEED) not in logs


def test_a_bot_file_without_a_cwd_reads_no_committed_copy(tmp_path: Path) -> None:
    repository = tmp_path / "repo"  # the tournament file committed at its top
    _entrant(repository / "entries" / "x", "git_copy.py")
    path = _tournament(repository, '[[bots]]\nbot = "entries/x/git_copy.py"\n')
    data = path.read_bytes()
    objects = repository / ".git" / "objects" / "5e"
    objects.mkdir(parents=True)
    for step in (repository / ".git", repository / ".git" / "objects", objects):
        step.chmod(0o755)
    (objects / "ed00c0ffee").write_bytes(zlib.compress(b"blob %d\0" % len(data) + data))
    (objects / "ed00c0ffee").chmod(0o444)
    logs = _run(path, tmp_path / "out")
    assert "LEARNED" not in logs, logs
    assert str(SEED) not in logs


# --- route 2: the same folder by a second path ----------------------------------------------

def _command(script: str, cwd: str | None = None) -> str:
    where = f'cwd = "{cwd}"\n' if cwd is not None else ""
    return (f'[[bots]]\nname = "{Path(script).stem}"\n'
            f'command = ["{sys.executable}", "{script}"]\n{where}\n')


def test_an_entrants_folder_linked_to_the_tournaments_folder_shows_no_file(
        tmp_path: Path) -> None:
    folder = tmp_path / "round"
    _entrant(folder, "through_link.py")
    (folder / "entries").mkdir()
    (folder / "entries").chmod(0o755)
    (folder / "entries" / "x").symlink_to("..")  # as a tar archive can carry it
    path = _tournament(folder, _command("through_link.py", "entries/x"))
    logs = _run(path, tmp_path / "out")
    assert "LEARNED" not in logs, logs
    assert str(SEED) not in logs


def test_a_tournament_run_through_a_linked_folder_is_covered_where_it_is(
        tmp_path: Path) -> None:
    real = tmp_path / "real"
    _entrant(real, "through_link.py")
    _tournament(real, _command("through_link.py"))
    (tmp_path / "link").symlink_to(real)
    logs = _run(tmp_path / "link" / "t.toml", tmp_path / "out")
    assert "LEARNED" not in logs, logs
    assert str(SEED) not in logs


# --- route 3: an earlier run's records -------------------------------------------------------

def test_an_earlier_runs_records_are_out_of_sight(tmp_path: Path) -> None:
    folder = tmp_path / "round"
    _entrant(folder / "entries" / "x", "old_run.py")
    path = _tournament(folder, _command("entries/x/old_run.py"))
    out = folder / "out"
    _run(path, out, records=True)
    assert (out / "records.jsonl").stat().st_size > 0
    os.chmod(out, 0o755)
    for item in out.iterdir():
        item.chmod(0o755 if item.is_dir() else 0o644)
    logs = _run(path, out, records=True, fresh=True)
    assert (folder / "out.old-1" / "records.jsonl").exists()
    assert "LEARNED" not in logs, logs
    assert '"deck' not in logs


def test_a_program_named_through_a_link_runs_by_that_name(tmp_path: Path) -> None:
    """The program's folder is bound where the link leads; the name the command gives it
    is made again as a link inside the sandbox."""
    tmp_path.chmod(0o755)
    (tmp_path / "real").mkdir(mode=0o755)
    (tmp_path / "own").mkdir(mode=0o755)
    program = tmp_path / "real" / "prog"
    program.write_text('#!/bin/sh\necho "ran as $0" >&2\nexit 3\n', encoding="utf-8")
    program.chmod(0o755)
    (tmp_path / "link").symlink_to("real")
    bot = external_bot({"name": "x", "command": [str(tmp_path / "link" / "prog")],
                        "cwd": str(tmp_path / "own"), "sandbox": True}, 1)
    process = bot.launch.start()
    with pytest.raises(BotProtocolError) as failed:
        process.read_line(10)
    assert "exited with status 3" in failed.value.detail
    assert f"ran as {tmp_path / 'link' / 'prog'}" in failed.value.detail


# --- what check says a bot reads ----------------------------------------------------------------

def test_check_says_what_each_sandboxed_bot_reads(tmp_path: Path) -> None:
    folder = tmp_path / "round"
    entrant = _entrant(folder / "entries" / "x", "through_link.py")
    path = _tournament(folder, _command("through_link.py", "entries/x")
                       + _command("entries/x/through_link.py").replace(
                           'name = "through_link"', 'name = "beside"'))
    done = trash("tournament", "check", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    reads = {line.split(" reads: ")[0]: line for line in done.stdout.splitlines()
             if " reads: " in line}
    assert set(reads) == {"bot through_link", "bot beside"}, done.stdout
    assert str(entrant) in reads["bot through_link"]
    # the bot beside the file: only the file its command names, not the file's folder
    assert str(entrant / "through_link.py") in reads["bot beside"]
    for line in reads.values():
        assert not re.search(re.escape(str(folder)) + r"(,|$| )", line), line


# --- the bot's log ------------------------------------------------------------------------------

def test_a_bot_cannot_forge_the_runners_lines_in_its_log(tmp_path: Path) -> None:
    folder = tmp_path / "round"
    _entrant(folder / "bot", "forge_log.py")
    path = _tournament(folder, _command("forge_log.py", "bot"))
    logs = _run(path, tmp_path / "out")
    assert "FORGED" in logs  # what the bot wrote is there, shown for what it is
    assert "\x1b" not in logs and "\x07" not in logs and "\r" not in logs
    for line in logs.splitlines():
        assert not line.startswith("=== "), line  # no forfeit was written by the runner


def test_a_flood_without_newlines_stays_bounded_and_marked(tmp_path: Path) -> None:
    """A bot that writes megabytes on one line, then a forged runner's line: its log stays
    within its bound, every line of it marked as the bot's."""
    script = ("import sys; sys.stderr.write('x' * (3 << 20) + '\\r=== forged\\n'); "
              "sys.stderr.flush(); sys.stdin.read()")
    log = BotLog(tmp_path / "flood.log")
    process = BotProcess([sys.executable, "-c", script], tmp_path, bot_environment({}),
                         Limits())
    process.log = log
    try:
        with pytest.raises(BotProtocolError):
            process.read_line(2)  # it never answers; its stderr is read meanwhile
    finally:
        process.kill()
    text = (tmp_path / "flood.log").read_text(encoding="utf-8")
    assert len(text) <= LOG_LIMIT + 100
    lines = text.splitlines()
    assert lines[-1] == "[log full: the rest of this bot's output is dropped]"
    assert all(line.startswith("| ") for line in lines[:-1] if line)
