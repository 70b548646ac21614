"""The tournament file's bots that play in processes of their own: commands, and isolated
Python bots (``isolate = true``, the default for a user's bot file).

``process_spec`` checks such a ``[[bots]]`` table and returns the spec ``make_bot`` builds
the bot from: ``cwd`` made absolute against the file's folder (default: that folder), a
bot file's path too, ``isolate = true`` for a bot file that does not say otherwise. A
command must name a program that exists; an isolated bot is loaded and built with its
parameters in a separate process (``python -m bots.isolated --check``), so a user's code
never runs in the tournament's own process, not even to check its parameters.

A bot runs in the sandbox (``bots/sandbox.py``) when its table says ``sandbox = true``, or
when the file's ``[sandbox]`` table says ``enabled = true`` and the bot's table does not
say ``sandbox = false``; its spec's ``sandbox`` is then the ``[sandbox]`` settings with
the tournament file among the paths hidden from it. A built-in bot with ``sandbox = true``
is isolated (it runs in a process of its own, in the sandbox). An isolated bot's check
runs in the same sandbox as its games.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bots.base import BotError
from bots.external import EXTERNAL_KEYS, Launch, isolated_command, read_external_spec
from bots.process import BotProcess, bot_environment
from bots.protocol import BotProtocolError, BotSilent
from trash_tui.text import visible

CHECK_TIMEOUT = 60.0  # seconds to load and build an isolated bot when checking the file


def _is_path(reference: str) -> bool:
    target = reference.partition(":")[0]
    return target.endswith(".py") or "/" in target or "\\" in target


def wants_process(item: Mapping[str, Any], reference: Any) -> bool:
    """Whether a ``[[bots]]`` table is a command or an isolated bot (a user's bot file is
    isolated unless it says ``isolate = false``)."""
    if "command" in item or item.get("isolate") is True or item.get("sandbox") is True:
        return True
    return "isolate" not in item and isinstance(reference, str) and _is_path(reference)


def _absolute(path: str, folder: Path) -> str:
    expanded = Path(path).expanduser()
    return os.path.abspath(expanded if expanded.is_absolute() else folder / expanded)


def process_spec(item: Mapping[str, Any], resolved: str | None, folder: Path,
                 sandbox: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The spec of a command or isolated bot (``resolved``: its bot reference with a file
    path made absolute; ``sandbox``: the file's ``[sandbox]`` settings with ``enabled``);
    BotError ``bot LABEL: KEY must be ...`` if it cannot play."""
    spec = dict(item)
    wanted = spec.pop("sandbox", None)
    if wanted is None:
        wanted = bool(sandbox and sandbox.get("enabled"))
    if wanted:
        spec["sandbox"] = {k: v for k, v in (sandbox or {}).items() if k != "enabled"}
    cwd = spec.get("cwd", ".")
    if isinstance(cwd, str) and cwd:
        spec["cwd"] = _absolute(cwd, folder)
    if "command" not in spec:
        spec["bot"] = resolved
        spec["isolate"] = True
    label, launch, _restart, params = read_external_spec(spec)
    if "command" in spec:
        program = launch.command[0]
        if "/" in program:
            path = Path(launch.cwd) / program
            if not (path.is_file() and os.access(path, os.X_OK)):
                raise BotError(f"bot {visible(label)}: command must start with a program that "
                               f"exists and can be run; {visible(path)} is not one")
        elif shutil.which(program, path=dict(launch.env).get("PATH")
                          or os.environ.get("PATH")) is None:
            raise BotError(f"bot {visible(label)}: command must start with a program that "
                           f"exists; {visible(program)} is not on the PATH")
        return spec
    _check_isolated(str(resolved), params, launch)
    return spec


def _check_isolated(reference: str, params: dict[str, Any], launch: Launch) -> None:
    """Load and build the bot in a separate process (in its sandbox if it has one);
    BotError with its one-line problem."""
    command = [*isolated_command(reference)[:-1], "--check", reference, json.dumps(params)]
    cwd, env = launch.cwd, dict(launch.env)
    if launch.sandbox is not None:
        process = BotProcess(command, cwd, bot_environment(env), launch.limits, launch.sandbox,
                             python=True)
        try:
            answer = process.read_line(CHECK_TIMEOUT).decode("utf-8", "replace").strip()
        except BotSilent:
            raise BotError(f"bot {visible(reference)}: took more than {CHECK_TIMEOUT:g} s "
                           "to load") from None
        except BotProtocolError as exc:
            raise BotError(f"bot {visible(reference)}: cannot load in its sandbox: "
                           f"{visible(exc.detail)}") from None
        finally:
            process.kill()
        if answer != "ok":
            raise BotError(visible(answer))
        return
    try:
        done = subprocess.run(command, cwd=cwd, env=bot_environment(env), capture_output=True,
                              text=True, timeout=CHECK_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise BotError(f"bot {visible(reference)}: took more than {CHECK_TIMEOUT:g} s to "
                       "load") from None
    if done.returncode != 0:
        lines = [line for line in done.stdout.splitlines() if line.strip()]
        problem = lines[-1] if lines else (done.stderr.strip().splitlines() or ["?"])[-1]
        raise BotError(visible(problem))


def canonical_process_spec(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A command or isolated bot's spec as it affects play: not where it runs (``cwd``),
    whether it is isolated, sandboxed or restarted; a command's program file by its
    SHA-256."""
    canonical = {k: v for k, v in spec.items()
                 if k not in ("cwd", "isolate", "restart", "sandbox")}
    command = canonical.get("command")
    if isinstance(command, list) and command and "/" in str(command[0]):
        program = Path(str(spec.get("cwd", "."))) / str(command[0])
        try:
            digest = __import__("hashlib").sha256(program.read_bytes()).hexdigest()
        except OSError:
            digest = "unreadable:" + str(command[0])
        canonical["command"] = [f"file:{digest}", *command[1:]]
    return canonical


__all__ = ["EXTERNAL_KEYS", "canonical_process_spec", "process_spec", "wants_process"]
