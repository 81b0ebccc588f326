"""Commands and button taps, translated into sessions calls.

Who is asking always comes from Telegram's update (never from the button),
what they ask for from callback data that `callbacks.decode` checked; the
sessions layer decides whether it is allowed. Every callback query gets one
answer: nothing, or a short alert saying why nothing happened.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from telegram import Bot, CallbackQuery, ChatMember, ChatMemberRestricted, Message, Update
from telegram.error import BadRequest, RetryAfter, TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from ...i18n import t
from ...render import card_legend, failure_text, leaderboard_text, refusal_text, rules_text, stats_text
from ...render_daily import daily_board_text, daily_sent_text, daily_started_text
from ...render_review import accuracy_help, hint_text
from ...sessions import (
    ChatRef,
    ChatSettings,
    GameStatus,
    PlayerProfile,
    Reason,
    Refused,
    Sessions,
    UserRef,
    interaction,
)
from ...sessions.daily import BOARD_WORDS, EVERYONE_WORDS
from ...sessions.interaction import PLAIN, HandMode, HandPrompt
from ...sessions.options import HOUSE_OPTIONS, variant_named
from ...sessions.service import language_of
from ...sessions.throttle import CommandReply, CommandThrottle
from .callbacks import Action, Tap, decode
from .identity import (
    PLATFORM,
    chat_ref,
    is_group,
    message_link,
    parse_join_payload,
    private_link,
    topic_id,
    topic_of,
    user_ref,
)
from .in_time import away_text, in_time
from .keyboards import Keyboard, link_keyboard, settings_keyboard
from .markup import clip, escape, hand_alert
from .outbox import Content, Target, retry_seconds
from .present import Presenter, table_target
from .reviews import ReviewPoster

log = logging.getLogger(__name__)

_T = TypeVar("_T")
Context = ContextTypes.DEFAULT_TYPE

Say = Callable[[str], "str | tuple[str, Keyboard]"]
"""An answer in a given language: its HTML, or its HTML and buttons."""

ANSWER_WITHIN = 12.0
DAILY_PAYLOAD = "daily"
"""The /start payload of the link that opens the private chat to play the deal of the day."""
COMMANDS = ("newgame", "join", "leave", "cancel", "leaderboard", "stats", "review", "rules", "settings",
            "help", "start", "daily")


@dataclass(frozen=True, slots=True)
class Answer:
    text: str | None = None
    alert: bool = False
    url: str | None = None


class Handlers:
    def __init__(self, sessions: Sessions, presenter: Presenter) -> None:
        self.sessions = sessions
        self.presenter = presenter
        self.outbox = presenter.outbox
        self.throttle = CommandThrottle()
        self.reviews = ReviewPoster(presenter)
        self._tasks: set[asyncio.Task[None]] = set()

    def install(self, application: Application[Any, Any, Any, Any, Any, Any]) -> None:
        for name in COMMANDS:
            application.add_handler(CommandHandler(name, getattr(self, f"cmd_{name}")))
        application.add_handler(CallbackQueryHandler(self.on_tap))
        application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.on_migrated))
        application.add_handler(MessageHandler(filters.ChatType.GROUPS & ~filters.COMMAND,
                                               self.on_group_message))
        application.add_handler(ChatMemberHandler(self.on_my_status, ChatMemberHandler.MY_CHAT_MEMBER))

    # ---- helpers -----------------------------------------------------------------

    async def _reply(self, message: Message, lang: str, say: Say, reply_to: int | None = None) -> None:
        """Answer a command with `say(lang)`; in a group as `CommandThrottle` allows, so that the
        game's own messages keep their share of the group's allowance.

        An answer moved out of the group goes to the asker's private chat, in their own
        language, under a line saying why. One that cannot go there (its buttons act on the
        group, or the bot cannot write to the asker) waits for a place in the group's window
        instead: no answer is dropped."""
        asker = message.from_user
        html, keyboard = _said(say(lang))
        if is_group(message.chat) and asker is not None:
            asked = " ".join((message.text or "").lower().split())[:64]
            where = self.throttle.answer(str(message.chat.id), str(asker.id), asked)
            if where is CommandReply.NOT_AGAIN:
                return
            if where is CommandReply.PRIVATELY:
                player = await self.sessions.player(user_ref(asker))
                acts_on_group = any(button.data for row in keyboard for button in row)
                if self.presenter.reachable(player) and not acts_on_group:
                    own = self.presenter.language(player)
                    html, keyboard = _said(say(own))
                    why = escape(t(own, "telegram.moved_here", chat=message.chat.title or "—"))
                    self.outbox.post(asker.id, Content(f"<i>{why}</i>\n{html}", keyboard))
                    return
        topic = topic_of(message)
        posted = self.outbox.post(message.chat.id, Content(html, keyboard), reply_to or message.message_id,
                                  thread=topic)
        if is_group(message.chat):
            posted.add_done_callback(partial(self._posted, chat_ref(message.chat, topic)))

    def _posted(self, chat: ChatRef, done: asyncio.Future[int | None]) -> None:
        """An answer went out in a group: the table may now stand too far above."""
        message_id = None if done.cancelled() else done.result()
        if message_id is not None:
            self._noting(self.presenter.saw_message(chat, message_id))

    def _noting(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` beside the answer; a failure is logged, never shown to the asker."""
        async def logged() -> None:
            try:
                await work
            except Exception:
                log.exception("noting a group message failed")

        task = asyncio.create_task(logged())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def on_migrated(self, update: Update, context: Context) -> None:
        """A group became a supergroup: Telegram says so in the old group (`migrate_to_chat_id`)
        and in the new one (`migrate_from_chat_id`); either moves the group's games."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            await self.outbox.chat_moved(message.chat.id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id:
            await self.outbox.chat_moved(message.migrate_from_chat_id, message.chat.id)

    async def on_group_message(self, update: Update, context: Context) -> None:
        """Any message in a group (which the bot sees when its privacy mode is off)."""
        message, user = update.effective_message, update.effective_user
        if message is None or not is_group(message.chat):
            return
        cref = chat_ref(message.chat, topic_of(message))
        await self.sessions.chat(cref, user.language_code if user is not None else None)
        await self.presenter.saw_message(cref, message.message_id)

    async def _refuse(self, message: Message, lang: str, refused: Refused) -> None:
        await self._reply(message, lang, lambda lang: escape(refusal_text(refused, lang)))

    async def _context(self, update: Update) -> tuple[ChatRef, UserRef, PlayerProfile, str] | None:
        message, chat, user = update.effective_message, update.effective_chat, update.effective_user
        if message is None or chat is None or user is None or user.is_bot:
            return None
        uref = user_ref(user)
        player = await self.sessions.player(uref)
        cref = chat_ref(chat, topic_of(message))
        if is_group(chat):
            row = await self.sessions.chat(cref, uref.language)
            self._noting(self.presenter.saw_message(cref, message.message_id))
            self.presenter.set_chat_language(chat.id, row.language)
            lang = row.language
        else:
            lang = self.presenter.language(player)
        return cref, uref, player, lang

    async def _is_admin(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except TelegramError as exc:
            log.info("could not check admin status in %s: %s", chat_id, exc.message)
            return False
        return member.status in (ChatMember.OWNER, ChatMember.ADMINISTRATOR)

    async def _managed(self, bot: Bot, chat_id: int, user_id: int,
                       call: Callable[[bool], Awaitable[_T]]) -> _T:
        """`call` as a plain player first; if refused, again as a chat admin if they are one."""
        try:
            return await call(False)
        except Refused as refused:
            if refused.reason is not Reason.NOT_ALLOWED or not await self._is_admin(bot, chat_id, user_id):
                raise
        return await call(True)

    async def _may_manage(self, bot: Bot, chat_id: int, user_id: int, cref: ChatRef,
                          player: PlayerProfile) -> None:
        lobby = await self.sessions.lobby(cref)
        if lobby.creator_id != player.id and not await self._is_admin(bot, chat_id, user_id):
            raise Refused(Reason.NOT_ALLOWED)

    async def _outsider(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        """Whether the group says the user is not in it: anyone can open a public group, see
        its lobby and tap Join without joining. A group that cannot be asked (Telegram fails
        to answer) lets the user in: keeping a member out would be worse than letting in,
        now and then, someone who could see the game anyway."""
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except TelegramError as exc:
            log.info("could not check membership in %s: %s", chat_id, exc.message)
            return False
        if member.status in (ChatMember.LEFT, ChatMember.BANNED):
            return True
        return isinstance(member, ChatMemberRestricted) and not member.is_member

    async def _seat(self, bot: Bot, cref: ChatRef, uref: UserRef, player: PlayerProfile,
                    game_id: int | None = None) -> tuple[int, bool]:
        """Join (or re-check a waiting seat); True if the bot can write to the player."""
        if await self._outsider(bot, int(cref.key), int(uref.key)):
            raise Refused(Reason.NOT_MEMBER)
        reachable = self.presenter.reachable(player)
        try:
            lobby = await self.sessions.join(cref, uref, ready=reachable, game_id=game_id)
        except Refused as refused:
            if refused.reason is not Reason.ALREADY_JOINED:
                raise
            lobby = await self.sessions.lobby(cref)
            if not any(s.player_id == player.id for s in lobby.waiting):
                raise
        if reachable:
            return lobby.game_id, True
        return lobby.game_id, await self._probe(cref, uref, lobby.game_id)

    async def _probe(self, cref: ChatRef, uref: UserRef, game_id: int) -> bool:
        """Send the player's private message; if it arrives, their seat is ready."""
        if not await self.presenter.refresh_hand(game_id, uref.key):
            return False
        await self.presenter.set_reachable(uref, True)
        try:
            await self.sessions.join(cref, uref, ready=True, game_id=game_id)
        except Refused as refused:
            if refused.reason is not Reason.ALREADY_JOINED:
                raise
        return True

    async def _start_first(self, message: Message, lang: str, game_id: int) -> None:
        link = private_link(message.get_bot().username, game_id)
        await self._reply(message, lang, lambda lang: (
            escape(t(lang, "dm.start_first")), link_keyboard("🔒 " + t(lang, "button.open_private"), link)))

    # ---- commands ------------------------------------------------------------------

    async def cmd_start(self, update: Update, context: Context) -> None:
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        _, uref, _, lang = found
        if is_group(message.chat):
            await self.cmd_help(update, context)
            return
        await self.presenter.set_reachable(uref, True)
        game_id = parse_join_payload(context.args[0]) if context.args else None
        if game_id is not None:
            await self._deep_join(message, uref, lang, game_id)
            return
        if context.args and context.args[0] == DAILY_PAYLOAD:
            await self._daily(message, found[0], uref, lang)
            return
        await self._reply(message, lang, lambda lang: escape(t(lang, "dm.welcome")))
        for row in await self.sessions.games_of(uref):
            self.presenter.repost_hand(row.id, uref.key)

    async def _deep_join(self, message: Message, uref: UserRef, lang: str, game_id: int) -> None:
        """The private chat opened from a lobby's link: confirm the seat taken in the group.

        The link never seats anyone, and a refusal names no group: game numbers are
        sequential, so anyone can make such a link."""
        try:
            lobby = await self.sessions.confirm_seat(game_id, uref)
        except Refused as refused:
            if refused.reason is Reason.ALREADY_JOINED:
                self.presenter.repost_hand(game_id, uref.key)
            elif refused.reason is Reason.NOT_IN_LOBBY:
                await self._resume_hand(message, uref, lang, game_id)
            else:
                await self._reply(message, lang, lambda lang: escape(t(lang, "dm.join_in_group")))
            return
        self.presenter.repost_hand(lobby.game_id, uref.key)

    async def _resume_hand(self, message: Message, uref: UserRef, lang: str, game_id: int) -> None:
        try:
            await self.sessions.hand(game_id, uref)
        except Refused as refused:
            await self._refuse(message, lang, refused)
            return
        self.presenter.repost_hand(game_id, uref.key)

    async def cmd_help(self, update: Update, context: Context) -> None:
        found = await self._context(update)
        if found is None or update.effective_message is None:
            return
        cref, lang = found[0], found[3]
        style = "napoletane"
        if is_group(update.effective_message.chat):
            style = str((await self.sessions.chat(cref)).defaults.get("deck_style", style))
        await self._reply(update.effective_message, lang, lambda lang: escape(
            t(lang, "help.text") + "\n\n" + t(lang, "telegram.help.extra") + "\n\n"
            + accuracy_help(lang) + "\n\n" + t(lang, "daily.help") + "\n\n"
            + card_legend(style, lang, buttons=True)))

    async def _group_only(
            self, update: Update) -> tuple[Message, ChatRef, UserRef, PlayerProfile, str] | None:
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return None
        if not is_group(message.chat):
            await self._reply(message, found[3], lambda lang: escape(t(lang, "telegram.group_only")))
            return None
        return (message, *found)

    async def cmd_newgame(self, update: Update, context: Context) -> None:
        found = await self._group_only(update)
        if found is None:
            return
        message, cref, uref, player, lang = found
        reachable = self.presenter.reachable(player)
        try:
            variant = variant_named(" ".join(context.args)) if context.args else None
            lobby = await self.sessions.new_game(cref, uref, variant, ready=reachable)
        except Refused as refused:
            if refused.reason is Reason.GAME_OPEN:
                await self._point_to_game(message, lang, int(refused.params["game_id"]))
            else:
                await self._refuse(message, lang, refused)
            return
        if not reachable and not await self._probe(cref, uref, lobby.game_id):
            await self._start_first(message, lang, lobby.game_id)

    async def _point_to_game(self, message: Message, lang: str, game_id: int) -> None:
        shown_in = await self.outbox.message_of(table_target(game_id, message.chat.id))
        link = message_link(message.chat.id, shown_in, message.chat.username) if shown_in else None

        def say(lang: str) -> tuple[str, Keyboard]:
            keyboard = link_keyboard(t(lang, "telegram.button.go_to_game"), link) if link else ()
            return escape(refusal_text(Refused(Reason.GAME_OPEN), lang)), keyboard

        await self._reply(message, lang, say, reply_to=shown_in)

    async def cmd_join(self, update: Update, context: Context) -> None:
        found = await self._group_only(update)
        if found is None:
            return
        message, cref, uref, player, lang = found
        try:
            game_id, reachable = await self._seat(message.get_bot(), cref, uref, player)
        except Refused as refused:
            await self._refuse(message, lang, refused)
            return
        if not reachable:
            await self._start_first(message, lang, game_id)

    async def cmd_leave(self, update: Update, context: Context) -> None:
        found = await self._group_only(update)
        if found is None:
            return
        message, cref, uref, player, lang = found
        try:
            await self._leave(cref, uref, player)
        except Refused as refused:
            await self._refuse(message, lang, refused)

    async def _leave(self, cref: ChatRef, uref: UserRef, player: PlayerProfile,
                     from_lobby: bool = False) -> None:
        game_id = await self.sessions.open_game_id(cref)
        view = await self.sessions.leave(cref, uref, from_lobby=from_lobby)
        if game_id is not None and view.status != GameStatus.RUNNING and self.presenter.reachable(player):
            self.presenter.refresh_hand(game_id, uref.key)

    async def cmd_cancel(self, update: Update, context: Context) -> None:
        found = await self._group_only(update)
        if found is None:
            return
        message, cref, uref, _, lang = found
        try:
            await self._managed(message.get_bot(), message.chat.id, int(uref.key),
                                lambda admin: self.sessions.cancel(cref, uref, is_admin=admin))
        except Refused as refused:
            await self._refuse(message, lang, refused)

    async def cmd_leaderboard(self, update: Update, context: Context) -> None:
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        cref, _, _, lang = found
        everyone = not is_group(message.chat) or bool(
            context.args and context.args[0].lower() in ("global", "globale", "all", "tutti"))
        rows = await self.sessions.leaderboard(None if everyone else cref)
        game = await self.sessions.chat_game(cref if is_group(message.chat) else None)
        await self._reply(message, lang, lambda lang: escape(leaderboard_text(rows, lang, everyone, game)))

    async def cmd_stats(self, update: Update, context: Context) -> None:
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        cref, uref, player, lang = found
        stats = await self.sessions.stats(uref)
        game = await self.sessions.chat_game(cref if is_group(message.chat) else None)
        name = player.display_name
        await self._reply(message, lang, lambda lang: escape(stats_text(name, stats, lang, game)))

    async def cmd_review(self, update: Update, context: Context) -> None:
        """The review of the chat's last finished match (in a private chat: refused, there is none)."""
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        cref, uref, _, lang = found
        try:
            game_id = await self.sessions.last_finished(cref)
            answer = await self._review(message.get_bot().username, game_id, uref, lang)
        except Refused as refused:
            await self._refuse(message, lang, refused)
            return
        if answer.url is not None:
            url = answer.url
            await self._reply(message, lang, lambda lang: (
                escape(t(lang, "dm.start_first")),
                link_keyboard("🔒 " + t(lang, "button.open_private"), url)))
            return
        await self._reply(message, lang, lambda lang: escape(t(lang, "review.sent")))

    async def _review(self, bot_username: str, game_id: int, uref: UserRef, lang: str) -> Answer:
        """Work out (or read back) the review and post it (`ReviewPoster`); the asker is told
        where it went, or how to open the private chat it goes to."""
        found = await self.sessions.review(game_id, uref)
        if not await self.reviews.deliver(found):
            return Answer(t(lang, "dm.start_first"), url=f"https://t.me/{bot_username}?start=review")
        return Answer(t(lang, "review.sent"))

    async def cmd_daily(self, update: Update, context: Context) -> None:
        """/daily: the deal of the day, played in the asker's private chat; `/daily board
        [global]`: today's board of the chat (in private, or with `global`: everyone's)."""
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        cref, uref, player, lang = found
        words = [word.lower() for word in context.args or ()]
        if words and words[0] in BOARD_WORDS:
            everyone = not is_group(message.chat) or (len(words) > 1 and words[1] in EVERYONE_WORDS)
            board = await self.sessions.daily_board(None if everyone else cref)
            await self._reply(message, lang, lambda lang: escape(daily_board_text(board, lang)))
            return
        if is_group(message.chat) and not self.presenter.reachable(player):
            url = f"https://t.me/{message.get_bot().username}?start={DAILY_PAYLOAD}"
            await self._reply(message, lang, lambda lang: (
                escape(t(lang, "dm.start_first")),
                link_keyboard("🔒 " + t(lang, "button.open_private"), url)))
            return
        await self._daily(message, cref, uref, lang)

    async def _daily(self, message: Message, cref: ChatRef, uref: UserRef, lang: str) -> None:
        """Start the deal in the asker's private chat (a private chat's id is its user's); it
        counts on the board of `cref`, where it was asked for."""
        home = ChatRef(PLATFORM, uref.key, uref.name)
        try:
            start = await self.sessions.daily(cref, home, uref)
        except Refused as refused:
            await self._refuse(message, lang, refused)
            return
        if is_group(message.chat):
            await self._reply(message, lang, lambda lang: escape(daily_sent_text(start, lang)))
            player = await self.sessions.player(uref)
            own = self.presenter.language(player)
            self.outbox.post(int(uref.key), Content(escape(daily_started_text(start, own))))
            return
        await self._reply(message, lang, lambda lang: escape(daily_started_text(start, lang)))

    async def cmd_rules(self, update: Update, context: Context) -> None:
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        cref, _, _, lang = found
        asked = context.args[0] if context.args else None
        try:
            variant, rules = await interaction.rules_to_show(
                self.sessions, cref if is_group(message.chat) else None, asked)
        except Refused as refused:
            await self._refuse(message, lang, refused)
            return
        await self._reply(message, lang, lambda lang: escape(rules_text(variant, rules, lang)))

    async def cmd_settings(self, update: Update, context: Context) -> None:
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        cref, _, _, lang = found
        chat = await self.sessions.chat(cref) if is_group(message.chat) else None
        await self._reply(message, lang, lambda lang: settings_answer(chat, lang))

    async def on_my_status(self, update: Update, context: Context) -> None:
        """A user blocked or unblocked the bot in their private chat."""
        change = update.my_chat_member
        if change is None or change.chat.type != change.chat.PRIVATE:
            return
        if change.new_chat_member.status in (ChatMember.BANNED, ChatMember.LEFT):
            await self.presenter.user_forbidden(change.chat.id)
        elif change.new_chat_member.status == ChatMember.MEMBER:
            await self.presenter.set_reachable(user_ref(change.from_user), True)

    # ---- buttons -------------------------------------------------------------------

    async def on_tap(self, update: Update, context: Context) -> None:
        query = update.callback_query
        if query is None:
            return
        tapped = decode(query.data)
        late = partial(Answer, away_text(query.from_user.language_code), alert=True)
        if tapped is not None and tapped.action in (Action.PLAY, Action.DECLARE):
            async with self.outbox.first():
                await self._answer(query, await in_time(self._settle(query, tapped), late))
        else:
            await self._answer(query, await in_time(self._settle(query, tapped), late))

    async def _settle(self, query: CallbackQuery, tapped: Tap | None) -> Answer:
        """What a tap is answered with; a refusal or a failure is an alert, and changed nothing."""
        lang = language_of(query.from_user.language_code)
        try:
            uref = user_ref(query.from_user)
            player = await self.sessions.player(uref)
            lang = self.presenter.language(player)
            if tapped is None:
                return Answer(t(lang, "telegram.bad_button"), alert=True)
            return await self._tap(query, tapped, uref, player, lang)
        except Refused as refused:
            return Answer(refusal_text(refused, lang), alert=True)
        except Exception as exc:
            log.exception("tap failed")
            return Answer(failure_text(exc, lang), alert=True)

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

    async def _tap(self, query: CallbackQuery, tapped: Tap, uref: UserRef, player: PlayerProfile,
                   lang: str) -> Answer:
        action, game_id = tapped.action, tapped.game_id
        if action in (Action.PLAY, Action.DECLARE):
            assert tapped.version is not None
            await interaction.play(self.sessions, game_id, uref, tapped.version, tapped.arg,
                                   declaring=action is Action.DECLARE)
            return Answer()
        if action in (Action.CAPTURE, Action.DECLARE_CAPTURE):
            return await self._capture_tap(tapped, uref)
        if action in (Action.CHOOSE, Action.BACK, Action.WAIT, Action.SHOW_HAND, Action.FUORI,
                      Action.FUORI_CHOOSE, Action.IDLE):
            return await self._hand_tap(tapped, uref, lang)
        if action is Action.TAKE_BACK:
            await self.sessions.set_autoplay(game_id, uref, False)
            return Answer(t(lang, "play.autoplay_off", name=player.display_name))
        if action is Action.REMATCH:
            await self.sessions.rematch(game_id, uref)
            return Answer()
        if action is Action.REVIEW:
            return await self._review(query.get_bot().username, game_id, uref, lang)
        if action is Action.HINT:
            assert tapped.version is not None
            given = await interaction.hint(self.sessions, game_id, uref, tapped.version)
            return Answer(hint_text(given.hint, lang, given.variant, given.deck_style), alert=True)
        message = query.message
        if message is None:
            raise Refused(Reason.BAD_INPUT)
        if action is Action.SETTING:
            return await self._setting(query, tapped, uref, player, lang)
        if not is_group(message.chat):
            raise Refused(Reason.BAD_INPUT)
        return await self._lobby_tap(query, tapped, chat_ref(message.chat, topic_of(message)), uref, player,
                                     lang)

    async def _hand_tap(self, tapped: Tap, uref: UserRef, lang: str) -> Answer:
        game_id = tapped.game_id
        if tapped.action is Action.SHOW_HAND:
            return Answer(hand_alert(await self.sessions.hand(game_id, uref), lang), alert=True)
        if tapped.action is Action.WAIT:
            hand = await self.sessions.hand(game_id, uref)
            return Answer(refusal_text(Refused(Reason.NOT_YOUR_TURN), lang) if not hand.my_turn
                          else t(lang, "telegram.card_not_playable"), alert=True)
        if tapped.version is None:
            raise Refused(Reason.BAD_INPUT)
        version = tapped.version
        if tapped.action is Action.BACK:
            prompt: HandPrompt | None = await interaction.back(self.sessions, game_id, uref, version)
        elif tapped.action is Action.FUORI:
            prompt = await interaction.open_fuori(self.sessions, game_id, uref, version)
        else:
            declaring = HandPrompt(HandMode.DECLARING) if tapped.action is Action.FUORI_CHOOSE else PLAIN
            prompt = await interaction.tap_card(self.sessions, game_id, uref, version, tapped.arg, declaring)
        if prompt is not None:
            await self.presenter.set_prompt(game_id, uref.key, version, prompt)
            self.presenter.refresh_hand(game_id, uref.key)
        return Answer()

    async def _capture_tap(self, tapped: Tap, uref: UserRef) -> Answer:
        """A play sent by its place among its card's captures (one too long to name)."""
        assert tapped.version is not None
        await interaction.play_capture(self.sessions, tapped.game_id, uref, tapped.version, tapped.arg,
                                       tapped.index, declaring=tapped.action is Action.DECLARE_CAPTURE)
        return Answer()

    async def _lobby_tap(self, query: CallbackQuery, tapped: Tap, cref: ChatRef, uref: UserRef,
                         player: PlayerProfile, lang: str) -> Answer:
        action, game_id = tapped.action, tapped.game_id
        bot, chat_id, user_id = query.get_bot(), int(cref.key), query.from_user.id
        if action is Action.JOIN:
            joined, reachable = await self._seat(bot, cref, uref, player, game_id)
            if not reachable:
                return Answer(t(lang, "dm.start_first"), url=private_link(bot.username, joined))
            return Answer()
        await interaction.require_open_game(self.sessions, cref, game_id)
        if action is Action.LEAVE:
            await self._leave(cref, uref, player, from_lobby=True)
        elif action is Action.ADD_COMPUTER:
            await self._managed(bot, chat_id, user_id, lambda admin: self.sessions.add_computer(
                cref, uref, tapped.arg, is_admin=admin))
        elif action is Action.REMOVE_COMPUTERS:
            await self._managed(bot, chat_id, user_id, lambda admin: self.sessions.remove_computers(
                cref, uref, is_admin=admin))
        elif action is Action.START:
            await self._managed(bot, chat_id, user_id, lambda admin: self.sessions.start(
                cref, uref, is_admin=admin))
        elif action is Action.CANCEL:
            await self._managed(bot, chat_id, user_id, lambda admin: self.sessions.cancel(
                cref, uref, is_admin=admin))
        elif action is Action.MENU:
            await self._may_manage(bot, chat_id, user_id, cref, player)
            self.presenter.menus[game_id] = tapped.arg
            self.presenter.refresh_table(game_id, chat_id, thread=topic_id(cref.thread))
        elif action is Action.OPTION:
            key, value = tapped.option
            if key == "turn_limit":
                await self._may_manage(bot, chat_id, user_id, cref, player)
                await self.sessions.set_turn_limit(cref, value)
            else:
                await self._managed(bot, chat_id, user_id, lambda admin: self.sessions.set_option(
                    cref, uref, key, value, is_admin=admin))
            self.presenter.menus[game_id] = "house" if key in HOUSE_OPTIONS else "options"
            self.presenter.refresh_table(game_id, chat_id, thread=topic_id(cref.thread))
        return Answer()

    async def _redraw_game_of(self, cref: ChatRef, chat_id: int) -> None:
        """The open game of the chat (of its topic asked in) drawn again (its table and its players'
        hands) after a setting changed."""
        open_game = await self.sessions.open_game_id(cref)
        if open_game is not None:
            self.presenter.refresh_table(open_game, chat_id, thread=topic_id(cref.thread))
            await self.presenter.refresh_hands(open_game)

    async def _setting(self, query: CallbackQuery, tapped: Tap, uref: UserRef, player: PlayerProfile,
                       lang: str) -> Answer:
        message = query.message
        assert message is not None
        key, _, value = tapped.arg.partition("=")
        group = is_group(message.chat)
        cref = chat_ref(message.chat, topic_of(message))
        if key.startswith("c"):
            if not group:
                raise Refused(Reason.BAD_INPUT)
            if not await self._is_admin(query.get_bot(), message.chat.id, query.from_user.id):
                return Answer(t(lang, "telegram.settings.admins"), alert=True)
            if key == "cl":
                await self.sessions.set_chat_language(cref, value)
                self.presenter.set_chat_language(message.chat.id, value)
                await self._redraw_game_of(cref, message.chat.id)
            elif key == "ct":
                await self.sessions.set_turn_limit(cref, value)
            elif key == "cp":
                await self.sessions.set_pictures(cref, value == "on")
                self.presenter.set_chat_pictures(message.chat.id, value == "on")
                await self._redraw_game_of(cref, message.chat.id)
            else:
                chat = await self.sessions.chat(cref)
                await self.sessions.set_chat_defaults(cref, {**chat.defaults, "variant": value})
            shown_lang = await self.presenter.chat_language(message.chat.id)
        else:
            if group:
                raise Refused(Reason.BAD_INPUT)
            await self.sessions.set_player_language(uref, value)
            self.presenter.set_language(uref.key, value)
            for row in await self.sessions.games_of(uref):
                self.presenter.refresh_hand(row.id, uref.key)
            shown_lang = value
        html, keyboard = settings_answer(await self.sessions.chat(cref) if group else None, shown_lang)
        self.outbox.update(Target(message.chat.id, message_id=message.message_id),
                           _constant(Content(html, keyboard)))
        return Answer(t(shown_lang, "settings.saved"))


