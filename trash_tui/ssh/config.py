"""The SSH server's configuration: the ``[server]`` table of a TOML file, validated.

Every key is optional (``ssh-server.toml`` at the repository top is a commented example)::

    [server]
    host = "127.0.0.1"            # --host overrides it
    port = 2222                   # --port overrides it (0: any free port)
    public_host = "games.example.org"   # where players reach it (the join hint's host);
                                  # --public-host or $TRASH_PUBLIC_HOST overrides it;
                                  # default: host, or this machine's fully qualified name
                                  # when host is a wildcard or loopback address
    public_port = 2222            # the join hint's port; default: the port listened on
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
    max_connections = 100         # open connections, all addresses together
    connections_per_ip = 8        # open connections from one address (logged in or not)
    connections_per_minute = 20   # new connections per address (a token bucket)
    login_timeout = 30            # seconds to authenticate
    session_open_timeout = 10     # seconds a logged-in connection may go without a session
    idle_timeout = 900            # seconds without a key press before goodbye (0: never)
    keepalive_interval = 30       # seconds between keepalives (0: none)
    keepalive_count_max = 3       # unanswered keepalives before the connection is dropped
    session_cpu_seconds = 3600    # CPU time of one session's app (0: no limit)
    session_memory_mb = 1024      # memory (address space) of one session's app (0: no limit)
    max_tables = 50               # shared tables open on the server
    tables_per_player = 2         # open shared tables one player hosts
    spectators_per_table = 20     # people watching one table
    chat_per_minute = 12          # chat lines one player may send a minute
    table_empty_timeout = 600     # seconds a table with nobody connected stays open
    chat_days = 3                 # days the tables' chat is kept for the operator's
                                  # reports (0: not kept; a report still holds its 20 lines)
    admin_socket = "admin.sock"   # the admin console's socket (trash admin); default: in
                                  # the data folder, beside the history database
    motd_file = "motd.txt"        # the message of the day, read at start and on SIGHUP
                                  # (default: none; ``trash admin motd`` sets one too)
    metrics = "127.0.0.1:9464"    # a Prometheus endpoint (HOST:PORT, or PORT on 127.0.0.1);
                                  # default: none
    record_sessions = false       # record what each session draws (asciicast v2 files in
                                  # recordings/ of the data folder; tell your players)
    recordings_days = 14          # recordings older than this are deleted
    recording_max_mb = 50         # one recording stops at this size

The web face (``trash_tui.web``) has its own table, ``[web]`` (``WebConfig``; no
``port``: no web face)::

    [web]
    port = 8080                   # --web overrides it; absent: no web face
    host = "127.0.0.1"            # where it listens ("0.0.0.0": every interface)
    public_url = "https://games.example.org"  # where players open the page (default:
                                  # http(s)://<public host>:<port>)
    tls_certificate = "cert.pem"  # both or neither: https and wss (else plain http,
    tls_key = "key.pem"           # e.g. behind a reverse proxy that does TLS)
    trusted_proxies = ["127.0.0.1"]  # whose X-Forwarded-For/-Proto are believed

Relative paths are relative to the file's folder; ``~`` is expanded. The default paths
are in the user data folder (``default_data_dir()``), the history database is
``trash_tui.history.default_history_path()``.

Every number has bounds (a value outside them, NaN or infinity is refused). Every problem
is a ``ServeError`` with one line ``path:LINE: server.key: what is wrong``
(``path: server.key: ...`` when the key is not in the file); ``config_problems`` gives
every problem of a file, one line each (``trash serve --check``).

``public_host_problem`` says when the join hint would name a host players cannot reach:
``public_host`` unset on a wildcard address, and the machine's name a container's (its
id) or one without a domain.
"""

from __future__ import annotations

import ipaddress
import math
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import platformdirs

from trash_tui.history import default_history_path
from trash_tui.rules import key_text
from trash_tui.text import is_unsafe, visible
from trash_tui.toml_file import read_toml
from trash_tui.tournament.config import key_line

