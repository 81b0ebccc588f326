"""Holding a game's message while drawing it, on a store several processes share."""

from __future__ import annotations

import asyncio

from bot.sessions.holds import LEASE, MessageHolds

from ..fakes.holds import NotingRefusals, shared_memory_game
from ..sessions_helpers import FakeClock


async def test_drawings_of_one_message_in_one_process_share_its_hold() -> None:
    store = NotingRefusals(await shared_memory_game())
    holds = MessageHolds(store, "one")  # type: ignore[arg-type]
    async with holds.hold(1, "table"), holds.hold(1, "table"):
        assert store.refusals == 0
        assert not await store.hold_message(1, "table", "two", 0.0, LEASE), "another process waits"
    assert await store.hold_message(1, "table", "two", 0.0, LEASE), "let go once both are done"


async def test_a_message_held_by_a_process_that_died_is_drawn_once_its_lease_runs_out() -> None:
    clock = FakeClock()
    store = NotingRefusals(await shared_memory_game())
    assert await store.hold_message(1, "table", "dead", clock(), LEASE)
    holds = MessageHolds(store, "alive", clock)  # type: ignore[arg-type]
    drawn = asyncio.Event()

    async def draw() -> None:
        async with holds.hold(1, "table"):
            drawn.set()

    drawing = asyncio.create_task(draw())
    await store.refused.wait()
    assert not drawn.is_set()
    clock.advance(LEASE)
    await drawing
    assert drawn.is_set()


async def test_without_a_shared_store_holding_costs_nothing() -> None:
    alone = await shared_memory_game()
    alone.shared = False  # type: ignore[misc]
    store = NotingRefusals(alone)
    assert await store.hold_message(1, "table", "other", 0.0, LEASE)
    async with MessageHolds(store, "one").hold(1, "table"):  # type: ignore[arg-type]
        assert store.refusals == 0
