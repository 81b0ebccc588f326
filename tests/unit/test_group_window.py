"""A Telegram group's window of 20 messages a minute, on a clock of its own: when it is
full, a new message (a round's breakdown, the end of a match) takes the next free place
before the edits waiting, and no minute ever holds more than the limit."""

from __future__ import annotations

import asyncio

from bot.adapters.telegram.outbox import GroupWindow


class VirtualTime:
    """A clock that sleeping moves on at once: minutes pass without waiting for them."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Those given a place run first, at the time they were given it; then time moves."""
        for _ in range(3):
            await asyncio.sleep(0)
        self.now += max(0.0, seconds)


async def test_a_post_waiting_for_a_full_group_goes_before_the_edits_waiting() -> None:
    time = VirtualTime()
    window = GroupWindow(2, 60.0, time.clock, time.sleep)
    await window.acquire()
    await window.acquire()
    order: list[str] = []

    async def send(name: str, post: bool) -> None:
        await window.acquire(post)
        order.append(name)

    edits = [asyncio.create_task(send(f"edit {n}", False)) for n in (1, 2)]
    await asyncio.sleep(0)
    breakdown = asyncio.create_task(send("breakdown", True))
    match_end = asyncio.create_task(send("match end", True))
    await asyncio.gather(*edits, breakdown, match_end)
    assert order == ["breakdown", "match end", "edit 1", "edit 2"]
    assert len(window.sent) == 2, "two a minute, however they queued"


async def test_no_minute_holds_more_than_the_limit() -> None:
    time = VirtualTime()
    window = GroupWindow(20, 60.0, time.clock, time.sleep)
    taken: list[float] = []

    async def send(post: bool) -> None:
        await window.acquire(post)
        taken.append(time.now)

    await asyncio.gather(*(send(n % 3 == 0) for n in range(75)))
    assert len(taken) == 75
    assert max(sum(1 for t in taken if start <= t < start + 60.0) for start in taken) == 20
    assert not window.idle() and len(window.sent) == 75 - 3 * 20, "the last minute's"
    time.now += 60.0
    assert window.idle(), "a quiet minute later"


async def test_a_sender_that_gives_up_waiting_leaves_its_place_to_the_next() -> None:
    time = VirtualTime()
    window = GroupWindow(1, 60.0, time.clock, time.sleep)
    await window.acquire()
    gave_up = asyncio.create_task(window.acquire(True))
    waiting = asyncio.create_task(window.acquire(False))
    await asyncio.sleep(0)
    gave_up.cancel()
    await waiting
    assert gave_up.cancelled() and len(window.sent) == 1


async def test_edits_leave_the_places_kept_for_new_messages() -> None:
    """The bot's window keeps places for new messages (a turn's ring): edits of many busy
    group tables fill the rest, and a ring then goes at once instead of waiting its turn."""
    time = VirtualTime()
    window = GroupWindow(4, 1.0, time.clock, time.sleep, kept_for_posts=1)
    for _ in range(3):
        await window.acquire(False)
    assert window.full(False) and not window.full(True)
    started = time.now
    await window.acquire(True)
    assert time.now == started, "the ring took the place kept for it"
    late = asyncio.create_task(window.acquire(False))
    await late
    assert time.now > started, "an edit waits for a place of its own"
