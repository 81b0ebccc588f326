"""Telegram's limits for three bot processes on one PostgreSQL, on a clock the test moves:
each counts the bot's 30 messages a second and a group's 20 a minute in the database, so the
three together keep to them from the first second."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.adapters.telegram.limits import MessagesRateLimiter
from bot.adapters.telegram.pacing import POSTS_KEPT, StorePacer
from bot.storage.backends import open_store

from .. import pg
from ..fakes.virtual_time import VirtualTime

GROUP = -100


def busiest(times: list[float], period: float) -> int:
    ordered = sorted(times)
    return max((sum(1 for t in ordered if start <= t < start + period) for start in ordered), default=0)


@pytest.fixture
async def stores() -> AsyncIterator[list[Any]]:
    cluster = pg.shared_cluster()
    url = await cluster.create_database()
    opened = [await open_store(url) for _ in range(3)]
    yield opened
    for store in opened:
        await store.close()
    await cluster.drop_database(url)


async def test_three_processes_keep_the_bot_to_thirty_a_second_and_a_group_to_twenty_a_minute(
        stores: list[Any]) -> None:
    time = VirtualTime()
    arrived: list[float] = []
    group: list[float] = []

    async def reached() -> dict[str, Any]:
        arrived.append(time.now)
        return {}

    async def process(store: Any, first_chat: int) -> None:
        async def take(*args: Any) -> float:
            async with time.held():
                return float(await store.take_send(*args))

        async def settle(*args: Any) -> None:
            async with time.held():
                await store.settle_send(*args)

        pacer = StorePacer((20, 60.0), take=take, settle=settle, clock=time.clock, wall=time.clock,
                      sleep=time.sleep)
        limiter = MessagesRateLimiter(30, clock=time.clock, sleep=time.sleep)
        pacer.pace_with(limiter)

        async def private(chat: int) -> None:
            await limiter.process_request(reached, (), {}, "sendMessage", {"chat_id": chat}, None)

        async def table_edit() -> None:
            await pacer.ready(GROUP)
            async with pacer.sending(GROUP, "editmessagetext"):
                await limiter.process_request(reached, (), {}, "editMessageText", {"chat_id": GROUP}, None)
                group.append(time.now)

        await asyncio.gather(*(private(first_chat + n) for n in range(40)),
                             *(table_edit() for _ in range(10)))

    await time.run(asyncio.gather(*(process(store, 1_000 * k) for k, store in enumerate(stores, 1))))
    assert len(arrived) == 150 and len(group) == 30
    assert busiest(arrived, 1.0) <= 30
    assert busiest(group, 60.0) == 20 - POSTS_KEPT, "table edits leave a few places to new messages"
