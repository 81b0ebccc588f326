"""Whose review is made next: one match at a time of those a player asked for, and one of
those nobody asked for yet, which gives way to the first.

Every match with a person in it is reviewed as it ends, so a burst of ends (many groups
finishing together, a restart picking up the matches left unreviewed) queues many reviews.
A player who taps Review waits for theirs alone: an asked-for review starts at once (behind
another asked-for one only), and the review nobody asked for that is under way pauses between
its plays (`gate`) while one is asked for, so the workers go to the asker after the plays they
are grading. Each kind keeps the order it came in."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator


class ReviewTurns:
    def __init__(self) -> None:
        self._busy = {True: False, False: False}
        """Whether a match holds the turn of those asked for (True) and of the others (False)."""
        self._held: dict[int, bool] = {}
        """Each match holding a turn, and whose (asked for or not)."""
        self._waiting: dict[int, tuple[bool, int, asyncio.Future[None]]] = {}
        """Each waiting match: (nobody asked yet, its place in the queue, its turn)."""
        self._hurried: set[int] = set()
        """Matches holding the turn of those nobody asked for, asked for since: they do not pause."""
        self._clear = asyncio.Event()
        self._clear.set()
        """Set while no asked-for review is under way or waiting."""
        self._order = itertools.count()

    def hurry(self, game_id: int) -> None:
        """Someone asked for match `game_id`'s review: it goes before those nobody asked for."""
        waiting = self._waiting.get(game_id)
        if waiting is not None and waiting[0]:
            self._waiting[game_id] = (False, *waiting[1:])
            self._clear.clear()
            if not self._busy[True]:
                self._next(True)
        elif self._held.get(game_id) is False:
            self._hurried.add(game_id)
            if not self._clear.is_set():
                self._clear.set()  # wakes its paused plays, which now pass the gate
                self._clear.clear()

    async def gate(self, game_id: int) -> None:
        """Wait, before match `game_id`'s next play is graded, while a review someone asked for
        is under way or waits, unless someone asked for this one too."""
        while not self._held.get(game_id, True) and game_id not in self._hurried and not self._clear.is_set():
            await self._clear.wait()

    @contextlib.asynccontextmanager
    async def turn(self, game_id: int, asked: bool) -> AsyncIterator[None]:
        """Match `game_id`'s turn to be reviewed, held while its review is made."""
        if asked:
            self._clear.clear()
        if self._busy[asked] or any(waiting[0] is not asked for waiting in self._waiting.values()):
            turn = asyncio.get_running_loop().create_future()
            self._waiting[game_id] = (not asked, next(self._order), turn)
            try:
                await turn
            except BaseException:
                if self._waiting.pop(game_id, None) is None and turn.done() and not turn.cancelled():
                    self._next(self._held.pop(game_id))
                self._settle()
                raise
        else:
            self._busy[asked] = True
            self._held[game_id] = asked
        try:
            yield
        finally:
            self._hurried.discard(game_id)
            self._next(self._held.pop(game_id))

    def _next(self, asked: bool) -> None:
        """Hand the turn of those `asked` for (or not) to the first such waiting match, or leave
        it free."""
        while True:
            queue = [game for game, waiting in self._waiting.items() if waiting[0] is not asked]
            if not queue:
                self._busy[asked] = False
                break
            game_id = min(queue, key=lambda game: self._waiting[game][1])
            turn = self._waiting.pop(game_id)[2]
            if not turn.done():
                self._busy[asked] = True
                self._held[game_id] = asked
                turn.set_result(None)
                break
        self._settle()

    def _settle(self) -> None:
        """Let the review nobody asked for go on once no asked-for one is under way or waits."""
        if not self._busy[True] and all(waiting[0] for waiting in self._waiting.values()):
            self._clear.set()
