"""Answering an interaction within Discord's three seconds.

Discord forgets an interaction that gets no response within three seconds of
its creation. The work behind a press or a command (a move committed to the
database, a leaderboard query) usually takes milliseconds, and then the reply
is the response itself: one request. When it takes longer than `ack_after`
— a computer player thinking while holding the game, a busy disk — the
interaction is deferred first and the reply follows when the work is done.
A failure to answer is logged, never raised: the work is already committed.
A reply with a picture that Discord refuses (an upload that fails) is sent
again as text, said in one log line.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from enum import Enum, auto
from typing import Any

import discord
from discord import ui

from ..common.failures import log_failure
from .pictures import Picture

log = logging.getLogger(__name__)

THINKING = discord.InteractionResponseType.deferred_channel_message


class Kind(Enum):
    NOTHING = auto()
    MESSAGE = auto()
    UPDATE = auto()


@dataclass(frozen=True, slots=True)
class Sent:
    """Where a reply landed: the interaction's original response, or a follow-up message."""

    interaction: discord.Interaction
    message_id: int | None


@dataclass(frozen=True, slots=True)
class Reply:
    """What to answer: nothing visible, a new message, or an update of the pressed message."""

    kind: Kind
    content: str | None = None
    embed: discord.Embed | None = None
    view: ui.View | None = None
    ephemeral: bool = True
    on_sent: Callable[[Sent], None] | None = None
    picture: Picture | None = None
    """Shown as the embed's image; `embed` alone is the text the reply falls back to."""
    then: tuple[Reply, ...] = ()
    """New messages that follow the reply (follow-ups of the interaction), in order."""

    @classmethod
    def nothing(cls) -> Reply:
        return cls(Kind.NOTHING)

    @classmethod
    def note(cls, text: str, view: ui.View | None = None) -> Reply:
        return cls(Kind.MESSAGE, content=text, view=view)

    @classmethod
    def message(cls, *, content: str | None = None, embed: discord.Embed | None = None,
                view: ui.View | None = None, ephemeral: bool = True,
                on_sent: Callable[[Sent], None] | None = None, picture: Picture | None = None,
                then: tuple[Reply, ...] = ()) -> Reply:
        return cls(Kind.MESSAGE, content, embed, view, ephemeral, on_sent, picture, then)

    @classmethod
    def update(cls, *, content: str | None = None, embed: discord.Embed | None = None,
               view: ui.View | None = None, on_sent: Callable[[Sent], None] | None = None,
               picture: Picture | None = None) -> Reply:
        return cls(Kind.UPDATE, content, embed, view, True, on_sent, picture)

    def fields(self) -> dict[str, Any]:
        """As edits take them: None removes the content, the embed or the buttons; the
        attachments are the picture's file, or none (a picture shown before goes)."""
        return {"content": self.content, **drawing(self.embed, self.picture), "view": self.view}

    def new_fields(self) -> dict[str, Any]:
        """As a new message takes them: what is None is left out."""
        fields = {key: value for key, value in self.fields().items() if value is not None}
        attachments = fields.pop("attachments")
        if attachments:
            fields["files"] = attachments
        return fields


def drawing(embed: discord.Embed | None, picture: Picture | None) -> dict[str, Any]:
    """The embed and attachments of an edit showing `embed`, with `picture` as its image."""
    if picture is None or embed is None:
        return {"embed": embed, "attachments": []}
    return {"embed": picture.shown_in(embed), "attachments": [picture.file()]}


async def answer(interaction: discord.Interaction, work: Awaitable[Reply], *, ack_after: float,
                 thinking: bool | None = None) -> None:
    """Run `work` and answer with its reply, deferring first if it is not done in `ack_after` s.

    Commands defer as a "thinking" message, ephemeral or not as `thinking`
    says (their reply must match); presses defer as a silent acknowledgement.
    """
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=ack_after)
    if not done:
        await _defer(interaction, thinking)
    try:
        reply = await task
    except Exception as exc:
        log_failure(log, f"interaction {interaction.id}", exc)
        return
    await deliver(interaction, reply)


async def _defer(interaction: discord.Interaction, thinking: bool | None) -> None:
    try:
        if thinking is None:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=thinking, thinking=True)
    except discord.HTTPException as exc:
        log.warning("could not defer interaction %s: %s", interaction.id, exc)


async def deliver(interaction: discord.Interaction, reply: Reply) -> None:
    try:
        sent = await _deliver(interaction, reply)
    except discord.HTTPException as exc:
        if reply.picture is None or isinstance(exc, discord.NotFound):
            log.warning("could not answer interaction %s: %s", interaction.id, exc)
            return
        log.warning("a picture for interaction %s was refused (%s); answering with text", interaction.id, exc)
        reply = replace(reply, picture=None)
        try:
            sent = await _deliver(interaction, reply)
        except discord.HTTPException as again:
            log.warning("could not answer interaction %s: %s", interaction.id, again)
            return
    if sent is not None and reply.on_sent is not None:
        reply.on_sent(sent)
    for following in reply.then if sent is not None else ():
        await _follow(interaction, following)


async def _follow(interaction: discord.Interaction, reply: Reply) -> None:
    """A follow-up message; as text if its picture is refused."""
    for attempt in (reply, replace(reply, picture=None)):
        try:
            await interaction.followup.send(**attempt.new_fields(), ephemeral=attempt.ephemeral)
            return
        except discord.HTTPException as exc:
            if attempt.picture is None or isinstance(exc, discord.NotFound):
                log.warning("could not follow up interaction %s: %s", interaction.id, exc)
                return
            log.warning("a picture following interaction %s was refused (%s); sending text",
                        interaction.id, exc)


async def _deliver(interaction: discord.Interaction, reply: Reply) -> Sent | None:
    response = interaction.response
    sent: Sent | None = None
    if not response.is_done():
        if reply.kind is Kind.MESSAGE:
            await response.send_message(**reply.new_fields(), ephemeral=reply.ephemeral)
            sent = Sent(interaction, None)
        elif reply.kind is Kind.UPDATE:
            await response.edit_message(**reply.fields())
            sent = Sent(interaction, None)
        else:
            await response.defer()
    elif reply.kind is Kind.MESSAGE and response.type is THINKING:
        await interaction.edit_original_response(**reply.fields())
        sent = Sent(interaction, None)
    elif reply.kind is Kind.MESSAGE:
        message = await interaction.followup.send(**reply.new_fields(), ephemeral=reply.ephemeral,
                                                  wait=True)
        sent = Sent(interaction, message.id)
    elif reply.kind is Kind.UPDATE:
        await interaction.edit_original_response(**reply.fields())
        sent = Sent(interaction, None)
    return sent
