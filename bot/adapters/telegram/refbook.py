"""A game's message references (which message shows its table, ...), kept with the game."""

from __future__ import annotations

from ...sessions import FrontEndNotes


class RefBook:
    """Message ids of a game's slots, cached, kept with the game through the sessions' message references.

    The cache is changed before the store is written and a read from the store
    never replaces it: a lookup that overlaps a `set` (a Join tapped as the lobby
    is posted) must find the new message, not post a second one. A store other
    processes write (`shared`) is read every time instead: there the slot's
    hold keeps its drawings one at a time."""

    def __init__(self, store: FrontEndNotes) -> None:
        self._store = store
        self.shared = bool(getattr(store, "shared", False))
        self._cache: dict[int, dict[str, str]] = {}

    async def _refs(self, game_id: int) -> dict[str, str]:
        if self.shared:
            return await self._store.get_refs(game_id)
        refs = self._cache.get(game_id)
        if refs is None:
            loaded = await self._store.get_refs(game_id)
            refs = self._cache.setdefault(game_id, loaded)
        return refs

    async def get(self, game_id: int, key: str) -> str | None:
        return (await self._refs(game_id)).get(key)

    async def set(self, game_id: int, key: str, value: str | None) -> None:
        refs = await self._refs(game_id)
        before = refs.get(key)
        if value is None:
            refs.pop(key, None)
        else:
            refs[key] = value
        try:
            await self._store.set_ref(game_id, key, value)
        except BaseException:
            if refs.get(key) == value:
                if before is None:
                    refs.pop(key, None)
                else:
                    refs[key] = before
            raise

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    async def take_send(self, key: str, now: float, limit: int, period: float,
                        counted_at: float | None = None) -> float:
        """One message counted under `key` in the store for every process
        (`FrontEndNotes.take_send`): 0.0, or the seconds to wait first."""
        return await self._store.take_send(key, now, limit, period, counted_at)

    async def settle_send(self, key: str, counted_at: float, went: float | None) -> None:
        """When the message counted at `counted_at` went (`FrontEndNotes.settle_send`)."""
        await self._store.settle_send(key, counted_at, went)
