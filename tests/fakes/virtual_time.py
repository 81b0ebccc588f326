"""A clock that tests move: sleepers wake in the order of their wake times, as soon as every
task has done what it could, so minutes pass without waiting for them."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")
SETTLE = 50
"""Turns of the event loop given to the tasks before time moves on."""


class VirtualTime:
    def __init__(self, start: float = 1_000.0) -> None:
        self.now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

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
            if not self._sleepers:
                idle += 1
                if idle > 200:
                    task.cancel()
                    raise AssertionError("nothing sleeps and nothing finishes: the tasks are stuck")
                continue
            idle = 0
            at, _, woken = heapq.heappop(self._sleepers)
            self.now = max(self.now, at)
            if not woken.done():
                woken.set_result(None)
        return task.result()
