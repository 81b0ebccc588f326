"""A practice match on SQLite: recorded as practice, and counted by no rating, leaderboard or
/stats query of the store."""

from __future__ import annotations

from bot.sessions import Sessions

from ..sessions_helpers import practice_changes_no_rating


async def test_a_practice_match_changes_no_rating_on_sqlite(sqlite_sessions: Sessions) -> None:
    await practice_changes_no_rating(sqlite_sessions)
    await sqlite_sessions.close()
