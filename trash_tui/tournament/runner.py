"""Running a tournament: batches of games on an executor, results kept as they finish.

Games are sent in batches to a local process pool, to a Dask cluster, or (one worker) run
in this process. Each finished game is appended to ``games.jsonl`` in the output folder
and stored in the history database before anything else happens, so Ctrl-C or a
``kill -9`` loses at most the games still being played. Running the same configuration
into the same folder again continues where it stopped; a game is never counted twice.
Statistics are computed from the games in schedule order, so the results are the same
whatever the number of workers or the executor.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    BrokenExecutor,
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trash_tui.history import History
from trash_tui.tournament.config import TournamentConfig, config_fingerprint
from trash_tui.tournament.play import play_batch
from trash_tui.tournament.ratings import sprt_decision, sprt_llr
from trash_tui.tournament.schedule import Game, schedule


class RunError(RuntimeError):
    """A tournament that cannot run as asked (a folder of another run, no Dask, ...)."""


# --- executors ---------------------------------------------------------------------------
class InlineExecutor(Executor):
    """Runs each task at once in this process (one worker, no inter-process cost)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller through the future
            future.set_exception(exc)
        return future


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C until the block is done (in the main thread; elsewhere it cannot come)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[object] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def _ignore_interrupts() -> None:
    """In a worker process: Ctrl-C is for the main process, which stops the run cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def open_executor(kind: str, workers: int, scheduler: str | None = None) -> Iterator[Executor]:
    """An executor of ``kind`` ("process" or "dask") with ``workers`` workers."""
    if kind == "process":
        if workers <= 1:
            yield InlineExecutor()
            return
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
        try:
            yield pool
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return
    if kind != "dask":
        raise RunError(f"--executor: unknown executor {kind!r} (process or dask)")
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RunError("--executor dask needs Dask: pip install \"trash-tui[dask]\"") from None
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout="20s")
        else:
            cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1,
                                   processes=True, dashboard_address=None)
            client = Client(cluster)
    except OSError as exc:
        raise RunError(f"--scheduler: cannot reach the Dask scheduler: {exc}") from None
    try:
        yield client.get_executor()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# --- the output folder -------------------------------------------------------------------
class OutputFolder:
    """``run.json`` (what run this is) and ``games.jsonl`` (one finished game a line)."""

    def __init__(self, path: Path, config: TournamentConfig, fingerprint: str) -> None:
        self.path = path
        self.games_file = path / "games.jsonl"
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RunError(f"--out: cannot create {path}: {exc.strerror or exc}") from None
        marker = path / "run.json"
        if marker.exists():
            try:
                known = json.loads(marker.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                known = {}
            if known.get("fingerprint") != fingerprint:
                raise RunError(f"{path} holds a run of another configuration "
                               f"({known.get('name', '?')}); choose another --out")
        else:
            marker.write_text(json.dumps({"name": config.name, "fingerprint": fingerprint,
                                          "config": str(config.path)}, indent=2) + "\n",
                              encoding="utf-8")

    def load(self) -> dict[int, dict[str, Any]]:
        """Finished games by index. A line cut short by a crash is dropped (the file is
        rewritten without it, so later appends stay on clean lines)."""
        if not self.games_file.exists():
            return {}
        games: dict[int, dict[str, Any]] = {}
        text = self.games_file.read_text(encoding="utf-8")
        clean = not text or text.endswith("\n")  # else the next append would share a line
        for line in text.splitlines():
            try:
                game = json.loads(line)
                games[int(game["index"])] = game
            except (ValueError, KeyError, TypeError):
                clean = False
        if not clean:
            tmp = self.games_file.with_suffix(".tmp")
            tmp.write_text("".join(json.dumps(games[i]) + "\n" for i in sorted(games)),
                           encoding="utf-8")
            os.replace(tmp, self.games_file)
        return games

    def append(self, games: Sequence[dict[str, Any]]) -> None:
        """Append finished games; their records (if any) go to ``records.jsonl`` first."""
        records = [game.pop("record") for game in games if "record" in game]
        if records:
            self._write(self.path / "records.jsonl", records)
        self._write(self.games_file, games)

    @staticmethod
    def _write(path: Path, documents: Sequence[dict[str, Any]]) -> None:
        with path.open("a", encoding="utf-8") as handle:
            for document in documents:
                handle.write(json.dumps(document) + "\n")
            handle.flush()
            os.fsync(handle.fileno())


# --- stopping ------------------------------------------------------------------------------
def board_scores(config: TournamentConfig, games: dict[int, dict[str, Any]],
                 plan: Sequence[Game]) -> list[float]:
    """For a 2-bot tournament: bot 0's score on each complete board, in schedule order,
    up to the first board not complete yet."""
    by_board: dict[tuple[int, int], list[Game]] = {}
    for game in plan:
        by_board.setdefault((game.pairing, game.board), []).append(game)
    scores = []
    for board_games in by_board.values():
        if any(g.index not in games for g in board_games):
            break
        total = 0.0
        for g in board_games:
            result = games[g.index]
            seat = list(result["seats"]).index(0)
            places = result["places"]
            other = 1 - seat
            total += 1.0 if places[seat] < places[other] else 0.5 if (
                places[seat] == places[other]) else 0.0
        scores.append(total / len(board_games))
    return scores


def sprt_state(config: TournamentConfig, games: dict[int, dict[str, Any]],
               plan: Sequence[Game]) -> tuple[int, float, str | None]:
    """(boards used, LLR, decision) of the SPRT, checked board by board in schedule order."""
    stop = config.stop
    scores = board_scores(config, games, plan)
    for count in range(2, len(scores) + 1):
        llr = sprt_llr(scores[:count], stop.elo0, stop.elo1)
        decision = sprt_decision(llr, stop.alpha, stop.beta)
        if decision:
            return count, llr, decision
    llr = sprt_llr(scores, stop.elo0, stop.elo1) if len(scores) >= 2 else 0.0
    return len(scores), llr, None


# --- the run -------------------------------------------------------------------------------
@dataclass
class RunOutcome:
    """What a run produced: the games counted (schedule order) and how it ended."""

    config: TournamentConfig
    out_dir: Path
    games: list[dict[str, Any]]
    status: str  # "finished", "stopped" (Ctrl-C) or "sprt" (decided early)
    planned: int
    sprt: dict[str, Any] | None = None
    run_id: int | None = None
    elapsed: float = 0.0
    played_now: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


ProgressHook = Callable[[int, int, float, dict[int, dict[str, Any]]], None]


def batch_size(remaining: int, workers: int) -> int:
    """Games per task: enough to keep per-task costs small, at least four tasks a worker."""
    return max(1, min(64, remaining // max(1, 4 * workers)))


def run_tournament(config: TournamentConfig, out_dir: Path, *, workers: int = 1,
                   executor: str = "process", scheduler: str | None = None,
                   history: History | None = None,
                   progress: ProgressHook | None = None,
                   records: bool = False) -> RunOutcome:
    """Run (or continue) a tournament; Ctrl-C stops it cleanly with every game kept.
    With ``records``, every game played now is also written to ``records.jsonl`` as a
    replayable record (``trash replay``)."""
    fingerprint = config_fingerprint(config)
    folder = OutputFolder(out_dir, config, fingerprint)
    plan = list(schedule(config))
    games = folder.load()
    run_id = None
    if history is not None:  # the folder and the database each get what the other kept
        run_id = history.open_run(config.name, fingerprint, out_dir.resolve().as_posix(),
                                  {"path": str(config.path), "name": config.name})
        stored = history.game_results(run_id)
        folder.append([stored[i] for i in sorted(stored) if i not in games])
        history.add_games(run_id, [(i, games[i]) for i in sorted(games) if i not in stored])
        for index, game in stored.items():
            games.setdefault(index, game)
    sprt = config.stop.kind == "sprt"
    started = time.perf_counter()
    played_now = 0
    status = "finished"

    def decided() -> bool:
        return sprt and sprt_state(config, games, plan)[2] is not None

    def keep(results: list[dict[str, Any]]) -> None:
        nonlocal played_now
        with interrupts_deferred():  # the folder, the database and the count stay in step
            folder.append(results)
            if history is not None and run_id is not None:
                history.add_games(run_id, [(r["index"], r) for r in results])
            for result in results:
                games[result["index"]] = result
            played_now += len(results)

    todo = [g for g in plan if g.index not in games]
    if todo and not decided():
        size = batch_size(len(todo), workers)
        queue = iter([todo[i:i + size] for i in range(0, len(todo), size)])
        limit = max(2, 2 * workers)
        pending: set[Future] = set()
        try:
            with open_executor(executor, workers, scheduler) as pool:
                try:
                    while True:
                        for batch in queue:
                            pending.add(pool.submit(play_batch, config, batch, records))
                            if len(pending) >= limit:
                                break
                        if not pending:
                            break
                        done, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for future in done:
                            keep(future.result())
                        if progress is not None:
                            progress(len(games), len(plan), time.perf_counter() - started,
                                     games)
                        if decided():
                            status = "sprt"
                            break
                except KeyboardInterrupt:
                    status = "stopped"
                    for future in pending:  # keep what is being played; start nothing new
                        future.cancel()
                    for future in pending:
                        if not future.cancelled():
                            with suppress(CancelledError, BrokenExecutor):
                                keep(future.result())
                    pending = set()
                for future in pending:
                    future.cancel()
        except KeyboardInterrupt:  # a second Ctrl-C while the pool shuts down
            status = "stopped"
    elif todo:
        status = "sprt"
    outcome_games = [games[g.index] for g in plan if g.index in games]
    sprt_info = None
    if sprt:
        boards, llr, decision = sprt_state(config, games, plan)
        sprt_info = {"boards": boards, "llr": llr, "decision": decision}
        if decision:
            status = "sprt"
            keep = list(dict.fromkeys((g.pairing, g.board) for g in plan))[:boards]
            kept = set(keep)
            outcome_games = [r for r in outcome_games if (r["pairing"], r["board"]) in kept]
    elif status != "stopped" and len(outcome_games) < len(plan):
        status = "stopped"
    return RunOutcome(config, out_dir, outcome_games, status, len(plan), sprt_info, run_id,
                      time.perf_counter() - started, played_now)
