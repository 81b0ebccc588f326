"""A match's review, worked out in the computer players' worker processes.

Grading every play of a 2-player match is about a second of search; on the event loop's
thread it would stop every chat for that long. `review_in_pool` hands the plays to the
workers a couple at a time per worker, so a computer's move waits behind two plays'
grading at most (a few milliseconds each); the loop only replays the record, grades the
forced plays (there is nothing to search) and gathers the grades.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..ai.review import DEFAULT_SEARCHES, GradedPlay, Review, ReviewTask, assemble, review_tasks, review_turn
from .thinking import ComputerPool

QUEUED = 2
"""Plays handed to each worker at a time: one graded while the next waits, so a worker
never idles on the round trip, and a computer's move waits behind two plays at most."""


async def review_in_pool(pool: ComputerPool | None, record: dict[str, Any],
                         searches: int = DEFAULT_SEARCHES) -> Review:
    """The review of a `scopa-record/1` match (raises `RecordError` for one that cannot be
    replayed), graded in `pool`'s workers, or in a thread without a pool. The same record
    and `searches` give the same review wherever it is worked out."""
    tasks = review_tasks(record, searches)
    if pool is None:
        plays = await asyncio.to_thread(lambda: [review_turn(task) for task in tasks])
        return assemble(record, searches, plays)
    turns = asyncio.Semaphore(QUEUED * pool.workers)

    async def graded(task: ReviewTask) -> GradedPlay:
        if len(task[0].view.legal_moves) == 1:
            return review_turn(task)
        async with turns:
            return await pool.run(review_turn, task)

    return assemble(record, searches, list(await asyncio.gather(*(graded(task) for task in tasks))))
