"""Whose review is made next: one match at a time, those a player asked for first.

Every match with a person in it is reviewed as it ends, so a burst of ends (many groups
finishing together, a restart picking up the matches left unreviewed) queues many reviews.
A player who taps Review waits for theirs alone: an asked-for review goes before every
review nobody asked for yet, and each kind keeps the order it came in."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator


class ReviewTurns:
    def __init__(self) -> None:
        self._busy = False
        self._waiting: dict[int, tuple[bool, int, asyncio.Future[None]]] = {}
        """Each waiting match: (nobody asked yet, its place in the queue, its turn)."""
        self._order = itertools.count()

    def hurry(self, game_id: int) -> None:
        """Someone asked for match `game_id`'s review: it goes before those nobody asked for."""
        waiting = self._waiting.get(game_id)
        if waiting is not None and waiting[0]:
            self._waiting[game_id] = (False, *waiting[1:])

    @contextlib.asynccontextmanager
    async def turn(self, game_id: int, asked: bool) -> AsyncIterator[None]:
        """Match `game_id`'s turn to be reviewed, held while its review is made."""
        if self._busy or self._waiting:
            turn = asyncio.get_running_loop().create_future()
            self._waiting[game_id] = (not asked, next(self._order), turn)
            try:
                await turn
            except BaseException:
                if self._waiting.pop(game_id, None) is None and turn.done() and not turn.cancelled():
                    self._next()
                raise
        self._busy = True
        try:
            yield
        finally:
            self._next()

    def _next(self) -> None:
        """Hand the turn to the first waiting match, or leave it free."""
        while self._waiting:
            game_id = min(self._waiting, key=lambda game: self._waiting[game][:2])
            turn = self._waiting.pop(game_id)[2]
            if not turn.done():
                turn.set_result(None)
                return
        self._busy = False
