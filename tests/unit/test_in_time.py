"""A tap is answered in time however slow the database is: work that takes longer than the
limit is cancelled and the user told to try again in a moment, in their app's language."""

from __future__ import annotations

import asyncio

from bot.adapters.telegram.in_time import away_text, in_time


async def test_work_done_in_time_gives_its_answer() -> None:
    async def quick() -> str:
        return "played"

    assert await in_time(quick(), lambda: "late", within=5.0) == "played"


async def test_work_still_going_at_the_limit_is_cancelled_and_answered_one_moment() -> None:
    stalled = asyncio.Event()
    cancelled = False

    async def stuck() -> str:
        nonlocal cancelled
        try:
            await stalled.wait()
        except asyncio.CancelledError:
            cancelled = True
            raise
        return "played"

    assert await in_time(stuck(), lambda: away_text("es"), within=0.01) == away_text("es")
    assert cancelled, "the work is not left running after the answer"
    assert away_text("es").startswith("Un momento")
    assert away_text("en").startswith("One moment: the database is restarting")
    assert away_text(None).startswith("Un momento: il database")
