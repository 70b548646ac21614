"""The SSH server's configuration: the ``[server]`` table of a TOML file, validated.

Every key is optional (``ssh-server.toml`` at the repository top is a commented example)::

    [server]
    host = "127.0.0.1"            # --host overrides it
    port = 2222                   # --port overrides it (0: any free port)
    host_key = "ssh_host_ed25519_key"   # generated on first start (mode 0600), then reused
    auth = "open"                 # "open" (any key) or "allow-list" (authorized_keys only)
    authorized_keys = "authorized_keys" # required with auth = "allow-list"
    password_file = "passwords"   # lines "user:<hash>" (trash serve hash-password); no file:
                                  # passwords are refused
    history = "history.sqlite3"   # the history database every session shares
    players_dir = "players"       # per-player settings files
    log = "ssh.log"               # the connection log (JSON lines)
    max_sessions = 20             # concurrent sessions, all addresses together
    sessions_per_ip = 4           # concurrent sessions from one address
    connections_per_minute = 20   # new connections per address (a token bucket)
    login_timeout = 30            # seconds to authenticate
    idle_timeout = 900            # seconds without a key press before goodbye (0: never)
    keepalive_interval = 30       # seconds between keepalives (0: none)
    keepalive_count_max = 3       # unanswered keepalives before the connection is dropped

Relative paths are relative to the file's folder; ``~`` is expanded. The default paths
are in the user data folder (``default_data_dir()``), the history database is
``trash_tui.history.default_history_path()``.

Every problem is a ``ServeError`` with one line ``path:LINE: server.key: what is wrong``
(``path: server.key: ...`` when the key is not in the file).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from trash_tui.history import default_history_path
from trash_tui.rules import key_text
from trash_tui.toml_file import read_toml
from trash_tui.tournament.config import key_line

TABLE = "server"
AUTH_MODES = ("open", "allow-list")
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 2222
PATH_KEYS = ("host_key", "authorized_keys", "password_file", "history", "players_dir", "log")
#: Whole-number limits: key -> (smallest allowed, default).
COUNT_KEYS: dict[str, tuple[int, int]] = {
    "max_sessions": (1, 20),
    "sessions_per_ip": (1, 4),
    "connections_per_minute": (1, 20),
    "keepalive_count_max": (1, 3),
}
#: Durations in seconds: key -> (whether 0 is allowed, default).
SECONDS_KEYS: dict[str, tuple[bool, float]] = {
    "login_timeout": (False, 30.0),
    "idle_timeout": (True, 900.0),
    "keepalive_interval": (True, 30.0),
}
SERVER_KEYS = ("host", "port", "auth", *PATH_KEYS, *COUNT_KEYS, *SECONDS_KEYS)


class ServeError(ValueError):
    """A server configuration (or start-up) problem; one line, ``path:LINE: key: ...``."""


def default_data_dir() -> Path:
    """The folder of the server's default files: the user data folder of trash-tui."""
    return platformdirs.user_data_path("trash-tui")


