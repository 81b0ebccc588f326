"""/privacy, /mydata and /forgetme in the private chat, and the button that confirms /forgetme
(`sessions.privacy` decides; this only translates)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import CallbackQuery, Message, Update
from telegram.error import TelegramError
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from ...i18n import t
from ...sessions import ChatRef, Sessions, UserRef, language_of
from ...sessions.commands import ForgetMe
from ...sessions.erasures import ErasureCourier
from ...sessions.privacy import ConfirmCheck, Told, check_confirm, confirm_token
from ...sessions.replies import Erased
from ...sessions.tap import Asker
from .content import Target
from .identity import PLATFORM, is_group, user_ref
from .keyboards import Button
from .markup import escape
from .outbox import Content, Outbox

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE

COMMANDS = ("privacy", "mydata", "forgetme")
USER_NOTES = frozenset({"hand", "prompt", "rung"})
"""The game's notes kept per player, `<kind>:<user id>` (`notes`, `present.hand_target`)."""
CONFIRM = "forget:"
"""The /forgetme button's data: this, then `privacy.confirm_token` (whose it is, since when)."""


class PrivacyHandlers:
    def __init__(self, sessions: Sessions, outbox: Outbox) -> None:
        self.sessions = sessions
        self.outbox = outbox
        self.erasures = ErasureCourier(sessions.privacy, PLATFORM, self._post, self._untrace)

    def start(self) -> None:
        """Make the erasures asked for from the command line (`scopa-bot erase`) as they come."""
        self.erasures.start()

    async def stop(self) -> None:
        await self.erasures.stop()

    def install(self, application: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """Before the game's buttons' handler, which takes every other tap."""
        for name in COMMANDS:
            application.add_handler(CommandHandler(name, getattr(self, f"cmd_{name}")))
        application.add_handler(CallbackQueryHandler(self.on_confirm, pattern=f"^{CONFIRM}"))

    async def _private(self, update: Update) -> tuple[Message, UserRef, str] | None:
        """The command's message, its sender and their language, in the private chat only: in a
        group it is answered there with where it works."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or user.is_bot:
            return None
        uref = user_ref(user)
        player = await self.sessions.queries.find_player(PLATFORM, uref.key)
        lang = (player.language if player and player.language else None) or language_of(user.language_code)
        if is_group(message.chat):
            self.outbox.post(message.chat.id, Content(escape(t(lang, "privacy.private_only"))),
                             message.message_id, thread=message.message_thread_id
                             if message.is_topic_message else None)
            return None
        return message, uref, lang

    async def cmd_privacy(self, update: Update, context: Context) -> None:
        found = await self._private(update)
        if found is not None:
            message, _, lang = found
            self.outbox.post(message.chat.id, Content(escape(t(lang, "privacy.text", platform="Telegram"))))

    async def cmd_mydata(self, update: Update, context: Context) -> None:
        found = await self._private(update)
        if found is None:
            return
        message, uref, lang = found
        data = await self.sessions.queries.my_data(uref)
        if data is None:
            self.outbox.post(message.chat.id, Content(escape(t(lang, "privacy.nothing_kept"))))
            return
        await message.get_bot().send_document(
            message.chat.id, data, filename="scopa-mydata.json",
            caption=t(lang, "privacy.mydata_caption"))

    async def cmd_forgetme(self, update: Update, context: Context) -> None:
        found = await self._private(update)
        if found is None:
            return
        message, uref, lang = found
        if await self.sessions.queries.find_player(PLATFORM, uref.key) is None:
            self.outbox.post(message.chat.id, Content(escape(t(lang, "privacy.nothing_kept"))))
            return
        token = confirm_token(uref.key, self.sessions.clock())
        keyboard = ((Button(t(lang, "privacy.confirm_button"), CONFIRM + token),),)
        self.outbox.post(message.chat.id, Content(escape(t(lang, "privacy.confirm")), keyboard))

    async def on_confirm(self, update: Update, context: Context) -> None:
        query = update.callback_query
        if query is None:
            return
        uref = user_ref(query.from_user)
        lang = language_of(query.from_user.language_code)
        check = check_confirm((query.data or "").removeprefix(CONFIRM), uref.key, self.sessions.clock())
        if check is not ConfirmCheck.GOOD:
            await _answer(query, t(lang, f"privacy.{check.value}"))
            return
        player = await self.sessions.queries.find_player(PLATFORM, uref.key)
        lang = (player.language if player and player.language else None) or lang
        message = query.message
        home = None if message is None or is_group(message.chat) else ChatRef(PLATFORM, uref.key)
        erased = await self.sessions.handle(Asker(uref, home=home), ForgetMe())
        forgotten = erased.forgotten if isinstance(erased, Erased) else None
        said = t(lang, "privacy.done" if forgotten is not None else "privacy.nothing_kept")
        await _answer(query, said)
        if message is not None:
            self.outbox.update(Target(message.chat.id, message_id=message.message_id), _said(said))
        await self.erasures.tell_others(forgotten)

    async def _untrace(self) -> None:
        """Drop the notes a game keeps of a player no longer in it (`Privacy.traces`): the hand,
        prompt and rings of one erased while their hand was being drawn."""
        notes = self.sessions.delivery.refs
        for trace in await self.sessions.queries.traces(PLATFORM):
            stale = [key for key in await notes.get_refs(trace.game_id)
                     if key.partition(":")[0] in USER_NOTES and key.partition(":")[2] not in trace.people]
            for key in stale:
                await notes.set_ref(trace.game_id, key, None)
            if stale:
                self.outbox.refs.forget(trace.game_id)

    async def _post(self, told: Told) -> bool:
        """The line, with the player's name where this process still knows it; True once the
        chat has it (or refuses the bot for good)."""
        lang = (await self.sessions.queries.chat(told.chat)).language
        kind = "told" if told.name else "told_anon"
        line = t(lang, f"privacy.{kind}.{told.outcome.value}", name=told.name, computer=told.computer)
        chat_id = int(told.chat.key)
        sent = await self.outbox.post(chat_id, Content(escape(line)),
                                      thread=int(told.chat.thread) if told.chat.thread else None)
        return sent is not None or chat_id in self.outbox.refusing


def _said(text: str) -> Callable[[], Awaitable[Content | None]]:
    """The question of /forgetme answered in its place, without its button."""
    async def render() -> Content:
        return Content(escape(text))

    return render


async def _answer(query: CallbackQuery, text: str) -> None:
    try:
        await query.answer(text, show_alert=True)
    except TelegramError:
        log.info("the answer to a /forgetme button went unanswered", exc_info=True)
