"""One process at a time draws each of a game's messages.

Several bot processes on one database may each learn of a change to a game (one ran
the player's move, another the computer's next one) and redraw its messages. Drawn at
the same moment, an older drawing could land after a newer one, or two processes could
each post a message where one was missing. So a front-end draws a message inside
`hold(game_id, message)`: the store gives the message to one process at a time
(`MessageRefs.hold_message`), for a lease the holder renews while it draws, and the
others wait for it; whoever draws next reads the game as it is by then. Drawings of the
same message within one process share the hold.

The hold is per message, not per game: a group's table may wait a minute for the
group's flood limit, and the players' hands must not wait with it.

A process that dies holding a message keeps the others waiting one lease at most. A
hold that cannot be had for `LONGEST_WAIT` seconds (the database's clock and this
machine's disagree) is given up with a warning, and the message drawn anyway. With a
store no other process writes, holding costs nothing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from .ports import MessageRefs

log = logging.getLogger(__name__)

LEASE = 10.0
"""Seconds a message is held without being renewed: longer than a drawing takes, and how
long a process that died can keep the others from drawing."""
RENEW_EVERY = LEASE / 3
FIRST_WAIT = 0.02
LONGEST_POLL = 0.25
LONGEST_WAIT = 3 * LEASE


@dataclass(slots=True)
class _Held:
    taken: asyncio.Future[bool]
    users: int = 0
    renewing: asyncio.Task[None] | None = None
    closing: asyncio.Future[None] | None = None


class MessageHolds:
    def __init__(self, store: MessageRefs, owner: str,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.owner = owner
        self.clock = clock
        self.shared = bool(getattr(store, "shared", False))
        self._held: dict[tuple[int, str], _Held] = {}

    @contextlib.asynccontextmanager
    async def hold(self, game_id: int, message: str) -> AsyncIterator[None]:
        if not self.shared:
            yield
            return
        key = (game_id, message)
        while (held := self._held.get(key)) is not None and held.closing is not None:
            await asyncio.shield(held.closing)
        if held is None:
            held = self._held[key] = _Held(asyncio.ensure_future(self._take(key)))
        held.users += 1
        try:
            await asyncio.shield(held.taken)
            yield
        finally:
            held.users -= 1
            if held.users == 0:
                held.closing = asyncio.ensure_future(self._let_go(key, held))
                await asyncio.shield(held.closing)

    async def _take(self, key: tuple[int, str]) -> bool:
        """Wait for the message; True once held, False when given up on."""
        game_id, message = key
        began = time.monotonic()
        pause = FIRST_WAIT
        while not await self.store.hold_message(game_id, message, self.owner, self.clock(), LEASE):
            if time.monotonic() - began > LONGEST_WAIT:
                log.warning("message %s of game %d stayed held by another process for %.0f s; "
                            "drawing it anyway", message, game_id, LONGEST_WAIT)
                return False
            await asyncio.sleep(pause)
            pause = min(LONGEST_POLL, pause * 1.5)
        held = self._held.get(key)
        if held is not None:
            held.renewing = asyncio.create_task(self._renew(key), name=f"hold-{game_id}-{message}")
        return True

    async def _renew(self, key: tuple[int, str]) -> None:
        game_id, message = key
        while True:
            await asyncio.sleep(RENEW_EVERY)
            try:
                kept = await self.store.hold_message(game_id, message, self.owner, self.clock(), LEASE)
            except Exception:
                log.warning("could not renew the hold on message %s of game %d", message, game_id,
                            exc_info=True)
                continue
            if not kept:
                log.warning("the hold on message %s of game %d ran out while drawing it", message,
                            game_id)
                return

    async def _let_go(self, key: tuple[int, str], held: _Held) -> None:
        try:
            if held.renewing is not None:
                held.renewing.cancel()
            if not held.taken.done():
                held.taken.cancel()
            elif not held.taken.cancelled() and held.taken.exception() is None and held.taken.result():
                try:
                    await self.store.release_message(key[0], key[1], self.owner)
                except Exception:
                    log.warning("could not let go of message %s of game %d (its lease runs out "
                                "by itself)", key[1], key[0], exc_info=True)
        finally:
            if self._held.get(key) is held:
                del self._held[key]
