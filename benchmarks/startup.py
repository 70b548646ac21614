"""Startup time: from starting ``python`` to the lobby on screen, as the ``trash`` command does it.

Each run is a fresh process (so imports are not cached in memory, only on disk like a
user's second start): it imports the console script's module, reads the settings file,
builds the app with ``create_app`` and runs it headless until the lobby has been drawn,
then prints a line and exits. The parent measures the wall time from spawning the
process to that line. Prints the median and the worst of the runs, and the import time
of the CLI module alone. Target: under one second at the median.

    python benchmarks/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

CHILD = """
import sys
from trash_tui.cli.main import main  # what the console script imports first
from trash_tui.app.app import LobbyScreen, create_app
from trash_tui.settings import load_settings

settings, problems = load_settings()
app = create_app(settings=settings, problems=problems)

async def shown(pilot):
    await pilot.pause()
    assert isinstance(app.screen, LobbyScreen), app.screen
    print("lobby", flush=True)
    app.exit()

app.run(headless=True, size=(80, 24), auto_pilot=shown)
"""

IMPORT_ONLY = "import trash_tui.cli.main"
TARGET = 1.0


def time_child(code: str, env: dict[str, str]) -> float:
    """Seconds from spawning ``python -c code`` until it prints its first line."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    process.stdout.readline()
    elapsed = time.perf_counter() - started
    _, errors = process.communicate(timeout=60)
    if process.returncode:
        raise SystemExit(f"startup.py: the app failed to start: {errors.strip()[-500:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "TRASH_TUI_CONFIG": os.path.join(folder, "config.toml"),
               "TRASH_TUI_HISTORY": os.path.join(folder, "history.sqlite3")}
        env.pop("NO_COLOR", None)
        time_child(CHILD, env)  # a first start warms the disk cache and the history file
        lobby = [time_child(CHILD, env) for _ in range(args.runs)]
        imports = [time_child(IMPORT_ONLY + "; print(flush=True)", env)
                   for _ in range(args.runs)]
    median = statistics.median(lobby)
    print(f"startup to the lobby ({args.runs} runs): median {median * 1000:.0f} ms, "
          f"worst {max(lobby) * 1000:.0f} ms, best {min(lobby) * 1000:.0f} ms")
    print(f"python + importing the CLI alone: median {statistics.median(imports) * 1000:.0f} ms")
    verdict = "meets" if median < TARGET else "misses"
    print(f"target: under {TARGET:.0f} s at the median — {verdict} it")


if __name__ == "__main__":
    main()
