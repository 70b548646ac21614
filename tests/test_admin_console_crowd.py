"""The console under a crowd and from the wrong user (issue 37): another user's ``trash
admin`` is told it is refused (never ``Broken pipe``), and a burst of requests larger than
the console's connections is answered in full (the client retries ``busy``)."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from other_user import ENV, SYSTEM_PYTHON, why_not
from ssh_helpers import serving

from trash_tui.admin.console import MAX_CONNECTIONS, request

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(why_not() is not None, reason=f"another user: {why_not()}")
async def test_another_users_console_is_told_it_is_refused_every_time(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="trash-admin-"))  # (pytest's folders are 0700)
    try:
        folder.chmod(0o755)
        async with serving(tmp_path, admin_socket=folder / "admin.sock") as server:
            server.config.admin_path.chmod(0o666)  # as if the operator loosened it
            command = [str(SYSTEM_PYTHON), "-m", "trash_tui.cli.main", "admin", "--socket",
                       str(server.config.admin_path), "say", "x" * 4000]
            for _ in range(8):
                ran = await asyncio.to_thread(subprocess.run, command, capture_output=True,
                                              text=True, timeout=60, user=65534, group=65534,
                                              env=ENV)
                assert ran.returncode == 2
                assert ran.stderr.startswith("trash: error: refused: the admin console is "
                                             "for the user who runs the server"), ran.stderr
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def test_a_burst_of_fifty_requests_is_answered_in_full(tmp_path: Path) -> None:
    """Fifty consoles at once (threads released together, each ``trash admin``'s own
    request function): more than ``MAX_CONNECTIONS`` wait their turn; every one is
    answered."""
    async with serving(tmp_path) as server:
        path = server.config.admin_path
        start = threading.Barrier(50)

        def one() -> dict[str, object]:
            start.wait(30)
            return request(path, "stats", {}, 60.0)

        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(50) as pool:
            answers = await asyncio.gather(*[loop.run_in_executor(pool, one)
                                             for _ in range(50)])
        assert [reply.get("error") for reply in answers if not reply["ok"]] == []
        assert server.state.console.refused > 0 or MAX_CONNECTIONS >= 50  # it was a crowd


async def test_half_open_metrics_connections_hold_no_thread_and_a_scrape_goes_through(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """200 connections that send half a request and wait: the endpoint gives none of them
    a thread of its own, a scrape meanwhile is answered at once, and each of them is cut
    off after the endpoint's timeout."""
    from trash_tui.admin import metrics

    monkeypatch.setattr(metrics, "SCRAPE_TIMEOUT", 2.0, raising=False)
    async with serving(tmp_path, metrics=("127.0.0.1", 0)) as server:
        host, _, port = str(server.state.metrics_address).rpartition(":")
        threads = threading.active_count()
        held = []
        for _ in range(200):
            reader, writer = await asyncio.open_connection(host, int(port))
            writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")  # never ends
            held.append((reader, writer))
        await asyncio.sleep(0.5)
        assert threading.active_count() - threads < 20
        started = time.monotonic()
        status, body = await asyncio.to_thread(scrape, f"http://{host}:{port}/metrics")
        assert status == 200 and "trash_moves_total" in body
        assert time.monotonic() - started < 2.0
        # every half-sent request is cut off after the timeout (the server closes it)
        ends = await asyncio.wait_for(asyncio.gather(*(r.read() for r, _ in held)), 10)
        assert all(b" 200 " not in end for end in ends)
        for _, writer in held:
            writer.close()


def scrape(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.read().decode()