def settings_answer(chat: ChatSettings | None, lang: str) -> tuple[str, Keyboard]:
    """/settings: a group's (`chat`) for its admins, or in private the asker's language."""
    if chat is None:
        text = t(lang, "settings.title") + "\n" + t(
            lang, "settings.language", language=t(lang, f"telegram.language.{lang}"))
        return escape(text), settings_keyboard(lang, False, {"ul": lang})
    variant = str(chat.defaults.get("variant", "scopa"))
    text = "\n".join([
        t(lang, "settings.title"),
        t(lang, "settings.language", language=t(lang, f"telegram.language.{chat.language}")),
        t(lang, "settings.turn_limit", seconds=chat.turn_limit),
        t(lang, "telegram.settings.pictures",
          mode=t(lang, f"telegram.pictures.{'on' if chat.pictures else 'off'}")),
        t(lang, "telegram.settings.variant", variant=t(lang, f"variant.{variant}")),
        t(lang, "telegram.settings.admins"),
    ])
    current = {"cl": chat.language, "ct": str(chat.turn_limit), "cv": variant,
               "cp": "on" if chat.pictures else "off"}
    return escape(text), settings_keyboard(lang, True, current)


def _said(said: str | tuple[str, Keyboard]) -> tuple[str, Keyboard]:
    return (said, ()) if isinstance(said, str) else said


def _constant(content: Content) -> Callable[[], Awaitable[Content | None]]:
    async def render() -> Content | None:
        return content

    return render
