"""The deal of the day on Telegram: /daily in a group sends the match to the player's private
chat, where they play it against the computer; a second try is refused and the group's board
shows them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeTelegramServer
from ..sessions_helpers import FakeClock
from ..telegram_helpers import bot_messages, friends_group, match_over, play_until_over, running_bot, shown

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

NOON = datetime(2026, 11, 25, 12, 0, tzinfo=UTC).timestamp()


async def test_a_player_plays_the_deal_of_the_day_privately_and_the_board_shows_them(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice")
        group = friends_group(tg, alice)
        async with running_bot(tg, tmp_path / "bot.db", clock=FakeClock(NOON)) as bot:
            await bot.sessions.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            tg.user_sends(group, alice, "/daily")
            await tg.wait_for_message(group, contains="Today's deal is waiting for you in our private chat")
            await tg.wait_for_message(alice, contains="Deal of the day 2026-11-25: a match to 11")
            await tg.wait_for(lambda: any(d.startswith("p") for m in bot_messages(tg, alice)
                                          for d in m.callback_data), what="the hand, in private")
            assert not any(m.callback_data for m in bot_messages(tg, group)), "nothing to play in the group"
            await play_until_over(tg, alice, [alice], timeout=30)
            over = match_over(tg, alice)
            assert over is not None and "Final score: Alice" in shown(over)

            tg.user_sends(alice, alice, "/daily")
            await tg.wait_for_message(alice, contains="one attempt a day")
            tg.user_sends(group, alice, "/daily board")
            board = await tg.wait_for_message(group, contains="Deal of the day 2026-11-25: this chat")
            assert "1. Alice" in shown(board) and "moves" in shown(board)
            tg.user_sends(alice, alice, "/daily board")
            everyone = await tg.wait_for_message(alice, contains="Deal of the day 2026-11-25: everyone")
            assert "1. Alice" in shown(everyone)


async def test_a_player_the_bot_cannot_write_to_yet_starts_the_deal_from_the_private_chat_link(
        tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        bruno = tg.add_user("Bruno")
        group = tg.add_group("Friends", members=[bruno])
        async with running_bot(tg, tmp_path / "bot.db", clock=FakeClock(NOON)) as bot:
            await bot.sessions.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            tg.user_sends(group, bruno, "/daily")
            prompt = await tg.wait_for_message(group, contains="private")
            _, payload = tg.start_payload(prompt.buttons[0]["url"]) or ("", "")
            assert payload == "daily"
            assert await bot.sessions.open_game_id(ChatRef(PLATFORM, str(bruno.id))) is None
            tg.user_starts_bot(bruno, payload)
            await tg.wait_for_message(bruno, contains="Deal of the day 2026-11-25: a match to 11")
            await tg.wait_for(lambda: any(d.startswith("p") for m in bot_messages(tg, bruno)
                                          for d in m.callback_data), what="the hand, in private")
