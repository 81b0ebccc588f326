"""Who and where, from Discord's interaction to the sessions layer's references."""

from __future__ import annotations

import discord

from ...sessions import ChatRef, UserRef
from ...sessions.tap import Asker

PLATFORM = "discord"


def user_ref(interaction: discord.Interaction) -> UserRef:
    user = interaction.user
    return UserRef(PLATFORM, str(user.id), user.display_name or user.name or str(user.id),
                   interaction.locale.value)


def chat_ref(interaction: discord.Interaction) -> ChatRef | None:
    """The channel as a chat, or None outside a server (DMs have no shared games); its home
    is the server, whose shard says which bot process runs its games (`Served`)."""
    channel = interaction.channel
    if interaction.guild_id is None or channel is None:
        return None
    return ChatRef(PLATFORM, str(channel.id), getattr(channel, "name", None), str(interaction.guild_id))


def home_ref(interaction: discord.Interaction) -> ChatRef | None:
    """The user's direct messages with the bot, where they play alone against the computer;
    None in a server. Discord sends those on the first shard, so any process may run them."""
    channel = interaction.channel
    if interaction.guild_id is not None or not isinstance(channel, discord.DMChannel):
        return None
    return ChatRef(PLATFORM, str(channel.id), interaction.user.display_name or interaction.user.name)


def is_admin(interaction: discord.Interaction) -> bool:
    """Server managers may start, cancel and configure any game in their channels."""
    permissions = interaction.permissions
    return interaction.guild_id is not None and (permissions.manage_guild or permissions.manage_channels)


def language_hint(interaction: discord.Interaction) -> str:
    """The server's language if Discord knows it, else the user's: a new channel's default."""
    return (interaction.guild_locale or interaction.locale).value


def message_link(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


# What the bot must be allowed to do in a channel to keep a game's messages there.
NEEDED = ("view_channel", "send_messages", "embed_links")
NEEDED_IN_THREADS = ("view_channel", "send_messages_in_threads", "embed_links")


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    channel = interaction.channel
    in_thread = isinstance(channel, discord.Thread)
    have = interaction.app_permissions
    return [name for name in (NEEDED_IN_THREADS if in_thread else NEEDED) if not getattr(have, name)]


def asker(interaction: discord.Interaction) -> Asker:
    """Who pressed or asked, where, and whether they manage the server (Discord says so in the
    interaction itself): what `Sessions.handle` needs to decide."""
    admin = is_admin(interaction)

    async def manages() -> bool:
        return admin

    return Asker(user_ref(interaction), chat_ref(interaction), manages, home=home_ref(interaction))
