"""The seccomp filter of a sandboxed bot (bots/sandbox.py hands it to bwrap's
``--seccomp``): built with libseccomp (the system's ``libseccomp.so.2``, the library
systemd, apt and container runtimes build their filters with, called through ctypes) for
this machine's architecture, it refuses the system calls through which a bot could reach
outside its sandbox or another bot's, or hold memory its limits do not count. Every other
call is allowed.

Refused, with the error the program sees:

- ``socket(AF_UNIX, ...)`` (``EACCES``), and ``socketpair(AF_UNIX, ...)`` but for a
  stream pair (a datagram pair may send to any socket file by its path): a socket file
  in a folder the bot may read (its own, ``/usr``) would lead to a listener outside,
  which the network namespace does not cover. A stream pair (asyncio's self-pipe) reaches
  nothing. ``io_uring_setup`` (``ENOSYS``) too: its operations pass no filter.
- file locks (``ENOLCK``): ``flock`` and ``fcntl``'s record, open-file and lease locks,
  whose holder another sandbox sharing the file (even ``/etc/ld.so.cache``) could see;
  ``fcntl(F_NOTIFY)``, ``inotify_init``/``inotify_init1`` and ``fanotify_init``
  (``EPERM``), which would see another bot open a shared file.
- memory outside the address space a bot's ``memory_limit`` counts (``EPERM``):
  ``memfd_create``, ``memfd_secret`` and ``shmget`` (System V shared memory, which
  stays when the bot detaches it).
- a user namespace of its own (``EPERM``): ``unshare`` and ``clone`` with
  ``CLONE_NEWUSER``, in which the bot would be root and could mount a tmpfs no
  ``tmp_mb`` caps; ``clone3`` (``ENOSYS``: its flags are out of a filter's reach, and the
  C library then falls back to ``clone``). bwrap's ``--disable-userns`` would do this,
  but it cannot be combined with the ``--userns-block-fd`` a root runner needs.

Arguments are compared on their low 32 bits where the kernel reads an ``int`` (a bot
cannot slip ``F_SETLK`` past the filter with high bits set). A system call of another
architecture (32-bit calls on x86-64, the x32 ones) kills the process (libseccomp's
"bad architecture" action). ``program()`` is None where libseccomp is not installed or
cannot build the filter; ``unavailable()`` says why, and the sandbox then runs without
the filter and ``trash bots check`` says what is not protected.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import platform

CLONE_NEWUSER = 0x10000000
AF_UNIX = 1
SOCK_STREAM = 1
#: fcntl commands that lock or watch: F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK,
#: F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_GETLEASE, F_NOTIFY
LOCKS = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
#: refused whatever their arguments
REFUSED = {"flock": errno.ENOLCK, "shmget": errno.EPERM, "memfd_create": errno.EPERM,
           "memfd_secret": errno.EPERM, "inotify_init": errno.EPERM,
           "inotify_init1": errno.EPERM, "fanotify_init": errno.EPERM,
           "io_uring_setup": errno.ENOSYS, "clone3": errno.ENOSYS}

# libseccomp's constants (seccomp.h)
_ACT_ALLOW = 0x7FFF0000
_ACT_KILL_PROCESS = 0x80000000
_ACT_ERRNO = 0x00050000
_ATTR_ACT_BADARCH = 2
_ARCH_NATIVE = 0
_CMP_MASKED_EQ = 7
_LOW = 0xFFFFFFFF  # an int argument: its low 32 bits


class _ArgCmp(ctypes.Structure):
    """libseccomp's ``struct scmp_arg_cmp``."""

    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


def machine() -> str:
    return platform.machine().lower().replace("amd64", "x86_64").replace("arm64", "aarch64")


def _library() -> ctypes.CDLL:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    lib = ctypes.CDLL(name, use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    lib.seccomp_attr_set.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name_arch.argtypes = [ctypes.c_uint32, ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                           ctypes.c_uint, ctypes.POINTER(_ArgCmp)]
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return lib


class _Filter:
    """A libseccomp filter being built: rules by system call name, then its BPF."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib
        self.ctx = lib.seccomp_init(_ACT_ALLOW)
        if not self.ctx:
            raise OSError("seccomp_init failed")
        self._check(lib.seccomp_attr_set(self.ctx, _ATTR_ACT_BADARCH, _ACT_KILL_PROCESS),
                    "the bad-architecture action")

    def _check(self, result: int, what: str) -> None:
        if result < 0:
            raise OSError(f"libseccomp refused {what}: {os.strerror(-result)}")

    def refuse(self, name: str, error: int, *compare: tuple[int, int, int]) -> None:
        """``name`` answers ``error`` when every (argument, mask, value) holds; a call
        this architecture does not have is skipped."""
        number = self.lib.seccomp_syscall_resolve_name_arch(_ARCH_NATIVE, name.encode())
        if number < 0:
            return
        array = (_ArgCmp * max(1, len(compare)))(
            *(_ArgCmp(arg, _CMP_MASKED_EQ, mask, value) for arg, mask, value in compare))
        self._check(self.lib.seccomp_rule_add_array(self.ctx, _ACT_ERRNO | error, number,
                                                    len(compare), array), name)

    def bpf(self) -> bytes:
        read_end, write_end = os.pipe()
        try:
            self._check(self.lib.seccomp_export_bpf(self.ctx, write_end), "the export")
            os.close(write_end)
            write_end = -1
            chunks = []
            while chunk := os.read(read_end, 65536):
                chunks.append(chunk)
            return b"".join(chunks)
        finally:
            os.close(read_end)
            if write_end >= 0:
                os.close(write_end)

    def release(self) -> None:
        self.lib.seccomp_release(self.ctx)


def _build() -> bytes:
    built = _Filter(_library())
    try:
        for name, error in REFUSED.items():
            built.refuse(name, error)
        # clone's flags: the first argument, but the second on s390 (stack first)
        flags = 1 if machine().startswith("s390") else 0
        built.refuse("clone", errno.EPERM, (flags, CLONE_NEWUSER, CLONE_NEWUSER))
        built.refuse("unshare", errno.EPERM, (0, CLONE_NEWUSER, CLONE_NEWUSER))
        built.refuse("socket", errno.EACCES, (0, _LOW, AF_UNIX))
        for kind in range(16):  # socketpair(AF_UNIX, type): all but a stream pair
            if kind != SOCK_STREAM:
                built.refuse("socketpair", errno.EACCES, (0, _LOW, AF_UNIX), (1, 0xF, kind))
        for name in ("fcntl", "fcntl64"):
            for command in LOCKS:
                built.refuse(name, errno.ENOLCK, (1, _LOW, command))
        return built.bpf()
    finally:
        built.release()


_built: list[bytes | None] = []
_why: list[str] = []


def program() -> bytes | None:
    """The filter for this machine as bwrap reads it (built once), or None."""
    if not _built:
        try:
            _built.append(_build())
        except (OSError, AttributeError) as exc:
            _built.append(None)
            _why.append(f"libseccomp cannot build the filter here ({exc}); install "
                        "libseccomp2 (Debian/Ubuntu) or libseccomp (Fedora)")
    return _built[0]


def unavailable() -> str | None:
    """Why there is no filter on this machine (one line), or None."""
    program()
    return _why[0] if _why else None
