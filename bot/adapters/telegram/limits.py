"""The bot's 30 messages a second and a group's 20 a minute, counted as Telegram counts them.

Telegram allows a bot about 30 new messages a second over all its chats and 20 a minute in
one group. An edit or a deletion in a private chat is no new message: it neither rings a
phone nor counts against the 30; a group's edits count like its new messages. Both limits
are sliding windows (`GroupWindow`): a bucket that lets a full burst through after a quiet
spell sends twice the limit within one window, and Telegram answers 429, which stalls
everything behind it. In the bot's window new messages go before edits: a group table that
waits is drawn with the latest state when its turn comes, a player's hand that waits keeps
the player waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import warnings
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextvars import ContextVar
from datetime import timedelta
from typing import Any, Protocol

from telegram._utils.types import JSONDict
from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

JITTER = 0.1
"""Seconds added to the bot's window: requests let through a second apart may reach Telegram
closer together."""
MESSAGE_METHODS = ("send", "edit", "copy", "forward")
"""Beginnings of the names of the requests that make or change a message; the others (an answer
to a tap, a deletion, a look at a member) are no message Telegram counts."""


_HELD: ContextVar[bool] = ContextVar("telegram_bot_place_held", default=False)
"""Set while a request goes whose place in the bot's second its sender took already."""


def is_private(chat_id: object) -> bool:
    try:
        return int(chat_id) > 0  # type: ignore[call-overload, no-any-return]
    except (TypeError, ValueError):
        return False


def counted(method: str, chat_id: object) -> bool:
    """Whether Telegram counts the request against the bot's 30 a second: a new message in any
    chat, an edit in a group (an edit in a private chat rings no phone and is free)."""
    method = method.lower()
    if chat_id is None or not method.startswith(MESSAGE_METHODS):
        return False
    return not (method.startswith("edit") and is_private(chat_id))


def is_post(method: str) -> bool:
    """A new message (which goes before waiting edits), not an edit."""
    return not method.lower().startswith("edit")


class Window(Protocol):
    """A place in a limit's window, taken when a message goes."""

    async def acquire(self, post: bool = False) -> float: ...

    def sent_at(self, taken: float) -> None: ...

    async def answered(self, taken: float) -> None:
        """The request whose place was taken at `taken` was answered: it went by now."""
        ...


