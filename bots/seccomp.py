"""The seccomp filter of a sandboxed bot (bots/sandbox.py hands it to bwrap's
``--seccomp``): a classic BPF program, built here for the machine's architecture, that
refuses the system calls through which a bot could reach outside its sandbox or another
bot's, or hold memory its limits do not count. Every other call is allowed.

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

A system call of another architecture (32-bit calls on x86-64, the x32 ones) kills the
process. ``program()`` is None on an architecture without its table here; the sandbox
then runs without the filter and ``trash tournament check`` says what is not protected.
"""

from __future__ import annotations

import errno
import platform
import struct

# BPF instruction classes and fields (linux/filter.h, linux/seccomp.h)
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_AND_K = 0x54
_JSET_K = 0x45
_RET_K = 0x06
_ALLOW = 0x7FFF0000
_KILL_PROCESS = 0x80000000
_ERRNO = 0x00050000
_ARCH = 4  # offsets in struct seccomp_data
_NR = 0


def _arg(number: int) -> int:
    """The offset of a system call's argument (its low 32 bits, little-endian)."""
    return 16 + 8 * number


CLONE_NEWUSER = 0x10000000
AF_UNIX = 1
SOCK_STREAM = 1
#: fcntl commands that lock or watch: F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK,
#: F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_GETLEASE, F_NOTIFY
LOCKS = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)

#: per architecture: its AUDIT_ARCH value, the first number of a foreign ABI sharing it
#: (x32), and the system calls' numbers
_TABLES: dict[str, tuple[int, int | None, dict[str, int]]] = {
    "x86_64": (0xC000003E, 0x40000000, {
        "socket": 41, "socketpair": 53, "fcntl": 72, "flock": 73, "shmget": 29,
        "inotify_init": 253, "inotify_init1": 294, "fanotify_init": 300,
        "memfd_create": 319, "io_uring_setup": 425, "memfd_secret": 447,
        "unshare": 272, "clone": 56, "clone3": 435}),
    "aarch64": (0xC00000B7, None, {
        "socket": 198, "socketpair": 199, "fcntl": 25, "flock": 32, "shmget": 194,
        "inotify_init1": 26, "fanotify_init": 262, "memfd_create": 279,
        "io_uring_setup": 425, "memfd_secret": 447,
        "unshare": 97, "clone": 220, "clone3": 435}),
}
_REFUSED = {"flock": errno.ENOLCK, "shmget": errno.EPERM, "memfd_create": errno.EPERM,
            "memfd_secret": errno.EPERM, "inotify_init": errno.EPERM,
            "inotify_init1": errno.EPERM, "fanotify_init": errno.EPERM,
            "io_uring_setup": errno.ENOSYS, "clone3": errno.ENOSYS}


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def _refuse(error: int) -> bytes:
    return _op(_RET_K, _ERRNO | error)


def machine() -> str:
    return platform.machine().lower().replace("amd64", "x86_64").replace("arm64", "aarch64")


def program(arch: str | None = None) -> bytes | None:
    """The filter for ``arch`` (this machine's by default) as bwrap reads it, or None."""
    table = _TABLES.get(arch or machine())
    if table is None:
        return None
    audit, foreign, numbers = table
    code = [_op(_LD_W_ABS, _ARCH), _op(_JEQ_K, audit, 1, 0), _op(_RET_K, _KILL_PROCESS),
            _op(_LD_W_ABS, _NR)]
    if foreign is not None:
        code += [_op(_JGE_K, foreign, 0, 1), _op(_RET_K, _KILL_PROCESS)]
    for name, error in _REFUSED.items():
        if name in numbers:
            code += [_op(_JEQ_K, numbers[name], 0, 1), _refuse(error)]
    # unshare(flags) and clone(flags, ...) making a user namespace: refused
    for call in ("unshare", "clone"):
        code += [_op(_JEQ_K, numbers[call], 0, 4), _op(_LD_W_ABS, _arg(0)),
                 _op(_JSET_K, CLONE_NEWUSER, 0, 1), _refuse(errno.EPERM),
                 _op(_RET_K, _ALLOW)]
    # socket(AF_UNIX, ...): refused
    code += [_op(_JEQ_K, numbers["socket"], 0, 4), _op(_LD_W_ABS, _arg(0)),
             _op(_JEQ_K, AF_UNIX, 0, 1), _refuse(errno.EACCES), _op(_RET_K, _ALLOW)]
    # socketpair(AF_UNIX, type, ...): refused but for a stream pair
    code += [_op(_JEQ_K, numbers["socketpair"], 0, 7), _op(_LD_W_ABS, _arg(0)),
             _op(_JEQ_K, AF_UNIX, 0, 4), _op(_LD_W_ABS, _arg(1)), _op(_AND_K, 0xF),
             _op(_JEQ_K, SOCK_STREAM, 1, 0), _refuse(errno.EACCES), _op(_RET_K, _ALLOW)]
    # fcntl(fd, a lock or a watch, ...)
    count = len(LOCKS)
    code += [_op(_JEQ_K, numbers["fcntl"], 0, count + 3), _op(_LD_W_ABS, _arg(1))]
    code += [_op(_JEQ_K, command, count - index, 0) for index, command in enumerate(LOCKS)]
    code += [_op(_RET_K, _ALLOW), _refuse(errno.ENOLCK)]
    code.append(_op(_RET_K, _ALLOW))
    return b"".join(code)
