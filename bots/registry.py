"""Finding bots: by registry name, by import path ``package.module:Class``, or by the path
of a user's Python file (``my_bot.py`` or ``my_bot.py:Class``).

A bot specification is a name/path string, or a table such as
``{ name = "normal", seed = 3, mistakes = 0.1 }`` (TOML) whose other keys are the bot's
parameters. In a table that also has ``bot``, ``bot`` is the bot and ``name`` a label.
A table with ``command`` (a program speaking bots/PROTOCOL.md) or ``isolate = true`` is a
bot in its own process (``bots.external``); so is one with ``sandbox = true`` (a Python bot
is then isolated, in the sandbox, ``bots/sandbox.py``).
A user's file that fails to load (whatever it raises, ``sys.exit`` included) or a bot that
fails to start is a ``BotError`` of one printable line.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from bots.base import Bot, BotError
from bots.expert import ExpertBot
from bots.ladder import CounterBot, EasyBot, GreedyBot, HardBot, NormalBot, RandomBot
from trash_tui.text import visible

REGISTRY: dict[str, type[Bot]] = {
    cls.name: cls
    for cls in (RandomBot, GreedyBot, EasyBot, NormalBot, HardBot, CounterBot, ExpertBot)
}
#: Research bots' names (``bots/research/``): never listed, offered or accepted here
#: (tournaments, the app, the CLI); ``bots.research.make_research_bot`` builds them.
RESEARCH_NAMES = frozenset({"oracle"})


def _failed(exc: BaseException) -> str:
    """What a user's code did instead of loading (or starting): one printable line."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({visible(repr(exc.code))})"
    return visible(f"{type(exc).__name__}: {exc}")


def _load_file(path: Path) -> ModuleType:
    if path.is_dir():
        raise BotError(f"bot file {visible(path)}: is a directory, not a Python file")
    if not path.is_file():
        raise BotError(f"bot file {visible(path)}: no such file")
    module_name = f"trash_user_bot_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise BotError(f"bot file {visible(path)}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except KeyboardInterrupt:
        del sys.modules[module_name]
        raise
    except BaseException as exc:  # the user's code may raise anything, or exit, loading
        del sys.modules[module_name]
        raise BotError(f"bot file {visible(path)}: failed to load: {_failed(exc)}") from None
    return module


def _bot_classes(module: ModuleType) -> list[type[Bot]]:
    return [obj for obj in vars(module).values()
            if inspect.isclass(obj) and issubclass(obj, Bot) and not inspect.isabstract(obj)
            and obj.__module__ == module.__name__]


def find_bot(reference: str) -> type[Bot]:
    """The bot class a name, import path or file path refers to; BotError if none. A
    research bot's name (``oracle``) is refused."""
    if reference in REGISTRY:
        return REGISTRY[reference]
    if reference in RESEARCH_NAMES:
        raise BotError(f"bot {reference!r} is for research only (it sees every card): it "
                       "cannot play in tournaments, matches or the app")
    target, _, class_name = reference.partition(":")
    if (target.endswith(".py") or "/" in target or "\\" in target
            or (target and Path(target).is_dir())):
        module = _load_file(Path(target))
        where = f"bot file {visible(target)}"
    elif class_name:
        try:
            module = importlib.import_module(target)
        except ImportError as exc:
            raise BotError(f"bot {visible(reference)}: cannot import {visible(target)}: "
                           f"{visible(exc)}") from None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # a module may raise anything, or exit, on import
            raise BotError(f"bot {visible(reference)}: cannot import {visible(target)}: "
                           f"{_failed(exc)}") from None
        where = f"bot module {visible(target)}"
    else:
        raise BotError(f"unknown bot {reference!r}; known bots are {', '.join(REGISTRY)} "
                       "(or give package.module:Class or a path to a .py file)")
    if class_name:
        cls = getattr(module, class_name, None)
        if not (inspect.isclass(cls) and issubclass(cls, Bot)):
            raise BotError(f"{where}: no Bot subclass named {class_name!r}")
        return cls
    classes = _bot_classes(module)
    if len(classes) != 1:
        found = visible(", ".join(c.__name__ for c in classes) or "none")
        raise BotError(f"{where}: expected exactly one Bot subclass (found {found}); name one "
                       f"with {visible(target)}:ClassName")
    return classes[0]


def parse_spec(text: str) -> dict[str, Any]:
    """A command-line bot spec: a name/path, or an inline TOML table ``{ name = ... }``."""
    text = text.strip()
    if text.startswith("{"):
        try:
            return dict(tomllib.loads(f"bot = {text}")["bot"])
        except tomllib.TOMLDecodeError as exc:
            one_line = " ".join(text.split())
            reason = " ".join(str(exc).split())
            raise BotError(f"bot {visible(one_line)}: not a valid TOML inline table: "
                           f"{visible(reason)}") from None
    return {"name": text}


def make_bot(spec: str | Mapping[str, Any], seed: int | None = None) -> Bot:
    """A configured bot from a spec (see the module docs). ``seed`` overrides the spec's."""
    table = parse_spec(spec) if isinstance(spec, str) else dict(spec)
    if table.get("sandbox") not in (None, False) and "command" not in table:
        table["isolate"] = True  # a sandboxed Python bot runs isolated, in the sandbox
    if "command" in table or table.get("isolate") is True:  # a bot in its own process
        from bots.external import external_bot

        return external_bot(table, seed)
    table.pop("isolate", None)  # isolate = false: in this process, as without the key
    table.pop("sandbox", None)  # sandbox = false: likewise
    if "bot" in table:
        reference = table.pop("bot")
        table.pop("name", None)
    else:
        reference = table.pop("name", None)
    if not isinstance(reference, str) or not reference:
        raise BotError(f"bot {table!r}: say which bot with name = \"...\"")
    cls = find_bot(reference)
    options = dict(table)
    spec_seed = options.pop("seed", 0)
    if seed is not None:
        spec_seed = seed
    try:
        return cls(spec_seed, **options)
    except (BotError, KeyboardInterrupt):
        raise
    except TypeError as exc:
        raise BotError(f"bot {visible(reference)}: {visible(exc)}") from None
    except BaseException as exc:  # a user's bot may fail in any way as it starts
        raise BotError(f"bot {visible(reference)}: failed to start: {_failed(exc)}") from None


def spec_label(spec: str | Mapping[str, Any]) -> str:
    """A short label for a spec: its ``name`` (or bot) and any parameters."""
    table = parse_spec(spec) if isinstance(spec, str) else dict(spec)
    command = table.get("command")
    program = Path(str(command[0])).name if isinstance(command, list) and command else None
    name = table.get("name") or table.get("bot") or program or "?"
    params = ", ".join(f"{k}={v}" for k, v in table.items()
                       if k not in ("name", "bot", "command", "cwd", "env", "sandbox"))
    return f"{name}({params})" if params else str(name)
