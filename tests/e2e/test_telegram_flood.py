"""A group gets at most 20 messages (sends and edits) in any minute, even right after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.adapters.telegram.pacing import POSTS_KEPT
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeChat, FakeTelegramServer, FakeUser
from ..telegram_helpers import (
    answered,
    friends_group,
    live_button,
    play_until_over,
    redrawn_after,
    running_bot,
    shown,
    start_bot,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

LIMIT, PERIOD = 20, 6.0
"""Telegram's 20 messages a minute per group, with a minute of six seconds so that the test is quick."""


async def _started(tg: FakeTelegramServer, group: FakeChat, alice: FakeUser, bob: FakeUser) -> None:
    tg.user_sends(group, alice, "/newgame")
    lobby = await tg.wait_for_message(group, contains="New game")
    assert not (await answered(tg, tg.tap(group, lobby, bob, "Join"))).show_alert
    await tg.wait_for(lambda: "2. Bob" in shown(lobby), what="Bob in the lobby")
    assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert


async def test_a_busy_group_stays_within_its_minute_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    async with FakeTelegramServer(flood_control=True) as tg:
        tg.group_flood_limit = (LIMIT, PERIOD)
        tg.global_flood_limit = (1000, 1.0)  # the bot's 30 a second are its rate limiter's, off here
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        options = {"group_rate": (float(LIMIT), PERIOD), "table_delay": 0.0}
        bot = await start_bot(tg, db, **options)
        try:
            chat = ChatRef(PLATFORM, str(group.id))
            await bot.sessions.settings.set_chat_language(chat, "en")
            await _started(tg, group, alice, bob)
            taps = await play_until_over(tg, group, [alice, bob], stop_after=60)
        finally:
            await bot.stop()
        sent = tg.group_sends[group.id]
        sent_before = len(sent)
        busy = (LIMIT - POSTS_KEPT) // 2  # edits leave a few places to new messages, and spread
        assert len([at for at in sent if at > sent[-1] - PERIOD]) >= busy, "the group was busy"

        async with running_bot(tg, db, **options) as again:
            taps = await play_until_over(tg, group, [alice, bob], taps, stop_after=10, timeout=30,
                                         stale_ok=True)
            await again.front.outbox.drain(3 * PERIOD)
        assert len(tg.group_sends[group.id]) > sent_before, "and got more after the restart"
        assert sum(tg.rate_limited_counts.values()) == 0, "no flood error: the limit was kept"
        assert tg.busiest_minute(group, PERIOD) <= LIMIT


async def test_a_429_storm_and_double_taps_keep_the_group_within_its_minute(tmp_path: Path) -> None:
    async with FakeTelegramServer(flood_control=True) as tg:
        tg.group_flood_limit = (LIMIT, PERIOD)
        tg.global_flood_limit = (1000, 1.0)
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        options = {"group_rate": (float(LIMIT), PERIOD), "table_delay": 0.0}
        async with running_bot(tg, tmp_path / "bot.db", **options) as bot:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            await _started(tg, group, alice, bob)
            tg.storm_429(12, retry_after=1)
            pressed: set[str] = set()
            for _ in range(60):
                user, message, data = await tg.wait_for(
                    lambda: live_button(tg, [alice, bob], pressed), 30, what="a card to play")
                pressed.add(data)
                first = tg.press_button(user, message, user, data)
                again = tg.press_button(user, message, user, data)
                await answered(tg, first, 30)
                await answered(tg, again, 30)
                await redrawn_after(tg, user, message, data, 30)
            await bot.front.outbox.drain(2 * PERIOD)
            played = [data for data in pressed if data.startswith("p|")]
            assert len(await bot.sessions.store.moves(1)) == len(played), "each double tap played once"
            assert first.answered and again.answered
        assert len(tg.group_sends[group.id]) > LIMIT // 2, "the group was busy"
        assert tg.busiest_minute(group, PERIOD) <= LIMIT
