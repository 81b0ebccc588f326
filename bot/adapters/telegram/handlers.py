"""Commands, translated into sessions calls (button taps: `taps.py`).

Who is asking always comes from Telegram's update; the sessions decide whether
it is allowed (`Sessions.handle` for what changes a chat's game).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import Any

from telegram import ChatMember, Message, Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from ... import metrics
from ...i18n import language_of, t
from ...render.boards import leaderboard_text, stats_text
from ...render.daily import daily_board_text
from ...render.review import accuracy_help
from ...render.season import history_text, season_text, unknown_player_text
from ...render.words import card_legend, newgame_help, refusal_text, rules_text
from ...sessions import (
    ChatRef,
    PlayerProfile,
    Reason,
    Refused,
    Sessions,
    UserRef,
    interaction,
)
from ...sessions.boards import asks_for_everyone
from ...sessions.commands import (
    AskDaily,
    AskReview,
    CancelGame,
    Command,
    ConfirmSeat,
    JoinGame,
    LeaveGame,
    NewGame,
    ShowPuzzle,
)
from ...sessions.daily import daily_request
from ...sessions.replies import Refusal
from ...sessions.seasons import season_request
from ...sessions.tap import Asker, Reply
from ...sessions.throttle import CommandReply, CommandThrottle
from .askers import asker
from .drawing import DAILY_PAYLOAD, Asked
from .identity import (
    chat_ref,
    is_group,
    message_link,
    parse_join_payload,
    topic_id,
    topic_of,
    user_ref,
)
from .keyboards import Keyboard, link_keyboard
from .markup import escape
from .outbox import Content
from .present import Presenter, table_target
from .privacy import PrivacyHandlers
from .seasons import season_content, season_subject
from .settings_view import settings_answer
from .taps import TapHandlers
from .tournament import TournamentFront

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE

Say = Callable[[str], "str | tuple[str, Keyboard]"]
"""An answer in a given language: its HTML, or its HTML and buttons."""

COMMANDS = ("newgame", "join", "leave", "cancel", "leaderboard", "stats", "review", "rules", "settings",
            "help", "start", "daily", "puzzle", "season")


Found = tuple[Message, ChatRef, UserRef, PlayerProfile, str]
"""A command in a group: its message, the group, the asker, their profile and the group's language."""


def _counted(name: str, handler: Callable[[Update, Context], Awaitable[None]]
             ) -> Callable[[Update, Context], Coroutine[Any, Any, None]]:
    """`handler` of the command `name`, counted in the metrics by its outcome."""
    async def counted(update: Update, context: Context) -> None:
        metrics.command_began()
        try:
            await handler(update, context)
        except Exception:
            metrics.command("telegram", name, failed=True)
            raise
        metrics.command("telegram", name)

    return counted


