"""A bot's processes counted together: a control group (Linux cgroup) per bot process,
where the machine lets the runner make one.

Each process has its own CPU and address-space limits (``bots.process.Limits``), so a
bot that starts children gets them many times over. A cgroup holds the bot and whatever
it starts, and the kernel counts them together:

- **memory** (``memory.max``; cgroup v1 ``memory.limit_in_bytes``, swap included where
  the kernel counts it): ``memory_limit`` MiB for all its processes and what they write
  in the sandbox's ``/tmp`` and ``/dev/shm``; over it, the kernel's OOM killer kills
  inside the group, and the runner sees it (``oom_kills``);
- **CPU rate** (``cpu.max``; v1 ``cpu.cfs_quota_us``): one CPU at most however many
  processes spin, so a bot slows only its own games;
- **CPU time** (``cpu.stat``'s ``usage_usec``; v1 ``cpuacct.usage``): the runner reads it
  after each answer (``cpu_seconds``) and ends a bot whose processes together passed
  ``cpu_limit``;
- **processes** (``pids.max``): the sandbox's ``processes`` for the group, whatever uid
  the processes run as;
- **the end** (``cgroup.kill``; v1: every process listed in ``cgroup.procs``) and the
  group's folder removed.

Where it is made: under this process's own cgroup, in each hierarchy that offers a
controller (a v1 machine mounts one per controller; a v2 machine one for all). A v2
cgroup may only hand controllers to its children when it holds no process itself, so the
runner first moves itself into a leaf of its own (``trash-runner-PID``) and enables the
controllers in the cgroup it came from — possible where that cgroup is delegated to the
runner's user (``systemd-run --user -p Delegate=yes --scope``, a container with its own
cgroup namespace) and holds no other process. Whatever cannot be had here is named by
``missing()`` (``trash bots check``, ``sandbox.protections``); the limits of each process
still hold then.

A bot's process joins its group before it runs anything (``BotGroup.join``, called in the
child between fork and exec), so nothing it starts is outside it.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

#: What a bot's group is for, and the controller (v1 and v2) that gives each.
NEEDS = {"memory": ("memory", "memory"), "cpu": ("cpu", "cpu"), "pids": ("pids", "pids"),
         "usage": ("cpuacct", "cpu.stat")}  # v2 counts CPU time in every group
WHAT = {"memory": "memory of its processes together", "cpu": "one CPU at most",
        "usage": "CPU time of its processes together", "pids": "processes by group"}
CPU_PERIOD = 100_000  # microseconds: one CPU's worth of quota per period
LEAF = "trash-runner-"
GROUP = "trash-bot-"
REMOVE_WAIT = 2.0  # seconds for the kernel to let the last process of a group go


@dataclass(frozen=True)
class Place:
    """One cgroup hierarchy where this process may make groups: its version, the folder
    of this process's own cgroup in it (``base``) and the controllers it offers."""

    version: int
    base: Path
    controllers: frozenset[str]


def _mounts() -> dict[str, tuple[Path, str]]:
    """Each mounted cgroup hierarchy: key (``2`` or the v1 controllers, comma-joined) →
    (mount point, the mount's root within the hierarchy)."""
    found: dict[str, tuple[Path, str]] = {}
    try:
        lines = Path("/proc/self/mountinfo").read_text(encoding="utf-8").splitlines()
    except OSError:
        return found
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
            continue
        point = Path(fields[4].replace("\\040", " "))
        if tail[0] == "cgroup2":
            found.setdefault("2", (point, fields[3]))
        else:
            names = [option for option in tail[2].split(",")
                     if option not in ("rw", "ro") and "=" not in option
                     and option not in ("relatime", "noexec", "nosuid", "nodev",
                                        "clone_children", "noprefix", "xattr")]
            if names:
                found.setdefault(",".join(sorted(names)), (point, fields[3]))
    return found


def _own_groups() -> dict[str, str]:
    """This process's cgroup in each hierarchy (``/proc/self/cgroup``): key as in
    ``_mounts`` → path."""
    groups: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text(encoding="utf-8").splitlines()
    except OSError:
        return groups
    for line in lines:
        number, _, rest = line.partition(":")
        names, _, path = rest.partition(":")
        if number == "0" and not names:
            groups["2"] = path
        elif names and "=" not in names:
            groups[",".join(sorted(names.split(",")))] = path
    return groups


