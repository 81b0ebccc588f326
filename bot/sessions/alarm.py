"""The timer loop's alarm clock: set by every change of a deadline, it wakes the loop
(`scheduler.Scheduler.run_forever`) when the new deadline comes before the loop's."""

from __future__ import annotations

import asyncio

from .records import DeadlineKind


class Alarm:
    """Wakes the timer loop when a deadline is set before the time it sleeps to."""

    def __init__(self, warn_before: float) -> None:
        self.warn_before = warn_before
        self.wake = asyncio.Event()
        self.sleeping_until: float | None = None

    def due(self, deadline: float, kind: DeadlineKind | None, warned: bool) -> float:
        """When the timer loop has something to do about one deadline: warn or act."""
        if kind == DeadlineKind.TURN and not warned and self.warn_before:
            return deadline - self.warn_before
        return deadline

    def set(self, deadline: float | None, kind: DeadlineKind | None, warned: bool) -> None:
        """Most moves push their game's deadline later, so most moves leave the loop asleep."""
        if deadline is None:
            return
        if self.sleeping_until is None or self.due(deadline, kind, warned) < self.sleeping_until:
            self.wake.set()