TABLE = "server"
WEB_TABLE = "web"
WEB_KEYS = ("host", "port", "public_url", "tls_certificate", "tls_key", "trusted_proxies")
MAX_PROXIES = 100
AUTH_MODES = ("open", "allow-list")
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 2222
PATH_KEYS = ("host_key", "authorized_keys", "password_file", "history", "players_dir", "log",
             "admin_socket", "motd_file")
#: Whole-number limits: key -> (smallest, largest allowed; 0 also allowed: "no limit").
COUNT_KEYS: dict[str, tuple[int, int, bool]] = {
    "max_sessions": (1, 10_000, False),
    "sessions_per_ip": (1, 1_000, False),
    "max_connections": (1, 100_000, False),
    "connections_per_ip": (1, 10_000, False),
    "connections_per_minute": (1, 100_000, False),
    "keepalive_count_max": (1, 100, False),
    "session_cpu_seconds": (10, 7 * 24 * 3600, True),
    "session_memory_mb": (256, 1 << 20, True),
    "max_tables": (1, 10_000, False),
    "tables_per_player": (1, 100, False),
    "spectators_per_table": (0, 10_000, False),
    "chat_per_minute": (1, 600, False),
    "chat_days": (1, 3650, True),
    "recordings_days": (1, 3650, False),
    "recording_max_mb": (1, 100_000, False),
}
#: Yes-or-no keys.
BOOL_KEYS = ("record_sessions",)
#: Durations in seconds: key -> (smallest, largest allowed; 0 also allowed: "never").
SECONDS_KEYS: dict[str, tuple[float, float, bool]] = {
    "login_timeout": (1.0, 3600.0, False),
    "session_open_timeout": (1.0, 3600.0, False),
    "idle_timeout": (1.0, 7 * 24 * 3600.0, True),
    "keepalive_interval": (1.0, 3600.0, True),
    "table_empty_timeout": (10.0, 7 * 24 * 3600.0, False),
}
SERVER_KEYS = ("host", "port", "public_host", "public_port", "auth", *PATH_KEYS,
               *COUNT_KEYS, *SECONDS_KEYS, *BOOL_KEYS, "metrics")
ADMIN_SOCKET = "admin.sock"  # the admin console's socket, in the data folder by default
RECORDINGS = "recordings"  # the sessions' recordings, in the data folder
METRICS_HOST = "127.0.0.1"  # where the metrics endpoint listens when only a port is given


class ServeError(ValueError):
    """A server configuration (or start-up) problem; one line, ``path:LINE: key: ...``."""


def default_data_dir() -> Path:
    """The folder of the server's default files: the user data folder of trash-tui."""
    return platformdirs.user_data_path("trash-tui")


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class WebConfig:
    """The ``[web]`` table, validated: the web face is on when ``port`` is set."""

    port: int | None = None  # None: no web face; 0: any free port
    host: str = DEFAULT_HOST
    public_url: str | None = None  # None: http(s)://<public host>:<port>
    tls_certificate: Path | None = None
    tls_key: Path | None = None
    trusted_proxies: tuple[Network, ...] = ()

    @property
    def tls(self) -> bool:
        return self.tls_certificate is not None and self.tls_key is not None


