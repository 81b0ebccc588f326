"""Two bot processes on one database: each computer turn and each turn timer is run by
one of them, and the turns a process that died had claimed are run by another once its
lease runs out."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.sessions import Sessions
from bot.sessions.scheduler import CLAIM_LEASE
from bot.storage.backends import open_store

from ..sessions_helpers import ALICE, BOB, CHAT, FakeClock, first_legal, start_duel


async def _process(postgres_url: str, clock: FakeClock) -> Sessions:
    store = await open_store(postgres_url, clock)
    return Sessions(store, clock=clock, computer_pace=1.0, warn_before=20.0,  # type: ignore[arg-type]
                    chooser=first_legal)


async def test_two_processes_run_every_computer_turn_once(postgres_url: str,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    one, two = await _process(postgres_url, clock), await _process(postgres_url, clock)
    try:
        await one.lobby.new_game(CHAT, ALICE, "scopa")
        await one.lobby.add_computer(CHAT, ALICE, "easy")
        game_id = (await one.lobby.start(CHAT, ALICE)).game_id
        await one.play.set_autoplay(game_id, ALICE, True)
        actions = 0
        for _ in range(2_000):  # a move a second; a match to 11 may last six rounds of 36 moves
            if (await two.queries.table(game_id)).finished:
                break
            clock.advance(1.0)
            actions += sum(await asyncio.gather(one.scheduler.run_due(), two.scheduler.run_due()))
        assert (await one.queries.game(game_id)).status.value == "finished"
        stored = await one.store.moves(game_id)
        assert actions == len(stored), "every action stored one move, no move was tried twice"
        assert [m.number for m in stored] == list(range(1, len(stored) + 1))
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    finally:
        await one.close()
        await two.close()


async def test_a_turn_timer_fires_once_however_many_processes_watch_it(postgres_url: str) -> None:
    clock = FakeClock()
    processes = [await _process(postgres_url, clock) for _ in range(3)]
    try:
        game_id = await start_duel(processes[0])
        first = (await processes[0].queries.table(game_id)).to_play
        clock.advance(75.0)  # the warning, 20 s before the 90 s turn ends
        assert sum(await asyncio.gather(*(p.scheduler.run_due() for p in processes))) == 1
        assert sum(await asyncio.gather(*(p.scheduler.run_due() for p in processes))) == 0, "warned once"
        clock.advance(20.0)
        assert sum(await asyncio.gather(*(p.scheduler.run_due() for p in processes))) == 1
        assert [m.seat for m in await processes[1].store.moves(game_id)] == [first], "one move"
        assert (await processes[2].queries.table(game_id)).to_play == 1 - first
    finally:
        for process in processes:
            await process.close()


async def test_the_turn_a_dead_process_claimed_is_run_by_another_after_its_lease(postgres_url: str) -> None:
    clock = FakeClock()
    dead, alive = await _process(postgres_url, clock), await _process(postgres_url, clock)
    try:
        game_id = await start_duel(alive)
        first = (await alive.queries.table(game_id)).to_play
        clock.advance(95.0)
        claimed = await dead.store.claim_due(clock(), 20.0, dead.scheduler.owner, CLAIM_LEASE)
        assert [entry.game_id for entry in claimed] == [game_id]
        assert await alive.scheduler.run_due() == 0, "the dying process holds the turn"
        assert await alive.scheduler.next_due() is not None
        clock.advance(CLAIM_LEASE)
        assert await alive.scheduler.run_due() == 1
        assert (await alive.queries.table(game_id)).to_play == 1 - first
        assert len(await alive.store.moves(game_id)) == 1
    finally:
        await dead.close()
        await alive.close()


async def test_a_process_whose_game_moved_on_elsewhere_acts_on_the_stored_game(postgres_url: str) -> None:
    clock = FakeClock()
    one, two = await _process(postgres_url, clock), await _process(postgres_url, clock)
    try:
        game_id = await start_duel(one)
        first = (await one.queries.table(game_id)).to_play  # `one` keeps the game in memory
        mover = (ALICE, BOB)[first]
        hand = await two.queries.hand(game_id, mover)
        await two.play.play(game_id, mover, hand.version, hand.choices[0].moves[0].code)
        clock.advance(95.0)
        assert await one.scheduler.run_due() == 1, "the next turn times out in the process with an old copy"
        moves = await two.store.moves(game_id)
        assert [(m.number, m.seat) for m in moves] == [(1, first), (2, 1 - first)]
        assert (await one.queries.table(game_id)).version == 2
    finally:
        await one.close()
        await two.close()
