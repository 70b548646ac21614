"""The server's figures: for ``trash admin stats`` and, when ``metrics = "HOST:PORT"`` is
set, a Prometheus endpoint: the official ``prometheus_client`` library's registry and text
format, served on the server's event loop (``serve``: no thread per connection, a
timeout per connection, a bound on connections; 200 half-open connections do not hold up
a scrape).

Each server has its own registry (never the library's global one). Counters move as
things happen (connections refused by reason, moves, bans, kicks, errors logged, session
CPU seconds, history-database writes timed in a histogram); the gauges (sessions by
state, tables by status, sanctions in force) are read from the server when scraped. No
player name, key or address is ever a label: labels are the server's own words.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

SCRAPE_TIMEOUT = 5.0  # seconds for a scraper to send its request head and take the answer
MAX_SCRAPERS = 512  # metrics connections open at once (more are closed at once)
MAX_REQUEST_HEAD = 8192  # bytes of a request's head
MOVES_WINDOW = 60.0  # seconds over which ``stats`` counts moves per second
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds of process ``pid`` so far (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            fields = file.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, ValueError, IndexError):
        return None


class _Gauges(Collector):
    """The gauges read from the server at each scrape."""

    def __init__(self, read: Callable[[], dict[str, dict[str, int]]]) -> None:
        self.read = read

    def collect(self) -> Iterator[GaugeMetricFamily]:
        figures = self.read()
        for name, label, helptext in (
                ("sessions", "state", "Sessions by where they are (booting, lobby, table, "
                                      "watching)"),
                ("tables", "status", "Shared tables by status"),
                ("sanctions", "action", "Bans and mutes in force")):
            family = GaugeMetricFamily(f"trash_{name}", helptext, labels=[label])
            for value, count in sorted(figures.get(name, {}).items()):
                family.add_metric([value], count)
            yield family


class ServerMetrics:
    """Every figure of one server, in its own Prometheus registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.refused = Counter("trash_connections_refused", "Connections and sessions "
                               "refused, by reason", ["reason"], registry=self.registry)
        self.sessions = Counter("trash_sessions_started", "Sessions whose app started, "
                                "by way in (ssh, web)", ["way"], registry=self.registry)
        self.moves = Counter("trash_moves", "Moves played at shared tables",
                             registry=self.registry)
        self.cpu = Counter("trash_session_cpu_seconds", "CPU seconds used by the sessions' "
                           "apps", registry=self.registry)
        self.writes = Histogram("trash_history_write_seconds", "Latency of the history "
                                "database's writes", registry=self.registry,
                                buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                         0.1, 0.25, 0.5, 1.0, 2.5))
        self.bans = Counter("trash_bans", "Bans made by the operator", registry=self.registry)
        self.kicks = Counter("trash_kicks", "Sessions kicked by the operator",
                             registry=self.registry)
        self.errors = Counter("trash_errors_logged", "Errors written to the operator's log",
                              registry=self.registry)
        self.reports = Counter("trash_reports", "Reports made by players",
                               registry=self.registry)
        self.started = time.time()
        self.recent_moves: deque[float] = deque()
        self.cpu_seen: dict[int, float] = {}  # pid -> CPU seconds counted so far
        self.read_gauges: Callable[[], dict[str, dict[str, int]]] = dict
        self.registry.register(_Gauges(lambda: self.read_gauges()))
        self.http: asyncio.AbstractServer | None = None
        self.scrapers = 0  # metrics connections open now
        self.lock = threading.Lock()

    # --- what happens ----------------------------------------------------------------
    def move(self) -> None:
        self.moves.inc()
        now = time.monotonic()
        self.recent_moves.append(now)
        while self.recent_moves and now - self.recent_moves[0] > MOVES_WINDOW:
            self.recent_moves.popleft()

    def moves_per_second(self) -> float:
        now = time.monotonic()
        while self.recent_moves and now - self.recent_moves[0] > MOVES_WINDOW:
            self.recent_moves.popleft()
        return len(self.recent_moves) / MOVES_WINDOW

    def write_timed(self, seconds: float) -> None:
        """A history-database write took ``seconds`` (called from any thread)."""
        self.writes.observe(seconds)

    def sample_cpu(self, pids: list[int]) -> dict[int, float]:
        """Count the CPU the running sessions ``pids`` used since the last sample; each
        one's total so far."""
        totals: dict[int, float] = {}
        with self.lock:
            for pid in pids:
                used = process_cpu_seconds(pid)
                if used is None:
                    continue
                totals[pid] = used
                before = self.cpu_seen.get(pid, 0.0)
                if used > before:
                    self.cpu.inc(used - before)
                    self.cpu_seen[pid] = used
            for pid in [pid for pid in self.cpu_seen if pid not in pids]:
                del self.cpu_seen[pid]
        return totals

    def value(self, counter: Counter, **labels: str) -> float:
        """A counter's value now (summed over its labels unless they are given)."""
        total = 0.0
        for metric in counter.collect():
            for sample in metric.samples:
                if sample.name.endswith("_total") and all(
                        sample.labels.get(k) == v for k, v in labels.items()):
                    total += sample.value
        return total

    def refused_by_reason(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for metric in self.refused.collect():
            for sample in metric.samples:
                if sample.name.endswith("_total"):
                    found[sample.labels["reason"]] = int(sample.value)
        return found

    def write_latency(self) -> dict[str, float]:
        """The writes timed so far: how many, and their mean in milliseconds."""
        count = total = 0.0
        for metric in self.writes.collect():
            for sample in metric.samples:
                if sample.name.endswith("_count"):
                    count = sample.value
                elif sample.name.endswith("_sum"):
                    total = sample.value
        return {"count": int(count), "mean_ms": round(1000 * total / count, 3) if count else 0}

    # --- the endpoint ----------------------------------------------------------------
    async def serve(self, host: str, port: int) -> int:
        """Serve the metrics on http://HOST:PORT/metrics (on the running loop); the port.
        A connection costs no thread: its request head must come within
        ``SCRAPE_TIMEOUT`` s (else it is closed), at most ``MAX_SCRAPERS`` are open at once
        (more are closed at once), and only the figures are made on a worker thread."""
        self.http = await asyncio.start_server(self._scrape, host, port,
                                               limit=MAX_REQUEST_HEAD)
        return int(self.http.sockets[0].getsockname()[1])

    async def _scrape(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                      ) -> None:
        self.scrapers += 1
        try:
            if self.scrapers <= MAX_SCRAPERS:
                await self._answer(reader, writer)
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError,
                ValueError, ConnectionError):
            return  # too slow, too long or gone: it is closed below, nothing else
        finally:
            self.scrapers -= 1
            writer.close()

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                      ) -> None:
        """Read one request head (within ``SCRAPE_TIMEOUT`` s) and answer it."""
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), SCRAPE_TIMEOUT)
        method, _, rest = head.partition(b" ")
        path = rest.partition(b" ")[0].partition(b"?")[0]
        if method not in (b"GET", b"HEAD"):
            status, body, kind = "405 Method Not Allowed", b"GET /metrics\n", "text/plain"
        elif path not in (b"/metrics", b"/"):
            status, body, kind = "404 Not Found", b"GET /metrics\n", "text/plain"
        else:
            body = await asyncio.to_thread(generate_latest, self.registry)
            status, kind = "200 OK", CONTENT_TYPE_LATEST
        writer.write(f"HTTP/1.0 {status}\r\nContent-Type: {kind}\r\nContent-Length: "
                     f"{len(body)}\r\nConnection: close\r\n\r\n".encode())
        if method != b"HEAD":
            writer.write(body)
        await asyncio.wait_for(writer.drain(), SCRAPE_TIMEOUT)

    def stop(self) -> None:
        if self.http is not None:
            with contextlib.suppress(Exception):
                self.http.close()
            self.http = None
