"""New messages (a round's breakdown, the end of a match, answers), in order per chat."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from telegram.error import BadRequest, ChatMigrated, Forbidden

from .content import Content, GaveUp, Refusals, lost_topic
from .pacing import Pacer
from .sender import Sender
from .tasks import cancel_all

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Post:
    content: Content
    reply_to: int | None
    done: asyncio.Future[int | None]
    game_id: int | None = None
    thread: int | None = None
    paid: Callable[[], None] = field(default=lambda: None)
    """Says the group that its edits need wait for this post no more (`Pacer.owe_post`)."""


class PostQueue:
    """One queue per chat; a post waits for the ones before it."""

    def __init__(self, sender: Sender, pacer: Pacer, refusals: Refusals) -> None:
        self.sender, self.pacer, self.refusals = sender, pacer, refusals
        self.closed = False
        self._posts: dict[int, deque[_Post]] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def post(self, chat_id: int, content: Content, reply_to: int | None = None,
             game_id: int | None = None, thread: int | None = None) -> asyncio.Future[int | None]:
        done: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        if self.closed:
            done.set_result(None)
            return done
        chat_id = self.refusals.moved.get(chat_id, chat_id)
        paid = self.pacer.owe_post(chat_id)
        done.add_done_callback(lambda _: paid())
        self._posts.setdefault(chat_id, deque()).append(_Post(content, reply_to, done, game_id, thread, paid))
        if chat_id not in self._tasks:
            self._tasks[chat_id] = asyncio.create_task(self._run(chat_id), name=f"telegram-posts-{chat_id}")
        return done

    async def _run(self, chat_id: int) -> None:
        queue = self._posts[chat_id]
        try:
            while queue:
                item = queue.popleft()
                try:
                    message_id = await self._send(chat_id, item)
                except ChatMigrated as exc:
                    await self._moved(chat_id, int(exc.new_chat_id), [item, *queue])
                    queue.clear()
                    continue
                except BaseException:
                    if not item.done.done():
                        item.done.set_result(None)
                    raise
                if not item.done.done():
                    item.done.set_result(message_id)
        finally:
            self._tasks.pop(chat_id, None)
            if not queue:
                self._posts.pop(chat_id, None)
            elif not self.closed:
                self._tasks[chat_id] = asyncio.create_task(self._run(chat_id))

    async def _moved(self, old_id: int, new_id: int, moving: list[_Post]) -> None:
        """The group became a supergroup: its waiting posts go to the new id, in order, and each
        caller gets the id of its post there."""
        for waiting in moving:
            _chain(self.post(new_id, waiting.content, None, waiting.game_id, waiting.thread), waiting.done)
            waiting.paid()
        await self.refusals.chat_moved(old_id, new_id)

    async def _send(self, chat_id: int, item: _Post) -> int | None:
        """The post sent, its id; None if the chat refused it or Telegram could not be reached."""
        try:
            await self.pacer.ready(chat_id, item.game_id, post=True)
            message_id = await self.sender.post(chat_id, item.content, item.reply_to, item.thread)
            self.refusals.took(chat_id, item.thread)
            return message_id
        except ChatMigrated:
            raise
        except Forbidden:
            await self.refusals.forbidden(chat_id)
        except BadRequest as exc:
            if item.thread is not None and (how := lost_topic(exc)) is not None:
                await self.refusals.topic_lost(chat_id, item.thread, how)
            else:
                log.warning("Telegram refused a message to %s: %s", chat_id, exc.message)
        except GaveUp:
            pass
        except Exception:
            log.exception("sending to %s failed", chat_id)
        return None

    def tasks(self) -> list[asyncio.Task[None]]:
        return list(self._tasks.values())

    async def close(self) -> None:
        self.closed = True
        await cancel_all(self._tasks.values())
        for queue in self._posts.values():
            for item in queue:
                if not item.done.done():
                    item.done.set_result(None)
        self._posts.clear()


def _chain(source: asyncio.Future[int | None], target: asyncio.Future[int | None]) -> None:
    """`target` gets `source`'s result once it has one (a post handed to a group's new id)."""
    def settle(done: asyncio.Future[int | None]) -> None:
        if not target.done():
            target.set_result(None if done.cancelled() else done.result())

    source.add_done_callback(settle)
