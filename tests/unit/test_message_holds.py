"""Holding a game's message while drawing it, on a store several processes share."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.sessions.holds import LEASE, MessageHolds

from ..fakes.memory_store import MemoryStore
from ..sessions_helpers import FakeClock


class Counting:
    """The shared store, counting the holds it refused."""

    def __init__(self, inner: MemoryStore) -> None:
        self._inner = inner
        self.refusals = 0
        self.refused = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def hold_message(self, *args: Any) -> bool:
        held = await self._inner.hold_message(*args)
        if not held:
            self.refusals += 1
            self.refused.set()
        return held


async def _shared_game() -> MemoryStore:
    store = MemoryStore()
    store.shared = True  # type: ignore[misc]
    chat = await store.ensure_chat("telegram", "-100")
    player = await store.ensure_player("telegram", "1", "Alice")
    await store.create_game(chat.id, player.id, "scopa", {}, 2, 0, "napoletane", "seed")
    return store


async def test_drawings_of_one_message_in_one_process_share_its_hold() -> None:
    store = Counting(await _shared_game())
    holds = MessageHolds(store, "one")  # type: ignore[arg-type]
    async with holds.hold(1, "table"), holds.hold(1, "table"):
        assert store.refusals == 0
        assert not await store.hold_message(1, "table", "two", 0.0, LEASE), "another process waits"
    assert await store.hold_message(1, "table", "two", 0.0, LEASE), "let go once both are done"


async def test_a_message_held_by_a_process_that_died_is_drawn_once_its_lease_runs_out() -> None:
    clock = FakeClock()
    store = Counting(await _shared_game())
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
    store = Counting(await _shared_game())
    store._inner.shared = False  # type: ignore[misc]
    assert await store.hold_message(1, "table", "other", 0.0, LEASE)
    async with MessageHolds(store, "one").hold(1, "table"):  # type: ignore[arg-type]
        assert store.refusals == 0
