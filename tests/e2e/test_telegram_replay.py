"""The replay on Telegram: ▶️ Replay under a player's review sends one photo of the match's
first play to their private chat; ⏮ ◀ ▶ ⏭ edit that photo in place (no new message), from the
first play to the last; a forged or stale step, or someone who did not play, is refused and
changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.adapters.telegram.callbacks import encode
from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef, ReviewOwed, UserRef
from bot.sessions.tap import Action, Tap

from ..fakes.telegram_server import FakeMessage, FakeTelegramServer
from ..telegram_helpers import (
    Duel,
    answered,
    bot_messages,
    friends_group,
    match_over,
    play_until_over,
    running_bot,
    shown,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

COUNT = re.compile(r"· (\d+) of (\d+)")


@contextlib.asynccontextmanager
async def one_round(db: Path) -> AsyncIterator[Duel]:
    """Alice and Bob's match of one round (36 plays), played out, its group showing pictures."""
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, db, pictures=True) as bot:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            tg.user_sends(group, alice, "/newgame scopa round_limit=1")
            lobby = await tg.wait_for_message(group, contains="New game")
            assert not (await answered(tg, tg.tap(group, lobby, bob, "Join"))).show_alert
            await tg.wait_for(lambda: "2. Bob" in shown(lobby), what="Bob's seat")
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            await play_until_over(tg, group, [alice, bob], timeout=60)
            yield Duel(tg, bot, group, alice, bob, 0.0)


async def _replay_of(d: Duel) -> FakeMessage:
    """Alice's review asked for from the match's end, and the replay opened from it."""
    tg = d.tg
    over = await tg.wait_for(lambda: match_over(tg, d.group), what="the end of the match")
    assert over is not None
    await answered(tg, tg.tap(d.group, over, d.alice, "Review"), timeout=30)
    review = await tg.wait_for(lambda: next((m for m in bot_messages(tg, d.alice) if "Replay" in str(
        m.button_texts)), None), timeout=60, what="Alice's review with its Replay button")
    assert review is not None
    opened = await answered(tg, tg.tap(d.alice, review, d.alice, "Replay"), timeout=30)
    assert not opened.show_alert
    replay = await tg.wait_for(lambda: next((m for m in bot_messages(tg, d.alice) if m.photo is not None
                                             and COUNT.search(shown(m))), None), what="the replay's photo")
    assert replay is not None
    for _ in range(600):
        if not any(isinstance(
                event, ReviewOwed) for event in await d.bot.sessions.delivery.owed_notices(PLATFORM)):
            break
        await asyncio.sleep(0.05)
    await d.bot.front.outbox.drain(5)
    return replay


def _count(message: FakeMessage) -> tuple[int, int]:
    found = COUNT.search(shown(message))
    assert found is not None, shown(message)
    return int(found[1]), int(found[2])


