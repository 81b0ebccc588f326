"""Round breakdowns and match ends posted exactly once of several processes, whoever dies."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable

from bot.sessions import Sessions
from bot.sessions.events import Event, MatchEnded, RoundEnded
from bot.sessions.holds import LEASE, MessageHolds
from bot.sessions.notices import AWAY_RETRY, SWEEP_EVERY, Notices, dump_notice, notice_key
from bot.sessions.ports import StorageAway

from ..fakes.holds import shared_memory_game
from ..fakes.memory_store import MemoryStore
from ..sessions_helpers import ALICE, BOB, FakeClock, play_to_end, start_duel

MATCH_END = MatchEnded(1, "telegram", "-100", 0, (11, 4), ("Alice", "Bob"))


async def owing_store() -> MemoryStore:
    """Game 1 on a store other processes share, owing its chat the end of its match."""
    store = await shared_memory_game()
    await store.set_ref(1, notice_key(MATCH_END), dump_notice(MATCH_END))
    return store


Sleep = Callable[[float], Awaitable[None]]
Announce = Callable[[Event], Awaitable[None]]


def passing_time(clock: FakeClock) -> tuple[list[float], Sleep]:
    """A sleep that lets the other tasks run, then moves `clock` on; and the waits it was asked."""
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        for _ in range(20):
            await asyncio.sleep(0)
        clock.advance(seconds)

    return waits, sleep


async def test_an_announcement_held_by_a_process_that_died_is_posted_by_another_once_the_hold_ends(
        clock: FakeClock) -> None:
    store = await owing_store()
    assert await store.hold_message(1, notice_key(MATCH_END), "dead", clock(), LEASE)
    waits, sleep = passing_time(clock)
    alive = Notices(store, MessageHolds(store, "alive", clock), sleep)  # type: ignore[arg-type]
    posts: list[str] = []

    async def post() -> bool:
        posts.append("alive")
        return True

    assert await alive.announce(MATCH_END, post)
    assert posts == ["alive"], "posted once the dead process's hold ran out"
    assert len(waits) == 1 and waits[0] > LEASE - 1, "it waited for the hold to end, once"
    assert await alive.owed("telegram") == []
    later = Notices(store, MessageHolds(store, "later", clock), sleep)  # type: ignore[arg-type]
    assert not await later.announce(MATCH_END, post)
    assert posts == ["alive"]


async def test_an_announcement_its_holder_posts_meanwhile_is_not_posted_again(clock: FakeClock) -> None:
    store = await owing_store()
    _, sleep = passing_time(clock)
    one = Notices(store, MessageHolds(store, "one", clock), sleep)  # type: ignore[arg-type]
    two = Notices(store, MessageHolds(store, "two", clock), sleep)  # type: ignore[arg-type]
    posts: list[str] = []
    sending = asyncio.Event()

    async def slow_post() -> bool:
        posts.append("one")
        sending.set()
        await asyncio.sleep(0)
        return True

    async def post() -> bool:
        posts.append("two")
        return True

    first = asyncio.create_task(one.announce(MATCH_END, slow_post))
    await sending.wait()
    assert not await two.announce(MATCH_END, post)
    assert await first
    assert posts == ["one"]


async def duel_owing(store: MemoryStore, clock: FakeClock) -> list[Event]:
    """A process plays a match to its end on `store`, then dies before posting what it owes."""
    dying = Sessions(store, clock=clock, computer_pace=0.0)  # type: ignore[arg-type]
    game_id = await start_duel(dying, options={"target": 1})
    await play_to_end(dying, game_id, [ALICE, BOB])
    owed = await dying.delivery.owed_notices("test")
    assert any(isinstance(e, RoundEnded) for e in owed) and any(isinstance(e, MatchEnded) for e in owed)
    return owed


def shared_store(clock: FakeClock) -> MemoryStore:
    store = MemoryStore(clock)
    store.shared = True  # type: ignore[misc]
    return store


async def test_announcements_owed_after_start_are_posted_by_the_regular_look(clock: FakeClock) -> None:
    """A process already running when another dies owing a match's announcements posts them
    at its next looks, in order, once."""
    store = shared_store(clock)
    alive = Sessions(store, clock=clock, computer_pace=0.0)  # type: ignore[arg-type]
    assert await alive.delivery.owed_notices("test") == [], "nothing owed when it started"
    owed = await duel_owing(store, clock)
    posted: list[Event] = []

    async def announce(event: Event) -> None:
        async def post() -> bool:
            posted.append(event)
            return True

        await alive.delivery.announce(event, post)

    assert await alive.delivery.announce_owed("test", announce) == SWEEP_EVERY
    assert posted == [], "left for a while to the process that made them"
    await alive.delivery.announce_owed("test", announce)
    assert posted == owed
    await alive.delivery.announce_owed("test", announce)
    assert posted == owed and await alive.delivery.owed_notices("test") == []


async def test_two_processes_looking_at_once_post_each_announcement_once(clock: FakeClock) -> None:
    store = shared_store(clock)
    waits, sleep = passing_time(clock)
    one, two = (Sessions(store, clock=clock, sleep=sleep, computer_pace=0.0)  # type: ignore[arg-type]
                for _ in range(2))
    owed = await duel_owing(store, clock)
    posted: Counter[str] = Counter()

    def announcing(sessions: Sessions) -> Announce:
        async def announce(event: Event) -> None:
            async def post() -> bool:
                await asyncio.sleep(0)
                posted[notice_key(event)] += 1
                return True

            await sessions.delivery.announce(event, post)

        return announce

    for sessions in (one, two):
        await sessions.delivery.announce_owed("test", announcing(sessions))
    await asyncio.gather(*(s.delivery.announce_owed("test", announcing(s)) for s in (one, two)))
    assert posted == Counter(notice_key(e) for e in owed) and set(posted.values()) == {1}
    assert waits, "one found the other posting and looked again after its hold"
    assert await one.delivery.owed_notices("test") == []


async def test_a_notice_this_process_is_posting_is_not_handed_out_again(clock: FakeClock) -> None:
    """A breakdown waiting a long while for the chat's flood limit is not posted a second time
    by the regular look of the process posting it."""
    store = await owing_store()
    notices = Notices(store, MessageHolds(store, "one", clock))  # type: ignore[arg-type]
    handed: list[Event] = []
    sent = asyncio.Event()

    async def post() -> bool:
        await sent.wait()
        return True

    async def announce(event: Event) -> None:
        handed.append(event)

    posting = asyncio.create_task(notices.announce(MATCH_END, post))
    await asyncio.sleep(0)
    for _ in range(3):
        await notices.sweep(await notices.owed("telegram"), announce)
    assert handed == []
    sent.set()
    assert await posting


class AwayFor:
    """A store whose methods named in `away` raise StorageAway that many times first, as while
    the database restarts."""

    def __init__(self, store: MemoryStore, **away: int) -> None:
        self._store = store
        self.away = Counter(away)
        self.shared = store.shared

    def __getattr__(self, name: str) -> object:
        method = getattr(self._store, name)

        async def call(*args: object, **kwargs: object) -> object:
            if self.away[name]:
                self.away[name] -= 1
                raise StorageAway("the database is restarting")
            return await method(*args, **kwargs)

        return call


async def test_an_announcement_waits_for_the_database_and_is_posted_once_it_is_back(clock: FakeClock) -> None:
    store = AwayFor(await owing_store(), hold_message=3)
    waits, sleep = passing_time(clock)
    notices = Notices(store, MessageHolds(store, "one", clock), sleep)  # type: ignore[arg-type]
    posts: list[str] = []

    async def post() -> bool:
        posts.append("one")
        return True

    assert await notices.announce(MATCH_END, post)
    assert posts == ["one"] and waits == [AWAY_RETRY] * 3
    assert await notices.owed("telegram") == []


async def test_an_announcement_posted_as_the_database_went_away_is_not_posted_again(clock: FakeClock) -> None:
    """The chat has the message, the database cannot yet note it: only the note is tried again."""
    inner = await owing_store()
    store = AwayFor(inner, set_ref=4, release_message=1)
    _, sleep = passing_time(clock)
    notices = Notices(store, MessageHolds(store, "one", clock), sleep)  # type: ignore[arg-type]
    posts: list[str] = []

    async def post() -> bool:
        posts.append("one")
        return True

    assert await notices.announce(MATCH_END, post)
    assert posts == ["one"]
    assert await notices.owed("telegram") == []
    other = Notices(inner, MessageHolds(inner, "two", clock), sleep)  # type: ignore[arg-type]
    assert not await other.announce(MATCH_END, post)
    assert posts == ["one"]
