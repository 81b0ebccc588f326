"""Two bot processes on one database drawing the same game's messages: one at a time
draws each message, so an older drawing never lands after a newer one, a missing
message is posted once, and a process that remembers drawing what another replaced
draws again; and a group's flood limit holds for both together. Each "process" here is
a sessions layer and an outbox of its own on one shared store: the in-memory one, told
it is shared, and a real PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.adapters.telegram.outbox import Content, Outbox, Target, outbox_for
from bot.sessions import Sessions
from bot.storage.backends import open_store

from .. import pg
from ..fakes.holds import NotingRefusals, shared_memory_game

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


@dataclass
class SharedBot:
    """Telegram as both processes reach it: what each message shows, and every call in the
    order it took effect; `gates` hold back the next calls until opened (`arrived` is set
    once one waits)."""

    texts: dict[int, str] = field(default_factory=dict)
    calls: list[tuple[str, str]] = field(default_factory=list)
    gates: list[asyncio.Event] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    next_id: int = 500

    async def do_api_request(self, method: str, api_kwargs: dict[str, Any]) -> Any:
        if self.gates:
            gate = self.gates.pop(0)
            self.arrived.set()
            await gate.wait()
        text = api_kwargs["text"]
        if method == "sendmessage":
            self.next_id += 1
            self.texts[self.next_id] = text
            self.calls.append(("send", text))
            return {"message_id": self.next_id}
        self.texts[api_kwargs["message_id"]] = text
        self.calls.append(("edit", text))
        return True


class Board:
    """The game as the database holds it: what any process draws."""

    def __init__(self) -> None:
        self.value = 0

    async def render(self) -> Content:
        return Content(f"state {self.value}")


@dataclass
class Process:
    outbox: Outbox
    store: NotingRefusals


@pytest.fixture(params=["memory", "postgresql"])
async def processes(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Process, Process, SharedBot]]:
    """Two processes on one database holding one game (id 1) in chat -100."""
    if request.param == "memory":
        shared = await shared_memory_game()
        stores = [NotingRefusals(shared), NotingRefusals(shared)]
    else:
        cluster = pg.shared_cluster()
        url = await cluster.create_database()
        stores = [NotingRefusals(await open_store(url)), NotingRefusals(await open_store(url))]
        chat = await stores[0].ensure_chat("telegram", "-100")
        player = await stores[0].ensure_player("telegram", "1", "Alice")
        await stores[0].create_game(chat.id, player.id, "scopa", {}, 2, 0, "napoletane", "seed")
    bot = SharedBot()
    made = []
    for store in stores:
        sessions = Sessions(store)  # type: ignore[arg-type]
        made.append(Process(outbox_for(bot, sessions.delivery, group_rate=None), store))
    yield made[0], made[1], bot
    for process in made:
        await process.outbox.close()
    if request.param == "postgresql":
        for store in stores:
            await store.close()
        await cluster.drop_database(url)


TABLE = Target(-100, 1, "table")


async def _waiting_or_done(process: Process, drawing: asyncio.Future[bool]) -> None:
    """Until the process waits for the message, or (holding nothing) has drawn it."""
    waiting = asyncio.ensure_future(process.store.refused.wait())
    await asyncio.wait([waiting, drawing], return_when=asyncio.FIRST_COMPLETED)
    waiting.cancel()


async def test_an_older_drawing_never_lands_after_a_newer_one(
        processes: tuple[Process, Process, SharedBot]) -> None:
    one, two, bot = processes
    board = Board()
    assert await one.outbox.update(TABLE, board.render)
    slow = asyncio.Event()
    bot.gates = [slow]
    board.value = 1
    first = one.outbox.update(TABLE, board.render)
    await bot.arrived.wait()
    board.value = 2
    second = two.outbox.update(TABLE, board.render)
    await _waiting_or_done(two, second)
    slow.set()
    assert await first and await second
    assert bot.calls == [("send", "state 0"), ("edit", "state 1"), ("edit", "state 2")]
    assert list(bot.texts.values()) == ["state 2"]


async def test_a_missing_message_is_posted_once_though_both_draw_it(
        processes: tuple[Process, Process, SharedBot]) -> None:
    one, two, bot = processes
    board = Board()
    slow = asyncio.Event()
    bot.gates = [slow]
    first = one.outbox.update(TABLE, board.render)
    await bot.arrived.wait()
    second = two.outbox.update(TABLE, board.render)
    await _waiting_or_done(two, second)
    slow.set()
    assert await first and await second
    assert bot.calls == [("send", "state 0")], "the second process found the message and its drawing"


async def test_a_process_draws_again_what_another_replaced_since(
        processes: tuple[Process, Process, SharedBot]) -> None:
    one, two, bot = processes
    board = Board()
    assert await one.outbox.update(TABLE, board.render)
    board.value = 1
    assert await two.outbox.update(TABLE, board.render)
    board.value = 0
    assert await one.outbox.update(TABLE, board.render)
    assert list(bot.texts.values()) == ["state 0"], "what the first remembered was no longer shown"
    assert await two.outbox.update(TABLE, board.render)
    assert len(bot.calls) == 3, "an unchanged message costs nothing, whichever process drew it"


async def test_a_groups_flood_limit_holds_for_both_processes_together(
        processes: tuple[Process, Process, SharedBot]) -> None:
    """Two messages a minute here: each process has sent one when both want one more."""
    _, _, bot = processes
    one, two = (outbox_for(bot, Sessions(p.store).delivery, group_rate=(2, 60.0))  # type: ignore[arg-type]
                for p in processes[:2])
    first = [one.post(-100, Content("from one")), two.post(-100, Content("from two"))]
    assert all(await asyncio.gather(*first))
    later = [one.post(-100, Content("one more")), two.post(-100, Content("and another"))]
    refused = asyncio.gather(*(p.store.send_refused.wait() for p in processes[:2]))
    await asyncio.wait([refused, *later], return_when=asyncio.FIRST_COMPLETED)
    refused.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await refused
    waiting = [post for post in later if not post.done()]
    assert len(waiting) == 2, "both wait for the minute to pass"
    assert sorted(text for _, text in bot.calls) == ["from one", "from two"], "in either order"
    for outbox in (one, two):
        await outbox.close(timeout=0)
