"""Chats and players as the store keeps them: the one place the sessions keep a chat's or a
player's settings. A process alone on its store keeps copies of what it read, so a tap or a
drawing costs no lookup, and what it changes replaces them (nothing else writes there); with
other processes on the store (`ReadingDirectory`) every read is the store's, so a setting
changed through one process holds in all. Which of the two is chosen once, where the
sessions are built."""

from __future__ import annotations

from typing import TypeVar

from .ports import GameStore
from .records import ChatRow, PlayerRow
from .refs import ChatRef, UserRef, language_of

_K = TypeVar("_K")
_V = TypeVar("_V")


class Unkept(dict[_K, _V]):
    """A dict that keeps nothing put in it: the copies of a directory that reads the store."""

    def __setitem__(self, key: _K, value: _V) -> None:
        pass


class Directory:
    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._chats: dict[int, ChatRow] = self._copies()
        self._chat_ids: dict[tuple[str, str], int] = self._copies()
        self._players: dict[tuple[str, str], PlayerRow] = self._copies()

    @staticmethod
    def _copies() -> dict[_K, _V]:
        return {}

    async def chat(self, ref: ChatRef, language_hint: str | None = None) -> ChatRow:
        """The chat (made when first seen, its title and home kept up to date; `language_hint`
        is its language if it is made now)."""
        known = self._chats.get(self._chat_ids.get((ref.platform, ref.key), 0))
        if known is not None and known.chat_key == ref.key and (not ref.title or known.title == ref.title) \
                and (not ref.home or known.home == ref.home):
            return known
        row = await self.store.ensure_chat(ref.platform, ref.key, ref.title,
                                           language_of(language_hint) if language_hint else None,
                                           ref.home)
        self.chat_changed(row)
        return row

    async def chat_row(self, chat_id: int) -> ChatRow:
        row = self._chats.get(chat_id)
        if row is None:
            row = await self.store.get_chat(chat_id)
            assert row is not None
            self.chat_changed(row)
        return row

    def chat_changed(self, row: ChatRow) -> None:
        self._chats[row.id] = row
        self._chat_ids[(row.platform, row.chat_key)] = row.id

    def chat_moved(self, old_id: int, row: ChatRow) -> None:
        """Chat `old_id` is now `row` (another key; merged into another row, another id)."""
        self._chats.pop(old_id, None)
        self.chat_changed(row)

    def chat_forgotten(self, chat_id: int) -> None:
        """Chat `chat_id` changed under the copy kept (its key erased): read it again."""
        self._chats.pop(chat_id, None)

    async def player(self, ref: UserRef) -> PlayerRow:
        """The player, created on their first request, their name and language kept up to date."""
        known = self._players.get((ref.platform, ref.key))
        if known is not None and known.display_name == (ref.name or ref.key)[:64] and (
                not ref.language or known.platform_language == ref.language):
            return known
        row = await self.store.ensure_player(ref.platform, ref.key, ref.name or ref.key,
                                             ref.language)
        self._players[(ref.platform, ref.key)] = row
        return row

    async def known_player(self, platform: str, key: str) -> PlayerRow | None:
        """The player if they ever used the bot; taps never create players."""
        known = self._players.get((platform, key))
        if known is None:
            known = await self.store.find_player(platform, key)
            if known is not None:
                self._players[(platform, key)] = known
        return known

    def player_updated(self, row: PlayerRow) -> None:
        """The player's settings are now `row`'s (stored already)."""
        self._players[(row.platform, row.user_key)] = row

    def player_changed(self, ref: UserRef) -> None:
        """The player changed under the copy kept (erased): read them again."""
        self._players.pop((ref.platform, ref.key), None)


class ReadingDirectory(Directory):
    """Other processes change chats and players too: every read is the store's."""

    @staticmethod
    def _copies() -> dict[_K, _V]:
        return Unkept()
