"""Holding a game's message while drawing it, on a store several processes share."""

from __future__ import annotations

import asyncio

from bot.sessions.holds import LEASE, HandedOver, MessageHolds, Unheld

from ..fakes.holds import NotingRefusals, shared_memory_game
from ..sessions_helpers import FakeClock


async def test_a_process_that_finds_a_message_held_leaves_it_to_the_holder_who_draws_again() -> None:
    clock = FakeClock()
    store = NotingRefusals(await shared_memory_game())
    one = MessageHolds(store, "one", clock)  # type: ignore[arg-type]
    two = MessageHolds(store, "two", clock)  # type: ignore[arg-type]
    drawings: list[str] = []

    async def by_one(first: bool) -> str:
        drawings.append(f"one first={first}")
        if first:
            assert await two.draw(1, "table", by_two) == HandedOver(LEASE)
        return "drawn"

    async def by_two(first: bool) -> str:
        drawings.append("two")
        return "drawn"

    assert await one.draw(1, "table", by_one) == "drawn"
    assert drawings == ["one first=True", "one first=False"], "the holder drew it again, the other not"
    assert await two.draw(1, "table", by_two) == "drawn", "let go once done"


async def test_a_message_held_by_a_process_that_died_is_drawn_once_its_lease_runs_out() -> None:
    clock = FakeClock()
    store = NotingRefusals(await shared_memory_game())
    assert await store.hold_message(1, "table", "dead", clock(), LEASE)
    alive = MessageHolds(store, "alive", clock)  # type: ignore[arg-type]
    drawn: list[bool] = []

    async def draw(first: bool) -> None:
        drawn.append(first)

    handed = await alive.draw(1, "table", draw)
    assert handed == HandedOver(LEASE) and not drawn
    clock.advance(handed.after)
    assert await alive.draw(1, "table", draw) is None
    assert drawn == [True]


async def test_drawings_of_one_message_in_one_process_take_turns() -> None:
    store = NotingRefusals(await shared_memory_game())
    holds = MessageHolds(store, "one")  # type: ignore[arg-type]
    inside = 0
    most = 0

    async def draw(first: bool) -> None:
        nonlocal inside, most
        inside += 1
        most = max(most, inside)
        await asyncio.sleep(0)
        inside -= 1

    await asyncio.gather(*(holds.draw(1, "table", draw) for _ in range(3)))
    assert most == 1 and store.refusals == 0


async def test_without_a_shared_store_drawing_goes_straight_ahead() -> None:
    alone = await shared_memory_game()
    alone.shared = False  # type: ignore[misc]
    store = NotingRefusals(alone)
    assert await store.hold_message(1, "table", "other", 0.0, LEASE)

    async def draw(first: bool) -> str:
        return "drawn"

    assert await Unheld(store, "one").draw(1, "table", draw) == "drawn"  # type: ignore[arg-type]
