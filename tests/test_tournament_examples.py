"""The example tournaments at home, away from a clone of the repository (issue 35, item 9).

The Tournaments screen lists the user's own folder, ``tournaments/`` in the data folder
(beside the history database), made on first use with a copy of the examples that run on
their own; a wheel carries the repository's ``tournaments/*.toml``. The dev venv has the
project installed editable, so the tests run from a folder outside the clone and check
which folder the screen uses; the wheel's test installs the built wheel in a temporary
folder and plays an example from it with no clone anywhere in sight.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.widgets import DataTable, Log, Static

from trash_tui.app.app import create_app
from trash_tui.app.screens.tournaments import TournamentsScreen
from trash_tui.cli.main import cli

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(REPO.joinpath("tournaments").glob("*.toml"))
# plays the repository's example programs (bots/examples/): it stays in the clone
REPOSITORY_ONLY = {"external.toml"}
AT_HOME = sorted(path.name for path in EXAMPLES if path.name not in REPOSITORY_ONLY)


@pytest.fixture
def at_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user's machine: the working folder, HOME and the data folder far from the clone.
    Returns the data folder (where the history database is)."""
    home, data, elsewhere = (tmp_path / name for name in ("home", "data", "elsewhere"))
    for folder in (home, data, elsewhere):
        folder.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("TRASH_TUI_HISTORY", str(data / "history.sqlite3"))
    monkeypatch.setenv("TRASH_TUI_CONFIG", str(home / "config.toml"))
    return data


def listed(screen: TournamentsScreen) -> list[str]:
    table = screen.query_one("#tournaments-files", DataTable)
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


async def test_at_home_the_screen_lists_the_examples_in_your_folder_and_runs_one(
        at_home: Path) -> None:
    folder = at_home / "tournaments"
    app = create_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_open_tournaments()  # t in the lobby
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TournamentsScreen)
        # the user's own folder beside the history database, never the clone's
        assert screen.tournaments_dir.resolve() == folder.resolve()
        assert REPO not in screen.tournaments_dir.resolve().parents
        assert sorted(path.name for path in folder.glob("*.toml")) == AT_HOME
        for name in AT_HOME:  # a copy of the examples, to edit
            assert (folder / name).read_bytes() == (REPO / "tournaments" / name).read_bytes()
        assert listed(screen) == AT_HOME
        assert all(entry.error is None for entry in screen.files.values())
        title = screen.query_one("#tournaments-files", DataTable).border_title
        assert str(folder) in str(title)

        # quick.toml is selected first: r plays it, and its results are shown
        assert screen.selected_file().path.name == "quick.toml"
        await pilot.press("r")
        deadline = time.monotonic() + 120
        while screen.running is not None:
            assert time.monotonic() < deadline, "the run did not end"
            await pilot.pause(0.05)
        await pilot.pause()
        status = str(screen.query_one("#tournaments-status", Static).render())
        assert status.startswith("✓ Finished: 120 games"), status
        results = "\n".join(screen.query_one("#tournaments-results", Log).lines)
        assert "Quick try" in results and "normal" in results
        out = at_home / "runs" / "quick"
        assert json.loads((out / "results.json").read_text())["games"] == 120

    # the folder is the user's: an edit stays, a deleted example does not come back
    quick = folder / "quick.toml"
    quick.write_text(quick.read_text().replace('name = "Quick try"', 'name = "My cup"'))
    (folder / "sprt.toml").unlink()
    app = create_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        app.action_open_tournaments()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TournamentsScreen)
        assert listed(screen) == [name for name in AT_HOME if name != "sprt.toml"]
        assert screen.files[str(quick)].config.name == "My cup"


def test_every_example_in_your_folder_passes_check(at_home: Path) -> None:
    from trash_tui.tournament.examples import user_tournaments

    folder = user_tournaments(at_home / "history.sqlite3")
    assert sorted(path.name for path in folder.glob("*.toml")) == AT_HOME
    runner = CliRunner()
    for name in AT_HOME:
        result = runner.invoke(cli, ["tournament", "check", str(folder / name)])
        assert result.exit_code == 0, (name, result.output)


WHEEL_AT_HOME = """
import asyncio, sys, time
from pathlib import Path

import trash_tui
from click.testing import CliRunner

site = Path(sys.argv[1]).resolve()
assert site in Path(trash_tui.__file__).resolve().parents, trash_tui.__file__

from trash_tui.app.app import create_app
from trash_tui.cli.main import cli

async def main():
    app = create_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_open_tournaments()
        await pilot.pause()
        screen = app.screen
        print("folder", screen.tournaments_dir.resolve())
        print("listed", " ".join(sorted(Path(key).name for key in screen.files)))
        print("errors", sum(entry.error is not None for entry in screen.files.values()))
        await pilot.press("r")
        deadline = time.monotonic() + 120
        while screen.running is not None and time.monotonic() < deadline:
            await pilot.pause(0.05)
        await pilot.pause()
        print("status", screen.query_one("#tournaments-status").render())
        for path in sorted(screen.tournaments_dir.glob("*.toml")):
            result = CliRunner().invoke(cli, ["tournament", "check", str(path)])
            print("check", path.name, result.exit_code)

asyncio.run(main())
"""


def test_the_wheel_carries_the_examples_and_they_run_at_home(at_home: Path,
                                                             tmp_path: Path) -> None:
    source, built = tmp_path / "source", tmp_path / "wheel"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    source.mkdir()  # a copy of the sources: no build/ of an earlier build, none left behind
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(REPO / name, source / name)
    for name in ("trash_tui", "bots", "tournaments"):
        shutil.copytree(REPO / name, source / name, ignore=skip)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps",
                           "-q", "-w", str(built)], capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    [wheel] = built.glob("trash_tui-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = {Path(name).name: archive.read(name) for name in archive.namelist()
                   if name.startswith("trash_tui/tournament/examples/")}
        assert shipped == {path.name: path.read_bytes() for path in EXAMPLES}
        site = tmp_path / "site"
        archive.extractall(site)

    # the wheel installed, the clone out of reach: the examples are listed and play
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONSAFEPATH": "1"}
    done = subprocess.run([sys.executable, "-c", WHEEL_AT_HOME, str(site)], env=env,
                          cwd=Path.cwd(), capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines()
                 if line.split(" ", 1)[0] in {"folder", "listed", "errors", "status"})
    assert lines["folder"] == str((at_home / "tournaments").resolve())
    assert lines["listed"].split() == AT_HOME
    assert lines["errors"] == "0"
    assert lines["status"].startswith("✓ Finished: 120 games"), done.stdout
    checks = [line.split() for line in done.stdout.splitlines() if line.startswith("check")]
    assert checks == [["check", name, "0"] for name in AT_HOME]
