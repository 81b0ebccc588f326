"""A basic group upgraded to a supergroup mid-match: Telegram refuses the old id from then on,
and the match, the group's settings and its leaderboard carry on under the new one."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeTelegramServer
from ..telegram_helpers import (
    Taps,
    answered,
    bot_messages,
    match_over,
    play_until_over,
    running_bot,
    shown,
    table_message,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def test_a_match_in_a_basic_group_upgraded_midway_finishes_in_the_supergroup(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = tg.add_group("Friends", owner=alice, members=[bob], supergroup=False)
        for user in (alice, bob):
            tg.user_starts_bot(user)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            chat = ChatRef(PLATFORM, str(group.id), "Friends")
            await bot.sessions.settings.set_chat_language(chat, "en")
            await bot.sessions.settings.set_turn_limit(chat, 300)
            await bot.sessions.settings.set_chat_defaults(chat, {"target": 1})

            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game")
            assert not (await answered(tg, tg.tap(group, lobby, bob, "Join"))).show_alert
            await tg.wait_for(lambda: "2. Bob" in shown(lobby))
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            await play_until_over(tg, group, [alice, bob])
            rematch = match_over(tg, group)
            assert rematch is not None
            assert not (await answered(tg, tg.tap(group, rematch, bob, "Rematch"))).show_alert
            lobby = await tg.wait_for(lambda: next((m for m in reversed(bot_messages(tg, group))
                                                     if "New game" in shown(m) and m is not lobby), None),
                                      what="the rematch's lobby")
            await tg.wait_for(lambda: "Start" in " ".join(lobby.button_texts), what="the lobby's buttons")
            if "2. (empty)" in shown(lobby):
                assert not (await answered(tg, tg.tap(group, lobby, alice, "Join"))).show_alert
                await tg.wait_for(lambda: "2. (empty)" not in shown(lobby), what="both seated")
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            taps = await play_until_over(tg, group, [alice, bob], Taps(), stop_after=4)

            supergroup = tg.upgrade_group(group, by=alice)
            await tg.wait_for(lambda: any(m.reply_to is None for m in bot_messages(tg, supergroup)), 10,
                              what="the table drawn in the supergroup")
            await play_until_over(tg, supergroup, [alice, bob], taps, timeout=30)
            await tg.wait_for(lambda: "Match over." in shown(table_message(tg, supergroup)),
                              what="the final table, in the supergroup")
            assert match_over(tg, supergroup) is not None, "the end of the match, in the supergroup"

            tg.user_sends(supergroup, alice, "/settings")
            answer = await tg.wait_for_message(supergroup, contains="Turn limit")
            assert "Turn limit: 300 s" in shown(answer)
            tg.user_sends(supergroup, alice, "/leaderboard")
            board = await tg.wait_for_message(supergroup, contains="Leaderboard")
            assert "Alice" in shown(board) and "Bob" in shown(board) and "2 games" in shown(board), \
                shown(board)
