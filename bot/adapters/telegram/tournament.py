"""/tournament on Telegram: the sign-up message with its buttons, the standings, cancelling, and
what the group is told as rounds complete (how a tournament is played: `sessions.tournament_play`).

The buttons carry `trn|<action>|<tournament id>`; a tap is taken only from a message that shows
that button (a forged one is refused) and for the tournament open in that chat now."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.error import TelegramError
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from ...i18n import t
from ...render.tournament import news_head, tournament_scene, tournament_text
from ...render.words import refusal_text
from ...sessions import ChatRef, Sessions
from ...sessions.commands import OpenTournament, PressTournament
from ...sessions.replies import Note, Refusal, TournamentShown
from ...sessions.tap import Asker
from ...sessions.tournament_play import TournamentNews, TournamentUntold
from ...sessions.tournaments import Status, TournamentView
from .askers import is_admin
from .callbacks import shows_button
from .content import Content, Picture
from .identity import PLATFORM, chat_ref, is_group, topic_of, user_ref
from .keyboards import Button, Keyboard
from .markup import caption, escape
from .present import Presenter

log = logging.getLogger(__name__)

PREFIX = "trn"
ACTIONS = ("join", "leave", "start", "cancel")
Context = ContextTypes.DEFAULT_TYPE


def tournament_content(view: TournamentView, lang: str, pictures: bool, head: str = "") -> Content:
    """What the group is shown of a running or finished tournament (`head` above it): with
    `pictures`, the bracket or the standings as a photo under the words (cut to a caption's
    length), the words alone otherwise and wherever a photo cannot go."""
    text = escape(f"{head}\n{tournament_text(view, lang)}" if head else tournament_text(view, lang))
    scene = tournament_scene(view, lang) if pictures else None
    if scene is None:
        return Content(text)
    return Content(text, picture=Picture(scene, lang, caption(text)))


def signup_keyboard(view: TournamentView, lang: str) -> Keyboard:
    def button(action: str) -> Button:
        return Button(t(lang, f"tournament.button.{action}"), data=f"{PREFIX}|{action}|{view.id}")

    return ((button("join"), button("leave")), (button("start"), button("cancel")))


def _markup(keyboard: Keyboard) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(b.label, callback_data=b.data) for b in row]
                                 for row in keyboard])


class TournamentFront:
    """The command, the sign-up buttons, the group told of each round, and the look every
    `LOOK_EVERY` seconds for what a stopped process owed a tournament."""

    def __init__(self, sessions: Sessions, presenter: Presenter) -> None:
        self.sessions, self.presenter, self.outbox = sessions, presenter, presenter.outbox
        self._looking: asyncio.Task[None] | None = None
        sessions.tournaments.subscribe(self.told)

    def install(self, application: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """Before the game's own buttons' handler, which takes every other tap."""
        application.add_handler(CommandHandler("tournament", self.cmd_tournament))
        application.add_handler(CommandHandler("duplicate", self.cmd_duplicate))
        application.add_handler(CallbackQueryHandler(self.on_tap, pattern=rf"^{PREFIX}\|"))

    async def cmd_tournament(self, update: Update, context: Context) -> None:
        await self._command(update, context, event=False)

    async def cmd_duplicate(self, update: Update, context: Context) -> None:
        """A duplicate event: a tournament whose tables all play the same deals, ranked by play."""
        await self._command(update, context, event=True)

    async def _command(self, update: Update, context: Context, event: bool) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or user.is_bot:
            return
        uref = user_ref(user)
        cref = chat_ref(message.chat, topic_of(message))
        row = await self.sessions.queries.chat(cref, uref.language)
        lang = row.language
        topic = topic_of(message)
        if not is_group(message.chat):
            await self._say(message.chat.id, escape(t(lang, "tournament.refused.group_only")), topic)
            return
        words = tuple(w for w in (context.args or ()) if w)

        def admin() -> Awaitable[bool]:
            return is_admin(message.get_bot(), message.chat.id, user.id)

        reply = await self.sessions.handle(Asker(uref, cref, admin=admin), OpenTournament(words, event))
        if isinstance(reply, TournamentShown):
            await self._show(message.chat.id, reply.view, lang, topic)
        elif isinstance(reply, Refusal):
            await self._say(message.chat.id, escape(refusal_text(reply.refused, lang)), topic)
        elif isinstance(reply, Note):
            await self._say(message.chat.id, escape(t(lang, reply.say.key, **reply.say.params)), topic)

    async def _show(self, chat_id: int, view: TournamentView, lang: str, topic: int | None) -> None:
        if view.status is Status.SIGNUP:
            await self._say(chat_id, escape(tournament_text(view, lang)), topic, signup_keyboard(view, lang))
            return
        pictures = await self.presenter.draws_pictures(chat_id)
        await self.outbox.post(chat_id, tournament_content(view, lang, pictures), thread=topic)

    async def _say(self, chat_id: int, html: str, topic: int | None, keyboard: Keyboard = ()) -> None:
        await self.outbox.post(chat_id, Content(html, keyboard), thread=topic)

    async def on_tap(self, update: Update, context: Context) -> None:
        query = update.callback_query
        if query is None or query.message is None or query.from_user.is_bot:
            return
        message = query.message
        parts = str(query.data or "").split("|")
        uref = user_ref(query.from_user)
        cref = chat_ref(message.chat, topic_of(message))
        lang = (await self.sessions.queries.chat(cref, uref.language)).language
        forged = (len(parts) != 3 or parts[1] not in ACTIONS or not parts[2].isdigit()
                  or not isinstance(message, Message) or not shows_button(message, query.data))
        if forged:
            await _answer(query, t(lang, "tournament.refused.stale"))
            return
        def admin() -> Awaitable[bool]:
            return is_admin(message.get_bot(), message.chat.id, query.from_user.id)

        pressed = PressTournament(parts[2], parts[1])
        reply = await self.sessions.handle(Asker(uref, cref, admin=admin), pressed)
        if isinstance(reply, Refusal):
            await _answer(query, refusal_text(reply.refused, lang))
            return
        if isinstance(reply, Note):
            await _answer(query, t(lang, reply.say.key, **reply.say.params))
            return
        if not isinstance(reply, TournamentShown):
            return
        view = reply.view
        await _answer(query, None)
        text = escape(tournament_text(view, lang) if view.status is not Status.CANCELLED
                      else t(lang, "tournament.cancelled"))
        markup = _markup(signup_keyboard(view, lang)) if view.status is Status.SIGNUP else None
        try:
            await query.edit_message_text(text, parse_mode="HTML", reply_markup=markup)
        except TelegramError as exc:
            log.info("could not edit a tournament's sign-up: %s", exc.message)

    async def told(self, news: TournamentNews) -> None:
        """A round complete or the tournament won: the standings (and the champion) posted; a post
        that fails leaves it owed (`TournamentUntold`), a group that refuses the bot for good not."""
        view = news.view
        if view.platform != PLATFORM or not view.chat.lstrip("-").isdigit():
            return
        chat_id = int(view.chat)
        lang = (await self.sessions.queries.chat(ChatRef(PLATFORM, str(chat_id)), None)).language
        topic = int(view.place) if view.place.isdigit() else None
        head = news_head(news, lang)
        pictures = await self.presenter.draws_pictures(chat_id)
        posted = await self.outbox.post(chat_id, tournament_content(view, lang, pictures, head), thread=topic)
        if posted is None and chat_id not in self.outbox.refusing:
            raise TournamentUntold(chat_id)

    def start(self) -> None:
        self._looking = asyncio.create_task(self.sessions.tournaments.look_forever(PLATFORM),
                                            name="telegram-tournaments")

    async def stop(self) -> None:
        if self._looking is not None:
            self._looking.cancel()
            await asyncio.gather(self._looking, return_exceptions=True)
            self._looking = None


async def _answer(query: CallbackQuery, text: str | None) -> None:
    try:
        await query.answer(text)
    except TelegramError as exc:
        log.info("could not answer a tournament tap: %s", exc.message)
