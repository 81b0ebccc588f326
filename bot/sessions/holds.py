"""One process at a time draws each of a game's messages.

Several bot processes on one database may each learn of a change to a game (one ran
the player's move, another the computer's next one) and redraw its messages. Drawn at
the same moment, an older drawing could land after a newer one, or two processes could
each post a message where one was missing. So a front-end draws a message through
`draw(game_id, message, drawing)`: the store gives the message to one process at a
time (`MessageRefs.hold_message`), for a lease the holder renews while it draws. A
process that finds the message held does not wait: it leaves a note for the holder
(`mark_message`) and goes on, and the holder, before it lets go, draws the message
again from what the database holds by then (`release_message`). So the last drawing
always comes after the last change, and no process waits for another's.

The hold is per message, not per game: a group's table may wait a minute for the
group's flood limit, and the players' hands must not wait with it.

A holder that dies leaves its notes undone: whoever left one is told when the lease
runs out (`HandedOver.after`) and draws the message then, if nothing else has (an
unchanged message then costs nothing). With a store no other process writes, drawing
goes straight ahead (`Unheld`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from .ports import MessageRefs, StorageAway

log = logging.getLogger(__name__)

_T = TypeVar("_T")

LEASE = 10.0
"""Seconds a message is held without being renewed: longer than a drawing takes, and how
long a process that died can leave a message undrawn."""
RENEW_EVERY = LEASE / 3


@dataclass(frozen=True, slots=True)
class HandedOver:
    """Another process holds the message and will draw it again once done. Should it die
    first, its hold runs out `after` seconds from now: draw the message again then."""

    after: float


@dataclass(slots=True)
class _Local:
    lock: asyncio.Lock
    users: int = 0


class MessageHolds:
    def __init__(self, store: MessageRefs, owner: str,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.owner = owner
        self.clock = clock
        self._local: dict[tuple[int, str], _Local] = {}

    async def draw(self, game_id: int, message: str,
                   drawing: Callable[[bool], Awaitable[_T]]) -> _T | HandedOver:
        """`drawing(first)` while holding the message, again (`first` False) as long as
        another process asked for it meanwhile; or `HandedOver` if another holds it.
        Within this process drawings of one message take turns."""
        key = (game_id, message)
        local = self._local.setdefault(key, _Local(asyncio.Lock()))
        local.users += 1
        try:
            async with local.lock:
                return await self._held(key, drawing)
        finally:
            local.users -= 1
            if not local.users:
                del self._local[key]

    async def _held(self, key: tuple[int, str], drawing: Callable[[bool], Awaitable[_T]]
                    ) -> _T | HandedOver:
        game_id, message = key
        while not await self.store.hold_message(game_id, message, self.owner, self.clock(), LEASE):
            until = await self.store.mark_message(game_id, message, self.owner, self.clock())
            if until is not None:
                return HandedOver(max(0.0, until - self.clock()))
        renewing = asyncio.create_task(self._renew(key), name=f"hold-{game_id}-{message}")
        first = True
        try:
            while True:
                result = await drawing(first)
                first = False
                if await self.store.release_message(game_id, message, self.owner):
                    return result
        except BaseException:
            with contextlib.suppress(Exception):
                while not await self.store.release_message(game_id, message, self.owner):
                    pass
            raise
        finally:
            renewing.cancel()

    async def _renew(self, key: tuple[int, str]) -> None:
        game_id, message = key
        while True:
            await asyncio.sleep(RENEW_EVERY)
            try:
                kept = await self.store.hold_message(game_id, message, self.owner, self.clock(), LEASE)
            except StorageAway:
                log.warning("could not renew the hold on message %s of game %d: the database is away",
                            message, game_id)
                continue
            except Exception:
                log.warning("could not renew the hold on message %s of game %d", message, game_id,
                            exc_info=True)
                continue
            if not kept:
                log.warning("the hold on message %s of game %d ran out while drawing it", message,
                            game_id)
                return


class Unheld(MessageHolds):
    """A process alone on its store: it draws its messages straight away."""

    async def draw(self, game_id: int, message: str,
                   drawing: Callable[[bool], Awaitable[_T]]) -> _T | HandedOver:
        return await drawing(True)