@dataclass(frozen=True)
class ServerConfig:
    """A validated server configuration; the defaults are what a missing file gives."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    host_key: Path = field(default_factory=lambda: default_data_dir() / "ssh_host_ed25519_key")
    auth: str = "open"
    authorized_keys: Path | None = None
    password_file: Path | None = None
    history: Path = field(default_factory=default_history_path)
    players_dir: Path = field(default_factory=lambda: default_data_dir() / "players")
    log: Path = field(default_factory=lambda: default_data_dir() / "ssh.log")
    max_sessions: int = 20
    sessions_per_ip: int = 4
    connections_per_minute: int = 20
    login_timeout: float = 30.0
    idle_timeout: float = 900.0
    keepalive_interval: float = 30.0
    keepalive_count_max: int = 3
    source: Path | None = None  # the file it was read from, if any


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


class _Loader:
    """Checks one parsed file and raises ServeError at the first problem."""

    def __init__(self, path: Path, text: str, document: dict[str, Any]) -> None:
        self.path = path
        self.text = text
        self.doc = document

    def error(self, key: str | None, message: str) -> ServeError:
        """An error at ``server.key`` (its line, or the table's line, or no line)."""
        label = TABLE if key is None else f"{TABLE}.{key_text(key)}"
        line = key_line(self.text, key, TABLE) if key is not None else None
        if line is None:
            line = key_line(self.text, None, TABLE)
        where = f"{self.path}:{line}" if line else str(self.path)
        return ServeError(_one_line(f"{where}: {label}: {message}"))

    def top_error(self, key: str, message: str) -> ServeError:
        line = key_line(self.text, key)
        where = f"{self.path}:{line}" if line else str(self.path)
        return ServeError(_one_line(f"{where}: {key_text(key)}: {message}"))

    def load(self) -> dict[str, Any]:
        for key in self.doc:
            if key != TABLE:
                raise self.top_error(key, "unknown key; the file has one [server] table")
        table = self.doc.get(TABLE, {})
        if not isinstance(table, dict):
            raise self.top_error(TABLE, f"expected a [server] table, got {table!r}")
        for key in table:
            if key not in SERVER_KEYS:
                raise self.error(key, "unknown key; known keys are " + ", ".join(SERVER_KEYS))
        values: dict[str, Any] = {"source": self.path}
        if "host" in table:
            values["host"] = self.host(table["host"])
        if "port" in table:
            values["port"] = self.port(table["port"])
        auth = table.get("auth", "open")
        if auth not in AUTH_MODES:
            raise self.error("auth", "expected one of " + ", ".join(map(repr, AUTH_MODES))
                             + f", got {auth!r}")
        values["auth"] = auth
        for key in PATH_KEYS:
            if key in table:
                values[key] = self.path_value(key, table[key])
        for key, (least, _default) in COUNT_KEYS.items():
            if key in table:
                values[key] = self.count(key, table[key], least)
        for key, (zero_ok, _default) in SECONDS_KEYS.items():
            if key in table:
                values[key] = self.seconds(key, table[key], zero_ok)
        self.check_auth_files(values)
        return values

    def host(self, value: Any) -> str:
        if not isinstance(value, str) or not value.strip() or any(c.isspace() for c in value):
            raise self.error("host", "expected an address or host name such as \"127.0.0.1\" "
                                     f"or \"0.0.0.0\", got {value!r}")
        return value

    def port(self, value: Any) -> int:
        if not _is_int(value) or not 0 <= value <= 65535:
            raise self.error("port", "expected a port number from 0 to 65535 (0: any free "
                                     f"port), got {value!r}")
        return value

    def path_value(self, key: str, value: Any) -> Path:
        if not isinstance(value, str) or not value.strip():
            raise self.error(key, f"expected a file path (a string), got {value!r}")
        path = Path(value).expanduser()
        return path if path.is_absolute() else self.path.parent / path

    def count(self, key: str, value: Any, least: int) -> int:
        if not _is_int(value) or value < least:
            raise self.error(key, f"expected a whole number of at least {least}, got {value!r}")
        return value

    def seconds(self, key: str, value: Any, zero_ok: bool) -> float:
        if not _is_number(value) or value < 0 or (value == 0 and not zero_ok):
            least = "0 or more (0: never)" if zero_ok else "above 0"
            raise self.error(key, f"expected a number of seconds {least}, got {value!r}")
        return float(value)

    def check_auth_files(self, values: dict[str, Any]) -> None:
        keys = values.get("authorized_keys")
        if values["auth"] == "allow-list":
            if keys is None:
                raise self.error("auth", "\"allow-list\" needs authorized_keys = \"FILE\" (the "
                                         "public keys allowed in, one per line)")
        elif keys is not None:
            raise self.error("authorized_keys", "only used with auth = \"allow-list\" (auth is "
                                                f"{values['auth']!r})")
        for key in ("authorized_keys", "password_file"):
            path = values.get(key)
            if path is not None and not path.is_file():
                raise self.error(key, f"{path} is not a readable file")


def load_server_config(path: str | Path | None = None, host: str | None = None,
                       port: int | None = None) -> ServerConfig:
    """The configuration of ``path`` (defaults without a file), with ``host`` and ``port``
    overriding the file's; ServeError (one line) on any problem."""
    values: dict[str, Any] = {}
    if path is not None:
        values = _read(Path(path))
    if host is not None:
        values["host"] = host
    if port is not None:
        values["port"] = port
    return ServerConfig(**values)


def _read(path: Path) -> dict[str, Any]:
    text, document = read_toml(path, ServeError)
    return _Loader(path, text, document).load()
