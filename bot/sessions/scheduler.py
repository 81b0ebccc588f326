"""Time in games: turn warnings, turns that time out, and computer players' moves,
each when its game's deadline comes.

Several bot processes may share one database: each due game is claimed from the
store first (`GameStore.claim_due`), so one process runs each timer, and let go
once done; a process that dies holding a game holds it for `CLAIM_LEASE` seconds
at most, then another takes it over. The move itself stays version-checked, so
even an attempt made after its lease ran out changes nothing once another
process has moved the game on."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
import socket
from collections.abc import Awaitable

from ..engine import Game
from ..engine.fuori import declaring_wins
from . import events as ev
from .context import Context, UseCase
from .games import base
from .log_context import about
from .options import REMIND_AFTER
from .play import Play
from .ports import Served, StaleVersion, StorageAway, StorageFailed
from .records import DeadlineChange, DeadlineKind, GameRow, GameStatus, SeatRow
from .refusals import Refused
from .thinking import Chooser, Think
from .views import seat_name

log = logging.getLogger(__name__)

_IDLE_POLL = 2.0  # the timer loop also looks for due work at least this often
_RETRY_HELD = 0.5
"""Seconds before due work the last round did not do (another process holds it, or it
failed) is looked at again."""
CLAIM_LEASE = 5.0
"""Seconds a process holds a game's due work: far more than a computer's move takes,
and how long a process that died can keep its games waiting."""


def process_owner() -> str:
    """This process's name on the games it claims: host, process id and a random part
    (a restarted process with a reused id is another owner)."""
    return f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(3)}"


class Scheduler(UseCase):
    def __init__(self, context: Context, play: Play, *, chooser: Chooser, think: Think,
                 timeout_level: str) -> None:
        super().__init__(context)
        self.play = play
        self.chooser = chooser
        self.think = think
        """Where the chooser runs: a thread by default, worker processes in the bot."""
        self.timeout_level = timeout_level
        self.owner = process_owner()
        self.lease = CLAIM_LEASE
        self.served: Served | None = None
        """The chats whose due work this process runs (None: every chat)."""
        self._last_run: float | None = None
        """The time `run_due` last looked for due work."""

    async def next_due(self) -> float | None:
        """When `run_due` next has something to do (None: nothing scheduled). Work that
        was due when `run_due` last looked and is still there (another process holds
        it, or it failed) is looked at again `_RETRY_HELD` seconds from now."""
        soonest = None
        looked = self._last_run
        for entry in await self.store.running_deadlines():
            due = self.alarm.due(entry.at, entry.kind, entry.warned)
            if looked is not None and due <= looked:
                due = self.clock() + _RETRY_HELD
            soonest = due if soonest is None else min(soonest, due)
        return soonest

    async def run_due(self) -> int:
        """Warn, time out and play computer seats whose time has come; returns actions taken.

        Games due together are handled together: a computer thinking in one game
        does not hold up the others, and one game's failure does not stop them (it
        is raised once the others are done, and the timer loop tries it again later)."""
        now = self.clock()
        self._last_run = now
        warn_before = self.alarm.warn_before
        actions: list[Awaitable[int]] = []
        for due in await self.store.claim_due(now, warn_before, self.owner, self.lease, self.served):
            if now >= due.at:
                actions.append(self._released(due.game_id, self._act(due.game_id, due.version)))
            elif self.alarm.due(due.at, due.kind, due.warned) <= now:
                actions.append(self._released(due.game_id, self._warn(due.game_id, due.version, due.at)))
            else:
                await self.store.release_claim(due.game_id, self.owner)
        done = 0
        failed: Exception | None = None
        for outcome in await asyncio.gather(*actions, return_exceptions=True):
            if isinstance(outcome, Exception):
                failed = failed or outcome
            elif isinstance(outcome, BaseException):
                raise outcome
            else:
                done += outcome
        if failed is not None:
            raise failed
        return done

    async def _released(self, game_id: int, action: Awaitable[int]) -> int:
        """Run a claimed game's action, then let go of the game, done or not (its log lines name
        the game)."""
        with about(game=game_id, event="timer"):
            try:
                return await action
            finally:
                await self.store.release_claim(game_id, self.owner)

    async def _current(self, game_id: int, version: int) -> tuple[GameRow, Game | None]:
        """The game as loaded, from memory unless another process moved it on since:
        `version` is what the store says now."""
        row, game = await self.games.load(game_id)
        if row.version != version:
            self.games.forget(game_id)
            row, game = await self.games.load(game_id)
        return row, game

    async def _warn(self, game_id: int, version: int, deadline: float) -> int:
        async with self.games.lock(game_id):
            row, game = await self._current(game_id, version)
            if game is None or row.version != version or row.warned:
                return 0
            with contextlib.suppress(StaleVersion):
                async with self.store.unit() as uow:
                    uow.add(DeadlineChange(game_id, version, deadline, DeadlineKind.TURN, warned=True))
            self.games.keep(dataclasses.replace(row, warned=True), game)
            chat = await self.directory.chat_row(row.chat_id)
            seat = next(s for s in row.seats if s.seat == game.to_play)
            event = ev.TurnWarning(**base(row, chat), seat=seat.seat, player_id=seat.player_id,
                                   name=seat_name(seat, row.seats),
                                   seconds_left=max(0, round(deadline - self.clock())))
        await self.bus.publish([event])
        return 1

    async def _act(self, game_id: int, version: int) -> int:
        async with self.games.lock(game_id):
            row, game = await self._current(game_id, version)
            if game is None or row.status != GameStatus.RUNNING or row.version != version:
                return 0
            if row.deadline is None or self.clock() < row.deadline:
                return 0
            seat = next(s for s in row.seats if s.seat == game.to_play)
            computer = seat.is_computer or seat.autoplay
            events: list[ev.Event]
            if row.deadline_kind is DeadlineKind.DAY_OVER and not computer:
                events = await self.play.close_day(row, game)
            elif row.deadline_kind is DeadlineKind.REMIND and not computer:
                reminder = await self._remind(row, game, seat)
                if reminder is None:
                    return 0
                events = [reminder]
            else:
                events = await self._move(row, game, seat, computer)
        await self.bus.publish(events)
        return 1 if events else 0

    async def _remind(self, row: GameRow, game: Game, seat: SeatRow) -> ev.TurnReminder | None:
        """Remind a player with no clock, once: the game keeps no deadline until the next move."""
        try:
            async with self.store.unit() as uow:
                uow.add(DeadlineChange(row.id, row.version, None, None))
        except StaleVersion:
            self.games.forget(row.id)
            return None
        waited = round(self.clock() - (row.deadline or self.clock())) + REMIND_AFTER
        self.games.keep(dataclasses.replace(row, deadline=None, deadline_kind=None, warned=False), game)
        chat = await self.directory.chat_row(row.chat_id)
        return ev.TurnReminder(**base(row, chat), seat=seat.seat, player_id=seat.player_id,
                               name=seat_name(seat, row.seats), waited=waited, version=game.version)

    async def _move(self, row: GameRow, game: Game, seat: SeatRow, computer: bool) -> list[ev.Event]:
        """The computer's move for `seat`: its own, or one for a player whose time ran out."""
        game_id = row.id
        level = seat.computer_level if seat.is_computer and seat.computer_level else \
            self.timeout_level
        view = game.view(seat.seat)
        move = await self.think(self.chooser, level, view, f"{row.seed}/{game.version}")
        chat = await self.directory.chat_row(row.chat_id)
        try:
            events, _, _ = await self.play.commit(chat, row, game, seat, move, by_computer=True,
                                                  timed_out=not computer,
                                                  fuori=computer and declaring_wins(game, move))
        except Refused:
            log.exception("computer move %s refused in game %s", move, game_id)
            return []
        return events

    async def run_forever(self) -> None:
        """Drive timers and computer players until cancelled."""
        alarm = self.alarm
        while True:
            alarm.wake.clear()
            try:
                await self.run_due()
                due = await self.next_due()
            except StorageFailed:
                raise
            except StorageAway as away:
                # the store tried for a while already and says when it gives up for good
                log.warning("timers wait for the database: %s", away)
                due = self.clock() + 1.0
            except Exception:
                log.exception("timer loop failed; retrying")
                due = self.clock() + 1.0
            wait = _IDLE_POLL if due is None else max(0.0, min(_IDLE_POLL, due - self.clock()))
            alarm.sleeping_until = self.clock() + wait
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a
            # cancellation that arrives as the wake-up does, and the loop never stops.
            try:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):
                        await alarm.wake.wait()
            finally:
                alarm.sleeping_until = None
