"""Telegram's limits counted when each message goes, on a clock the test moves: a group's 20
messages a minute and the bot's 30 a second hold for the times the messages reach Telegram,
whether one process sends them or several share a store."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from bot.adapters.telegram.limits import MessagesRateLimiter
from bot.adapters.telegram.pacing import AWAY_RETRY, POSTS_KEPT, Pacer, StorePacer, StoreWindow
from bot.sessions.ports import StorageAway

from ..fakes.memory_store import MemoryStore
from ..fakes.virtual_time import VirtualTime

GROUP = -100


def busiest(times: list[float], period: float) -> int:
    ordered = sorted(times)
    return max((sum(1 for t in ordered if start <= t < start + period) for start in ordered), default=0)


def shared_store(time: VirtualTime) -> MemoryStore:
    store = MemoryStore(clock=time.clock)
    store.shared = True  # type: ignore[misc]
    return store


async def send_drawn(pacer: Pacer, time: VirtualTime, arrived: list[float], drawing: float,
                     method: str = "editmessagetext") -> None:
    """One table edit: wait for room, draw its picture (which takes `drawing` seconds), send."""
    await pacer.ready(GROUP)
    await time.sleep(drawing)
    async with pacer.sending(GROUP, method):
        arrived.append(time.now)


async def test_a_picture_drawn_after_the_group_had_room_is_counted_when_it_goes() -> None:
    """Counted when allowed, a message whose picture took long to draw reached the group later
    than counted, and the minute got 21 to 23."""
    time = VirtualTime()
    pacer = Pacer((20, 60.0), clock=time.clock, wall=time.clock, sleep=time.sleep)
    arrived: list[float] = []
    rng = random.Random(5)

    async def table(n: int) -> None:
        await time.sleep(n * 0.5)
        await send_drawn(pacer, time, arrived, drawing=rng.uniform(0.0, 4.0))

    await time.run(asyncio.gather(*(table(n) for n in range(80))))
    assert len(arrived) == 80
    assert busiest(arrived, 60.0) == 20 - POSTS_KEPT, "edits leave a few places to new messages"


async def test_three_processes_on_one_store_keep_a_group_to_its_minute() -> None:
    time = VirtualTime()
    store = shared_store(time)
    pacers = [StorePacer((20, 60.0), take=store.take_send, settle=store.settle_send, clock=time.clock,
                    wall=time.clock, sleep=time.sleep)
              for _ in range(3)]
    arrived: list[float] = []

    async def process(pacer: Pacer) -> None:
        for _ in range(25):
            await send_drawn(pacer, time, arrived, drawing=0.3)

    await time.run(asyncio.gather(*(process(p) for p in pacers)))
    assert len(arrived) == 75
    assert busiest(arrived, 60.0) == 20 - POSTS_KEPT, "twenty a minute for all three together, less \
        the places edits leave to new messages"


async def test_a_place_taken_before_a_long_drawing_counts_until_its_request_is_answered() -> None:
    """With a shared store a place is taken before drawing; it counts as on its way however long
    the picture takes to draw, and from the answer once the request went, so the minute holds."""
    time = VirtualTime()
    store = shared_store(time)
    pacers = [StorePacer((20, 60.0), take=store.take_send, settle=store.settle_send, clock=time.clock,
                    wall=time.clock, sleep=time.sleep)
              for _ in range(2)]
    arrived: list[float] = []
    rng = random.Random(3)

    async def process(pacer: Pacer) -> None:
        for _ in range(30):
            await send_drawn(pacer, time, arrived, drawing=rng.choice([0.1, 0.5, 5.0]))

    await time.run(asyncio.gather(*(process(p) for p in pacers)))
    assert busiest(arrived, 60.0) <= 20


async def test_an_edit_that_waited_for_a_shared_group_is_drawn_again() -> None:
    time = VirtualTime()
    store = shared_store(time)
    pacer = StorePacer((1, 60.0), take=store.take_send, settle=store.settle_send, clock=time.clock,
                  wall=time.clock, sleep=time.sleep)

    async def scene() -> list[bool]:
        first = await pacer.ready(GROUP)
        async with pacer.sending(GROUP, "editmessagetext"):
            pass
        return [first, await pacer.ready(GROUP)]

    assert await time.run(scene()) == [False, True]


async def test_a_new_message_goes_before_the_edits_waiting_in_a_shared_window() -> None:
    time = VirtualTime()
    store = shared_store(time)
    window = StoreWindow(store.take_send, "telegram:-1", 1, 60.0, time.clock, time.sleep)
    order: list[str] = []

    async def send(name: str, post: bool) -> None:
        await window.acquire(post)
        order.append(name)

    async def scene() -> None:
        first = asyncio.ensure_future(send("first", False))
        await asyncio.sleep(0)
        edits = [asyncio.ensure_future(send(f"edit {n}", False)) for n in (1, 2)]
        await asyncio.sleep(0)
        breakdown = asyncio.ensure_future(send("breakdown", True))
        await asyncio.gather(first, *edits, breakdown)

    await time.run(scene())
    assert order == ["first", "breakdown", "edit 1", "edit 2"]


async def test_a_message_waits_for_a_database_that_is_away_and_goes_once_it_is_back() -> None:
    """PostgreSQL restarting: the count cannot be taken, so the message waits (not dropped,
    not sent uncounted) and takes its place once the store answers again."""
    time = VirtualTime()
    store = shared_store(time)
    answers = 0

    async def take(key: str, now: float, limit: int, period: float, counted_at: float | None) -> float:
        nonlocal answers
        answers += 1
        if answers <= 3:
            raise StorageAway("PostgreSQL at db cannot be reached")
        return await store.take_send(key, now, limit, period, counted_at)

    window = StoreWindow(take, "telegram:-1", 20, 60.0, time.clock, time.sleep)
    start = time.clock()
    waited = await time.run(window.acquire(True)) - start
    assert 3 * AWAY_RETRY <= waited < 3 * AWAY_RETRY + 0.1, "three short waits, then its place"
    assert await store.take_send("telegram:-1", time.clock(), 1, 60.0) > 0, "its place was counted"


class Recorder:
    """A Bot API call that takes `latency` seconds to reach Telegram and notes when it did."""

    def __init__(self, time: VirtualTime, latency: float = 0.0) -> None:
        self.time, self.latency = time, latency
        self.arrived: list[float] = []

    async def __call__(self) -> dict[str, Any]:
        await self.time.sleep(self.latency)
        self.arrived.append(self.time.now)
        return {}


async def request(limiter: MessagesRateLimiter, call: Recorder, endpoint: str, chat_id: int) -> None:
    await limiter.process_request(call, (), {}, endpoint, {"chat_id": chat_id}, None)


async def test_three_processes_on_one_store_keep_the_bot_to_thirty_a_second_from_the_start() -> None:
    """Each process paced at 30 a second on its own: 42 to 56 in one second for the bot."""
    time = VirtualTime()
    store = shared_store(time)
    call = Recorder(time)
    limiters = []
    for _ in range(3):
        limiter = MessagesRateLimiter(30, clock=time.clock, sleep=time.sleep)
        StorePacer((20, 60.0), take=store.take_send, settle=store.settle_send, clock=time.clock,
              wall=time.clock,
              sleep=time.sleep).pace_with(limiter)
        limiters.append(limiter)

    async def process(limiter: MessagesRateLimiter, first_chat: int) -> None:
        await asyncio.gather(*(request(limiter, call, "sendMessage", first_chat + n) for n in range(60)))

    await time.run(asyncio.gather(*(process(limiter, 1_000 * k) for k, limiter in enumerate(limiters))))
    assert len(call.arrived) == 180
    assert busiest(call.arrived, 1.0) <= 30


async def test_a_request_held_up_on_its_way_keeps_its_place_until_it_is_answered() -> None:
    """Thirty requests that all take 0.8 s to arrive: the thirty-first waits for their answers,
    not for a second after they left."""
    time = VirtualTime()
    limiter = MessagesRateLimiter(30, clock=time.clock, sleep=time.sleep)
    slow, quick = Recorder(time, latency=0.8), Recorder(time)

    async def scene() -> None:
        await asyncio.gather(*(request(limiter, slow, "sendMessage", n + 1) for n in range(30)))
        await time.sleep(0.25)
        await request(limiter, quick, "sendMessage", 99)

    start = time.now
    await time.run(scene())
    assert quick.arrived[0] >= slow.arrived[-1] + 1.0
    assert quick.arrived[0] - start > 1.1


async def test_only_messages_count_against_the_bots_thirty() -> None:
    """Edits in private chats, deletions, answers to taps and looks at members go at once."""
    time = VirtualTime()
    limiter = MessagesRateLimiter(1, clock=time.clock, sleep=time.sleep)
    call = Recorder(time)

    async def scene() -> None:
        await request(limiter, call, "sendMessage", 7)
        for endpoint, chat in [("editMessageText", 7), ("deleteMessage", -100), ("getChatMember", -100),
                               ("editMessageCaption", 7), ("answerCallbackQuery", 7)]:
            await request(limiter, call, endpoint, chat)

    await time.run(scene())
    assert call.arrived == [time.now] * 6, "none waited"
    await time.run(request(limiter, call, "editMessageText", -100))
    assert call.arrived[-1] > call.arrived[0] + 1.0, "a group's edit counts"


async def test_recent_sends_kept_with_the_game_hold_the_minute_across_a_restart() -> None:
    time = VirtualTime()
    refs: dict[tuple[int, str], str | None] = {}

    async def get(game_id: int, key: str) -> str | None:
        return refs.get((game_id, key))

    async def put(game_id: int, key: str, value: str | None) -> None:
        refs[(game_id, key)] = value

    def process() -> Pacer:
        return Pacer((20, 60.0), refs_get=get, refs_set=put, clock=time.clock, wall=time.clock,
                     sleep=time.sleep)

    arrived: list[float] = []

    async def busy(pacer: Pacer, count: int) -> None:
        for _ in range(count):
            await pacer.ready(GROUP, 1)
            async with pacer.sending(GROUP, "editmessagetext"):
                arrived.append(time.now)
            await pacer.keep(GROUP, 1)
            await time.sleep(1.0)

    await time.run(busy(process(), 15))
    await time.run(busy(process(), 15))
    assert busiest(arrived, 60.0) == 20 - POSTS_KEPT


def shared_pacer(store: MemoryStore, time: VirtualTime, settle: bool = True) -> Pacer:
    return StorePacer((20, 60.0), take=store.take_send, settle=store.settle_send if settle else None,
                 clock=time.clock, wall=time.clock, sleep=time.sleep)


async def test_requests_slow_to_arrive_keep_a_shared_group_to_its_minute() -> None:
    """Counted from when a place was taken, requests that took more than a moment to reach
    Telegram (a loaded machine, an upload) gave a group 21 and 22 in a minute."""
    time = VirtualTime()
    store = shared_store(time)
    arrived: list[float] = []
    rng = random.Random(7)

    async def process(pacer: Pacer) -> None:
        for _ in range(30):
            await pacer.ready(GROUP)
            await time.sleep(rng.uniform(0.0, 1.0))
            async with pacer.sending(GROUP, rng.choice(["editmessagetext", "sendphoto"])):
                await time.sleep(rng.choice([0.05, 0.5, 3.0, 8.0]))
                arrived.append(time.now)

    await time.run(asyncio.gather(*(process(shared_pacer(store, time)) for _ in range(3))))
    assert len(arrived) == 90
    assert busiest(arrived, 60.0) <= 20


async def test_a_process_killed_with_a_message_on_its_way_leaves_its_place_counted() -> None:
    """A process killed after its request reached Telegram and before its answer came back never
    says when it went: its place stays counted as on its way, so the others keep the minute."""
    time = VirtualTime()
    store = shared_store(time)
    arrived: list[float] = []
    killed = shared_pacer(store, time)

    async def dies() -> None:
        for _ in range(10):
            await killed.ready(GROUP)  # its place taken; the request reaches the group 2 s later,
            await time.sleep(2.0)      # and the process is killed before the answer comes back
            arrived.append(time.now)

    async def lives(pacer: Pacer) -> None:
        for _ in range(40):
            async with pacer.sending(GROUP, "editmessagetext"):
                arrived.append(time.now)

    await time.run(dies())
    await time.run(asyncio.gather(lives(shared_pacer(store, time)), lives(shared_pacer(store, time))))
    assert busiest(arrived, 60.0) <= 20


async def test_a_kill_with_a_message_on_its_way_leaves_the_next_process_its_minute() -> None:
    """One process on its own store: its recent sends are kept with the game before each request
    goes, so a process killed while one was on its way is followed by one that counts it."""
    time = VirtualTime()
    refs: dict[tuple[int, str], str | None] = {}

    async def get(game_id: int, key: str) -> str | None:
        return refs.get((game_id, key))

    async def put(game_id: int, key: str, value: str | None) -> None:
        refs[(game_id, key)] = value

    def process() -> Pacer:
        return Pacer((20, 60.0), refs_get=get, refs_set=put, clock=time.clock, wall=time.clock,
                     sleep=time.sleep)

    arrived: list[float] = []
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def killed(pacer: Pacer) -> None:
        for _ in range(19):
            await pacer.ready(GROUP, 1, post=True)
            async with pacer.sending(GROUP, "sendmessage"):
                arrived.append(time.now)
        await pacer.ready(GROUP, 1, post=True)
        async with pacer.sending(GROUP, "sendmessage"):
            await time.sleep(0.5)
            arrived.append(time.now)
            await never  # killed before the answer came back

    first = asyncio.ensure_future(killed(process()))
    await time.run(time.sleep(5.0))
    second = process()  # the first one is left where it was: a kill runs nothing more of it

    async def after() -> None:
        for _ in range(5):
            await second.ready(GROUP, 1, post=True)
            async with second.sending(GROUP, "sendmessage"):
                arrived.append(time.now)

    await time.run(after())
    first.cancel()
    assert len(arrived) == 25
    assert busiest(arrived, 60.0) <= 20


async def test_a_new_message_owed_to_a_group_goes_before_its_edits() -> None:
    time = VirtualTime()
    pacer = Pacer((20, 60.0), clock=time.clock, wall=time.clock, sleep=time.sleep)
    order: list[str] = []

    async def edit() -> None:
        waited = await pacer.ready(GROUP, 1)
        async with pacer.sending(GROUP, "editmessagetext"):
            order.append(f"edit (waited: {waited})")

    async def breakdown(paid: Callable[[], None]) -> None:
        await time.sleep(3.0)  # the sessions' announcement, then its picture
        await pacer.ready(GROUP, 1, post=True)
        async with pacer.sending(GROUP, "sendphoto"):
            order.append("breakdown")
        paid()

    async def scene() -> None:
        paid = pacer.owe_post(GROUP)
        await asyncio.gather(edit(), breakdown(paid))

    await time.run(scene())
    assert order == ["breakdown", "edit (waited: True)"]
