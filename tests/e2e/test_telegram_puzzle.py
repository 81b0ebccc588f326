"""/puzzle on Telegram: a position from the group's own finished and reviewed match, a button
per legal move, a tap answered to the tapper alone, right or wrong with the best play and why;
a forged button is refused, and before any reviewed match the group is told how to get one."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.ai.review import Review
from bot.render.words import move_label
from bot.sessions import ChatRef, UserRef

from ..fakes.telegram_server import FakeMessage
from ..telegram_helpers import Duel, answered, bot_messages, duel, play_until_over, shown

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

QUESTION = "held this hand in round"


def _puzzles(d: Duel) -> list[FakeMessage]:
    return [m for m in bot_messages(d.tg, d.group) if QUESTION in shown(m)]


async def _reviewed_match(d: Duel) -> Review:
    await play_until_over(d.tg, d.group, [d.alice, d.bob], timeout=60)
    store = d.bot.sessions.puzzles.store
    stored = None
    for _ in range(600):
        stored = await store.match_review(1)
        if stored is not None:
            break
        await asyncio.sleep(0.05)
    assert stored is not None, "the match is reviewed as it ends"
    return Review.from_dict(json.loads(stored))


async def test_puzzle_answered_right_and_wrong_to_the_tapper_alone(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db", review_at_end=True, pictures=True) as d:
        tg = d.tg
        tg.user_sends(d.group, d.alice, "/puzzle")
        await tg.wait_for_message(d.group, contains="No puzzle yet: finish a match and review it")
        review = await _reviewed_match(d)
        tg.user_sends(d.group, d.bob, "/puzzle")
        message = (await tg.wait_for(lambda: _puzzles(d), timeout=20, what="the puzzle"))[0]
        assert message.photo is not None, "the table and the hand as a picture"
        puzzle = await d.bot.sessions.puzzles.puzzle(UserRef(PLATFORM, str(d.bob.id), "Bob"),
                                                     ChatRef(PLATFORM, str(d.group.id)))
        graded = next(p for p in review.plays if (p.round, p.play) == (puzzle.round, puzzle.play))
        name = ("Alice", "Bob")[graded.seat]
        question = f"🧩 {name} held this hand in round {graded.round + 1} of the match of "
        assert shown(message).startswith(question)
        answers = [data for data in message.callback_data if data.startswith("z|")]
        assert len(answers) == len(puzzle.moves) >= 2, "a button per legal move"
        labels = message.button_texts
        assert move_label(graded.best) in labels and move_label(graded.played) in labels

        before = {who: len(bot_messages(tg, who)) for who in (d.group, d.alice, d.bob)}
        right = await answered(tg, tg.press_button(d.group, message, d.alice,
                                                   answers[puzzle.moves.index(graded.best)]))
        assert right.show_alert and (right.answer_text or "").startswith("✅ Right")
        wrong = await answered(tg, tg.press_button(d.group, message, d.bob,
                                                   answers[puzzle.moves.index(graded.played)]))
        assert wrong.show_alert and (wrong.answer_text or "").startswith("❌ Wrong: the best play is")
        assert f"{name} played {move_label(graded.played)}: " in (wrong.answer_text or "")
        await d.bot.front.outbox.drain(5)
        assert {who: len(bot_messages(tg, who)) for who in before} == before, "answered to the tapper alone"

        refused = await answered(tg, tg.forge_callback(d.group, message, d.bob, f"z|1|{puzzle.spot}|99"))
        assert refused.show_alert and "not one of this chat's puzzles" in (refused.answer_text or "")

        assert puzzle.count > 1, "the seeded match has more than one clear mistake"
        following = await answered(tg, tg.tap(d.group, message, d.alice, "Next puzzle"))
        assert not following.show_alert
        await tg.wait_for(lambda: len(_puzzles(d)) == 2, what="the next puzzle, posted in the group")
        second = _puzzles(d)[1]
        assert second.callback_data != message.callback_data, "another play"

        tg.user_sends(d.alice, d.alice, "/puzzle")
        own = await tg.wait_for(lambda: [m for m in bot_messages(tg, d.alice) if QUESTION in shown(m)],
                                what="Alice's puzzle from her own match, in her private chat")
        assert shown(own[0]).split(":")[0] == shown(message).split(":")[0]

