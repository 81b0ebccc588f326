"""Stopping the outbox's tasks."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable


async def cancel_all(tasks: Iterable[asyncio.Task[None]]) -> None:
    """Cancel the tasks and wait until each has stopped, whatever it raised."""
    stopping = list(tasks)
    for task in stopping:
        task.cancel()
    for task in stopping:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
