"""A finished match stepped through play by play, for its players only."""

from __future__ import annotations

import pytest

from bot.ai.review import Fault
from bot.sessions import Reason, Refused, Sessions

from ..sessions_helpers import ALICE, BOB, CARLA, open_memory_sessions, play_to_end, start_duel


async def _finished_duel(sessions: Sessions) -> int:
    game_id = await start_duel(sessions, options={"target": 1})
    await play_to_end(sessions, game_id, [ALICE, BOB])
    return game_id


async def test_a_player_steps_from_the_first_play_to_the_last() -> None:
    sessions = await open_memory_sessions()
    game_id = await _finished_duel(sessions)
    first = await sessions.queries.replay_step(game_id, ALICE, 0)
    assert first.first and first.steps >= 36 and first.round == 1 and first.played.card in first.hand
    seen = [await sessions.queries.replay_step(game_id, BOB, step) for step in range(first.steps)]
    assert seen[-1].last and {step.name for step in seen} == {"Alice", "Bob"}
    assert all(step.played.card in step.hand for step in seen)
    firsts = [step for step in seen if step.round == 1 and step.seat == seen[0].seat]
    assert [step.nth for step in firsts] == list(range(1, len(firsts) + 1)) and first.nth == 1
    assert first.variant == "scopa" and first.deck_style


async def test_graded_plays_carry_the_better_move_once_the_review_is_made() -> None:
    sessions = await open_memory_sessions()
    game_id = await _finished_duel(sessions)
    made = await sessions.reviews.review(game_id, ALICE)
    costly = [p for p in made.review.plays if p.loss >= 0.3 and p.best != p.played]
    first = await sessions.queries.replay_step(game_id, ALICE, 0)
    steps = [await sessions.queries.replay_step(game_id, ALICE, n) for n in range(first.steps)]
    assert sum(step.better is not None for step in steps) == len(costly)
    equivalent = [(p.round + 1, p.play) for p in made.review.plays
                  if p.reason is not None and p.reason.fault is Fault.EQUIVALENT]
    assert equivalent, "random plays tie somewhere"
    said = [(step.round, step.step - sum(1 for s in steps if s.round < step.round))
            for step in steps if step.equivalent]
    assert said == equivalent and not any(step.equivalent and step.better for step in steps)


async def test_stale_steps_other_people_and_matches_in_play_are_refused() -> None:
    sessions = await open_memory_sessions()
    game_id = await _finished_duel(sessions)
    last = (await sessions.queries.replay_step(game_id, ALICE, 0)).steps
    for step in (-1, last):
        with pytest.raises(Refused) as refused:
            await sessions.queries.replay_step(game_id, ALICE, step)
        assert refused.value.reason == Reason.STALE
    with pytest.raises(Refused) as refused:
        await sessions.queries.replay_step(game_id, CARLA, 0)
    assert refused.value.reason == Reason.NOT_YOUR_REVIEW
    playing = await start_duel(sessions)
    with pytest.raises(Refused) as refused:
        await sessions.queries.replay_step(playing, ALICE, 0)
    assert refused.value.reason == Reason.NOT_FINISHED
