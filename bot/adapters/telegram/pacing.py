"""Telegram's limits counted when each message goes, by one process or by all on one store.

A group takes 20 messages a minute and the bot 30 a second, sends and edits as Telegram
counts them (`limits.counted`). A message takes its place in a window as its request leaves,
after its picture is drawn (drawing may take longer than the rest), and the place counts from
when Telegram answered: counted when a message was only allowed, a group got 21 to 23 in a
minute. Before drawing, the outbox waits until the group's window has room (`Pacer.ready`), so
that a table edit that had to wait shows the state it goes out with (in the store, which cannot
be asked without counting, the place is taken then and used by the request that follows if it
goes within a margin the store's minute is longer by; otherwise the request takes another).

One process on its own store counts in memory (`GroupWindow`), and keeps a group's recent
sends with its game, so that a bot started again at once still knows how many the minute has
left. Processes sharing a store count there (`StoreWindow`, the store's `take_send`), the
group's and the bot's alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable

from ...sessions.ports import StorageAway
from .limits import JITTER, GroupWindow, MessagesRateLimiter, Window, counted, is_post

log = logging.getLogger(__name__)

SendCounter = Callable[[str, float, int, float], Awaitable[float]]
"""`FrontEndNotes.take_send`: count one message under a name at a time, or say how long to wait."""
SENT_REF = "sent"
"""A game's ref holding when its group's last messages went (Unix times, comma-separated)."""
BOT_KEY = "telegram:bot"
BOT_RATE = (30, 1.0 + JITTER)
STORE_MARGIN = 2.0
"""Seconds added to a group's minute counted in the store: there a place counts from when it
was taken, and the request may go a little later (after its picture is drawn, or once the bot's
second has room). A place taken before drawing is used only by a request within this margin."""
AWAY_RETRY = 1.0
"""Seconds a message waits before asking the store for its place again while the database is
away for a moment (`StorageAway`): it waits for the database rather than being dropped, or
sent uncounted."""
KEPT_WAIT = 0.1
"""Seconds of asking the store for a place past which `ready` says it waited."""
IDLE_KEPT = 512
"""Groups whose windows are kept before the idle ones are dropped."""


class _Turns:
    """One caller at a time, new messages before edits."""

    def __init__(self) -> None:
        self._busy = False
        self._waiting: dict[bool, deque[asyncio.Future[None]]] = {True: deque(), False: deque()}

    @contextlib.asynccontextmanager
    async def turn(self, post: bool, first: bool = False) -> AsyncIterator[None]:
        """The turn; `first`: before the others of its kind (one that gave its turn up)."""
        if self._busy:
            mine: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            if first:
                self._waiting[post].appendleft(mine)
            else:
                self._waiting[post].append(mine)
            try:
                await mine
            except asyncio.CancelledError:
                if mine in self._waiting[post]:
                    self._waiting[post].remove(mine)
                elif mine.done() and not mine.cancelled():
                    self._next()
                raise
        self._busy = True
        try:
            yield
        finally:
            self._next()

    def _next(self) -> None:
        for post in (True, False):
            while self._waiting[post]:
                turn = self._waiting[post].popleft()
                if not turn.done():
                    turn.set_result(None)
                    return
        self._busy = False

    def idle(self) -> bool:
        return not self._busy

    def posts_waiting(self) -> bool:
        return bool(self._waiting[True])


class StoreWindow:
    """At most `limit` messages in any `period` seconds under `key`, counted in the store for
    every process that shares it. In this process one request at a time asks the store (new
    messages first), so that a full window costs one question per free place, not one per
    waiting message. `clock` is the wall clock (the processes' clocks must agree, as for the
    holds)."""

    def __init__(self, take: SendCounter, key: str, limit: int, period: float,
                 clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.take, self.key, self.limit, self.period = take, key, limit, period
        self.clock, self.sleep = clock, sleep
        self.free_at = 0.0
        """When the store last said a place would free."""
        self._turns = _Turns()

    async def acquire(self, post: bool = False) -> float:
        """A place, asked for in turn; an edit that waited gives its turn up to a new message
        that came meanwhile, and asks again first of the edits."""
        gave_up = False
        while True:
            async with self._turns.turn(post, first=gave_up):
                while (wait := await self._ask()) > 0:
                    self.free_at = self.clock() + wait
                    await self.sleep(wait + 0.01)
                    if not post and self._turns.posts_waiting():
                        break
                else:
                    return self.clock()
            gave_up = True

    async def _ask(self) -> float:
        """The store's answer for one place; while the database is away, a short wait."""
        try:
            return await self.take(self.key, self.clock(), self.limit, self.period)
        except StorageAway as away:
            log.warning("counting a message for %s waits for the database (%s)", self.key, away)
            return AWAY_RETRY

    def sent_at(self, taken: float) -> None:
        """The store keeps when the place was taken: its `period` has the margin instead."""

    def idle(self) -> bool:
        return self._turns.idle() and self.clock() >= self.free_at


