"""Messages edited in place (a game's table, a player's hand), drawn from the latest state.

Updating a slot stores how to draw it; at most one drawing per slot is under way, and when
it returns the slot is drawn again if anything changed meanwhile, so any number of moves
made meanwhile cost a single edit. Unchanged content is not sent again, and Telegram's
"message is not modified" counts as done. The first update of a slot without a message
sends one and keeps its id in the game's refs (so it survives a restart). A slot is drawn
through the sessions' hold on that message (with a store other bot processes share, one
process at a time draws it; one that finds it held leaves it to the holder); there the slot
book (`refbook.SharedRefBook`) reads its id from the store each time and keeps a fingerprint
of what it shows, so that what a process remembers drawing is used only while it is still
what the message shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from telegram.error import BadRequest, ChatMigrated, Forbidden
from telegram.ext import CallbackContext, JobQueue

from ... import metrics
from ...sessions import HandedOver
from .content import (
    Content,
    GaveUp,
    Hold,
    PhotoFailed,
    Refusals,
    Render,
    Slotted,
    Superseded,
    Target,
    is_gone,
    is_not_modified,
    lost_topic,
)
from .identity import PLATFORM
from .limits import SendWindow
from .pacing import Pacer
from .refbook import RefBook
from .sender import Sender
from .tasks import cancel_all

log = logging.getLogger(__name__)

FRESH_RETRY = 1.0
"""Seconds before a message asked for anew, which another process was drawing, is tried again."""


@dataclass(slots=True)
class _Pending:
    render: Render
    waiters: list[asyncio.Future[bool]] = field(default_factory=list)
    fresh: bool = False


class Slots:
    """`ring_rate`: private messages asked for anew (a turn's ring) a second, past which such a
    message is edited in place instead."""

    def __init__(self, sender: Sender, refs: RefBook, pacer: Pacer, refusals: Refusals, *,
                 hold: Hold | None = None, job_queue: JobQueue[Any] | None = None,
                 rings: SendWindow | None = None) -> None:
        self.sender, self.refs, self.pacer, self.refusals = sender, refs, pacer, refusals
        self.hold = hold
        self.job_queue = job_queue
        self.rings = rings if rings is not None else SendWindow(12)
        self.closed = False
        self._pending: dict[Target, _Pending] = {}
        self._tasks: dict[Target, asyncio.Task[None]] = {}
        self._scheduled: set[Target] = set()
        self._shown: dict[Target, Content] = {}
        self._text_only: set[Target] = set()
        """Slots whose photo failed: text from then on."""
        self._rechecks: set[asyncio.TimerHandle] = set()
        self._strays: dict[Target, set[int]] = {}
        """Messages acted on while this process was drawing their slot, to look at once that
        drawing is done: bookkeeping of this process's own drawings, nothing other processes
        need (what a slot keeps is in the game's refs)."""
        self._sweeps: set[asyncio.Task[None]] = set()
        self._urgent = 0
        self._calm = asyncio.Event()
        self._calm.set()

    @contextlib.asynccontextmanager
    async def first(self) -> AsyncIterator[None]:
        """While any caller is inside, slots wait to be drawn (see `Outbox.first`)."""
        self._urgent += 1
        self._calm.clear()
        try:
            yield
        finally:
            self._urgent -= 1
            if not self._urgent:
                self._calm.set()

    def update(self, target: Target, render: Render, delay: float = 0.0,
               fresh: bool = False) -> asyncio.Future[bool]:
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if self.closed:
            done.set_result(False)
            return done
        if target.chat_id in self.refusals.moved:
            target = dataclasses.replace(target, chat_id=self.refusals.moved[target.chat_id])
        pending = self._pending.get(target)
        if pending is None:
            self._pending[target] = _Pending(render, [done], fresh)
        else:
            pending.render = render
            pending.waiters.append(done)
            pending.fresh = pending.fresh or fresh
        if target in self._tasks or target in self._scheduled:
            return done
        if delay > 0 and self.job_queue is not None and self.job_queue.scheduler.running:
            self._scheduled.add(target)
            self.job_queue.run_once(self._due, when=delay, data=target)
        else:
            self._start(target)
        return done

    async def _due(self, context: CallbackContext[Any, Any, Any, Any]) -> None:
        target = context.job.data if context.job else None
        if isinstance(target, Target):
            self._scheduled.discard(target)
            if target not in self._tasks and target in self._pending:
                self._start(target)

    def _start(self, target: Target) -> None:
        self._tasks[target] = asyncio.create_task(self._run(target), name=f"telegram-slot-{target}")

    async def _run(self, target: Target) -> None:
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
            self._tasks.pop(target, None)
            if target in self._pending and not self.closed:
                self._start(target)
            elif target in self._strays and not self.closed:
                self._sweep(target, self._strays.pop(target), unless_kept=True)

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
            handle: asyncio.TimerHandle = asyncio.get_running_loop().call_later(
                after, lambda: self._recheck(target, render, fresh, handle))
            self._rechecks.add(handle)
            return True
        return outcome

    def _recheck(self, target: Target, render: Render, fresh: bool, handle: asyncio.TimerHandle) -> None:
        self._rechecks.discard(handle)
        self.update(target, render, fresh=fresh)

    # ---- what the slot's message shows ---------------------------------------------------

    async def message(self, target: Target) -> Slotted:
        """The slot's message as the game's refs keep it; what this process remembers showing
        there is forgotten if another process drew it since (its fingerprint differs)."""
        if target.message_id is not None:
            return Slotted(target.message_id, target.photo)
        if target.game_id is None:
            return Slotted()
        slotted = Slotted.parse(await self.refs.get(target.game_id, target.ref))
        shown = self._shown.get(target)
        if shown is not None and self.refs.fingerprint(shown) not in (None, slotted.shows):
            del self._shown[target]
        return slotted

    def _shows(self, target: Target, slotted: Slotted, content: Content) -> bool:
        """Whether the slot's message shows `content` already (drawn by this process, or
        as its fingerprint says, by another)."""
        if self._shown.get(target) == content:
            return True
        if slotted.shows is not None and slotted.shows == self.refs.fingerprint(content):
            self._shown[target] = content
            return True
        return False

    async def _drew(self, target: Target, message_id: int, photo: bool, content: Content, new: bool) -> None:
        """`content` shows in the slot's message: remember it, and keep the message (`new`)
        or the fingerprint of what it shows, where the slot book keeps one."""
        self._shown[target] = content
        metrics.drawn(PLATFORM, target.game_id)
        shows = self.refs.fingerprint(content)
        if target.game_id is not None and (new or shows is not None):
            await self.refs.set(target.game_id, target.ref, Slotted(message_id, photo, shows).value())
        if target.game_id is not None:
            for key, value in content.keeps:
                await self.refs.set(target.game_id, key, value)

    async def adopt(self, target: Target, message_id: int, photo: bool) -> None:
        """A player acted on `message_id`, a message of this slot that the slot may not keep:
        one sent just before the bot was killed, whose id was never kept, or one kept before it
        whose deletion the kill cut off. The newer of the two becomes the slot's message (the
        next drawing shows where the player is looking) and the older is deleted. While the slot
        is being drawn the message acted on may be the one on its way: it is looked at again
        once that drawing is done, and deleted if the slot did not keep it."""
        if target.game_id is None:
            return
        kept = None if self._busy(target) else (await self.message(target)).message_id
        if self._busy(target):
            self._strays.setdefault(target, set()).add(message_id)
            return
        if kept is None or kept == message_id:
            return
        if message_id > kept:
            await self.refs.set(target.game_id, target.ref, Slotted(message_id, photo).value())
            self._shown.pop(target, None)
        self._sweep(target, {min(kept, message_id)})

    def _busy(self, target: Target) -> bool:
        return target in self._tasks or target in self._pending or target in self._scheduled

    def _sweep(self, target: Target, strays: set[int], unless_kept: bool = False) -> None:
        """Delete `strays` in the slot's chat, in the background; `unless_kept`: all but the one
        the slot keeps by then."""
        async def sweep() -> None:
            kept = (await self.message(target)).message_id if unless_kept else None
            for message_id in sorted(strays - {kept}):
                log.info("%s: deleting message %s, left behind", target, message_id)
                await self.sender.delete(target.chat_id, message_id)

        task = asyncio.create_task(sweep(), name=f"telegram-sweep-{target}")
        self._sweeps.add(task)
        task.add_done_callback(self._sweeps.discard)

    # ---- drawing -------------------------------------------------------------------------

    def _rings(self, target: Target, fresh: bool) -> bool:
        """Whether a private message asked for anew is sent anew: only while the bot's rings
        of the last second leave room; otherwise it is edited in place, at once."""
        if not fresh or target.chat_id < 0:
            return fresh
        if self.rings.room():
            self.rings.sent()
            return True
        log.debug("the bot's messages this second are spent: %s is edited, not sent anew", target)
        return False

    async def _deliver(self, target: Target, render: Render, fresh: bool = False) -> bool:
        """Draw and send or edit; False if Telegram refused for good (blocked, bad request).
        `fresh` sends a new message even when the old one could be edited, and deletes the old
        one once the new one is there: a new message rings the phone, an edit does not."""
        fresh = self._rings(target, fresh)
        content = await render()
        for _ in range(3):
            if content is None:
                return True
            slotted = await self.message(target)
            if slotted.message_id is None and target.game_id is None:
                return False
            if slotted.message_id is not None and not fresh and self._shows(target, slotted, content):
                return True
            content = await self._latest(target, render, content, slotted, fresh)
            if content is None:
                return True
            outcome = await self._attempt(target, content, slotted, fresh)
            if outcome is not None:
                return outcome
        return False

    async def _latest(self, target: Target, render: Render, content: Content, slotted: Slotted,
                      fresh: bool) -> Content | None:
        """`content`, or what the slot shows by the time the group's window has room for it
        (None: nothing left to draw)."""
        if not await self.pacer.ready(target.chat_id, target.game_id, post=fresh):
            return content
        newer = self._pending.get(target)
        if newer is not None and newer.fresh and not fresh:
            return None  # drawn anew below what the wait let go first (a round's breakdown)
        latest = await render()
        if latest is None or (latest != content and slotted.message_id is not None and not fresh
                              and self._shown.get(target) == latest):
            return None
        return latest

    async def _attempt(self, target: Target, content: Content, slotted: Slotted, fresh: bool) -> bool | None:
        """One drawing: True or False as `_deliver` says, None to try again (as text, or in a
        new message)."""
        try:
            await self._draw(target, content, slotted, fresh)
            return True
        except PhotoFailed as failed:
            log.warning("could not send %s as a photo (%s); sending it as text", target, failed.reason)
            self._text_only.add(target)
            return None
        except ChatMigrated as exc:
            await self.refusals.chat_moved(target.chat_id, int(exc.new_chat_id))
        except BadRequest as exc:
            return await self._refused(target, content, slotted, exc)
        except Forbidden:
            await self.refusals.forbidden(target.chat_id)
        except GaveUp:
            pass
        return False

    async def _draw(self, target: Target, content: Content, slotted: Slotted, fresh: bool) -> None:
        """A new message (none yet, asked for anew, or a text that becomes a photo or back:
        Telegram cannot turn one into the other), or an edit."""
        chat_id, message_id = target.chat_id, slotted.message_id
        photo = (content.picture is not None and self.sender.photos_for(chat_id)
                 and target not in self._text_only)

        def superseded() -> bool:
            return target in self._pending

        if message_id is None or photo != slotted.photo or fresh:
            sent = await self.sender.new_message(chat_id, content, photo, target.thread, superseded)
            await self._drew(target, sent, photo, content, new=True)
            if message_id is not None:
                await self.sender.delete(chat_id, message_id)
        else:
            if photo:
                await self.sender.edit_photo(chat_id, message_id, content, self._shown.get(target),
                                             superseded)
            else:
                await self.sender.retrying(chat_id, partial(self.sender.edit, chat_id, message_id, content),
                                           superseded)
            await self._drew(target, message_id, photo, content, new=False)

    async def _refused(self, target: Target, content: Content, slotted: Slotted,
                       exc: BadRequest) -> bool | None:
        if is_not_modified(exc):
            if slotted.message_id is not None:
                await self._drew(target, slotted.message_id, slotted.photo, content, new=False)
            return True
        if target.thread is not None and (how := lost_topic(exc)) is not None:
            await self.refusals.topic_lost(target.chat_id, target.thread, how)
            return False
        if is_gone(exc) and target.game_id is not None:
            log.info("message of %s is gone; sending a new one", target)
            await self.refs.set(target.game_id, target.ref, None)
            self._shown.pop(target, None)
            return None
        log.warning("Telegram refused to draw %s: %s", target, exc.message)
        return False

    # ---- lifecycle -----------------------------------------------------------------------

    def forget(self, game_id: int) -> None:
        for target in [t for t in self._shown if t.game_id == game_id]:
            del self._shown[target]
        self._text_only = {t for t in self._text_only if t.game_id != game_id}

    def start_scheduled(self) -> list[asyncio.Task[None]]:
        """Delayed slots start at once; the drawings and deletions under way."""
        for target in list(self._scheduled):
            self._scheduled.discard(target)
            if target not in self._tasks and target in self._pending:
                self._start(target)
        return [*self._tasks.values(), *self._sweeps]

    async def close(self) -> None:
        self.closed = True
        for handle in self._rechecks:
            handle.cancel()
        self._rechecks.clear()
        await cancel_all(self._tasks.values())
        await cancel_all(self._sweeps)
        for pending in self._pending.values():
            for waiter in pending.waiters:
                if not waiter.done():
                    waiter.set_result(False)
        self._pending.clear()
