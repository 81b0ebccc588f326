"""A practice match and a deal of the day on SQLite and PostgreSQL: counted by no rating, leaderboard or
/stats query of the store (the practice match recorded as practice, the deal on the day's board)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.sessions import Sessions
from bot.storage.backends import open_store

from ..sessions_helpers import FakeClock, daily_changes_no_rating, first_legal, practice_changes_no_rating

UNRATED = pytest.mark.parametrize("unrated", [practice_changes_no_rating, daily_changes_no_rating],
                                  ids=["practice", "daily"])
Check = Callable[[Sessions], Awaitable[None]]


@UNRATED
async def test_an_unrated_match_changes_no_rating_on_sqlite(sqlite_sessions: Sessions,
                                                           unrated: Check) -> None:
    await unrated(sqlite_sessions)
    await sqlite_sessions.close()


@UNRATED
async def test_an_unrated_match_changes_no_rating_on_postgresql(postgres_url: str, clock: FakeClock,
                                                               unrated: Check) -> None:
    store = await open_store(postgres_url, clock)
    sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)  # type: ignore[arg-type]
    await unrated(sessions)
    await sessions.close()
