"""Running a tournament: batches of games on an executor, results kept as they finish.

Games are sent in batches to a local process pool, to a Dask cluster, or (one worker) run
in this process. Each finished game is appended to ``games.jsonl`` in the output folder
and stored in the history database before anything else happens, so Ctrl-C or a
``kill -9`` loses at most the games still being played. Running the same configuration
into the same folder again continues where it stopped; a game is never counted twice.
Statistics are computed from the games in schedule order, so the results are the same
whatever the number of workers or the executor.

The schedule is never listed: batches are cut from it as workers need them, so a run of
a hundred million games starts as fast, and in as little memory, as a run of ten.

With records, a batch's records reach ``records.jsonl`` (flushed to disk) before its
games reach ``games.jsonl``; a game's line is what says it is finished. Whatever point a
kill stops the run at, the next start repairs ``records.jsonl`` as ``games.jsonl`` is
repaired: a line cut short is dropped (or, glued to the next record by an older version,
separated from it), and a record is kept only once and only for a finished game, so the
games played again bring their records again and every game has exactly one.

A run's identity in the history database is its configuration's fingerprint and its
folder. ``fresh`` starts a new run of the same configuration into the same folder: the
folder's earlier content is moved aside (``FOLDER.old-N``), the earlier run stays in the
database, and the new run's identity is the fingerprint with a fresh-run salt
(``FINGERPRINT+fresh-SALT``), kept in the folder's ``run.json`` and in the run's config in
the database. Running again without ``fresh`` continues the newest run of the folder: the
one its ``run.json`` names, or, once the folder is gone, the newest of the database.
What a continued run took from where is in ``Kept`` (``started_hook`` is told).

A run also keeps, in ``run.json`` and in its config in the database, what its games are
played with besides the file: its ``seating`` (the schedule's seat orders; a run started
before they existed has none and keeps the old cyclic one) and, for a tournament with a
sandboxed bot, its ``secret`` (128 random bits from ``secrets``, drawn when the run
starts, a ``--fresh`` one included): every deal comes from the file's seed and the secret
(``schedule.board_seed``), so nothing a bot sees leads to a deal, whatever the seed. Both
are read back when a run continues (from the folder, else from the database), so a
resumed run plays the games it would have played; records carry their decks, so replays
need neither. The runner's folder and the database are out of every sandbox's view.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import secrets
import signal
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
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

from bots.external import close_idle
from bots.sandbox import protect_runner
from trash_tui.history import History
from trash_tui.text import visible
from trash_tui.tournament.config import TournamentConfig, config_fingerprint
from trash_tui.tournament.play import play_batch
from trash_tui.tournament.ratings import sprt_decision, sprt_llr
from trash_tui.tournament.schedule import SEATINGS, Game, schedule, total_games

#: How every record written by ``trash_tui.engine.record`` and ``neighbor.record`` starts
#: (``json.dumps`` keeps the key order): where a record glued onto a cut line begins.
RECORD_START = '{"format": '


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
    """``run.json`` (what run this is), ``games.jsonl`` (one finished game a line) and,
    with records, ``records.jsonl`` (one record a line, one per finished game)."""

    def __init__(self, path: Path, config: TournamentConfig, fingerprint: str,
                 salt: str | None = None, state: dict[str, Any] | None = None) -> None:
        self.path = path
        self.salt = salt  # the fresh-run salt of the run this folder holds (None: none)
        state = new_run_state(config) if state is None else state  # for a new run.json
        self.secret: str | None = state.get("secret")  # the run's secret (None: none)
        self.seating: str = state.get("seating", "cyclic")
        self.games_file = path / "games.jsonl"
        self.records_file = path / "records.jsonl"
        self.shape = (config.players, len(config.bots), total_games(config))
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RunError(f"--out: cannot create {visible(path)}: "
                           f"{visible(exc.strerror or exc)}") from None
        marker = path / "run.json"
        if marker.exists():
            try:
                known = json.loads(marker.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                known = {}
            if not isinstance(known, dict):
                known = {}
            if known.get("fingerprint") != fingerprint:
                raise RunError(f"{visible(path)} holds a run of another configuration "
                               f"({visible(known.get('name', '?'), 80)}); choose another "
                               "--out")
            fresh = known.get("fresh")
            self.salt = fresh if isinstance(fresh, str) and fresh.isalnum() else None
            self.secret, self.seating = read_run_state(known, marker)
        else:
            marker_data: dict[str, Any] = {"name": config.name, "fingerprint": fingerprint,
                                           "config": str(config.path)}
            if salt is not None:
                marker_data["fresh"] = salt
            marker_data["seating"] = self.seating
            if self.secret is not None:
                marker_data["secret"] = self.secret
            try:
                marker.write_text(json.dumps(marker_data, indent=2) + "\n", encoding="utf-8")
            except OSError as exc:
                raise cannot_write(marker, exc) from None

    def run_config(self, config: TournamentConfig) -> TournamentConfig:
        """``config`` with this run's secret and seat orders, as its games are played."""
        return dataclasses.replace(config, secret=self.secret, seating=self.seating)

    def load(self) -> dict[int, dict[str, Any]]:
        """Finished games by index. A line cut short by a crash is dropped, and so is a
        line that is not a game of this tournament or repeats one (the file is rewritten
        without them, so later appends stay on clean lines and the game is played again)."""
        if not self.games_file.exists():
            return {}
        games: dict[int, dict[str, Any]] = {}
        try:
            text = self.games_file.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise RunError(f"cannot read {visible(self.games_file)}: "
                           f"{visible(exc.strerror or exc)}") from None
        clean = not text or text.endswith("\n")  # else the next append would share a line
        for line in text.split("\n"):
            if not line:
                continue
            try:
                game = json.loads(line)
            except (ValueError, RecursionError):
                game = None
            if is_game(game, *self.shape) and game["index"] not in games:
                games[game["index"]] = game
            else:
                clean = False
        if not clean:
            tmp = self.games_file.with_suffix(".tmp")
            try:
                tmp.write_text("".join(json.dumps(games[i]) + "\n" for i in sorted(games)),
                               encoding="utf-8")
                os.replace(tmp, self.games_file)
            except OSError as exc:
                raise cannot_write(self.games_file, exc) from None
        return games

    def repair_records(self, finished: Collection[int]) -> set[int]:
        """Make ``records.jsonl`` hold exactly one complete line per game of ``finished``
        that has a record, and return those games: lines cut short are dropped, a record
        glued onto one is split off, and a record of an unfinished game (its batch was
        killed between the two files) or a second record of a game is dropped. The file is
        rewritten (atomically) only when something was wrong; it is read line by line."""
        if not self.records_file.exists():
            return set()
        recorded: set[int] = set()
        wrong = False
        try:
            for action, _, index in self._record_lines(finished):
                wrong = wrong or action != "keep"
                if index is not None:
                    recorded.add(index)
            if wrong:
                tmp = self.records_file.with_suffix(".tmp")
                with tmp.open("w", encoding="utf-8") as handle:
                    for action, line, _ in self._record_lines(finished):
                        if action != "drop":
                            handle.write(line)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, self.records_file)
        except OSError as exc:
            raise cannot_write(self.records_file, exc) from None
        return recorded

    def _record_lines(self, finished: Collection[int]
                      ) -> Iterator[tuple[str, str, int | None]]:
        """Each line of ``records.jsonl`` with what to do with it: ("keep", line, game),
        ("fix", the line to write instead, game) or ("drop", line, None)."""
        seen: set[int] = set()
        with self.records_file.open(encoding="utf-8", errors="replace", newline="\n") as lines:
            for line in lines:
                index = _record_index(line) if line.endswith("\n") else None
                action = "keep"
                if index is None:  # cut short, perhaps with a whole record glued on
                    action, start = "drop", line.find(RECORD_START, 1)
                    while start > 0:
                        index = _record_index(line[start:])
                        if index is not None and line.endswith("\n"):
                            action, line = "fix", line[start:]
                            break
                        start = line.find(RECORD_START, start + 1)
                if index is None or index not in finished or index in seen:
                    action, index = "drop", None
                else:
                    seen.add(index)
                yield action, line, index

    def append_records(self, results: Sequence[dict[str, Any]]) -> None:
        """Append the records of games already finished (and kept) to ``records.jsonl``."""
        self._write(self.records_file, [result["record"] for result in results])

    def append(self, games: Sequence[dict[str, Any]]) -> None:
        """Append finished games; their records (if any) go to ``records.jsonl`` first
        (and reach the disk first: a game without its line is played again)."""
        records = [game.pop("record") for game in games if "record" in game]
        if records:
            self._write(self.records_file, records)
        self._write(self.games_file, games)

    @staticmethod
    def _write(path: Path, documents: Sequence[dict[str, Any]]) -> None:
        try:
            with path.open("a", encoding="utf-8") as handle:
                for document in documents:
                    handle.write(json.dumps(document) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:  # a full disk, a folder made read-only: the run stops here
            raise cannot_write(path, exc) from None


def new_run_state(config: TournamentConfig) -> dict[str, Any]:
    """What a new run keeps besides the file: the balanced seat orders and, when a bot of
    the file is sandboxed, a secret of 128 random bits the deals are derived with."""
    state: dict[str, Any] = {"seating": "balanced"}
    if config.sandboxed:
        state["secret"] = secrets.token_hex(16)
    return state


def read_run_state(known: dict[str, Any], where: Path | str) -> tuple[str | None, str]:
    """(secret, seating) of a run as its ``run.json`` (or its database entry) keeps them;
    a run from before they existed has no secret and the cyclic seating. A damaged one is
    a ``RunError``: playing on with other deals or seats would not be the same run."""
    secret, seating = known.get("secret"), known.get("seating", "cyclic")
    if secret is not None and not (isinstance(secret, str) and len(secret) == 32
                                   and all(c in "0123456789abcdef" for c in secret)):
        raise RunError(f"{visible(where)}: its secret is damaged, so its games cannot be "
                       "continued; --fresh starts a new run")
    if seating not in SEATINGS:
        raise RunError(f"{visible(where)}: unknown seating {visible(seating, 40)} (one of "
                       f"{', '.join(SEATINGS)}); --fresh starts a new run")
    return secret, seating


def cannot_write(path: Path, exc: OSError) -> RunError:
    """The one-line error of a file of the output folder that cannot be written."""
    return RunError(f"cannot write {visible(path)}: {visible(exc.strerror or exc)}; what was "
                    "played is kept: free the space (or fix the folder) and run the same "
                    "command again")


def _is_count(value: Any, low: int = 0, high: int | None = None) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool) and value >= low
            and (high is None or value <= high))


