"""The deal of the day at the player's pace, through the real bot against the fake Bot API, with
the sessions' clock moved by the test (virtual time): a player who walks away mid-round for an
hour is never played for, warned or reminded, finds the match where it was after a restart, and
finishes it; each of their turns rings once; the group's one line names them, then the result.
A deal its player leaves unfinished is closed when the day ends (midnight UTC), and both the
player and the group are told."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef, GameStatus

from ..fakes.telegram_server import FakeMessage, FakeTelegramServer, FakeUser
from ..sessions_helpers import FakeClock
from ..telegram_helpers import (
    Bot,
    Taps,
    answered,
    at_turn,
    bot_messages,
    friends_group,
    match_over,
    newest_hand,
    play_until_over,
    shown,
    start_bot,
)
from .test_telegram_daily import dealt

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

NOON = datetime(2026, 11, 25, 12, 0, tzinfo=UTC).timestamp()
HOUR = 3600
CLOCK_WORDS = ("time ran out", "still have", "seconds left", "Time's up", "played for", "waiting for you")
"""What a clock or a reminder would say in the private chat."""


def _hands(tg: FakeTelegramServer, user: FakeUser) -> list[FakeMessage]:
    return [m for m in bot_messages(tg, user) if at_turn(m)]


def _card(tg: FakeTelegramServer, user: FakeUser, after: int) -> tuple[FakeMessage, str] | None:
    """A card `user` can play on their newest hand, drawn for a turn after version `after`."""
    hand = newest_hand(tg, user)
    for data in hand.callback_data if hand is not None else ():
        if data.startswith("p|") and int(data.split("|")[2]) > after:
            return hand, data
    return None


async def _turns(tg: FakeTelegramServer, user: FakeUser, taps: Taps, count: int, after: int = -1) -> int:
    """`user` plays `count` turns, each once its hand came; every turn's hand rang their phone
    once, and nothing else did. The version of the last turn played."""
    for _ in range(count):
        since = time.time()
        message, data = await tg.wait_for(partial(_card, tg, user, after), 30, what="her next turn")
        after = int(data.split("|")[2])
        taps.pressed.add(data)
        assert not (await answered(tg, tg.press_button(user, message, user, data))).show_alert
        await tg.wait_for(partial(_card, tg, user, after), 30, what="the turn after")
        rang = tg.rings(user, since=since)
        assert [shown(m).split("\n")[0] for m in rang] == ["Your hand (Scopa, game 1)"], \
            "one ring a turn: the hand"
    return after


async def _version(bot: Bot, game_id: int) -> int:
    return (await bot.sessions.queries.table(game_id)).version


async def test_a_player_walks_away_for_an_hour_the_bot_restarts_and_they_finish_the_deal(
        tmp_path: Path) -> None:
    db, clock = tmp_path / "bot.db", FakeClock(NOON)
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice")
        group = friends_group(tg, alice)
        bot = await start_bot(tg, db, clock=clock, ring_rate=1000)
        try:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            await tg.wait_for_message(alice, contains="Add me to a group")
            since = time.time()
            offer = await dealt(tg, group, alice)
            await tg.wait_for(lambda: _hands(tg, alice), what="the hand, in private")
            game_id = await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(alice.id)))
            assert game_id is not None
            taps = Taps()
            played = await _turns(tg, alice, taps, 6)
            await tg.wait_for(lambda: _card(tg, alice, played), what="her seventh turn")
            left_at = await _version(bot, game_id)

            clock.advance(HOUR)
            assert await bot.sessions.scheduler.run_due() == 0, "an hour on her turn: nothing is due"
            assert await _version(bot, game_id) == left_at, "nobody played for her"
        finally:
            await bot.stop()
        clock.advance(HOUR / 2)
        bot = await start_bot(tg, db, clock=clock, ring_rate=1000)
        try:
            assert await bot.sessions.scheduler.run_due() == 0
            assert await _version(bot, game_id) == left_at, "after the restart too, the turn waits"
            await play_until_over(tg, alice, [alice], taps, timeout=30)
            over = match_over(tg, alice)
            assert over is not None
            line = await tg.wait_for(lambda: (m := tg.message(group, offer.message_id)) and
                                     "Alice played the deal of the day 2026-11-25:" in shown(m) and m,
                                     what="the group's line with the result")
            assert "against the computer" in shown(line)
        finally:
            await bot.stop()

        said = " ".join(shown(m) for m in bot_messages(tg, alice))
        assert not any(words in said for words in CLOCK_WORDS), said
        board = [m for m in bot_messages(tg, group)]
        assert board == [line], "the group reads one line, edited: who plays, then the result"
        rings = [shown(m).split("\n")[0] for m in tg.rings(alice, since=since)]
        turns = len({d for d in taps.pressed if d.startswith("p")})
        assert rings.count("Your hand (Scopa, game 1)") == turns + 1, \
            "each turn's hand rings once (the turn she left, once more after the restart)"
        assert [line for line in rings if line != "Your hand (Scopa, game 1)"] == ["🏆 Match over!"], \
            "nothing else rings: not the deal's start, the table, a round's end, a clock"


async def test_a_deal_unfinished_at_midnight_is_closed_and_the_player_and_group_are_told(
        tmp_path: Path) -> None:
    clock = FakeClock(datetime(2026, 11, 25, 23, 30, tzinfo=UTC).timestamp())
    async with FakeTelegramServer() as tg:
        alice = tg.add_user("Alice")
        group = friends_group(tg, alice)
        bot = await start_bot(tg, tmp_path / "bot.db", clock=clock)
        try:
            await bot.sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id)), "en")
            offer = await dealt(tg, group, alice)
            await tg.wait_for(lambda: _hands(tg, alice), what="the hand, in private")
            game_id = await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(alice.id)))
            assert game_id is not None
            taps = Taps()
            played = await _turns(tg, alice, taps, 1)
            await tg.wait_for(lambda: _card(tg, alice, played), what="her next turn")
            clock.advance(HOUR)
            told = await tg.wait_for_message(alice, contains="The day 2026-11-25 is over", timeout=15)
            assert "not on the board" in shown(told) and "/daily" in shown(told)
            await tg.wait_for(lambda: "Alice did not finish the deal of the day 2026-11-25" in shown(
                tg.message(group, offer.message_id)), what="the group's line: not finished")
            assert (await bot.sessions.queries.table(game_id)).status is GameStatus.CANCELLED
            assert not (await bot.sessions.queries.daily_board(None)).lines
            await dealt(tg, alice, alice, "2026-11-26")
            await tg.wait_for_message(alice, contains="Deal of the day 2026-11-26")
        finally:
            await bot.stop()
