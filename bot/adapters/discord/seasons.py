"""/season on Discord, and the champion announced in each channel when the month turns (what a
season is and who closes it: `sessions.seasons`)."""

from __future__ import annotations

import asyncio
import logging

import discord

from ...render.season import (
    closed_text,
    history_text,
    season_caption,
    season_scene,
    season_text,
    unknown_player_text,
)
from ...sessions import ChatRef, Sessions, UserRef
from ...sessions.seasons import SeasonClose
from .embeds import text_embed
from .identity import PLATFORM
from .pictures import Painter
from .presenter import Presenter
from .replies import Reply

log = logging.getLogger(__name__)


async def season_reply(sessions: Sessions, painter: Painter, chat: ChatRef | None, lang: str, *, last: bool,
                       everyone: bool, asker: UserRef, player: discord.User | discord.Member | None) -> Reply:
    """For everyone in the channel: a player's past seasons, or the standings (the channel's, or
    everyone's in a direct message or with `everyone`) under their picture where the channel
    shows pictures (a direct message always does), else in words."""
    where = None if everyone else chat
    if player is not None and not player.bot:
        whom = UserRef(PLATFORM, str(player.id), player.display_name or player.name)
        history = await sessions.queries.seasons_of(where, whom)
        text = history_text(history, lang) if history is not None else unknown_player_text(None, lang)
        return Reply.message(embed=text_embed(text), ephemeral=False)
    board = await sessions.queries.season(where, last=last, asker=asker)
    picture = None
    if chat is None or await painter.wanted(chat.key):
        picture = await painter.season(season_scene(board, lang), lang)
    text = season_caption(board, lang) if picture is not None else season_text(board, lang)
    return Reply.message(embed=text_embed(text), picture=picture, ephemeral=False)


class SeasonAnnouncer:
    """Looks every minute, while the bot runs, for a channel's season to close, and posts its
    champion there."""

    def __init__(self, sessions: Sessions, presenter: Presenter, painter: Painter,
                 client: discord.Client) -> None:
        self.sessions, self.presenter, self.painter, self.client = sessions, presenter, painter, client
        self._closing: asyncio.Task[None] | None = None

    async def post(self, close: SeasonClose) -> bool | None:
        """The champion's announcement with the final standings' picture where the channel shows
        pictures; None when the channel refuses the bot for good."""
        lang = close.language
        embed = text_embed(closed_text(close, lang))
        picture = await self.painter.season(season_scene(close.board, lang), lang) \
            if await self.painter.wanted(close.chat.key) else None
        channel = self.client.get_partial_messageable(int(close.chat.key))
        try:
            if picture is not None:
                await channel.send(embed=picture.shown_in(embed), file=picture.file(),
                                   allowed_mentions=discord.AllowedMentions.none())
            else:
                await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("channel %s refuses the bot (%s): no champion announced", close.chat.key, exc.status)
            return None
        except discord.HTTPException as exc:
            log.warning("could not announce the champion in channel %s: %s", close.chat.key, exc)
            return False
        return True

    def start(self) -> None:
        closing = self.sessions.seasons.keep_closing(
            PLATFORM, lambda: self.sessions.scheduler.served, self.post)
        self._closing = asyncio.create_task(closing, name="discord-seasons")

    async def stop(self) -> None:
        if self._closing is not None:
            self._closing.cancel()
            await asyncio.gather(self._closing, return_exceptions=True)
            self._closing = None
