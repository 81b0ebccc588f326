"""/season on Telegram, and the champion announced in each group when the month turns (what a
season is and who closes it: `sessions.seasons`)."""

from __future__ import annotations

import asyncio
import logging

from telegram import Message, MessageEntity

from ...render.season import closed_text, season_caption, season_scene, season_text
from ...sessions import Sessions, UserRef
from ...sessions.seasons import SeasonAsk, SeasonBoard, SeasonClose
from .content import Content, Picture
from .identity import PLATFORM, user_ref
from .markup import escape
from .present import Presenter

log = logging.getLogger(__name__)


def season_content(board: SeasonBoard, lang: str, pictures: bool) -> Content:
    """The standings: with `pictures` a photo under the title, when it ends (or its champion) and
    how points are earned, else all of it in words."""
    text = escape(season_text(board, lang))
    if not pictures:
        return Content(text)
    caption = escape(season_caption(board, lang))
    return Content(text, picture=Picture(season_scene(board, lang), lang, caption))


def season_subject(message: Message, ask: SeasonAsk) -> UserRef | str | None:
    """Whose past seasons /season asks for: the person a mention without a username names, the
    author of the message it replies to (a person, not a forum topic's opening), or a name typed
    after it; None for the standings."""
    for entity in message.entities:
        if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None and not entity.user.is_bot:
            return user_ref(entity.user)
    if ask.player is not None:
        return ask.player
    replied = message.reply_to_message
    if (replied is not None and replied.from_user is not None and not replied.from_user.is_bot
            and replied.forum_topic_created is None and replied.message_id != message.message_thread_id):
        return user_ref(replied.from_user)
    return None


class SeasonAnnouncer:
    """Looks every minute, while the bot runs, for a group's season to close, and posts its
    champion there."""

    def __init__(self, sessions: Sessions, presenter: Presenter) -> None:
        self.sessions, self.presenter, self.outbox = sessions, presenter, presenter.outbox
        self._closing: asyncio.Task[None] | None = None

    async def post(self, close: SeasonClose) -> bool | None:
        """The champion's announcement, with the final standings' picture where the group has
        pictures; None when the chat refuses the bot for good."""
        chat_id = int(close.chat.key)
        lang = close.language
        text = escape(closed_text(close, lang))
        pictures = await self.presenter.draws_pictures(chat_id)
        picture = Picture(season_scene(close.board, lang), lang, text) if pictures else None
        if await self.outbox.post(chat_id, Content(text, picture=picture)) is not None:
            return True
        return None if chat_id in self.outbox.refusing else False

    def start(self) -> None:
        closing = self.sessions.seasons.keep_closing(
            PLATFORM, lambda: self.sessions.scheduler.served, self.post)
        self._closing = asyncio.create_task(closing, name="telegram-seasons")

    async def stop(self) -> None:
        if self._closing is not None:
            self._closing.cancel()
            await asyncio.gather(self._closing, return_exceptions=True)
            self._closing = None
