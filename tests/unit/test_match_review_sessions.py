"""A finished match's review through the sessions: for its players only, worked out once
and stored with the match, and averaged into each player's stats."""

from __future__ import annotations

from typing import Any

import pytest

from bot.sessions import Reason, Refused, Sessions
from bot.sessions import reviews as reviews_module
from bot.sessions.reviews import RESEND_AFTER

from ..sessions_helpers import (
    ALICE,
    BOB,
    CARLA,
    CHAT,
    REVIEW_SEARCHES,
    FakeClock,
    open_memory_sessions,
    play_to_end,
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
    first = await sessions.review(game_id, ALICE)
    assert first.fresh and first.seat == 0 and first.names == ("Alice", "Bob")
    assert first.review.searches == REVIEW_SEARCHES and len(first.review.accuracy) == 2
    assert [seat for seat, _ in first.players] == [0, 1]
    again = await sessions.review(game_id, BOB)
    assert not again.fresh and again.seat == 1 and again.review == first.review
    assert worked_out == [1]


async def test_a_review_goes_to_each_player_once_in_two_minutes() -> None:
    clock = FakeClock()
    sessions = await open_memory_sessions(clock)
    first_match, second_match = await _finished_duel(sessions), await _finished_duel(sessions)
    found = await sessions.review(first_match, ALICE)
    alice, bob = (player for _, player in found.players)
    assert await sessions.claim_review_sending(first_match, alice)
    assert not await sessions.claim_review_sending(first_match, alice), "a double tap sends it once"
    assert await sessions.claim_review_sending(first_match, bob), "each player's own"
    assert await sessions.claim_review_sending(second_match, alice), "each match's own"
    clock.advance(RESEND_AFTER - 1)
    assert not await sessions.claim_review_sending(first_match, alice)
    clock.advance(2)
    assert await sessions.claim_review_sending(first_match, alice), "asked again later, sent again"
    assert not await sessions.claim_review_sending(first_match, alice)


async def test_the_chats_last_finished_match_is_the_one_reviewed() -> None:
    sessions = await open_memory_sessions()
    with pytest.raises(Refused) as refused:
        await sessions.last_finished(CHAT)
    assert refused.value.reason is Reason.NO_MATCH
    game_id = await _finished_duel(sessions)
    assert await sessions.last_finished(CHAT) == game_id


async def test_stats_show_the_mean_accuracy_of_reviewed_matches() -> None:
    sessions = await open_memory_sessions()
    before = await sessions.stats(ALICE)
    assert (before["reviewed"], before["accuracy"]) == (0, None)
    first = await sessions.review(await _finished_duel(sessions), ALICE)
    second = await sessions.review(await _finished_duel(sessions), BOB)
    stats = await sessions.stats(ALICE)
    assert stats["reviewed"] == 2
    assert stats["accuracy"] == pytest.approx((first.review.accuracy[0] + second.review.accuracy[0]) / 2)


async def test_a_stranger_an_unfinished_match_and_a_missing_one_are_refused(worked_out: list[int]) -> None:
    sessions = await open_memory_sessions()
    running = await start_duel(sessions, options={"target": 1})
    for game_id, user, reason in ((running, ALICE, Reason.NOT_FINISHED),
                                  (running, CARLA, Reason.NOT_YOUR_REVIEW), (9999, ALICE, Reason.NO_GAME)):
        with pytest.raises(Refused) as refused:
            await sessions.review(game_id, user)
        assert refused.value.reason is reason
    await play_to_end(sessions, running, [ALICE, BOB])
    with pytest.raises(Refused) as refused:
        await sessions.review(running, CARLA)
    assert refused.value.reason is Reason.NOT_YOUR_REVIEW
    assert worked_out == [] and (await sessions.stats(ALICE))["reviewed"] == 0