def _folder(point: Path, root: str, path: str) -> Path | None:
    """Where ``path`` (from /proc/self/cgroup) is under a mount of ``root``."""
    if path.startswith("/.."):
        return None  # outside this cgroup namespace's view
    if root != "/" and (path == root or path.startswith(root.rstrip("/") + "/")):
        path = path[len(root.rstrip("/")):] or "/"
    return point / path.lstrip("/")


def _v2_base(folder: Path) -> Path:
    """A v2 cgroup's folder for bot groups: the one above the runner's leaf, if this
    process (or the runner that forked it) already moved into one."""
    while folder.name.startswith(LEAF):
        folder = folder.parent
    return folder


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii")
    except OSError:
        return ""


def _write(path: Path, text: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(text)


def _enable_v2(base: Path) -> frozenset[str]:
    """The controllers a v2 group under ``base`` gets: those ``base`` already hands down,
    plus those it can once this process lives in a leaf of its own."""
    wanted = {"cpu", "memory", "pids"} & set(_read(base / "cgroup.controllers").split())
    enabled = set(_read(base / "cgroup.subtree_control").split())
    if wanted <= enabled or not os.access(base, os.W_OK):
        return frozenset(wanted & enabled)
    leaf = base / f"{LEAF}{os.getpid()}"  # (a process that is in base cannot hand down)
    with contextlib.suppress(OSError):
        leaf.mkdir(exist_ok=True)
        _write(leaf / "cgroup.procs", "0")
    with contextlib.suppress(OSError):
        _write(base / "cgroup.subtree_control", " ".join(f"+{name}" for name in
                                                          sorted(wanted - enabled)))
    return frozenset(wanted & set(_read(base / "cgroup.subtree_control").split()))


_places: dict[int, list[Place]] = {}


def places() -> list[Place]:
    """Where this process may make bot groups (found once per process)."""
    pid = os.getpid()
    if pid not in _places:
        _places[pid] = _find_places()
    return _places[pid]


def _find_places() -> list[Place]:
    found: list[Place] = []
    mounts, own = _mounts(), _own_groups()
    for key, (point, root) in mounts.items():
        path = own.get(key)
        if path is None:
            continue
        folder = _folder(point, root, path)
        if folder is None or not folder.is_dir():
            continue
        if key == "2":
            folder = _v2_base(folder)
            if not os.access(folder, os.W_OK):
                continue
            found.append(Place(2, folder, _enable_v2(folder) | {"cpu.stat"}))
        elif os.access(folder, os.W_OK):
            found.append(Place(1, folder, frozenset(key.split(","))))
    return found


def plan() -> dict[str, Place]:
    """Which place gives each need (``NEEDS``) on this machine: v1 controllers first
    where both are mounted (a hybrid machine binds the controllers to v1)."""
    chosen: dict[str, Place] = {}
    for need, (v1, v2) in NEEDS.items():
        for place in sorted(places(), key=lambda p: p.version):
            if (v1 if place.version == 1 else v2) in place.controllers:
                chosen[need] = place
                break
    return chosen


def missing() -> list[str]:
    """What a bot's group cannot count or cap on this machine, one phrase each."""
    have = plan()
    return [WHAT[need] for need in NEEDS if need not in have]


class CgroupError(Exception):
    """A bot's group could not be made (one line)."""


_numbers = itertools.count(1)


class BotGroup:
    """One bot process's cgroup (in every place the plan uses): made with its limits,
    joined by the bot before it runs, read for its CPU time and OOM kills, then killed
    and removed."""

    def __init__(self, memory_mb: int | None, processes: int | None,
                 cpus: float | None = 1.0) -> None:
        chosen = plan()
        name = f"{GROUP}{os.getpid()}-{next(_numbers)}"
        self.folders: dict[Place, Path] = {}
        self.usage_fd: int | None = None
        self.oom_fd: int | None = None
        self.needs = {need: self._make(place, name) for need, place in chosen.items()}
        try:
            self._limit(memory_mb, processes, cpus)
        except OSError as exc:
            self.remove()
            raise CgroupError(f"cannot set the bot's group's limits: "
                              f"{exc.strerror or exc}") from None
        self.procs = [os.fsencode(folder / "cgroup.procs") for folder in self.folders.values()]
        # read after every answer: kept open, read with pread (1-2 µs, not 20 µs an open)
        self.usage_fd = self._open("usage", {1: "cpuacct.usage", 2: "cpu.stat"})
        self.oom_fd = self._open("memory", {1: "memory.oom_control", 2: "memory.events"})

    def _open(self, need: str, names: dict[int, str]) -> int | None:
        folder = self.needs.get(need)
        if folder is None:
            return None
        try:
            return os.open(folder / names[self._version(folder)], os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None

    @staticmethod
    def _field(fd: int | None, key: bytes) -> int | None:
        """A number from a kept cgroup file: the whole file if ``key`` is empty, else
        the value on the line that starts with ``key``."""
        if fd is None:
            return None
        try:
            data = os.pread(fd, 4096, 0)
        except OSError:
            return None
        if not key:
            text = data.strip()
            return int(text) if text.isdigit() else None
        for line in data.splitlines():
            name, _, value = line.partition(b" ")
            if name == key and value.strip().isdigit():
                return int(value)
        return None

    def _make(self, place: Place, name: str) -> Path:
        folder = self.folders.get(place)
        if folder is None:
            folder = place.base / name
            try:
                folder.mkdir()
            except OSError as exc:
                self.remove()
                raise CgroupError(f"cannot make the bot's group in {place.base}: "
                                  f"{exc.strerror or exc}") from None
            self.folders[place] = folder
        return folder

    def _limit(self, memory_mb: int | None, processes: int | None,
               cpus: float | None) -> None:
        v2 = {need: folder for need, folder in self.needs.items()
              if self._version(folder) == 2}
        if memory_mb is not None and "memory" in self.needs:
            folder, size = self.needs["memory"], str(memory_mb << 20)
            if "memory" in v2:
                _write(folder / "memory.max", size)
                if (folder / "memory.swap.max").exists():
                    _write(folder / "memory.swap.max", "0")
            else:
                _write(folder / "memory.limit_in_bytes", size)
                if (folder / "memory.memsw.limit_in_bytes").exists():
                    _write(folder / "memory.memsw.limit_in_bytes", size)
        if processes is not None and "pids" in self.needs:
            _write(self.needs["pids"] / "pids.max", str(processes))
        if cpus is not None and "cpu" in self.needs:
            quota = str(max(1000, int(cpus * CPU_PERIOD)))
            if "cpu" in v2:
                _write(self.needs["cpu"] / "cpu.max", f"{quota} {CPU_PERIOD}")
            else:
                _write(self.needs["cpu"] / "cpu.cfs_period_us", str(CPU_PERIOD))
                _write(self.needs["cpu"] / "cpu.cfs_quota_us", quota)

    def _version(self, folder: Path) -> int:
        return next(place.version for place, mine in self.folders.items() if mine == folder)

    def join(self) -> None:
        """Move this process into the group (in the bot's child, before exec: raw system
        calls only, no allocation beyond the paths made beforehand)."""
        for path in self.procs:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)

    def cpu_seconds(self) -> float | None:
        """CPU time the group's processes have used, the ended ones included (None where
        this machine does not count it)."""
        folder = self.needs.get("usage")
        if folder is None:
            return None
        if self._version(folder) == 1:
            used = self._field(self.usage_fd, b"")
            return None if used is None else used / 1e9
        used = self._field(self.usage_fd, b"usage_usec")
        return None if used is None else used / 1e6

    def oom_kills(self) -> int:
        """How many of the group's processes the kernel killed for its memory limit."""
        return self._field(self.oom_fd, b"oom_kill") or 0

    def kill(self) -> None:
        """Kill every process in the group (those that left the bot's process group or
        its session too)."""
        for place, folder in self.folders.items():
            if place.version == 2 and (folder / "cgroup.kill").exists():
                with contextlib.suppress(OSError):
                    _write(folder / "cgroup.kill", "1")
                continue
            for _ in range(20):  # v1: a fork between reading and killing is caught next time
                pids = [int(word) for word in _read(folder / "cgroup.procs").split()
                        if word.isdigit()]
                if not pids:
                    break
                for pid in pids:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                time.sleep(0.005)

    def remove(self) -> None:
        """Kill what is left and remove the group's folders (the kernel lets a group go
        once its last process is reaped: retried for ``REMOVE_WAIT`` seconds)."""
        self.kill()
        for folder in self.folders.values():
            deadline = time.monotonic() + REMOVE_WAIT
            while True:
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.01)
        for fd in (self.usage_fd, self.oom_fd):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.usage_fd = self.oom_fd = None
        self.folders.clear()
        self.needs = {}
        self.procs = []
