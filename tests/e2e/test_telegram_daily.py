"""The deal of the day on Telegram: /daily in a group sends the match to the player's private
chat, where they play it against the computer; a second try is refused and the group's board
shows them."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef, GameSummary, UserRef

from ..crash_daily import killed_asking_for_the_daily
from ..fakes.telegram_server import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..sessions_helpers import FakeClock
from ..telegram_helpers import (
    MATCH_OVER,
    Bot,
    Taps,
    answered,
    at_turn,
    bot_messages,
    friends_group,
    live_button,
    match_over,
    play_until_over,
    redrawn_after,
    running_bot,
    shown,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

NOON = datetime(2026, 11, 25, 12, 0, tzinfo=UTC).timestamp()
OFFER = "deal the cards now?"


async def dealt(tg: FakeTelegramServer, chat: FakeChat | FakeUser, user: FakeUser, day: str = "2026-11-25"
                ) -> FakeMessage:
    """`user` asks for the deal of the day in `chat`, is offered it and taps Deal; the offer."""
    before = {m.message_id for m in bot_messages(tg, chat)}
    tg.user_sends(chat, user, "/daily")
    offer = await tg.wait_for(lambda: next((m for m in bot_messages(tg, chat) if m.message_id not in before
                                            and OFFER in shown(m) and day in shown(m)), None),
                              what=f"the offer of the deal of {day}")
    assert not (await answered(tg, tg.tap(chat, offer, user, "Deal"))).show_alert
    return offer


async def test_a_player_plays_the_deal_of_the_day_privately_and_the_board_shows_them(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db", clock=FakeClock(NOON)) as bot:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            tg.user_sends(group, alice, "/daily")
            offer = await tg.wait_for_message(group, contains=OFFER)
            assert shown(offer).startswith("Alice, the deal of the day 2026-11-25")
            assert not await _games(bot, alice), "no deal without a tap"
            by_bob = await answered(tg, tg.tap(group, offer, bob, "Deal"))
            assert by_bob.show_alert and "offered to someone else" in (by_bob.answer_text or "")
            assert not await _games(bot, bob) and not await _games(bot, alice), "another's tap deals nothing"
            tapped = await answered(tg, tg.tap(group, offer, alice, "Deal"))
            assert not tapped.show_alert and "private chat" in (tapped.answer_text or "")
            await tg.wait_for(lambda: "Alice is playing the deal of the day 2026-11-25" in shown(
                tg.message(group, offer.message_id)), what="the group's line: who plays")
            assert not tg.message(group, offer.message_id).callback_data, "the offer's buttons go"
            await tg.wait_for_message(alice, contains="Deal of the day 2026-11-25: a match to 11")
            await tg.wait_for(lambda: any(at_turn(m) for m in bot_messages(tg, alice)),
                              what="the hand, in private")
            assert not any(m.callback_data for m in bot_messages(tg, group)), "nothing to play in the group"
            await play_until_over(tg, alice, [alice], timeout=30)
            over = match_over(tg, alice)
            assert over is not None and "Final score: Alice" in shown(over)
            line = await tg.wait_for(lambda: (m := tg.message(group, offer.message_id)) and
                                     "Alice played the deal of the day 2026-11-25:" in shown(m) and m,
                                     what="the group's line: the result")
            assert "against the computer (" in shown(line)
            assert len(bot_messages(tg, group)) == 1, "one line in the group, edited as the deal goes"

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
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            tg.user_sends(group, bruno, "/daily")
            prompt = await tg.wait_for_message(group, contains="private")
            _, payload = tg.start_payload(prompt.buttons[0]["url"]) or ("", "")
            assert payload == "daily"
            assert await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(bruno.id))) is None
            tg.user_starts_bot(bruno, payload)
            offer = await tg.wait_for_message(bruno, contains=OFFER)
            assert not await _games(bot, bruno)
            assert not (await answered(tg, tg.tap(bruno, offer, bruno, "Deal"))).show_alert
            await tg.wait_for_message(bruno, contains="Deal of the day 2026-11-25: a match to 11")
            await tg.wait_for(lambda: any(at_turn(m) for m in bot_messages(tg, bruno)),
                              what="the hand, in private")


DAY = 24 * 3600


async def _games(bot: Bot, user: FakeUser) -> list[GameSummary]:
    """The games `user` sits in now (asked without touching any chat of theirs)."""
    return await bot.sessions.queries.games_of(UserRef(PLATFORM, str(user.id), user.first_name))


def _deal_data(user: FakeUser, day: str = "20261125") -> str:
    return f"y|0|{day}.{user.id}"


def _hands(tg: FakeTelegramServer, user: FakeUser) -> list[FakeMessage]:
    return [m for m in bot_messages(tg, user) if at_turn(m)]


def _ends(tg: FakeTelegramServer, user: FakeUser) -> int:
    """How many match ends (with their Review button) the user's private chat shows."""
    return sum(1 for m in bot_messages(tg, user)
               if MATCH_OVER in shown(m) and any(d.startswith("R|") for d in m.callback_data))


async def _play_another_to_its_end(tg: FakeTelegramServer, user: FakeUser) -> None:
    """`user` plays a live card until one more match end than now shows in their private chat."""
    ended, taps = _ends(tg, user), Taps()
    while True:
        found = await tg.wait_for(lambda: _ends(tg, user) > ended or live_button(tg, [user], taps.pressed),
                                  30, what="a live card or the end of the match")
        if found is True:
            return
        _, message, data = found
        taps.pressed.add(data)
        assert not (await answered(tg, tg.press_button(user, message, user, data))).show_alert
        await redrawn_after(tg, user, message, data, 30)


