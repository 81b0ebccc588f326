"""The owners' commands in a private chat, and their notices posted in the groups in play
(what they mean and who may use them: `sessions.owners`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from telegram import Bot, BotCommand, BotCommandScopeChat, Chat, Update
from telegram.error import TelegramError
from telegram.ext import Application, CommandHandler, ContextTypes

from ...i18n import t
from ...render.owners import notice_text, owner_text
from ...sessions import ChatRef, Sessions
from ...sessions.commands import OwnerCommand
from ...sessions.owners import OWNER_COMMANDS
from ...sessions.ports import NoticeDelivery
from ...sessions.replies import OwnerAnswered
from ...sessions.tap import Asker
from .identity import PLATFORM, chat_ref, topic_id, user_ref
from .markup import escape
from .outbox import Content, Outbox
from .present import Presenter

log = logging.getLogger(__name__)


class OwnerCommands:
    def __init__(self, sessions: Sessions, presenter: Presenter, outbox: Outbox) -> None:
        self.sessions, self.presenter, self.outbox = sessions, presenter, outbox
        self._delivering: asyncio.Task[None] | None = None

    def install(self, application: Application[Any, Any, Any, Any, Any, Any]) -> None:
        for name in OWNER_COMMANDS:
            application.add_handler(CommandHandler(name, self.on_command))

    async def set_menus(self, bot: Bot, public: Sequence[str]) -> None:
        """Each owner's private chat gets a command menu of its own: the public commands and
        theirs, in their language (everyone else's menu has only the public ones)."""
        for platform, key in sorted(self.sessions.queries.owners()):
            if platform != PLATFORM:
                continue
            lang = self.presenter.language(await self.sessions.queries.find_player(PLATFORM, key), "en")
            commands = [BotCommand(name, t(lang, f"telegram.command.{name}")) for name in public]
            commands += [BotCommand(name, t(lang, f"owners.command.{name}")) for name in OWNER_COMMANDS]
            try:
                await bot.set_my_commands(commands, scope=BotCommandScopeChat(int(key)))
            except TelegramError as exc:
                log.info("no command menu for owner %s (has the private chat been opened?): %s",
                         key, exc.message)

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """An owner command: answered in the owner's private chat; for anyone else, or
        anywhere else, nothing, as for a command the bot does not know."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or user.is_bot or not message.text:
            return
        head, _, words = message.text.partition(" ")
        name = head.lstrip("/").split("@", 1)[0].lower()
        uref = user_ref(user)
        if message.chat.type == Chat.PRIVATE:
            asker = Asker(uref, home=ChatRef(PLATFORM, uref.key))
        else:
            asker = Asker(uref, chat_ref(message.chat))
        reply = await self.sessions.handle(asker, OwnerCommand(name, words))
        if not isinstance(reply, OwnerAnswered):
            return
        lang = self.presenter.language(await self.sessions.queries.player(uref))
        self.outbox.post(message.chat.id, Content(escape(owner_text(reply.answer, lang))), message.message_id)

    async def post_notice(self, owed: NoticeDelivery) -> bool | None:
        """Post an owner's notice in a chat, within the chat's limits (the outbox); None when the
        chat refuses the bot for good."""
        chat_id = int(owed.chat_key)
        lang = (await self.sessions.queries.chat(ChatRef(PLATFORM, owed.chat_key))).language
        content = Content(escape(notice_text(owed.text, lang)))
        if await self.outbox.post(chat_id, content, thread=topic_id(owed.thread)) is not None:
            return True
        return None if chat_id in self.outbox.refusing else False

    def start(self) -> None:
        delivering = self.sessions.owners.keep_delivering(PLATFORM, self.post_notice)
        self._delivering = asyncio.create_task(delivering, name="telegram-notices")

    async def stop(self) -> None:
        if self._delivering is not None:
            self._delivering.cancel()
            await asyncio.gather(self._delivering, return_exceptions=True)
            self._delivering = None
