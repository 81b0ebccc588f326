"""A match as players feel it on their phones: their turn rings once, one chat is enough to play,
the group table stays in sight, the timer's plays are said, and no command answer is dropped."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import (
    POST_TITLES,
    Taps,
    bot_messages,
    duel,
    hand_message,
    match_over,
    play_until_over,
    running_bot,
    shown,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


def _turns(taps: Taps) -> Counter[int]:
    """How many plays each user made (a tap that plays a card or a capture; a tap that opens
    a choice of captures is the same turn)."""
    return Counter(record.user.id for record in taps.records if record.data[0] in "pC")


def _as_sent(message: FakeMessage) -> str:
    """What a message said when it was sent (and rang), before any edit."""
    if message.history:
        return message.history[0].text or ""
    return shown(message)


def _hand_messages(tg: FakeTelegramServer, user: FakeUser) -> list[FakeMessage]:
    return [m for m in bot_messages(tg, user) if not shown(m).startswith(POST_TITLES)
            and ("game 1)" in shown(m) or m.callback_data)]


async def test_each_turn_rings_its_player_once_and_edits_ring_nobody(tmp_path: Path) -> None:
    # These players answer at once: forty turns in two seconds would spend the bot's new
    # messages of a second (the next test), which players of flesh never do.
    async with duel(tmp_path / "bot.db", ring_rate=1000) as d:
        taps = await play_until_over(d.tg, d.group, [d.alice, d.bob], timeout=30)
        await d.bot.front.outbox.drain(5)
        turns = _turns(taps)
        for user in (d.alice, d.bob):
            rang = [m for m in d.tg.rings(user, since=d.began) if m.chat.is_private]
            assert len(rang) == turns[user.id] > 5, (user.first_name, len(rang), turns[user.id])
            assert all("Your turn" in _as_sent(m) for m in rang), "each ring is the hand to play"
            hands = _hand_messages(d.tg, user)
            assert len(hands) == 1, "the old hands are deleted: one hand, at the bottom"
            kept = [m for m in bot_messages(d.tg, user) if not shown(m).startswith(POST_TITLES)]
            assert hands[0] is kept[-1], "below it only the round ends and the match's result"
        assert not [m for m in bot_messages(d.tg, d.group) if m.silent], "group posts are new messages"


async def test_a_whole_match_is_played_from_the_private_chats_with_the_table_in_sight(
        tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db", pictures=True) as d:
        seen: list[tuple[str, dict[str, object]]] = []
        taps = Taps()
        while match_over(d.tg, d.group) is None:
            taps = await play_until_over(d.tg, d.group, [d.alice, d.bob], taps, stop_after=1, timeout=30)
            if (await d.bot.sessions.queries.table(1)).finished:
                continue
            for user in (d.alice, d.bob):
                hand = hand_message(d.tg, user, 1)
                if hand is not None and hand.photo is not None:
                    seen.append((hand.caption or "", dict(hand.photo)))
        assert len(seen) > 20
        for caption, photo in seen:
            assert "Table:" in caption and "Score:" in caption, caption
            assert int(photo["height"]) > 500, "the table above the hand"  # type: ignore[call-overload]
        assert any("Your turn" in caption for caption, _ in seen)
        assert any("Waiting for" in caption for caption, _ in seen)


async def test_the_group_table_is_posted_again_below_each_round_breakdown(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db") as d:
        await play_until_over(d.tg, d.group, [d.alice, d.bob], timeout=30)
        await d.bot.front.outbox.drain(5)
        posts = bot_messages(d.tg, d.group)
        breakdowns = [m for m in posts if "End of round" in shown(m)]
        tables = [m for m in posts if "Score:" in shown(m) and "End of round" not in shown(m)]
        assert breakdowns, "the match had rounds"
        assert len(tables) == 1, "one table message stands: the old ones were deleted"
        every = d.tg.messages(d.group, include_deleted=True, from_bot=True)
        for breakdown in breakdowns[:-1]:
            below = [m for m in every if m.message_id > breakdown.message_id and "Score:" in shown(m)]
            assert below, "a table was posted below the breakdown"


@pytest.mark.parametrize("privacy_mode", [True, False])
async def test_a_table_buried_under_chat_is_posted_again_at_the_bottom(tmp_path: Path,
                                                                      privacy_mode: bool) -> None:
    """With privacy mode on the bot sees only commands, and learns from the ids of the next one
    (and of its answers) how many messages came between; with it off, it sees every message."""
    async with FakeTelegramServer(privacy_mode=privacy_mode) as tg, duel(tmp_path / "bot.db", tg) as d:
        table = await tg.wait_for(lambda: next((m for m in bot_messages(tg, d.group)
                                                if "Score:" in shown(m)), None))
        for number in range(6):
            tg.user_sends(d.group, d.bob if number % 2 else d.alice, f"nice hand {number}")
        if privacy_mode:
            tg.user_sends(d.group, d.alice, "/stats")
        moved = await tg.wait_for(
            lambda: next((m for m in bot_messages(tg, d.group)
                          if "Score:" in shown(m) and m.message_id > table.message_id), None),
            what="the table posted again below the chat")
        await tg.wait_for(lambda: table.deleted, what="the old table deleted")
        assert all(m.message_id < moved.message_id for m in tg.messages(d.group, from_bot=False)), \
            "below all the chat"


async def test_a_play_made_by_the_timer_is_said_in_the_group_and_to_its_player(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db") as d:
        view = await d.bot.sessions.queries.table(1)
        idle = (d.alice, d.bob)[view.to_play]
        d.bot.clock.advance(200)
        assert await d.bot.sessions.scheduler.run_due() == 1
        table = await d.tg.wait_for(lambda: next((m for m in bot_messages(d.tg, d.group)
                                                  if "played for" in shown(m)), None),
                                    what="the group told the timer played")
        assert f"played for {idle.first_name}: time ran out" in shown(table)
        hand = await d.tg.wait_for(lambda: (h := hand_message(d.tg, idle, 1)) is not None
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
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
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


async def test_with_the_bots_messages_of_the_second_spent_a_turn_is_edited_in_at_once(
        tmp_path: Path) -> None:
    """Many games at once can spend the bot's 30 new messages a second: a turn then edits its
    player's hand in place, without a ring and without waiting for the next second."""
    async with duel(tmp_path / "bot.db", ring_rate=0) as d:
        taps = await play_until_over(d.tg, d.group, [d.alice, d.bob], timeout=30)
        assert sum(_turns(taps).values()) > 10
        for user in (d.alice, d.bob):
            assert [m for m in d.tg.rings(user, since=d.began) if m.chat.is_private] == []
            assert len(_hand_messages(d.tg, user)) == 1, "one hand message, edited throughout"