async def test_a_finished_daily_offers_no_rematch_a_forged_one_opens_nothing_and_tomorrow_plays(
        tmp_path: Path) -> None:
    clock = FakeClock(NOON)
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice", language_code="en")
        async with running_bot(tg, tmp_path / "bot.db", clock=clock) as bot:
            tg.user_starts_bot(alice)
            await dealt(tg, alice, alice)
            await tg.wait_for_message(alice, contains="Deal of the day 2026-11-25")
            await play_until_over(tg, alice, [alice], timeout=30)
            over = match_over(tg, alice)
            assert over is not None
            review = next(d for d in over.callback_data if d.startswith("R|"))
            assert not any(d.startswith("r|") for m in bot_messages(tg, alice) for d in m.callback_data), \
                "no Rematch under the deal of the day, anywhere in the private chat"
            forged = await answered(tg, tg.forge_callback(alice, over, alice, "r" + review[1:]))
            assert forged.show_alert and "no rematch" in (forged.answer_text or "")
            assert await bot.sessions.queries.open_game_id(
                    ChatRef(PLATFORM, str(alice.id))) is None, "nothing opened"

            clock.advance(DAY)
            before = len(_hands(tg, alice))
            await dealt(tg, alice, alice, "2026-11-26")
            await tg.wait_for_message(alice, contains="Deal of the day 2026-11-26")
            await tg.wait_for(lambda: len(_hands(tg, alice)) > before, what="tomorrow's hand")
            await _play_another_to_its_end(tg, alice)
            board = await bot.sessions.queries.daily_board(None)
            assert board.day == "2026-11-26" and [line.name for line in board.lines] == ["Alice"]


async def test_daily_asked_again_while_under_way_gives_the_deal_back_with_a_fresh_hand(
        tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice", language_code="en")
        group = friends_group(tg, alice)
        async with running_bot(tg, tmp_path / "bot.db", clock=FakeClock(NOON)) as bot:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            offer = await dealt(tg, group, alice)
            await tg.wait_for_message(alice, contains="Deal of the day 2026-11-25")
            await tg.wait_for(lambda: _hands(tg, alice), 20, what="the hand")
            first = _hands(tg, alice)[-1].message_id
            tg.user_sends(group, alice, "/daily")
            await tg.wait_for_message(alice, contains="is under way")
            await tg.wait_for_message(group, contains="Alice is playing the deal of the day 2026-11-25")
            again = await answered(tg, tg.forge_callback(group, offer, alice, _deal_data(alice)))
            assert not again.show_alert, "the Deal button tapped again gives the deal back"
            await tg.wait_for(lambda: any(m.message_id > first for m in _hands(tg, alice)),
                              what="the hand again, below")
            assert not any("one attempt a day" in shown(m) for chat in (alice, group)
                           for m in bot_messages(tg, chat)), "never 'already played' for a deal under way"
            await play_until_over(tg, alice, [alice], timeout=30)
            tg.user_sends(alice, alice, "/daily")
            await tg.wait_for_message(alice, contains="one attempt a day")


async def test_daily_with_a_word_it_does_not_know_says_what_it_takes_and_starts_nothing(
        tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice", language_code="en")
        group = friends_group(tg, alice)
        async with running_bot(tg, tmp_path / "bot.db", clock=FakeClock(NOON)) as bot:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "it")
            tg.user_sends(group, alice, "/daily bord")
            said = await tg.wait_for_message(group, contains="«bord»")
            assert "/daily board global" in shown(said) and "non ho iniziato nulla" in shown(said)
            tg.user_sends(alice, alice, "/daily 2026-01-01")
            said = await tg.wait_for_message(alice, contains="“2026-01-01”")
            assert "board global" in shown(said) and "nothing was started" in shown(said)
            assert await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(alice.id))) is None
            tg.user_sends(alice, alice, "/daily")
            await tg.wait_for_message(alice, contains=OFFER), "the day's attempt kept"


async def _killed_at_then_played(db: Path, step: int) -> str:
    """Alice's /daily in a group killed before its write `step` (or once dealt); then the bot started
    again: her /daily gives the day's deal (or gives it back), played to its end, and only then is
    a second refused. What the killed process had reached."""
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice", language_code="en")
        group = friends_group(tg, alice)
        said = killed_asking_for_the_daily(f"sqlite:///{db}", step, PLATFORM, str(alice.id), str(group.id))
        async with running_bot(tg, db, clock=FakeClock(NOON)):
            if said == "dealt":
                tg.user_sends(alice, alice, "/daily")
                await tg.wait_for_message(alice, contains="is under way")
            else:
                await dealt(tg, alice, alice)
                await tg.wait_for_message(alice, contains="Deal of the day 2026-11-25")
            await tg.wait_for(lambda: _hands(tg, alice), 20, what="the hand")
            await play_until_over(tg, alice, [alice], timeout=30)
            assert not any("one attempt a day" in shown(m) for m in bot_messages(tg, alice))
            tg.user_sends(alice, alice, "/daily")
            await tg.wait_for_message(alice, contains="one attempt a day")
    return said


async def test_the_bot_killed_at_any_step_of_daily_then_started_again_plays_the_days_deal_once(
        tmp_path: Path) -> None:
    """A bot process killed (SIGKILL) before each write of /daily, or just after its deal."""
    for step in itertools.count():
        if await _killed_at_then_played(tmp_path / f"killed-{step}.db", step) == "dealt":
            break
    assert step >= 5, "each of /daily's writes was a moment to kill it"
