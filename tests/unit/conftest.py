"""The engine, the computer players, the codecs and the sessions layer on the in-memory store."""

from __future__ import annotations

import pytest

from bot.sessions import Sessions

from ..sessions_helpers import FakeClock, open_memory_sessions


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def memory_sessions(clock: FakeClock) -> Sessions:
    """A sessions layer over the strict in-memory store, with a clock the test moves."""
    return await open_memory_sessions(clock)
