"""Two bots talking through file locks on a file both sandboxes share ($LOCKED, e.g.
/etc/ld.so.cache): ROLE=send holds a lock for 3 s; ROLE=receive, a second later, sees
whether the file is locked (flock, then fcntl's F_GETLK). Both also try inotify."""

from __future__ import annotations

import ctypes
import fcntl
import os
import platform
import struct
import time

from _play import learned, play, refused

path = os.environ.get("LOCKED", "/etc/ld.so.cache")
with open(path, "rb") as handle:
    if os.environ.get("ROLE") == "send":
        for name, lock in (("flock", lambda: fcntl.flock(handle, fcntl.LOCK_SH)),
                           ("fcntl", lambda: fcntl.lockf(handle, fcntl.LOCK_SH))):
            try:
                lock()
                learned(f"holds a {name} lock on {path}")
            except OSError as exc:
                refused(f"{name} lock on {path}: {exc.strerror}")
        # the same lock by the raw system call, the command's high 32 bits set: the
        # kernel reads an unsigned int, a filter comparing 64 bits would let it by
        number = {"x86_64": 72, "aarch64": 25}.get(platform.machine())
        if number is not None:
            lock = ctypes.create_string_buffer(struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 0, 0))
            libc = ctypes.CDLL(None, use_errno=True)
            done = libc.syscall(ctypes.c_long(number), ctypes.c_long(handle.fileno()),
                                ctypes.c_long(fcntl.F_SETLK | 1 << 32), lock)
            if done == 0:
                learned(f"holds an fcntl lock on {path} by a command with high bits set")
            else:
                refused(f"fcntl with high bits on {path}: {os.strerror(ctypes.get_errno())}")
        time.sleep(3)
    else:
        time.sleep(1)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            refused(f"news by flock: {path} was not locked")
        except BlockingIOError:
            learned(f"another sandbox holds a flock lock on {path}")
        except OSError as exc:
            refused(f"flock on {path}: {exc.strerror}")
        query = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
        try:
            answer = fcntl.fcntl(handle, fcntl.F_GETLK, query)
            if struct.unpack("hhqqi", answer)[0] != fcntl.F_UNLCK:
                learned(f"another sandbox holds an fcntl lock on {path}")
            else:
                refused(f"news by fcntl: {path} was not locked")
        except OSError as exc:
            refused(f"fcntl F_GETLK on {path}: {exc.strerror}")
libc = ctypes.CDLL(None, use_errno=True)
if libc.inotify_init1(0) >= 0:
    learned("inotify works")
else:
    refused(f"inotify: {os.strerror(ctypes.get_errno())}")
play()
