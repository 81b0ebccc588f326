"""A tap is answered in time however slow the database or the machine is: work that takes
longer than the limit is cancelled and the user told it is slow and to look again in a
moment, in their app's language; the database is blamed only by the database's own error."""

from __future__ import annotations

import asyncio

from bot.adapters.telegram.in_time import in_time, slow_text


async def test_work_done_in_time_gives_its_answer() -> None:
    async def quick() -> str:
        return "played"

    assert await in_time(quick(), lambda: "late", within=5.0) == "played"


async def test_work_still_going_at_the_limit_is_cancelled_and_answered_that_it_is_slow() -> None:
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

    assert await in_time(stuck(), lambda: slow_text("es"), within=0.01) == slow_text("es")
    assert cancelled, "the work is not left running after the answer"
    assert slow_text("es").startswith("Está tardando más de lo normal")
    assert slow_text("en").startswith("That is taking longer than usual")
    assert slow_text(None).startswith("Ci vuole più del solito")
    assert not any("database" in slow_text(lang) for lang in ("en", "es", "it"))
