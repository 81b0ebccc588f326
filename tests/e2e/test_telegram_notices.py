"""A bot that stops right after the last move of a match is stored, before its messages go out:
after the restart the group still gets the round's breakdown and the end of the match, once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import AchievementsEarned, ChatRef, Event, MatchEnded, RoundEnded

from ..fakes.telegram_server import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import (
    answered,
    bot_messages,
    friends_group,
    hand_message,
    joined_lobby,
    live_button,
    match_over,
    start_bot,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def _played_to_the_end_then_stopped(tg: FakeTelegramServer, db: Path, group: FakeChat,
                                         alice: FakeUser, bob: FakeUser) -> tuple[FakeMessage, int]:
    """A match to one point played by Alice and Bob; the bot stops after the last move is
    stored and before the rounds' breakdowns, the end of the match and its achievements are posted. The lobby
    message (then the table) is given back, with how many announcements are owed: a round
    that ends level goes on to another, so there may be more than one breakdown."""
    bot = await start_bot(tg, db)
    await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id), "Friends"), "en")
    await bot.sessions.settings.set_chat_defaults(ChatRef(PLATFORM, str(group.id), "Friends"), {"target": 1})
    drawn = bot.front.presenter.on_event

    async def stopped_before_posting(event: Event) -> None:
        if not isinstance(event, RoundEnded | MatchEnded | AchievementsEarned):
            await drawn(event)

    bot.front.presenter.on_event = stopped_before_posting  # type: ignore[method-assign]
    lobby = await joined_lobby(tg, group, alice, bob)
    assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
    pressed: set[str] = set()
    while not (await bot.sessions.queries.table(1)).finished:
        user, message, data = await tg.wait_for(lambda: live_button(tg, [alice, bob], pressed),
                                                what="a card to play")
        pressed.add(data)
        await answered(tg, tg.press_button(user, message, user, data))
    owed = len(await bot.sessions.delivery.owed_notices(PLATFORM))
    await bot.stop()
    assert not any("End of round" in (m.text or "") for m in bot_messages(tg, group))
    return lobby, owed


async def test_announcements_lost_to_a_stop_are_posted_after_the_restart_once(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        lobby, _ = await _played_to_the_end_then_stopped(tg, db, group, alice, bob)

        restarted = await start_bot(tg, db)
        await tg.wait_for(lambda: match_over(tg, group), what="the end of the match, after the restart")
        texts = [m.text or "" for m in bot_messages(tg, group)]
        assert sum("End of round 1" in text for text in texts) == 1, texts
        breakdown = next(text for text in texts if "End of round 1" in text)
        assert "Counts (Alice – Bob): cards " in breakdown and "coins" in breakdown, "the counts"
        end = match_over(tg, group)
        assert end is not None and end.button_texts == ["🔁 Rematch", "🔍 Review"]
        await tg.wait_for(lambda: "Match over." in (lobby.text or ""), what="the final table")
        for user in (alice, bob):
            hand = hand_message(tg, user, 1)
            assert hand is not None and hand.reply_markup is None, "no card left to tap"
        await restarted.stop()

        again = await start_bot(tg, db)
        tg.user_sends(group, bob, "/help")
        await tg.wait_for(lambda: any("/newgame" in (m.text or "") for m in bot_messages(tg, group)))
        assert [m.text or "" for m in bot_messages(tg, group)][: len(texts)] == texts
        assert sum(" wins the match " in (m.text or "") for m in bot_messages(tg, group)) == 1, "posted once"
        await again.stop()


async def test_announcements_owed_to_a_group_that_removed_the_bot_are_dropped_not_retried(
        tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        _, owed = await _played_to_the_end_then_stopped(tg, db, group, alice, bob)
        assert owed >= 2, "at least one breakdown and the end of the match"
        tg.remove_bot(group)

        def refused_posts() -> int:
            return sum(1 for call in tg.calls if call.method == "sendMessage"
                       and call.params.get("chat_id") in (group.id, str(group.id)) and not call.ok)

        restarted = await start_bot(tg, db)
        await tg.wait_for(lambda: refused_posts() == owed, what="the breakdowns and the match end refused")
        for _ in range(100):
            if not await restarted.sessions.delivery.owed_notices(PLATFORM):
                break
            await asyncio.sleep(0.05)
        assert await restarted.sessions.delivery.owed_notices(PLATFORM) == [], "owed no more"
        await restarted.stop()

        again = await start_bot(tg, db)
        await again.stop()
        assert refused_posts() == owed, "a third start does not try again"