@dataclass(frozen=True)
class ServerConfig:
    """A validated server configuration; the defaults are what a missing file gives."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    public_host: str | None = None  # None: ``public_address`` decides
    public_port: int | None = None  # None: the port listened on
    host_key: Path = field(default_factory=lambda: default_data_dir() / "ssh_host_ed25519_key")
    auth: str = "open"
    authorized_keys: Path | None = None
    password_file: Path | None = None
    history: Path = field(default_factory=default_history_path)
    players_dir: Path = field(default_factory=lambda: default_data_dir() / "players")
    log: Path = field(default_factory=lambda: default_data_dir() / "ssh.log")
    max_sessions: int = 20
    sessions_per_ip: int = 4
    max_connections: int = 100
    connections_per_ip: int = 8
    connections_per_minute: int = 20
    login_timeout: float = 30.0
    session_open_timeout: float = 10.0
    idle_timeout: float = 900.0
    keepalive_interval: float = 30.0
    keepalive_count_max: int = 3
    session_cpu_seconds: int = 3600
    session_memory_mb: int = 1024
    max_tables: int = 50
    tables_per_player: int = 2
    spectators_per_table: int = 20
    chat_per_minute: int = 12
    table_empty_timeout: float = 600.0
    chat_days: int = 3
    admin_socket: Path | None = None  # None: ADMIN_SOCKET beside the history database
    motd_file: Path | None = None  # the message of the day's file, if any
    metrics: tuple[str, int] | None = None  # the Prometheus endpoint's (host, port)
    record_sessions: bool = False  # asciicast v2 recordings of every session
    recordings_days: int = 14  # recordings older than this are deleted
    recording_max_mb: int = 50  # a recording stops at this size
    web: WebConfig = field(default_factory=WebConfig)  # the web face's ([web])
    source: Path | None = None  # the file it was read from, if any

    @property
    def admin_path(self) -> Path:
        """The admin console's socket: ``admin_socket``, else in the data folder (the
        history database's)."""
        return self.admin_socket or self.history.parent / ADMIN_SOCKET

    @property
    def recordings_path(self) -> Path:
        """The sessions' recordings: ``recordings/`` in the data folder (the history
        database's)."""
        return self.history.parent / RECORDINGS


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _shown(value: Any) -> str:
    """A value from the file as an error message shows it: escaped, and cut if long."""
    if _is_int(value) and abs(value) >= 10 ** 30:
        return "a number of more than 30 digits"
    return visible(repr(value), limit=80)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


