"""Sending to Telegram without flooding it and without losing anything.

Two kinds of traffic: a *slot* is one message that is edited in place (a game's lobby/table
message, a player's hand; `slots.Slots`), a *post* a new message (round breakdown, end of
match, replies), in order per chat (`posts.PostQueue`). Both go through one `sender.Sender`
(the requests, a photo's fallback to text, retries), which counts each message in Telegram's
limits as it goes (`pacing.Pacer`: at most 20 a minute per group, with several processes on
one store counted in the store for all of them; the rate limiter paces the bot as a whole, 30
a second). Moves are committed before anything is sent, so a failed send loses nothing: the
next drawing shows the latest state.

The outbox keeps what the chats said of the bot: which refuse it, which forum topics were
lost, which groups became supergroups.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Bot
from telegram.constants import FloodLimit
from telegram.ext import JobQueue

from ...sessions.delivery import Delivery
from .content import CAPTION_LIMIT, Content, Hold, Painter, Picture, Target
from .limits import GroupWindow, SendWindow, retry_seconds
from .pacing import SENT_REF, Pacer
from .posts import PostQueue
from .refbook import RefBook, SharedRefBook, ref_book
from .sender import Sender
from .slots import Slots

__all__ = ["CAPTION_LIMIT", "GROUP_RATE", "RING_RATE", "SENT_REF", "Content", "GroupWindow", "Outbox",
           "Picture", "RefBook", "SharedRefBook", "Target", "outbox_for", "retry_seconds"]

log = logging.getLogger(__name__)

GROUP_RATE = (float(FloodLimit.MESSAGES_PER_MINUTE_PER_GROUP), 60.0)
RING_RATE = 12
"""Rings a second past which a turn's hand is edited rather than sent anew. Of the bot's 30
new messages and group edits a second, the rest go to group tables, breakdowns and answers;
at 20 a second, rings decided together queued for places and a hand took up to 1.2 s at the
99th percentile with 100 busy groups (`benchmarks/telegram_taps.py`), at 12 it takes 0.27 s."""


class Outbox:
    """The one way the Telegram front-end's game flow gets messages out: slots, posts, the
    message refs (`refs`), the pacing of groups and the chats' refusals, put together once at
    start (`outbox_for`)."""

    def __init__(self, bot: Bot, refs: RefBook, *,
                 on_forbidden: Callable[[int], Awaitable[None]] | None = None,
                 on_lost_topic: Callable[[int, int, str], Awaitable[None]] | None = None,
                 job_queue: JobQueue[Any] | None = None, max_attempts: int = 10,
                 backoff_cap: float = 30.0,
                 group_rate: tuple[float, float] | None = GROUP_RATE,
                 painter: Painter | None = None, hold: Hold | None = None,
                 ring_rate: int = RING_RATE, pacer: Pacer | None = None) -> None:
        self.bot = bot
        self.refs = refs
        self.group_rate = group_rate
        self.refusing: set[int] = set()
        """Chats that refused the bot (it was removed, or blocked) since they last took a message."""
        self.on_forbidden = on_forbidden
        self.on_lost_topic = on_lost_topic
        """Told (chat, topic, "closed" or "deleted") when a forum topic refuses a message."""
        self.lost_topics: set[tuple[int, int]] = set()
        """(chat, topic) of forum topics that refused the bot since they last took a message."""
        self.on_migrated: Callable[[int, int], Awaitable[None]] | None = None
        """Called with a group's old and new id when Telegram says it became a supergroup."""
        self.moved: dict[int, int] = {}
        """Groups that became supergroups: their old id, their new; what is sent to the old goes
        to the new."""
        self._closed = False
        self.pacer = pacer or refs.pacer(group_rate)
        self.pacer.pace_with(getattr(bot, "rate_limiter", None))
        self.sender = Sender(bot, self.pacer, painter, max_attempts=max_attempts, backoff_cap=backoff_cap,
                             closed=lambda: self._closed)
        self.slots = Slots(self.sender, refs, self.pacer, self, hold=hold, job_queue=job_queue,
                           rings=SendWindow(ring_rate))
        self.posts = PostQueue(self.sender, self.pacer, self)

    @property
    def painter(self) -> Painter | None:
        """Draws a content's picture; without one, every message is text."""
        return self.sender.painter

    @property
    def max_attempts(self) -> int:
        return self.sender.max_attempts

    @property
    def uploaded(self) -> int:
        """Bytes of photos uploaded."""
        return self.sender.uploaded

    def first(self) -> contextlib.AbstractAsyncContextManager[None]:
        """While any caller is inside, slots wait to be drawn.

        A tap is answered inside: its answer goes out before the messages its
        move changes are drawn, and a burst of taps is answered before any of
        them is drawn (drawing later also folds more changes into each edit).
        """
        return self.slots.first()

    def update(self, target: Target, render: Callable[[], Awaitable[Content | None]], delay: float = 0.0,
               fresh: bool = False) -> asyncio.Future[bool]:
        """Draw `target` from `render` soon; the future says whether it reached Telegram.

        With a `delay`, the job queue waits that long first, so a burst of
        changes (a computer's moves, a round's last plays) becomes one edit.
        `fresh` draws it in a new message instead of editing the old one.
        """
        return self.slots.update(target, render, delay, fresh)

    def post(self, chat_id: int, content: Content, reply_to: int | None = None,
             game_id: int | None = None, thread: int | None = None) -> asyncio.Future[int | None]:
        """Send a new message after the ones already queued for that chat; the future gets its id.
        `game_id`: the game it is about, whose refs keep the group's recent sends; `thread`: the
        forum topic it goes to (None: the chat, or a forum's General)."""
        return self.posts.post(chat_id, content, reply_to, game_id, thread)

    async def delete(self, chat_id: int, message_id: int) -> None:
        """Delete a message the bot sent (a time warning that no longer holds); best effort."""
        await self.sender.delete(chat_id, message_id)

    async def adopt(self, target: Target, message_id: int, photo: bool) -> None:
        """`message_id`, acted on, shows `target` but may not be the message kept for it: the
        newer of the two is kept from now on, the older deleted (`Slots.adopt`)."""
        await self.slots.adopt(target, message_id, photo)

    async def message_of(self, target: Target) -> int | None:
        """The id of the message that shows `target`, if there is one."""
        return (await self.slots.message(target)).message_id

    def forget(self, game_id: int) -> None:
        """Drop what is remembered about a finished game's messages."""
        self.slots.forget(game_id)
        self.pacer.forget(game_id)
        self.refs.forget(game_id)

    # ---- what the chats say of the bot (`content.Refusals`) --------------------------------

    def took(self, chat_id: int, thread: int | None) -> None:
        self.refusing.discard(chat_id)
        self.lost_topics.discard((chat_id, thread or 0))

    async def topic_lost(self, chat_id: int, thread: int, how: str) -> None:
        log.info("topic %s of chat %s refuses the bot: it was %s", thread, chat_id, how)
        self.lost_topics.add((chat_id, thread))
        if self.on_lost_topic is not None:
            try:
                await self.on_lost_topic(chat_id, thread, how)
            except Exception:
                log.exception("lost topic handler failed")

    async def forbidden(self, chat_id: int) -> None:
        self.refusing.add(chat_id)
        if self.on_forbidden is not None:
            try:
                await self.on_forbidden(chat_id)
            except Exception:
                log.exception("forbidden handler failed")

    async def chat_moved(self, old_id: int, new_id: int) -> None:
        """Group `old_id` is now the supergroup `new_id` (Telegram refused a request with its
        new id, or said so in a service message): from now on its messages go to the new id,
        and the front-end is told once."""
        if self.moved.get(old_id) == new_id:
            return
        self.moved[old_id] = new_id
        log.info("group %s is now the supergroup %s", old_id, new_id)
        if self.on_migrated is not None:
            try:
                await self.on_migrated(old_id, new_id)
            except Exception:
                log.exception("moving group %s to %s failed", old_id, new_id)

    # ---- lifecycle -------------------------------------------------------------------

    async def drain(self, timeout: float) -> None:
        """Send what is waiting (delayed slots at once), for at most `timeout` seconds."""
        tasks = [*self.slots.start_scheduled(), *self.posts.tasks()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    async def close(self, timeout: float = 5.0) -> None:
        await self.drain(timeout)
        self._closed = True
        await self.slots.close()
        await self.posts.close()


def outbox_for(bot: Bot, delivery: Delivery, **options: Any) -> Outbox:
    """The outbox of a Telegram front-end on the sessions' `delivery`: built once at start, the
    one place it matters whether other bot processes share the store (`refbook.ref_book`);
    its messages are drawn through the sessions' holds. `options`: `Outbox`'s."""
    return Outbox(bot, ref_book(delivery.refs, delivery.shared), hold=delivery.draw_message, **options)
