"""Sending to Telegram without flooding it and without losing anything.

Two kinds of traffic:

* a *slot* is one message that is edited in place (a game's lobby/table
  message, a player's hand). Updating a slot stores how to draw it; at most
  one request per slot is in flight, and when it returns the slot is drawn
  again from the latest state, so any number of moves made meanwhile cost a
  single edit. Unchanged content is not sent again, and Telegram's "message is
  not modified" counts as done. The first update of a slot without a message
  sends one and keeps its id in the game's refs (so it survives a restart).
  With a store other bot processes share, a slot is drawn through the sessions'
  hold on that message (one process at a time draws it; one that finds it held
  leaves it to the holder), its id is read from the store each time, and the refs
  keep a fingerprint of what it shows, so that what a process remembers drawing is
  used only while it is still what the message shows.
* a *post* is a new message (round breakdown, end of match, replies); posts to
  one chat go out in order.

Group messages, sent or edited, are paced here (at most 20 in any minute per group, see `_pace`;
with several processes on one store, counted in the store for all of them); the
rate limiter paces the bot as a whole (30 a second). A RetryAfter is waited
out and network errors are retried with backoff. Moves are committed before anything is sent,
so a failed send loses nothing: the next draw shows the latest state.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from telegram import Bot, InputFile, InputMediaPhoto
from telegram.constants import FloodLimit, ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.ext import CallbackContext, JobQueue

from ...sessions import HandedOver, MessageRefs
from ..common.digest import digest
from .keyboards import Keyboard, markup_dict
from .limits import GroupWindow, SendWindow, retry_seconds

log = logging.getLogger(__name__)

_T = TypeVar("_T")
GROUP_RATE = (float(FloodLimit.MESSAGES_PER_MINUTE_PER_GROUP), 60.0)
_NO_PREVIEW = {"is_disabled": True}


CAPTION_LIMIT = 1024
RING_RATE = 12
"""Rings a second past which a turn's hand is edited rather than sent anew. Of the bot's 30
new messages and group edits a second, the rest go to group tables, breakdowns and answers;
at 20 a second, rings decided together queued for places and a hand took up to 1.2 s at the
99th percentile with 100 busy groups (`benchmarks/telegram_taps.py`), at 12 it takes 0.27 s."""
SENT_REF = "sent"
"""A game's ref holding when its group's last messages went (Unix times, comma-separated)."""
FRESH_RETRY = 1.0
"""Seconds before a message asked for anew, which another process was drawing, is tried again."""
PHOTO_NAME = "picture.jpg"
PHOTO_PREFIX = "photo:"
"""A slot's ref is the message id, with this prefix when the message is a photo, and with a
shared store a space and the fingerprint of what it shows."""


@dataclass(frozen=True, slots=True)
class Picture:
    """A photo drawn by the outbox's painter only when it must be uploaded: `scene` (a frozen
    scene of `bot.pictures`, so that an unchanged picture compares equal and costs nothing)
    in `lang`, under `caption` (HTML, at most 1,024 characters once parsed)."""

    scene: Hashable
    lang: str
    caption: str


@dataclass(frozen=True, slots=True)
class Content:
    """A message: `text` (HTML) with its buttons; with a `picture`, a photo whose caption is the
    picture's, and `text` what the message says when it cannot be a photo."""

    text: str
    keyboard: Keyboard = ()
    picture: Picture | None = None


Render = Callable[[], Awaitable[Content | None]]
Painter = Callable[[Picture], Awaitable[bytes]]
Hold = Callable[[int, str, Callable[[bool], Awaitable[bool]]], Awaitable["bool | HandedOver"]]
"""Draws one of a game's messages one process at a time (`Sessions.draw_message`)."""


