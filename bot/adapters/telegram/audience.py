"""Who the Telegram front-end can reach, and in which language each chat and player reads.

Languages, a chat's pictures setting and whether a player opened their private chat are
settings in the store. With a store other processes share, they are read from it each time:
a language set through one worker holds in all. A process alone on its store keeps what it
read, and what it set replaces it (nothing else writes there).
"""

from __future__ import annotations

from ...sessions import ChatRef, ChatSettings, PlayerProfile, Sessions, UserRef
from ...sessions.views import player_language
from .identity import PLATFORM
from .outbox import Outbox


class Audience:
    def __init__(self, sessions: Sessions, outbox: Outbox) -> None:
        self.sessions = sessions
        self.outbox = outbox
        self.shared = outbox.refs.shared
        self._dm: dict[str, bool] = {}
        self._languages: dict[str, str] = {}
        self._chats: dict[int, ChatSettings] = {}

    def reachable(self, player: PlayerProfile) -> bool:
        return player.can_dm if self.shared else self._dm.get(player.user_key, player.can_dm)

    async def set_reachable(self, user: UserRef, on: bool) -> None:
        if not self.shared:
            if self._dm.get(user.key) == on:
                return
            self._dm[user.key] = on
        await self.sessions.settings.set_can_dm(user, on)

    def language(self, player: PlayerProfile | None, fallback: str = "it") -> str:
        if not self.shared and player is not None and player.user_key in self._languages:
            return self._languages[player.user_key]
        return player_language(player, fallback)

    def set_language(self, user_key: str, lang: str) -> None:
        """The player chose `lang` (already stored)."""
        if not self.shared:
            self._languages[user_key] = lang

    async def _chat(self, chat_id: int) -> ChatSettings:
        chat_id = self.outbox.moved.get(chat_id, chat_id)
        settings = None if self.shared else self._chats.get(chat_id)
        if settings is None:
            settings = await self.sessions.queries.chat(ChatRef(PLATFORM, str(chat_id)))
            if not self.shared:
                self._chats[chat_id] = settings
        return settings

    async def chat_language(self, chat_id: int) -> str:
        return (await self._chat(chat_id)).language

    def set_chat_language(self, chat_id: int, lang: str) -> None:
        """The chat's language is `lang` (already stored)."""
        self.forget_chat(chat_id)

    async def chat_pictures(self, chat_id: int) -> bool:
        """Whether the chat's table and its players' hands are pictures (its /settings)."""
        return (await self._chat(chat_id)).pictures

    async def draws_pictures(self, chat_id: int) -> bool:
        """Whether to draw the chat's messages as pictures: its settings want them and this
        front-end draws pictures at all."""
        return self.outbox.painter is not None and await self.chat_pictures(chat_id)

    def set_chat_pictures(self, chat_id: int, on: bool) -> None:
        """The chat's pictures setting is `on` (already stored)."""
        self.forget_chat(chat_id)

    def forget_chat(self, chat_id: int) -> None:
        self._chats.pop(chat_id, None)
