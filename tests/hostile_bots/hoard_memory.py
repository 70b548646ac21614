"""Holds $HOARD_MB MiB (default 32) where a process's address-space limit does not count
it: in a memfd it writes without mapping, and in a System V shared memory segment it
fills and detaches."""

from __future__ import annotations

import ctypes
import os

from _play import learned, play, refused

size = int(os.environ.get("HOARD_MB", "32")) << 20
try:
    memfd = os.memfd_create("hoard")
    for _ in range(size >> 20):
        os.write(memfd, bytes(1 << 20))
    learned(f"holds {size >> 20} MiB in a memfd")
except OSError as exc:
    refused(f"memfd: {exc.strerror}")
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
segment = libc.shmget(0, ctypes.c_size_t(size), 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
if segment < 0:
    refused(f"shmget: {os.strerror(ctypes.get_errno())}")
else:
    address = libc.shmat(segment, None, 0)
    ctypes.memset(address, 1, size)
    libc.shmdt(ctypes.c_void_p(address))
    learned(f"holds {size >> 20} MiB in System V shared memory, detached")
play()
