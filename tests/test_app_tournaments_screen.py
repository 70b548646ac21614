"""The Tournaments screen through the pilot: listing files, running, stopping, past results."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from textual.app import App
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Log, ProgressBar, Static

from trash_tui.app.screens.tournaments import TournamentsScreen
from trash_tui.players.rater import open_history
from trash_tui.tournament.config import load_tournament
from trash_tui.tournament.schedule import total_games

SHIPPED = Path(__file__).resolve().parent.parent / "tournaments"
SIZES = [(80, 24), (160, 48)]


class Host(App[None]):
    """A bare app that shows only the Tournaments screen."""

    def __init__(self, screen: TournamentsScreen) -> None:
        super().__init__()
        self.tournaments = screen

    def on_mount(self) -> None:
        self.push_screen(self.tournaments)


def make_screen(tmp_path: Path, tournaments_dir: Path | None = None) -> TournamentsScreen:
    return TournamentsScreen(tournaments_dir or tmp_path / "tournaments", tmp_path / "runs",
                             tmp_path / "history.sqlite3")


def write_tournament(folder: Path, stem: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.toml"
    path.write_text(body, encoding="utf-8")
    return path


def tiny(name: str, amount: str, bot: str = "random") -> str:
    return (f'name = "{name}"\nseed = 5\nplayers = 2\n{amount}\n[rules]\npreset = "standard"\n'
            f'[[bots]]\nbot = "{bot}"\n[[bots]]\nbot = "greedy"\n')


def row_texts(table: DataTable) -> list[dict[str, str]]:
    """Each row's cells by column (a narrow screen shows fewer columns: issue 16, item 2)."""
    columns = [str(column.label) for column in table.columns.values()]
    return [dict(zip(columns, (str(cell) for cell in table.get_row_at(i)), strict=True))
            for i in range(table.row_count)]


def status_text(screen: TournamentsScreen) -> str:
    return str(screen.query_one("#tournaments-status", Static).render())


def results_text(screen: TournamentsScreen) -> str:
    return "\n".join(screen.query_one("#tournaments-results", Log).lines)


async def select_file(pilot: Pilot, screen: TournamentsScreen, stem: str) -> None:
    table = screen.query_one("#tournaments-files", DataTable)
    keys = [key for key, entry in screen.files.items() if entry.path.stem == stem]
    assert keys, f"{stem}.toml is not listed"
    table.move_cursor(row=table.get_row_index(keys[0]))
    await pilot.pause()


