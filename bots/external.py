"""Bots in their own processes: a command speaking ``bots/PROTOCOL.md``, or a Python plug-in
bot isolated behind the same protocol (``isolate = true``).

``ExternalBot`` is an ordinary ``Bot`` to the runner, the tournaments and the app: its
hooks and ``choose`` become protocol messages. A spec names it::

    { name = "mybot", command = ["./mybot", "--depth", "3"], cwd = "bots", env = { X = "1" },
      restart = "never", cpu_limit = 600, memory_limit = 1024, sandbox = true, depth = 3 }
    { bot = "my_bot.py", isolate = true, sandbox = true, forget = 0.5 }

``sandbox = true`` (or a table of the sandbox's limits, ``bots/sandbox.py``) runs the
process in bubblewrap; a machine where the sandbox cannot run makes the spec an error
(one line: what to install, or ``sandbox = false``), never a bot that runs unprotected;
so does a bot that the sandbox would not let read its own folder or files (a root
runner's bot runs as an unprivileged user: ``sandbox.unreadable``).

Keys besides these (and ``seed``) are the bot's parameters, sent in ``hello``. With
``restart = "never"`` (the default outside the sandbox) a process is kept alive across the
matches of one runner process (a worker) and reused; ``"per-match"`` starts a fresh one
each match (or lone deal): a game. A sandboxed bot always gets a fresh process, so a fresh
sandbox and ``/tmp``, each game (``restart = "never"`` is refused with it): nothing it
learnt in one game, a duplicate board's deck above all, reaches the next. A process that
broke the protocol, or whose answer did not come in time, is killed, never reused. A kept
process that has used half of its CPU limit is replaced before a match. Results never
depend on which process a match got: every match starts with ``hello`` and a bot must
start afresh then (PROTOCOL.md).

Every bot process has wall-clock limits: ``move_limit`` seconds to answer one decision
(default ``DEFAULT_MOVE_LIMIT``) and ``game_limit`` seconds of answers in one game
(``DEFAULT_GAME_LIMIT``); the runner's ``time_limit`` or chess clock applies when it is
shorter. Over one, the bot forfeits ("timeout", one line saying which limit, and the bytes
of a line it left without an end) and its process is killed.
"""

from __future__ import annotations

import atexit
import math
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bots import protocol
from bots.base import Bot, BotError
from bots.process import (
    DEFAULT_CPU_LIMIT,
    DEFAULT_MEMORY_LIMIT,
    QUIT_GRACE,
    BotLog,
    BotProcess,
    Limits,
    bot_environment,
    kill_all,
)
from bots.protocol import TIMEOUT, BotProtocolError, BotSilent
from bots.sandbox import Sandbox, read_sandbox, unreadable
from bots.sandbox import problem as sandbox_problem
from trash_tui.engine.observation import Observation
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.rules import Rules

EXTERNAL_KEYS = ("command", "cwd", "env", "isolate", "restart", "cpu_limit", "memory_limit",
                 "sandbox", "move_limit", "game_limit")
RESTARTS = ("never", "per-match")
DEFAULT_MOVE_LIMIT = 10.0  # wall-clock seconds a bot process has to answer one decision
DEFAULT_GAME_LIMIT = 600.0  # wall-clock seconds of its answers in one game (match or deal)
MOVE_LIMITS = (0.001, 3600.0)
GAME_LIMITS = (0.001, 86400.0)
HELLO_TIMEOUT = 10.0  # seconds a bot has to start and answer hello
NOTE_TIMEOUT = 5.0  # seconds to take a message or to answer match_end
PROJECT_ROOT = Path(__file__).resolve().parent.parent  # where the bots package lives


def is_external(spec: Mapping[str, Any]) -> bool:
    """Whether a bot spec (a table) names a process: a command, or an isolated bot."""
    return "command" in spec or spec.get("isolate") is True


