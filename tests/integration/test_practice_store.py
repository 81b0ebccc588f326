"""A practice match and a deal of the day on SQLite and PostgreSQL: counted by no rating, leaderboard or
/stats query of the store (the practice match recorded as practice, the deal on the day's board)."""

from __future__ import annotations

from bot.sessions import Sessions
from bot.storage.backends import open_store

from ..sessions_helpers import FakeClock, daily_changes_no_rating, first_legal, practice_changes_no_rating


async def test_a_practice_match_changes_no_rating_on_sqlite(sqlite_sessions: Sessions) -> None:
    await practice_changes_no_rating(sqlite_sessions)
    await sqlite_sessions.close()


async def test_a_practice_match_changes_no_rating_on_postgresql(postgres_url: str, clock: FakeClock) -> None:
    store = await open_store(postgres_url, clock)
    sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)  # type: ignore[arg-type]
    await practice_changes_no_rating(sessions)
    await sessions.close()


async def test_a_deal_of_the_day_changes_no_rating_on_sqlite(sqlite_sessions: Sessions) -> None:
    await daily_changes_no_rating(sqlite_sessions)
    await sqlite_sessions.close()


async def test_a_deal_of_the_day_changes_no_rating_on_postgresql(postgres_url: str, clock: FakeClock) -> None:
    store = await open_store(postgres_url, clock)
    sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)  # type: ignore[arg-type]
    await daily_changes_no_rating(sessions)
    await sessions.close()