class Pacer:
    """Each group's `rate` (20 messages a minute), counted as each message goes (`sending`).

    `take`: the store's counter when other processes share it (None: this process alone, in
    memory). `refs_get`/`refs_set` read and write a game's refs, where a group's recent sends are
    kept in memory mode."""

    def __init__(self, rate: tuple[float, float] | None, *, take: SendCounter | None = None,
                 refs_get: Callable[[int, str], Awaitable[str | None]] | None = None,
                 refs_set: Callable[[int, str, str | None], Awaitable[None]] | None = None,
                 clock: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.rate = rate
        self.take = take
        self.refs_get, self.refs_set = refs_get, refs_set
        self.clock, self.wall, self.sleep = clock, wall, sleep
        self._windows: dict[int, GroupWindow | StoreWindow] = {}
        self._limiter: MessagesRateLimiter | None = None
        self._kept: dict[int, deque[float]] = {}
        """Per group, places `ready` took in the store, oldest first."""
        self._recalls: dict[tuple[int, int], asyncio.Future[None]] = {}

    def pace_with(self, limiter: object) -> None:
        """Work with the bot's rate limiter: with a shared store it also counts in the store for
        all processes, and a group's message takes its place in the bot's second here, right
        after the group's (see `sending`)."""
        if not isinstance(limiter, MessagesRateLimiter):
            return
        self._limiter = limiter
        if self.take is not None:
            limiter.share(StoreWindow(self.take, BOT_KEY, *BOT_RATE, clock=self.wall, sleep=self.sleep))

    def paces(self, chat_id: int) -> bool:
        return chat_id < 0 and self.rate is not None

    def window(self, chat_id: int) -> GroupWindow | StoreWindow:
        assert self.rate is not None
        found = self._windows.get(chat_id)
        if found is None:
            if len(self._windows) > IDLE_KEPT:
                for key, window in list(self._windows.items()):
                    if window.idle():
                        del self._windows[key]
            limit, period = int(self.rate[0]), self.rate[1]
            found = self._windows[chat_id] = (
                GroupWindow(limit, period, self.clock, self.sleep) if self.take is None
                else StoreWindow(self.take, f"telegram:{chat_id}", limit, period + STORE_MARGIN,
                                 self.wall, self.sleep))
        return found

    async def ready(self, chat_id: int, game_id: int | None = None, post: bool = False) -> bool:
        """Wait until the group's window has a place; True if that meant waiting (what is drawn
        next is then worth drawing again). In memory the place is taken as the message goes;
        in the store it is taken now and kept for the request that follows within
        `STORE_MARGIN` seconds (a place in the store cannot be taken without counting it)."""
        if not self.paces(chat_id):
            return False
        window = self.window(chat_id)
        if isinstance(window, GroupWindow):
            if game_id is not None:
                await self._recall(chat_id, game_id, window)
            return await window.room(post)
        asked = self.wall()
        taken = await window.acquire(post)
        self._kept.setdefault(chat_id, deque()).append(taken)
        return taken - asked > KEPT_WAIT

    def _kept_place(self, chat_id: int) -> float | None:
        """When `ready` took a place in the store for the group that is still good for a
        request (None: none is)."""
        kept = self._kept.get(chat_id)
        while kept and kept[0] < self.wall() - STORE_MARGIN:
            kept.popleft()
        if not kept:
            self._kept.pop(chat_id, None)
            return None
        return kept.popleft()

    @contextlib.asynccontextmanager
    async def sending(self, chat_id: int, method: str) -> AsyncIterator[None]:
        """Around one request: a place in the group's window if Telegram counts it there.

        In memory the place counts from when the request was answered. In the store it counts
        from when it was taken, so the request goes within `STORE_MARGIN` of it: the bot's
        place is taken here, after the group's, and should that take longer, the group's
        place is taken anew (the one before stays counted)."""
        if not (self.paces(chat_id) and counted(method, chat_id)):
            yield
            return
        post = is_post(method)
        window = self.window(chat_id)
        if isinstance(window, GroupWindow):
            if self._limiter is not None:
                await self._limiter.window.room(post)
            taken = await window.acquire(post)
            try:
                yield
            finally:
                window.sent_at(taken)
            return
        limiter = self._limiter
        bot: list[tuple[Window, float]] = []
        try:
            while True:
                group_at = self._kept_place(chat_id) or await window.acquire(post)
                if limiter is None:
                    break
                bot += await limiter.take(post)
                if self.wall() - group_at <= STORE_MARGIN:
                    break
            with limiter.held() if limiter is not None else contextlib.nullcontext():
                yield
        finally:
            if limiter is not None:
                limiter.release(bot)

    async def keep(self, chat_id: int, game_id: int | None) -> None:
        """Keep the group's recent sends with the game (memory mode), for a restart."""
        window = self._windows.get(chat_id)
        if game_id is None or self.refs_set is None or not isinstance(window, GroupWindow):
            return
        offset = self.wall() - self.clock()
        value = ",".join(f"{mono + offset:.2f}" for mono in window.sent)
        try:
            await self.refs_set(game_id, SENT_REF, value)
        except Exception:
            log.exception("could not keep the recent sends of game %s", game_id)

    async def _recall(self, chat_id: int, game_id: int, window: GroupWindow) -> None:
        recall = self._recalls.get((chat_id, game_id))
        if recall is None:
            recall = self._recalls[(chat_id, game_id)] = asyncio.ensure_future(
                self._read_sends(window, game_id))
        await recall

    async def _read_sends(self, window: GroupWindow, game_id: int) -> None:
        if self.refs_get is None:
            return
        try:
            value = await self.refs_get(game_id, SENT_REF)
        except Exception:
            log.exception("could not read the recent sends of game %s", game_id)
            return
        if not value:
            return
        offset = self.wall() - self.clock()
        try:
            window.remember([float(wall) - offset for wall in value.split(",")])
        except ValueError:
            log.warning("recent sends of game %s unreadable: %r", game_id, value)

    def forget(self, game_id: int) -> None:
        for key in [key for key in self._recalls if key[1] == game_id]:
            del self._recalls[key]
