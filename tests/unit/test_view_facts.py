"""The views say whether a match is practice or a deal of the day, so front-ends need not work it out."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.sessions import ChatRef, Sessions, UserRef

from ..sessions_helpers import ALICE, BOB, CHAT, FakeClock, open_memory_sessions, open_sessions, start_duel

NOON = datetime(2026, 11, 25, 12, 0, tzinfo=UTC).timestamp()


def private(user: UserRef) -> ChatRef:
    return ChatRef(user.platform, user.key, user.name)


async def facts(sessions: Sessions, game_id: int, user: UserRef) -> set[tuple[bool, str | None]]:
    """(practice, daily) as the table, the hand and the summary each tell them."""
    table = await sessions.queries.table(game_id)
    hand = await sessions.queries.hand(game_id, user)
    summary = await sessions.queries.game(game_id)
    return {(table.practice, table.daily), (hand.practice, hand.daily), (summary.practice, summary.daily)}


async def test_a_practice_match_says_so_in_every_view_and_is_no_deal_of_the_day(
        memory_sessions: Sessions) -> None:
    game_id = await start_duel(memory_sessions, options={"practice": "on"})
    assert await facts(memory_sessions, game_id, ALICE) == {(True, None)}
    assert await facts(memory_sessions, game_id, BOB) == {(True, None)}


async def test_a_match_that_counts_is_neither_practice_nor_a_deal_of_the_day(
        memory_sessions: Sessions) -> None:
    game_id = await start_duel(memory_sessions)
    assert await facts(memory_sessions, game_id, ALICE) == {(False, None)}
    off = await start_duel(memory_sessions, chat=ChatRef("telegram", "-200", "Other"),
                           options={"practice": "off"})
    assert await facts(memory_sessions, off, ALICE) == {(False, None)}


async def test_a_deal_of_the_day_names_its_day_in_every_view_from_the_start() -> None:
    sessions = await open_memory_sessions(FakeClock(NOON))
    start = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    assert (start.table.practice, start.table.daily) == (False, "2026-11-25")
    assert await facts(sessions, start.table.game_id, ALICE) == {(False, "2026-11-25")}
    again = await sessions.daily.start(CHAT, private(ALICE), ALICE)
    assert again.resumed and again.table.daily == "2026-11-25"


async def test_after_a_restart_the_deal_of_the_day_still_names_its_day_and_a_practice_match_says_so(
        tmp_path: Path) -> None:
    clock = FakeClock(NOON)
    sessions = await open_sessions(tmp_path / "facts.db", clock)
    daily = (await sessions.daily.start(CHAT, private(ALICE), ALICE)).table.game_id
    practice = await start_duel(sessions, options={"practice": "on"})
    await sessions.close()
    again = await open_sessions(tmp_path / "facts.db", clock)
    try:
        assert await facts(again, daily, ALICE) == {(False, "2026-11-25")}
        assert await facts(again, practice, BOB) == {(True, None)}
    finally:
        await again.close()
