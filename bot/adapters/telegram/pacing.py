"""Telegram's limits counted when each message goes, by one process or by all on one store.

A group takes 20 messages a minute and the bot 30 a second, sends and edits as Telegram
counts them (`limits.counted`). A message takes its place in a window as its request leaves,
after its picture is drawn (drawing may take longer than the rest), and the place counts from
when Telegram answered: counted when a message was only allowed, a group got 21 to 23 in a
minute. Before drawing, the outbox waits until the group's window has room (`Pacer.ready`), so
that a table edit that had to wait shows the state it goes out with (in the store, which cannot
be asked without counting, the place is taken then and used by the request that follows).

Where a message cannot be known to have reached Telegram yet, its place counts as late as it
could have: a request on its way counts as going `IN_FLIGHT` seconds after its place was
taken, until its answer says it went. So a process killed with requests on their way (kill -9),
or a request slower to arrive than expected (a loaded machine, a slow upload), never lets a
group's minute take more than 20 as Telegram counts them.

One process on its own store counts in memory (`Pacer`, with a `GroupWindow` per group), and
keeps a group's recent sends with its game, before each request goes (marked as on its way)
and after it was answered, so that a bot started again at once, even after a kill, still
knows how many the minute has left. Processes sharing a store count there (`StorePacer`, with
a `StoreWindow`: the store's `take_send` and `settle_send`), the group's and the bot's alike.
Which of the two paces a bot is chosen once, with its slot book (`refbook.ref_book`).

A group's new messages (a round's breakdown, the end of a match) go before its table's edits:
an edit waits while a new message is owed to the group (`Pacer.owe_post`), from the moment the
sessions announce it, so that a breakdown never waits behind the table of the next round.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from ...sessions.ports import StorageAway
from .limits import JITTER, GroupWindow, MessagesRateLimiter, Window, counted, is_post

log = logging.getLogger(__name__)

SendCounter = Callable[[str, float, int, float, float | None], Awaitable[float]]
"""`FrontEndNotes.take_send`: count one message under a name at a time, or say how long to wait."""
SendSettler = Callable[[str, float, float | None], Awaitable[None]]
"""`FrontEndNotes.settle_send`: when a counted message went, or that it never did."""
SENT_REF = "sent"
"""A game's ref holding when its group's last messages went (Unix times, comma-separated; one
marked `ON_ITS_WAY` had not been answered when it was written)."""
ON_ITS_WAY = "~"
BOT_KEY = "telegram:bot"
BOT_RATE = (30, 1.0 + JITTER)
IN_FLIGHT = 30.0
"""Seconds after its place was taken that a group's message on its way counts as going, in the
store, until its answer says when it went: the bot's requests time out well before, and a
process killed meanwhile leaves its place counted that long."""
BOT_IN_FLIGHT = 5.0
"""The same for a place in the bot's second, a few of whose 30 a killed process holds so long."""
POSTS_KEPT = 4
"""Of a group's 20 places a minute, those its table's edits leave to new messages (at most a
quarter), so that a round's breakdown, the table posted below it and the end of a match go
at once rather than after a minute of edits."""
ASK_AGAIN = 5.0
"""Seconds at most between two questions to the store for a place while a window is full: a
place counted as on its way may be settled earlier than the store could say."""
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
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
                 settle: SendSettler | None = None, kept_for_posts: int = 0,
                 in_flight: float = IN_FLIGHT) -> None:
        self.take, self.key, self.limit, self.period = take, key, limit, period
        self.in_flight = in_flight
        self.kept_for_posts = min(kept_for_posts, limit - 1)
        """Places edits never take (`GroupWindow.kept_for_posts`)."""
        self.clock, self.sleep = clock, sleep
        self.settle = settle
        """With it, a place counts as on its way (`IN_FLIGHT`) until `sent_at` says it went;
        without it (the bot's second, whose requests each take their place as they go), from
        when it was taken."""
        self.free_at = 0.0
        """When the store last said a place would free."""
        self._turns = _Turns()

    async def acquire(self, post: bool = False) -> float:
        """A place, asked for in turn; an edit that waited gives its turn up to a new message
        that came meanwhile, and asks again first of the edits. The time it counts from, for
        `sent_at`."""
        gave_up = False
        while True:
            async with self._turns.turn(post, first=gave_up):
                while True:
                    now = self.clock()
                    counted = now + self.in_flight if self.settle is not None else now
                    wait = await self._ask(now, counted, post)
                    if wait <= 0:
                        return counted
                    self.free_at = self.clock() + wait
                    await self.sleep(min(wait, ASK_AGAIN) + 0.01)
                    if not post and self._turns.posts_waiting():
                        break
            gave_up = True

    async def _ask(self, now: float, counted: float, post: bool) -> float:
        """The store's answer for one place; while the database is away, a short wait."""
        limit = self.limit if post else self.limit - self.kept_for_posts
        try:
            return await self.take(self.key, now, limit, self.period,
                                   counted if counted != now else None)
        except StorageAway as away:
            log.warning("counting a message for %s waits for the database (%s)", self.key, away)
            return AWAY_RETRY

    def sent_at(self, taken: float) -> None:
        """Without `settle`, the store keeps when the place was taken."""

    async def answered(self, taken: float) -> None:
        await self.went(taken, self.clock())

    async def went(self, counted: float, at: float | None) -> None:
        """The message whose place counts from `counted` went at `at` (None: never went). Should
        the store not hear it (the database away), the place stays counted as on its way."""
        if self.settle is None:
            return
        try:
            await self.settle(self.key, counted, at)
        except StorageAway as away:
            log.info("a message to %s stays counted as on its way (%s)", self.key, away)

    def idle(self) -> bool:
        return self._turns.idle() and self.clock() >= self.free_at


