"""What each slash command does, translated into sessions calls.

Personal answers (your stats, the rules, settings, refusals) are ephemeral
and in the player's language; the leaderboard is posted for the channel, in
the channel's language.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable
from typing import Any

import discord

from ...i18n import t
from ...render.boards import leaderboard_text, stats_text
from ...render.daily import daily_board_text
from ...render.review import accuracy_help
from ...render.words import card_legend, failure_text, newgame_help, refusal_text, rules_text
from ...sessions import (
    ChatRef,
    ChatSettings,
    Reason,
    Refused,
    Sessions,
    UserRef,
    language_of,
)
from ...sessions.commands import AskDaily, AskReview, ChangeSettings, NewGame, ShowPuzzle
from ...sessions.interaction import deck_to_show, rules_to_show, variant_to_show
from ...sessions.replies import Refusal
from ...sessions.reviews import MatchReview
from ...sessions.tap import Asker, Setting
from ...sessions.views import player_language
from ..common.failures import log_failure
from .components import link
from .drawing import Asked, ReplyDrawer
from .embeds import text_embed
from .identity import asker, chat_ref, is_admin, language_hint, message_link, missing_permissions, user_ref
from .presenter import Presenter
from .replies import Reply, answer
from .reviews import review_reply
from .seasons import season_reply
from .tournament import TournamentFront

log = logging.getLogger(__name__)


class CommandHandlers:
    def __init__(self, sessions: Sessions, presenter: Presenter, *, ack_after: float,
                 tournaments: TournamentFront) -> None:
        self.sessions = sessions
        self.presenter = presenter
        self.ack_after = ack_after
        self.drawer = ReplyDrawer(sessions, presenter)
        self.tournaments = tournaments

    async def _run(self, interaction: discord.Interaction, work: Awaitable[Reply], *,
                   ephemeral: bool = True) -> None:
        await answer(interaction, self._guard(interaction, work), ack_after=self.ack_after,
                     thinking=ephemeral)

    async def _guard(self, interaction: discord.Interaction, work: Awaitable[Reply]) -> Reply:
        lang = language_of(interaction.locale.value)
        try:
            await self.sessions.queries.admit(user_ref(interaction))
        except Refused as refused:
            if inspect.iscoroutine(work):
                work.close()
            return Reply.note(refusal_text(refused, lang))
        try:
            return await work
        except Refused as refused:
            lang = await self._language(user_ref(interaction))
            return Reply.note(refusal_text(refused, lang))
        except Exception as exc:
            log_failure(log, f"command {interaction.command.name if interaction.command else '?'}", exc)
            return Reply.note(failure_text(exc, lang))

    async def _language(self, user: UserRef) -> str:
        return player_language(await self.sessions.queries.player(user))

    async def _chat(self, interaction: discord.Interaction, chat: ChatRef) -> ChatSettings:
        """The channel's settings; a channel seen for the first time takes the server's language."""
        return await self.sessions.queries.chat(chat, language_hint(interaction))

    # ---- /newgame -------------------------------------------------------------------

    async def newgame(self, interaction: discord.Interaction, variant: str | None,
                      options: dict[str, Any], line: str | None = None) -> None:
        """/newgame: `options` from the command's own fields, `line` its free-text `options`
        field (`name=value ...`, read by the sessions as Telegram's typed line)."""
        await self._run(interaction, self._newgame(interaction, variant, options, line))

    async def _opens_here(self, interaction: discord.Interaction, chat: ChatRef | None,
                          lang: str) -> Reply | None:
        """Why a game cannot open in the interaction's channel (not in a server, or the bot
        lacks a permission there), or None once the channel is kept."""
        if chat is None:
            return Reply.note(t(lang, "discord.guild_only"))
        missing = missing_permissions(interaction)
        if missing:
            names = ", ".join(name.replace("_", " ").title() for name in missing)
            return Reply.note(t(lang, "discord.missing_permissions", permissions=names))
        await self._chat(interaction, chat)
        return None

    async def _newgame(self, interaction: discord.Interaction, variant: str | None,
                       options: dict[str, Any], line: str | None) -> Reply:
        user, chat = user_ref(interaction), chat_ref(interaction)
        lang = await self._language(user)
        who = asker(interaction)
        if chat is None and who.home is not None:
            return await self._solo(interaction, who, variant, options, line, lang)
        stopped = await self._opens_here(interaction, chat, lang)
        if stopped is not None:
            return stopped
        assert chat is not None
        reply = await self.sessions.handle(who, NewGame(variant, options, line))
        if isinstance(reply, Refusal):
            if reply.refused.reason is not Reason.GAME_OPEN:
                raise reply.refused
            return await self._point_to_game(interaction, chat, lang, int(reply.refused.params["game_id"]))
        return Reply.note(t(lang, "discord.newgame.opened"))

    async def _solo(self, interaction: discord.Interaction, who: Asker, variant: str | None,
                    options: dict[str, Any], line: str | None, lang: str) -> Reply:
        """/newgame in a direct message: a match against the computer there, begun with Start."""
        reply = await self.sessions.handle(who, NewGame(variant, options, line))
        if isinstance(reply, Refusal):
            if reply.refused.reason is not Reason.GAME_OPEN:
                raise reply.refused
            return Reply.note(refusal_text(reply.refused, lang))
        return Reply.note(t(lang, "discord.newgame.solo"))

    async def _point_to_game(self, interaction: discord.Interaction, chat: ChatRef, lang: str,
                             game_id: int) -> Reply:
        text = refusal_text(Refused(Reason.GAME_OPEN), lang)
        message_id = await self.presenter.table_message(game_id)
        if message_id is None or interaction.guild_id is None:
            return Reply.note(text)
        url = message_link(interaction.guild_id, int(chat.key), message_id)
        return Reply.note(text, link(t(lang, "discord.button.go_to_game"), url))

    # ---- /leaderboard, /stats, /rules, /help ------------------------------------------

    async def leaderboard(self, interaction: discord.Interaction, everyone: bool) -> None:
        await self._run(interaction, self._leaderboard(interaction, everyone), ephemeral=False)

    async def _leaderboard(self, interaction: discord.Interaction, everyone: bool) -> Reply:
        chat = chat_ref(interaction)
        everyone = everyone or chat is None
        rows = await self.sessions.queries.leaderboard(None if everyone else chat)
        lang = (await self._chat(interaction, chat)).language if chat is not None else \
            await self._language(user_ref(interaction))
        game = await self.sessions.queries.chat_game(chat)
        return Reply.message(embed=text_embed(leaderboard_text(rows, lang, everyone, game)), ephemeral=False)

    async def stats(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self._stats(interaction))

    async def _stats(self, interaction: discord.Interaction) -> Reply:
        user = user_ref(interaction)
        player = await self.sessions.queries.player(user)
        stats = await self.sessions.queries.stats(user)
        lang = player_language(player)
        game = await self.sessions.queries.chat_game(chat_ref(interaction))
        return Reply.message(embed=text_embed(stats_text(player.display_name, stats, lang, game)))

    async def review(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self._review(interaction))

    async def _review(self, interaction: discord.Interaction) -> Reply:
        """The review of the channel's last finished match for the one who asked, or in a DM of
        their own last finished match, wherever it was played."""
        lang = await self._language(user_ref(interaction))
        reviewed = await self.sessions.handle(asker(interaction), AskReview())
        if isinstance(reviewed, Refusal):
            raise reviewed.refused
        assert isinstance(reviewed, MatchReview)
        return await review_reply(self.presenter, reviewed, lang)

    async def puzzle(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self._puzzle(interaction), ephemeral=False)

    async def _puzzle(self, interaction: discord.Interaction) -> Reply:
        """A position from the channel's finished matches for everyone there (in a DM, from the
        asker's own); a refusal (no puzzle yet) for the asker alone."""
        chat = chat_ref(interaction)
        if chat is not None:
            await self._chat(interaction, chat)
        lang = await self._language(user_ref(interaction))
        who = asker(interaction)
        reply = await self.sessions.handle(who, ShowPuzzle())
        return await self.drawer.draw(reply, Asked(interaction, who, lang))

    # ---- /season -----------------------------------------------------------------------

    async def season(self, interaction: discord.Interaction, last: bool, everyone: bool,
                     player: discord.User | discord.Member | None) -> None:
        await self._run(interaction, self._season(interaction, last, everyone, player), ephemeral=False)

    async def _season(self, interaction: discord.Interaction, last: bool, everyone: bool,
                      player: discord.User | discord.Member | None) -> Reply:
        """The channel's season this month (in a DM, or with `global`: everyone's), last month's,
        or the past seasons of the `player` chosen."""
        user, chat = user_ref(interaction), chat_ref(interaction)
        lang = (await self._chat(interaction, chat)).language if chat is not None else \
            await self._language(user)
        return await season_reply(self.sessions, self.presenter.painter, chat, lang, last=last,
                                  everyone=everyone or chat is None, asker=user, player=player)

    # ---- /tournament --------------------------------------------------------------------

    async def tournament(self, interaction: discord.Interaction, setup: str | None,
                         event: bool = False) -> None:
        await self._run(interaction, self._tournament(interaction, setup, event), ephemeral=False)

    async def _tournament(self, interaction: discord.Interaction, setup: str | None, event: bool) -> Reply:
        """The channel's (or thread's) tournament, or duplicate `event`: opened with `setup`'s
        words, shown, or cancelled (`tournament.TournamentFront.command`)."""
        user, chat = user_ref(interaction), chat_ref(interaction)
        lang = await self._language(user)
        stopped = await self._opens_here(interaction, chat, lang)
        if stopped is not None:
            return stopped
        assert chat is not None
        return await self.tournaments.command(chat, user, (setup or "").split(), lang, is_admin(interaction),
                                              event)

    # ---- /daily ------------------------------------------------------------------------

    async def daily(self, interaction: discord.Interaction, board: bool, everyone: bool) -> None:
        await self._run(interaction, self._daily(interaction, board, everyone), ephemeral=not board)

    async def _daily(self, interaction: discord.Interaction, board: bool, everyone: bool) -> Reply:
        """The deal of the day, played in the channel it was asked in, in a place of the channel
        of its own (`daily_place`): its table is the channel's, its hand shown only to the
        player as in every game. With `board`, today's board for the channel (or everyone)."""
        user, chat = user_ref(interaction), chat_ref(interaction)
        lang = await self._language(user)
        if board:
            if chat is not None:
                lang = (await self._chat(interaction, chat)).language
            shown = await self.sessions.queries.daily_board(None if everyone else chat)
            return Reply.message(embed=text_embed(daily_board_text(shown, lang)), ephemeral=False)
        stopped = await self._opens_here(interaction, chat, lang)
        if stopped is not None:
            return stopped
        assert chat is not None
        who = asker(interaction)
        reply = await self.sessions.handle(who, AskDaily())
        return await self.drawer.draw(reply, Asked(interaction, who, lang))

    async def rules(self, interaction: discord.Interaction, variant: str | None) -> None:
        await self._run(interaction, self._rules(interaction, variant))

    async def _rules(self, interaction: discord.Interaction, variant: str | None) -> Reply:
        lang = await self._language(user_ref(interaction))
        name, shown = await rules_to_show(self.sessions, chat_ref(interaction), variant)
        return Reply.message(embed=text_embed(rules_text(name, shown, lang)))

    async def help(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self._help(interaction))

    async def _help(self, interaction: discord.Interaction) -> Reply:
        lang = await self._language(user_ref(interaction))
        chat = chat_ref(interaction)
        style = await deck_to_show(self.sessions, chat)
        variant = await variant_to_show(self.sessions, chat)
        legend = card_legend(style, lang, buttons=True)
        return Reply.message(embed=text_embed(t(lang, "discord.help") + "\n\n"
                                              + newgame_help(lang, "discord.newgame.help", variant) + "\n\n"
                                              + t(lang, "discord.help.solo") + "\n\n"
                                              + accuracy_help(lang) + "\n\n"
                                              + t(lang, "daily.help") + "\n\n"
                                              + t(lang, "season.help") + "\n\n"
                                              + t(lang, "discord.tournament.help") + "\n\n"
                                              + t(lang, "discord.duplicate.help") + "\n\n"
                                              + t(lang, "privacy.help") + "\n\n" + legend))

    # ---- /settings ----------------------------------------------------------------------

    async def settings(self, interaction: discord.Interaction, **changes: Any) -> None:
        await self._run(interaction, self._settings(interaction, **changes))

    async def _settings(self, interaction: discord.Interaction, *, channel_language: str | None,
                        turn_limit: int | None, default_game: str | None, my_language: str | None,
                        dm_pings: bool | None, pictures: bool | None) -> Reply:
        """Asked of `Sessions.handle` (who may change what, the values allowed, all checked before
        anything is saved); the settings shown as they are now (`drawing`)."""
        chat = chat_ref(interaction)
        asked = {Setting.CHAT_LANGUAGE: channel_language, Setting.CHAT_VARIANT: default_game,
                 Setting.CHAT_TURN_LIMIT: None if turn_limit is None else str(turn_limit),
                 Setting.CHAT_PICTURES: _on_off(pictures), Setting.MY_LANGUAGE: my_language,
                 Setting.MY_PINGS: _on_off(dm_pings)}
        if chat is not None:
            await self._chat(interaction, chat)
        who = asker(interaction)
        reply = await self.sessions.handle(who, ChangeSettings(
            tuple((setting, value) for setting, value in asked.items() if value is not None)))
        return await self.drawer.draw(reply, Asked(interaction, who, await self._language(who.user)))


def _on_off(value: object) -> str | None:
    """A yes-or-no option as a setting's value (anything else is refused by the sessions)."""
    if value is None:
        return None
    return ("on" if value else "off") if isinstance(value, bool) else str(value)