class _Loader:
    """Checks one parsed file and raises ServeError at the first problem."""

    def __init__(self, path: Path, text: str, document: dict[str, Any],
                 problems: list[str] | None = None) -> None:
        self.path = path
        self.text = text
        self.doc = document
        self.problems = problems  # a list: every problem is added to it, none raised

    def fail(self, problem: ServeError) -> None:
        """Raise ``problem``, or (collecting) add it to the problems and go on."""
        if self.problems is None:
            raise problem
        self.problems.append(str(problem))

    def keep(self, values: dict[str, Any], key: str, read: Callable[[], Any]) -> None:
        """``values[key] = read()``, unless it fails (``fail``)."""
        try:
            values[key] = read()
        except ServeError as exc:
            self.fail(exc)

    def error(self, key: str | None, message: str, table: str = TABLE) -> ServeError:
        """An error at ``server.key`` (its line, or the table's line, or no line)."""
        label = table if key is None else f"{table}.{key_text(key)}"
        line = key_line(self.text, key, table) if key is not None else None
        if line is None:
            line = key_line(self.text, None, table)
        where = f"{self.path}:{line}" if line else str(self.path)
        return ServeError(_one_line(f"{where}: {label}: {message}"))

    def top_error(self, key: str, message: str) -> ServeError:
        line = key_line(self.text, key)
        where = f"{self.path}:{line}" if line else str(self.path)
        return ServeError(_one_line(f"{where}: {key_text(key)}: {message}"))

    def load(self) -> dict[str, Any]:
        for key in self.doc:
            if key not in (TABLE, WEB_TABLE):
                self.fail(self.top_error(key, "unknown key; the file has a [server] table "
                                              "and a [web] table"))
        table = self.doc.get(TABLE, {})
        if not isinstance(table, dict):
            self.fail(self.top_error(TABLE, f"expected a [server] table, got {_shown(table)}"))
            table = {}
        for key in table:
            if key not in SERVER_KEYS:
                self.fail(self.error(key, "unknown key; known keys are "
                                     + ", ".join(SERVER_KEYS)))
        values: dict[str, Any] = {"source": self.path}
        if "host" in table:
            self.keep(values, "host", lambda: self.host(table["host"]))
        if "port" in table:
            self.keep(values, "port", lambda: self.port(table["port"]))
        if "public_host" in table:
            self.keep(values, "public_host",
                      lambda: self.host(table["public_host"], "public_host"))
        if "public_port" in table:
            self.keep(values, "public_port", lambda: self.public_port(table["public_port"]))
        self.keep(values, "auth", lambda: self.auth(table.get("auth", "open")))
        for key in PATH_KEYS:
            if key in table:
                self.keep(values, key, lambda key=key: self.path_value(key, table[key]))
        for key, (least, most, zero_ok) in COUNT_KEYS.items():
            if key in table:
                self.keep(values, key, lambda key=key, least=least, most=most, zero_ok=zero_ok:
                          self.count(key, table[key], least, most, zero_ok))
        for key, (shortest, longest, zero_ok) in SECONDS_KEYS.items():
            if key in table:
                self.keep(values, key, lambda key=key, shortest=shortest, longest=longest,
                          zero_ok=zero_ok: self.seconds(key, table[key], shortest, longest,
                                                        zero_ok))
        for key in BOOL_KEYS:
            if key in table:
                self.keep(values, key, lambda key=key: self.boolean(key, table[key]))
        if "metrics" in table:
            self.keep(values, "metrics", lambda: self.metrics(table["metrics"]))
        self.check_limits(values)
        self.check_auth_files(values)
        if WEB_TABLE in self.doc:
            values["web"] = self.web(self.doc[WEB_TABLE])
        return values

    # --- [web] ------------------------------------------------------------------------------
    def web(self, table: Any) -> WebConfig:
        """The ``[web]`` table (every problem located as ``web.key``)."""
        if not isinstance(table, dict):
            self.fail(self.top_error(WEB_TABLE, f"expected a [web] table, got {_shown(table)}"))
            return WebConfig()
        for key in table:
            if key not in WEB_KEYS:
                self.fail(self.error(key, "unknown key; known keys are " + ", ".join(WEB_KEYS),
                                     WEB_TABLE))
        values: dict[str, Any] = {}
        readers: dict[str, Callable[[Any], Any]] = {
            "host": self.web_host, "port": self.web_port, "public_url": self.public_url,
            "tls_certificate": lambda v: self.web_file("tls_certificate", v),
            "tls_key": lambda v: self.web_file("tls_key", v),
            "trusted_proxies": self.trusted_proxies}
        for key, read in readers.items():
            if key in table:
                self.keep(values, key, lambda read=read, key=key: read(table[key]))
        if ("tls_certificate" in table) != ("tls_key" in table):
            given, missing = (("tls_certificate", "tls_key") if "tls_certificate" in table
                              else ("tls_key", "tls_certificate"))
            self.fail(self.error(given, f"needs {missing} too (both or neither)", WEB_TABLE))
            values.pop(given, None)
        return WebConfig(**values)

    def web_host(self, value: Any) -> str:
        if not is_host_text(value):
            raise self.error("host", "expected an address to listen on such as \"127.0.0.1\" "
                                     f"or \"0.0.0.0\", got {_shown(value)}", WEB_TABLE)
        return value

    def web_port(self, value: Any) -> int:
        if not _is_int(value) or not 0 <= value <= 65535:
            raise self.error("port", "expected a port number from 0 to 65535 (0: any free "
                                     f"port), got {_shown(value)}", WEB_TABLE)
        return int(value)

    def public_url(self, value: Any) -> str:
        problem = self.error("public_url", "expected the page's address such as "
                             f"\"https://games.example.org\", got {_shown(value)}", WEB_TABLE)
        if not isinstance(value, str) or any(c.isspace() or is_unsafe(c) for c in value):
            raise problem
        parts = urlsplit(value)
        try:
            parts.port  # noqa: B018  (a bad port raises)
        except ValueError:
            raise problem from None
        if parts.scheme not in ("http", "https") or not parts.hostname or \
                parts.path not in ("", "/") or parts.query or parts.fragment or \
                "@" in parts.netloc or any(c in value for c in "<>\"'`"):
            raise problem
        return value.rstrip("/")

    def web_file(self, key: str, value: Any) -> Path:
        if not isinstance(value, str) or not value.strip() or "\0" in value:
            raise self.error(key, f"expected a file path (a string), got {_shown(value)}",
                             WEB_TABLE)
        path = Path(value).expanduser()
        path = path if path.is_absolute() else self.path.parent / path
        if not path.is_file():
            raise self.error(key, f"{path} is not a readable file", WEB_TABLE)
        return path

    def trusted_proxies(self, value: Any) -> tuple[Network, ...]:
        if not isinstance(value, list) or len(value) > MAX_PROXIES:
            raise self.error("trusted_proxies", "expected a list of addresses or networks "
                             f"such as [\"127.0.0.1\", \"10.0.0.0/8\"], got {_shown(value)}",
                             WEB_TABLE)
        networks = []
        for item in value:
            try:
                networks.append(ipaddress.ip_network(str(item).strip().strip("[]"),
                                                     strict=False))
            except ValueError:
                raise self.error("trusted_proxies", "expected an address or network "
                                 f"such as \"10.0.0.0/8\", got {_shown(item)}",
                                 WEB_TABLE) from None
            if not isinstance(item, str):
                raise self.error("trusted_proxies", "expected an address or network "
                                 f"such as \"10.0.0.0/8\", got {_shown(item)}", WEB_TABLE)
        return tuple(networks)

    def boolean(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.error(key, f"expected true or false, got {_shown(value)}")
        return value

    def public_port(self, value: Any) -> int:
        if not _is_int(value) or not 1 <= value <= 65535:
            raise self.error("public_port", "expected the port number players connect "
                                            f"to, from 1 to 65535, got {_shown(value)}")
        return int(value)

    def auth(self, value: Any) -> str:
        if value not in AUTH_MODES:
            raise self.error("auth", "expected one of " + ", ".join(map(repr, AUTH_MODES))
                             + f", got {_shown(value)}")
        return str(value)

    def metrics(self, value: Any) -> tuple[str, int] | None:
        """``"HOST:PORT"``, ``"[V6]:PORT"`` or ``"PORT"`` (on 127.0.0.1); "" is off."""
        if value == "":
            return None
        problem = self.error("metrics", "expected \"HOST:PORT\" such as \"127.0.0.1:9464\" "
                                        f"(or \"\": no endpoint), got {_shown(value)}")
        if _is_int(value):
            value = str(value)
        if not isinstance(value, str):
            raise problem
        host, colon, port = value.rpartition(":")
        if not colon:
            host, port = METRICS_HOST, value
        host = host.strip("[]")
        if not port.isdigit() or not 0 <= int(port) <= 65535 or \
                any(c.isspace() or is_unsafe(c) for c in host) or not host:
            raise problem
        return host, int(port)

    def host(self, value: Any, key: str = "host") -> str:
        if not is_host_text(value):
            example = ("\"games.example.org\" or \"203.0.113.7\"" if key != "host" else
                       "\"127.0.0.1\" or \"0.0.0.0\"")
            raise self.error(key, f"expected an address or host name such as {example}, got "
                                  f"{_shown(value)}")
        return value

    def port(self, value: Any) -> int:
        if not _is_int(value) or not 0 <= value <= 65535:
            raise self.error("port", "expected a port number from 0 to 65535 (0: any free "
                                     f"port), got {_shown(value)}")
        return value

    def path_value(self, key: str, value: Any) -> Path:
        if not isinstance(value, str) or not value.strip() or "\0" in value:
            raise self.error(key, f"expected a file path (a string), got {_shown(value)}")
        try:
            path = Path(value).expanduser()
        except RuntimeError:  # ~user of a user this machine does not have
            user = value[1:].split("/", 1)[0]
            raise self.error(key, f"{_shown(value)} starts with ~{visible(user)}, but there is "
                                  "no such user here; write the whole path") from None
        return path if path.is_absolute() else self.path.parent / path

    def count(self, key: str, value: Any, least: int, most: int, zero_ok: bool) -> int:
        if not _is_int(value) or not (least <= value <= most or (zero_ok and value == 0)):
            zero = " (0: no limit)" if zero_ok else ""
            raise self.error(key, f"expected a whole number from {least} to {most}{zero}, got "
                                  f"{_shown(value)}")
        return int(value)

    def seconds(self, key: str, value: Any, shortest: float, longest: float, zero_ok: bool
                ) -> float:
        if not _is_number(value) or not (shortest <= value <= longest
                                          or (zero_ok and value == 0)):
            zero = " (0: never)" if zero_ok else ""
            raise self.error(key, f"expected a number of seconds from {shortest:g} to "
                                  f"{longest:g}{zero}, got {_shown(value)}")
        return float(value)

    def check_limits(self, values: dict[str, Any]) -> None:
        """Limits that only make sense together."""
        sessions = values.get("max_sessions", ServerConfig.max_sessions)
        connections = values.get("max_connections", ServerConfig.max_connections)
        if connections < sessions:
            self.fail(self.error("max_connections", f"must be at least max_sessions "
                                 f"({sessions}): every session needs a connection"))
        per_address = values.get("connections_per_ip", ServerConfig.connections_per_ip)
        if per_address > connections:
            self.fail(self.error("connections_per_ip", f"must be at most max_connections "
                                 f"({connections})"))

    def check_auth_files(self, values: dict[str, Any]) -> None:
        keys = values.get("authorized_keys")
        auth = values.get("auth", "open")
        if auth == "allow-list":
            if keys is None:
                self.fail(self.error("auth", "\"allow-list\" needs authorized_keys = \"FILE\" "
                                             "(the public keys allowed in, one per line)"))
        elif keys is not None:
            self.fail(self.error("authorized_keys", "only used with auth = \"allow-list\" "
                                                    f"(auth is {auth!r})"))
        for key in ("authorized_keys", "password_file"):
            path = values.get(key)
            if path is not None and not path.is_file():
                self.fail(self.error(key, f"{path} is not a readable file"))


def is_host_text(value: Any) -> bool:
    """Whether ``value`` may be a host name or address: a string with no space or
    control character."""
    return isinstance(value, str) and bool(value.strip()) and \
        not any(c.isspace() or is_unsafe(c) for c in value)


def is_local_or_wildcard(host: str) -> bool:
    """Whether ``host`` is an address nobody elsewhere reaches the server by: a wildcard
    ("0.0.0.0", "::", "") or a loopback address ("127.0.0.1", "::1", "localhost")."""
    name = host.strip().strip("[]")
    if name in ("", "*", "localhost") or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return False
    return address.is_unspecified or address.is_loopback


def public_address(config: ServerConfig, listened_port: int) -> tuple[str, int]:
    """Where players reach the server (the join hint ``ssh -p PORT CODE@HOST``):
    ``public_host``, else ``host`` unless it is a wildcard or loopback address, else this
    machine's fully qualified name; ``public_port``, else the port listened on."""
    host = config.public_host
    if host is None:
        host = config.host if not is_local_or_wildcard(config.host) else socket.getfqdn()
    return host, config.public_port or listened_port


def load_server_config(path: str | Path | None = None, host: str | None = None,
                       port: int | None = None, public_host: str | None = None,
                       web_port: int | None = None) -> ServerConfig:
    """The configuration of ``path`` (defaults without a file), with ``host``, ``port``,
    ``public_host`` and the web face's port overriding the file's; ServeError (one line)
    on any problem."""
    values: dict[str, Any] = {}
    if path is not None:
        values = _read(Path(path))
    _override(values, host, port, public_host, web_port)
    return ServerConfig(**values)


def _override(values: dict[str, Any], host: str | None, port: int | None,
              public_host: str | None, web_port: int | None = None) -> None:
    for key, value in (("host", host), ("port", port), ("public_host", public_host)):
        if value is not None:
            values[key] = value
    if web_port is not None:
        values["web"] = replace(values.get("web", WebConfig()), port=web_port)


def _read(path: Path) -> dict[str, Any]:
    text, document = read_toml(path, ServeError)
    return _Loader(path, text, document).load()


def config_problems(path: str | Path | None = None, host: str | None = None,
                    port: int | None = None, public_host: str | None = None,
                    web_port: int | None = None) -> tuple[ServerConfig | None, list[str]]:
    """Every problem of the file at ``path``, one line each, and the configuration its
    good keys give (None when the file cannot be read at all): the same reader as
    ``load_server_config``, going on past each problem."""
    problems: list[str] = []
    values: dict[str, Any] = {}
    if path is not None:
        path = Path(path)
        try:
            text, document = read_toml(path, ServeError)
        except ServeError as exc:
            return None, [str(exc)]
        values = _Loader(path, text, document, problems).load()
    _override(values, host, port, public_host, web_port)
    return ServerConfig(**values), problems


#: Files a container engine leaves at the root of a container's file system.
CONTAINER_MARKERS = (Path("/.dockerenv"), Path("/run/.containerenv"))
_CONTAINER_ID = re.compile(r"[0-9a-f]{12}|[0-9a-f]{64}")


def container_name(name: str) -> bool:
    """Whether host name ``name`` looks like a container's (the first 12 hex digits of
    its id, or all 64), or this process runs in a container (Docker's or Podman's
    marker file) and ``name`` is its host name."""
    if _CONTAINER_ID.fullmatch(name.split(".", 1)[0]):
        return True
    return any(marker.exists() for marker in CONTAINER_MARKERS) and \
        name.split(".", 1)[0] == socket.gethostname().split(".", 1)[0]


def public_host_problem(config: ServerConfig, port: int | None = None) -> str | None:
    """One line when ``public_host`` is unset and the join hint would name this machine
    by a name players elsewhere cannot reach (a container's id, or a name with no
    domain) while the server listens on every interface; else None."""
    if config.public_host is not None or not is_local_or_wildcard(config.host):
        return None
    name = config.host.strip().strip("[]")
    try:
        if not ipaddress.ip_address(name.split("%", 1)[0]).is_unspecified:
            return None  # loopback: nobody elsewhere plays here anyway
    except ValueError:
        return None  # localhost
    host, public_port = public_address(config, port if port is not None else config.port)
    if container_name(host):
        what = "the container's name (its id)"
    elif "." not in host:
        what = "a name without a domain, which other machines rarely resolve"
    else:
        return None
    where = f"{config.source}: " if config.source else ""
    return (f"{where}server.public_host: not set, so players are told "
            f"\"ssh -p {public_port} CODE@{visible(host, limit=80)}\", {what}: set "
            "public_host to the name or address players reach this server by")


#: The longest message of the day kept from its file (the screens show less).
MOTD_FILE_LENGTH = 500


def read_motd_file(path: Path) -> str | None:
    """The message of the day in the file at ``path``: its lines joined by spaces (None
    when there are none); ServeError (one line) when it cannot be read."""
    try:
        with path.open("rb") as file:
            data = file.read(16 * 1024)
    except OSError as exc:
        raise ServeError(f"{path}: cannot read the message of the day (motd_file): "
                         f"{exc.strerror or exc}") from None
    text = " ".join(data.decode("utf-8", "replace").split())
    return text[:MOTD_FILE_LENGTH] or None
