"""Asks for Alice's deal of the day (at noon, 2026-11-25) on the database at argv[1] and waits to
be killed (SIGKILL) before its write number argv[2] (from 0: each commit of /daily is a step),
printing "stopped"; past its last write, once the deal is made, printing "dealt"."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from bot.sessions import ChatRef, Sessions
from bot.storage.backends import open_store
from tests.sessions_helpers import ALICE, CHAT, FakeClock, first_legal

NOON = datetime(2026, 11, 25, 12, 0, tzinfo=UTC).timestamp()


async def wait_for_the_kill(said: str) -> None:
    print(said, flush=True)
    await asyncio.Event().wait()


async def main(url: str, stop_before: int) -> None:
    clock = FakeClock(NOON)
    store = await open_store(url, clock)
    writes = 0

    def counted(write: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def run(*args: Any) -> Any:
            nonlocal writes
            if writes == stop_before:
                await wait_for_the_kill("stopped")
            writes += 1
            return await write(*args)
        return run

    store._transact = counted(store._transact)  # type: ignore[attr-defined]
    store._change = counted(store._change)  # type: ignore[attr-defined]
    sessions = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal)
    await sessions.daily(CHAT, ChatRef(ALICE.platform, ALICE.key, ALICE.name), ALICE)
    await wait_for_the_kill("dealt")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
