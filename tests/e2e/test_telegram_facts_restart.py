"""Through the fake Bot API, across a restart: the facts a game's messages tell come from the
game as stored, so a new process draws them as the one before did (who cancelled the game,
whose card the timer played)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeTelegramServer
from ..sessions_helpers import FakeClock
from ..telegram_helpers import (
    answered,
    friends_group,
    hand_message,
    joined_lobby,
    shown,
    start_bot,
    table_message,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def test_a_cancelled_match_and_a_timed_out_turn_are_told_alike_after_a_restart(tmp_path: Path) -> None:
    db, clock = tmp_path / "scopa.db", FakeClock()
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        chat = ChatRef(PLATFORM, str(group.id))
        bot = await start_bot(tg, db, clock=clock)
        try:
            await bot.sessions.settings.set_chat_language(chat, "en")
            lobby = await joined_lobby(tg, group, alice, bob)
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            game_id = await bot.sessions.queries.open_game_id(chat)
            assert game_id is not None
            idle = (alice, bob)[(await bot.sessions.queries.table(game_id)).to_play]
            clock.advance(200)
            assert await bot.sessions.scheduler.run_due() == 1
            said = f"played for {idle.first_name}: time ran out"
            await tg.wait_for(lambda: said in shown(table_message(tg, group)), what="the timer's play told")
            await tg.wait_for(lambda: (h := hand_message(tg, idle, game_id)) is not None
                                       and "was played for you" in shown(h) and h,
                                       what="the idle player told")
        finally:
            await bot.stop()

        bot = await start_bot(tg, db, clock=clock)
        try:
            table = await bot.front.presenter.draw_table(game_id, group.id)
            assert table is not None and said in table.text
            hand = await bot.front.presenter.draw_hand(game_id, str(idle.id))
            assert hand is not None and "was played for you" in hand.text
            tg.user_sends(group, alice, "/cancel")
            asked = await tg.wait_for_message(group, contains="Cancel this match for everyone?")
            assert not (await answered(tg, tg.tap(group, asked, alice, "Yes, cancel the match"))).show_alert
            await tg.wait_for(lambda: "cancelled by Alice" in shown(table_message(tg, group)),
                              what="the match cancelled, by whom")
        finally:
            await bot.stop()

        bot = await start_bot(tg, db, clock=clock)
        try:
            drawn = await bot.front.presenter.draw_table(game_id, group.id)
            assert drawn is not None and "This game was cancelled by Alice." in drawn.text
        finally:
            await bot.stop()
