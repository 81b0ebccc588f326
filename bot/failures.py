"""Failures the bot cannot go on after, said in one line."""

from __future__ import annotations

import asyncio


class FatalError(Exception):
    """The process must stop: the command prints the message alone (no traceback; it is in
    the debug log) and exits with `exit_code`: 2 for a configuration to fix (a refused
    token, a bad URL), 1 for a failure a supervisor should restart the bot after."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


RETRY_FIRST = 1.0
RETRY_MOST = 60.0


def next_delay(delay: float) -> float:
    """The back-off between attempts to reach a chat service: doubling, at most a minute."""
    return min(delay * 2, RETRY_MOST)


class Failing:
    """A front-end's word that it cannot go on; the first failure it reports stands."""

    def __init__(self) -> None:
        self._first: FatalError | None = None
        self._said = asyncio.Event()

    def fail(self, error: FatalError) -> None:
        if self._first is None:
            self._first = error
            self._said.set()

    async def wait(self) -> FatalError:
        await self._said.wait()
        assert self._first is not None
        return self._first