def is_game(game: Any, players: int, bots: int, planned: int) -> bool:
    """Whether ``game`` (a line of ``games.jsonl``) has the shape of a finished game of a
    tournament of ``bots`` bots at tables of ``players`` with ``planned`` games: what the
    results and the SPRT read from it is there and in range."""
    if not isinstance(game, dict) or not _is_count(game.get("index"), 0, planned - 1):
        return False
    seats, places = game.get("seats"), game.get("places")
    if not (isinstance(seats, list) and isinstance(places, list)
            and len(seats) == len(places) == players
            and all(_is_count(b, 0, bots - 1) for b in seats) and len(set(seats)) == players
            and all(_is_count(p, 1, players) for p in places)):
        return False
    if not all(_is_count(game.get(key)) for key in ("pairing", "board", "deals", "turns")):
        return False
    forfeit = game.get("forfeit")
    return forfeit is None or (
        isinstance(forfeit, dict) and _is_count(forfeit.get("seat"), 0, players - 1)
        and all(isinstance(forfeit.get(key), str) for key in ("bot", "kind", "detail")))


def _record_index(line: str) -> int | None:
    """The tournament game a line of ``records.jsonl`` is the record of (None if the line
    is not a whole record of a game)."""
    try:
        document = json.loads(line)
        index = document["context"]["game"]
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    return index if isinstance(index, int) and not isinstance(index, bool) else None