def _is_number(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


@dataclass(frozen=True)
class Launch:
    """How to start a bot's process: the command, its folder, environment and limits."""

    command: tuple[str, ...]
    cwd: str
    env: tuple[tuple[str, str], ...] = ()
    limits: Limits = field(default_factory=Limits)
    sandbox: Sandbox | None = None
    python: bool = False  # an isolated Python bot (the sandbox lets it read its interpreter)
    move_limit: float = DEFAULT_MOVE_LIMIT  # wall-clock seconds to answer one decision
    game_limit: float = DEFAULT_GAME_LIMIT  # wall-clock seconds of answers in one game

    def start(self) -> BotProcess:
        return BotProcess(self.command, self.cwd, bot_environment(dict(self.env)), self.limits,
                          self.sandbox, self.python)


def isolated_command(reference: str) -> list[str]:
    """The command that runs the Python bot ``reference`` behind the protocol."""
    return [sys.executable, "-m", "bots.isolated", reference]


def read_external_spec(table: Mapping[str, Any]) -> tuple[str, Launch, str, dict[str, Any]]:
    """(label, launch, restart, parameters) of an external bot's spec; BotError naming the
    key (``bot LABEL: KEY must be ...``) if something is wrong."""
    command = table.get("command")
    isolate = table.get("isolate", False)
    reference = table.get("bot", table.get("name"))
    if command is not None:
        label = str(table.get("name") or (Path(str(command[0])).name if isinstance(
            command, list) and command else "command"))
    else:
        label = Path(str(reference)).stem if reference else "isolated"
    where = f"bot {label}"
    if not isinstance(isolate, bool):
        raise BotError(f"{where}: isolate must be true or false, got {isolate!r}")
    if command is not None:
        if isolate:
            raise BotError(f"{where}: isolate must be false with a command (a command always "
                           "runs in its own process)")
        if not (isinstance(command, list) and command
                and all(isinstance(part, str) and part for part in command)):
            raise BotError(f"{where}: command must be a non-empty list of strings such as "
                           f"[\"./mybot\", \"--depth\", \"3\"], got {command!r}")
        if "bot" in table:
            raise BotError(f"{where}: bot must not be given with a command (name is the "
                           "label, command what runs)")
        argv = list(command)
        extra_env: dict[str, str] = {}
    else:
        if not isinstance(reference, str) or not reference:
            raise BotError(f"{where}: say which Python bot to isolate with bot = \"...\"")
        argv = isolated_command(reference)
        extra_env = {"PYTHONPATH": str(PROJECT_ROOT), "PYTHONHASHSEED": "0",
                     "PYTHONDONTWRITEBYTECODE": "1"}
    cwd = table.get("cwd", os.getcwd())
    if not isinstance(cwd, str) or not cwd:
        raise BotError(f"{where}: cwd must be the path of a folder, got {cwd!r}")
    if not Path(cwd).is_dir():
        raise BotError(f"{where}: cwd must be the path of a folder; {cwd} is not one")
    env = table.get("env", {})
    if not (isinstance(env, Mapping) and all(isinstance(k, str) and isinstance(v, str)
                                             for k, v in env.items())):
        raise BotError(f"{where}: env must be a table of strings such as {{ DEPTH = \"3\" }}, "
                       f"got {env!r}")
    boxed = table.get("sandbox") not in (None, False)
    restart = table.get("restart", "per-match" if boxed else "never")
    if restart not in RESTARTS:
        raise BotError(f"{where}: restart must be one of " + ", ".join(map(repr, RESTARTS))
                       + f", got {restart!r}")
    if boxed and restart != "per-match":
        raise BotError(f"{where}: restart must be \"per-match\" in the sandbox (a fresh "
                       "process each game: a kept one would remember a duplicate board's "
                       f"deck), got {restart!r}")
    cpu = table.get("cpu_limit", DEFAULT_CPU_LIMIT)
    if not (_is_number(cpu) and 0 < cpu <= 10**6):
        raise BotError(f"{where}: cpu_limit must be a number of CPU seconds from 1 to "
                       f"1000000, got {cpu!r}")
    memory = table.get("memory_limit", DEFAULT_MEMORY_LIMIT)
    if not (isinstance(memory, int) and not isinstance(memory, bool)
            and 16 <= memory <= 1 << 20):
        raise BotError(f"{where}: memory_limit must be an integer of MiB from 16 to 1048576, "
                       f"got {memory!r}")
    limits = {}
    for key, default, (low, high) in (("move_limit", DEFAULT_MOVE_LIMIT, MOVE_LIMITS),
                                      ("game_limit", DEFAULT_GAME_LIMIT, GAME_LIMITS)):
        value = table.get(key, default)
        if not (_is_number(value) and low <= value <= high):
            raise BotError(f"{where}: {key} must be a number of seconds from {low:g} to "
                           f"{high:g}, got {value!r}")
        limits[key] = float(value)
    try:
        sandbox = read_sandbox(table.get("sandbox"), where)
    except ValueError as exc:
        raise BotError(str(exc)) from None
    if sandbox is not None:
        problem = sandbox_problem()
        if problem is not None:
            raise BotError(f"{where}: sandbox must be false on this machine: {problem}")
    params = {key: value for key, value in table.items()
              if key not in (*EXTERNAL_KEYS, "name", "bot", "seed")}
    try:
        protocol.encode(params)
    except (TypeError, ValueError):
        raise BotError(f"{where}: parameters must be numbers, strings, booleans, lists or "
                       f"tables, got {params!r}") from None
    if sandbox is not None and command is None and isinstance(reference, str):
        target = reference.partition(":")[0]
        if target.endswith(".py") or "/" in target:  # a bot file: its folder is readable
            folder = os.path.dirname(os.path.abspath(os.path.join(str(cwd), target)))
            sandbox = Sandbox(sandbox.processes, sandbox.files, sandbox.tmp_mb,
                              (*sandbox.read_only, folder), sandbox.hidden)
    files = sandbox.files if sandbox is not None else Limits.files
    launch = Launch(tuple(argv), str(cwd), tuple(sorted({**extra_env, **env}.items())),
                    Limits(float(cpu), memory, files), sandbox, command is None,
                    **limits)
    if sandbox is not None:
        trouble = unreadable(launch.command, launch.cwd, dict(launch.env), sandbox,
                             launch.python)
        if trouble is not None:
            raise BotError(f"{where}: {trouble}")
    return label, launch, restart, params


# --- kept processes -----------------------------------------------------------------------

_idle: dict[Launch, list[BotProcess]] = {}


def _take(launch: Launch) -> tuple[BotProcess, bool]:
    """A kept process for ``launch`` (fresh: False), or a new one (True)."""
    kept = _idle.get(launch, [])
    while kept:
        process = kept.pop()
        if process.alive and process.cpu_seconds() < launch.limits.cpu_seconds / 2:
            return process, False
        process.quit()
    return launch.start(), True


def _keep(launch: Launch, process: BotProcess) -> None:
    _idle.setdefault(launch, []).append(process)


def close_idle() -> None:
    """End every kept process that no match is using (the end of a run): each is told
    ``quit`` and they all share one grace period (``QUIT_GRACE``) to exit."""
    processes = [process for kept in _idle.values() for process in kept]
    _idle.clear()
    for process in processes:
        process.say_quit()
    deadline = time.monotonic() + QUIT_GRACE
    for process in processes:
        process.quit(max(0.0, deadline - time.monotonic()))


def _at_exit() -> None:
    close_idle()
    kill_all()


atexit.register(_at_exit)


def _close_in_worker() -> None:
    """A multiprocessing worker ends with os._exit (no atexit): its finalizers run."""
    try:
        from multiprocessing import util
    except ImportError:  # pragma: no cover - always there in CPython
        return
    util.Finalize(None, _at_exit, exitpriority=10)


_close_in_worker()


# --- the bot ------------------------------------------------------------------------------

class ExternalBot(Bot):
    """A bot in its own process (see the module docs)."""

    name = "external"
    description = "a bot in its own process, spoken to through bots/PROTOCOL.md"

    def __init__(self, spec: Mapping[str, Any], seed: int = 0) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BotError(f"bot {spec.get('name')}: seed must be an integer, got {seed!r}")
        label, launch, restart, params = read_external_spec(spec)
        self.name = label  # type: ignore[misc]
        self.launch = launch
        self.restart = restart
        self.params = params
        self.isolated = "command" not in spec
        self.seed = seed
        self.rng = Rng(derive_seed(seed, "bot", label))
        self.options: dict[str, Any] = dict(params)  # sent in hello
        self.seat, self.players, self.rules = 0, 0, Rules()
        self.process: BotProcess | None = None
        self.pending: list[bytes] = []
        self.in_match = False
        self.remote: dict[str, str] = {}
        self.log: BotLog | None = None
        self.stderr_tail = b""
        self.clock: tuple[float | None, float | None, float | None] = (None, None, None)
        self.budget: float | None = None
        self.spent = 0.0  # wall-clock seconds of its answers in this game

    def describe(self) -> str:
        kind = "isolated" if self.isolated else "command"
        if self.launch.sandbox is not None:
            kind += ", sandboxed"
        return f"{self.name}({kind}, seed={self.seed})"

    # --- the runner's side -------------------------------------------------------------------
    def set_clock(self, remaining: float | None, increment: float | None,
                  limit: float | None, budget: float | None) -> None:
        """What the next decision's message says of the clock, and how long to wait."""
        self.clock = (remaining, increment, limit)
        self.budget = budget

    def _guard(self, action: Any) -> Any:
        try:
            return action()
        except BotProtocolError:
            self._discard()
            raise

    def _begin(self, seat: int, players: int, rules: Rules) -> None:
        if self.in_match:
            self.release()
        process = self.process
        if process is None:
            if self.restart == "never":
                process, _fresh = _take(self.launch)
            else:
                process = self.launch.start()
            self.process = process
        process.log = self.log
        self.pending.clear()
        self.spent = 0.0
        process.send(protocol.hello(rules, seat, players, self.params, self.seed),
                     HELLO_TIMEOUT)
        self.remote = protocol.read_hello(process.read_line(HELLO_TIMEOUT))
        self.in_match = True

    def _process(self) -> BotProcess:
        if self.process is None:
            raise BotProtocolError("error", "the bot's match was not started")
        return self.process

    # --- the Bot interface -----------------------------------------------------------------
    def start_match(self, seat: int, players: int, rules: Rules) -> None:
        super().start_match(seat, players, rules)
        self._guard(lambda: self._begin(seat, players, rules))

    def start_deal(self, observation: Observation) -> None:
        if not self.in_match:  # a single deal (play_deal) without a match around it
            self.seat, self.players, self.rules = (observation.seat, observation.players,
                                                   observation.rules)
            self._guard(lambda: self._begin(observation.seat, observation.players,
                                            observation.rules))
        self.pending.append(protocol.deal_start(observation))

    def _own_limit(self) -> tuple[float, str]:
        """The wall-clock seconds this decision may take by the bot's own limits, and
        which limit that is (the move limit, or what is left of the game's)."""
        move, left = self.launch.move_limit, self.launch.game_limit - self.spent
        if left < move:
            return max(0.0, left), (f"its game limit ran out: "
                                    f"{self.launch.game_limit:g} s of answers in one game, "
                                    f"game_limit = {self.launch.game_limit:g}")
        return move, f"its move limit, move_limit = {move:g}"

    def choose(self, observation: Observation, legal: Sequence[int]) -> int:
        own, which = self._own_limit()
        budget = self.budget
        mine = budget is None or own < budget  # the bot's own limit comes first
        wait = own if mine or budget is None else budget
        started = time.monotonic()
        try:  # _guard without its lambda: this runs for every decision
            process = self._process()
            message = protocol.decide(observation, legal, *self.clock)
            if self.pending:
                message = b"".join(self.pending) + message
                self.pending.clear()
            if wait <= 0:
                raise BotSilent(0.0)
            process.send(message, wait)
            answer = process.read_line(max(0.001, wait - (time.monotonic() - started)))
            process.check_limits()
            return protocol.read_action(answer)
        except BotSilent as silent:
            if not mine:  # the runner's time limit or clock: it words the forfeit
                self._discard()
                raise
            partial = len(self.process.buffer) if self.process is not None else 0
            self._discard()
            detail = f"no answer within {wait:g} s ({which})"
            if partial:
                detail += f"; it wrote {partial} bytes with no end of line"
            raise BotProtocolError(TIMEOUT, detail) from silent
        except BotProtocolError:
            self._discard()
            raise
        finally:
            self.spent += time.monotonic() - started

    def end_deal(self, observation: Observation) -> None:
        self.pending.append(protocol.deal_end(observation))

    def end_match(self, places: Sequence[int]) -> None:
        self._guard(lambda: self._finish(places))

    def _finish(self, places: Sequence[int] | None,
                forfeit: tuple[int, str] | None = None) -> None:
        process = self._process()
        message = b"".join(self.pending) + protocol.match_end(places, forfeit)
        self.pending.clear()
        process.send(message, NOTE_TIMEOUT)
        protocol.read_ok(process.read_line(NOTE_TIMEOUT))
        self.in_match = False
        self._hand_back()

    def release(self, places: Sequence[int] | None = None, seat: int | None = None,
                reason: str = "") -> None:
        """The match is over for this bot, however it ended: a bot still in one is told it
        stopped (``match_end`` with the places when ``seat`` forfeited for ``reason``,
        else without); its process is kept or ended."""
        if self.in_match and self.process is not None:
            try:
                self._finish(places, None if seat is None else (seat, reason))
            except BotProtocolError:
                self._discard()
        elif self.process is not None:
            self._hand_back()
        self.in_match = False

    def _hand_back(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        self.stderr_tail = bytes(process.stderr_tail)
        if self.restart == "never" and process.alive:
            process.drain_stderr()
            process.flush_stderr()
            process.log = None
            _keep(self.launch, process)
        else:
            process.quit()

    def _discard(self) -> None:
        """A process in an unknown state (it failed, or its answer is late): killed."""
        process, self.process = self.process, None
        self.in_match = False
        self.pending.clear()
        if process is not None:
            process.kill()
            self.stderr_tail = bytes(process.stderr_tail)

    def __del__(self) -> None:
        process = self.__dict__.get("process")
        if process is not None:
            process.kill()


def external_bot(spec: Mapping[str, Any], seed: int | None = None) -> ExternalBot:
    """An ExternalBot from a spec table (``seed`` overrides the spec's)."""
    table = dict(spec)
    own = table.pop("seed", 0)
    return ExternalBot(table, own if seed is None else seed)