class Handlers:
    def __init__(self, sessions: Sessions, presenter: Presenter) -> None:
        self.sessions = sessions
        self.presenter = presenter
        self.outbox = presenter.outbox
        self.throttle = CommandThrottle()
        self.taps = TapHandlers(sessions, presenter)
        self.privacy = PrivacyHandlers(sessions, presenter.outbox)
        self.tournament = TournamentFront(sessions, presenter)
        self._tasks: set[asyncio.Task[None]] = set()

    def install(self, application: Application[Any, Any, Any, Any, Any, Any]) -> None:
        for name in COMMANDS:
            application.add_handler(CommandHandler(name, _counted(name, getattr(self, f"cmd_{name}"))))
        self.privacy.install(application)
        self.tournament.install(application)
        application.add_handler(CallbackQueryHandler(self.taps.on_tap))
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
        sender = message.from_user
        html, keyboard = _said(say(lang))
        if is_group(message.chat) and sender is not None:
            asked = " ".join((message.text or "").lower().split())[:64]
            where = self.throttle.answer(str(message.chat.id), str(sender.id), asked)
            if where is CommandReply.NOT_AGAIN:
                return
            if where is CommandReply.PRIVATELY:
                player = await self.sessions.queries.player(user_ref(sender))
                acts_on_group = any(button.data for row in keyboard for button in row)
                if self.presenter.reachable(player) and not acts_on_group:
                    own = self.presenter.language(player)
                    html, keyboard = _said(say(own))
                    why = escape(t(own, "telegram.moved_here", chat=chat_ref(message.chat).title or "—"))
                    self.outbox.post(sender.id, Content(f"<i>{why}</i>\n{html}", keyboard))
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
        await self.sessions.queries.chat(cref, user.language_code if user is not None else None)
        await self.presenter.saw_message(cref, message.message_id)

    async def _refuse(self, message: Message, lang: str, refused: Refused) -> None:
        metrics.refused()
        await self._reply(message, lang, lambda lang: escape(refusal_text(refused, lang)))

    async def _context(self, update: Update) -> tuple[ChatRef, UserRef, PlayerProfile, str] | None:
        message, chat, user = update.effective_message, update.effective_chat, update.effective_user
        if message is None or chat is None or user is None or user.is_bot:
            return None
        uref = user_ref(user)
        try:
            await self.sessions.queries.admit(uref)
        except Refused as refused:
            await self._refuse(message, language_of(user.language_code), refused)
            return None
        player = await self.sessions.queries.player(uref)
        cref = chat_ref(chat, topic_of(message))
        if is_group(chat):
            row = await self.sessions.queries.chat(cref, uref.language)
            self._noting(self.presenter.saw_message(cref, message.message_id))
            lang = row.language
        else:
            lang = self.presenter.language(player)
        return cref, uref, player, lang

    async def _drawn(self, message: Message, who: Asker, lang: str, reply: Reply) -> None:
        """A command's reply drawn (`drawing`) and given as the command's answer: its message,
        or its words (with the button to the private chat where they link there)."""
        drawn = await self.taps.drawer.draw(reply, Asked(who, lang, message.get_bot().username))
        if drawn.outcome == "refused":
            metrics.refused()
        words, link, own = drawn.words, drawn.link, drawn.message
        if own is not None:
            await self._reply(message, lang, own)
        elif words is not None and link is not None:
            await self._reply(message, lang, lambda lang: (
                escape(words(lang)), link_keyboard("🔒 " + t(lang, "button.open_private"), link)))
        elif words is not None:
            await self._reply(message, lang, lambda lang: escape(words(lang)))
        if drawn.then is not None:
            await drawn.then()

    # ---- commands ------------------------------------------------------------------

    async def cmd_start(self, update: Update, context: Context) -> None:
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        _, uref, player, lang = found
        if is_group(message.chat):
            await self.cmd_help(update, context)
            return
        await self.presenter.set_reachable(uref, True)
        game_id = parse_join_payload(context.args[0]) if context.args else None
        if game_id is not None:
            await self._deep_join(message, uref, player, lang, game_id)
            return
        if context.args and context.args[0] == DAILY_PAYLOAD:
            await self._daily(message, found[0], uref, found[2], lang)
            return
        await self._reply(message, lang, lambda lang: escape(t(lang, "dm.welcome")))
        for row in await self.sessions.queries.games_of(uref):
            self.presenter.repost_hand(row.id, uref.key)

    async def _deep_join(self, message: Message, uref: UserRef, player: PlayerProfile, lang: str,
                         game_id: int) -> None:
        """The private chat opened from a lobby's link (`Taps.seat_confirmed`): the hand posted
        anew, or why not."""
        assert message.from_user is not None
        who = asker(self.presenter, message.get_bot(), message.from_user, uref, player, None)
        await self._drawn(message, who, lang, await self.sessions.handle(who, ConfirmSeat(game_id)))

    async def cmd_help(self, update: Update, context: Context) -> None:
        found = await self._context(update)
        if found is None or update.effective_message is None:
            return
        cref, lang = found[0], found[3]
        chat = cref if is_group(update.effective_message.chat) else None
        style = await interaction.deck_to_show(self.sessions, chat)
        variant = await interaction.variant_to_show(self.sessions, chat)
        await self._reply(update.effective_message, lang, lambda lang: escape(
            t(lang, "help.text") + "\n\n" + newgame_help(lang, variant=variant) + "\n\n"
            + t(lang, "telegram.help.extra") + "\n\n" + t(lang, "telegram.help.solo")
            + "\n\n" + accuracy_help(lang) + "\n\n" + t(lang, "daily.help") + "\n\n"
            + t(lang, "season.help") + "\n\n" + t(lang, "tournament.help") + "\n"
            + t(lang, "duplicate.help") + "\n\n"
            + t(lang, "privacy.help") + "\n\n" + card_legend(style, lang, buttons=True)))

    async def _group_only(self, update: Update) -> Found | None:
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return None
        if not is_group(message.chat):
            await self._reply(message, found[3], lambda lang: escape(t(lang, "telegram.group_only")))
            return None
        return (message, *found)

    async def _here(self, update: Update) -> Found | None:
        """A command on the game of the chat it was typed in: a group's, or the asker's own in
        their private chat (a match against the computer there)."""
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return None
        if not is_group(message.chat):
            await self.presenter.set_reachable(found[1], True)
        return (message, *found)

    async def _command(self, found: Found, command: Command) -> None:
        """A command that changes the chat's game: handled by the sessions, its reply drawn."""
        message, cref, uref, player, lang = found
        assert message.from_user is not None
        group = cref if is_group(message.chat) else None
        who = asker(self.presenter, message.get_bot(), message.from_user, uref, player, group)
        reply = await self.sessions.handle(who, command)
        if isinstance(reply, Refusal):
            refused = reply.refused
            if refused.reason is Reason.GAME_OPEN and "game_id" in refused.params:
                await self._point_to_game(message, lang, int(refused.params["game_id"]))
            else:
                await self._refuse(message, lang, refused)
            return
        await self._drawn(message, who, lang, reply)

    async def cmd_newgame(self, update: Update, context: Context) -> None:
        found = await self._here(update)
        if found is not None:
            line = " ".join(context.args or ())
            await self._command(found, NewGame(line=line))

    async def _point_to_game(self, message: Message, lang: str, game_id: int) -> None:
        shown_in = await self.outbox.message_of(table_target(game_id, message.chat.id))
        link = message_link(message.chat.id, shown_in, message.chat.username) if shown_in else None

        def say(lang: str) -> tuple[str, Keyboard]:
            keyboard = link_keyboard(t(lang, "telegram.button.go_to_game"), link) if link else ()
            return escape(refusal_text(Refused(Reason.GAME_OPEN), lang)), keyboard

        await self._reply(message, lang, say, reply_to=shown_in)

    async def cmd_join(self, update: Update, context: Context) -> None:
        found = await self._group_only(update)
        if found is not None:
            await self._command(found, JoinGame())

    async def cmd_leave(self, update: Update, context: Context) -> None:
        found = await self._group_only(update)
        if found is not None:
            await self._command(found, LeaveGame())

    async def cmd_cancel(self, update: Update, context: Context) -> None:
        found = await self._here(update)
        if found is not None:
            await self._command(found, CancelGame())

    async def cmd_leaderboard(self, update: Update, context: Context) -> None:
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        cref, _, _, lang = found
        everyone = not is_group(message.chat) or asks_for_everyone(context.args or ())
        rows = await self.sessions.queries.leaderboard(None if everyone else cref)
        game = await self.sessions.queries.chat_game(cref if is_group(message.chat) else None)
        title = chat_ref(message.chat).title if is_group(message.chat) else None
        await self._reply(message, lang, lambda lang: escape(leaderboard_text(rows, lang, everyone, game,
                                                                              title)))

    async def cmd_season(self, update: Update, context: Context) -> None:
        """The group's season this month (in a private chat, or with `global`: everyone's), last
        month's with `last`, or a player's past seasons: a name typed after it, a mention, or the
        author of the message it replies to."""
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        cref, uref, _, lang = found
        ask = season_request(context.args or ())
        group = cref if is_group(message.chat) and not ask.everyone else None
        subject = season_subject(message, ask)
        if subject is not None:
            history = await self.sessions.queries.seasons_of(group, subject)
            await self._reply(message, lang, lambda lang: escape(
                history_text(history, lang) if history is not None
                else unknown_player_text(ask.player, lang)))
            return
        board = await self.sessions.queries.season(group, last=ask.last, asker=uref)
        if await self.presenter.draws_pictures(message.chat.id):
            self.outbox.post(message.chat.id, season_content(board, lang, True), message.message_id,
                             thread=topic_id(cref.thread))
            return
        await self._reply(message, lang, lambda lang: escape(season_text(board, lang)))

    async def cmd_stats(self, update: Update, context: Context) -> None:
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        cref, uref, player, lang = found
        stats = await self.sessions.queries.stats(uref)
        game = await self.sessions.queries.chat_game(cref if is_group(message.chat) else None)
        name = player.display_name
        await self._reply(message, lang, lambda lang: escape(stats_text(name, stats, lang, game)))

    async def cmd_review(self, update: Update, context: Context) -> None:
        """The asker's review of the group's last finished match, or in a private chat of their
        own last finished match, wherever it was played."""
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        cref, uref, player, lang = found
        assert message.from_user is not None
        group = cref if is_group(message.chat) else None
        who = asker(self.presenter, message.get_bot(), message.from_user, uref, player, group)
        asked = await self.sessions.handle(who, AskReview())
        if isinstance(asked, Refusal):
            await self._refuse(message, lang, asked.refused)
            return
        await self._drawn(message, who, lang, asked)

    async def cmd_daily(self, update: Update, context: Context) -> None:
        """/daily: the deal of the day, played in the asker's private chat; `/daily board
        [global]`: today's board of the chat (in private, or with `global`: everyone's)."""
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None:
            return
        cref, uref, player, lang = found
        try:
            board, everyone = daily_request(context.args or ())
        except Refused as refused:
            await self._refuse(message, lang, refused)
            return
        await self._daily(message, cref, uref, player, lang, board=board, everyone=everyone)

    async def _daily(self, message: Message, cref: ChatRef, uref: UserRef, player: PlayerProfile,
                     lang: str, *, board: bool = False, everyone: bool = False) -> None:
        """The deal, played in the asker's private chat (a private chat's id is its user's) and
        counted on the board of `cref`, where it was asked for; or the board."""
        assert message.from_user is not None
        group = cref if is_group(message.chat) else None
        who = asker(self.presenter, message.get_bot(), message.from_user, uref, player, group)
        if board:
            shown = await self.sessions.queries.daily_board(None if everyone else who.chat)
            await self._reply(message, lang, lambda lang: escape(daily_board_text(shown, lang)))
            return
        reply = await self.sessions.handle(who, AskDaily())
        if isinstance(reply, Refusal):
            await self._refuse(message, lang, reply.refused)
            return
        await self._drawn(message, who, lang, reply)

    async def cmd_puzzle(self, update: Update, context: Context) -> None:
        """A position from the group's finished matches (in a private chat: the asker's own)."""
        found = await self._context(update)
        message = update.effective_message
        if found is None or message is None or message.from_user is None:
            return
        cref, uref, player, lang = found
        group = cref if is_group(message.chat) else None
        who = asker(self.presenter, message.get_bot(), message.from_user, uref, player, group)
        await self._drawn(message, who, lang, await self.sessions.handle(who, ShowPuzzle()))

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
        cref, _, player, lang = found
        chat = await self.sessions.queries.chat(cref) if is_group(message.chat) else None
        await self._reply(message, lang, lambda lang: settings_answer(chat, lang, not player.quiet_turns))

    async def on_my_status(self, update: Update, context: Context) -> None:
        """A user blocked or unblocked the bot in their private chat."""
        change = update.my_chat_member
        if change is None or change.chat.type != change.chat.PRIVATE:
            return
        if change.new_chat_member.status in (ChatMember.BANNED, ChatMember.LEFT):
            await self.presenter.user_forbidden(change.chat.id)
        elif change.new_chat_member.status == ChatMember.MEMBER:
            await self.presenter.set_reachable(user_ref(change.from_user), True)


def _said(said: str | tuple[str, Keyboard]) -> tuple[str, Keyboard]:
    return (said, ()) if isinstance(said, str) else said
