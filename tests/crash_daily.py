"""Asks for Alice's deal of the day (at noon, 2026-11-25) on the database at argv[1] and waits to
be killed (SIGKILL) before its write number argv[2] (from 0: each commit of /daily is a step),
printing "stopped"; past its last write, once the deal is made, printing "dealt". With argv[3:6]
(a platform, Alice's key there, the group's key) she asks in that group of that platform."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.sessions import ChatRef, Sessions, UserRef
from bot.storage.backends import open_store
from tests.sessions_helpers import ALICE, CHAT, FakeClock, first_legal

NOON = datetime(2026, 11, 25, 12, 0, tzinfo=UTC).timestamp()
ROOT = Path(__file__).resolve().parents[1]


def killed_asking_for_the_daily(url: str, step: int, *where: str) -> str:
    """A bot process asks for Alice's deal (`where`: platform, her key, the group's key) and is
    killed with SIGKILL before its write `step` ("stopped"), or once the deal is made ("dealt")
    when /daily writes fewer times."""
    child = subprocess.Popen([sys.executable, "-m", "tests.crash_daily", url, str(step), *where], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    said = child.stdout.readline().strip()
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    assert said in ("stopped", "dealt"), f"the process ended before it was killed: {said!r}"
    return said


async def wait_for_the_kill(said: str) -> None:
    print(said, flush=True)
    await asyncio.Event().wait()


async def main(url: str, stop_before: int, alice: UserRef = ALICE, group: ChatRef = CHAT) -> None:
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
    await sessions.daily.start(group, ChatRef(alice.platform, alice.key, alice.name), alice)
    await wait_for_the_kill("dealt")


if __name__ == "__main__":
    if len(sys.argv) > 3:
        platform, user_key, group_key = sys.argv[3:6]
        asyncio.run(main(sys.argv[1], int(sys.argv[2]), UserRef(platform, user_key, "Alice", "en"),
                         ChatRef(platform, group_key, "Friends")))
    else:
        asyncio.run(main(sys.argv[1], int(sys.argv[2])))
