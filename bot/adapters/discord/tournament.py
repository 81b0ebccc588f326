"""/tournament on Discord: the sign-up message with its buttons, the standings, cancelling, and
what the channel is told as rounds complete (how a tournament is played: `sessions.tournament_play`).

A thread is a channel of its own on Discord, so a tournament opened in a thread is that
thread's: its matches are played there, one after the other, and its rounds and champion are
posted there. The buttons carry `trn:<action>:<tournament>` (`tournament_ids`); a press is taken
only from a message that shows that button (a forged one is refused) and for the tournament open
in that channel now, so they keep working after a restart."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord
from discord import ui

from ...i18n import t
from ...render.tournament import news_head, tournament_text
from ...render.words import failure_text, refusal_text
from ...sessions import ChatRef, Refused, Sessions, UserRef, language_of
from ...sessions.commands import OpenTournament, PressTournament
from ...sessions.replies import Note, Refusal, TournamentShown
from ...sessions.tap import Asker, Tap
from ...sessions.tournament_play import TournamentNews, TournamentRefused, TournamentUntold
from ...sessions.tournaments import Status, TournamentView
from ...sessions.views import player_language
from ..common.failures import log_failure
from .client import PressHandler, shows
from .components import LABEL_MAX, layout
from .embeds import LOBBY, ROUND, text_embed
from .identity import PLATFORM, chat_ref, is_admin, user_ref
from .pictures import Painter
from .presenter import Presenter
from .replies import Reply, answer
from .tournament_ids import PREFIX, SignUp, SignUpPress, decode, encode

log = logging.getLogger(__name__)

STYLES = {SignUp.JOIN: discord.ButtonStyle.success, SignUp.LEAVE: discord.ButtonStyle.secondary,
          SignUp.START: discord.ButtonStyle.primary, SignUp.CANCEL: discord.ButtonStyle.danger}


def signup_view(view: TournamentView, lang: str) -> ui.View:
    def button(action: SignUp) -> ui.Button[ui.View]:
        return ui.Button(label=t(lang, f"tournament.button.{action.value}")[:LABEL_MAX], style=STYLES[action],
                         custom_id=encode(SignUpPress(action, view.id)))

    return layout((button(SignUp.JOIN), button(SignUp.LEAVE)), (button(SignUp.START), button(SignUp.CANCEL)))


def refusal(refused: TournamentRefused, lang: str) -> str:
    return t(lang, f"tournament.refused.{refused.code}", detail=refused.detail)


class TournamentFront:
    """The command, the sign-up buttons, the channel told of each round, and the look every
    `LOOK_EVERY` seconds for what a stopped process owed a tournament."""

    def __init__(self, sessions: Sessions, presenter: Presenter, client: discord.Client, *,
                 ack_after: float) -> None:
        self.sessions, self.presenter, self.client = sessions, presenter, client
        self.ack_after = ack_after
        self._looking: asyncio.Task[None] | None = None
        sessions.tournaments.subscribe(self.told)

    @property
    def painter(self) -> Painter:
        return self.presenter.painter

    # ---- /tournament ---------------------------------------------------------

    async def command(self, chat: ChatRef, user: UserRef, words: list[str], lang: str,
                      admin: bool, event: bool = False) -> Reply:
        """/tournament in `chat` with `words` (a variant, knockout, swiss=N, target=N, duplicate;
        `cancel` stops it), or /duplicate for a duplicate `event`: the sign-up opened, or the
        channel's tournament shown as it is; a refusal for the asker alone, in their `lang`."""
        shown = (await self.sessions.queries.chat(chat)).language
        asked = OpenTournament(tuple(words), event)
        match await self.sessions.handle(Asker(user, chat, admin=_answer(admin)), asked):
            case TournamentShown(current):
                return await self._shown(chat, current, shown)
            case Refusal(refused):
                raise refused
            case Note(say, alert=True):
                return Reply.note(t(lang, say.key, **say.params))
            case Note(say):
                return Reply.message(embed=text_embed(t(shown, say.key, **say.params)), ephemeral=False)
            case _:
                return Reply.nothing()

    async def _shown(self, chat: ChatRef, current: TournamentView, shown: str) -> Reply:
        """The channel's tournament, for everyone: its sign-up with the buttons, or its round."""
        if current.status is Status.SIGNUP:
            return Reply.message(embed=text_embed(tournament_text(current, shown), LOBBY),
                                 view=signup_view(current, shown), ephemeral=False)
        embed = text_embed(tournament_text(current, shown), ROUND)
        picture = await self.painter.tournament(current, shown) if await self._pictures(chat.key) else None
        return Reply.message(embed=embed, picture=picture, ephemeral=False)

    async def _pictures(self, channel: str) -> bool:
        return await self.painter.wanted(channel) and not self.painter.refusing(channel)

    # ---- the sign-up's buttons -------------------------------------------------

    def presses(self, game: PressHandler) -> PressHandler:
        """`game`, with the sign-up buttons' presses taken first (their ids are none of the
        game's, so they reach the handler as a press of no tap)."""
        async def handler(interaction: discord.Interaction, tap: Tap | None, custom_id: str) -> None:
            if tap is None and custom_id.startswith(f"{PREFIX}:"):
                await answer(interaction, self._pressed(interaction, custom_id), ack_after=self.ack_after)
            else:
                await game(interaction, tap, custom_id)

        return handler

    async def _pressed(self, interaction: discord.Interaction, custom_id: str) -> Reply:
        """The press answered: the sign-up edited, or why not to the presser alone (a failure
        too, said in one log line)."""
        user = user_ref(interaction)
        lang = language_of(user.language)
        try:
            lang = player_language(await self.sessions.queries.player(user))
            return await self._signup_press(interaction, user, custom_id, lang)
        except Refused as refused:
            return Reply.note(refusal_text(refused, lang))
        except Exception as exc:
            log_failure(log, f"press {custom_id!r}", exc)
            return Reply.note(failure_text(exc, lang))

    async def _signup_press(self, interaction: discord.Interaction, user: UserRef, custom_id: str,
                            lang: str) -> Reply:
        chat = chat_ref(interaction)
        press = decode(custom_id)
        if press is None or chat is None or not shows(interaction.message, custom_id):
            return Reply.note(refusal(TournamentRefused("stale"), lang))
        pressed = PressTournament(press.tournament, press.action.value)
        reply = await self.sessions.handle(Asker(user, chat, admin=_answer(is_admin(interaction))), pressed)
        if isinstance(reply, Refusal):
            raise reply.refused
        if isinstance(reply, Note):
            return Reply.note(t(lang, reply.say.key, **reply.say.params))
        if not isinstance(reply, TournamentShown):
            return Reply.nothing()
        view = reply.view
        shown = await self.presenter.chat_language(chat.key)
        if view.status is Status.CANCELLED:
            return Reply.update(embed=text_embed(t(shown, "tournament.cancelled")))
        if view.status is Status.SIGNUP:
            return Reply.update(embed=text_embed(tournament_text(view, shown), LOBBY),
                                view=signup_view(view, shown))
        return Reply.update(embed=text_embed(tournament_text(view, shown), ROUND))

    # ---- the channel told -------------------------------------------------------

    async def told(self, news: TournamentNews) -> None:
        """A round complete or the tournament won: the standings (and the champion) posted in
        the tournament's channel or thread, under the bracket's or standings' picture where the
        channel shows pictures. A post that fails leaves it owed (`TournamentUntold`); a channel
        that refuses the bot for good is not told."""
        view = news.view
        if view.platform != PLATFORM or not view.chat.isdigit():
            return
        lang = await self.presenter.chat_language(view.chat)
        head = news_head(news, lang)
        text = tournament_text(view, lang)
        embed = text_embed(f"{head}\n{text}" if head else text, ROUND)
        channel = self.client.get_partial_messageable(int(view.chat))
        picture = await self.painter.tournament(view, lang) if await self._pictures(view.chat) else None
        try:
            try:
                if picture is None:
                    await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
                    return
                await channel.send(embed=picture.shown_in(embed), file=picture.file(),
                                   allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                if picture is None or isinstance(exc, discord.NotFound):
                    raise
                self.painter.refused(view.chat, exc)
                await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("channel %s refuses the bot (%s): tournament %s is not told", view.chat, exc.status,
                     view.id)
        except discord.HTTPException as exc:
            raise TournamentUntold(view.chat) from exc

    # ---- the look for owed steps ------------------------------------------------

    def start(self) -> None:
        self._looking = asyncio.create_task(self.sessions.tournaments.look_forever(PLATFORM),
                                            name="discord-tournaments")

    async def stop(self) -> None:
        if self._looking is not None:
            self._looking.cancel()
            await asyncio.gather(self._looking, return_exceptions=True)
            self._looking = None


def _answer(admin: bool) -> Callable[[], Awaitable[bool]]:
    """Whether the presser manages the server, as the sessions ask it (Discord says so in the
    interaction itself)."""
    async def manages() -> bool:
        return admin

    return manages
