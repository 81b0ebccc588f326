"""A finished match's review through the sessions: for its players only, worked out once
and stored with the match, and averaged into each player's stats."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.sessions import Reason, Refused, ReviewOwed, Sessions
from bot.sessions import reviews as reviews_module
from bot.sessions.notices import dump_notice, notice_key
from bot.sessions.reviews import RESEND_AFTER

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


async def _finished_duel(sessions: Sessions) -> int:
    game_id = await start_duel(sessions, options={"target": 1})
    await play_to_end(sessions, game_id, [ALICE, BOB])
    return game_id


@pytest.fixture
def worked_out(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many reviews were worked out (not read back from the store)."""
    counted: list[int] = []
    real = reviews_module.review_in_pool

    async def counting(*args: Any, **kwargs: Any) -> Any:
        counted.append(1)
        return await real(*args, **kwargs)

    monkeypatch.setattr(reviews_module, "review_in_pool", counting)
    return counted


async def test_a_player_gets_the_review_worked_out_once_and_stored(worked_out: list[int]) -> None:
    sessions = await open_memory_sessions()
    game_id = await _finished_duel(sessions)
    first = await sessions.reviews.review(game_id, ALICE)
    assert first.fresh and first.seat == 0 and first.names == ("Alice", "Bob")
    assert first.review.searches == REVIEW_SEARCHES and len(first.review.accuracy) == 2
    assert [seat for seat, _ in first.players] == [0, 1]
    again = await sessions.reviews.review(game_id, BOB)
    assert not again.fresh and again.seat == 1 and again.review == first.review
    assert worked_out == [1]


async def _owed(seen: list[object], count: int) -> list[ReviewOwed]:
    for _ in range(2000):
        owed = [event for event in seen if isinstance(event, ReviewOwed)]
        if len(owed) >= count:
            return owed
        await asyncio.sleep(0.005)
    raise AssertionError(f"{count} owed reviews were never handed over: {seen}")


async def test_asking_answers_at_once_and_hands_over_what_is_owed_once_made() -> None:
    sessions = await open_memory_sessions()
    game_id = await _finished_duel(sessions)
    seen = recorded(sessions)
    asked = await sessions.reviews.ask(game_id, ALICE, privately=True)
    assert (asked.ready, asked.already, asked.privately) == (False, False, True)
    owed = await _owed(seen, 2)
    assert sorted((event.seat is None, event.player_key) for event in owed) == [
        (False, ALICE.key), (True, "")], "Alice's own review and the chat's line, nobody else's"
    assert (await sessions.queries.stored_review(game_id, 0)) is not None
    for event in owed:
        assert await sessions.delivery.announce(event, _posted)
    assert await _owed_now(sessions) == []

    bob = await sessions.reviews.ask(game_id, BOB, privately=True)
    assert bob.ready and not bob.already
    later = await _owed(seen, 3)
    assert later[-1].seat == 1 and later[-1].player_key == BOB.key, "no second line for the chat"


async def _owed_now(sessions: Sessions) -> list[ReviewOwed]:
    return [e for e in await sessions.delivery.owed_notices(ALICE.platform) if isinstance(e, ReviewOwed)]


async def _posted() -> bool:
    return True


async def test_a_review_goes_to_each_player_once_in_two_minutes() -> None:
    clock = FakeClock()
    sessions = await open_memory_sessions(clock)
    first_match, second_match = await _finished_duel(sessions), await _finished_duel(sessions)
    await sessions.reviews.review(first_match, ALICE)
    assert not (await sessions.reviews.ask(first_match, ALICE, privately=True)).already
    double = await sessions.reviews.ask(first_match, ALICE, privately=True)
    assert not double.ready and not double.already, "a double tap: on its way, owed once"
    assert len([e for e in await _owed_now(sessions) if e.seat == 0 and e.game_id == first_match]) == 1
    assert not (await sessions.reviews.ask(first_match, BOB, privately=True)).already, "each player's own"
    assert not (await sessions.reviews.ask(second_match, ALICE, privately=True)).already, "each match's own"
    for event in await _owed_now(sessions):
        await sessions.delivery.announce(event, _posted)
    assert (await sessions.reviews.ask(first_match, ALICE, privately=True)).already, "just sent"
    assert [e for e in await _owed_now(sessions) if e.game_id == first_match] == [], "nothing owed again"
    clock.advance(RESEND_AFTER - 1)
    assert (await sessions.reviews.ask(first_match, ALICE, privately=True)).already
    clock.advance(2)
    assert not (await sessions.reviews.ask(first_match, ALICE, privately=True)).already, "later, again"
    pending = await sessions.reviews.ask(first_match, ALICE, privately=True)
    assert not pending.ready and not pending.already, "on its way"


