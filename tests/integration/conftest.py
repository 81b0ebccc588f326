"""SQLite and PostgreSQL stores, crashes and restarts, the computers' worker pool, the command."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sessions import Sessions

from .. import pg
from ..sessions_helpers import FakeClock, open_sessions


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def sqlite_sessions(tmp_path: Path, clock: FakeClock) -> Sessions:
    """A sessions layer over a real SQLite file in the test's folder."""
    return await open_sessions(tmp_path / "s.db", clock)


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A database of its own on the throwaway PostgreSQL server the tests start (skipped without
    PostgreSQL, except in CI)."""
    cluster = pg.shared_cluster()
    url = await cluster.create_database()
    try:
        yield url
    finally:
        await cluster.drop_database(url)
