"""Button taps: decode the callback data, ask `sessions.taps`, draw its reply.

Who is tapping always comes from Telegram's update (never from the button),
what they ask for from callback data that `callbacks.decode` checked; the
sessions decide what it means. Every callback query gets one answer: nothing,
a short note, or an alert saying why nothing happened.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

from telegram import CallbackQuery, Message, Update
from telegram.error import BadRequest, RetryAfter, TelegramError
from telegram.ext import ContextTypes

from ... import metrics
from ...i18n import t
from ...render import failure_text, refusal_text
from ...render_daily import daily_playing_text, daily_started_text
from ...render_review import hint_text
from ...sessions import ChatRef, DailyStart, ReplayStep, ReviewAsked, Sessions, UserRef, language_of
from ...sessions.hints import PracticeHint
from ...sessions.puzzles import Puzzle, PuzzleAnswer
from ...sessions.tap import Action, Asker, Redraw, Reply, Setting, Tap
from ...sessions.taps import HAND_ACTIONS
from ..common.failures import log_failure
from .askers import asker
from .callbacks import decode, shows_button
from .identity import PLATFORM, chat_ref, is_group, private_link, topic_id, topic_of, user_ref
from .in_time import in_time, slow_text
from .keyboards import tap as button
from .markup import clip, escape, hand_alert
from .outbox import Content, Target, retry_seconds
from .present import Presenter
from .puzzle import answer_alert, puzzle_content
from .replay import ReplayEdits, show_step
from .reviews import asked_key
from .settings_view import settings_answer

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
        self.lines = presenter.daily_lines
        self.replay_edits = ReplayEdits()

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
            player = await self.sessions.player(uref)
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
                return await self._daily(query, who, tapped, chat, lang)
            reply = await self.sessions.taps.tap(who, tapped)
            return await self._draw(query, tapped, uref, chat, reply, lang, home=who.home)
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

    # ---- drawing a reply ------------------------------------------------------------

    async def _draw(self, query: CallbackQuery, tapped: Tap, uref: UserRef, chat: ChatRef | None,
                    reply: Reply, lang: str, *, home: ChatRef | None = None) -> Answer:
        """Draw `reply` to a tap in the group `chat`, or in the asker's private chat (`home`,
        where a lobby or a match against the computer may be theirs)."""
        game_id = tapped.game_id
        here = chat or home
        if reply.refused is not None:
            return Answer(refusal_text(reply.refused, lang), alert=True, outcome="refused")
        if reply.shown is not None:
            return Answer(hand_alert(reply.shown, lang), alert=True)
        if reply.hand is not None and not reply.moved and tapped.version is not None:
            await self.presenter.set_prompt(game_id, uref.key, tapped.version, reply.hand)
            self.presenter.refresh_hand(game_id, uref.key)
        if reply.menu is not None and here is not None:
            self.presenter.menus[game_id] = reply.menu
            self.presenter.refresh_table(game_id, int(here.key), thread=topic_id(here.thread))
        if reply.redraw & Redraw.MY_HAND and reply.game_id is not None:
            self.presenter.refresh_hand(reply.game_id, uref.key)
        if reply.open_private is not None:
            return Answer(t(lang, "dm.start_first"), url=private_link(query.get_bot().username,
                                                                      reply.open_private))
        if reply.confirm is not None and here is not None:
            self._ask_to_confirm(here, reply.confirm, game_id, lang)
        if isinstance(reply.result, PracticeHint):
            given = reply.result
            return Answer(hint_text(given.hint, lang, given.variant, given.deck_style), alert=True)
        if isinstance(reply.result, ReplayStep):
            if show_step(self.outbox, self.replay_edits, query, tapped.action, reply.result, lang):
                return Answer()
            return Answer(t(lang, "telegram.bad_button"), alert=True, outcome="refused")
        if isinstance(reply.result, ReviewAsked):
            if not reply.result.privately:
                return Answer(t(lang, "dm.start_first"),
                              url=f"https://t.me/{query.get_bot().username}?start=review")
            return Answer(t(lang, asked_key(reply.result)))
        if isinstance(reply.result, PuzzleAnswer):
            return Answer(answer_alert(reply.result, lang), alert=True)
        if isinstance(reply.result, Puzzle) and here is not None:
            pictures = await self.presenter.draws_pictures(int(here.key))
            self.outbox.post(int(here.key), puzzle_content(reply.result, lang, pictures),
                             thread=topic_id(here.thread))
            return Answer()
        if reply.settings:
            lang = await self._settings_saved(query, uref, chat, reply)
        if reply.say is not None:
            return Answer(t(lang, reply.say.key, **reply.say.params), alert=reply.alert)
        return Answer()

    async def _daily(self, query: CallbackQuery, who: Asker, tapped: Tap, chat: ChatRef | None,
                     lang: str) -> Answer:
        """Deal or Not now under /daily's offer: the deal dealt in the asker's private chat (or
        given back, tapped again), the offer's message made the group's line of it (who plays),
        or in a private chat the deal's start; Not now leaves the offer saying nothing was dealt."""
        uref = who.user
        reply = await self.sessions.taps.daily_deal(who, tapped, ChatRef(PLATFORM, uref.key, uref.name))
        if reply.refused is not None:
            return Answer(refusal_text(reply.refused, lang), alert=True)
        if reply.open_private_daily:
            return Answer(t(lang, "dm.start_first"),
                          url=f"https://t.me/{query.get_bot().username}?start=daily")
        message = query.message
        here = None if not isinstance(message, Message) else message
        if reply.say is not None:
            if here is not None:
                shown = await self.presenter.chat_language(here.chat.id) if chat is not None else lang
                self.lines.show(here.chat.id, here.message_id, escape(t(shown, reply.say.key)))
            return Answer()
        start = reply.result
        assert isinstance(start, DailyStart)
        game_id = start.table.game_id
        name = (await self.sessions.player(uref)).display_name
        if chat is not None and here is not None:
            await self.lines.keep(game_id, here.chat.id, here.message_id, name)
            shown = await self.presenter.chat_language(here.chat.id)
            self.lines.show(here.chat.id, here.message_id, escape(daily_playing_text(name, start.day, shown)))
            if not start.resumed:
                self.outbox.post(int(uref.key), Content(escape(daily_started_text(start, lang)), silent=True))
        elif here is not None:
            self.lines.show(here.chat.id, here.message_id, escape(daily_started_text(start, lang)))
        if start.resumed:
            self.presenter.refresh_table(game_id, int(uref.key))
            self.presenter.repost_hand(game_id, uref.key)
        return Answer(t(lang, "daily.dealt") if chat is not None else None)

    def _ask_to_confirm(self, chat: ChatRef, action: Action, game_id: int, lang: str) -> None:
        keyboard = ((button("✖️ " + t(lang, "button.confirm_cancel"), action, game_id),),)
        self.outbox.post(int(chat.key), Content(escape(t(lang, "cancel.confirm")), keyboard),
                         thread=topic_id(chat.thread))

    async def _settings_saved(self, query: CallbackQuery, uref: UserRef, chat: ChatRef | None,
                              reply: Reply) -> str:
        """Keep the front-end's copies of what changed, draw again what shows it, and redraw the
        settings message; the language the answer is in."""
        message = query.message
        lang = reply.language or "en"
        for setting, value in reply.changed:
            if setting is Setting.CHAT_LANGUAGE and chat is not None:
                self.presenter.set_chat_language(int(chat.key), value)
            elif setting is Setting.CHAT_PICTURES and chat is not None:
                self.presenter.set_chat_pictures(int(chat.key), value == "on")
            elif setting is Setting.MY_LANGUAGE:
                self.presenter.set_language(uref.key, value)
        if reply.redraw & Redraw.GAME and chat is not None:
            await redraw_game_of(self.sessions, self.presenter, chat)
        if reply.redraw & Redraw.MY_HANDS:
            for row in await self.sessions.games_of(uref):
                self.presenter.refresh_hand(row.id, uref.key)
        if message is not None:
            shown = await self.sessions.chat(chat) if chat is not None else None
            rings = chat is not None or not (await self.sessions.player(uref)).quiet_turns
            html, keyboard = settings_answer(shown, lang, rings)
            self.outbox.update(Target(message.chat.id, message_id=message.message_id),
                               _constant(Content(html, keyboard)))
        return lang


async def redraw_game_of(sessions: Sessions, presenter: Presenter, chat: ChatRef) -> None:
    """The chat's open game (of the topic asked in) drawn again, its table and its players'
    hands, after a setting changed."""
    open_game = await sessions.open_game_id(chat)
    if open_game is not None:
        presenter.refresh_table(open_game, int(chat.key), thread=topic_id(chat.thread))
        await presenter.refresh_hands(open_game)


def _constant(content: Content) -> Callable[[], Awaitable[Content | None]]:
    async def render() -> Content | None:
        return content

    return render
