"""The engine, the computer players, the codecs and the sessions layer on the in-memory store.

Every test deals the same cards at every run (`seeded_deals`): a failure seen once is seen again."""

from __future__ import annotations

import pytest

from bot.sessions import Sessions

from ..discord_helpers import seeded_deals
from ..sessions_helpers import FakeClock, open_memory_sessions

__all__ = ["seeded_deals"]


@pytest.fixture(autouse=True)
def _same_deals_every_run(seeded_deals: None) -> None:
    return None


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def memory_sessions(clock: FakeClock) -> Sessions:
    """A sessions layer over the strict in-memory store, with a clock the test moves."""
    return await open_memory_sessions(clock)
