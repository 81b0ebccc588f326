"""`scopa-bot telegram` killed with SIGKILL at each step of the deal of the day's offer and deal:
just after /daily was asked (before or after its offer went out) and from 0.02 s to 1.5 s after
Deal was tapped (while the deal is written, the offer made the group's line, the hand sent), then
started again. Every time the player, doing what a player would (asking again, tapping Deal
again), gets their deal once: dealt, never twice, never lost, and the group's line names them."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.app import open_sessions
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import TURN_TAPS, answered, bot_messages, newest_hand, shown
from .test_telegram_restart import _launch, _polling

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

KILLS = (("ask", 0.05), ("ask", 0.3), ("tap", 0.02), ("tap", 0.05), ("tap", 0.1), ("tap", 0.2),
         ("tap", 0.4), ("tap", 0.8), ("tap", 1.5))
"""When the bot is killed: that long after /daily was sent, or after Deal was tapped."""
OFFER = "deal the cards now?"


def _offers(tg: FakeTelegramServer, group: FakeChat, user: FakeUser) -> list[FakeMessage]:
    """The offers made to `user` in the group that still show their buttons."""
    return [m for m in bot_messages(tg, group) if shown(m).startswith(f"{user.first_name}, the deal")
            and OFFER in shown(m) and m.callback_data]


def _card(tg: FakeTelegramServer, user: FakeUser) -> tuple[FakeMessage, str] | None:
    """A card of `user`'s newest hand they may tap at their turn (played, or its captures shown)."""
    hand = newest_hand(tg, user)
    if hand is None:
        return None
    data = next((d for d in hand.callback_data if d.startswith(TURN_TAPS)), None)
    return None if data is None else (hand, data)


async def _offer(tg: FakeTelegramServer, group: FakeChat, user: FakeUser) -> FakeMessage:
    """The offer made to `user`; asked again, as they would, when none came."""
    for _ in range(6):
        try:
            return await tg.wait_for(lambda: next(iter(_offers(tg, group, user)), None), 15)
        except TimeoutError:
            tg.user_sends(group, user, "/daily")
    raise AssertionError(f"{user.first_name} was never offered the deal")


async def _their_hand(tg: FakeTelegramServer, group: FakeChat, user: FakeUser) -> tuple[FakeMessage, str]:
    """The hand of `user`'s deal, after a kill: Deal tapped again on an offer that still shows it,
    or /daily asked again, as the player would when no hand came."""
    for _ in range(8):
        try:
            return await tg.wait_for(lambda: _card(tg, user), 15)
        except TimeoutError:
            offers = _offers(tg, group, user)
            if offers:
                await answered(tg, tg.tap(group, offers[0], user, "Deal"))
            else:
                tg.user_sends(group, user, "/daily")
    said = [(m.message_id, shown(m)[:60], m.callback_data[:2]) for m in bot_messages(tg, user)]
    raise AssertionError(f"{user.first_name}'s deal never came: {said}")


def _deals(db: Path, user: FakeUser) -> tuple[int, int]:
    """The days `user` claimed, and the games they sit in."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        claims = conn.execute("SELECT COUNT(*) FROM daily_plays d JOIN players p ON p.id=d.player_id "
                              "WHERE p.user_key=?", (str(user.id),)).fetchone()[0]
        games = conn.execute("SELECT COUNT(DISTINCT s.game_id) FROM seats s JOIN players p "
                             "ON p.id=s.player_id WHERE p.user_key=?", (str(user.id),)).fetchone()[0]
    return int(claims), int(games)


async def _killed(bot: subprocess.Popen[bytes], tg: FakeTelegramServer, db: Path, log: Path
                  ) -> subprocess.Popen[bytes]:
    bot.kill()
    await asyncio.to_thread(bot.wait)
    assert bot.returncode == -signal.SIGKILL
    bot = _launch(tg, db, log)
    await _polling(tg, tg.request_counts["getUpdates"])
    return bot


async def test_the_deal_of_the_day_killed_at_each_step_is_dealt_once(tmp_path: Path) -> None:
    db, log = tmp_path / "bot.db", tmp_path / "bot.log"
    async with FakeTelegramServer() as tg:
        players = [tg.add_user(f"Player{n}") for n in range(len(KILLS))]
        group = tg.add_group("Friends", members=players)
        sessions = await open_sessions(str(db))
        await sessions.settings.set_chat_language(ChatRef(PLATFORM, str(group.id), "Friends"), "en")
        await sessions.close()
        for player in players:
            tg.user_starts_bot(player)
        bot = _launch(tg, db, log)
        try:
            for player, (step, delay) in zip(players, KILLS, strict=True):
                await _polling(tg, tg.request_counts["getUpdates"])
                tg.user_sends(group, player, "/daily")
                if step == "ask":
                    await asyncio.sleep(delay)
                    bot = await _killed(bot, tg, db, log)
                offer = await _offer(tg, group, player)
                assert _deals(db, player) == (0, 0), "nothing dealt before the tap"
                tg.tap(group, offer, player, "Deal")
                if step == "tap":
                    await asyncio.sleep(delay)
                    bot = await _killed(bot, tg, db, log)
                hand, data = await _their_hand(tg, group, player)
                assert _deals(db, player) == (1, 1), f"dealt once, killed at {step} + {delay} s"
                await tg.wait_for(lambda p=player, o=offer: f"{p.first_name} is playing the deal of the day"
                                  in shown(tg.message(group, o.message_id)), 30,
                                  what="the offer become the group's line")
                played = await answered(tg, tg.press_button(player, hand, player, data))
                assert not played.show_alert or "out of date" in (played.answer_text or "")
                tg.user_sends(player, player, "/daily")
                await tg.wait_for_message(player, contains="is under way", timeout=30)
                assert _deals(db, player) == (1, 1), "asked again: the same deal"
            await _polling(tg, tg.request_counts["getUpdates"])
        finally:
            bot.send_signal(signal.SIGTERM)
            await asyncio.to_thread(bot.wait, 30)
        assert bot.returncode == 0
        for player in players:
            assert _deals(db, player) == (1, 1)
            assert not any("one attempt a day" in shown(m) for m in bot_messages(tg, player)), \
                "a deal never lost to a kill: nobody is told they had it already"
