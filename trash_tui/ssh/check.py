"""``trash serve --check`` (and ``trash admin check``): the server's config and data folder
checked without starting anything, one line per problem.

What it looks at: every key of the config (``config.config_problems``: the server's own
reader, going on past each problem), the host key (an existing one must read as a key and
be its owner's only; a missing one is made at start, so its folder must take it), the
authorized keys and password files, every folder the server writes in (a file tried in
each, or in the nearest folder that exists when it is still to be made), the history
database (opened read-only: ``quick_check``, and not from a newer version), a folder for
temporary files (``temporary_folder_problem``, which the start checks too), the message
of the day's file, ``public_host`` (``config.public_host_problem``) and the ports: the
SSH port and the metrics endpoint's must be free, unless a server already runs with this
data folder (its admin socket answers), whose own ports they are.

Nothing is made, changed or started: no host key, database, log or socket.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from trash_tui.ssh.config import (
    ServeError,
    ServerConfig,
    WebConfig,
    config_problems,
    public_address,
    public_host_problem,
    read_motd_file,
)


@dataclass
class CheckResult:
    """The problems found (one line each) and, when fine, what the server will do."""

    problems: list[str] = field(default_factory=list)
    config: ServerConfig | None = None
    running: bool = False  # a server answers on the admin socket: ports not checked

    def summary(self, path: Path | None) -> str:
        """The last line ``--check`` prints."""
        where = str(path) if path is not None else "the default config"
        count = len(self.problems)
        if count:
            return (f"trash serve --check: {count} problem{'s' if count != 1 else ''} in "
                    f"{where} and its data folder")
        config = self.config
        assert config is not None
        host, port = public_address(config, config.port)
        listen = f"[{config.host}]" if ":" in config.host else config.host
        ports = ("a server is running with this data folder, so its ports were not "
                 "checked" if self.running else f"listens on {listen}:{config.port}")
        web = config.web
        page = ""
        if web.port is not None:
            web_host = f"[{web.host}]" if ":" in web.host else web.host
            page = (f"; the web face listens on {web_host}:{web.port}"
                    f"{' with TLS' if web.tls else ''}"
                    + (f", its page {web.public_url}/" if web.public_url else ""))
        return (f"trash serve --check: all fine ({where}; data folder "
                f"{config.history.parent}; {ports}; players are told ssh -p {port} "
                f"CODE@{host}{page})")


def check_server(path: Path | None, host: str | None = None, port: int | None = None,
                 public_host: str | None = None, web_port: int | None = None) -> CheckResult:
    """Every problem of the config at ``path`` (with ``host``, ``port`` and
    ``public_host`` overriding it) and of its data folder."""
    config, problems = config_problems(path, host, port, public_host, web_port)
    result = CheckResult(problems, config)
    if config is None:
        return result
    _check_files(config, problems)
    _check_folders(config, problems)
    temporary = temporary_folder_problem()
    if temporary:
        problems.append(temporary)
    history = history_problem(config.history)
    if history:
        problems.append(history)
    public = public_host_problem(config)
    if public:
        problems.append(public)
    result.running = server_answers(config.admin_path)
    if not result.running:
        wanted = [(config.host, config.port)]
        if config.metrics is not None:
            wanted.append(config.metrics)
        if config.web.port is not None:
            wanted.append((config.web.host, config.web.port))
        problems.extend(problem for host, port in wanted
                        if (problem := port_problem(host, port)) is not None)
    return result


def _check_files(config: ServerConfig, problems: list[str]) -> None:
    from trash_tui.ssh.auth import AllowList, PasswordFile, read_host_key

    checks: list[Callable[[], object]] = []
    if config.host_key.exists() or config.host_key.is_symlink():
        checks.append(lambda: read_host_key(config.host_key))
    keys, passwords, motd = config.authorized_keys, config.password_file, config.motd_file
    if config.auth == "allow-list" and keys is not None and keys.is_file():
        checks.append(lambda: AllowList(keys))
    if passwords is not None and passwords.is_file():
        checks.append(lambda: PasswordFile(passwords))
    if motd is not None:
        checks.append(lambda: read_motd_file(motd))
    if config.web.tls:
        checks.append(lambda: tls_problem(config.web))
    for check in checks:
        try:
            check()
        except ServeError as exc:
            problems.append(str(exc))


def tls_problem(web: WebConfig) -> None:
    """ServeError (one line) when the web face's certificate and key cannot be used."""
    import ssl

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(str(web.tls_certificate), str(web.tls_key))
    except (ssl.SSLError, OSError) as exc:
        reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or exc
        raise ServeError(f"web: cannot use the TLS certificate {web.tls_certificate} and "
                         f"key {web.tls_key}: {reason}") from None