class Pacer:
    """Each group's `rate` (20 messages a minute), counted as each message goes (`sending`), in
    memory by a process alone on its store (`StorePacer` counts in the store for every process
    sharing it). `refs_get`/`refs_set` read and write a game's refs, where a group's recent sends
    are kept for a restart."""

    def __init__(self, rate: tuple[float, float] | None, *,
                 refs_get: Callable[[int, str], Awaitable[str | None]] | None = None,
                 refs_set: Callable[[int, str, str | None], Awaitable[None]] | None = None,
                 clock: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.rate = rate
        self.refs_get, self.refs_set = refs_get, refs_set
        self.clock, self.wall, self.sleep = clock, wall, sleep
        self._windows: dict[int, GroupWindow] = {}
        self._limiter: MessagesRateLimiter | None = None
        self._recalls: dict[tuple[int, int], asyncio.Future[None]] = {}
        self._games: dict[int, int] = {}
        """Per group, the game whose refs keep its recent sends: the last drawn."""
        self._owed: Counter[int] = Counter()
        self._paid: dict[int, asyncio.Event] = {}
        self.spacing = rate[1] / rate[0] if rate is not None and rate[0] > 0 else 0.0
        """Seconds between two edits of a busy group's messages from this process: its minute
        spread over the minute, so that a brisk game's table moves every few seconds rather
        than twenty times at once and then not for the rest of the minute."""
        self._recent: dict[int, deque[float]] = {}
        """Per group, when this process sent or edited its messages in the last `rate` period."""

    def pace_with(self, limiter: object) -> None:
        """Work with the bot's rate limiter: a group's message takes its place in the bot's
        second here, right after the group's (see `sending`)."""
        if isinstance(limiter, MessagesRateLimiter):
            self._limiter = limiter

    def paces(self, chat_id: int) -> bool:
        return chat_id < 0 and self.rate is not None

    def window(self, chat_id: int) -> GroupWindow | StoreWindow:
        return self._group(chat_id)

    def _group(self, chat_id: int) -> GroupWindow:
        assert self.rate is not None
        return _found(self._windows, chat_id, self.rate, lambda limit, period, kept: GroupWindow(
            limit, period, self.clock, self.sleep, kept_for_posts=kept))

    def owe_post(self, chat_id: int) -> Callable[[], None]:
        """A new message is owed to the group (an announcement on its way to the outbox, a post
        in its queue): its edits wait until it went. Gives the call that says it went (or
        never will); calling it again does nothing."""
        if not self.paces(chat_id):
            return _nothing
        self._owed[chat_id] += 1
        self._paid.setdefault(chat_id, asyncio.Event()).clear()
        paid = False

        def pay() -> None:
            nonlocal paid
            if paid:
                return
            paid = True
            self._owed[chat_id] -= 1
            if self._owed[chat_id] <= 0:
                del self._owed[chat_id]
                self._paid.pop(chat_id, asyncio.Event()).set()

        return pay

    async def _posts_first(self, chat_id: int) -> bool:
        """Wait while new messages are owed to the group; True if that meant waiting."""
        waited = False
        while self._owed.get(chat_id, 0) > 0:
            waited = True
            await self._paid.setdefault(chat_id, asyncio.Event()).wait()
        return waited

    async def _spaced(self, chat_id: int) -> bool:
        """Once half the group's minute is spent by this process, wait until `spacing` after its
        last message (before that, a lobby filling up or a slow game is drawn at once); True if
        that meant waiting."""
        recent = self._recent.get(chat_id)
        if not recent or self.rate is None:
            return False
        while recent and recent[0] <= self.clock() - self.rate[1]:
            recent.popleft()
        if len(recent) < self.rate[0] / 2 or (gap := recent[-1] + self.spacing - self.clock()) <= 0:
            return False
        await self.sleep(gap)
        return True

    # ---- places ----------------------------------------------------------------------------

    async def ready(self, chat_id: int, game_id: int | None = None, post: bool = False) -> bool:
        """Wait until the group's window has a place (an edit, until no new message is owed to
        the group either); True if that meant waiting (what is drawn next is then worth drawing
        again)."""
        if not self.paces(chat_id):
            return False
        if game_id is not None:
            self._games[chat_id] = game_id
        waited = False if post else await self._posts_first(chat_id) or await self._spaced(chat_id)
        return await self._place(chat_id, game_id, post) or waited

    async def _place(self, chat_id: int, game_id: int | None, post: bool) -> bool:
        """In memory the place is taken as the message goes: here, only room is waited for."""
        window = self._group(chat_id)
        if game_id is not None:
            await self._recall(chat_id, game_id, window)
        return await window.room(post)

    @contextlib.asynccontextmanager
    async def sending(self, chat_id: int, method: str) -> AsyncIterator[None]:
        """Around one request: a place in the group's window if Telegram counts it there.

        The place counts from when the request was answered; until then as on its way (`_counted`).
        The bot's place is taken here, after the group's."""
        if not (self.paces(chat_id) and counted(method, chat_id)):
            yield
            return
        post = is_post(method)
        if not post:
            await self._posts_first(chat_id)
        self._recent.setdefault(chat_id, deque()).append(self.clock())
        async with self._counted(chat_id, post):
            yield

    @contextlib.asynccontextmanager
    async def _counted(self, chat_id: int, post: bool) -> AsyncIterator[None]:
        """In memory the place is kept with the group's game, marked as on its way before the
        request goes (`keep`)."""
        window = self._group(chat_id)
        game_id = self._games.get(chat_id)
        if self._limiter is not None:
            await self._limiter.window.room(post)
        taken = await window.acquire(post)
        try:
            await self.keep(chat_id, game_id)
            yield
        finally:
            window.sent_at(taken)
            await self.keep(chat_id, game_id)

    async def keep(self, chat_id: int, game_id: int | None) -> None:
        """Keep the group's recent sends with the game, for a restart: those on their way
        marked so."""
        window = self._windows.get(chat_id)
        if game_id is None or self.refs_set is None or window is None:
            return
        offset = self.wall() - self.clock()
        flying = Counter(window.flying)
        kept = []
        for mono in window.sent:
            mark = ON_ITS_WAY if flying[mono] > 0 else ""
            flying[mono] -= 1
            kept.append(f"{mono + offset:.3f}{mark}")
        try:
            await self.refs_set(game_id, SENT_REF, ",".join(kept))
        except Exception:
            log.exception("could not keep the recent sends of game %s", game_id)

    async def _recall(self, chat_id: int, game_id: int, window: GroupWindow) -> None:
        recall = self._recalls.get((chat_id, game_id))
        if recall is None:
            recall = self._recalls[(chat_id, game_id)] = asyncio.ensure_future(
                self._read_sends(window, game_id))
        await recall

    async def _read_sends(self, window: GroupWindow, game_id: int) -> None:
        """What a process before this one kept: a message it had on its way went before this
        process started, so it counts from now."""
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
        now = self.clock()
        try:
            window.remember([now if wall.endswith(ON_ITS_WAY) else float(wall) - offset
                             for wall in value.split(",")])
        except ValueError:
            log.warning("recent sends of game %s unreadable: %r", game_id, value)

    def forget(self, game_id: int) -> None:
        for key in [key for key in self._recalls if key[1] == game_id]:
            del self._recalls[key]
        for chat_id in [chat for chat, game in self._games.items() if game == game_id]:
            del self._games[chat_id]
            self._recent.pop(chat_id, None)




class StorePacer(Pacer):
    """Each group's `rate` counted in the store for every process sharing it (`take`, `settle`:
    the store's `take_send` and `settle_send`), and the bot's second too."""

    def __init__(self, rate: tuple[float, float] | None, *, take: SendCounter,
                 settle: SendSettler | None = None,
                 clock: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        super().__init__(rate, clock=clock, wall=wall, sleep=sleep)
        self.take, self.settle = take, settle
        self._stored: dict[int, StoreWindow] = {}
        self._kept: dict[int, deque[float]] = {}
        """Per group, places `ready` took in the store, oldest first."""

    def pace_with(self, limiter: object) -> None:
        """Also count the bot's messages in the store, for all processes."""
        super().pace_with(limiter)
        if self._limiter is not None:
            self._limiter.share(StoreWindow(self.take, BOT_KEY, *BOT_RATE, clock=self.wall, sleep=self.sleep,
                                            settle=self.settle, in_flight=BOT_IN_FLIGHT))

    def window(self, chat_id: int) -> StoreWindow:
        assert self.rate is not None
        return _found(self._stored, chat_id, self.rate, lambda limit, period, kept: StoreWindow(
            self.take, f"telegram:{chat_id}", limit, period, self.wall, self.sleep, settle=self.settle,
            kept_for_posts=kept))

    async def _place(self, chat_id: int, game_id: int | None, post: bool) -> bool:
        """A place in the store cannot be asked for without counting it: it is taken now and
        kept for the request that follows (it counts as on its way until that request is
        answered)."""
        window = self.window(chat_id)
        asked = self.wall()
        taken = await window.acquire(post)
        self._kept.setdefault(chat_id, deque()).append(taken)
        return self.wall() - asked > KEPT_WAIT

    def _kept_place(self, chat_id: int) -> float | None:
        """A place `ready` took in the store for the group (None: none is left)."""
        kept = self._kept.get(chat_id)
        if not kept:
            self._kept.pop(chat_id, None)
            return None
        return kept.popleft()

    @contextlib.asynccontextmanager
    async def _counted(self, chat_id: int, post: bool) -> AsyncIterator[None]:
        """In the store the place counts as going `IN_FLIGHT` seconds after it was taken."""
        window = self.window(chat_id)
        limiter = self._limiter
        group_at = self._kept_place(chat_id) or await window.acquire(post)
        bot: list[tuple[Window, float]] = []
        try:
            if limiter is not None:
                bot += await limiter.take(post)
            with limiter.held() if limiter is not None else contextlib.nullcontext():
                yield
        finally:
            if limiter is not None:
                await limiter.release(bot)
            await window.went(group_at, self.wall())


_W = TypeVar("_W", GroupWindow, StoreWindow)


def _found(windows: dict[int, _W], chat_id: int, rate: tuple[float, float],
           make: Callable[[int, float, int], _W]) -> _W:
    """The group's window in `windows`, made (`make(limit, period, kept_for_posts)`) if new;
    idle ones are dropped once there are many."""
    found = windows.get(chat_id)
    if found is None:
        if len(windows) > IDLE_KEPT:
            for key, window in list(windows.items()):
                if window.idle():
                    del windows[key]
        limit, period = int(rate[0]), rate[1]
        found = windows[chat_id] = make(limit, period, min(POSTS_KEPT, limit // 4))
    return found


def _nothing() -> None:
    pass
