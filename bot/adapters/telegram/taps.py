"""Button taps: decode the callback data, ask `Sessions.handle`, draw its reply (`drawing`).

Who is tapping always comes from Telegram's update (never from the button),
what they ask for from callback data that `callbacks.decode` checked; the
sessions decide what it means. Every callback query gets one answer: nothing,
a short note, or an alert saying why nothing happened.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from functools import partial

from telegram import CallbackQuery, Message, Update
from telegram.error import BadRequest, RetryAfter, TelegramError
from telegram.ext import ContextTypes

from ... import metrics
from ...i18n import t
from ...render.words import failure_text
from ...sessions import ChatRef, Sessions, language_of
from ...sessions.commands import AnswerDaily
from ...sessions.tap import Action, Tap
from ...sessions.taps import HAND_ACTIONS
from ..common.failures import log_failure
from .askers import asker
from .callbacks import decode, shows_button
from .drawing import Asked, Drawn, ReplyDrawer
from .identity import PLATFORM, chat_ref, is_group, topic_id, topic_of, user_ref
from .in_time import in_time, slow_text
from .markup import clip
from .outbox import Content, retry_seconds
from .present import Presenter

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE
ANSWER_WITHIN = 12.0
DAILY_ACTIONS = frozenset({Action.DAILY_DEAL, Action.DAILY_DROP})


@dataclass(frozen=True, slots=True)
class Answer:
    text: str | None = None
    alert: bool = False
    url: str | None = None
    outcome: str = "ok"
    """For the metrics: ok, refused, failed or late."""


class TapHandlers:
    def __init__(self, sessions: Sessions, presenter: Presenter) -> None:
        self.sessions = sessions
        self.presenter = presenter
        self.outbox = presenter.outbox
        self.drawer = ReplyDrawer(sessions, presenter)

    async def on_tap(self, update: Update, context: Context) -> None:
        query = update.callback_query
        if query is None:
            return
        began = metrics.now()
        tapped = decode(query.data)
        metrics.tap_began(None if tapped is None else tapped.game_id)
        late = partial(Answer, slow_text(query.from_user.language_code), alert=True, outcome="late")
        if tapped is not None and tapped.action in (Action.PLAY, Action.DECLARE):
            async with self.outbox.first():
                answer = await in_time(self._settle(query, tapped), late)
                await self._answer(query, answer)
        else:
            answer = await in_time(self._settle(query, tapped), late)
            await self._answer(query, answer)
        metrics.tap(PLATFORM, "unknown" if tapped is None else tapped.action.name.lower(), answer.outcome,
                    began)

    async def _settle(self, query: CallbackQuery, tapped: Tap | None) -> Answer:
        """Decode, call the sessions, draw the reply; a failure is an alert and changed nothing."""
        lang = language_of(query.from_user.language_code)
        try:
            uref = user_ref(query.from_user)
            player = await self.sessions.queries.player(uref)
            lang = self.presenter.language(player)
            if tapped is None:
                return Answer(t(lang, "telegram.bad_button"), alert=True, outcome="refused")
            message = query.message
            chat = chat_ref(message.chat, topic_of(message)) if message is not None and is_group(
                message.chat) else None
            who = asker(self.presenter, query.get_bot(), query.from_user, uref, player, chat)
            if tapped.action in HAND_ACTIONS and isinstance(message, Message) \
                    and message.chat.id == query.from_user.id and shows_button(message, query.data):
                await self.presenter.adopt_hand(tapped.game_id, uref.key, message.message_id,
                                                bool(message.photo))
            if tapped.action in DAILY_ACTIONS:
                private = ChatRef(PLATFORM, uref.key, uref.name)
                reply = await self.sessions.handle(who, AnswerDaily(tapped, private))
            else:
                reply = await self.sessions.handle(who, tapped)
            at = Asked(who, lang, query.get_bot().username, tapped, query)
            return await self._delivered(await self.drawer.draw(reply, at), at)
        except Exception as exc:
            log_failure(log, "a tap", exc)
            return Answer(failure_text(exc, lang), alert=True, outcome="failed")

    async def _answer(self, query: CallbackQuery, answer: Answer) -> None:
        """Answer once; flood control and network errors are waited out while the query is young."""
        deadline = time.monotonic() + ANSWER_WITHIN
        delay = 0.2
        while True:
            try:
                await query.answer(clip(answer.text) if answer.text else None,
                                   show_alert=answer.alert or None, url=answer.url)
                return
            except RetryAfter as exc:
                delay = retry_seconds(exc)
            except BadRequest as exc:
                log.info("could not answer a callback query: %s", exc.message)
                return
            except TelegramError as exc:
                log.info("answering a callback query failed (%s); retrying", exc.message)
                delay = min(2 * delay, 2.0)
            if time.monotonic() + delay > deadline:
                log.warning("gave up answering a callback query")
                return
            await asyncio.sleep(delay)

    # ---- delivering a drawn reply ------------------------------------------------------

    async def _delivered(self, drawn: Drawn, at: Asked) -> Answer:
        """A drawn reply as a tap takes it: its message posted in the chat tapped in, its words
        the query's answer (opening the private chat where it links there)."""
        lang, here = at.lang, at.here
        if drawn.message is not None and here is not None:
            html, keyboard = drawn.message(lang)
            self.outbox.post(int(here.key), Content(html, keyboard), thread=topic_id(here.thread))
        if drawn.then is not None:
            await drawn.then()
        return Answer(None if drawn.words is None else drawn.words(lang), alert=drawn.alert, url=drawn.link,
                      outcome=drawn.outcome)
