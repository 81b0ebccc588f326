"""The match review on Telegram: the Review button under "match over" and /review send the
player who asks their review privately, and the group one line when it is first made; the
tap is answered at once while the review is made; it is worked out once, /stats shows the
mean accuracy, and a stranger's press is refused and changes nothing."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.ai.review import GradedPlay, Review
from bot.sessions import ReviewOwed, UserRef
from bot.sessions.reviews import RESEND_AFTER

from ..fakes.telegram_server import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import Duel, answered, bot_messages, duel, match_over, play_until_over, shown

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

REVIEW_TITLE = "Your review of the match in Friends"


def _reviews(tg: FakeTelegramServer, user: FakeUser) -> list[str]:
    return [shown(m) for m in bot_messages(tg, user) if REVIEW_TITLE in shown(m)]


def _photos(tg: FakeTelegramServer, user: FakeUser) -> list[FakeMessage]:
    """The photos of one's costly moves, each under its line ("Round 1, move 7: ...")."""
    return [m for m in bot_messages(tg, user) if m.photo is not None and shown(m).startswith("Round ")]


def _accuracy_lines(tg: FakeTelegramServer, group: FakeChat) -> list[str]:
    return [shown(m) for m in bot_messages(tg, group) if shown(m).startswith("Accuracy:")]


def _own_play(review: Review, play: GradedPlay) -> str:
    """`Round 1, your 5th play`: the round, and which of its player's plays of the round it was."""
    number = sum(1 for other in review.plays
                 if other.seat == play.seat and other.round == play.round and other.play <= play.play)
    suffix = "th" if number % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"Round {play.round + 1}, your {number}{suffix} play"


async def _all_delivered(d: Duel) -> None:
    """Until no review is owed any more (the last message out, and noted as delivered): once the
    review is made, for the owed notices leave out a review until it is."""
    for _ in range(600):
        owed = await d.bot.sessions.delivery.owed_notices(PLATFORM)
        made = await d.bot.sessions.queries.stored_review(1, 0) is not None
        if made and not any(isinstance(event, ReviewOwed) for event in owed):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("a review is still owed")


async def _played_to_the_end(d: Duel) -> FakeMessage:
    """The duel's match played out; its "match over" message, with the Review button."""
    await play_until_over(d.tg, d.group, [d.alice, d.bob], timeout=30)
    over = await d.tg.wait_for(lambda: match_over(d.tg, d.group), what="the end of the match")
    assert over is not None
    return over


