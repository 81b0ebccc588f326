"""A match as players feel it on their phones: their turn rings once, one chat is enough to play,
the group table stays in sight, the timer's plays are said, and no command answer is dropped."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import (
    Taps,
    answered,
    bot_messages,
    friends_group,
    hand_message,
    joined_lobby,
    match_over,
    play_until_over,
    running_bot,
    shown,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def _started(tg: FakeTelegramServer, group: FakeChat, alice: FakeUser, bob: FakeUser) -> float:
    """A two-player game opened by Alice, joined by Bob and started: when it started."""
    lobby = await joined_lobby(tg, group, alice, bob)
    await tg.wait_for(lambda: all(len(bot_messages(tg, user)) == 2 for user in (alice, bob)),
                      what="the welcome and the note of the seat taken, in each private chat")
    began = time.time()
    assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
    return began


def _turns(tg: FakeTelegramServer, taps: Taps, users: list[FakeUser]) -> Counter[int]:
    """How many plays each user made (a tap that plays a card or a capture; a tap that opens
    a choice of captures is the same turn)."""
    return Counter(record.user.id for record in taps.records if record.data[0] in "pC")


def _as_sent(message: FakeMessage) -> str:
    """What a message said when it was sent (and rang), before any edit."""
    if message.history:
        return message.history[0].text or ""
    return shown(message)


def _hand_messages(tg: FakeTelegramServer, user: FakeUser) -> list[FakeMessage]:
    return [m for m in bot_messages(tg, user) if "game 1)" in shown(m) or m.callback_data]


async def test_each_turn_rings_its_player_once_and_edits_ring_nobody(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            began = await _started(tg, group, alice, bob)
            taps = await play_until_over(tg, group, [alice, bob], timeout=30)
            await bot.front.outbox.drain(5)
            turns = _turns(tg, taps, [alice, bob])
            for user in (alice, bob):
                rang = [m for m in tg.rings(user, since=began) if m.chat.is_private]
                assert len(rang) == turns[user.id] > 5, (user.first_name, len(rang), turns[user.id])
                assert all("Your turn" in _as_sent(m) for m in rang), "each ring is the hand to play"
                hands = _hand_messages(tg, user)
                assert len(hands) == 1, "the old hands are deleted: one hand, at the bottom"
                assert hands[0] is bot_messages(tg, user)[-1]
            assert not [m for m in bot_messages(tg, group) if m.silent], "group posts are new messages"


async def test_a_whole_match_is_played_from_the_private_chats_with_the_table_in_sight(
        tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db", pictures=True) as bot:
            await bot.sessions.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            await _started(tg, group, alice, bob)
            seen: list[tuple[str, dict[str, object]]] = []
            taps = Taps()
            while match_over(tg, group) is None:
                taps = await play_until_over(tg, group, [alice, bob], taps, stop_after=1, timeout=30)
                if (await bot.sessions.table(1)).finished:
                    continue
                for user in (alice, bob):
                    hand = hand_message(tg, user, 1)
                    if hand is not None and hand.photo is not None:
                        seen.append((hand.caption or "", dict(hand.photo)))
            assert len(seen) > 20
            for caption, photo in seen:
                assert "Table:" in caption and "Score:" in caption, caption
                assert int(photo["height"]) > 500, "the table above the hand"  # type: ignore[call-overload]
            assert any("Your turn" in caption for caption, _ in seen)
            assert any("Waiting for" in caption for caption, _ in seen)


async def test_the_group_table_is_posted_again_below_each_round_breakdown(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await bot.sessions.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            await _started(tg, group, alice, bob)
            await play_until_over(tg, group, [alice, bob], timeout=30)
            await bot.front.outbox.drain(5)
            posts = bot_messages(tg, group)
            breakdowns = [m for m in posts if "End of round" in shown(m)]
            tables = [m for m in posts if "Score:" in shown(m) and "End of round" not in shown(m)]
            assert breakdowns, "the match had rounds"
            assert len(tables) == 1, "one table message stands: the old ones were deleted"
            every = tg.messages(group, include_deleted=True, from_bot=True)
            for breakdown in breakdowns[:-1]:
                below = [m for m in every if m.message_id > breakdown.message_id and "Score:" in shown(m)]
                assert below, "a table was posted below the breakdown"


@pytest.mark.parametrize("privacy_mode", [True, False])
async def test_a_table_buried_under_chat_is_posted_again_at_the_bottom(tmp_path: Path,
                                                                      privacy_mode: bool) -> None:
    """With privacy mode on the bot sees only commands, and learns from the ids of the next one
    (and of its answers) how many messages came between; with it off, it sees every message."""
    async with FakeTelegramServer(privacy_mode=privacy_mode) as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await bot.sessions.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            await _started(tg, group, alice, bob)
            table = await tg.wait_for(lambda: next((m for m in bot_messages(tg, group)
                                                    if "Score:" in shown(m)), None))
            for number in range(6):
                tg.user_sends(group, bob if number % 2 else alice, f"nice hand {number}")
            if privacy_mode:
                tg.user_sends(group, alice, "/stats")
            moved = await tg.wait_for(
                lambda: next((m for m in bot_messages(tg, group)
                              if "Score:" in shown(m) and m.message_id > table.message_id), None),
                what="the table posted again below the chat")
            await tg.wait_for(lambda: table.deleted, what="the old table deleted")
            assert all(m.message_id < moved.message_id for m in tg.messages(group, from_bot=False)), \
                "below all the chat"


async def test_a_play_made_by_the_timer_is_said_in_the_group_and_to_its_player(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await bot.sessions.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            await _started(tg, group, alice, bob)
            view = await bot.sessions.table(1)
            idle = (alice, bob)[view.to_play]
            bot.clock.advance(200)
            assert await bot.sessions.run_due() == 1
            table = await tg.wait_for(lambda: next((m for m in bot_messages(tg, group)
                                                    if "played for" in shown(m)), None),
                                      what="the group told the timer played")
            assert f"played for {idle.first_name}: time ran out" in shown(table)
            hand = await tg.wait_for(lambda: (h := hand_message(tg, idle, 1)) is not None
                                     and "was played for you" in shown(h) and h,
                                     what="the idle player told")
            assert "Time ran out" in shown(hand)


async def test_a_throttled_settings_answer_still_reaches_the_admin_with_its_buttons(
        tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob", language_code="es")
        group = tg.add_group("Friends", members=[bob], admins=[alice])
        for user in (alice, bob):
            tg.user_starts_bot(user)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await bot.sessions.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            asked = ("/help", "/rules", "/stats", "/leaderboard", "/rules scopone", "/rules escoba")
            for number, command in enumerate(asked, 1):
                tg.user_sends(group, bob, command)
                await tg.wait_for(lambda n=number: len(bot_messages(tg, group)) == n, what=command)
            tg.user_sends(group, bob, "/leaderboard global")
            moved = await tg.wait_for_message(bob, contains="no llenar el grupo")
            assert "Friends" in shown(moved), "said why, in Bob's language, naming the group"
            assert len(bot_messages(tg, group)) == len(asked), "the group got no seventh answer"
            tg.user_sends(group, alice, "/settings")
            settings = await tg.wait_for(lambda: next(
                (m for m in bot_messages(tg, group) if "Settings" in shown(m)), None),
                what="the settings, waiting for the group's window")
            assert any(data.startswith("g|") or "=" in data for data in settings.callback_data), \
                "with its buttons"
