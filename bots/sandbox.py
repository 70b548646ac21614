"""The sandbox a stranger's bot runs in (``sandbox = true``): bubblewrap (``bwrap``, the
Debian package ``bubblewrap``, Flatpak's sandbox) around the bot's command.

What the bot gets (``sandbox_command`` builds the ``bwrap`` line):

- **Its own namespaces**: PID (it sees and can signal only its own processes; when its
  main process ends, the kernel kills everything it started, even what left its session
  or double-forked), user (an unprivileged uid, 65534, inside), network (no interface but
  a loopback that leads nowhere), IPC, UTS and cgroup.
- **A read-only view of what it needs**: the system's programs and libraries (``/usr``
  and the links to it), a few files of ``/etc`` (the dynamic linker's cache, the
  ``alternatives`` links), its own folder (``cwd``) and its program's folder (for a
  program in a ``bin`` folder, the folder above it too, where its libraries are), an
  isolated Python bot's interpreter and the project's ``bots`` and ``trash_tui`` packages,
  and any ``read_only`` path the tournament lists (``view()``). Every path is resolved
  before it is bound, and bound where it really is (the bot works in its folder as its
  links lead; a file its command names through a link gets that link). The organiser's
  paths (``hidden``: the tournament file, the run's folder, the history database) and
  their folders are never in the view: a folder that holds one, or lies above one, holds
  its copies too (``round.toml~``, a swap file, ``.git/objects``, ``OUT.old-N``, a
  journal), so it shows only the files the bot's command names in it; what is hidden is
  also covered (an empty file, an empty folder) should it fall inside the view.
  ``/proc`` is the sandbox's own; ``/tmp`` a private tmpfs of ``tmp_mb`` MiB (``HOME``
  and ``TMPDIR`` point there), ``/dev/shm`` another; ``/dev`` a minimal one; none of
  these, nor ``/``, is ever bound from the host, whatever the bot's folder. Everything
  but ``/tmp`` and ``/dev/shm`` is read-only, whoever the runner is (``--remount-ro`` of
  ``/`` and ``/dev``, which an ordinary user's sandbox would own).
- **A seccomp filter** (``bots/seccomp.py``, built with libseccomp, bwrap's
  ``--seccomp``): no Unix socket that
  could reach a socket file (the network namespace does not cover them), no io_uring, no
  file lock and no inotify (another sandbox sharing a file would see them), no memfd and
  no System V shared memory (memory the address-space limit does not count), no user
  namespace of its own (where it would be root, and mount a tmpfs no size caps).
  ``protections()`` says, one line each, what holds on this machine and what does not.
- **Hard limits**: processes (``RLIMIT_NPROC``, so a fork bomb stops at ``processes``),
  open files (``RLIMIT_NOFILE``), plus the CPU and memory limits of every bot process
  (``bots.process.Limits``), all with the hard limit set, so the bot cannot raise them.
  The process and file limits are set inside the sandbox (``prlimit``): the process
  limit set outside would make the kernel count every process of the runner's user
  against it.
- **Its processes together** (``bots/cgroups.py``, where the machine gives the runner a
  cgroup): ``memory_limit`` for all their memory, ``cpu_limit`` for all their CPU time, one
  CPU at most, ``processes`` processes; ``bots.process`` makes the group and the bot joins
  it before bwrap starts. ``protections()`` (``ALWAYS`` and the two that depend on the
  machine) is the point-by-point list bots/README.md repeats.
- **Its options in a pipe**: bwrap reads them through ``--args``, so the sandbox's first
  process, whose command line the bot may read, names no path or setting.

The kernel does not apply ``RLIMIT_NPROC`` to processes of the real root user, and a
user namespace made by root maps the sandbox's uid to root. So when the runner is root
(CI, a container), bwrap is started with ``--userns-block-fd`` and this module writes the
namespace's uid and gid maps itself (root may map any uid): root inside stays root
outside for bwrap's own set-up (it binds folders root alone may enter), and uid 65534
inside is an unused uid outside (``2000000000`` and up, one per bot process); bwrap keeps
``CAP_SETUID``/``CAP_SETGID`` for ``setpriv``, which drops to 65534 with no capability
left and ``no_new_privs`` before the bot's command starts. The bot then reads only what
every user may read (``chmod o+rX`` a bot's folder if it is private): ``unreadable()``
says in one line which folder or file it cannot read, and the sandbox is not started then
(a bot's spec is refused before it plays). An ordinary user's runner lets bwrap map 65534
to itself (``--unshare-user --uid 65534``).

``problem()`` says in one line why the sandbox cannot run here (bwrap missing, the
kernel refusing user namespaces), ``None`` if it works; it is checked once per process
with a real sandbox that runs ``true``.

``protect_runner()`` turns ``PR_SET_DUMPABLE`` off in the runner (Linux): no other
process of the same user can attach to it or read its memory (``/proc/PID/mem``,
``environ``). Every process that starts bot processes calls it.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import itertools
import json
import os
import select
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bots import cgroups, seccomp
from trash_tui.text import visible

BWRAP = "bwrap"
SANDBOX_UID = 65534  # "nobody" inside the sandbox
OUTSIDE_UID_BASE = 2_000_000_000  # a root runner's bots run as these uids outside
DEFAULT_PROCESSES = 64
DEFAULT_FILES = 256
DEFAULT_TMP_MB = 64
LIMITS = {"processes": (1, 4096), "files": (16, 65536), "tmp_mb": (1, 65536)}
SETUP_TIMEOUT = 10.0  # seconds for bwrap to make the namespaces (a root runner's maps)
PROJECT_ROOT = Path(__file__).resolve().parent.parent
#: The system's programs and libraries, bound read-only (a link is made again as a link).
SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: What of /etc a program may need to start: the linker's cache, Debian's alternatives.
ETC_PATHS = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
             "/etc/localtime")
_NEVER_BOUND = ("/", "/tmp", "/proc", "/dev")
INSTALL_HINT = ("install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: "
                "dnf install bubblewrap) or set sandbox = false")
PR_SET_DUMPABLE = 4


class SandboxError(Exception):
    """The sandbox cannot start here: one line saying why and what to do."""


@dataclass(frozen=True)
class Sandbox:
    """How a bot's sandbox is made: its limits, the paths it may read beside its own
    folder and program (``read_only``) and the paths covered inside them (``hidden``)."""

    processes: int = DEFAULT_PROCESSES
    files: int = DEFAULT_FILES
    tmp_mb: int = DEFAULT_TMP_MB
    read_only: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()


def _shown(value: object) -> str:
    """A value from a file, for a message: its repr, escaped and at most 80 characters."""
    return visible(repr(value), 80)


def read_sandbox(value: object, where: str) -> Sandbox | None:
    """A spec's ``sandbox`` value: ``true``/``false`` or a table of limits (``processes``,
    ``files``, ``tmp_mb``, ``read_only``, ``hidden``); ValueError naming the key."""
    if value is None or value is False:
        return None
    if value is True:
        return Sandbox()
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: sandbox must be true, false or a table such as "
                         f"{{ processes = 64 }}, got {_shown(value)}")
    known = (*LIMITS, "read_only", "hidden")
    for key in value:
        if key not in known:
            raise ValueError(f"{where}: sandbox.{visible(str(key), 40)} is not a sandbox "
                             "setting; known: " + ", ".join(known))
    numbers: dict[str, int] = {}
    for key, (low, high) in LIMITS.items():
        number = value.get(key, getattr(Sandbox, key))
        if not (isinstance(number, int) and not isinstance(number, bool)
                and low <= number <= high):
            raise ValueError(f"{where}: sandbox.{key} must be an integer from {low} to "
                             f"{high}, got {_shown(number)}")
        numbers[key] = number
    paths: dict[str, tuple[str, ...]] = {}
    for key in ("read_only", "hidden"):
        items = value.get(key, [])
        if not (isinstance(items, list | tuple)
                and all(isinstance(item, str) and item and os.path.isabs(item)
                        for item in items)):
            raise ValueError(f"{where}: sandbox.{key} must be a list of absolute paths, got "
                             f"{_shown(items)}")
        paths[key] = tuple(items)
    return Sandbox(numbers["processes"], numbers["files"], numbers["tmp_mb"],
                   paths["read_only"], paths["hidden"])


# --- the runner's own protection ------------------------------------------------------------

_protected = False


def protect_runner() -> bool:
    """``PR_SET_DUMPABLE`` off in this process (Linux; elsewhere nothing happens). True if
    it is off. Forked workers inherit it; it stays off until this process runs exec."""
    global _protected
    if _protected or not sys.platform.startswith("linux"):
        return _protected
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        _protected = libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _protected = False
    return _protected


def is_dumpable() -> bool | None:
    """Whether this process is dumpable (None where prctl is not there)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(3, 0, 0, 0, 0))  # PR_GET_DUMPABLE
    except (OSError, AttributeError):
        return None


