"""A finished match's review for its players, worked out in the computer players' worker
processes and stored with the match.

Grading every play of a 2-player match is about a second of search; on the event loop's
thread it would stop every chat for that long. `review_in_pool` hands the plays to the
workers behind the work players wait for (`ComputerPool.grade`), so a computer's move waits
behind one graded play per worker at most (a few milliseconds each); the loop only replays
the record, grades the forced plays (there is nothing to search) and gathers the grades.

Where the computers have workers of their own, every match with a person in it is reviewed as
it ends (`ended`), so a tap on Review finds it made; a restart reviews those that ended in
the last day and were not (`review_unreviewed`). Reviews are made one match at a time, one a
player asked for before (and while) those nobody asked for (`review_turns`), each by a task of
its own: a request that stops waiting (a tap answered, a restart) leaves it going. What a
player asked for is kept as a notice of the game (`events.ReviewOwed`) until it is delivered,
so a review is delivered once whenever the bot stops: after a restart the owed reviews are made
if they were not, and delivered. Nothing is sent to anyone for a review made unasked: the chat's accuracy line
waits for the first player who asks (`LINE`).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .. import metrics
from ..ai.review import DEFAULT_SEARCHES, GradedPlay, Review, assemble, review_tasks, review_turn
from ..engine.record import RecordError, parse_records
from .directory import Directory
from .events import Event, MatchEnded, ReviewOwed
from .games import EventBus, Games
from .notices import Notices, dump_notice, notice_key
from .ports import GameStore, ReviewExists
from .records import GameNotes, GameRow, GameStatus, NewReview, ReviewSeatRow
from .refs import ChatRef, UserRef
from .refusals import Reason, Refused
from .review_turns import ReviewTurns
from .thinking import ComputerPool
from .views import GameSummary, PlayerProfile, seat_name

log = logging.getLogger(__name__)

RESEND_AFTER = 120.0
"""Seconds after a player was sent a match's review before it is sent to them again: a double
tap, a second /review, or a press just after the review went to every player sends nothing
twice (within `ports.SENDS_KEPT`, so every process keeps the count that long)."""

WAITING_AT_MOST = 200
"""Reviews waiting to be made before another request is refused for now (`REVIEWS_BUSY`): the
queue's memory and a player's wait stay bounded however many matches end at once."""
UNASKED_AT_MOST = WAITING_AT_MOST // 2
"""Reviews waiting before a match's end or a restart queues no more nobody asked for: a
player's request always finds room."""
REVIEWED_WITHIN = 86_400.0
"""Seconds after a match's end within which a restart reviews it if it was not (the process
that ended it stopped first): older ones are made when someone asks."""
LINE = "review:line"
"""A game's note of its chat's accuracy line: `LINE_DUE` while the review was made unasked and
nobody asked yet (the line goes with the first asker's review), `LINE_OWED` once it was owed."""
LINE_DUE, LINE_OWED = "due", "owed"


async def review_in_pool(pool: ComputerPool | None, record: dict[str, Any],
                         searches: int = DEFAULT_SEARCHES,
                         gate: Callable[[], Awaitable[None]] | None = None) -> Review:
    """The review of a `scopa-record/1` match (raises `RecordError` for one that cannot be
    replayed), graded in `pool`'s workers, or in a thread without a pool. The same record
    and `searches` give the same review wherever it is worked out. In the pool, one play per
    worker is handed over at a time, each after `gate` (where a review nobody asked for waits
    while one is asked for: `ReviewTurns.gate`)."""
    tasks = review_tasks(record, searches)
    if pool is None:
        plays = await asyncio.to_thread(lambda: [review_turn(task) for task in tasks])
        return assemble(record, searches, plays)
    graded: list[GradedPlay | None] = [None] * len(tasks)
    ahead = iter(enumerate(tasks))

    async def grader() -> None:
        for index, task in ahead:
            if len(task[0].view.legal_moves) == 1:
                graded[index] = review_turn(task)
                continue
            if gate is not None:
                await gate()
            graded[index] = await pool.grade(review_turn, task)

    await asyncio.gather(*(grader() for _ in range(pool.workers)))
    return assemble(record, searches, [play for play in graded if play is not None])


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