# --- stopping ------------------------------------------------------------------------------
def _board_score(board_games: Sequence[dict[str, Any]]) -> float:
    """Bot 0's score on one complete board of a 2-bot tournament."""
    total = 0.0
    for result in board_games:
        seat = list(result["seats"]).index(0)
        places = result["places"]
        other = 1 - seat
        total += 1.0 if places[seat] < places[other] else 0.5 if (
            places[seat] == places[other]) else 0.0
    return total / len(board_games)


class SprtWatch:
    """The SPRT of a 2-bot tournament, checked board by board in schedule order.

    Boards are read from the schedule as they complete, up to the first board not complete
    yet, and each is read once: the decision after N boards depends only on those N, so a
    check costs the boards new since the last one, not the whole run."""

    def __init__(self, config: TournamentConfig) -> None:
        self.config = config
        self.scores: list[float] = []
        self.end = 0  # the first index after the complete boards
        self.checked = 1  # board counts up to this one had no decision
        self.decided: tuple[int, float, str] | None = None

    def _read_boards(self, games: dict[int, dict[str, Any]]) -> None:
        """Extend ``scores`` with the boards completed since the last call."""
        board: list[Game] = []
        for game in schedule(self.config, self.end):
            if board and (game.pairing, game.board) != (board[0].pairing, board[0].board):
                self.scores.append(_board_score([games[g.index] for g in board]))
                self.end = game.index
                board = []
            if game.index not in games:
                return
            board.append(game)
        if board:  # the last board of the schedule
            self.scores.append(_board_score([games[g.index] for g in board]))
            self.end = board[-1].index + 1

    def state(self, games: dict[int, dict[str, Any]]) -> tuple[int, float, str | None]:
        """(boards used, LLR, decision): the first board count at which the test decides,
        else every complete board and no decision."""
        if self.decided is not None:
            return self.decided
        self._read_boards(games)
        stop = self.config.stop
        for count in range(max(2, self.checked + 1), len(self.scores) + 1):
            llr = sprt_llr(self.scores[:count], stop.elo0, stop.elo1)
            decision = sprt_decision(llr, stop.alpha, stop.beta)
            if decision:
                self.decided = (count, llr, decision)
                return self.decided
            self.checked = count
        scores = self.scores
        llr = sprt_llr(scores, stop.elo0, stop.elo1) if len(scores) >= 2 else 0.0
        return len(scores), llr, None

    def boards_end(self, boards: int) -> int:
        """The first index after the first ``boards`` boards of the schedule."""
        seen: set[tuple[int, int]] = set()
        for game in schedule(self.config):
            seen.add((game.pairing, game.board))
            if len(seen) > boards:
                return game.index
        return total_games(self.config)


