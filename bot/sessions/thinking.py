"""Where computer players think.

A `hard` search computes for 300 ms. Run in a thread, it holds the
interpreter lock that the event loop needs: while a computer thinks, every
tap waits for the lock, 5 ms as a rule and sometimes the whole search, and
the search shares one core with the bot. `ComputerPool` runs the choice in
worker processes instead, so the loop keeps its core and each search has
one of its own. A worker that dies (killed, out of memory) costs nothing:
that move is chosen in a thread, and the next one starts a new pool.

When more computers are due than there are workers, the searches share them:
each gets a shorter budget, so that the last in the queue still plays about
one full budget after it was due, however many chats play at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import select
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from typing import Protocol, TypeVar

from .. import metrics
from ..ai import DEFAULT_BUDGET, SEARCHING
from ..engine import Move, SeatView

log = logging.getLogger(__name__)
Task = TypeVar("Task")
Done = TypeVar("Done")

SHORTEST_BUDGET = 0.06
"""The least time a shared search gets: `hard` with some 30 guesses, which measured
0.08 ± 0.27 points per round below its full budget (docs/ai.md)."""


class Chooser(Protocol):
    def __call__(self, level: str, view: SeatView, seed: str, budget: float | None = None) -> Move:
        """The move of a computer of `level`; `budget` is a search's seconds (None: its default)."""
        ...


Think = Callable[[Chooser, str, SeatView, str], Awaitable[Move]]
"""Runs a chooser for (level, view, seed) somewhere and gives its move."""


async def think_in_thread(chooser: Chooser, level: str, view: SeatView, seed: str,
                          budget: float | None = None) -> Move:
    return await asyncio.to_thread(chooser, level, view, seed, budget)


def shared_budget(thinking: int, workers: int) -> float | None:
    """A search's budget while `thinking` searches (this one included) share `workers`
    processes: the full one (None) while each has a worker, else a share of it."""
    if thinking <= workers:
        return None
    return max(SHORTEST_BUDGET, DEFAULT_BUDGET * workers / thinking)


def _ready() -> int:
    return os.getpid()


def _exit_with(bot: int) -> None:
    """Worker set-up: end this worker when the bot's process ends, however it ends.

    A worker waits on a queue whose pipe it holds both ends of, so the bot's
    death (kill -9, out of memory) would not reach it, and it would stay."""
    def watch() -> None:
        with contextlib.suppress(OSError, AttributeError):
            handle = os.pidfd_open(bot)
            select.select([handle], [], [])
            os._exit(0)
        while True:
            try:
                os.kill(bot, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:
                pass
            time.sleep(1.0)

    threading.Thread(target=watch, name="bot-watch", daemon=True).start()


class ComputerPool:
    """Worker processes for computer players: by default one per core, at most four.

    One per core, not one fewer: the operating system preempts a worker to run
    the bot, where a thread can keep the interpreter lock through a whole
    search, so the event loop stays responsive either way (measured by
    `benchmarks/computer_turns.py`), and a second worker halves how long
    computer turns queue."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or min(4, os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None
        self.thinking = 0
        """Searches (of the levels that search) handed to the workers and not yet back."""
        self.urgent = 0
        """Work a player is waiting for (computer moves, hints) in the workers."""
        self.grading = 0
        """Plays of reviews being graded in the workers."""
        self._turns: asyncio.Condition | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # forkserver: workers start from a clean process with the rules and the
            # computer players imported, not as copies of a bot that runs threads.
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["bot.ai", "bot.ai.review", "bot.sessions.service"])
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                             initializer=_exit_with, initargs=(os.getpid(),))
        return self._pool

    async def start(self) -> None:
        """Start the workers now, so that the first computer move does not wait for them."""
        loop = asyncio.get_running_loop()
        pool = self._executor()
        await asyncio.gather(*(loop.run_in_executor(pool, _ready) for _ in range(self.workers)))

    async def think(self, chooser: Chooser, level: str, view: SeatView, seed: str) -> Move:
        loop = asyncio.get_running_loop()
        pool = self._executor()
        searching = level in SEARCHING
        self.thinking += searching
        budget = shared_budget(self.thinking, self.workers) if searching else None
        began = metrics.computer_turn_began()
        try:
            async with self._urgent():
                return await loop.run_in_executor(pool, chooser, level, view, seed, budget)
        except BrokenExecutor:
            log.warning("a computer player's process stopped; this move is chosen in a thread")
            self._drop(pool)
            return await think_in_thread(chooser, level, view, seed, budget)
        finally:
            self.thinking -= searching
            metrics.computer_turn_ended(began)

    async def run(self, function: Callable[[Task], Done], task: Task) -> Done:
        """`function(task)` in a worker, for a player who is waiting (a hint): a function of
        the bot's (workers import it by name) and a task that pickles. In a thread when the
        workers stopped, as for a move."""
        async with self._urgent():
            return await self._run(function, task)

    async def grade(self, function: Callable[[Task], Done], task: Task) -> Done:
        """`function(task)` in a worker, behind what players wait for: one review's play is
        handed over only while fewer than `workers` less the urgent work in the workers are
        being graded (one at least), so a computer's move or a hint queues behind one
        graded play per worker at most, however many reviews are being made."""
        turns = self._condition()
        async with turns:
            await turns.wait_for(lambda: self.grading < max(1, self.workers - self.urgent))
            self.grading += 1
        try:
            return await self._run(function, task)
        finally:
            async with turns:
                self.grading -= 1
                turns.notify_all()

    async def _run(self, function: Callable[[Task], Done], task: Task) -> Done:
        loop = asyncio.get_running_loop()
        pool = self._executor()
        try:
            return await loop.run_in_executor(pool, function, task)
        except BrokenExecutor:
            log.warning("a computer player's process stopped; this work is done in a thread")
            self._drop(pool)
            return await asyncio.to_thread(function, task)

    def _condition(self) -> asyncio.Condition:
        if self._turns is None:
            self._turns = asyncio.Condition()
        return self._turns

    @contextlib.asynccontextmanager
    async def _urgent(self) -> AsyncIterator[None]:
        self.urgent += 1
        try:
            yield
        finally:
            self.urgent -= 1
            turns = self._condition()
            async with turns:
                turns.notify_all()

    def _drop(self, pool: ProcessPoolExecutor) -> None:
        """Forget a pool whose worker died; the next call starts a new one."""
        if self._pool is pool:
            self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