async def test_a_player_steps_through_the_match_in_one_edited_photo(tmp_path: Path) -> None:
    async with one_round(tmp_path / "bot.db") as d:
        tg = d.tg
        replay = await _replay_of(d)
        step, steps = _count(replay)
        assert (step, steps) == (1, 36) and shown(replay).startswith("Round 1 · ")
        assert replay.button_texts == ["▶", "⏭"], "no way back from the first play"
        sent = len(bot_messages(tg, d.alice))
        seen = [step]
        graded = ["Better:" in shown(replay)]
        equal = ["Equivalent:" in shown(replay)]
        while "▶" in replay.button_texts:
            edits = replay.edit_count
            assert not (await answered(tg, tg.tap(d.alice, replay, d.alice, "▶"))).show_alert
            await tg.wait_for(lambda e=edits: replay.edit_count > e, what=f"play {seen[-1] + 1}")
            seen.append(_count(replay)[0])
            graded.append("Better:" in shown(replay))
            equal.append("Equivalent:" in shown(replay))
        assert seen == list(range(1, steps + 1)), "each play once, in order"
        alice = UserRef(PLATFORM, str(d.alice.id), "Alice")
        assert graded == [(await d.bot.sessions.queries.replay_step(1, alice, n)).better is not None
                          for n in range(steps)], "each play the review graded says the better move"
        assert any(graded), "random plays give up points somewhere"
        assert equal == [(await d.bot.sessions.queries.replay_step(1, alice, n)).equivalent
                         for n in range(steps)], "each play the review found another as good as says so"
        assert any(equal) and not any(g and e for g, e in zip(graded, equal, strict=True))
        assert replay.button_texts == ["⏮", "◀"], "the last play has no ▶"
        assert len(bot_messages(tg, d.alice)) == sent, "stepping sends no new message"
        assert [m for m in bot_messages(tg, d.alice) if COUNT.search(shown(m))] == [replay]
        assert len(replay.photo_history) == steps - 1, "each step a new picture"
        await answered(tg, tg.tap(d.alice, replay, d.alice, "⏮"))
        await tg.wait_for(lambda: _count(replay)[0] == 1, what="back to the first play")
        await answered(tg, tg.tap(d.alice, replay, d.alice, "⏭"))
        await tg.wait_for(lambda: _count(replay)[0] == steps, what="on to the last play")


async def test_forged_steps_and_strangers_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async with one_round(tmp_path / "bot.db") as d:
        tg = d.tg
        replay = await _replay_of(d)
        carla = tg.add_user("Carla")
        tg.user_starts_bot(carla)
        await d.bot.front.outbox.drain(5)
        before = (shown(replay), replay.edit_count, len(bot_messages(tg, d.alice)))
        forged = [encode(Tap(Action.REPLAY_STEP, game, arg=step))
                  for game, step in ((1, "36"), (1, "5"), (99, "0"))]
        for data in [*forged, "v|1|x"]:
            refused = await answered(tg, tg.forge_callback(d.alice, replay, d.alice, data))
            assert refused.show_alert, data
        mine = encode(Tap(Action.REPLAY_STEP, 1, arg="3"))
        carlas = tg.private_chat(carla)
        stranger = await answered(tg, tg.forge_callback(carlas, 1, carla, mine))
        assert stranger.show_alert and "Only the players of that match" in (stranger.answer_text or "")
        opened = await answered(tg, tg.forge_callback(carlas, 1, carla, encode(Tap(Action.REPLAY, 1))))
        assert opened.show_alert
        await d.bot.front.outbox.drain(5)
        assert (shown(replay), replay.edit_count, len(bot_messages(tg, d.alice))) == before
        assert [m for m in bot_messages(tg, carla) if m.photo is not None] == []


async def test_thirty_taps_in_a_second_make_a_few_edits(tmp_path: Path) -> None:
    """Telegram wants about a message a second in a chat: taps coming faster than one each half
    second fold into one drawing of the latest."""
    async with one_round(tmp_path / "bot.db") as d:
        tg = d.tg
        replay = await _replay_of(d)
        taps = []
        for _ in range(30):
            taps.append(tg.tap(d.alice, replay, d.alice, "▶"))
            await asyncio.sleep(1 / 30)
        await tg.wait_for(lambda: all(tap.answered for tap in taps), what="every tap answered")
        assert not any(tap.show_alert for tap in taps)
        await d.bot.front.outbox.drain(5)
        edits = [call.at for call in tg.calls_to("editMessageMedia")
                 if str(call.params.get("message_id")) == str(replay.message_id)]
        assert 2 <= len(edits) <= 4, edits
        assert all(later - earlier >= 0.45 for earlier, later in itertools.pairwise(edits))
        step, _ = _count(replay)
        forward = next(b["callback_data"] for b in replay.buttons if b["text"] == "▶")
        assert forward == encode(Tap(Action.REPLAY_STEP, 1, arg=str(step))), "its buttons go on from it"
