"""Reviews are graded behind what players wait for: however many plays are queued for grading,
a computer's move or a hint goes to the workers at once, and grading never holds more than
one worker while such work runs."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.sessions.thinking import ComputerPool


class Workers:
    """Stands in for the worker processes: each job starts, then waits to be let finish."""

    def __init__(self) -> None:
        self.running: list[str] = []
        self.started: list[str] = []
        self._done: dict[str, asyncio.Event] = {}

    async def run(self, function: Callable[[Any], Any], task: str) -> str:
        self.running.append(task)
        self.started.append(task)
        self._done[task] = asyncio.Event()
        await self._done[task].wait()
        self.running.remove(task)
        return task

    def finish(self, task: str) -> None:
        self._done[task].set()


async def _settled() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_grading_yields_the_workers_to_a_computers_move(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = ComputerPool(workers=2)
    workers = Workers()
    monkeypatch.setattr(pool, "_run", workers.run)
    plays = [asyncio.ensure_future(pool.grade(str, f"play {n}")) for n in range(6)]
    await _settled()
    assert workers.running == ["play 0", "play 1"], "one graded play per worker, the rest wait"

    move = asyncio.ensure_future(pool.run(str, "move"))
    await _settled()
    assert "move" in workers.running, "a move is handed over at once, past every queued play"
    workers.finish("play 0")
    await _settled()
    assert workers.running == ["play 1", "move"], "while the move runs, grading keeps to one worker"

    workers.finish("move")
    assert await move == "move"
    await _settled()
    assert sorted(workers.running) == ["play 1", "play 2"], "the move done, grading takes both again"
    for n in range(1, 6):
        await _settled()
        workers.finish(f"play {n}")
    assert [await play for play in plays] == [f"play {n}" for n in range(6)]
    assert workers.started == ["play 0", "play 1", "move", "play 2", "play 3", "play 4", "play 5"]
    assert (pool.urgent, pool.grading) == (0, 0)
