"""The discord.py client: auto-sharded, one typed dynamic item per action,
the command tree with its translator, and shard identification paced by
Discord's session start limits instead of a flat five seconds per shard."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands, ui

from ... import metrics
from ...i18n import t
from ...sessions import language_of
from ...sessions.tap import Action, Tap
from .custom_ids import CODEC
from .identity import PLATFORM
from .translator import CatalogueTranslator

log = logging.getLogger(__name__)

PressHandler = Callable[[discord.Interaction, Tap | None, str], Awaitable[None]]
"""Answers a press: its typed tap (None when the custom id is none the bot makes) and the id."""


def press_items(handler: PressHandler) -> tuple[type[ui.DynamicItem[ui.Item[Any]]], ...]:
    """One dynamic item per action, each matching only its own custom ids (`custom_ids.CODEC`)
    and parsing their fields into a `Tap` for `handler`. Nothing is kept in memory per message,
    so presses survive restarts."""
    return tuple(_press_item(action, handler) for action in Action)


def _press_item(action: Action, handler: PressHandler) -> type[ui.DynamicItem[ui.Item[Any]]]:
    class Pressed(ui.DynamicItem[ui.Item[Any]], template=CODEC.pattern(action)):
        def __init__(self, item: ui.Item[Any], tap: Tap | None) -> None:
            super().__init__(item)
            self.tap = tap

        @classmethod
        async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                                 match: re.Match[str], /) -> Pressed:
            return cls(item, CODEC.from_match(action, match))

        async def callback(self, interaction: discord.Interaction) -> None:
            await handler(interaction, self.tap, self.custom_id)

    Pressed.__name__ = Pressed.__qualname__ = f"{action.name.title().replace('_', '')}Press"
    return Pressed


def _typed(custom_id: str) -> bool:
    """Whether one of the typed items takes `custom_id`."""
    return any(CODEC.pattern(action).fullmatch(custom_id) for action in Action)


def shows(message: discord.Message | None, custom_id: str) -> bool:
    """Whether `message` offers a component of `custom_id` (a press naming none is forged)."""
    if message is None:
        return False
    pending: list[Any] = list(message.components)
    while pending:
        component = pending.pop()
        if getattr(component, "custom_id", None) == custom_id:
            return True
        pending.extend(getattr(component, "children", ()))
    return False


class IdentifyGate:
    """Discord lets `max_concurrency` shards identify at once: one per bucket
    (shard id modulo max_concurrency) every five seconds."""

    def __init__(self, interval: float = 5.0, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.interval = interval
        self.clock = clock
        self.sleep = sleep
        self._last: dict[int, float] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def wait(self, bucket: int) -> None:
        async with self._locks.setdefault(bucket, asyncio.Lock()):
            last = self._last.get(bucket)
            if last is not None and last + self.interval > self.clock():
                await self.sleep(last + self.interval - self.clock())
            self._last[bucket] = self.clock()


CHANNEL_MESSAGES = "/channels/{channel_id}/messages"
"""The REST route of a channel's new messages; with `/{message_id}`, of an edit."""


def _count_messages(http: Any) -> None:
    """Count the messages `http` sends and edits in channels (the tables, hands and posts;
    answers to interactions go through discord.py's webhook adapter, not counted here)."""
    request = http.request

    async def counted(route: Any, **kwargs: Any) -> Any:
        answer = await request(route, **kwargs)
        if route.path == CHANNEL_MESSAGES and route.method == "POST":
            metrics.message(PLATFORM, edited=False)
        elif route.path == CHANNEL_MESSAGES + "/{message_id}" and route.method == "PATCH":
            metrics.message(PLATFORM, edited=True)
        return answer

    # discord.py offers no hook on its requests: the client's own HTTPClient is wrapped
    http.request = counted


class _CountedTree(app_commands.CommandTree["ScopaClient"]):
    """The command tree, each command's outcome counted from a mark of its own: the mark is
    set in the task that runs the command, which its completion event inherits, so no command
    reads a mark another interaction left in a shared context."""

    async def interaction_check(self, interaction: discord.Interaction[ScopaClient], /) -> bool:
        metrics.command_began()
        return True


class ScopaClient(discord.AutoShardedClient):
    def __init__(self, *, shard_count: int | None = None, guild_ready_timeout: float = 2.0,
                 shard_ids: list[int] | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # the owners' commands come as direct messages (whose content needs no privileged intent)
        intents.dm_messages = True
        # discord.py takes None for "every shard" though its hints ask for a list
        super().__init__(intents=intents, shard_count=shard_count,
                         shard_ids=shard_ids,  # type: ignore[arg-type]
                         guild_ready_timeout=guild_ready_timeout,
                         allowed_mentions=discord.AllowedMentions.none(), max_messages=None,
                         chunk_guilds_at_startup=False, member_cache_flags=discord.MemberCacheFlags.none())
        self.tree: app_commands.CommandTree[ScopaClient] = _CountedTree(self)
        self.tree.error(self._on_command_error)
        if metrics.enabled():
            _count_messages(self.http)
        self._presses: tuple[type[ui.DynamicItem[ui.Item[Any]]], ...] = ()
        self._stray: PressHandler | None = None
        self._gate = IdentifyGate()
        self._max_concurrency: int | None = None
        self._direct: Callable[[discord.Message], Awaitable[None]] | None = None

    def take_direct_messages(self, handler: Callable[[discord.Message], Awaitable[None]] | None) -> None:
        """Hand every direct message a user writes to the bot to `handler` (None: ignore them)."""
        self._direct = handler

    async def on_message(self, message: discord.Message) -> None:
        if self._direct is not None and message.guild is None and not message.author.bot:
            await self._direct(message)

    def take_presses(self, handler: PressHandler) -> None:
        """Answer every press with `handler`: the typed items (`press_items`), and here the
        presses they do not reach."""
        self._presses = press_items(handler)
        self.add_dynamic_items(*self._presses)
        self._stray = handler

    def stop_presses(self) -> None:
        self.remove_dynamic_items(*self._presses)
        self._presses, self._stray = (), None

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A press no typed item takes (a custom id the bot never made, a button of an older
        version) or naming no component of its message (only a modified client sends one) gets
        no call from discord.py's dynamic items; it is answered here instead."""
        if interaction.type is not discord.InteractionType.component or self._stray is None:
            return
        custom_id = dict(interaction.data or {}).get("custom_id")
        if isinstance(custom_id, str) and not (_typed(custom_id) and shows(interaction.message, custom_id)):
            await self._stray(interaction, CODEC.decode(custom_id), custom_id)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if self._max_concurrency is None:
            try:
                self._max_concurrency = max(1, (await self.fetch_session_start_limits()).max_concurrency)
            except discord.DiscordException as exc:
                log.warning("could not read the session start limits (%s); one shard at a time", exc)
                self._max_concurrency = 1
        await self._gate.wait((shard_id or 0) % self._max_concurrency)

    async def on_app_command_completion(
            self, interaction: discord.Interaction,
            command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu) -> None:
        metrics.command(PLATFORM, command.qualified_name)

    async def _on_command_error(self, interaction: discord.Interaction,
                                error: app_commands.AppCommandError) -> None:
        log.error("command failed: %s", error, exc_info=error)
        named = interaction.command
        metrics.command(PLATFORM, named.qualified_name if named is not None else "unknown", failed=True)
        if interaction.response.is_done():
            return
        text = t(language_of(interaction.locale.value), "error.internal")
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("could not report a command error: %s", exc)