@dataclass(frozen=True, slots=True)
class ReviewAsked:
    """What became of a player's request for their review in their private chat."""

    game_id: int
    ready: bool
    """It was made already and is being delivered now; otherwise it is on its way: made, or
    asked for moments ago and not delivered yet."""
    already: bool = False
    """It went to them moments ago: nothing is sent again."""
    privately: bool = True
    """Theirs is owed to their private chat; False when the bot cannot write to them there."""


class Reviews:
    """A finished match's review for its players: worked out once, in the computer players'
    workers, and stored with the match (with each seat's accuracy, for /stats)."""

    def __init__(self, store: GameStore, directory: Directory, games: Games, notices: Notices,
                 bus: EventBus, pool: ComputerPool | None, searches: int,
                 clock: Callable[[], float], at_end: bool) -> None:
        self.store = store
        self.clock = clock
        self.directory = directory
        self.games = games
        self.notices = notices
        self.bus = bus
        self.pool = pool
        self.searches = searches
        self._making: dict[int, asyncio.Task[tuple[Review, bool]]] = {}
        self.at_end = at_end
        """Whether each match with a person in it is reviewed as it ends (`ended`)."""
        self._turns = ReviewTurns()
        self._asked_for: set[int] = set()
        """The matches being made whose review someone asked for."""
        self._delivering: set[asyncio.Future[None]] = set()

    async def last_finished(self, chat_ref: ChatRef) -> int:
        """The chat's latest finished match; refused when it has none."""
        chat = await self.directory.chat(chat_ref)
        latest = await self.store.recent_matches(chat.id, 1)
        if not latest:
            raise Refused(Reason.NO_MATCH)
        return latest[0].game_id

    async def last_played(self, user: UserRef) -> int:
        """`user`'s latest finished match, wherever it was played; refused when they have none."""
        player = await self.directory.known_player(user.platform, user.key)
        latest = None if player is None else await self.store.last_finished_game(player.id)
        if latest is None:
            raise Refused(Reason.NO_MATCH)
        return latest

    async def ended(self, event: Event) -> None:
        """A listener of the sessions' events: a match that ended with a person in it is queued
        to be reviewed (behind the others; nothing is sent to anyone), while fewer than
        `UNASKED_AT_MOST` wait."""
        if self.at_end and isinstance(event, MatchEnded):
            self._keep(asyncio.ensure_future(self._unasked(event.game_id)))

    async def review_unreviewed(self, serves: Callable[[GameRow], Awaitable[bool]]) -> int:
        """Queue the matches that ended in the last `REVIEWED_WITHIN` seconds without a review
        (the process that ended them stopped first), of the chats `serves` says are this
        process's, while fewer than `UNASKED_AT_MOST` wait; how many were queued."""
        if not self.at_end:
            return 0
        queued = 0
        for game_id in await self.store.unreviewed_matches(self.clock() - REVIEWED_WITHIN, UNASKED_AT_MOST):
            row = await self.games.row(game_id)
            if game_id not in self._making and await serves(row):
                queued += await self._queue_unasked(row)
        return queued

    async def review(self, game_id: int, user: UserRef) -> MatchReview:
        """`user`'s review of match `game_id`, waited for (made if it was not: the making goes
        on should the caller stop waiting); the chat's accuracy line is owed once made."""
        row, seat = await self._asked(game_id, user)
        ready = await self.store.match_review(row.id) is not None
        if not ready:
            self._room_for(row)
        await self._owe_line(row, ready)
        self.deliver_when_made(row)
        review, fresh = await asyncio.shield(self._made(row))
        return await self._match_review(row, review, seat, fresh)

    async def ask(self, game_id: int, user: UserRef, privately: bool) -> ReviewAsked:
        """`user` asks for their review of match `game_id`, to be delivered `privately` (to
        their private chat; False when the bot cannot reach them there: the review is made
        and the chat's line owed all the same). Returns at once: what is owed is delivered
        (`events.ReviewOwed`) as soon as the review is made, by this process or, should it
        stop, by the next."""
        row, seat = await self._asked(game_id, user)
        ready = await self.store.match_review(row.id) is not None
        if not ready:
            self._room_for(row)
        await self._owe_line(row, ready)
        if privately:
            owed = await self._owed(row, seat, user.key)
            if not await self.notices.owe(owed):
                self.deliver_when_made(row)
                return ReviewAsked(game_id, False)
            if not await self.claim_sending(game_id, (await self.directory.player(user)).id):
                await self.notices.delivered(owed)
                return ReviewAsked(game_id, ready, already=True)
        self.deliver_when_made(row)
        return ReviewAsked(game_id, ready, privately=privately)

    async def stored(self, game_id: int, seat: int) -> MatchReview | None:
        """The stored review of match `game_id` as the player of `seat` sees it; None before
        it is made."""
        stored = await self.store.match_review(game_id)
        if stored is None:
            return None
        row = await self.games.row(game_id)
        return await self._match_review(row, Review.from_dict(json.loads(stored)), seat, False)

    async def is_made(self, game_id: int) -> bool:
        return await self.store.match_review(game_id) is not None

    async def claim_sending(self, game_id: int, player_id: int) -> bool:
        """Whether player `player_id`'s review of match `game_id` is to be sent now: False when
        it was sent to them in the last `RESEND_AFTER` seconds (by any process); True counts
        this one."""
        name = f"review:{game_id}:{player_id}"
        return await self.store.take_send(name, self.clock(), 1, RESEND_AFTER) == 0.0

    def deliver_when_made(self, row: GameRow) -> None:
        """Make match `row`'s review if it is not (in the queue, behind the others), then hand
        the front-ends what is owed of it."""
        def delivered(task: asyncio.Task[tuple[Review, bool]]) -> None:
            if not task.cancelled() and task.exception() is None:
                self._keep(asyncio.ensure_future(self._publish(row.id)))

        self._made(row).add_done_callback(delivered)

    async def make_owed(self, game_id: int) -> None:
        """A review owed of match `game_id` that may not be made (the process making it
        stopped): made and delivered, unless it is under way here already."""
        if game_id not in self._making:
            self.deliver_when_made(await self.games.row(game_id))

    async def stop(self) -> None:
        """Cancel the reviews being made and delivered here: whatever was asked for stays owed."""
        under_way: list[asyncio.Future[Any]] = [*self._making.values(), *self._delivering]
        for task in under_way:
            task.cancel()
        await asyncio.gather(*under_way, return_exceptions=True)

    async def _unasked(self, game_id: int) -> None:
        try:
            row = await self.games.row(game_id)
            if row.status == GameStatus.FINISHED:
                await self._queue_unasked(row)
        except Exception:
            log.warning("the review of game %s is made when asked for", game_id, exc_info=True)

    async def _queue_unasked(self, row: GameRow) -> bool:
        """Queue match `row`'s review, asked for by nobody yet, if a person played in it and the
        queue has room; the chat's line then waits for the first asker (`LINE_DUE`)."""
        if len(self._making) >= UNASKED_AT_MOST or all(seat.is_computer for seat in row.seats):
            return False
        if LINE not in await self.store.get_refs(row.id):
            await self.store.set_ref(row.id, LINE, LINE_DUE)
        self._made(row, asked=False)
        return True

    async def _owe_line(self, row: GameRow, ready: bool) -> None:
        """Owe the chat's accuracy line with the first request: one not made yet, or made unasked
        (a review made on request before `LINE` was kept owed its line then). The line and the
        mark that it is owed are written together: a process killed between two writes would
        leave the line delivered and still due, and the next asker would owe it again."""
        refs = await self.store.get_refs(row.id)
        mark = refs.get(LINE)
        if mark == LINE_OWED or (mark is None and ready):
            return
        line = await self._owed(row, None, "")
        owed = () if notice_key(line) in refs else ((notice_key(line), dump_notice(line)),)
        async with self.store.unit() as uow:
            uow.add(GameNotes(row.id, (*owed, (LINE, LINE_OWED))))

    def _keep(self, task: asyncio.Future[None]) -> None:
        self._delivering.add(task)
        task.add_done_callback(self._delivering.discard)

    async def _publish(self, game_id: int) -> None:
        try:
            await self.bus.publish(await self.notices.reviews_owed(game_id))
        except Exception:
            log.warning("the reviews of game %s are delivered at the next look", game_id, exc_info=True)

    async def _asked(self, game_id: int, user: UserRef) -> tuple[GameRow, int]:
        row = await self.games.row(game_id)
        player = await self.directory.known_player(user.platform, user.key)
        seat = next((s.seat for s in row.seats if player is not None and s.player_id == player.id
                     and not s.is_computer), None)
        if seat is None:
            raise Refused(Reason.NOT_YOUR_REVIEW)
        if row.status != GameStatus.FINISHED:
            raise Refused(Reason.NOT_FINISHED)
        return row, seat

    def _room_for(self, row: GameRow) -> None:
        if row.id not in self._making and len(self._making) >= WAITING_AT_MOST:
            raise Refused(Reason.REVIEWS_BUSY)

    async def _owed(self, row: GameRow, seat: int | None, player_key: str) -> ReviewOwed:
        chat = await self.directory.chat_row(row.chat_id)
        return ReviewOwed(row.id, chat.platform, chat.chat_key, thread=row.thread, seat=seat,
                          player_key=player_key)

    async def _match_review(self, row: GameRow, review: Review, seat: int, fresh: bool) -> MatchReview:
        names = tuple(seat_name(s, row.seats) for s in row.seats)
        return MatchReview(await self.games.summary(row), review, names, seat, fresh)

    def _made(self, row: GameRow, asked: bool = True) -> asyncio.Task[tuple[Review, bool]]:
        """The task that makes (or reads back) match `row`'s review: one per match at a time;
        `asked` for by a player (it goes before those nobody asked for)."""
        if asked:
            self._asked_for.add(row.id)
            self._turns.hurry(row.id)
        task = self._making.get(row.id)
        if task is None:
            task = asyncio.ensure_future(self._stored_or_worked_out(row))
            self._making[row.id] = task

            def gone(done: asyncio.Task[tuple[Review, bool]]) -> None:
                if self._making.get(row.id) is done:
                    del self._making[row.id]
                    self._asked_for.discard(row.id)
                if not done.cancelled() and isinstance(done.exception(), Exception):
                    log.warning("the review of game %s was not made: %s", row.id, done.exception())

            task.add_done_callback(gone)
        return task

    async def _stored_or_worked_out(self, row: GameRow) -> tuple[Review, bool]:
        stored = await self.store.match_review(row.id)
        if stored is not None:
            return Review.from_dict(json.loads(stored)), False
        began = metrics.review_began()
        try:
            async with self._turns.turn(row.id, row.id in self._asked_for):
                return await self._worked_out(row)
        finally:
            metrics.review_ended(began)

    async def _worked_out(self, row: GameRow) -> tuple[Review, bool]:
        stored = await self.store.match_review(row.id)
        if stored is not None:
            return Review.from_dict(json.loads(stored)), False
        line = await self.store.match_record(row.id)
        try:
            if line is None:
                raise RecordError(f"game {row.id} has no record")
            review = await review_in_pool(self.pool, parse_records(line)[0], self.searches,
                                          functools.partial(self._turns.gate, row.id))
        except RecordError:
            log.exception("the match of game %s cannot be reviewed", row.id)
            for owed in await self.notices.reviews_owed(row.id):
                await self.notices.delivered(owed)
            raise Refused(Reason.NO_REVIEW) from None
        by_seat = {s.seat: s for s in row.seats}
        seats = [ReviewSeatRow(seat, None if by_seat[seat].is_computer else by_seat[seat].player_id, value)
                 for seat, value in enumerate(review.accuracy) if seat in by_seat]
        try:
            async with self.store.unit() as uow:
                uow.add(NewReview(row.id, json.dumps(review.to_dict(), separators=(",", ":")), tuple(seats)))
        except ReviewExists:
            stored = await self.store.match_review(row.id)
            assert stored is not None
            return Review.from_dict(json.loads(stored)), False
        return review, True
