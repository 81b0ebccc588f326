"""A finished match's review for its players, worked out in the computer players' worker
processes and stored with the match.

Grading every play of a 2-player match is about a second of search; on the event loop's
thread it would stop every chat for that long. `review_in_pool` hands the plays to the
workers a couple at a time per worker, so a computer's move waits behind two plays'
grading at most (a few milliseconds each); the loop only replays the record, grades the
forced plays (there is nothing to search) and gathers the grades.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..ai.review import DEFAULT_SEARCHES, GradedPlay, Review, ReviewTask, assemble, review_tasks, review_turn
from ..engine.record import RecordError, parse_records
from .directory import Directory
from .games import Games
from .ports import GameStore
from .records import GameRow, GameStatus, ReviewSeatRow
from .refs import ChatRef, UserRef
from .refusals import Reason, Refused
from .thinking import ComputerPool
from .views import GameSummary, PlayerProfile, seat_name

log = logging.getLogger(__name__)

RESEND_AFTER = 120.0
"""Seconds after a player was sent a match's review before it is sent to them again: a double
tap, a second /review, or a press just after the review went to every player sends nothing
twice (within `ports.SENDS_KEPT`, so every process keeps the count that long)."""

QUEUED = 2
"""Plays handed to each worker at a time: one graded while the next waits, so a worker
never idles on the round trip, and a computer's move waits behind two plays at most."""


async def review_in_pool(pool: ComputerPool | None, record: dict[str, Any],
                         searches: int = DEFAULT_SEARCHES) -> Review:
    """The review of a `scopa-record/1` match (raises `RecordError` for one that cannot be
    replayed), graded in `pool`'s workers, or in a thread without a pool. The same record
    and `searches` give the same review wherever it is worked out."""
    tasks = review_tasks(record, searches)
    if pool is None:
        plays = await asyncio.to_thread(lambda: [review_turn(task) for task in tasks])
        return assemble(record, searches, plays)
    turns = asyncio.Semaphore(QUEUED * pool.workers)

    async def graded(task: ReviewTask) -> GradedPlay:
        if len(task[0].view.legal_moves) == 1:
            return review_turn(task)
        async with turns:
            return await pool.run(review_turn, task)

    return assemble(record, searches, list(await asyncio.gather(*(graded(task) for task in tasks))))


@dataclass(frozen=True, slots=True)
class MatchReview:
    """A finished match's review as one of its players asked for it."""

    game: GameSummary
    review: Review
    names: tuple[str, ...]
    """Each seat's name, as the table showed it."""
    seat: int
    """The seat of the player who asked."""
    fresh: bool
    """Worked out for this request (every later request reads the stored one)."""

    @property
    def players(self) -> tuple[tuple[int, PlayerProfile], ...]:
        """The people of the match (seat, player), whom the review is for."""
        return tuple((s.seat, s.player) for s in self.game.seats if s.player is not None)


class Reviews:
    """A finished match's review for its players: worked out once, in the computer players'
    workers, and stored with the match (with each seat's accuracy, for /stats)."""

    def __init__(self, store: GameStore, directory: Directory, games: Games,
                 pool: ComputerPool | None, searches: int, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self.directory = directory
        self.games = games
        self.pool = pool
        self.searches = searches
        self._working: dict[int, asyncio.Lock] = {}

    async def last_finished(self, chat_ref: ChatRef) -> int:
        """The chat's latest finished match; refused when it has none."""
        chat = await self.directory.chat(chat_ref)
        latest = await self.store.recent_matches(chat.id, 1)
        if not latest:
            raise Refused(Reason.NO_MATCH)
        return latest[0].game_id

    async def review(self, game_id: int, user: UserRef) -> MatchReview:
        row = await self.games.row(game_id)
        player = await self.directory.known_player(user.platform, user.key)
        seat = next((s.seat for s in row.seats if player is not None and s.player_id == player.id
                     and not s.is_computer), None)
        if seat is None:
            raise Refused(Reason.NOT_YOUR_REVIEW)
        if row.status != GameStatus.FINISHED:
            raise Refused(Reason.NOT_FINISHED)
        lock = self._working.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                review, fresh = await self._stored_or_worked_out(row)
        finally:
            if not lock.locked() and self._working.get(game_id) is lock:
                del self._working[game_id]
        names = tuple(seat_name(s, row.seats) for s in row.seats)
        return MatchReview(await self.games.summary(row), review, names, seat, fresh)

    async def claim_sending(self, game_id: int, player: PlayerProfile) -> bool:
        """Whether `player`'s review of match `game_id` is to be sent now: False when it was
        sent to them in the last `RESEND_AFTER` seconds (by any process); True counts this one."""
        name = f"review:{game_id}:{player.id}"
        return await self.store.take_send(name, self.clock(), 1, RESEND_AFTER) == 0.0

    async def _stored_or_worked_out(self, row: GameRow) -> tuple[Review, bool]:
        stored = await self.store.match_review(row.id)
        if stored is not None:
            return Review.from_dict(json.loads(stored)), False
        line = await self.store.match_record(row.id)
        try:
            if line is None:
                raise RecordError(f"game {row.id} has no record")
            review = await review_in_pool(self.pool, parse_records(line)[0], self.searches)
        except RecordError:
            log.exception("the match of game %s cannot be reviewed", row.id)
            raise Refused(Reason.NO_REVIEW) from None
        by_seat = {s.seat: s for s in row.seats}
        seats = [ReviewSeatRow(seat, None if by_seat[seat].is_computer else by_seat[seat].player_id, value)
                 for seat, value in enumerate(review.accuracy) if seat in by_seat]
        if not await self.store.store_review(row.id, json.dumps(review.to_dict(), separators=(",", ":")),
                                             seats):
            stored = await self.store.match_review(row.id)
            assert stored is not None
            return Review.from_dict(json.loads(stored)), False
        return review, True
