"""The match review on Discord: the Review button under "match over" and /review answer the
player who asked with their review, seen only by them; the channel gets one line, once; a
slow review is deferred within Discord's three seconds; a stranger is refused."""

from __future__ import annotations

import asyncio
import io
import time
from typing import Any

import pytest
from PIL import Image

from bot.adapters.discord.identity import PLATFORM
from bot.ai.review import GradedPlay, Review
from bot.sessions import UserRef
from bot.sessions import reviews as reviews_module

from ..discord_helpers import World, open_sessions, play_to_end, start_front, started_duel
from ..fakes.discord_fakes import Interaction, Message

pytestmark = pytest.mark.usefixtures("seeded_deals")

REVIEW = "🔍 Revisione"


async def _finished(w: World) -> Message:
    game_id = await started_duel(w)
    await play_to_end(w, game_id, [w.alice, w.bob])
    await w.front.lanes.idle()
    return next(m for m in w.fake.messages(w.channel) if "Partita finita" in m.text and m.buttons())


def _answers(pressed: Interaction) -> list[Message]:
    """What the one who asked was shown: the response (unless deferred), then each follow-up."""
    first = [pressed.response_message] if pressed.response_message is not None else []
    return [*first, *pressed.followups]


def _review(pressed: Interaction) -> Message:
    return next(m for m in _answers(pressed) if "review of the match" in m.text or "revisione" in m.text)


def _accuracy_lines(w: World) -> list[Message]:
    return [m for m in w.fake.messages(w.channel) if m.text.startswith("Precisione:")]


def _own_play(review: Review, play: GradedPlay) -> str:
    """`Round 1, your 5th play`: the round, and which of its player's plays of the round it was."""
    number = sum(1 for other in review.plays
                 if other.seat == play.seat and other.round == play.round and other.play <= play.play)
    suffix = "th" if number % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"Round {play.round + 1}, your {number}{suffix} play"


async def test_review_is_shown_to_the_one_who_asked_and_the_channel_gets_one_line(world: World) -> None:
    w = world
    over = await _finished(w)
    assert over.labels() == ["🔁 Rivincita", REVIEW]
    pressed = await w.fake.press(w.bob, over, REVIEW)
    review = _review(pressed)
    assert review.ephemeral and review.visible_to is w.bob
    assert "Your review of the match" in review.text and "Accuracy: Alice" in review.text
    assert "Bob, the costliest moves:" in review.text or "Bob: no move gave up points." in review.text
    assert "Alice, the costliest" not in review.text, "only one's own moves"
    await w.front.lanes.idle()
    lines = _accuracy_lines(w)
    assert len(lines) == 1 and "Alice" in lines[0].text and "Bob" in lines[0].text

    asked = await w.fake.slash(w.alice, w.channel, "review")
    assert _review(asked).ephemeral and _review(asked).visible_to is w.alice
    assert "La tua revisione della partita" in _review(asked).text
    await w.front.lanes.idle()
    assert len(_accuracy_lines(w)) == 1, "read back: the channel's line is not posted again"

    stats = await w.fake.slash(w.alice, w.channel, "stats")
    figure = lines[0].text.split("Alice ")[1].split(" ")[0]
    assert f"Precisione media: {figure} (1 partita rivista)" in stats.reply.text


async def test_each_costly_move_follows_the_review_as_a_picture_seen_only_by_its_player(world: World) -> None:
    w = world
    over = await _finished(w)
    pressed = await w.fake.press(w.bob, over, REVIEW)
    found = await w.sessions.reviews.review(1, UserRef(PLATFORM, str(w.bob.id), "Bob"))
    costly = found.review.costliest(1)
    assert costly, "these deals cost Bob points"
    await w.fake.wait_for(lambda: len(_answers(pressed)) == 1 + len(costly), what="the pictures")
    pictures = _answers(pressed)[1:]
    assert [m.text.split(":")[0] for m in pictures] == [_own_play(found.review, p) for p in costly]
    for message in pictures:
        assert message.ephemeral and message.visible_to is w.bob
        data = message.picture()
        assert data is not None and Image.open(io.BytesIO(data)).width == 640


async def test_a_slow_review_is_deferred_and_then_shown(world: World,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    over = await _finished(w)
    real = reviews_module.review_in_pool
    working = asyncio.Event()

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await working.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(reviews_module, "review_in_pool", slow)
    pressed = await w.fake.press(w.alice, over, REVIEW, wait=False)
    await w.fake.acknowledged(pressed)
    assert pressed.log == ["callback 6"]
    working.set()
    await w.fake.answered(pressed)
    await w.fake.wait_for(lambda: any("La tua revisione" in m.text for m in _answers(pressed)),
                          what="the review after the wait")
    assert _review(pressed).ephemeral and _review(pressed).visible_to is w.alice


async def test_a_stranger_pressing_review_is_refused_and_nothing_changes(world: World) -> None:
    w = world
    over = await _finished(w)
    shown = len(w.fake.messages(w.channel))
    refused = await w.fake.press(w.carla, over, REVIEW)
    assert refused.reply.ephemeral and "Solo chi ha giocato quella partita" in refused.reply.text
    await w.front.lanes.idle()
    assert len(w.fake.messages(w.channel)) == shown
    stats = await w.sessions.queries.stats(UserRef(PLATFORM, str(w.alice.id), "Alice"))
    assert stats["reviewed"] == 0


async def test_a_match_reviewed_as_it_ends_answers_review_at_once_and_review_in_a_dm_finds_it(
        world: World) -> None:
    w = world
    await w.front.stop()
    await w.sessions.close()
    w.sessions = await open_sessions(w.path, w.clock, review_at_end=True)
    w.front = await start_front(w.sessions)
    over = await _finished(w)
    for _ in range(600):
        if await w.sessions.queries.stored_review(1, 0) is not None:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the review was not made as the match ended")
    await w.front.lanes.idle()
    assert _accuracy_lines(w) == [], "made unasked: the channel's line waits for the first asker"

    began = time.monotonic()
    pressed = await w.fake.press(w.bob, over, REVIEW)
    review = _review(pressed)
    assert time.monotonic() - began < 1.0, "the review itself, within a second of the press"
    assert pressed.response_message is review, "answered with the review, not deferred"
    assert review.ephemeral and review.visible_to is w.bob and "Your review of the match" in review.text
    await w.front.lanes.idle()
    assert len(_accuracy_lines(w)) == 1

    asked = await w.fake.slash(w.alice, w.fake.open_dm(w.alice), "review")
    mine = _review(asked)
    assert mine.visible_to in (None, w.alice) and "La tua revisione della partita" in mine.text
    assert "Accuracy" not in mine.text and "Precisione: Alice" in mine.text
    await w.front.lanes.idle()
    assert len(_accuracy_lines(w)) == 1, "the channel's line once"
