"""The owners' tools on the fake Telegram: /botstatus, /notice and /block for an owner in the
private chat; the same words from anyone else, or in a group, answered as an unknown command
(nothing); a block holding on every command and tap, and across a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeChat, FakeTelegramServer, FakeUser
from ..telegram_helpers import answered, bot_messages, duel, friends_group, newest_hand, running_bot

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

BLOCKED = "You cannot use this bot."


async def _fenced(tg: FakeTelegramServer, chat: FakeChat | FakeUser, user: FakeUser,
                  *typed: str) -> list[str]:
    """What the bot answered in `chat` to `typed`, sent by `user`: /help is sent last, and once its
    answer is there every earlier answer is too (a chat's messages go in order)."""
    before = len(bot_messages(tg, chat))
    for text in typed:
        tg.user_sends(chat, user, text)
    tg.user_sends(chat, user, "/help")
    await tg.wait_for_message(chat, contains="/newgame", after=bot_messages(tg, chat)[-1] if before else 0)
    return [m.text or "" for m in bot_messages(tg, chat)[before:-1]]


async def test_an_owner_sees_the_bot_tells_the_chats_in_play_and_blocks_a_user(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        owner = tg.add_user("Olga", language_code="en")
        tg.user_starts_bot(owner)
        async with duel(tmp_path / "bot.db", tg) as d:
            d.bot.sessions.owners.name({(PLATFORM, str(owner.id))})
            tg.add_group("Owners", members=[owner])
            stranger_said = await _fenced(tg, d.bob, d.bob, "/botstatus", "/notice Hello everyone",
                                          f"/block {d.alice.id}", f"/unblock {d.alice.id}", "/nosuchcommand")
            assert stranger_said == []
            owners_group = tg.add_group("Owners too", members=[owner, d.alice])
            assert await _fenced(tg, owners_group, owner, "/botstatus", f"/block {d.alice.id}") == []
            commands = [c["command"] for c in tg.get_commands()]
            assert "help" in commands and not {"botstatus", "notice", "block", "unblock"} & set(commands)
            await d.bot.front.owner_commands.set_menus(d.bot.front.application.bot, ("help", "stats"))
            menu = tg.get_commands(scope={"type": "chat", "chat_id": owner.id})
            assert [c["command"] for c in menu] == ["help", "stats", "botstatus", "notice", "block",
                                                    "unblock"]
            assert menu[-1]["description"] == "Unblock a user (owners)"

            tg.user_sends(owner, owner, "/botstatus")
            status = await tg.wait_for_message(owner, contains="Bot status")
            assert "Matches in play: 1" in (status.text or "")
            assert "Players today: 2" in (status.text or "")

            tg.user_sends(owner, owner, "/notice The bot restarts in five minutes")
            await tg.wait_for_message(owner, contains="goes to 1 chat with a game in play")
            notice = "📢 From the bot's owner: The bot restarts in five minutes"
            await tg.wait_for_message(d.group, contains=notice)

            tg.user_sends(owner, owner, f"/block {d.bob.id}")
            await tg.wait_for_message(owner, contains=f"telegram:{d.bob.id} is blocked")
            tg.user_sends(d.group, d.bob, "/stats")
            await tg.wait_for_message(d.group, contains=BLOCKED)
            hand = await tg.wait_for(lambda: newest_hand(tg, d.bob), what="Bob's hand")
            card = next(button["callback_data"] for row in hand.reply_markup["inline_keyboard"]
                        for button in row if button.get("callback_data"))
            tapped = await answered(tg, tg.press_button(d.bob, hand, d.bob, card))
            assert tapped.show_alert and tapped.answer_text == BLOCKED
            tg.user_sends(d.group, d.alice, "/stats")
            await tg.wait_for_message(d.group, contains="📈 Alice")
            group_texts = [m.text or "" for m in bot_messages(tg, d.group)]
            assert sum(notice in text for text in group_texts) == 1

        async with running_bot(tg, tmp_path / "bot.db") as again:
            again.sessions.owners.name({(PLATFORM, str(owner.id))})
            tg.user_sends(d.bob, d.bob, "/stats")
            await tg.wait_for_message(d.bob, contains=BLOCKED)
            tg.user_sends(owner, owner, f"/unblock telegram:{d.bob.id}")
            await tg.wait_for_message(owner, contains="is no longer blocked")
            tg.user_sends(d.bob, d.bob, "/stats")
            await tg.wait_for_message(d.bob, contains="📈 Bob")
            assert sum("📢" in (m.text or "") for m in bot_messages(tg, d.group)) == 1


async def test_a_blocked_user_can_neither_open_nor_join_a_tournament(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        owner = tg.add_user("Olga", language_code="en")
        alice, bob = tg.add_user("Alice", language_code="en"), tg.add_user("Bob", language_code="en")
        group = friends_group(tg, alice, bob, owner)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            bot.sessions.owners.name({(PLATFORM, str(owner.id))})
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            tg.user_sends(owner, owner, f"/block {bob.id}")
            await tg.wait_for_message(owner, contains=f"telegram:{bob.id} is blocked")
            tg.user_sends(group, bob, "/tournament")
            await tg.wait_for_message(group, contains=BLOCKED)
            assert await bot.sessions.tournaments.current(ChatRef(PLATFORM, str(group.id))) is None
            tg.user_sends(group, alice, "/tournament")
            signup = await tg.wait_for_message(group, contains="(1/32)")
            tapped = await answered(tg, tg.tap(group, signup, bob, "Join"))
            assert tapped.answer_text == BLOCKED
            view = await bot.sessions.tournaments.current(ChatRef(PLATFORM, str(group.id)))
            assert view is not None and [p.name for p in view.players] == ["Alice"]
