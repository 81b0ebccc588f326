"""Sending to Telegram without flooding it and without losing anything.

Two kinds of traffic:

* a *slot* is one message that is edited in place (a game's lobby/table
  message, a player's hand). Updating a slot stores how to draw it; at most
  one request per slot is in flight, and when it returns the slot is drawn
  again from the latest state, so any number of moves made meanwhile cost a
  single edit. Unchanged content is not sent again, and Telegram's "message is
  not modified" counts as done. The first update of a slot without a message
  sends one and keeps its id in the game's refs (so it survives a restart).
* a *post* is a new message (round breakdown, end of match, replies); posts to
  one chat go out in order.

Group messages are paced here (20 a minute per group, see `_pace`); the
rate limiter paces the bot as a whole (30 a second). A RetryAfter is waited
out and network errors are retried with backoff. Moves are committed before anything is sent,
so a failed send loses nothing: the next draw shows the latest state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import warnings
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from typing import Any, TypeVar

from aiolimiter import AsyncLimiter
from telegram import Bot
from telegram.constants import FloodLimit, ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.ext import CallbackContext, JobQueue

from ...sessions import MessageRefs
from .keyboards import Keyboard, markup_dict

log = logging.getLogger(__name__)

_T = TypeVar("_T")
GROUP_RATE = (float(FloodLimit.MESSAGES_PER_MINUTE_PER_GROUP), 60.0)
_NO_PREVIEW = {"is_disabled": True}


@dataclass(frozen=True, slots=True)
class Content:
    text: str
    keyboard: Keyboard = ()


Render = Callable[[], Awaitable[Content | None]]


@dataclass(frozen=True, slots=True)
class Target:
    """A message that is edited in place: by id, or kept under `ref` in a game's refs."""

    chat_id: int
    game_id: int | None = None
    ref: str = ""
    message_id: int | None = None


class Superseded(Exception):
    """A newer drawing of the same slot is waiting; this one is not worth retrying."""


class GaveUp(Exception):
    pass


def retry_seconds(exc: RetryAfter) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value: Any = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def is_not_modified(exc: BadRequest) -> bool:
    return "not modified" in exc.message.lower()


def is_gone(exc: BadRequest) -> bool:
    text = exc.message.lower()
    return any(s in text for s in ("message to edit not found", "message can't be edited",
                                   "message_id_invalid", "message not found"))


class RefBook:
    """Message ids of a game's slots, cached, kept with the game through the sessions' message references.

    The cache is changed before the store is written and a read from the store
    never replaces it: a lookup that overlaps a `set` (a Join tapped as the lobby
    is posted) must find the new message, not post a second one."""

    def __init__(self, store: MessageRefs) -> None:
        self._store = store
        self._cache: dict[int, dict[str, str]] = {}

    async def _refs(self, game_id: int) -> dict[str, str]:
        refs = self._cache.get(game_id)
        if refs is None:
            loaded = await self._store.get_refs(game_id)
            refs = self._cache.setdefault(game_id, loaded)
        return refs

    async def get(self, game_id: int, key: str) -> str | None:
        return (await self._refs(game_id)).get(key)

    async def set(self, game_id: int, key: str, value: str | None) -> None:
        refs = await self._refs(game_id)
        before = refs.get(key)
        if value is None:
            refs.pop(key, None)
        else:
            refs[key] = value
        try:
            await self._store.set_ref(game_id, key, value)
        except BaseException:
            if refs.get(key) == value:
                if before is None:
                    refs.pop(key, None)
                else:
                    refs[key] = before
            raise

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)


@dataclass(slots=True)
class _Post:
    content: Content
    reply_to: int | None
    done: asyncio.Future[int | None]


@dataclass(slots=True)
class _Pending:
    render: Render
    waiters: list[asyncio.Future[bool]] = field(default_factory=list)
    fresh: bool = False


