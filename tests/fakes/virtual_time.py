"""A clock that tests move: sleepers wake in the order of their wake times, as soon as every
task has done what it could, so minutes pass without waiting for them."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator, Awaitable
from typing import TypeVar

T = TypeVar("T")
SETTLE = 50
"""Turns of the event loop given to the tasks before time moves on."""
STUCK = 10.0
"""Seconds of real time with nobody asleep and nothing finished after which the tasks are
taken to be stuck (a real database may take a while to answer)."""


class VirtualTime:
    def __init__(self, start: float = 1_000.0) -> None:
        self.now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._held = 0

    @contextlib.asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        """Time stands still while a caller is inside (a real database answering): what it
        does takes no time on this clock."""
        self._held += 1
        try:
            yield
        finally:
            self._held -= 1

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + max(0.0, seconds), next(self._order), woken))
        await woken

    async def run(self, main: Awaitable[T]) -> T:
        """`main` to its end, time moving to the next wake-up whenever nothing else can run."""
        task = asyncio.ensure_future(main)
        idle = 0
        while not task.done():
            for _ in range(SETTLE):
                await asyncio.sleep(0)
                if task.done():
                    return task.result()
            if not self._sleepers or self._held:
                idle += 1
                if idle > STUCK * 1000:
                    task.cancel()
                    raise AssertionError("nothing sleeps and nothing finishes: the tasks are stuck")
                await asyncio.sleep(0.001)
                continue
            idle = 0
            at, _, woken = heapq.heappop(self._sleepers)
            self.now = max(self.now, at)
            if not woken.done():
                woken.set_result(None)
        return task.result()
