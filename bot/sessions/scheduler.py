"""Time in games: turn warnings, turns that time out, and computer players' moves,
each when its game's deadline comes."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable

from ..engine.fuori import declaring_wins
from . import events as ev
from .directory import Directory
from .games import EventBus, Games, base
from .play import Play
from .ports import GameStore, StorageFailed
from .refusals import Refused
from .thinking import Chooser, Think
from .views import seat_name

log = logging.getLogger(__name__)

_IDLE_POLL = 2.0  # the timer loop also looks for due work at least this often


class Alarm:
    """Wakes the timer loop when a deadline is set before the time it sleeps to."""

    def __init__(self, warn_before: float) -> None:
        self.warn_before = warn_before
        self.wake = asyncio.Event()
        self.sleeping_until: float | None = None

    def due(self, deadline: float, kind: str | None, warned: bool) -> float:
        """When the timer loop has something to do about one deadline: warn or act."""
        if kind == "turn" and not warned and self.warn_before:
            return deadline - self.warn_before
        return deadline

    def set(self, deadline: float | None, kind: str | None, warned: bool) -> None:
        """Most moves push their game's deadline later, so most moves leave the loop asleep."""
        if deadline is None:
            return
        if self.sleeping_until is None or self.due(deadline, kind, warned) < self.sleeping_until:
            self.wake.set()


class Scheduler:
    def __init__(self, store: GameStore, directory: Directory, games: Games, play: Play,
                 bus: EventBus, alarm: Alarm, clock: Callable[[], float], *, chooser: Chooser,
                 think: Think, timeout_level: str) -> None:
        self.store = store
        self.directory = directory
        self.games = games
        self.play = play
        self.bus = bus
        self.alarm = alarm
        self.clock = clock
        self.chooser = chooser
        self.think = think
        """Where the chooser runs: a thread by default, worker processes in the bot."""
        self.timeout_level = timeout_level

    async def next_due(self) -> float | None:
        """When `run_due` next has something to do (None: nothing scheduled)."""
        soonest = None
        for _, deadline, kind, warned, _ in await self.store.running_deadlines():
            due = self.alarm.due(deadline, kind, warned)
            soonest = due if soonest is None else min(soonest, due)
        return soonest

    async def run_due(self) -> int:
        """Warn, time out and play computer seats whose time has come; returns actions taken.

        Games due together are handled together: a computer thinking in one game
        does not hold up the others, and one game's failure does not stop them (it
        is raised once the others are done, and the timer loop tries it again later)."""
        now = self.clock()
        warn_before = self.alarm.warn_before
        actions: list[Awaitable[int]] = []
        for game_id, deadline, kind, warned, version in await self.store.running_deadlines():
            if now >= deadline:
                actions.append(self._act(game_id, version))
            elif kind == "turn" and not warned and warn_before and now >= deadline - warn_before:
                actions.append(self._warn(game_id, version, deadline))
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

    async def _warn(self, game_id: int, version: int, deadline: float) -> int:
        async with self.games.lock(game_id):
            row, game = await self.games.load(game_id)
            if game is None or row.version != version or row.warned:
                return 0
            await self.store.set_deadline(game_id, version, deadline, "turn", warned=True)
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
            row, game = await self.games.load(game_id)
            if game is None or row.status != "running" or row.version != version:
                return 0
            if row.deadline is None or self.clock() < row.deadline:
                return 0
            seat = next(s for s in row.seats if s.seat == game.to_play)
            computer = seat.is_computer or seat.autoplay
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
                return 0
        await self.bus.publish(events)
        return 1

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
