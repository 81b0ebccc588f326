"""Reviews made as matches end: nothing sent to anyone until a player asks, then theirs at once
(and the chat's line once); practice matches and deals of the day too; the matches a stopped
bot left unreviewed made after a restart, the last day's only; a player's last match found
from their private chat; asked-for reviews made before unasked ones."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any

import pytest

from bot.ai.review import Review, review_match
from bot.ai.review.replay import match_key
from bot.sessions import ChatRef, ComputerPool, Reason, Refused, ReviewOwed, Sessions, UserRef
from bot.sessions import reviews as reviews_module
from bot.sessions.review_turns import ReviewTurns
from bot.sessions.reviews import REVIEWED_WITHIN, review_in_pool

from ..fakes.memory_store import MemoryStore
from ..sessions_helpers import (
    ALICE,
    BOB,
    CARLA,
    CHAT,
    REVIEW_SEARCHES,
    FakeClock,
    first_legal,
    open_memory_sessions,
    play_to_end,
    recorded,
    start_duel,
)
from .test_review import records


async def _made(sessions: Sessions, game_id: int) -> None:
    for _ in range(2000):
        if await sessions.queries.stored_review(game_id, 0) is not None:
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"the review of game {game_id} was never made")


async def _ended(sessions: Sessions, options: dict[str, object] | None = None) -> int:
    game_id = await start_duel(sessions, options={"target": 1, **(options or {})})
    await play_to_end(sessions, game_id, [ALICE, BOB])
    return game_id


async def _posted() -> bool:
    return True


def _sessions(store: MemoryStore, clock: FakeClock, at_end: bool) -> Sessions:
    return Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal,  # type: ignore[arg-type]
                    review_searches=REVIEW_SEARCHES, review_at_end=at_end)


async def test_a_match_is_reviewed_as_it_ends_and_only_the_asker_gets_it_with_the_chats_line_once() -> None:
    sessions = await open_memory_sessions(review_at_end=True)
    seen = recorded(sessions)
    game_id = await _ended(sessions)
    await _made(sessions, game_id)
    await asyncio.sleep(0.05)
    assert [e for e in seen if isinstance(e, ReviewOwed)] == [], "made unasked: nothing for anyone"
    assert [e for e in await sessions.delivery.owed_notices(
            ALICE.platform) if isinstance(e, ReviewOwed)] == []

    asked = await sessions.reviews.ask(game_id, ALICE, privately=True)
    assert asked.ready and not asked.already, "the tap finds it made"
    await asyncio.sleep(0.05)
    owed = [e for e in seen if isinstance(e, ReviewOwed)]
    assert sorted((e.seat is None, e.player_key) for e in owed) == [(False, ALICE.key), (True, "")]
    for event in owed:
        assert await sessions.delivery.announce(event, _posted)
    assert await sessions.reviews.ask(game_id, BOB, privately=True)
    await asyncio.sleep(0.05)
    later = [e for e in seen if isinstance(e, ReviewOwed)][len(owed):]
    assert [(e.seat, e.player_key) for e in later] == [(1, BOB.key)], "no second line for the chat"


async def test_practice_matches_and_deals_of_the_day_are_reviewed_as_they_end() -> None:
    sessions = await open_memory_sessions(review_at_end=True)
    practice = await _ended(sessions, {"practice": "on"})
    daily = (await sessions.daily.start(
            CHAT, ChatRef(ALICE.platform, ALICE.key, ALICE.name), ALICE)).table.game_id
    await play_to_end(sessions, daily, [ALICE])
    for game_id in (practice, daily):
        await _made(sessions, game_id)


async def test_without_workers_matches_are_reviewed_only_when_asked() -> None:
    sessions = await open_memory_sessions()
    game_id = await _ended(sessions)
    await asyncio.sleep(0.1)
    assert await sessions.queries.stored_review(game_id, 0) is None


async def test_a_restart_reviews_the_matches_left_unreviewed_in_the_last_day() -> None:
    clock = FakeClock()
    store = MemoryStore(clock)
    stopped = _sessions(store, clock, at_end=False)
    old = await _ended(stopped)
    clock.advance(REVIEWED_WITHIN + 60)
    recent = await _ended(stopped)
    restarted = _sessions(store, clock, at_end=True)
    seen = recorded(restarted)
    await restarted.delivery.owed_notices(ALICE.platform)
    await _made(restarted, recent)
    await asyncio.sleep(0.05)
    assert await restarted.queries.stored_review(old, 0) is None, "older than a day: made when asked"
    assert [e for e in seen if isinstance(e, ReviewOwed)] == [], "nothing sent unasked"
    assert (await restarted.reviews.ask(recent, BOB, privately=True)).ready


async def test_review_in_a_private_chat_finds_the_players_last_match_wherever_it_was_played() -> None:
    sessions = await open_memory_sessions()
    with pytest.raises(Refused) as refused:
        await sessions.queries.last_played(ALICE)
    assert refused.value.reason is Reason.NO_MATCH
    first = await _ended(sessions)
    other_group = ChatRef(CHAT.platform, "group-2", "Others")
    second = await start_duel(sessions, other_group, ALICE, CARLA, options={"target": 1})
    await play_to_end(sessions, second, [ALICE, CARLA])
    assert await sessions.queries.last_played(ALICE) == second
    assert await sessions.queries.last_played(BOB) == first
    with pytest.raises(Refused):
        await sessions.queries.last_played(UserRef(ALICE.platform, "u99", "Nobody"))


async def test_asked_for_reviews_are_made_before_those_nobody_asked_for() -> None:
    turns = ReviewTurns()
    order: list[int] = []
    release = asyncio.Event()

    async def made(game_id: int, asked: bool) -> None:
        async with turns.turn(game_id, asked):
            order.append(game_id)
            if game_id == 1:
                await release.wait()

    tasks = [asyncio.ensure_future(made(1, False))]
    await asyncio.sleep(0)
    tasks += [asyncio.ensure_future(made(n, False)) for n in (2, 3, 4)]
    await asyncio.sleep(0)
    tasks.append(asyncio.ensure_future(made(5, True)))
    await asyncio.sleep(0)
    turns.hurry(4)
    tasks[2].cancel()
    release.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert order == [1, 5, 4, 2], (
        "an asked one at once, beside the one under way; the asked in the order asked, then the rest; "
        "a cancelled one skipped")


async def _settled() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_a_review_under_way_that_nobody_asked_for_pauses_between_plays_while_one_is_asked_for() -> None:
    turns = ReviewTurns()
    graded: list[tuple[int, int]] = []
    plays: asyncio.Queue[None] = asyncio.Queue()
    hold = asyncio.Event()

    async def unasked(game_id: int) -> None:
        async with turns.turn(game_id, False):
            for play in range(3):
                await turns.gate(game_id)
                graded.append((game_id, play))
                await plays.get()

    async def asked(game_id: int) -> None:
        async with turns.turn(game_id, True):
            await turns.gate(game_id)
            graded.append((game_id, 0))
            await hold.wait()
            graded.append((game_id, 1))

    first = asyncio.ensure_future(unasked(1))
    await _settled()
    plays.put_nowait(None)
    await _settled()
    assert graded == [(1, 0), (1, 1)]
    second = asyncio.ensure_future(asked(2))
    await _settled()
    plays.put_nowait(None)
    await _settled()
    assert graded == [(1, 0), (1, 1), (2, 0)], "the asked one at once; the other waits at its next play"
    hold.set()
    await _settled()
    assert graded == [(1, 0), (1, 1), (2, 0), (2, 1), (1, 2)], "and goes on once it is made"
    plays.put_nowait(None)
    await asyncio.gather(first, second)

    hold.clear()
    third, fourth = asyncio.ensure_future(unasked(3)), asyncio.ensure_future(asked(4))
    await _settled()
    assert graded[-2:] == [(3, 0), (4, 0)]
    plays.put_nowait(None)
    await _settled()
    assert graded[-1] == (4, 0), "paused"
    turns.hurry(3)
    await _settled()
    assert graded[-1] == (3, 1), "asked for now too: it goes on beside the other"
    hold.set()
    plays.put_nowait(None)
    plays.put_nowait(None)
    await asyncio.gather(third, fourth)


async def test_unasked_reviews_leave_room_for_requests_and_a_queued_match_is_never_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviews_module, "UNASKED_AT_MOST", 1)
    monkeypatch.setattr(reviews_module, "WAITING_AT_MOST", 2)
    working = asyncio.Event()
    real = reviews_module.review_in_pool

    async def held(*args: Any, **kwargs: Any) -> Any:
        await working.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(reviews_module, "review_in_pool", held)
    sessions = await open_memory_sessions(review_at_end=True)
    first, second = await _ended(sessions), await _ended(sessions)
    await asyncio.sleep(0.05)
    assert not (await sessions.reviews.ask(second, BOB, privately=True)).ready, "room for a request"
    third = await _ended(sessions)
    with pytest.raises(Refused) as refused:
        await sessions.reviews.ask(third, ALICE, privately=True)
    assert refused.value.reason is Reason.REVIEWS_BUSY
    assert not (await sessions.reviews.ask(first, ALICE, privately=True)).ready, "queued already: taken"
    working.set()
    for game_id in (first, second):
        await _made(sessions, game_id)
    assert await sessions.queries.stored_review(third, 0) is None


async def test_an_asked_review_gets_the_workers_as_soon_as_the_plays_they_are_grading_are_done(
        monkeypatch: pytest.MonkeyPatch) -> None:
    unasked_record, asked_record = records("scopa", 2, 2, "turns", round_limit="1")
    keys = {match_key(unasked_record): "unasked", match_key(asked_record): "asked"}
    assert len(keys) == 2
    pool = ComputerPool(workers=2)
    started: list[str] = []

    async def run(function: Callable[[Any], Any], task: Any) -> Any:
        started.append(keys[task[1].rsplit("/", 2)[0]])
        await asyncio.sleep(0)
        return function(task)

    monkeypatch.setattr(pool, "_run", run)
    turns = ReviewTurns()

    async def made(record: dict[str, Any], game_id: int, asked: bool) -> Review:
        async with turns.turn(game_id, asked):
            return await review_in_pool(pool, record, 4, functools.partial(turns.gate, game_id))

    unasked = asyncio.ensure_future(made(unasked_record, 1, False))
    while len(started) < 4:
        await asyncio.sleep(0)
    asked = asyncio.ensure_future(made(asked_record, 2, True))
    reviews = await asyncio.gather(unasked, asked)
    first, last = started.index("asked"), len(started) - started[::-1].index("asked")
    assert "unasked" not in started[first:last], "the other review waits between its plays"
    assert started[last:] and set(started[last:]) == {"unasked"}, "and goes on after"
    assert reviews[0].to_dict() == review_match(unasked_record, 4).to_dict(), "the same review, paused or not"