def _check_folders(config: ServerConfig, problems: list[str]) -> None:
    """Each folder the server writes in, once (with everything it holds named)."""
    folders: dict[Path, list[str]] = {}
    if not config.host_key.exists():
        folders.setdefault(config.host_key.parent, []).append("the host key")
    for folder, purpose in ((config.history.parent, "the history database"),
                            (config.players_dir, "the players' settings"),
                            (config.log.parent, "the connection log"),
                            (config.admin_path.parent, "the admin socket")):
        folders.setdefault(folder, []).append(purpose)
    for folder, purposes in folders.items():
        problem = folder_problem(folder, ", ".join(purposes))
        if problem:
            problems.append(problem)
    if config.log.exists() and not os.access(config.log, os.W_OK):
        problems.append(f"{config.log}: the connection log cannot be written")


def folder_problem(folder: Path, purpose: str) -> str | None:
    """Why the server could not write in ``folder`` (or make it), or None: a file is
    tried in it, or in the nearest folder above it that exists."""
    place = folder
    while not place.exists():
        if place.is_symlink():
            return f"{folder}: ({purpose}) {place} is a broken symbolic link"
        if place.parent == place:
            break
        place = place.parent
    if not place.is_dir():
        return f"{folder}: ({purpose}) {place} is not a folder"
    try:
        with tempfile.TemporaryFile(dir=place):
            pass
    except OSError as exc:
        made = "" if place == folder else f" (to make {folder})"
        return f"{folder}: ({purpose}) cannot write in {place}{made}: {exc.strerror or exc}"
    return None


def temporary_folder_problem() -> str | None:
    """Why the server would find no folder for temporary files (the shared tables' socket
    is in one), or None: Python's own search ($TMPDIR, /tmp, /var/tmp, the working
    folder), which writes a file in each to be sure."""
    try:
        tempfile.gettempdir()
    except OSError:
        tried = [os.environ.get(name) for name in ("TMPDIR", "TEMP", "TMP")]
        places = ", ".join([*(place for place in tried if place), "/tmp", "/var/tmp",
                            "the working folder"])
        return (f"no folder for temporary files can be written ({places}): in a container "
                "run with --read-only, add --tmpfs /tmp")
    return None


def history_problem(path: Path) -> str | None:
    """Why the history database at ``path`` cannot be used, or None (a missing one is
    made at start). Opened read-only: nothing is changed."""
    from trash_tui.history.players import RATED_VERSION

    if not path.exists():
        return None
    if not path.is_file():
        return f"{path}: the history database is not a file"
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=10.0)
    except sqlite3.Error as exc:
        return f"{path}: cannot open the history database: {exc}"
    try:
        verdict = [row[0] for row in db.execute("PRAGMA quick_check(5)")]
        if verdict != ["ok"]:
            return (f"{path}: damaged ({'; '.join(map(str, verdict))[:200]}): restore a "
                    "backup (the README's Backups)")
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error as exc:
        return f"{path}: damaged ({exc}): restore a backup (the README's Backups)"
    finally:
        db.close()
    if version > RATED_VERSION:
        return (f"{path}: made by a newer version of trash-tui (schema {version}; this one "
                f"knows {RATED_VERSION}): upgrade trash-tui, or restore an older backup")
    return None


def server_answers(path: Path) -> bool:
    """Whether something answers on the admin socket at ``path`` (a running server)."""
    from trash_tui.admin.console import reachable

    if not path.exists():
        return False
    with contextlib.suppress(OSError), reachable(path) as address, \
            socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(2.0)
        probe.connect(address)
        return True
    return False


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host``:``port``, or None (the socket is bound
    and closed at once; port 0 is any free port)."""
    if port == 0:
        return None
    name = host.strip().strip("[]")
    shown = f"[{name}]:{port}" if ":" in name else f"{name}:{port}"
    try:
        if name == "::":
            family, address = socket.AF_INET6, ("::", port)
        else:
            info = socket.getaddrinfo(name or None, port, type=socket.SOCK_STREAM,
                                      flags=socket.AI_PASSIVE)[0]
            family, address = info[0], info[4]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except socket.gaierror as exc:
        return f"{shown}: cannot resolve the address: {exc.strerror or exc}"
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return f"{shown}: in use (another program listens there)"
        if exc.errno == errno.EACCES:
            return f"{shown}: permission denied (a port below 1024 needs privileges)"
        if exc.errno == errno.EADDRNOTAVAIL:
            return f"{shown}: not an address of this machine"
        return f"{shown}: cannot listen: {exc.strerror or exc}"
    return None
