"""Two bot processes on one PostgreSQL, under virtual time: when the month turns (UTC), each
looking every minute for a season to close, the chat's champion of the month gone is announced
once, by one of them, and not before midnight; a process killed while announcing leaves it to
the other once its lease runs out."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from bot.sessions import Sessions
from bot.sessions.ports import SeasonResult, Served
from bot.sessions.records import ChatRow
from bot.sessions.seasons import CLOSE_LEASE, SeasonClose, Seasons
from bot.storage.backends import open_store

from ..fakes.virtual_time import VirtualTime
from ..sessions_helpers import ALICE, BOB, CARLA, CHAT, first_legal, play_to_end, start_duel

T = TypeVar("T")
BEFORE_MIDNIGHT = datetime(2026, 11, 30, 23, 50, tzinfo=UTC).timestamp()
MIDNIGHT = datetime(2026, 12, 1, tzinfo=UTC).timestamp()


class Held:
    """A process's store as the seasons use it, each call taking no virtual time (a real
    database answers meanwhile)."""

    def __init__(self, store: Any, time: VirtualTime) -> None:
        self.store, self.time = store, time

    async def _held(self, call: Callable[[], Awaitable[T]]) -> T:
        async with self.time.held():
            return await call()

    async def season_results(self, start: float, end: float, chat_id: int | None) -> list[SeasonResult]:
        return await self._held(lambda: self.store.season_results(start, end, chat_id))

    async def claim_season_closes(self, season: str, start: float, end: float, owner: str, now: float,
                                  lease: float, served: Served | None, limit: int = 20) -> list[ChatRow]:
        return await self._held(lambda: self.store.claim_season_closes(season, start, end, owner, now, lease,
                                                                       served, limit))

    async def season_closed(self, chat_id: int, season: str, owner: str, done: bool) -> None:
        await self._held(lambda: self.store.season_closed(chat_id, season, owner, done))


async def _process(url: str, time: VirtualTime) -> Sessions:
    store = await open_store(url, time.clock)
    return Sessions(store, clock=time.clock, computer_pace=0.0, chooser=first_legal)  # type: ignore[arg-type]


def _seasons(sessions: Sessions, time: VirtualTime, name: str) -> Seasons:
    return Seasons(Held(sessions.store, time), sessions.directory, time.clock,  # type: ignore[arg-type]
                   name, time.sleep)


async def _november(sessions: Sessions, time: VirtualTime) -> None:
    """Three matches in the chat at the end of November: Alice and Bob twice, Alice and Carla once."""
    time.now = BEFORE_MIDNIGHT - 3600.0
    for first, second in ((ALICE, BOB), (ALICE, BOB), (ALICE, CARLA)):
        game_id = await start_duel(sessions, CHAT, first, second)
        await play_to_end(sessions, game_id, [ALICE, BOB, CARLA])
    time.now = BEFORE_MIDNIGHT


async def test_the_month_turns_and_the_champion_is_announced_once(postgres_url: str) -> None:
    time = VirtualTime()
    one, two = await _process(postgres_url, time), await _process(postgres_url, time)
    try:
        await _november(one, time)
        expected = (await one.seasons.board(CHAT)).lines[0][1]
        posted: list[tuple[str, float, SeasonClose]] = []

        def post_as(name: str) -> Callable[[SeasonClose], Awaitable[bool]]:
            async def post(close: SeasonClose) -> bool:
                await time.sleep(2.0)  # the message on its way, while the other process looks too
                posted.append((name, time.now, close))
                return True
            return post

        loops = [asyncio.ensure_future(_seasons(s, time, name).keep_closing("test", lambda: None,
                                                                            post_as(name)))
                 for s, name in ((one, "one"), (two, "two"))]

        async def half_an_hour() -> None:
            await time.sleep(30 * 60.0)
            for loop in loops:
                loop.cancel()
            await asyncio.gather(*loops, return_exceptions=True)

        await time.run(half_an_hour())
        assert len(posted) == 1, [(name, at) for name, at, _ in posted]
        _, at, close = posted[0]
        assert MIDNIGHT <= at < MIDNIGHT + 3 * 60.0, "within a minute or so of midnight UTC"
        assert close.chat.key == CHAT.key and close.board.champion == expected
        assert close.board.champion is not None and close.board.champion.points >= 3
    finally:
        await one.close()
        await two.close()


async def test_a_process_killed_while_announcing_leaves_it_to_the_other(postgres_url: str) -> None:
    time = VirtualTime()
    one, two = await _process(postgres_url, time), await _process(postgres_url, time)
    try:
        await _november(one, time)
        time.now = MIDNIGHT + 10.0
        posted: list[float] = []
        stuck = asyncio.Event()

        async def dies(close: SeasonClose) -> bool:
            stuck.set()
            await asyncio.Event().wait()  # killed mid-post: it never answers nor lets go
            return True

        async def posts(close: SeasonClose) -> bool:
            posted.append(time.now)
            return True

        async def run() -> None:
            killed = asyncio.ensure_future(_seasons(one, time, "one").close_due("test", None, dies))
            await stuck.wait()
            assert await _seasons(two, time, "two").close_due("test", None, posts) == 0, "held by the first"
            killed.cancel()
            await time.sleep(CLOSE_LEASE + 1.0)
            assert await _seasons(two, time, "two").close_due("test", None, posts) == 1
            assert await _seasons(two, time, "two").close_due("test", None, posts) == 0

        await time.run(run())
        assert posted == [MIDNIGHT + 10.0 + CLOSE_LEASE + 1.0]
    finally:
        await one.close()
        await two.close()