@dataclass(frozen=True, slots=True)
class Slotted:
    """What a game's refs say of a slot: its message, whether that is a photo, and the
    fingerprint of what it shows (None: not known)."""

    message_id: int | None = None
    photo: bool = False
    shows: str | None = None

    @staticmethod
    def parse(value: str | None) -> Slotted:
        if not value:
            return Slotted()
        kept, _, shows = value.partition(" ")
        photo = kept.startswith(PHOTO_PREFIX)
        try:
            return Slotted(int(kept.removeprefix(PHOTO_PREFIX)), photo, shows or None)
        except ValueError:
            log.warning("unreadable message reference %r", value[:40])
            return Slotted()

    def value(self) -> str:
        kept = f"{PHOTO_PREFIX if self.photo else ''}{self.message_id}"
        return f"{kept} {self.shows}" if self.shows else kept


class PhotoFailed(Exception):
    """A photo could not be drawn or sent; the message is sent as text instead."""

    def __init__(self, reason: str, *, no_rights: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.no_rights = no_rights


@dataclass(frozen=True, slots=True)
class Target:
    """A message that is edited in place: by id, or kept under `ref` in a game's refs."""

    chat_id: int
    game_id: int | None = None
    ref: str = ""
    message_id: int | None = None
    thread: int | None = field(default=None, compare=False)
    """The forum topic a new message of the slot goes to (None: the chat, or General); the
    slot is the same whichever its caller named."""


class Superseded(Exception):
    """A newer drawing of the same slot is waiting; this one is not worth retrying."""


class GaveUp(Exception):
    pass


def is_not_modified(exc: BadRequest) -> bool:
    return "not modified" in exc.message.lower()


def lost_topic(exc: BadRequest) -> str | None:
    """How a forum topic refuses the bot: "closed" or "deleted"; None for any other refusal."""
    text = exc.message.lower()
    if "topic_closed" in text:
        return "closed"
    if "message thread not found" in text or "topic_deleted" in text:
        return "deleted"
    return None


def is_gone(exc: BadRequest) -> bool:
    text = exc.message.lower()
    return any(s in text for s in ("message to edit not found", "message can't be edited",
                                   "message_id_invalid", "message not found"))


class RefBook:
    """Message ids of a game's slots, cached, kept with the game through the sessions' message references.

    The cache is changed before the store is written and a read from the store
    never replaces it: a lookup that overlaps a `set` (a Join tapped as the lobby
    is posted) must find the new message, not post a second one. A store other
    processes write (`shared`) is read every time instead: there the slot's
    hold keeps its drawings one at a time."""

    def __init__(self, store: MessageRefs) -> None:
        self._store = store
        self.shared = bool(getattr(store, "shared", False))
        self._cache: dict[int, dict[str, str]] = {}

    async def _refs(self, game_id: int) -> dict[str, str]:
        if self.shared:
            return await self._store.get_refs(game_id)
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

    async def take_send(self, chat_id: int, limit: int, period: float) -> float:
        """One of the group's messages, counted in the store for every process
        (`MessageRefs.take_send`): 0.0, or the seconds to wait first."""
        return await self._store.take_send(f"telegram:{chat_id}", time.time(), limit, period)


@dataclass(slots=True)
class _Post:
    content: Content
    reply_to: int | None
    done: asyncio.Future[int | None]
    game_id: int | None = None
    thread: int | None = None


@dataclass(slots=True)
class _Pending:
    render: Render
    waiters: list[asyncio.Future[bool]] = field(default_factory=list)
    fresh: bool = False


class Outbox:
    def __init__(self, bot: Bot, refs: RefBook, *,
                 on_forbidden: Callable[[int], Awaitable[None]] | None = None,
                 on_lost_topic: Callable[[int, int, str], Awaitable[None]] | None = None,
                 job_queue: JobQueue[Any] | None = None, max_attempts: int = 10,
                 backoff_cap: float = 30.0,
                 group_rate: tuple[float, float] | None = GROUP_RATE,
                 painter: Painter | None = None, hold: Hold | None = None,
                 ring_rate: int = RING_RATE) -> None:
        self.bot = bot
        self.painter = painter
        """Draws a content's picture; without one, every message is text."""
        self.hold = hold
        """Draws a game's message one process at a time; without one, this process is the only one."""
        self._rechecks: set[asyncio.TimerHandle] = set()
        self.refusing: set[int] = set()
        """Chats that refused the bot (it was removed, or blocked) since they last took a message."""
        self.on_lost_topic = on_lost_topic
        """Told (chat, topic, "closed" or "deleted") when a forum topic refuses a message."""
        self.lost_topics: set[tuple[int, int]] = set()
        """(chat, topic) of forum topics that refused the bot since they last took a message."""
        self._no_photos: set[int] = set()
        """Chats that refused a photo for want of rights: text from then on."""
        self._text_only: set[Target] = set()
        """Slots whose photo failed: text from then on."""
        self._recalls: dict[tuple[int, int], asyncio.Future[None]] = {}
        """Per group and game, the reading of the sends kept from before a restart."""
        self.uploaded = 0
        """Bytes of photos uploaded."""
        self.sends = SendWindow(ring_rate)
        """Private messages asked for anew (a turn's ring) in the last second: past `ring_rate`
        such a message is edited in place instead."""
        self.refs = refs
        self.on_forbidden = on_forbidden
        self.on_migrated: Callable[[int, int], Awaitable[None]] | None = None
        """Called with a group's old and new id when Telegram says it became a supergroup."""
        self.moved: dict[int, int] = {}
        """Groups that became supergroups: their old id, their new; what is sent to the old goes
        to the new."""
        self.job_queue = job_queue
        self.max_attempts = max_attempts
        self.backoff_cap = backoff_cap
        self.group_rate = group_rate
        self._group_limiters: dict[int, GroupWindow] = {}
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
        if target.chat_id in self.moved:
            target = dataclasses.replace(target, chat_id=self.moved[target.chat_id])
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
                    delivered = await self._one_at_a_time(target, pending)
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

    async def _one_at_a_time(self, target: Target, pending: _Pending) -> bool:
        """Draw the slot, of all processes on the store only this one at this moment; if
        another is drawing it, it draws it again for this one, and this one looks again
        when that one's hold would run out, should it die first."""
        async def attempt(first: bool) -> bool:
            return await self._deliver(target, pending.render, fresh=first and pending.fresh)

        if self.hold is None or target.game_id is None:
            return await attempt(True)
        outcome = await self.hold(target.game_id, target.ref, attempt)
        if isinstance(outcome, HandedOver):
            # A message asked for anew (a hand reposted) is not the holder's to edit.
            after, fresh = (FRESH_RETRY, True) if pending.fresh else (outcome.after + 0.5, False)
            render = pending.render
            handle = asyncio.get_running_loop().call_later(
                after, lambda: self._recheck(target, render, fresh, handle))
            self._rechecks.add(handle)
            return True
        return outcome

    def _recheck(self, target: Target, render: Render, fresh: bool, handle: asyncio.TimerHandle) -> None:
        self._rechecks.discard(handle)
        self.update(target, render, fresh=fresh)

    async def message_of(self, target: Target) -> int | None:
        """The id of the message that shows `target`, if there is one."""
        return (await self._message(target)).message_id

    async def _message(self, target: Target) -> Slotted:
        """The slot's message as the game's refs keep it; with a shared store, what this
        process remembers showing there is forgotten if another process drew it since."""
        if target.message_id is not None:
            return Slotted(target.message_id)
        if target.game_id is None:
            return Slotted()
        slotted = Slotted.parse(await self.refs.get(target.game_id, target.ref))
        shown = self._shown.get(target)
        if self.refs.shared and shown is not None and digest(shown) != slotted.shows:
            del self._shown[target]
        return slotted

    def _shows(self, target: Target, slotted: Slotted, content: Content) -> bool:
        """Whether the slot's message shows `content` already (drawn by this process, or
        as its fingerprint says, by another)."""
        if self._shown.get(target) == content:
            return True
        if self.refs.shared and slotted.shows is not None and slotted.shows == digest(content):
            self._shown[target] = content
            return True
        return False

    async def _drew(self, target: Target, message_id: int, photo: bool, content: Content,
                    new: bool) -> None:
        """`content` shows in the slot's message: remember it, and keep the message (`new`)
        or, with a shared store, the fingerprint of what it shows."""
        self._shown[target] = content
        if target.game_id is not None and (new or self.refs.shared):
            shows = digest(content) if self.refs.shared else None
            await self.refs.set(target.game_id, target.ref, Slotted(message_id, photo, shows).value())

    def _as_photo(self, target: Target, content: Content) -> bool:
        return (content.picture is not None and self.painter is not None
                and target.chat_id not in self._no_photos and target not in self._text_only)

    async def _deliver(self, target: Target, render: Render, fresh: bool = False) -> bool:
        """Draw and send or edit; False if Telegram refused for good (blocked, bad request).

        A photo replaces a text message (and a text a photo) by a new message, the old one
        deleted: Telegram cannot turn one into the other. A photo that fails is sent as text.
        `fresh` sends a new message even when the old one could be edited, and deletes the old
        one once the new one is there: a new message rings the phone, an edit does not."""
        def superseded() -> bool:
            return target in self._pending

        if fresh and target.chat_id > 0:
            if self.sends.room():
                self.sends.sent()
            else:
                log.debug("the bot's messages this second are spent: %s is edited, not sent anew", target)
                fresh = False
        content = await render()
        for _ in range(3):
            if content is None:
                return True
            slotted = await self._message(target)
            message_id, is_photo = slotted.message_id, slotted.photo
            if message_id is None and target.game_id is None:
                return False
            if message_id is not None and not fresh and self._shows(target, slotted, content):
                return True
            if await self._pace(target.chat_id, target.game_id):
                latest = await render()
                if latest != content:
                    content = latest
                    if content is None or (message_id is not None and not fresh
                                           and self._shown.get(target) == content):
                        return True
            photo = self._as_photo(target, content)
            try:
                if message_id is None or photo != is_photo or fresh:
                    sent = await self._send_slot(target, content, photo, superseded)
                    await self._drew(target, sent, photo, content, new=True)
                    if message_id is not None:
                        await self._delete(target.chat_id, message_id)
                    return True
                if photo:
                    await self._edit_photo(target, message_id, content, superseded)
                else:
                    await self._retrying(
                        target.chat_id, partial(self._edit, target.chat_id, message_id, content),
                        superseded)
                await self._drew(target, message_id, photo, content, new=False)
                return True
            except PhotoFailed as failed:
                log.warning("could not send %s as a photo (%s); sending it as text", target, failed.reason)
                if failed.no_rights:
                    self._no_photos.add(target.chat_id)
                self._text_only.add(target)
                continue
            except ChatMigrated as exc:
                await self.chat_moved(target.chat_id, int(exc.new_chat_id))
                return False
            except BadRequest as exc:
                if is_not_modified(exc):
                    if message_id is not None:
                        await self._drew(target, message_id, is_photo, content, new=False)
                    return True
                if target.thread is not None and (how := lost_topic(exc)) is not None:
                    await self._topic_lost(target.chat_id, target.thread, how)
                    return False
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

    async def _send_slot(self, target: Target, content: Content, photo: bool,
                         superseded: Callable[[], bool]) -> int:
        if not photo:
            return await self._retrying(target.chat_id, partial(
                self._send, target.chat_id, content, thread=target.thread), superseded)
        assert content.picture is not None
        data = await self._draw(content.picture)
        return await self._photo_call(target.chat_id, partial(
            self._send_photo, target.chat_id, data, content, target.thread), superseded)

    async def _edit_photo(self, target: Target, message_id: int, content: Content,
                          superseded: Callable[[], bool]) -> None:
        """The same picture with another caption or other buttons costs no upload."""
        picture = content.picture
        assert picture is not None
        shown = self._shown.get(target)
        before = shown.picture if shown is not None else None
        if before is not None and (before.scene, before.lang) == (picture.scene, picture.lang):
            await self._retrying(target.chat_id, partial(
                self._edit_caption, target.chat_id, message_id, content), superseded)
            return
        data = await self._draw(picture)
        await self._photo_call(target.chat_id, partial(
            self._edit_media, target.chat_id, message_id, data, content), superseded)

    async def _draw(self, picture: Picture) -> bytes:
        assert self.painter is not None
        try:
            return await self.painter(picture)
        except Exception as exc:
            log.exception("drawing a picture failed")
            raise PhotoFailed(f"drawing failed: {exc!r}") from exc

    async def _photo_call(self, chat_id: int, call: Callable[[], Awaitable[_T]],
                          superseded: Callable[[], bool]) -> _T:
        """An upload; a refusal that text would not get (no right to send photos, a bad file)
        or an upload that keeps failing is a `PhotoFailed`."""
        try:
            return await self._retrying(chat_id, call, superseded)
        except BadRequest as exc:
            if is_not_modified(exc) or is_gone(exc) or lost_topic(exc):
                raise
            raise PhotoFailed(exc.message, no_rights="not enough rights" in exc.message.lower()) from exc
        except GaveUp as exc:
            raise PhotoFailed("the upload kept failing") from exc

    async def _delete(self, chat_id: int, message_id: int) -> None:
        """Best effort: an old message left behind is only clutter."""
        try:
            await self._call("deletemessage", {"chat_id": chat_id, "message_id": message_id})
        except TelegramError as exc:
            log.info("could not delete message %s in %s: %s", message_id, chat_id, exc.message)

    async def _pace(self, chat_id: int, game_id: int | None = None, post: bool = False) -> bool:
        """Take one of a group's messages a minute (`post`: for a new message, which goes
        before waiting edits); True if that meant waiting.

        Pacing here, before the last drawing, rather than in the rate limiter
        after it, means a table edit that had to wait shows the state it
        goes out with, not the one it was queued with. The group's recent
        sends are kept with the game's refs (`sent`), so that a bot started
        again right after a crash still knows how many the minute has left.
        """
        if chat_id >= 0 or self.group_rate is None:
            return False
        if self.refs.shared:
            return await self._pace_shared(chat_id)
        limiter = self._group_window(chat_id)
        if game_id is not None:
            recall = self._recalls.get((chat_id, game_id))
            if recall is None:
                recall = self._recalls[(chat_id, game_id)] = asyncio.ensure_future(
                    self._recall(limiter, game_id))
            await recall
        waited = limiter.full()
        await limiter.acquire(post)
        if game_id is not None:
            await self._keep_sends(limiter, game_id)
        return waited

    async def _pace_shared(self, chat_id: int) -> bool:
        """With several processes on one store, the group's window is counted in the store,
        so that the group gets its 20 messages a minute from all of them together."""
        assert self.group_rate is not None
        limit, period = self.group_rate
        waited = False
        while (wait := await self.refs.take_send(chat_id, int(limit), period)) > 0:
            waited = True
            await asyncio.sleep(wait + 0.01)
        return waited

    async def _recall(self, limiter: GroupWindow, game_id: int) -> None:
        try:
            value = await self.refs.get(game_id, SENT_REF)
        except Exception:
            log.exception("could not read the recent sends of game %s", game_id)
            return
        if not value:
            return
        offset = time.time() - time.monotonic()
        try:
            limiter.remember([float(wall) - offset for wall in value.split(",")])
        except ValueError:
            log.warning("recent sends of game %s unreadable: %r", game_id, value)

    async def _keep_sends(self, limiter: GroupWindow, game_id: int) -> None:
        offset = time.time() - time.monotonic()
        value = ",".join(f"{mono + offset:.2f}" for mono in limiter.sent)
        try:
            await self.refs.set(game_id, SENT_REF, value)
        except Exception:
            log.exception("could not keep the recent sends of game %s", game_id)

    def _group_window(self, chat_id: int) -> GroupWindow:
        assert self.group_rate is not None
        limiter = self._group_limiters.get(chat_id)
        if limiter is None:
            if len(self._group_limiters) > 512:
                for key, window in list(self._group_limiters.items()):
                    if window.idle():
                        del self._group_limiters[key]
            limit, period = self.group_rate
            limiter = self._group_limiters[chat_id] = GroupWindow(int(limit), period)
        return limiter

    async def _topic_lost(self, chat_id: int, thread: int, how: str) -> None:
        log.info("topic %s of chat %s refuses the bot: it was %s", thread, chat_id, how)
        self.lost_topics.add((chat_id, thread))
        if self.on_lost_topic is not None:
            try:
                await self.on_lost_topic(chat_id, thread, how)
            except Exception:
                log.exception("lost topic handler failed")

    async def _forbidden(self, chat_id: int) -> None:
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

    def forget(self, game_id: int) -> None:
        """Drop what is remembered about a finished game's messages."""
        for target in [t for t in self._shown if t.game_id == game_id]:
            del self._shown[target]
        self._text_only = {t for t in self._text_only if t.game_id != game_id}
        for key in [key for key in self._recalls if key[1] == game_id]:
            del self._recalls[key]
        self.refs.forget(game_id)

    # ---- posts -------------------------------------------------------------------

    def post(self, chat_id: int, content: Content, reply_to: int | None = None,
             game_id: int | None = None, thread: int | None = None) -> asyncio.Future[int | None]:
        """Send a new message after the ones already queued for that chat; the future gets its id.
        `game_id`: the game it is about, whose refs keep the group's recent sends; `thread`: the
        forum topic it goes to (None: the chat, or a forum's General)."""
        done: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        if self._closed:
            done.set_result(None)
            return done
        chat_id = self.moved.get(chat_id, chat_id)
        self._posts.setdefault(chat_id, deque()).append(_Post(content, reply_to, done, game_id, thread))
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
                handed_over = False
                try:
                    await self._pace(chat_id, item.game_id, post=True)
                    message_id = await self._send_post(chat_id, item)
                    self.refusing.discard(chat_id)
                    self.lost_topics.discard((chat_id, item.thread or 0))
                except Forbidden:
                    await self._forbidden(chat_id)
                except ChatMigrated as exc:
                    moving, handed_over = [item, *queue], True
                    queue.clear()
                    for waiting in moving:
                        _chain(self.post(int(exc.new_chat_id), waiting.content, None, waiting.game_id,
                                         thread=waiting.thread), waiting.done)
                    await self.chat_moved(chat_id, int(exc.new_chat_id))
                except BadRequest as exc:
                    if item.thread is not None and (how := lost_topic(exc)) is not None:
                        await self._topic_lost(chat_id, item.thread, how)
                    else:
                        log.warning("Telegram refused a message to %s: %s", chat_id, exc.message)
                except GaveUp:
                    pass
                except Exception:
                    log.exception("sending to %s failed", chat_id)
                finally:
                    if not item.done.done() and not handed_over:
                        item.done.set_result(message_id)
        finally:
            self._post_tasks.pop(chat_id, None)
            if not queue:
                self._posts.pop(chat_id, None)
            elif not self._closed:
                self._post_tasks[chat_id] = asyncio.create_task(self._run_posts(chat_id))

    async def _send_post(self, chat_id: int, item: _Post) -> int:
        """A new message: a photo when it has a picture and the chat takes photos, its text
        otherwise or when the photo fails (as for slots)."""
        content = item.content
        if content.picture is not None and self.painter is not None and chat_id not in self._no_photos:
            try:
                data = await self._draw(content.picture)
                return await self._photo_call(
                    chat_id, partial(self._send_photo, chat_id, data, content, item.thread), lambda: False)
            except PhotoFailed as failed:
                log.warning("could not post a photo to %s (%s); sending it as text", chat_id, failed.reason)
                if failed.no_rights:
                    self._no_photos.add(chat_id)
        return await self._retrying(
            chat_id, partial(self._send, chat_id, content, item.reply_to, item.thread))

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
    def _params(chat_id: int, content: Content, thread: int | None = None) -> dict[str, Any]:
        params: dict[str, Any] = {"chat_id": chat_id, "text": content.text, "parse_mode": ParseMode.HTML,
                                  "link_preview_options": _NO_PREVIEW}
        if thread is not None:
            params["message_thread_id"] = thread
        if content.keyboard:
            params["reply_markup"] = markup_dict(content.keyboard)
        return params

    async def _edit(self, chat_id: int, message_id: int, content: Content) -> None:
        await self._call("editmessagetext", {**self._params(chat_id, content), "message_id": message_id})

    @staticmethod
    def _photo_params(chat_id: int, content: Content, thread: int | None = None) -> dict[str, Any]:
        assert content.picture is not None
        params: dict[str, Any] = {"chat_id": chat_id, "caption": content.picture.caption,
                                  "parse_mode": ParseMode.HTML}
        if thread is not None:
            params["message_thread_id"] = thread
        if content.keyboard:
            params["reply_markup"] = markup_dict(content.keyboard)
        return params

    async def _send_photo(self, chat_id: int, data: bytes, content: Content,
                          thread: int | None = None) -> int:
        """sendPhoto with the picture uploaded in the request (multipart/form-data)."""
        params = self._photo_params(chat_id, content, thread)
        params["photo"] = InputFile(data, filename=PHOTO_NAME)
        result = await self._call("sendphoto", params)
        self.uploaded += len(data)
        return int(result["message_id"])

    async def _edit_media(self, chat_id: int, message_id: int, data: bytes, content: Content) -> None:
        """editMessageMedia: a new picture (and caption) for the same message."""
        params = self._photo_params(chat_id, content)
        media = InputMediaPhoto(data, caption=params.pop("caption"), parse_mode=params.pop("parse_mode"),
                                filename=PHOTO_NAME)
        await self._call("editmessagemedia", {**params, "message_id": message_id, "media": media})
        self.uploaded += len(data)

    async def _edit_caption(self, chat_id: int, message_id: int, content: Content) -> None:
        """editMessageCaption: the same picture, another caption or other buttons."""
        await self._call("editmessagecaption",
                         {**self._photo_params(chat_id, content), "message_id": message_id})

    async def _send(self, chat_id: int, content: Content, reply_to: int | None = None,
                    thread: int | None = None) -> int:
        """Send a new message (in forum topic `thread`); its id."""
        params = self._params(chat_id, content, thread)
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
        retried = False
        while True:
            try:
                return await call()
            except (BadRequest, Forbidden, ChatMigrated):
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
                retried = True
            except TelegramError as exc:
                log.warning("Telegram error for chat %s: %s", chat_id, exc.message)
                raise GaveUp from exc
            if self._closed:
                raise GaveUp
            if superseded():
                raise Superseded
            await asyncio.sleep(wait)
            if retried:
                # A request lost on the way back may have reached the group: the next one takes
                # a place of its own in the group's minute.
                retried = False
                await self._pace(chat_id)

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
        for handle in self._rechecks:
            handle.cancel()
        self._rechecks.clear()
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


def _chain(source: asyncio.Future[int | None], target: asyncio.Future[int | None]) -> None:
    """`target` gets `source`'s result once it has one (a post handed to a group's new id)."""
    def settle(done: asyncio.Future[int | None]) -> None:
        if not target.done():
            target.set_result(None if done.cancelled() else done.result())

    source.add_done_callback(settle)