def sprt_state(config: TournamentConfig, games: dict[int, dict[str, Any]]
               ) -> tuple[int, float, str | None]:
    """(boards used, LLR, decision) of the SPRT, checked board by board in schedule order."""
    return SprtWatch(config).state(games)


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


@dataclass(frozen=True)
class Kept:
    """Where a continued run's games came from: its folder's ``games.jsonl`` and the
    history database (``history``: its path), and whether this is a new ``fresh`` run
    (``moved``: where the folder's earlier content went)."""

    from_folder: int = 0
    from_history: int = 0
    history: Path | None = None
    fresh: bool = False
    moved: Path | None = None


StartHook = Callable[[Path, int, int, Kept], None]
FRESH = "+fresh-"  # between a configuration's fingerprint and a fresh run's salt


def move_aside(out_dir: Path) -> Path | None:
    """Move a folder that holds anything to ``NAME.old-N`` (the first N free); its path,
    or None if there was nothing to move."""
    try:
        if not out_dir.is_dir() or not any(out_dir.iterdir()):
            return None
        for number in itertools.count(1):
            target = out_dir.with_name(f"{out_dir.name}.old-{number}")
            if not os.path.lexists(target):
                out_dir.rename(target)
                return target
    except OSError as exc:
        raise RunError(f"--fresh: cannot move {visible(out_dir)} aside: "
                       f"{visible(exc.strerror or exc)}") from None
    return None  # pragma: no cover - count() never ends