async def test_review_reaches_the_asker_privately_and_the_group_gets_one_line(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db") as d:
        tg = d.tg
        over = await _played_to_the_end(d)
        pressed = await answered(tg, tg.tap(d.group, over, d.alice, "Review"), timeout=30)
        assert not pressed.show_alert
        assert "being prepared: it will arrive in your private chat" in (pressed.answer_text or "")
        await tg.wait_for(lambda: _reviews(tg, d.alice), timeout=30, what="Alice's review")
        line = (await tg.wait_for(lambda: _accuracy_lines(tg, d.group), what="the group's line"))[0]
        assert "Alice" in line and "Bob" in line and " · " in line
        alice_review = _reviews(tg, d.alice)[0]
        assert "Accuracy: Alice" in alice_review
        assert any(own in alice_review for own in ("Alice, the costliest moves:", "Alice: no move gave up"))
        assert "Bob, the costliest" not in alice_review, "only one's own moves"
        assert "searches" not in alice_review and "(−" not in alice_review, "words for people, no jargon"
        await d.bot.front.outbox.drain(5)
        assert _reviews(tg, d.bob) == [], "Bob did not ask: nothing rings for him"

        asked = await answered(tg, tg.tap(d.group, over, d.bob, "Review"), timeout=30)
        assert not asked.show_alert and "is in your private chat" in (asked.answer_text or "")
        await tg.wait_for(lambda: _reviews(tg, d.bob), what="Bob's review, read back")
        await _all_delivered(d)
        again = await answered(tg, tg.tap(d.group, over, d.bob, "Review"), timeout=30)
        assert not again.show_alert and "just sent to your private chat" in (again.answer_text or "")
        await d.bot.front.outbox.drain(5)
        assert len(_reviews(tg, d.bob)) == 1, "Bob had his moments ago: not sent twice"

        d.bot.clock.advance(RESEND_AFTER + 1)
        later = await answered(tg, tg.tap(d.group, over, d.bob, "Review"), timeout=30)
        assert not later.show_alert and "is in your private chat" in (later.answer_text or "")
        await tg.wait_for(lambda: len(_reviews(tg, d.bob)) == 2, what="Bob's review sent again later")
        assert _reviews(tg, d.bob)[1] == _reviews(tg, d.bob)[0], "read back, the same review"
        await d.bot.front.outbox.drain(5)
        assert len(_reviews(tg, d.alice)) == 1 and len(_accuracy_lines(tg, d.group)) == 1

        tg.user_sends(d.group, d.alice, "/stats")
        stats = await tg.wait_for_message(d.group, contains="Average accuracy")
        figure = line.split("Alice ")[1].split(" ")[0]
        assert f"Average accuracy: {figure} (1 reviewed match)" in shown(stats)


async def test_review_command_sends_the_last_finished_match(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db") as d:
        tg = d.tg
        tg.user_sends(d.group, d.bob, "/review")
        refused = await tg.wait_for_message(d.group, contains="no finished match")
        assert refused is not None
        await play_until_over(tg, d.group, [d.alice, d.bob], timeout=30)
        tg.user_sends(d.group, d.bob, "/review")
        await tg.wait_for(lambda: _reviews(tg, d.bob), timeout=30, what="Bob's review")
        await tg.wait_for(lambda: _accuracy_lines(tg, d.group), what="the group's line")
        await d.bot.front.outbox.drain(5)
        assert _reviews(tg, d.alice) == [], "only the one who asked"


async def test_a_double_tap_on_review_sends_the_review_once(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db") as d:
        tg = d.tg
        over = await _played_to_the_end(d)
        taps = [tg.tap(d.group, over, d.alice, "Review"), tg.tap(d.group, over, d.alice, "Review")]
        answers = sorted([(await answered(tg, tap, timeout=30)).answer_text or "" for tap in taps])
        assert all("being prepared" in answer for answer in answers), "the second: on its way"
        await _all_delivered(d)
        tg.user_sends(d.group, d.alice, "/review")
        await tg.wait_for(lambda: any("just sent to your private chat" in shown(m)
                                      for m in bot_messages(tg, d.group) + bot_messages(tg, d.alice)),
                          timeout=30, what="the answer, in the group or moved to the private chat")
        await tg.wait_for(lambda: _reviews(tg, d.alice), timeout=30, what="Alice's review")
        await d.bot.front.outbox.drain(5)
        assert len(_reviews(tg, d.alice)) == 1 and len(_reviews(tg, d.bob)) == 0
        assert len(_accuracy_lines(tg, d.group)) == 1


async def test_a_stranger_pressing_review_is_refused_and_nothing_is_sent(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db") as d:
        tg = d.tg
        carla = tg.add_user("Carla")
        d.group.members[carla.id] = "member"
        tg.user_starts_bot(carla)
        over = await _played_to_the_end(d)
        for _ in range(200):
            if not await d.bot.sessions.delivery.owed_notices(PLATFORM):
                break
            await asyncio.sleep(0.05)
        await d.bot.front.outbox.drain(5)
        before = {who: len(bot_messages(tg, who)) for who in (d.group, d.alice, d.bob, carla)}
        refused = await answered(tg, tg.tap(d.group, over, carla, "Review"))
        assert refused.show_alert and "Only the players of that match" in (refused.answer_text or "")
        await d.bot.front.outbox.drain(5)
        assert {who: len(bot_messages(tg, who)) for who in before} == before
        alice = UserRef(PLATFORM, str(d.alice.id), "Alice")
        assert (await d.bot.sessions.queries.stats(alice))["reviewed"] == 0, "no review was worked out"


async def test_where_the_group_shows_pictures_each_costly_move_follows_as_a_photo(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db", pictures=True) as d:
        tg = d.tg
        over = await _played_to_the_end(d)
        for user in (d.alice, d.bob):
            assert not (await answered(tg, tg.tap(d.group, over, user, "Review"), timeout=30)).show_alert
        found = await d.bot.sessions.reviews.review(1, UserRef(PLATFORM, str(d.alice.id), "Alice"))
        for user, seat in ((d.alice, 0), (d.bob, 1)):
            costly = found.review.costliest(seat)
            await tg.wait_for(lambda u=user: _reviews(tg, u), what=f"{user.first_name}'s review")
            count = len(costly)
            await tg.wait_for(lambda u=user, n=count: len(_photos(tg, u)) == n,
                              what=f"{user.first_name}'s costly moves as photos")
            assert [shown(m).split(":")[0] for m in _photos(tg, user)] == [
                _own_play(found.review, p) for p in costly]


async def _made(d: Duel, game_id: int = 1) -> None:
    for _ in range(600):
        if await d.bot.sessions.queries.stored_review(game_id, 0) is not None:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the review was not made as the match ended")


async def test_a_match_reviewed_as_it_ends_answers_review_with_the_review_itself_to_the_asker_alone(
        tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db", review_at_end=True) as d:
        tg = d.tg
        over = await _played_to_the_end(d)
        await _made(d)
        await d.bot.front.outbox.drain(5)
        assert _reviews(tg, d.alice) == _reviews(tg, d.bob) == [] and _accuracy_lines(tg, d.group) == [], (
            "made unasked: nothing sent")
        began = time.monotonic()
        pressed = await answered(tg, tg.tap(d.group, over, d.alice, "Review"), timeout=30)
        assert not pressed.show_alert and "is in your private chat" in (pressed.answer_text or "")
        await tg.wait_for(lambda: _reviews(tg, d.alice), timeout=30, what="Alice's review")
        assert time.monotonic() - began < 1.0, "the review itself, within a second of the tap"
        await tg.wait_for(lambda: _accuracy_lines(tg, d.group), what="the group's line")
        await d.bot.front.outbox.drain(5)
        assert _reviews(tg, d.bob) == [], "Bob did not ask: nothing rings for him"
        assert len(_accuracy_lines(tg, d.group)) == 1 and len(_reviews(tg, d.alice)) == 1

        tg.user_sends(d.bob, d.bob, "/review")
        await tg.wait_for(lambda: _reviews(tg, d.bob), timeout=30,
                          what="Bob's review of the group's match, asked in his private chat")
        await d.bot.front.outbox.drain(5)
        assert len(_reviews(tg, d.alice)) == 1 and len(_accuracy_lines(tg, d.group)) == 1
        assert "review of the match in Friends" in _reviews(tg, d.bob)[0]
