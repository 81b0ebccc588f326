"""/privacy, /mydata and /forgetme in a direct message with the bot, and the button that
confirms /forgetme (`sessions.privacy` decides; this only translates). The button's custom id
is none of the game's (`custom_ids`): its presses reach `presses`, before the game's handler."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import app_commands, ui

from ...i18n import t
from ...sessions import Sessions, language_of
from ...sessions.commands import ForgetMe
from ...sessions.erasures import ErasureCourier
from ...sessions.privacy import ConfirmCheck, Told, check_confirm, confirm_token
from ...sessions.replies import Erased
from ...sessions.tap import Asker, Tap
from .client import PressHandler
from .identity import PLATFORM, home_ref, user_ref
from .translator import english

log = logging.getLogger(__name__)

CONFIRM = "forget:"
"""The /forgetme button's custom id: this, then `privacy.confirm_token`."""
FILE_NAME = "scopa-mydata.json"


class PrivacyCommands:
    def __init__(self, sessions: Sessions, client: discord.Client) -> None:
        self.sessions, self.client = sessions, client
        self.erasures = ErasureCourier(sessions.privacy, PLATFORM, self._post)

    def start(self) -> None:
        """Make the erasures asked for from the command line (`scopa-bot erase`) as they come."""
        self.erasures.start()

    async def stop(self) -> None:
        await self.erasures.stop()

    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        @app_commands.command(name="privacy", description=english("discord.command.privacy.description"))
        async def privacy(interaction: discord.Interaction) -> None:
            await self.privacy(interaction)

        @app_commands.command(name="mydata", description=english("discord.command.mydata.description"))
        async def mydata(interaction: discord.Interaction) -> None:
            await self.mydata(interaction)

        @app_commands.command(name="forgetme", description=english("discord.command.forgetme.description"))
        async def forgetme(interaction: discord.Interaction) -> None:
            await self.forgetme(interaction)

        return [privacy, mydata, forgetme]

    async def _language(self, interaction: discord.Interaction) -> str:
        player = await self.sessions.queries.find_player(PLATFORM, str(interaction.user.id))
        return (player.language if player and player.language else None) or language_of(
            interaction.locale.value)

    async def _private(self, interaction: discord.Interaction) -> str | None:
        """The asker's language in a direct message; in a server, the answer that it works there."""
        lang = await self._language(interaction)
        if interaction.guild_id is not None:
            await interaction.response.send_message(t(lang, "privacy.private_only"), ephemeral=True)
            return None
        return lang

    async def privacy(self, interaction: discord.Interaction) -> None:
        lang = await self._private(interaction)
        if lang is not None:
            await interaction.response.send_message(t(lang, "privacy.text", platform="Discord"))

    async def mydata(self, interaction: discord.Interaction) -> None:
        lang = await self._private(interaction)
        if lang is None:
            return
        data = await self.sessions.queries.my_data(user_ref(interaction))
        if data is None:
            await interaction.response.send_message(t(lang, "privacy.nothing_kept"))
            return
        file = discord.File(io.BytesIO(data), filename=FILE_NAME)
        await interaction.response.send_message(t(lang, "privacy.mydata_caption"), file=file)

    async def forgetme(self, interaction: discord.Interaction) -> None:
        lang = await self._private(interaction)
        if lang is None:
            return
        key = str(interaction.user.id)
        if await self.sessions.queries.find_player(PLATFORM, key) is None:
            await interaction.response.send_message(t(lang, "privacy.nothing_kept"))
            return
        view = ui.View(timeout=None)
        view.add_item(ui.Button(label=t(lang, "privacy.confirm_button"), style=discord.ButtonStyle.danger,
                                custom_id=CONFIRM + confirm_token(key, self.sessions.clock())))
        view.stop()
        await interaction.response.send_message(t(lang, "privacy.confirm"), view=view)

    def presses(self, game: PressHandler) -> PressHandler:
        """`game`, with the /forgetme button's presses taken first."""
        async def handler(interaction: discord.Interaction, tap: Tap | None, custom_id: str) -> None:
            if tap is None and custom_id.startswith(CONFIRM):
                await self.confirmed(interaction, custom_id.removeprefix(CONFIRM))
            else:
                await game(interaction, tap, custom_id)

        return handler

    async def confirmed(self, interaction: discord.Interaction, token: str) -> None:
        key = str(interaction.user.id)
        lang = await self._language(interaction)
        check = check_confirm(token, key, self.sessions.clock())
        if check is not ConfirmCheck.GOOD:
            await interaction.response.send_message(t(lang, f"privacy.{check.value}"), ephemeral=True)
            return
        await interaction.response.defer()
        me = Asker(user_ref(interaction), home=home_ref(interaction))
        erased = await self.sessions.handle(me, ForgetMe())
        forgotten = erased.forgotten if isinstance(erased, Erased) else None
        said = t(lang, "privacy.done" if forgotten is not None else "privacy.nothing_kept")
        await interaction.edit_original_response(content=said, view=None)
        await self.erasures.tell_others(forgotten)

    async def _post(self, told: Told) -> bool:
        """The line, with the player's name where this process still knows it; True once the
        channel has it (or refuses the bot for good)."""
        lang = (await self.sessions.queries.chat(told.chat)).language
        kind = "told" if told.name else "told_anon"
        line = t(lang, f"privacy.{kind}.{told.outcome.value}", name=told.name, computer=told.computer)
        try:
            await self.client.get_partial_messageable(int(told.chat.key)).send(
                line, allowed_mentions=discord.AllowedMentions.none())
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("channel %s refuses the bot (%s): the line of an erasure is dropped", told.chat.key,
                     exc.status)
        except discord.HTTPException as exc:
            log.info("could not tell channel %s of an erased player: %s", told.chat.key, exc)
            return False
        return True
