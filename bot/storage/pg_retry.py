"""PostgreSQL's connections, taken again when the server goes away for a while.

A server may be restarted, stopped at once (`pg_ctl stop -m immediate`), failed over or
paused; the bot's processes stay up meanwhile. Each request to the database goes through
`Connections`, which runs it on a connection of the pool and, when the connection is lost,
tries again with back-off for `retry_for` seconds, but only what is safe to run again:

- a transaction lost before its COMMIT was sent did not commit: it is run again whole;
- one lost while committing may or may not be stored: never run again;
- a statement of its own (autocommit) lost before it was sent is run again; one lost after
  it was sent is run again only when running it twice is the same as once (`repeatable`:
  reads, and upserts that set the same values).

What cannot be run again, or is still failing after `retry_for` seconds (short enough for a
tap to be answered within Telegram's 15 s), raises `StorageAway`: the user is told the game
is safe and to try again, and the timers and announcements try again on their own. Once the
server has been away for `patience` seconds (`OUTAGE_LIMIT` unless the operator says
otherwise: `SCOPA_DB_PATIENCE`) every request raises `StorageFailed` instead, and the bot
stops with one line, so that whatever supervises it can act. A server that refuses writes
for good (a full disk, a read-only standby) is `StorageFailed` at once, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import asyncpg

from .. import metrics
from ..sessions.ports import StorageAway, StorageFailed

log = logging.getLogger(__name__)

_T = TypeVar("_T")

RETRY_FOR = 6.0
"""Seconds one request keeps trying a lost server before `StorageAway`: with the rest of a
tap's work, its answer still reaches Telegram well within the 15 s it allows."""
OUTAGE_LIMIT = 120.0
"""Seconds the server may stay away before the bot gives up and stops."""
FIRST_PAUSE = 0.05
LONGEST_PAUSE = 1.0
"""Back-off between two tries of one request: doubling from the first to the longest, with
jitter, so that many waiting requests do not all knock at once."""

LOST = (OSError, TimeoutError, asyncpg.PostgresConnectionError, asyncpg.OperatorInterventionError,
        asyncpg.TooManyConnectionsError, asyncpg.InterfaceError)
"""The server was lost, is starting or stopping, or did not answer in time: it may be back soon."""
BROKEN = (asyncpg.InsufficientResourcesError, asyncpg.ReadOnlySQLTransactionError)
"""The server answers but cannot keep a write (a full disk, a read-only standby): it is not
coming back by itself."""


@dataclass(slots=True)
class _Progress:
    sent: bool = False
    """The statement, or the transaction's COMMIT, went out: it may have been done."""


class Connections:
    def __init__(self, pool: Callable[[], asyncpg.Pool], address: str, *,
                 retry_for: float = RETRY_FOR, patience: float = OUTAGE_LIMIT,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
                 failed: Callable[[StorageFailed], StorageFailed] = lambda error: error) -> None:
        self._pool = pool
        self._failed = failed
        """Hears of every `StorageFailed` before it is raised (the store's `on_failure` notes)."""
        self.address = address
        self.retry_for = retry_for
        self.patience = patience
        self.clock = clock
        self.sleep = sleep
        self.away_since: float | None = None
        """When the server was first found lost, since it last answered (None: it answers)."""

    async def transaction(self, work: Callable[[asyncpg.Connection], Awaitable[_T]]) -> _T:
        """`work` as one transaction: all of it is stored, or none; run again whole when the
        connection was lost before its COMMIT went out."""
        async def attempt(conn: asyncpg.Connection, progress: _Progress) -> _T:
            async with conn.transaction():
                result = await work(conn)
                progress.sent = True
            return result

        return await self._run(attempt, repeatable=False, op="transaction")

    async def statement(self, run: Callable[[asyncpg.Connection], Awaitable[_T]], *,
                        repeatable: bool) -> _T:
        """One statement, its own transaction; when `repeatable`, run again even if it was
        lost after it went out."""
        async def attempt(conn: asyncpg.Connection, progress: _Progress) -> _T:
            progress.sent = True
            return await run(conn)

        return await self._run(attempt, repeatable=repeatable, op="statement")

    async def _run(self, attempt: Callable[[asyncpg.Connection, _Progress], Awaitable[_T]], *,
                   repeatable: bool, op: str) -> _T:
        began = metrics.now()
        try:
            result = await self._retrying(attempt, repeatable)
        except Exception as exc:
            metrics.database(op, began, failed=not isinstance(exc, asyncpg.IntegrityConstraintViolationError))
            raise
        metrics.database(op, began)
        return result

    async def _retrying(self, attempt: Callable[[asyncpg.Connection, _Progress], Awaitable[_T]],
                        repeatable: bool) -> _T:
        give_up = self.clock() + self.retry_for
        pause = FIRST_PAUSE
        while True:
            progress = _Progress()
            try:
                async with asyncio.timeout(max(0.5, give_up - self.clock())):
                    result = await self._on_connection(attempt, progress)
            except LOST as exc:
                lost = exc
            except BROKEN as exc:
                raise self._failed(StorageFailed(
                    f"PostgreSQL at {self.address} failed: {type(exc).__name__}")) from exc
            else:
                if self.away_since is not None:
                    log.warning("PostgreSQL at %s is back after %.1f s", self.address,
                                self.clock() - self.away_since)
                    self.away_since = None
                return result
            now = self.clock()
            if self.away_since is None:
                self.away_since = now
                log.warning("PostgreSQL at %s was lost (%s); trying again", self.address,
                            _reason(lost))
            if now - self.away_since >= self.patience:
                raise self._failed(StorageFailed(f"PostgreSQL at {self.address} could not be reached "
                                                 f"for {self.patience:.0f} s: {_reason(lost)}")) from lost
            if progress.sent and not repeatable:
                raise StorageAway(f"PostgreSQL at {self.address} was lost while a write went out "
                                  f"({_reason(lost)})", maybe_stored=True) from lost
            if now + pause > give_up:
                raise StorageAway(f"PostgreSQL at {self.address} cannot be reached "
                                  f"({_reason(lost)})") from lost
            await self.sleep(pause * random.uniform(0.5, 1.0))
            pause = min(2 * pause, LONGEST_PAUSE)

    async def _on_connection(self, attempt: Callable[[asyncpg.Connection, _Progress], Awaitable[_T]],
                             progress: _Progress) -> _T:
        """`attempt` on a connection of the pool; a connection lost, or left mid-request by a
        timeout, is cut rather than given back (a paused server would keep it waiting)."""
        pool = self._pool()
        if pool.is_closing():
            raise self._failed(StorageFailed(f"the connections to PostgreSQL at {self.address} were closed"))
        conn = await pool.acquire()
        try:
            return await attempt(conn, progress)
        except (*LOST, asyncio.CancelledError):
            # a connection lost is let go by the pool itself, and then refuses every call
            with contextlib.suppress(asyncpg.InterfaceError):
                if not conn.is_closed():
                    conn.terminate()
            raise
        finally:
            await pool.release(conn)


def _reason(error: BaseException) -> str:
    return " ".join(str(error).split())[:120] or type(error).__name__


def set_patience(store: object, seconds: float) -> None:
    """Make a PostgreSQL store wait `seconds` for a lost server before `StorageFailed`; any
    other store (SQLite's, whose failures stop the bot at once) is left as it is."""
    connections = getattr(store, "_connections", None)
    if isinstance(connections, Connections):
        connections.patience = seconds
