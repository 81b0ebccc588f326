"""The bot's 30 messages a second, counted as Telegram counts them.

Telegram allows a bot about 30 new messages a second over all its chats and 20 a minute in
one group. An edit or a deletion in a private chat is no new message: it neither rings a
phone nor counts against the 30. PTB's `AIORateLimiter` counts every request that names a
chat, so a hand edited in one private chat would wait behind every photo sent elsewhere:
here those edits and deletions pass it (a `RetryAfter` is still waited out and retried).
Groups are paced by the outbox (`GroupWindow`), which counts their edits too.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from telegram._utils.types import JSONDict
from telegram.ext import AIORateLimiter

UNCOUNTED_IN_PRIVATE = frozenset({"editmessagetext", "editmessagecaption", "editmessagemedia",
                                  "editmessagereplymarkup", "deletemessage"})
"""Requests that send no new message: free of the bot's 30 a second in a private chat."""


def is_private(chat_id: object) -> bool:
    try:
        return int(chat_id) > 0  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return False


class MessagesRateLimiter(AIORateLimiter):
    """`AIORateLimiter` whose overall limit applies to new messages, not to edits and
    deletions in private chats."""

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | JSONDict | list[JSONDict]:
        if endpoint.lower() in UNCOUNTED_IN_PRIVATE and is_private(data.get("chat_id")):
            data = {key: value for key, value in data.items() if key != "chat_id"}
        return await super().process_request(callback, args, kwargs, endpoint, data, rate_limit_args)


class SendWindow:
    """New messages sent in the last second, to spend the bot's 30 where they matter.

    A turn rings its player with a new message only while fewer than `limit` went out in
    the last second; past that the hand is edited in place at once (no ring, no wait), so
    that with many games at once the player still sees their turn without delay."""

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
