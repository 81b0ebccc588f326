"""Chats and players as the store keeps them, with the copies kept in memory so that
a tap does not cost a lookup."""

from __future__ import annotations

from .ports import GameStore
from .records import ChatRow, PlayerRow
from .refs import ChatRef, UserRef, language_of


class Directory:
    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.shared = bool(getattr(store, "shared", False))
        """Other processes change chats and players too: copies are not kept."""
        self._chats: dict[int, ChatRow] = {}
        self._players: dict[tuple[str, str], PlayerRow] = {}

    async def chat(self, ref: ChatRef, language_hint: str | None = None) -> ChatRow:
        row = await self.store.ensure_chat(ref.platform, ref.key, ref.title,
                                           language_of(language_hint) if language_hint else None,
                                           ref.home)
        self._chats[row.id] = row
        return row

    async def chat_row(self, chat_id: int) -> ChatRow:
        row = None if self.shared else self._chats.get(chat_id)
        if row is None:
            row = await self.store.get_chat(chat_id)
            assert row is not None
            self._chats[chat_id] = row
        return row

    def chat_changed(self, row: ChatRow) -> None:
        self._chats[row.id] = row

    def chat_moved(self, old_id: int, row: ChatRow) -> None:
        """Chat `old_id` is now `row` (another key; merged into another row, another id)."""
        self._chats.pop(old_id, None)
        self._chats[row.id] = row

    def chat_forgotten(self, chat_id: int) -> None:
        """Chat `chat_id` changed under the copy kept (its key erased): read it again."""
        self._chats.pop(chat_id, None)

    async def player(self, ref: UserRef) -> PlayerRow:
        """The player, created on their first request, their name and language kept up to date."""
        known = None if self.shared else self._players.get((ref.platform, ref.key))
        if known is not None and known.display_name == (ref.name or ref.key)[:64] and (
                not ref.language or known.platform_language == ref.language):
            return known
        row = await self.store.ensure_player(ref.platform, ref.key, ref.name or ref.key,
                                             ref.language)
        self._players[(ref.platform, ref.key)] = row
        return row

    async def known_player(self, platform: str, key: str) -> PlayerRow | None:
        """The player if they ever used the bot; taps never create players."""
        known = None if self.shared else self._players.get((platform, key))
        if known is None:
            known = await self.store.find_player(platform, key)
            if known is not None:
                self._players[(platform, key)] = known
        return known

    def player_changed(self, ref: UserRef) -> None:
        self._players.pop((ref.platform, ref.key), None)
