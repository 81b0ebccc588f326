"""Serial background work, one lane per key (a channel, a player's hand).

The sessions layer awaits its listeners, so they only queue work here and
return. Jobs in a lane run one at a time, in order; a job queued with a
`merge` key is dropped while an equal one is still waiting to start, because
the waiting one will draw the latest state anyway. A failing job is logged and
the lane goes on: a Discord error never reaches the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass

import discord

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


@dataclass(slots=True)
class _Queued:
    job: Job
    merge: Hashable | None


class Lanes:
    def __init__(self) -> None:
        self._queues: dict[Hashable, deque[_Queued]] = {}
        self._workers: dict[Hashable, asyncio.Task[None]] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        self._closed = False

    def submit(self, lane: Hashable, job: Job, merge: Hashable | None = None) -> None:
        if self._closed:
            return
        queue = self._queues.setdefault(lane, deque())
        if merge is not None and any(queued.merge == merge for queued in queue):
            return
        queue.append(_Queued(job, merge))
        if lane not in self._workers:
            self._idle.clear()
            self._workers[lane] = asyncio.create_task(self._work(lane), name=f"discord-lane-{lane}")

    async def _work(self, lane: Hashable) -> None:
        queue = self._queues[lane]
        try:
            while queue:
                queued = queue.popleft()
                try:
                    await queued.job()
                except asyncio.CancelledError:
                    raise
                except discord.HTTPException as exc:
                    log.warning("Discord refused work in lane %s: %s", lane, exc)
                except Exception:
                    log.exception("Discord work in lane %s failed", lane)
        finally:
            self._workers.pop(lane, None)
            if not queue:
                self._queues.pop(lane, None)
            if not self._workers:
                self._idle.set()

    @property
    def busy(self) -> bool:
        return bool(self._workers)

    async def idle(self) -> None:
        """Until every lane has run out of work."""
        while self._workers:
            await self._idle.wait()
            await asyncio.sleep(0)

    async def close(self, timeout: float) -> None:
        """Let queued work finish for up to `timeout` seconds, then drop the rest."""
        self._closed = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.idle(), timeout)
        workers = list(self._workers.values())
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        self._queues.clear()
