"""Who the Telegram front-end can reach, and in which language each chat and player reads.

Languages, a chat's pictures setting and whether a player opened their private chat are
settings the sessions keep (`sessions.queries`, whose directory reads them from the store when
other processes share it): nothing of them is copied here, so a setting changed through any
process or any front-end holds at the next message.
"""

from __future__ import annotations

from ...sessions import ChatRef, ChatSettings, PlayerProfile, Sessions, UserRef
from ...sessions.commands import Reachable
from ...sessions.tap import Asker
from ...sessions.views import player_language
from .identity import PLATFORM
from .outbox import Outbox


class Audience:
    def __init__(self, sessions: Sessions, outbox: Outbox) -> None:
        self.sessions = sessions
        self.outbox = outbox

    def reachable(self, player: PlayerProfile) -> bool:
        return player.can_dm

    async def set_reachable(self, user: UserRef, on: bool) -> None:
        """Whether the bot can write to `user` (stored only when it changes)."""
        await self.sessions.handle(Asker(user), Reachable(on))

    def language(self, player: PlayerProfile | None, fallback: str = "it") -> str:
        return player_language(player, fallback)

    async def _chat(self, chat_id: int) -> ChatSettings:
        chat_id = self.outbox.moved.get(chat_id, chat_id)
        return await self.sessions.queries.chat(ChatRef(PLATFORM, str(chat_id)))

    async def chat_language(self, chat_id: int) -> str:
        return (await self._chat(chat_id)).language

    async def chat_pictures(self, chat_id: int) -> bool:
        """Whether the chat's table and its players' hands are pictures (its /settings)."""
        return (await self._chat(chat_id)).pictures

    async def draws_pictures(self, chat_id: int) -> bool:
        """Whether to draw the chat's messages as pictures: its settings want them and this
        front-end draws pictures at all."""
        return self.outbox.painter is not None and await self.chat_pictures(chat_id)
