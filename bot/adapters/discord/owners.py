"""The owners' commands, typed in a direct message with the bot (`/botstatus`; they are no
slash commands, so nobody else sees them in the command list), and their notices posted in
the channels in play. What they mean and who may use them: `sessions.owners`."""

from __future__ import annotations

import asyncio
import logging

import discord

from ...render.owners import notice_text, owner_text
from ...sessions import ChatRef, Sessions, UserRef
from ...sessions.commands import OwnerCommand
from ...sessions.ports import NoticeDelivery
from ...sessions.replies import OwnerAnswered
from ...sessions.tap import Asker
from ...sessions.views import player_language
from .identity import PLATFORM
from .presenter import Presenter

log = logging.getLogger(__name__)


class OwnerMessages:
    def __init__(self, sessions: Sessions, presenter: Presenter, client: discord.Client) -> None:
        self.sessions, self.presenter, self.client = sessions, presenter, client
        self._delivering: asyncio.Task[None] | None = None

    async def on_direct_message(self, message: discord.Message) -> None:
        """An owner's command in their DM is answered there; anything else a user writes to the
        bot (an owner command from anyone else too) gets nothing, as every DM always has."""
        text = message.content.strip()
        if not text.startswith("/"):
            return
        head, _, words = text.partition(" ")
        author = message.author
        user = UserRef(PLATFORM, str(author.id), author.display_name or author.name)
        asker = Asker(user, home=ChatRef(PLATFORM, str(message.channel.id)))
        reply = await self.sessions.handle(asker, OwnerCommand(head[1:].lower(), words))
        if not isinstance(reply, OwnerAnswered):
            return
        lang = player_language(await self.sessions.queries.player(user))
        await message.channel.send(owner_text(reply.answer, lang)[:2000])

    async def post_notice(self, owed: NoticeDelivery) -> bool | None:
        """Post an owner's notice in a channel; None when the channel refuses the bot for good."""
        lang = await self.presenter.chat_language(owed.chat_key)
        try:
            await self.client.get_partial_messageable(int(owed.chat_key)).send(
                notice_text(owed.text, lang), allowed_mentions=discord.AllowedMentions.none())
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("channel %s refuses the bot (%s): the notice is dropped", owed.chat_key, exc.status)
            return None
        except discord.HTTPException as exc:
            log.warning("could not post a notice in channel %s: %s", owed.chat_key, exc)
            return False
        return True

    def start(self) -> None:
        delivering = self.sessions.owners.keep_delivering(PLATFORM, self.post_notice)
        self._delivering = asyncio.create_task(delivering, name="discord-notices")

    async def stop(self) -> None:
        if self._delivering is not None:
            self._delivering.cancel()
            await asyncio.gather(self._delivering, return_exceptions=True)
            self._delivering = None