def _newest_salt(history: History, fingerprint: str, out_dir: str) -> str | None:
    """The fresh-run salt of the newest run of this configuration into this folder in the
    database (None: the first run, or none)."""
    for run in history.tournaments.runs():  # newest first
        if run.out_dir != out_dir:
            continue
        if run.fingerprint == fingerprint:
            return None
        if run.fingerprint.startswith(fingerprint + FRESH):
            return run.fingerprint[len(fingerprint) + len(FRESH):]
    return None


def batches(games: Iterable[Game], size: int) -> Iterator[list[Game]]:
    """``games`` cut into lists of ``size`` (the last may be shorter), one at a time."""
    iterator = iter(games)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def unfinished(config: TournamentConfig, games: Collection[int]) -> Iterator[Game]:
    """The games of the schedule not in ``games``, in index order, made as they are asked
    for (the schedule is read from the first index missing from ``games``)."""
    first = 0
    while first in games:
        first += 1
    return (game for game in schedule(config, first) if game.index not in games)


def scheduled(config: TournamentConfig, indices: Sequence[int]) -> Iterator[Game]:
    """The games of the schedule with these ``indices`` (sorted), in index order."""
    wanted = set(indices)
    if not wanted:
        return
    for game in schedule(config, indices[0]):
        if game.index in wanted:
            yield game
            wanted.discard(game.index)
            if not wanted:
                return


def hidden_paths(out_dir: Path, history: Path | None) -> list[str]:
    """What a run hides from its sandboxed bots besides the tournament file: its output
    folder and the history database with its journal files (resolved). A folder holding
    one of them (``OUT.old-N`` lies beside the output, the data folder holds the
    database) is never bound whole (``bots.sandbox.view``)."""
    hidden = [str(out_dir.resolve())]
    if history is not None:
        base = str(history.resolve())
        hidden += [base, base + "-wal", base + "-shm", base + "-journal"]
    return hidden