# --- the command line ------------------------------------------------------------------------

def _as_root() -> bool:
    return os.geteuid() == 0


_outside_uids = itertools.count()


def _outside_uid() -> int:
    """An unused uid outside for a root runner's next bot process."""
    return OUTSIDE_UID_BASE + ((os.getpid() % (1 << 21)) << 10 | next(_outside_uids) % 1024)


def _folder_of_program(program: str, cwd: str, path_env: str | None) -> list[str]:
    """The folders a bot's program needs: where it is (as named and as its links lead),
    and for a program in a ``bin`` folder outside /usr, the folder above (its libraries)."""
    if "/" in program:
        found: str | None = os.path.join(cwd, program)
    else:
        found = shutil.which(program, path=path_env)
    if found is None or not os.path.exists(found):
        return []
    folders = [os.path.dirname(os.path.abspath(found))]
    real = os.path.realpath(found)
    folders.append(os.path.dirname(real))
    for folder in list(folders):
        if os.path.basename(folder) == "bin":
            folders.append(os.path.dirname(folder))
    return [f for f in folders if not _under_system(f)]


def _under_system(path: str) -> bool:
    return any(path == root or path.startswith(root + "/") for root in SYSTEM_PATHS)


def python_paths() -> list[str]:
    """What an isolated Python bot reads: its interpreter and the project's packages."""
    paths = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             os.path.dirname(sys.executable), os.path.dirname(os.path.realpath(sys.executable)),
             str(PROJECT_ROOT / "bots"), str(PROJECT_ROOT / "trash_tui")]
    return [p for p in dict.fromkeys(paths) if p and not _under_system(p)]


