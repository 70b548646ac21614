"""The operator's side under a crowd: the admin console and the metrics endpoint.

Starts the server in this process (``start_server``) with its files in a temporary folder,
its admin socket and a metrics endpoint on a free port of 127.0.0.1, then:

* **console**: ``--requests N`` (50) consoles at once, each ``trash admin stats``'s own
  request function in a thread of its own, released together: how many were answered,
  the median and the longest time from asking to the answer (busy consoles ask again
  after a short backoff).
* **metrics**: ``--half-open N`` (200) connections that each send half a request and
  wait; meanwhile one scrape: its time, and the threads the server gained. Then how long
  until the server has closed every half-open connection (its timeout per connection).

Prints the figures; exit status 0.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # (benchmarks/bots.py is not the bots package)

from trash_tui.admin.console import request
from trash_tui.ssh.config import ServerConfig
from trash_tui.ssh.server import RunningServer, start_server


async def console(server: RunningServer, count: int) -> None:
    start = threading.Barrier(count)

    def one() -> tuple[bool, float]:
        start.wait(60)
        began = time.perf_counter()
        reply = request(server.config.admin_path, "stats", {}, 60.0)
        return bool(reply.get("ok")), time.perf_counter() - began

    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(count) as pool:
        results = await asyncio.gather(*[loop.run_in_executor(pool, one)
                                         for _ in range(count)])
    times = [seconds for _, seconds in results]
    answered = sum(ok for ok, _ in results)
    print(f"console: {count} requests at once: {answered} answered; median "
          f"{1000 * statistics.median(times):.1f} ms, max {1000 * max(times):.1f} ms "
          f"(refused as busy and asked again: {server.state.console.refused})")


async def metrics(server: RunningServer, count: int) -> None:
    host, _, port = str(server.state.metrics_address).rpartition(":")
    threads = threading.active_count()
    held = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        held.append((reader, writer))
    await asyncio.sleep(0.5)
    gained = threading.active_count() - threads
    began = time.perf_counter()

    def scrape() -> int:
        with urllib.request.urlopen(f"http://{host}:{port}/metrics", timeout=30) as answer:
            return len(answer.read())

    size = await asyncio.to_thread(scrape)
    took = time.perf_counter() - began
    began = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*(reader.read() for reader, _ in held)), 60)
    cut = time.perf_counter() - began
    for _, writer in held:
        writer.close()
    print(f"metrics: {count} half-open connections held: threads gained {gained}; a scrape "
          f"meanwhile {1000 * took:.1f} ms ({size} bytes); every half-open connection "
          f"closed by the server within {cut + 0.5:.1f} s")


async def main(arguments: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        config = ServerConfig(host="127.0.0.1", port=0, host_key=folder / "host_key",
                              history=folder / "history.sqlite3",
                              players_dir=folder / "players", log=folder / "ssh.log",
                              metrics=("127.0.0.1", 0))
        server = await start_server(config, echo=io.StringIO(), command=("true",))
        try:
            await console(server, arguments.requests)
            await metrics(server, arguments.half_open)
        finally:
            await server.stop(grace=3.0)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--half-open", type=int, default=200)
    asyncio.run(main(parser.parse_args()))
