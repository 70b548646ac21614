"""Who may come in: the host key, the allow-list of public keys, and the password file.

- The host key is generated on first start (ed25519, written with mode 0600) and reused,
  so clients see the same key every time.
- ``AllowList`` reads an OpenSSH ``authorized_keys`` file (only the keys and their
  ``from=`` patterns count) and reads it again when the file changes, so keys can be added
  while the server runs.
- ``PasswordFile`` holds lines ``user:scrypt$N$r$p$salt$hash`` (``hash_password`` makes
  one; ``trash serve hash-password`` prints it) and checks passwords in constant time.

Problems with these files are ``ServeError`` lines naming the file and line.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import hmac
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from trash_tui.ssh.config import ServeError

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
SCRYPT_LENGTH = 32
SALT_BYTES = 16
#: Bounds on the cost of one check (a file cannot make each login attempt cost too much).
MAX_SCRYPT_N, MAX_SCRYPT_R, MAX_SCRYPT_P = 2**20, 32, 16
HOST_KEY_ALGORITHM = "ssh-ed25519"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_password(password: str, salt: bytes | None = None) -> str:
    """The stored form of ``password``: ``scrypt$N$r$p$salt$hash`` (base64, random salt)."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = hashlib.scrypt(password.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R,
                            p=SCRYPT_P, dklen=SCRYPT_LENGTH)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


@dataclass(frozen=True)
class PasswordHash:
    """One parsed ``scrypt$N$r$p$salt$hash``."""

    n: int
    r: int
    p: int
    salt: bytes
    digest: bytes

    @classmethod
    def parse(cls, text: str) -> PasswordHash:
        """The hash of ``text``; ValueError saying what is wrong."""
        parts = text.split("$")
        if len(parts) != 6 or parts[0] != "scrypt":
            raise ValueError("expected scrypt$N$r$p$salt$hash (from 'trash serve "
                             "hash-password')")
        try:
            n, r, p = (int(part) for part in parts[1:4])
            salt = base64.b64decode(parts[4], validate=True)
            digest = base64.b64decode(parts[5], validate=True)
        except ValueError:
            raise ValueError("N, r and p must be numbers and salt and hash base64") from None
        if n < 2 or n & (n - 1) or n > MAX_SCRYPT_N or not 1 <= r <= MAX_SCRYPT_R or \
                not 1 <= p <= MAX_SCRYPT_P:
            raise ValueError(f"scrypt cost out of range (N a power of 2 up to {MAX_SCRYPT_N}, "
                             f"r up to {MAX_SCRYPT_R}, p up to {MAX_SCRYPT_P})")
        if not salt or not digest:
            raise ValueError("empty salt or hash")
        return cls(n, r, p, salt, digest)

    def matches(self, password: str) -> bool:
        """Whether ``password`` has this hash (constant-time comparison)."""
        digest = hashlib.scrypt(password.encode(), salt=self.salt, n=self.n, r=self.r,
                                p=self.p, dklen=len(self.digest), maxmem=256 * 1024 * 1024)
        return hmac.compare_digest(digest, self.digest)


@functools.cache
def _dummy_hash() -> PasswordHash:
    """Checked when the user is unknown, so a wrong name costs as long as a wrong password."""
    return PasswordHash.parse(hash_password("", salt=b"\0" * SALT_BYTES))


def username_problem(name: str) -> str | None:
    """What is wrong with a user name of the password file, or None."""
    if not name:
        return "empty user name"
    if ":" in name or any(c.isspace() or not c.isprintable() for c in name):
        return f"user name {name!r} has a colon, a space or a control character"
    return None


class PasswordFile:
    """The users who may log in with a password, and their hashes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.users: dict[str, PasswordHash] = {}
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ServeError(f"{path}: cannot read the password file: "
                             f"{getattr(exc, 'strerror', None) or exc}") from None
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            user, colon, stored = line.partition(":")
            problem = username_problem(user) if colon else "expected user:<hash>"
            if problem is None:
                try:
                    self.users[user] = PasswordHash.parse(stored)
                except ValueError as exc:
                    problem = str(exc)
            if problem is not None:
                raise ServeError(f"{path}:{number}: {problem}")

    def check(self, user: str, password: str) -> bool:
        """Whether ``user`` may log in with ``password`` (slow on purpose: run it in a
        thread)."""
        stored = self.users.get(user)
        ok = (stored or _dummy_hash()).matches(password)
        return ok and stored is not None


class AllowList:
    """The public keys of an ``authorized_keys`` file, read again when the file changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.keys, self.count = self._read()
        self.stamp = self._stamp()
        self.problem: str | None = None  # why the last re-read failed (the old keys stay)

    def _stamp(self) -> tuple[int, int] | None:
        try:
            info = self.path.stat()
        except OSError:
            return None
        return (info.st_mtime_ns, info.st_size)

    def _read(self) -> tuple[asyncssh.SSHAuthorizedKeys, int]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ServeError(f"{self.path}: cannot read the authorized keys: "
                             f"{getattr(exc, 'strerror', None) or exc}") from None
        count = 0
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                asyncssh.import_authorized_keys(line)
            except (ValueError, asyncssh.KeyImportError):
                raise ServeError(f"{self.path}:{number}: not a public key line (expected "
                                 "e.g. 'ssh-ed25519 AAAA... comment')") from None
            if "cert-authority" in line.split()[0]:
                raise ServeError(f"{self.path}:{number}: cert-authority lines are not "
                                 "supported; list the players' own keys")
            count += 1
        keys = asyncssh.import_authorized_keys(text) if count else asyncssh.SSHAuthorizedKeys()
        return keys, count

    def refresh(self) -> None:
        """Read the file again if it changed; a broken file keeps the previous keys."""
        stamp = self._stamp()
        if stamp == self.stamp:
            return
        self.stamp = stamp
        try:
            self.keys, self.count = self._read()
            self.problem = None
        except ServeError as exc:
            self.problem = str(exc)

    def allows(self, key: asyncssh.SSHKey, host: str, address: str) -> bool:
        """Whether ``key`` is in the file (and its ``from=`` allows ``address``)."""
        self.refresh()
        return self.keys.validate(key, host, address) is not None


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's private host key at ``path``, generated (mode 0600) if missing."""
    if path.is_dir():
        raise ServeError(f"{path}: is a folder; host_key is the path of the private key "
                         "file (made on first start if it does not exist)")
    if path.exists() and not path.is_file():
        raise ServeError(f"{path}: is not a regular file; host_key is the path of the "
                         "private key file (made on first start if it does not exist)")
    if not path.exists():
        key = asyncssh.generate_private_key(HOST_KEY_ALGORITHM)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            _write_private(path, key.export_private_key())
        except OSError as exc:
            raise ServeError(f"{path}: cannot write the new host key: "
                             f"{exc.strerror or exc}") from None
        return key
    return read_host_key(path)


def read_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's existing private host key at ``path``: a file for its owner only,
    that reads as a key; ServeError (one line) otherwise."""
    if path.is_dir() or not path.is_file():
        raise ServeError(f"{path}: is not a regular file; host_key is the path of the "
                         "private key file (made on first start if it does not exist)")
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise ServeError(f"{path}: cannot read the host key: {exc.strerror or exc}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ServeError(f"{path}: the host key is readable by other users; run chmod 600 "
                         f"{path}")
    try:
        return asyncssh.read_private_key(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as exc:
        raise ServeError(f"{path}: cannot read the host key: "
                         f"{getattr(exc, 'strerror', None) or exc}") from None


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` readable only by its owner, atomically."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