class Outbox:
    def __init__(self, bot: Bot, refs: RefBook, *,
                 on_forbidden: Callable[[int], Awaitable[None]] | None = None,
                 job_queue: JobQueue[Any] | None = None, max_attempts: int = 10,
                 backoff_cap: float = 30.0,
                 group_rate: tuple[float, float] | None = GROUP_RATE) -> None:
        self.bot = bot
        self.refs = refs
        self.on_forbidden = on_forbidden
        self.job_queue = job_queue
        self.max_attempts = max_attempts
        self.backoff_cap = backoff_cap
        self.group_rate = group_rate
        self._group_limiters: dict[int, AsyncLimiter] = {}
        self._pending: dict[Target, _Pending] = {}
        self._slot_tasks: dict[Target, asyncio.Task[None]] = {}
        self._scheduled: set[Target] = set()
        self._shown: dict[Target, Content] = {}
        self._posts: dict[int, deque[_Post]] = {}
        self._post_tasks: dict[int, asyncio.Task[None]] = {}
        self._closed = False
        self._urgent = 0
        self._calm = asyncio.Event()
        self._calm.set()

    @contextlib.asynccontextmanager
    async def first(self) -> AsyncIterator[None]:
        """While any caller is inside, slots wait to be drawn.

        A tap is answered inside: its answer goes out before the messages its
        move changes are drawn, and a burst of taps is answered before any of
        them is drawn (drawing later also folds more changes into each edit).
        """
        self._urgent += 1
        self._calm.clear()
        try:
            yield
        finally:
            self._urgent -= 1
            if not self._urgent:
                self._calm.set()

    # ---- slots -------------------------------------------------------------------

    def update(self, target: Target, render: Render, delay: float = 0.0,
               fresh: bool = False) -> asyncio.Future[bool]:
        """Draw `target` from `render` soon; the future says whether it reached Telegram.

        With a `delay`, the job queue waits that long first, so a burst of
        changes (a computer's moves, a round's last plays) becomes one edit.
        `fresh` draws it in a new message instead of editing the old one.
        """
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if self._closed:
            done.set_result(False)
            return done
        pending = self._pending.get(target)
        if pending is None:
            self._pending[target] = _Pending(render, [done], fresh)
        else:
            pending.render = render
            pending.waiters.append(done)
            pending.fresh = pending.fresh or fresh
        if target in self._slot_tasks or target in self._scheduled:
            return done
        if delay > 0 and self.job_queue is not None and self.job_queue.scheduler.running:
            self._scheduled.add(target)
            self.job_queue.run_once(self._due, when=delay, data=target)
        else:
            self._start_slot(target)
        return done

    async def _due(self, context: CallbackContext[Any, Any, Any, Any]) -> None:
        target = context.job.data if context.job else None
        if isinstance(target, Target):
            self._scheduled.discard(target)
            if target not in self._slot_tasks and target in self._pending:
                self._start_slot(target)

    def _start_slot(self, target: Target) -> None:
        self._slot_tasks[target] = asyncio.create_task(self._run_slot(target),
                                                       name=f"telegram-slot-{target}")

    async def _run_slot(self, target: Target) -> None:
        try:
            while target in self._pending:
                await self._calm.wait()
                pending = self._pending.pop(target, None)
                if pending is None:
                    break
                delivered = False
                try:
                    if pending.fresh and target.game_id is not None:
                        self._shown.pop(target, None)
                        if await self.refs.get(target.game_id, target.ref) is not None:
                            await self.refs.set(target.game_id, target.ref, None)
                    delivered = await self._deliver(target, pending.render)
                except Superseded:
                    self._merge_waiters(target, pending)
                    pending.waiters = []
                except Exception:
                    log.exception("drawing %s failed", target)
                finally:
                    for waiter in pending.waiters:
                        if not waiter.done():
                            waiter.set_result(delivered)
        finally:
            self._slot_tasks.pop(target, None)
            if target in self._pending and not self._closed:
                self._start_slot(target)

    def _merge_waiters(self, target: Target, older: _Pending) -> None:
        newer = self._pending.get(target)
        if newer is not None:
            newer.waiters.extend(older.waiters)
        else:
            for waiter in older.waiters:
                if not waiter.done():
                    waiter.set_result(False)

    async def _message_id(self, target: Target) -> int | None:
        if target.message_id is not None:
            return target.message_id
        if target.game_id is None:
            return None
        value = await self.refs.get(target.game_id, target.ref)
        return int(value) if value else None

    async def _deliver(self, target: Target, render: Render) -> bool:
        """Draw and send or edit; False if Telegram refused for good (blocked, bad request)."""
        def superseded() -> bool:
            return target in self._pending

        content = await render()
        for _ in range(2):
            if content is None:
                return True
            message_id = await self._message_id(target)
            if message_id is None and target.game_id is None:
                return False
            if message_id is not None and self._shown.get(target) == content:
                return True
            if await self._pace(target.chat_id):
                latest = await render()
                if latest != content:
                    content = latest
                    if content is None or (message_id is not None and self._shown.get(target) == content):
                        return True
            try:
                if message_id is None:
                    sent = await self._retrying(
                        target.chat_id, partial(self._send, target.chat_id, content), superseded)
                    assert target.game_id is not None
                    await self.refs.set(target.game_id, target.ref, str(sent))
                else:
                    await self._retrying(
                        target.chat_id, partial(self._edit, target.chat_id, message_id, content),
                        superseded)
                self._shown[target] = content
                return True
            except BadRequest as exc:
                if is_not_modified(exc):
                    self._shown[target] = content
                    return True
                if is_gone(exc) and target.game_id is not None:
                    log.info("message of %s is gone; sending a new one", target)
                    await self.refs.set(target.game_id, target.ref, None)
                    self._shown.pop(target, None)
                    continue
                log.warning("Telegram refused to draw %s: %s", target, exc.message)
                return False
            except Forbidden:
                await self._forbidden(target.chat_id)
                return False
            except GaveUp:
                return False
        return False

    async def _pace(self, chat_id: int) -> bool:
        """Take one of a group's messages a minute; True if that meant waiting.

        Pacing here, before the last drawing, rather than in the rate limiter
        after it, means a table edit that had to wait shows the state it
        goes out with, not the one it was queued with.
        """
        if chat_id >= 0 or self.group_rate is None:
            return False
        limiter = self._group_limiters.get(chat_id)
        if limiter is None:
            if len(self._group_limiters) > 512:
                for key, idle in list(self._group_limiters.items()):
                    if idle.has_capacity(idle.max_rate):
                        del self._group_limiters[key]
            limiter = self._group_limiters[chat_id] = AsyncLimiter(*self.group_rate)
        waited = not limiter.has_capacity()
        await limiter.acquire()
        return waited

    async def _forbidden(self, chat_id: int) -> None:
        if self.on_forbidden is not None:
            try:
                await self.on_forbidden(chat_id)
            except Exception:
                log.exception("forbidden handler failed")

    def forget(self, game_id: int) -> None:
        """Drop what is remembered about a finished game's messages."""
        for target in [t for t in self._shown if t.game_id == game_id]:
            del self._shown[target]
        self.refs.forget(game_id)

    # ---- posts -------------------------------------------------------------------

    def post(self, chat_id: int, content: Content, reply_to: int | None = None) -> asyncio.Future[int | None]:
        """Send a new message after the ones already queued for that chat; the future gets its id."""
        done: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        if self._closed:
            done.set_result(None)
            return done
        self._posts.setdefault(chat_id, deque()).append(_Post(content, reply_to, done))
        if chat_id not in self._post_tasks:
            self._post_tasks[chat_id] = asyncio.create_task(self._run_posts(chat_id),
                                                            name=f"telegram-posts-{chat_id}")
        return done

    async def _run_posts(self, chat_id: int) -> None:
        queue = self._posts[chat_id]
        try:
            while queue:
                item = queue.popleft()
                message_id: int | None = None
                try:
                    await self._pace(chat_id)
                    message_id = await self._retrying(
                        chat_id, partial(self._send, chat_id, item.content, item.reply_to))
                except Forbidden:
                    await self._forbidden(chat_id)
                except BadRequest as exc:
                    log.warning("Telegram refused a message to %s: %s", chat_id, exc.message)
                except GaveUp:
                    pass
                except Exception:
                    log.exception("sending to %s failed", chat_id)
                finally:
                    if not item.done.done():
                        item.done.set_result(message_id)
        finally:
            self._post_tasks.pop(chat_id, None)
            if not queue:
                self._posts.pop(chat_id, None)
            elif not self._closed:
                self._post_tasks[chat_id] = asyncio.create_task(self._run_posts(chat_id))

    async def _call(self, method: str, params: dict[str, Any]) -> Any:
        """A Bot API call whose answer is used raw.

        PTB's typed methods turn every answer into a Message object, which is a
        third of the cost of an edit and thrown away here. Its do_api_request
        warns when given the name of a method it wraps; Bot API method names
        are case-insensitive, so the lower-case name reaches the same method.
        The rate limiter and PTB's error mapping apply as for any call.
        """
        return await self.bot.do_api_request(method, api_kwargs=params)

    @staticmethod
    def _params(chat_id: int, content: Content) -> dict[str, Any]:
        params: dict[str, Any] = {"chat_id": chat_id, "text": content.text, "parse_mode": ParseMode.HTML,
                                  "link_preview_options": _NO_PREVIEW}
        if content.keyboard:
            params["reply_markup"] = markup_dict(content.keyboard)
        return params

    async def _edit(self, chat_id: int, message_id: int, content: Content) -> None:
        await self._call("editmessagetext", {**self._params(chat_id, content), "message_id": message_id})

    async def _send(self, chat_id: int, content: Content, reply_to: int | None = None) -> int:
        """Send a new message; its id."""
        params = self._params(chat_id, content)
        if reply_to:
            params["reply_parameters"] = {"message_id": reply_to, "allow_sending_without_reply": True}
        result = await self._call("sendmessage", params)
        return int(result["message_id"])

    # ---- retries -------------------------------------------------------------------

    async def _retrying(self, chat_id: int, call: Callable[[], Awaitable[_T]],
                        superseded: Callable[[], bool] = lambda: False) -> _T:
        """`call` until it works; RetryAfter is waited out, network errors backed off.

        Raises Forbidden and BadRequest at once (retrying cannot help), Superseded
        when a newer drawing is waiting, GaveUp after `max_attempts` network errors.
        """
        failures = 0
        while True:
            try:
                return await call()
            except (BadRequest, Forbidden):
                raise
            except RetryAfter as exc:
                wait = retry_seconds(exc) + 0.05
                log.info("flood control in chat %s: waiting %.1f s", chat_id, wait)
            except NetworkError as exc:
                failures += 1
                if failures >= self.max_attempts:
                    log.warning("giving up on chat %s after %d network errors: %s", chat_id,
                                failures, exc.message)
                    raise GaveUp from exc
                wait = min(self.backoff_cap, 0.25 * 2 ** (failures - 1))
                log.info("network error for chat %s (%s); retrying in %.1f s", chat_id,
                         exc.message, wait)
            except TelegramError as exc:
                log.warning("Telegram error for chat %s: %s", chat_id, exc.message)
                raise GaveUp from exc
            if self._closed:
                raise GaveUp
            if superseded():
                raise Superseded
            await asyncio.sleep(wait)

    # ---- lifecycle -------------------------------------------------------------------

    async def drain(self, timeout: float) -> None:
        """Send what is waiting (delayed slots at once), for at most `timeout` seconds."""
        for target in list(self._scheduled):
            self._scheduled.discard(target)
            if target not in self._slot_tasks and target in self._pending:
                self._start_slot(target)
        tasks = [*self._slot_tasks.values(), *self._post_tasks.values()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    async def close(self, timeout: float = 5.0) -> None:
        await self.drain(timeout)
        self._closed = True
        tasks = [*self._slot_tasks.values(), *self._post_tasks.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for pending in self._pending.values():
            for waiter in pending.waiters:
                if not waiter.done():
                    waiter.set_result(False)
        self._pending.clear()
        for queue in self._posts.values():
            for item in queue:
                if not item.done.done():
                    item.done.set_result(None)
        self._posts.clear()
