"""SQLite and PostgreSQL stores, crashes and restarts, the computers' worker pool, the command."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sessions import Sessions

from ..sessions_helpers import FakeClock, open_sessions


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def sqlite_sessions(tmp_path: Path, clock: FakeClock) -> Sessions:
    """A sessions layer over a real SQLite file in the test's folder."""
    return await open_sessions(tmp_path / "s.db", clock)