def _system_binds() -> list[str]:
    args: list[str] = []
    for path in SYSTEM_PATHS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    args += ["--perms", "0755", "--dir", "/etc"]  # bwrap would make it 0700: closed to 65534
    for path in ETC_PATHS:
        args += ["--ro-bind-try", path, path]
    return args


def _minimal(paths: Iterable[str]) -> list[str]:
    """Existing absolute paths without those inside another of them (kept in order)."""
    real = [os.path.abspath(p) for p in paths if p and os.path.exists(p)]
    real = list(dict.fromkeys(real))
    return [p for p in real if not any(o != p and p.startswith(o.rstrip("/") + "/")
                                       for o in real)]


def _inside(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def _named_files(command: Sequence[str], cwd: str) -> list[tuple[str, str]]:
    """The files a bot's command names (its program, its script, its bot file, a file
    argument; a ``path:Class`` reference by its path), as (named, resolved) paths."""
    named = []
    for word in command:
        for target in dict.fromkeys((word, word.partition(":")[0])):
            path = os.path.abspath(os.path.join(cwd, target))
            if os.path.isfile(path):
                named.append((path, os.path.realpath(path)))
    return named


def _needed_folders(command: Sequence[str], cwd: str, env: Mapping[str, str],
                    sandbox: Sandbox, python: bool) -> list[str]:
    """The folders a bot reads besides its working folder: its program's, the
    ``read_only`` paths (a bot file's folder among them) and an isolated Python bot's
    interpreter and packages."""
    folders = [*_folder_of_program(command[0], os.path.abspath(cwd), env.get("PATH")),
               *sandbox.read_only]
    return folders + python_paths() if python else folders


@dataclass(frozen=True)
class View:
    """What a bot's sandbox shows of the host besides the system's programs and libraries:
    the paths bound read-only (``bound``, resolved), the folders it needs that hold the
    organiser's files and so show only the files its command names (``narrowed``), and
    the links by which its command names a bound file (``links``: (name, target))."""

    bound: tuple[str, ...]
    narrowed: tuple[str, ...] = ()
    links: tuple[tuple[str, str], ...] = ()


def _organisers(sandbox: Sandbox) -> tuple[list[str], list[str]]:
    """The hidden paths, resolved (and as named), and the folders that hold them: a folder
    holding one holds what lies beside it too (an editor's backup of the tournament file,
    a swap file, ``OUT.old-N``, the database's journal), so it is never bound whole."""
    hidden: list[str] = []
    folders: list[str] = []
    for path in sandbox.hidden:
        named = os.path.abspath(path)
        real = os.path.realpath(named)
        hidden += [real, named]
        folders += [os.path.realpath(os.path.dirname(named)), os.path.dirname(real)]
    return list(dict.fromkeys(hidden)), list(dict.fromkeys(folders))


def view(command: Sequence[str], cwd: str, env: Mapping[str, str], sandbox: Sandbox,
         python: bool = False) -> View:
    """What the sandbox of ``command`` shows (see ``View``). Every path is resolved
    before it is bound (a linked folder is bound where its link leads, and judged
    there); a folder that holds a hidden path, or sits above one, shows only the files
    the command names inside it (none of them hidden); a path inside a hidden one, the
    whole file system, the host's /tmp, /proc or /dev are never bound."""
    cwd = os.path.abspath(cwd)
    hidden, organisers = _organisers(sandbox)
    named = _named_files(command, cwd)
    bound: list[str] = []
    narrowed: list[str] = []
    for wanted in (cwd, *_needed_folders(command, cwd, env, sandbox, python)):
        if not wanted or not os.path.exists(wanted):
            continue
        real = os.path.realpath(wanted)
        if _inside(real, hidden):
            continue
        if any(_inside(folder, [real]) for folder in organisers):
            narrowed.append(real)
            bound += [path for _, path in named
                      if _inside(path, [real]) and not _inside(path, hidden)
                      and not _under_system(path)]
        elif real not in _NEVER_BOUND and not _under_system(real):
            bound.append(real)
    bound = _minimal(bound)
    links = [(name, path) for name, path in named
             if name != path and _inside(path, bound) and not _inside(name, bound)
             and not _under_system(name) and not _inside(name, ["/proc", "/dev"])]
    return View(tuple(bound), tuple(dict.fromkeys(narrowed)), tuple(dict.fromkeys(links)))


def _readable(command: Sequence[str], cwd: str, env: Mapping[str, str], sandbox: Sandbox,
              python: bool) -> list[str]:
    """The paths bound read-only into the sandbox besides the system's."""
    return list(view(command, cwd, env, sandbox, python).bound)


def unreadable(command: Sequence[str], cwd: str, env: Mapping[str, str], sandbox: Sandbox,
               python: bool = False) -> str | None:
    """For a root runner, whose sandboxed bots run as an unused uid and so read only what
    every user may read: the first of what the bot needs that other users cannot read —
    a command's working folder, its program's folder, a ``read_only`` folder (a bot
    file's among them), an isolated bot's interpreter and packages, a file its command
    names (its script, its bot file, the program), or a folder on the way to one of them
    inside what is bound —, as one line saying what to do; None when there is none, and
    always for another runner (the sandbox's uid is then the runner's own). An isolated
    bot's working folder is needed only for what it holds."""
    if not _as_root():
        return None
    cwd = os.path.abspath(cwd)
    readable = _readable(command, cwd, env, sandbox, python)
    needs = [(os.path.realpath(path), 0o005) for path in ([] if python else [cwd])
             + _needed_folders(command, cwd, env, sandbox, python)]
    for number, word in enumerate(command):
        for target in dict.fromkeys((word, word.partition(":")[0])):
            path = os.path.abspath(os.path.join(cwd, target))
            if not os.path.isfile(path):
                continue
            need = 0o004
            if number == 0:  # the program: run (and, a script, read)
                with contextlib.suppress(OSError), open(path, "rb") as handle:
                    need = 0o005 if handle.read(2) == b"#!" else 0o001
            needs.append((os.path.realpath(path), need))
    for path, need in needs:
        root = next((r for r in readable if _inside(path, [r])), None)
        if root is None or not os.path.exists(path):
            continue  # not in the sandbox: the bot does not see it
        steps = [*reversed(Path(path).parents), Path(path)]
        for step in (str(s) for s in steps if _inside(str(s), [root])):
            try:
                mode = os.stat(step).st_mode
            except OSError:
                break
            wanted = need if step == path else 0o001
            if mode & wanted != wanted:
                return (f"the sandboxed bot cannot read {visible(step)}: the runner is root, "
                        "so the bot runs as an unprivileged user, who reads only what every "
                        f"user may read; chmod o+rX {visible(shlex.quote(step))} (-R for the "
                        "files inside a folder), or move the bot to a folder others may read")
    return None


@dataclass
class Prepared:
    """A sandboxed command ready to start: ``argv`` for Popen, the descriptors it must
    keep (``pass_fds``), for a root runner the uid the bot gets outside; once started,
    ``child_pid``: the sandbox's first process (its init), as this runner sees it."""

    argv: list[str]
    pass_fds: tuple[int, ...] = ()
    block_write: int | None = None
    info_read: int | None = None
    outside_uid: int | None = None
    child_pid: int | None = None

    def started(self, pid: int) -> None:
        """After Popen: the sandbox's first process is known, and a root runner's
        namespace gets its maps before bwrap goes on. SandboxError if bwrap failed first
        (its message is on its standard error)."""
        for fd in self.pass_fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.pass_fds = ()
        if self.info_read is None:
            return
        try:
            child = self.child_pid = _read_child_pid(self.info_read)
            if self.block_write is None:
                return
            uid = self.outside_uid
            mapping = f"0 0 1\n{SANDBOX_UID} {uid} 1\n"
            for name in ("uid_map", "gid_map"):
                with open(f"/proc/{child}/{name}", "w", encoding="ascii") as handle:
                    handle.write(mapping)
            os.write(self.block_write, b"1")
        except OSError as exc:
            raise SandboxError(f"cannot set up the sandbox's user namespace: "
                               f"{exc.strerror or exc}") from None
        finally:
            self.close()

    def close(self) -> None:
        for fd in (self.block_write, self.info_read, *self.pass_fds):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.block_write = self.info_read = None
        self.pass_fds = ()


def sandboxed_process(init: int) -> int | None:
    """The bot's own process in a sandbox whose first process is ``init`` (the child of
    bwrap's init; None if it is gone). Read from /proc once; the caller keeps it."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                fields = handle.read().rpartition(b")")[2].split()
        except OSError:
            continue
        if len(fields) > 1 and int(fields[1]) == init:
            return int(entry.name)
    return None


def _read_child_pid(fd: int) -> int:
    """The sandbox's first process, from bwrap's ``--info-fd`` JSON."""
    data = b""
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP)
    while True:
        if not poller.poll(int(SETUP_TIMEOUT * 1000)):
            raise SandboxError(f"bwrap did not make the sandbox within {SETUP_TIMEOUT:g} s")
        chunk = os.read(fd, 4096)
        if not chunk:
            raise SandboxError("bwrap stopped before the sandbox was made")
        data += chunk
        with contextlib.suppress(ValueError):
            return int(json.loads(data)["child-pid"])


def sandbox_command(command: Sequence[str], cwd: str, env: Mapping[str, str],
                    sandbox: Sandbox, python: bool = False) -> Prepared:
    """The bwrap line that runs ``command`` in ``cwd`` with ``env`` in ``sandbox`` (see the
    module docs); ``python``: an isolated Python bot (its interpreter and packages)."""
    cwd = os.path.abspath(cwd)
    seen = view(command, cwd, env, sandbox, python)
    readable = list(seen.bound)
    trouble = unreadable(command, cwd, env, sandbox, python)
    if trouble is not None:
        raise SandboxError(trouble)
    args = [BWRAP, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-net",
            "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--unshare-user"]
    prepared = Prepared([])
    info_read, info_write = os.pipe()
    prepared.info_read, prepared.pass_fds = info_read, (info_write,)
    args += ["--info-fd", str(info_write)]
    if _as_root():
        block_read, block_write = os.pipe()
        prepared.block_write = block_write
        prepared.pass_fds = (*prepared.pass_fds, block_read)
        prepared.outside_uid = _outside_uid()
        args += ["--userns-block-fd", str(block_read),
                 "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        args += ["--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID)]
    args += _system_binds()
    args += ["--proc", "/proc", "--dev", "/dev",
             "--size", str(sandbox.tmp_mb << 20), "--perms", "1777", "--tmpfs", "/tmp",
             "--size", str(sandbox.tmp_mb << 20), "--perms", "1777", "--tmpfs", "/dev/shm"]
    # the bot works in its folder as its links lead (the folder itself is made, empty,
    # when it shows nothing but what is bound inside it)
    where = os.path.realpath(cwd)
    made: set[str] = set()
    folders = [*(str(p) for path in readable for p in reversed(Path(path).parents)),
               *(str(p) for name, _ in seen.links for p in reversed(Path(name).parents)),
               *(str(p) for p in reversed(Path(where).parents)), where]
    for folder in folders:  # the folders above a bound one: made, open to the bot's uid
        if (folder not in made and folder not in _NEVER_BOUND
                and not _inside(folder, readable) and not _under_system(folder)):
            made.add(folder)
            args += ["--perms", "0755", "--dir", folder]
    for path in readable:
        args += ["--ro-bind", path, path]
    for name, target in seen.links:  # a bound file by the name its command gives it
        args += ["--symlink", target, name]
    for path in _minimal(sandbox.hidden):
        if _inside(path, [*readable, "/tmp"]) or path == "/tmp":
            args += (["--tmpfs", path] if os.path.isdir(path)
                     else ["--ro-bind", "/dev/null", path])
    # read-only everywhere but /tmp and /dev/shm, whoever the runner is (an ordinary
    # user's sandbox would own the root and the /dev that bwrap makes)
    args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    args += _seccomp(prepared)
    args += ["--clearenv"]
    for key, value in sorted(env.items()):
        args += ["--setenv", key, value]
    processes = sandbox.processes
    args += ["--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp", "--chdir", where, "--",
             shutil.which("prlimit") or "prlimit", f"--nproc={processes}:{processes}",
             f"--nofile={sandbox.files}:{sandbox.files}", "--"]
    if prepared.outside_uid is not None:
        args += [shutil.which("setpriv") or "setpriv", f"--reuid={SANDBOX_UID}",
                 f"--regid={SANDBOX_UID}", "--clear-groups", "--inh-caps=-all",
                 "--no-new-privs", "--"]
    # bwrap reads its options from a pipe: the sandbox's first process (bwrap itself,
    # whose command line every process inside may read) shows no path, name or setting,
    # only the bot's own command
    cut = args.index("--")
    words = b"".join(word.encode() + b"\0" for word in args[1:cut])
    read_end, write_end = os.pipe()
    try:
        if len(words) >= 65536:  # more than a pipe holds before bwrap reads it
            raise SandboxError("the sandbox's arguments are too long (over 64 KiB)")
        os.write(write_end, words)
    except BaseException:
        os.close(read_end)
        prepared.close()
        raise
    finally:
        os.close(write_end)
    prepared.pass_fds = (*prepared.pass_fds, read_end)
    prepared.argv = [BWRAP, "--args", str(read_end), *args[cut:], *command]
    return prepared


def _seccomp(prepared: Prepared) -> list[str]:
    """bwrap's ``--seccomp FD`` with the filter (bots/seccomp.py) in a pipe, or nothing on
    an architecture the filter does not know."""
    code = seccomp.program()
    if code is None:
        return []
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, code)  # a few hundred bytes: the pipe holds them
    finally:
        os.close(write_end)
    prepared.pass_fds = (*prepared.pass_fds, read_end)
    return ["--seccomp", str(read_end)]


# --- does it work here? ------------------------------------------------------------------------

_problem: list[str | None] = []


def problem() -> str | None:
    """Why the sandbox cannot run on this machine (one line), or None if it works. The
    answer of a real sandbox running ``true``, kept for this process."""
    if _problem:
        return _problem[0]
    found = _find_problem()
    _problem.append(found)
    return found


def _find_problem() -> str | None:
    if not sys.platform.startswith("linux"):
        return f"the sandbox needs Linux (this is {sys.platform}); set sandbox = false"
    for tool in (BWRAP, "prlimit", "setpriv"):
        if shutil.which(tool) is None:
            if tool == BWRAP:
                return f"the sandbox needs bwrap, which is not installed: {INSTALL_HINT}"
            return (f"the sandbox needs {tool} (util-linux), which is not installed; "
                    "install util-linux or set sandbox = false")
    prepared = sandbox_command(["true"], "/", {"PATH": "/usr/bin:/bin"}, Sandbox())
    try:
        popen = subprocess.Popen(prepared.argv, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 pass_fds=prepared.pass_fds, close_fds=True)
    except OSError as exc:
        prepared.close()
        return f"cannot run bwrap ({exc.strerror or exc}): {INSTALL_HINT}"
    try:
        prepared.started(popen.pid)
    except SandboxError as exc:
        detail = str(exc)
    else:
        detail = ""
    try:
        _, err = popen.communicate(timeout=SETUP_TIMEOUT)
    except subprocess.TimeoutExpired:
        popen.kill()
        popen.communicate()
        return f"the sandbox did not start within {SETUP_TIMEOUT:g} s; set sandbox = false"
    if popen.returncode == 0:
        return None
    said = " ".join(err.decode("utf-8", "replace").split())[:200] or detail or (
        f"exit status {popen.returncode}")
    return (f"the kernel refuses the sandbox's namespaces ({said}); allow unprivileged user "
            "namespaces (sysctl kernel.unprivileged_userns_clone=1, or "
            "user.max_user_namespaces > 0) or set sandbox = false")


#: What the sandbox protects wherever it runs, point by point (bots/README.md lists the
#: same points, word for word: tests/test_sandbox_cgroups.py).
ALWAYS = (
    "its own processes: it sees and signals only what it started, and all of it is killed "
    "when its game ends or its runner dies (a PID namespace, the reaper)",
    "no network: no interface but a loopback that leads nowhere (a network namespace)",
    "the organiser's files: the bot reads only its own folder and program and the system's "
    "programs, read-only; never the tournament file, the run's output, the history database "
    "or a folder holding them or their copies (every path resolved before it is bound)",
    "nowhere to write but its own /tmp and /dev/shm (tmp_mb MiB each), whoever the runner is",
    "a fresh process and /tmp every game: no game teaches it the next",
    "no seed it can use: the deals come from the seed and a secret drawn when the run "
    "starts, kept out of every sandbox",
    "time: move_limit seconds a decision and game_limit seconds of answers a game (10 and "
    "600 by default), then it forfeits",
    "each process: cpu_limit seconds of CPU, memory_limit MiB of address space, `files` "
    "open files; `processes` processes for the bot; limits it cannot raise",
    "the runner: no bot reads its memory, environment or command line (not dumpable, "
    "bwrap's options in a pipe), and the bot's standard error goes to its log with escape "
    "sequences escaped, every line marked as the bot's",
)
CHANNELS = ("no channel to another bot or to the outside: no Unix socket, file lock, "
            "inotify, memfd or System V shared memory, nor a user namespace of its own (a "
            "seccomp filter)")
TOGETHER = ("its processes together (a cgroup per bot process): memory_limit MiB for "
            "their memory and what they write in /tmp, cpu_limit seconds of their CPU, one "
            "CPU at most, `processes` processes")


def protections() -> list[str]:
    """What the sandbox protects on this machine and what it does not, one line each:
    every point of ``ALWAYS``, then the seccomp filter's and the cgroups'."""
    lines = [f"holds: {point}" for point in ALWAYS]
    if seccomp.program() is not None:
        lines.append(f"holds: {CHANNELS}")
    else:
        lines.append(f"NOT protected: {CHANNELS} — {seccomp.unavailable()}: a socket file "
                     "may reach a listener outside, bots may talk through file locks, and "
                     "memfd or shared memory escape memory_limit")
    missing = cgroups.missing()
    if not missing:
        lines.append(f"holds: {TOGETHER}")
    elif len(missing) == len(cgroups.WHAT):
        lines.append(f"NOT protected: {TOGETHER} — this machine gives the runner no cgroup "
                     "(root with cgroup v1, or a delegated cgroup v2 such as systemd-run "
                     "--user -p Delegate=yes --scope): each process has its own limits, so "
                     "a bot gets up to `processes` times them; missing: "
                     + ", ".join(missing))
    else:
        lines.append(f"holds only in part: {TOGETHER} — this machine's cgroups do not give "
                     + ", ".join(missing))
    return lines


def require() -> None:
    """SandboxError (one line) if the sandbox cannot run here."""
    found = problem()
    if found is not None:
        raise SandboxError(found)
