"""`/metrics`, `/healthz` and `/readyz` on the address `SCOPA_METRICS` names.

The server runs in threads of its own (prometheus_client's threading WSGI server), not on
the event loop: a loop stuck in a long computation can still be told apart from a dead
process, and `/healthz` says 503 instead of leaving the caller without an answer.

- `/healthz`: 200 while the event loop turns (its heartbeat is recent), 503 when it is stuck.
- `/readyz`: 200 when every check (the database answers, the platform is reachable) passes,
  run on the loop within a few seconds; 503 otherwise, the body naming what failed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, make_server

from prometheus_client import CollectorRegistry, make_wsgi_app
from prometheus_client.exposition import ThreadingWSGIServer

log = logging.getLogger(__name__)

BEAT = 0.5
"""Seconds between two heartbeats of the event loop."""
STUCK_AFTER = 10.0
"""Seconds without a heartbeat after which the loop counts as stuck."""
READY_WITHIN = 5.0
"""Seconds the readiness checks may take together."""

Checks = Callable[[], Awaitable[dict[str, bool]]]
"""What `/readyz` asks, on the event loop: each part's name and whether it is fine."""


class Heartbeat:
    """The event loop's pulse, read from the server's threads (its lag is measured once, by the
    heartbeat of the sessions, and counted through `loop_lag`)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, checks: Checks, *,
                 stuck_after: float = STUCK_AFTER, clock: Callable[[], float] = time.monotonic) -> None:
        self.loop = loop
        self.checks = checks
        self.stuck_after = stuck_after
        self.clock = clock
        self.last = clock()

    async def run(self) -> None:
        while True:
            await asyncio.sleep(BEAT)
            self.last = self.clock()

    def alive(self) -> bool:
        return self.clock() - self.last < self.stuck_after

    def ready(self) -> dict[str, bool]:
        """The checks' verdicts; every part failed when the loop cannot run them in time."""
        if not self.alive():
            return {"event loop": False}
        future = asyncio.run_coroutine_threadsafe(self._checks(), self.loop)
        try:
            return future.result(READY_WITHIN)
        except Exception:
            future.cancel()
            return {"checks in time": False}

    async def _checks(self) -> dict[str, bool]:
        async with asyncio.timeout(READY_WITHIN - 0.5):
            return await self.checks()


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Scrapes and probes every few seconds are not worth a log line."""


def parse_address(text: str) -> tuple[str, int]:
    """`host:port`, `[v6]:port` or `:port` (every interface); ValueError otherwise."""
    host, colon, port = text.strip().rpartition(":")
    if not colon or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(text)
    host = host.removeprefix("[").removesuffix("]") or "0.0.0.0"
    return host, int(port)


class MetricsServer:
    def __init__(self, address: tuple[str, int], registry: CollectorRegistry, heart: Heartbeat) -> None:
        self.heart = heart
        metrics = make_wsgi_app(registry)

        def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
            path = environ.get("PATH_INFO", "")
            if path == "/metrics":
                return metrics(environ, start_response)  # type: ignore[no-any-return]
            if path == "/healthz":
                alive = heart.alive()
                return _plain(start_response, alive, "ok\n" if alive else "the event loop is stuck\n")
            if path == "/readyz":
                checks = heart.ready()
                body = "".join(f"{name}: {'ok' if fine else 'failing'}\n" for name, fine in checks.items())
                return _plain(start_response, all(checks.values()), body)
            start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8")])
            return [b"/metrics, /healthz or /readyz\n"]

        class Server(ThreadingWSGIServer):
            address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET

        self.httpd = make_server(address[0], address[1], app, Server, handler_class=_Quiet)
        self.port = int(self.httpd.server_address[1])
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="metrics", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(5)


def _plain(start_response: Callable[..., Any], fine: bool, body: str) -> list[bytes]:
    start_response("200 OK" if fine else "503 Service Unavailable",
                   [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")])
    return [body.encode()]


@contextlib.asynccontextmanager
async def serving(address: tuple[str, int], registry: CollectorRegistry,
                  checks: Checks) -> AsyncIterator[MetricsServer]:
    """Serve the three paths on `address` while inside, with the heartbeat running."""
    heart = Heartbeat(asyncio.get_running_loop(), checks)
    server = MetricsServer(address, registry, heart)
    beat = asyncio.create_task(heart.run(), name="heartbeat")
    server.start()
    log.info("metrics, health and readiness on http://%s:%d/metrics", address[0], server.port)
    try:
        yield server
    finally:
        beat.cancel()
        await asyncio.gather(beat, return_exceptions=True)
        await asyncio.to_thread(server.close)
