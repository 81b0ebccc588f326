"""The bot's 30 new messages a second: what counts, and the window that spends them."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.adapters.telegram.limits import MessagesRateLimiter, SendWindow


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_window_has_room_again_a_second_after_it_filled() -> None:
    clock = Clock()
    window = SendWindow(2, clock)
    window.sent()
    window.sent()
    assert not window.room()
    clock.now += 0.99
    assert not window.room()
    clock.now += 0.02
    assert window.room()


async def test_edits_in_private_chats_pass_the_bots_limit_and_sends_do_not() -> None:
    limiter = MessagesRateLimiter(per_second=1)
    await limiter.initialize()
    done: list[str] = []

    async def call(name: str) -> dict[str, Any]:
        done.append(name)
        return {}

    async def request(endpoint: str, chat_id: int) -> None:
        await limiter.process_request(call, (endpoint,), {}, endpoint, {"chat_id": chat_id}, None)

    await request("sendMessage", 7)
    for _ in range(20):
        await request("editmessagetext", 7)
        await request("deleteMessage", 7)
    assert len(done) == 41, "edits and deletions in a private chat are no new messages"
    waiting = asyncio.ensure_future(request("sendMessage", 8))
    group_edit = asyncio.ensure_future(request("editMessageText", -100))
    await asyncio.sleep(0.05)
    assert not waiting.done() and not group_edit.done(), "a new message, or a group's edit, waits"
    waiting.cancel()
    group_edit.cancel()
    await limiter.shutdown()