async def wait_for_run(pilot: Pilot, screen: TournamentsScreen, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while screen.running is not None:
        assert time.monotonic() < deadline, "the run did not end"
        await pilot.pause(0.05)
    await pilot.pause()


async def start_and_press(pilot: Pilot, key: str) -> None:
    """Press r, then ``key`` straight after: while the run is busy the pilot's own
    presses wait for the process to go idle (up to seconds), so these are queued at once."""
    pilot.app.simulate_key("r")
    pilot.app.simulate_key(key)
    await pilot.pause(0.1)


def history_runs(tmp_path: Path) -> list:
    with open_history(tmp_path / "history.sqlite3") as history:
        return history.tournaments.runs()


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
async def test_the_shipped_files_are_listed_and_the_screen_fits(
        tmp_path: Path, size: tuple[int, int]) -> None:
    screen = make_screen(tmp_path, SHIPPED)
    app = Host(screen)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert app.screen is screen
        rows = row_texts(screen.query_one("#tournaments-files", DataTable))
        shipped = sorted(SHIPPED.glob("*.toml"))
        assert [row["file"] for row in rows] == [path.name for path in shipped]
        assert not any("error" in row["name"] for row in rows)
        wide = size[0] >= 120  # narrower: file, games and name (the rest in the detail line)
        assert list(rows[0]) == (["file", "name", "players", "format", "games"] if wide
                                 else ["file", "games", "name"])  # (bots: under the files)
        for row, path in zip(rows, shipped, strict=True):
            config = load_tournament(path)
            assert row["name"] == config.name if wide else \
                config.name.startswith(row["name"].rstrip("…").rstrip())
            assert row["games"].endswith(f"{total_games(config):,} {config.unit}")
            if wide:
                assert row["players"] == str(config.players)
        ladder = rows[[r["file"] for r in rows].index("round-robin.toml")]
        assert ladder["games"] == "3,000 matches"
        if wide:
            assert ladder["format"] == "round-robin, duplicate"
            dice = rows[[r["file"] for r in rows].index("help-your-neighbor.toml")]
            assert dice["format"].startswith("Neighbor, ")  # the game, when it is not Trash
        assert "No tournament runs yet" in results_text(screen)
        assert "Run" in str(screen.query_one("#tournaments-run", Button).label)

        whole = Region(0, 0, *size)
        files = screen.query_one("#tournaments-files").region
        runs = screen.query_one("#tournaments-runs").region
        run_button = screen.query_one("#tournaments-run").region
        assert whole.contains_region(files) and whole.contains_region(run_button)
        table = screen.query_one("#tournaments-files", DataTable)
        assert files.height >= table.row_count + 3  # every file in sight (issue 27)
        # never scrolled sideways: a long name ends in "…" and is said in full underneath
        assert table.virtual_size.width <= table.scrollable_content_region.width
        if size == (160, 48):  # the files across the top, the results below them
            assert screen.has_class("-wide")
            assert runs.y >= files.bottom and whole.contains_region(runs)
            assert whole.contains_region(screen.query_one("#tournaments-results").region)
        else:  # one view at a time: the files first, v for the results
            assert screen.has_class("-narrow")
            assert not screen.query_one("#tournaments-right").display or \
                not screen.query_one("#tournaments-right").region.height


async def test_a_broken_file_is_listed_with_its_one_line_error(tmp_path: Path) -> None:
    folder = tmp_path / "tournaments"
    write_tournament(folder, "broken", 'seed = "soon"\ndeals = 2\n')
    write_tournament(folder, "fine", tiny("fine", "deals = 4"))
    screen = make_screen(tmp_path)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = row_texts(screen.query_one("#tournaments-files", DataTable))
        assert [row["file"] for row in rows] == ["broken.toml", "fine.toml"]
        broken = rows[0]
        assert broken["name"] == "✗ error"  # the error itself in the line under the table
        assert rows[1]["name"] == "fine"

        await select_file(pilot, screen, "broken")
        detail = str(screen.query_one("#tournaments-detail", Static).render())
        assert detail.startswith("✗ error in broken.toml: broken.toml:1: seed: expected an "
                                 "integer")
        assert "\n" not in detail.removesuffix("\n")
        await pilot.press("r")
        await pilot.pause()
        assert screen.running is None
        assert status_text(screen).startswith("✗ Cannot run broken.toml: broken.toml:1: seed")
        assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
async def test_a_tiny_tournament_runs_to_the_end_and_shows_its_results(
        tmp_path: Path, size: tuple[int, int]) -> None:
    folder = tmp_path / "tournaments"
    write_tournament(folder, "tiny", tiny("Tiny cup", "deals = 12"))
    screen = make_screen(tmp_path)
    app = Host(screen)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.click("#tournaments-run")  # the mouse way; the key is tested below
        await wait_for_run(pilot, screen)

        bar = screen.query_one("#tournaments-progress", ProgressBar)
        assert bar.total == 12 and bar.progress == 12
        assert status_text(screen).startswith("✓ Finished: 12 games")
        rate = str(screen.query_one("#tournaments-rate", Static).render())
        assert rate.startswith("12/12 games · 12 played now") and "games/s" in rate

        [run] = history_runs(tmp_path)
        assert (run.name, run.status, run.games) == ("Tiny cup", "finished", 12)
        assert run.results is not None and run.results["status"] == "finished"
        out = tmp_path / "runs" / "tiny"
        assert json.loads((out / "results.json").read_text())["games"] == 12
        assert (out / "results.csv").exists()

        rows = row_texts(screen.query_one("#tournaments-runs", DataTable))
        assert [[row[c] for c in ("id", "name", "status", "games")] for row in rows] == \
            [[str(run.id), "Tiny cup", "✓ finished", "12"]]
        assert rows[0]["date"] == time.strftime("%Y-%m-%d %H:%M", time.localtime(run.started))
        text = results_text(screen)
        assert text.startswith("Tiny cup: 12 of 12 games")
        assert "random" in text and "greedy" in text and "Elo" in text
        log = screen.query_one("#tournaments-results", Log)
        width = log.scrollable_content_region.width
        [axis] = [line for line in log.lines if line.rstrip().endswith("(| = average)")]
        assert width - 10 <= len(axis.rstrip()) <= width  # the chart spans the log
        assert screen.query_one("#tournaments-run", Button).disabled is False
        assert screen.query_one("#tournaments-stop", Button).disabled is True


async def test_stopping_keeps_the_games_and_running_again_finishes(tmp_path: Path) -> None:
    folder = tmp_path / "tournaments"
    write_tournament(folder, "longer", tiny("Longer cup", "matches = 400"))
    screen = make_screen(tmp_path)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await start_and_press(pilot, "s")
        assert screen.running is not None and screen.stop_requested.is_set()
        assert screen.query_one("#tournaments-run", Button).disabled is True
        assert screen.query_one("#tournaments-stop", Button).disabled is True
        await wait_for_run(pilot, screen)

        [run] = history_runs(tmp_path)
        assert run.status == "stopped" and 0 < run.games < 400
        assert status_text(screen).startswith(f"■ Stopped: {run.games} of 400 games kept")
        bar = screen.query_one("#tournaments-progress", ProgressBar)
        assert (bar.total, bar.progress) == (400, run.games)
        assert "stopped early" in results_text(screen)
        assert row_texts(screen.query_one("#tournaments-runs", DataTable))[0]["status"] == \
            "■ stopped"

        await pilot.press("r")  # the same file into the same folder: it resumes
        await wait_for_run(pilot, screen)
        [again] = history_runs(tmp_path)
        assert again.id == run.id
        assert (again.status, again.games) == ("finished", 400)
        assert again.results is not None and again.results["played_now"] == 400 - run.games
        assert status_text(screen).startswith("✓ Finished: 400 games")
        assert results_text(screen).startswith("Longer cup: 400 of 400 games")


async def test_leaving_while_running_stops_the_run_first(tmp_path: Path) -> None:
    folder = tmp_path / "tournaments"
    write_tournament(folder, "longer", tiny("Longer cup", "matches = 400"))
    screen = make_screen(tmp_path)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await start_and_press(pilot, "escape")
        assert app.screen is screen  # not yet: the games in play finish first
        assert screen.close_when_stopped and screen.stop_requested.is_set()
        assert status_text(screen).startswith("■ Stopping the run before leaving")
        await wait_for_run(pilot, screen)
        await pilot.pause()
        assert app.screen is not screen
        [run] = history_runs(tmp_path)
        assert run.status == "stopped" and 0 < run.games < 400


async def test_an_empty_folder_says_so_and_escape_goes_back(tmp_path: Path) -> None:
    screen = make_screen(tmp_path, tmp_path / "nowhere")
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen is screen
        detail = str(screen.query_one("#tournaments-detail", Static).render())
        assert detail.startswith("No tournament files (*.toml) in ")
        await pilot.press("r")
        assert status_text(screen).startswith("✗ No tournament file to run")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not screen


async def test_a_bot_that_does_not_exist_is_a_one_line_error(tmp_path: Path) -> None:
    folder = tmp_path / "tournaments"
    write_tournament(folder, "ghost", tiny("Ghost cup", "deals = 4", bot="no-such-bot"))
    screen = make_screen(tmp_path)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        [row] = row_texts(screen.query_one("#tournaments-files", DataTable))
        assert row["name"] == "✗ error"
        assert "unknown bot 'no-such-bot'" in str(
            screen.query_one("#tournaments-detail", Static).render())
        await pilot.press("r")
        await pilot.pause()
        status = status_text(screen)
        assert status.startswith("✗ Cannot run ghost.toml: ghost.toml:")
        assert "unknown bot 'no-such-bot'" in status and "\n" not in status
        assert not history_runs(tmp_path)


async def test_a_bot_file_gone_before_the_run_fails_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "tournaments"
    folder.mkdir()
    bot_file = folder / "mine.py"
    bot_file.write_text("from bots.ladder import RandomBot\n\n\nclass Mine(RandomBot):\n"
                        "    pass\n", encoding="utf-8")
    write_tournament(folder, "own", tiny("Own bot", "deals = 4", bot="mine.py"))
    screen = make_screen(tmp_path)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        [row] = row_texts(screen.query_one("#tournaments-files", DataTable))
        assert row["name"] == "Own bot"  # it loads while the bot file is there
        bot_file.unlink()
        await pilot.press("r")
        await wait_for_run(pilot, screen)
        status = status_text(screen)
        assert status.startswith("✗ Run failed: ")
        assert "mine.py: no such file" in status
        assert "\n" not in status and "Traceback" not in status
        assert screen.query_one("#tournaments-run", Button).disabled is False


async def test_an_unusable_history_database_is_a_one_line_error(tmp_path: Path) -> None:
    folder = tmp_path / "tournaments"
    write_tournament(folder, "tiny", tiny("Tiny cup", "deals = 4"))
    blocked = tmp_path / "history-is-a-folder"
    blocked.mkdir()
    screen = TournamentsScreen(folder, tmp_path / "runs", blocked)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert results_text(screen).startswith("✗ error: cannot read the history database: ")
        await pilot.press("r")
        await wait_for_run(pilot, screen)
        status = status_text(screen)
        assert status.startswith("✗ Run failed: history database ")
        assert "\n" not in status and "Traceback" not in status


async def test_running_a_finished_tournament_again_plays_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "tournaments"
    write_tournament(folder, "tiny", tiny("Tiny cup", "deals = 6"))
    screen = make_screen(tmp_path)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await wait_for_run(pilot, screen)
        await pilot.press("r")
        await wait_for_run(pilot, screen)
        assert status_text(screen).startswith("✓ Already finished: 6 games")
        [run] = history_runs(tmp_path)
        assert (run.status, run.games) == ("finished", 6)
        assert results_text(screen).startswith("Tiny cup: 6 of 6 games")


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
async def test_after_a_run_its_results_are_shown_first_and_whole(
        tmp_path: Path, size: tuple[int, int]) -> None:
    """Issue 27: at 80×24 the results were 3 lines tall and their tables cut ("ratin",
    "Elo - ±inf"); a run that ends now shows its results in the screen, as wide as their
    tables, and v goes back to the files."""
    folder = tmp_path / "tournaments"
    write_tournament(folder, "tiny", tiny("Tiny cup", "deals = 12"))
    screen = make_screen(tmp_path)
    app = Host(screen)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await wait_for_run(pilot, screen)
        await pilot.pause()
        log = screen.query_one("#tournaments-results", Log)
        assert log.region.height >= size[1] - 12
        assert Region(0, 0, *size).contains_region(log.region)
        width = log.scrollable_content_region.width
        assert all(len(line.rstrip()) <= width for line in log.lines), width
        assert any(line.rstrip().endswith("rating") for line in log.lines)
        assert not any("±inf" in line or "Elo   -" in line for line in log.lines)
        if size[0] < 120:
            assert screen.has_class("-results") and screen.focused is log
            await pilot.press("v")
            await pilot.pause()
            assert not screen.has_class("-results")
            assert screen.query_one("#tournaments-files").region.height > 4


def test_results_lines_read_as_a_newcomer_reads_them() -> None:
    """Issue 27: a pairing won or lost every game read "Elo - ±inf" in the screen and in
    ``trash tournament show``; both print the same lines."""
    from trash_tui.tournament.results import _elo_text

    assert _elo_text(None, None) == "Elo   n/a     "
    assert _elo_text(-512.4, None) == "Elo -512 ±∞"
    assert _elo_text(35.0, 41.6) == "Elo +35 ±42"