def run_tournament(config: TournamentConfig, out_dir: Path, *, workers: int = 1,
                   executor: str = "process", scheduler: str | None = None,
                   history: History | None = None,
                   progress: ProgressHook | None = None,
                   records: bool = False,
                   started_hook: StartHook | None = None, fresh: bool = False) -> RunOutcome:
    """Run (or continue) a tournament; Ctrl-C stops it cleanly with every game kept.
    With ``records``, every game played now is also written to ``records.jsonl`` as a
    replayable record (``trash replay``), and so is every finished game without one (a
    run started without records, or a folder damaged by an older version): such a game is
    played again for its record only. ``started_hook(out_dir, kept, planned, Kept)`` is
    called once the folder is open and its games are read, before any game is played.
    ``fresh`` starts a new run (see the module docs) instead of continuing one."""
    protect_runner()  # no process of this user reads the runner's memory (the seeds)
    fingerprint = config_fingerprint(config)
    moved = move_aside(out_dir) if fresh else None
    where = out_dir.resolve().as_posix()
    salt = state = None
    if fresh:
        salt = secrets.token_hex(8)
    elif history is not None and not (out_dir / "run.json").exists():
        salt = _newest_salt(history, fingerprint, where)
        identity = fingerprint if salt is None else fingerprint + FRESH + salt
        known = history.tournaments.run_details(identity, where)
        if known is not None:  # the folder is gone: the run goes on as the database says
            secret, seating = read_run_state(known, f"run {identity[:12]} of the database")
            state = {"seating": seating} | ({"secret": secret} if secret else {})
    folder = OutputFolder(out_dir, config, fingerprint, salt, state)
    config = folder.run_config(config)
    planned = total_games(config)
    games = folder.load()
    kept = Kept(from_folder=sum(1 for i in games if 0 <= i < planned), fresh=fresh,
                moved=moved)
    run_id = None
    if history is not None:  # the folder and the database each get what the other kept
        identity = fingerprint if folder.salt is None else fingerprint + FRESH + folder.salt
        details = {"path": str(config.path), "name": config.name}
        if folder.salt is not None:
            details.update(fresh=folder.salt, fingerprint=fingerprint)
        details["seating"] = folder.seating
        if folder.secret is not None:
            details["secret"] = folder.secret
        run_id = history.tournaments.open_run(config.name, identity, where, details)
        stored = {index: game for index, game in history.tournaments.game_results(run_id).items()
                  if is_game(game, *folder.shape) and game["index"] == index}
        folder.append([stored[i] for i in sorted(stored) if i not in games])
        history.tournaments.add_games(run_id, [(i, games[i]) for i in sorted(games)
                                               if i not in stored])
        kept = Kept(kept.from_folder, sum(1 for i in stored if i not in games and
                                          0 <= i < planned), Path(history.path), fresh, moved)
        for index, game in stored.items():
            games.setdefault(index, game)
    recorded = folder.repair_records(games)
    hidden = hidden_paths(out_dir, None if history is None else Path(history.path))
    if started_hook is not None:
        started_hook(out_dir, sum(1 for i in games if 0 <= i < planned), planned, kept)
    sprt = SprtWatch(config) if config.stop.kind == "sprt" else None
    started = time.perf_counter()
    played_now = 0
    status = "finished"

    def decided() -> bool:
        return sprt is not None and sprt.state(games)[2] is not None

    def keep(results: list[dict[str, Any]]) -> None:
        nonlocal played_now
        with interrupts_deferred():  # the folder, the database and the count stay in step
            folder.append(results)
            if history is not None and run_id is not None:
                history.tournaments.add_games(run_id, [(r["index"], r) for r in results])
            for result in results:
                games[result["index"]] = result
            played_now += len(results)

    remaining = planned - sum(1 for i in games if 0 <= i < planned)
    play = bool(remaining) and not decided()
    if remaining and not play:
        status = "sprt"
    unrecorded = ([i for i in sorted(games) if 0 <= i < planned and i not in recorded]
                  if records else [])
    if play or unrecorded:
        size = batch_size(remaining + len(unrecorded), workers)
        jobs = itertools.chain(
            ((True, batch) for batch in batches(scheduled(config, unrecorded), size)),
            ((False, batch) for batch in batches(unfinished(config, games), size) if play))
        limit = max(2, 2 * workers)
        pending: dict[Future, bool] = {}  # True: played again for its records only

        def finish(future: Future) -> None:
            if pending.pop(future):
                with interrupts_deferred():
                    folder.append_records(future.result())
            else:
                keep(future.result())

        try:
            with open_executor(executor, workers, scheduler) as pool:
                try:
                    while True:
                        for only_records, batch in jobs:
                            pending[pool.submit(play_batch, config, batch, records,
                                                out_dir / "logs", hidden)] = only_records
                            if len(pending) >= limit:
                                break
                        if not pending:
                            break
                        done, _ = wait(pending, return_when=FIRST_COMPLETED)
                        for future in done:
                            finish(future)
                        if progress is not None:
                            progress(len(games), planned, time.perf_counter() - started,
                                     games)
                        if play and decided():
                            status = "sprt"
                            break
                except KeyboardInterrupt:
                    status = "stopped"
                    for future in pending:  # keep what is being played; start nothing new
                        future.cancel()
                    for future in list(pending):
                        if future.cancelled():
                            del pending[future]
                        else:
                            with suppress(CancelledError, BrokenExecutor):
                                finish(future)
                for future in list(pending):  # decided by the SPRT: no new game
                    if pending[future]:  # the records of finished games are worth a wait
                        with suppress(CancelledError, BrokenExecutor):
                            finish(future)
                    else:
                        future.cancel()
        except KeyboardInterrupt:  # a second Ctrl-C while the pool shuts down
            status = "stopped"
        finally:
            close_idle()  # bot processes this process kept for its games end with the run
    outcome_games = [games[i] for i in sorted(games) if 0 <= i < planned]
    sprt_info = None
    if sprt is not None:
        boards, llr, decision = sprt.state(games)
        sprt_info = {"boards": boards, "llr": llr, "decision": decision}
        if decision:
            status = "sprt"
            end = sprt.boards_end(boards)
            outcome_games = [r for r in outcome_games if r["index"] < end]
    elif status != "stopped" and len(outcome_games) < planned:
        status = "stopped"
    return RunOutcome(config, out_dir, outcome_games, status, planned, sprt_info, run_id,
                      time.perf_counter() - started, played_now)
