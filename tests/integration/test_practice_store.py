"""A practice match on SQLite and PostgreSQL: recorded as practice, and counted by no rating, leaderboard or
/stats query of the store."""

from __future__ import annotations

from bot.sessions import Sessions
from bot.storage.backends import open_store

from ..sessions_helpers import FakeClock, first_legal, practice_changes_no_rating


async def test_a_practice_match_changes_no_rating_on_sqlite(sqlite_sessions: Sessions) -> None:
    await practice_changes_no_rating(sqlite_sessions)
    await sqlite_sessions.close()


async def test_a_practice_match_changes_no_rating_on_postgresql(postgres_url: str, clock: FakeClock) -> None:
    store = await open_store(postgres_url, clock)
    sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)  # type: ignore[arg-type]
    await practice_changes_no_rating(sessions)
    await sessions.close()
