"""What `pg_retry.Connections` runs again after a lost connection, and what it does not:
a transaction lost before its COMMIT went out is run again whole, one lost while committing
never (the caller hears it may be stored); a statement lost before it went out is sent
again, one lost after only when it is repeatable; and after the patience, the bot stops."""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import Any

import asyncpg
import pytest

from bot.sessions.ports import StorageAway, StorageFailed
from bot.storage.pg_retry import Connections

LOST = asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")


class FakeTransaction:
    def __init__(self, conn: FakeConnection) -> None:
        self.conn = conn

    async def __aenter__(self) -> None:
        self.conn.in_transaction = True

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        self.conn.in_transaction = False
        if kind is None:
            self.conn.pool.commits += 1
            if self.conn.pool.lose_commits:
                self.conn.pool.lose_commits -= 1
                self.conn.closed = True
                raise LOST


class FakeConnection:
    def __init__(self, pool: FakePool) -> None:
        self.pool = pool
        self.closed = False
        self.in_transaction = False

    def transaction(self) -> FakeTransaction:
        return FakeTransaction(self)

    def is_closed(self) -> bool:
        if self.closed:
            # as asyncpg's: a connection lost is let go by its pool, and refuses every call
            raise asyncpg.InterfaceError("connection has been released back to the pool")
        return False

    def is_in_transaction(self) -> bool:
        return self.in_transaction

    def terminate(self) -> None:
        self.closed = True


class FakePool:
    """A pool whose server refuses `refusals` connections, then loses `lose_commits` COMMITs."""

    def __init__(self, refusals: int = 0, lose_commits: int = 0) -> None:
        self.refusals = refusals
        self.lose_commits = lose_commits
        self.commits = 0
        self.released: list[FakeConnection] = []

    def is_closing(self) -> bool:
        return False

    async def acquire(self) -> FakeConnection:
        if self.refusals:
            self.refusals -= 1
            raise ConnectionRefusedError(111, "Connect call failed")
        return FakeConnection(self)

    async def release(self, conn: FakeConnection) -> None:
        self.released.append(conn)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


def connections(pool: FakePool, clock: Clock, patience: float = 120.0) -> Connections:
    return Connections(lambda: pool, "postgresql://test", retry_for=6.0, patience=patience,  # type: ignore[arg-type, return-value]
                       clock=clock, sleep=clock.sleep)


def counting(result: Any = "done", fail: Callable[[int], BaseException | None] = lambda n: None
             ) -> tuple[list[int], Callable[[Any], Any]]:
    calls: list[int] = []

    async def work(conn: Any) -> Any:
        calls.append(len(calls))
        failure = fail(len(calls))
        if failure is not None:
            conn.closed = True
            raise failure
        return result

    return calls, work


async def test_a_transaction_lost_before_its_commit_is_run_again_whole() -> None:
    pool, clock = FakePool(refusals=3), Clock()
    calls, work = counting(fail=lambda n: LOST if n == 1 else None)
    assert await connections(pool, clock).transaction(work) == "done"
    assert len(calls) == 2 and pool.commits == 1


async def test_a_transaction_lost_while_committing_is_not_run_again() -> None:
    pool, clock = FakePool(lose_commits=1), Clock()
    calls, work = counting()
    with pytest.raises(StorageAway) as away:
        await connections(pool, clock).transaction(work)
    assert away.value.maybe_stored and len(calls) == 1 and pool.commits == 1


async def test_a_statement_lost_after_it_went_out_is_sent_again_only_when_repeatable() -> None:
    pool, clock = FakePool(), Clock()
    calls, statement = counting(fail=lambda n: LOST if n == 1 else None)
    with pytest.raises(StorageAway) as away:
        await connections(pool, clock).statement(statement, repeatable=False)
    assert away.value.maybe_stored and len(calls) == 1
    calls, statement = counting(fail=lambda n: LOST if n == 1 else None)
    assert await connections(pool, clock).statement(statement, repeatable=True) == "done"
    assert len(calls) == 2
    assert all(conn.closed for conn in pool.released[:1]), "a lost connection is not reused"


async def test_a_server_that_stays_away_is_away_after_a_few_seconds_then_failed_after_the_patience() -> None:
    pool, clock = FakePool(refusals=10_000), Clock()
    db = connections(pool, clock, patience=30.0)
    calls, statement = counting()
    with pytest.raises(StorageAway) as away:
        await db.statement(statement, repeatable=False)
    assert not away.value.maybe_stored and calls == [], "never sent"
    assert 5.0 <= clock.now <= 6.0
    aways = 1
    with pytest.raises(StorageFailed, match="could not be reached for 30 s"):
        while True:
            with pytest.raises(StorageAway):
                await db.statement(statement, repeatable=True)
            aways += 1
    assert aways >= 5 and 30.0 <= clock.now <= 31.0
    pool.refusals = 0
    assert await db.statement(statement, repeatable=True) == "done"
    assert db.away_since is None


async def test_a_server_that_cannot_write_fails_at_once() -> None:
    pool, clock = FakePool(), Clock()
    calls, work = counting(fail=lambda n: asyncpg.DiskFullError("could not extend file"))
    with pytest.raises(StorageFailed):
        await connections(pool, clock).transaction(work)
    assert len(calls) == 1