class MessagesRateLimiter(BaseRateLimiter[int]):
    """The bot's requests as Telegram counts them (`counted`): at most `per_second` new
    messages and group edits in any second (sends first), each counted as it goes, and the
    other requests at once. With several processes on one store, `share` adds the window all
    of them count in (`pacing.StoreWindow`), so that the bot as a whole keeps to its 30. A
    `RetryAfter` is waited out and the request tried again, up to `max_retries` times."""

    def __init__(self, per_second: float = 30.0, max_retries: int = 3,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        limit = max(1, int(per_second))
        self.window = GroupWindow(limit, 1.0 + JITTER, clock, sleep, kept_for_posts=limit // 4)
        self.windows: list[Window] = [self.window]
        """The bot's second here, and the window of every process on the store when they
        share one (`share`)."""
        self.max_retries = max_retries
        self.sleep = sleep

    def share(self, window: Window) -> None:
        self.windows = [self.window, window]

    async def take(self, post: bool) -> list[tuple[Window, float]]:
        """A place in the bot's second (in the store too, when shared), taken ahead by a sender
        that must know when it has it (`held`); `release` once the request was answered."""
        return [(window, await window.acquire(post)) for window in self.windows]

    @staticmethod
    async def release(taken: list[tuple[Window, float]]) -> None:
        for window, at in taken:
            await window.answered(at)

    @staticmethod
    @contextlib.contextmanager
    def held() -> Iterator[None]:
        """The request made inside has its place taken (`take`): its first try takes none."""
        token = _HELD.set(True)
        try:
            yield
        finally:
            _HELD.reset(token)

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | JSONDict | list[JSONDict]:
        count = counted(endpoint, data.get("chat_id"))
        post = is_post(endpoint)
        retries = rate_limit_args or self.max_retries
        held = _HELD.get()
        for attempt in range(retries + 1):
            taken = await self.take(post) if count and not (held and attempt == 0) else []
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as exc:
                if attempt == retries:
                    raise
                await self.sleep(retry_seconds(exc) + 0.1)
            finally:
                await self.release(taken)
        raise AssertionError("unreachable")


def retry_seconds(exc: RetryAfter) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value: Any = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


class SendWindow:
    """Rings of the last second, to spend the bot's 30 new messages where they matter.

    A turn rings its player with a new message only while fewer than `limit` rang in the
    last second; past that the hand is edited in place at once (no ring, no wait), so that
    with many games at once the player still sees their turn without delay. A ring is
    counted when it is decided, so that rings decided together do not queue behind one
    another."""

    def __init__(self, limit: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.clock = clock
        self._sent: deque[float] = deque()

    def _prune(self, now: float) -> None:
        while self._sent and self._sent[0] <= now - 1.0:
            self._sent.popleft()

    def room(self) -> bool:
        self._prune(self.clock())
        return len(self._sent) < self.limit

    def sent(self) -> None:
        now = self.clock()
        self._prune(now)
        self._sent.append(now)


class GroupWindow:
    """At most `limit` messages in any `period` seconds, as Telegram counts a group's messages.

    A sliding window, not a leaky bucket: a bucket that lets 20 through at once
    and refills at 20 a minute lets a full burst follow a minute of steady sending,
    close to twice the limit within one minute. `sent` holds when the last ones went
    (`clock()`, monotonic); it can be filled from before a restart (`remember`).

    When the window is full, new messages (a round's breakdown, the end of a match)
    take the next free places before edits: an edit that waits is drawn again with
    the latest state when its turn comes, a post that waits only comes later. Edits may
    also leave `kept_for_posts` places to new messages alone (the bot's window keeps a
    quarter for the turns' rings, so that edits of busy group tables never hold one up).
    """

    def __init__(self, limit: int, period: float, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
                 kept_for_posts: int = 0) -> None:
        self.limit = limit
        self.period = period
        self.clock = clock
        self.sleep = sleep
        self.kept_for_posts = min(kept_for_posts, limit - 1)
        """Places edits never take: new messages find one at once even while edits are many."""
        self.sent: deque[float] = deque()
        self.flying: list[float] = []
        """Of `sent`, the places taken whose request has not been answered (`sent_at`) yet."""
        self._waiting: dict[bool, deque[asyncio.Future[float]]] = {True: deque(), False: deque()}
        self._granting: asyncio.Task[None] | None = None

    def _prune(self, now: float) -> None:
        while self.sent and self.sent[0] <= now - self.period:
            self.sent.popleft()

    def idle(self) -> bool:
        self._prune(self.clock())
        return not self.sent and self._granting is None

    def full(self, post: bool = True) -> bool:
        """Whether the window has no place for a new message (`post`) or for an edit."""
        self._prune(self.clock())
        return len(self.sent) >= self._room(post)

    def _room(self, post: bool) -> int:
        return self.limit if post else self.limit - self.kept_for_posts

    def remember(self, times: list[float]) -> None:
        self.sent = deque(sorted([*self.sent, *times])[-self.limit:])

    async def acquire(self, post: bool = False) -> float:
        """Take a place in the window, waiting for one if it is full; `post`: a new message,
        which goes before the edits waiting. The time the place was taken at, for `sent_at`."""
        if not self.full(post) and not self._waiting[True] and not (not post and self._waiting[False]):
            now = self.clock()
            self.sent.append(now)
            self.flying.append(now)
            return now
        turn: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._waiting[post].append(turn)
        if self._granting is None:
            self._granting = asyncio.create_task(self._grant())
        try:
            return await turn
        except asyncio.CancelledError:
            if turn in self._waiting[post]:
                self._waiting[post].remove(turn)
            raise

    def sent_at(self, taken: float) -> None:
        """The message whose place was taken at `taken` has gone (its request was answered): it
        counts from now. A request held up on its way (a busy event loop, a slow connection)
        reaches Telegram later than its place was taken, and must not let the window free its
        place earlier than Telegram does."""
        if taken in self.flying:
            self.flying.remove(taken)
        now = self.clock()
        if now <= taken:
            return
        try:
            self.sent.remove(taken)
        except ValueError:
            return
        self.sent.append(now)

    async def answered(self, taken: float) -> None:
        self.sent_at(taken)

    async def room(self, post: bool = False) -> bool:
        """Wait, taking nothing, until the window has a place; True if that meant waiting."""
        waited = False
        while self.full(post):
            waited = True
            room = self._room(post)
            await self.sleep(self.sent[len(self.sent) - room] + self.period - self.clock() + 0.01)
        return waited

    async def _grant(self) -> None:
        """Give free places to the waiting, posts first, as the window frees them."""
        try:
            while any(self._waiting.values()):
                now = self.clock()
                self._prune(now)
                post = bool(self._waiting[True])
                room = self._room(post)
                if len(self.sent) >= room:
                    await self.sleep(self.sent[len(self.sent) - room] + self.period - now + 0.01)
                    continue
                turn = self._waiting[post].popleft()
                if not turn.done():
                    self.sent.append(now)
                    self.flying.append(now)
                    turn.set_result(now)
        finally:
            self._granting = None
