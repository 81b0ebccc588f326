"""A game's message references (which message shows its table, ...), kept with the game.

The slot book is where the Telegram front-end's one choice between a bot alone on its store
and several processes on one database lives (`ref_book`, made once at start): alone, it
keeps the refs in memory and groups count their messages here (`pacing.Pacer`); shared, it
reads the refs from the store each time, fingerprints what each slot shows, and paces with
the store's count of every process's messages (`pacing.StorePacer`)."""

from __future__ import annotations

from ...sessions import FrontEndNotes
from ..common.digest import digest
from .content import Content
from .pacing import Pacer, StorePacer


class RefBook:
    """Message ids of a game's slots, cached, kept with the game through the sessions' message
    references: for a bot process alone on its store.

    The cache is changed before the store is written and a read from the store
    never replaces it: a lookup that overlaps a `set` (a Join tapped as the lobby
    is posted) must find the new message, not post a second one."""

    def __init__(self, store: FrontEndNotes) -> None:
        self._store = store
        self._cache: dict[int, dict[str, str]] = {}

    async def _refs(self, game_id: int) -> dict[str, str]:
        refs = self._cache.get(game_id)
        if refs is None:
            loaded = await self._store.get_refs(game_id)
            refs = self._cache.setdefault(game_id, loaded)
        return refs

    def fingerprint(self, content: Content) -> str | None:
        """What a slot's ref keeps of what its message shows, for other processes to compare:
        nothing, as no other process draws it."""
        return None

    def pacer(self, rate: tuple[float, float] | None) -> Pacer:
        """What paces the groups' messages: alone, counted in memory, a group's recent sends
        kept with its game for a restart."""
        return Pacer(rate, refs_get=self.get, refs_set=self.set)

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


class SharedRefBook(RefBook):
    """The refs of a store other processes write: read every time (the slot's hold keeps its
    drawings one at a time), each slot's ref keeping the fingerprint of what its message
    shows, and each message counted in the store for every process."""

    async def _refs(self, game_id: int) -> dict[str, str]:
        return await self._store.get_refs(game_id)

    def fingerprint(self, content: Content) -> str | None:
        return digest(content)

    def pacer(self, rate: tuple[float, float] | None) -> Pacer:
        """Counted in the store for every process (`FrontEndNotes.take_send`)."""
        return StorePacer(rate, take=self._store.take_send, settle=self._store.settle_send)


def ref_book(store: FrontEndNotes, shared: bool) -> RefBook:
    """The slot book for a bot alone on its store, or one of several processes on it
    (`sessions.delivery.shared`)."""
    return SharedRefBook(store) if shared else RefBook(store)
