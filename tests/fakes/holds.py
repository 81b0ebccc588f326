"""A store whose refusals (to hold a message, to count one more message to a chat) are noted,
so that a test knows a process waits."""

from __future__ import annotations

import asyncio
from typing import Any

from .memory_store import MemoryStore


class NotingRefusals:
    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.refusals = 0
        self.refused = asyncio.Event()
        self.sends_refused = 0
        self.send_refused = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def hold_message(self, *args: Any) -> bool:
        held = bool(await self._inner.hold_message(*args))
        if not held:
            self.refusals += 1
            self.refused.set()
        return held

    async def take_send(self, *args: Any) -> float:
        wait = float(await self._inner.take_send(*args))
        if wait > 0:
            self.sends_refused += 1
            self.send_refused.set()
        return wait


async def shared_memory_game() -> MemoryStore:
    """An in-memory store that says other processes share it, holding game 1 in chat -100."""
    store = MemoryStore()
    store.shared = True  # type: ignore[misc]
    chat = await store.ensure_chat("telegram", "-100")
    player = await store.ensure_player("telegram", "1", "Alice")
    await store.create_game(chat.id, player.id, "scopa", {}, 2, 0, "napoletane", "seed")
    return store