async def test_a_review_whose_asker_stops_waiting_is_made_all_the_same(worked_out: list[int]) -> None:
    sessions = await open_memory_sessions()
    game_id = await _finished_duel(sessions)
    waiting = asyncio.ensure_future(sessions.reviews.review(game_id, ALICE))
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    bob = await sessions.reviews.review(game_id, BOB)
    assert worked_out == [1], "the making went on, and Bob's request waited for it: made once"
    assert (await sessions.queries.stored_review(game_id, 0)) is not None and bob.review.accuracy


async def test_owed_reviews_left_by_a_stopped_bot_are_made_and_handed_over_after_a_restart() -> None:
    clock = FakeClock()
    store = MemoryStore(clock)
    before = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal,  # type: ignore[arg-type]
                      review_searches=REVIEW_SEARCHES)
    game_id = await _finished_duel(before)
    for event in (ReviewOwed(game_id, ALICE.platform, CHAT.key, seat=0, player_key=ALICE.key),
                  ReviewOwed(game_id, ALICE.platform, CHAT.key)):
        await store.set_ref(game_id, notice_key(event), dump_notice(event))
    after = Sessions(store, clock=clock, computer_pace=0.0, chooser=first_legal,  # type: ignore[arg-type]
                     review_searches=REVIEW_SEARCHES)
    seen = recorded(after)
    assert await _owed_now(after) == [], "not made yet: nothing to post yet"
    owed = await _owed(seen, 2)
    assert {event.seat for event in owed} == {0, None}
    assert {event.seat for event in await _owed_now(after)} == {0, None}


async def test_too_many_reviews_waiting_refuses_another(monkeypatch: pytest.MonkeyPatch) -> None:
    sessions = await open_memory_sessions()
    game_id = await _finished_duel(sessions)
    monkeypatch.setattr(reviews_module, "WAITING_AT_MOST", 0)
    with pytest.raises(Refused) as refused:
        await sessions.reviews.ask(game_id, ALICE, privately=True)
    assert refused.value.reason is Reason.REVIEWS_BUSY
    assert await _owed_now(sessions) == [], "nothing owed"


async def test_the_chats_last_finished_match_is_the_one_reviewed() -> None:
    sessions = await open_memory_sessions()
    with pytest.raises(Refused) as refused:
        await sessions.queries.last_finished(CHAT)
    assert refused.value.reason is Reason.NO_MATCH
    game_id = await _finished_duel(sessions)
    assert await sessions.queries.last_finished(CHAT) == game_id


async def test_stats_show_the_mean_accuracy_of_reviewed_matches() -> None:
    sessions = await open_memory_sessions()
    before = await sessions.queries.stats(ALICE)
    assert (before["reviewed"], before["accuracy"]) == (0, None)
    first = await sessions.reviews.review(await _finished_duel(sessions), ALICE)
    second = await sessions.reviews.review(await _finished_duel(sessions), BOB)
    stats = await sessions.queries.stats(ALICE)
    assert stats["reviewed"] == 2
    assert stats["accuracy"] == pytest.approx((first.review.accuracy[0] + second.review.accuracy[0]) / 2)


async def test_a_stranger_an_unfinished_match_and_a_missing_one_are_refused(worked_out: list[int]) -> None:
    sessions = await open_memory_sessions()
    running = await start_duel(sessions, options={"target": 1})
    for game_id, user, reason in ((running, ALICE, Reason.NOT_FINISHED),
                                  (running, CARLA, Reason.NOT_YOUR_REVIEW), (9999, ALICE, Reason.NO_GAME)):
        with pytest.raises(Refused) as refused:
            await sessions.reviews.review(game_id, user)
        assert refused.value.reason is reason
    await play_to_end(sessions, running, [ALICE, BOB])
    with pytest.raises(Refused) as refused:
        await sessions.reviews.review(running, CARLA)
    assert refused.value.reason is Reason.NOT_YOUR_REVIEW
    assert worked_out == [] and (await sessions.queries.stats(ALICE))["reviewed"] == 0
