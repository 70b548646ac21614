"""Opens a TCP connection to 127.0.0.1:$PORT (the test listens there)."""

from __future__ import annotations

import os
import socket

from _play import learned, play, refused

port = int(os.environ.get("PORT", "9"))
try:
    with socket.create_connection(("127.0.0.1", port), timeout=2):
        learned(f"connected to 127.0.0.1:{port}")
except OSError as exc:
    refused(f"connect to 127.0.0.1:{port}: {exc.strerror or exc}")
play()
