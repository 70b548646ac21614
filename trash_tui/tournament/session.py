"""Closing a tournament run: its results computed, written next to the games and stored.

``trash tournament run`` and the app's Tournaments screen both end a run this way, so a
run looks the same in the output folder and in the history database whoever started it.
Both also keep runs in the same place by default: ``runs/`` beside the history database
(the user data folder unless ``$TRASH_TUI_HISTORY`` or a setting moves it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trash_tui.history import History
from trash_tui.tournament.results import compute_results, write_results
from trash_tui.tournament.runner import RunOutcome, cannot_write


def runs_folder(history_path: Path) -> Path:
    """Where runs are kept by default: ``runs/`` beside the history database."""
    return history_path.parent / "runs"


def record_outcome(outcome: RunOutcome, history: History | None) -> dict[str, Any]:
    """The results of ``outcome``: written to ``results.json``/``results.csv`` in its
    output folder and, with a history database, stored with the run's final status."""
    results = compute_results(outcome.config, outcome.games, outcome.status, outcome.planned,
                              outcome.sprt)
    results["elapsed_seconds"] = outcome.elapsed
    results["played_now"] = outcome.played_now
    try:
        write_results(results, outcome.out_dir)
    except OSError as exc:
        raise cannot_write(outcome.out_dir / "results.json", exc) from None
    if history is not None and outcome.run_id is not None:
        history.tournaments.finish_run(outcome.run_id, outcome.status, results)
    return results
