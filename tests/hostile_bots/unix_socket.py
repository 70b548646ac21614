"""Reaches a listener outside through Unix socket files in its own (read-only) folder:
connects to $STREAM, sends a datagram to $DGRAM, and sends one from a socketpair too."""

from __future__ import annotations

import os
import socket

from _play import learned, play, refused

stream, dgram = os.environ.get("STREAM", "stream.sock"), os.environ.get("DGRAM", "dgram.sock")
try:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(2)
        client.connect(stream)
        client.sendall(b"hello from the sandbox\n")
        learned(f"connected to {stream}")
except OSError as exc:
    refused(f"connect to {stream}: {exc.strerror or exc}")
try:
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as client:
        client.sendto(b"datagram from the sandbox\n", dgram)
        learned(f"sent to {dgram}")
except OSError as exc:
    refused(f"send to {dgram}: {exc.strerror or exc}")
try:
    one, other = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    with one, other:
        one.sendto(b"datagram from a socketpair\n", dgram)
        learned(f"sent to {dgram} from a socketpair")
except OSError as exc:
    refused(f"send to {dgram} from a socketpair: {exc.strerror or exc}")
try:  # a stream socketpair (asyncio's self-pipe) stays allowed: it reaches nothing
    one, other = socket.socketpair()
    with one, other:
        one.sendall(b"x")
        learned(f"a stream socketpair carries {other.recv(1)!r}")
except OSError as exc:
    refused(f"a stream socketpair: {exc.strerror or exc}")
play()
