"""The storage contract of the owners' tools (`ports.OwnerStore`), on SQLite, PostgreSQL and the
in-memory store of the unit tests: blocked users, heartbeats, notices each chat gets once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.sessions.ports import Served

from ..fakes.memory_store import MemoryStore
from ..sessions_helpers import FakeClock
from .test_storage_contract import BACKENDS, _lobby, _running, postgres_cluster  # noqa: F401

Opener = Callable[[], Awaitable[Any]]


@pytest.fixture(params=["memory", *sorted(BACKENDS)])
async def opener(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Opener]:
    """Opens a store on one database; each call another store on it, as another process would."""
    opened: list[Any] = []
    if request.param == "memory":
        memory = MemoryStore()

        async def same() -> Any:
            return memory

        yield same
        return
    setup = BACKENDS[request.param](tmp_path, FakeClock(), request)
    open_raw = (await setup.__anext__())[0]

    async def tracked() -> Any:
        store = await open_raw()
        opened.append(store)
        return store

    try:
        yield tracked
    finally:
        for store in opened:
            await store.close()
        await setup.aclose()


async def test_a_block_holds_for_every_store_on_the_database_until_lifted(opener: Opener) -> None:
    first, second = await opener(), await opener()
    assert await first.block_user("telegram", "42", "telegram:1", 100.0)
    assert not await second.block_user("telegram", "42", "telegram:1", 101.0)
    assert await second.is_blocked("telegram", "42") and not await second.is_blocked("discord", "42")
    assert await first.block_user("discord", "42", "telegram:1", 102.0)
    assert await second.unblock_user("telegram", "42")
    assert not await first.unblock_user("telegram", "42")
    assert await first.is_blocked("discord", "42") and not await first.is_blocked("telegram", "42")


async def test_a_heartbeat_is_kept_per_process_and_forgotten_when_old(opener: Opener) -> None:
    store = await opener()
    await store.beat("host:1", "telegram", 10.0, 20.0, 0.002, 0.0)
    await store.beat("host:2", "discord", 15.0, 21.0, 0.5, 0.0)
    await store.beat("host:1", "telegram", 10.0, 30.0, 0.004, 0.0)
    beats = await store.heartbeats()
    assert [(b.process, b.started_at, b.seen_at, b.lag) for b in beats] == [
        ("host:1", 10.0, 30.0, 0.004), ("host:2", 15.0, 21.0, 0.5)]
    await store.beat("host:1", "telegram", 10.0, 40.0, 0.001, 25.0)
    assert [b.process for b in await store.heartbeats()] == ["host:1"]


async def test_a_notice_is_owed_once_to_each_chat_with_an_open_game(opener: Opener) -> None:
    store = await opener()
    await _running(store, "g1")
    await _lobby(store, "g2", names=("Carla", "Dario"))
    notice_id, chats = await store.add_notice("Restart in 5 minutes", "telegram:1", 50.0)
    assert chats == 2
    claimed = await store.claim_notices("a", 60.0, 30.0, None)
    assert sorted(d.chat_key for d in claimed) == ["g1", "g2"]
    assert {d.text for d in claimed} == {"Restart in 5 minutes"}
    assert {d.notice_id for d in claimed} == {notice_id}
    assert await store.claim_notices("b", 61.0, 30.0, None) == []
    first, second = claimed
    await store.notice_done(first.notice_id, first.chat_id, "a", True)
    await store.notice_done(second.notice_id, second.chat_id, "a", False)
    again = await store.claim_notices("b", 62.0, 30.0, None)
    assert [d.chat_key for d in again] == [second.chat_key]
    assert (await store.store_status(0.0, 62.0)).notices_owed == 1
    await store.notice_done(second.notice_id, second.chat_id, "a", True)
    assert (await store.store_status(0.0, 62.0)).notices_owed == 1
    await store.notice_done(second.notice_id, second.chat_id, "b", True)
    assert await store.claim_notices("c", 1000.0, 30.0, None) == []
    assert (await store.store_status(0.0, 1000.0)).notices_owed == 0


async def test_a_claimed_notice_whose_holder_died_is_claimed_again_after_its_lease(opener: Opener) -> None:
    store = await opener()
    await _running(store, "g1")
    await store.add_notice("Hi", "telegram:1", 50.0)
    assert len(await store.claim_notices("a", 60.0, 30.0, None)) == 1
    assert await store.claim_notices("b", 89.0, 30.0, None) == []
    assert len(await store.claim_notices("b", 90.0, 30.0, None)) == 1


async def test_a_notice_is_claimed_only_by_a_process_that_serves_its_chat(opener: Opener) -> None:
    store = await opener()
    await _running(store, "g1", platform="telegram")
    await _running(store, "c1", platform="discord", names=("Carla", "Dario"))
    await store.add_notice("Hi", "telegram:1", 50.0)
    telegram = await store.claim_notices("a", 60.0, 30.0, Served(frozenset({"telegram"})))
    assert [d.platform for d in telegram] == ["telegram"]
    discord = await store.claim_notices("b", 60.0, 30.0, Served(frozenset({"discord"})))
    assert [d.platform for d in discord] == ["discord"]


async def test_of_stores_claiming_at_once_each_notice_goes_to_one(opener: Opener) -> None:
    stores = [await opener() for _ in range(3)]
    for number in range(12):
        await _running(stores[0], f"g{number}", names=(f"A{number}", f"B{number}"))
    await stores[0].add_notice("Hi", "telegram:1", 50.0)
    claims = await asyncio.gather(*(store.claim_notices(f"p{n}", 60.0, 30.0, None)
                                    for n, store in enumerate(stores)))
    chats = [d.chat_id for claim in claims for d in claim]
    assert len(chats) == 12 and len(set(chats)) == 12


async def test_the_status_counts_games_players_of_the_day_and_due_timers(opener: Opener) -> None:
    store = await opener()
    await _running(store, "g1", deadline=100.0)
    await _running(store, "g2", deadline=5_000.0, names=("Carla", "Dario"))
    await _lobby(store, "g3", names=("Elena", "Fabio"))
    status = await store.store_status(0.0, 200.0)
    assert (status.running, status.lobbies, status.timers_due) == (2, 1, 1)
    assert status.players_today == 6
    assert (await store.store_status(10.0 ** 12, 200.0)).players_today == 0
