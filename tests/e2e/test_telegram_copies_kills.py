"""`scopa-bot telegram` killed with SIGKILL at eight moments after the last card of a round, from
0.02 s to 2 s after it was played, and started again: every time each player gets their private
copy of the round's breakdown exactly once (and the group its breakdown once)."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.app import open_sessions
from bot.sessions import ChatRef, UserRef

from ..fakes.telegram_server import FakeChat, FakeTelegramServer, FakeUser
from ..sessions_helpers import play_one, start_duel
from ..telegram_helpers import answered, bot_messages, newest_hand, shown
from .test_telegram_restart import _launch, _polling

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

KILLED_AFTER = (0.02, 0.05, 0.1, 0.2, 0.35, 0.6, 1.0, 2.0)
"""Seconds from the round's last card to the kill: while the move is stored, the breakdown and
its private copies sent, and the next round's hands drawn."""
BREAKDOWN = "📊"


def _breakdowns(tg: FakeTelegramServer, chat: FakeChat | FakeUser) -> list[str]:
    return [shown(m) for m in bot_messages(tg, chat) if shown(m).startswith(BREAKDOWN)]


async def _round_about_to_end(db: Path, chat: ChatRef, users: tuple[UserRef, UserRef]) -> tuple[int, int]:
    """A match of the group played beside the running bot (the same SQLite file) up to the last
    card of its first round; the seat that plays it."""
    sessions = await open_sessions(str(db))
    try:
        await sessions.settings.set_chat_language(chat, "en")
        for user in users:
            await sessions.settings.set_can_dm(user, True)
        game_id = await start_duel(sessions, chat, *users)
        while True:
            table = await sessions.queries.table(game_id)
            if table.stock_count == 0 and sum(table.hand_counts) == 1:
                return game_id, table.to_play
            await play_one(sessions, game_id, *users)
    finally:
        await sessions.close()


async def _round_ended(tg: FakeTelegramServer, user: FakeUser, group: FakeChat, data: str) -> None:
    """Until the round's breakdown is in the group; a tap the killed process took and never
    answered is tapped again, as its player would, on the hand that still offers it."""
    for _ in range(12):
        try:
            await tg.wait_for(lambda: _breakdowns(tg, group), 5)
            return
        except TimeoutError:
            hand = newest_hand(tg, user)
            if hand is not None and data in hand.callback_data:
                await answered(tg, tg.press_button(user, hand, user, data))
    raise AssertionError("the round never ended")


async def test_the_private_copies_of_a_round_end_killed_at_any_moment_are_sent_once(tmp_path: Path) -> None:
    db, log = tmp_path / "bot.db", tmp_path / "bot.log"
    async with FakeTelegramServer() as tg:
        bot = _launch(tg, db, log)
        players: list[tuple[FakeUser, FakeUser, FakeChat]] = []
        try:
            for count, delay in enumerate(KILLED_AFTER, 1):
                alice, bob = tg.add_user(f"Alice{count}"), tg.add_user(f"Bob{count}")
                group = tg.add_group(f"Friends {count}", members=[alice, bob])
                players.append((alice, bob, group))
                users = (UserRef(PLATFORM, str(alice.id), alice.first_name),
                         UserRef(PLATFORM, str(bob.id), bob.first_name))
                _, seat = await _round_about_to_end(db, ChatRef(PLATFORM, str(group.id), group.title), users)
                last = (alice, bob)[seat]
                await _polling(tg, tg.request_counts["getUpdates"])
                tg.user_starts_bot(bob if last is alice else alice)
                tg.user_starts_bot(last)
                card = await tg.wait_for(lambda u=last: (h := newest_hand(tg, u)) and next(
                    (d for d in h.callback_data if d.startswith("p|")), None) and h, 60,
                    what=f"the last card of round 1, match {count}")
                data = next(d for d in card.callback_data if d.startswith("p|"))
                tg.press_button(last, card, last, data)
                await asyncio.sleep(delay)
                bot.kill()
                await asyncio.to_thread(bot.wait)
                assert bot.returncode == -signal.SIGKILL
                bot = _launch(tg, db, log)
                await _polling(tg, tg.request_counts["getUpdates"])
                await _round_ended(tg, last, group, data)
                for chat in (alice, bob, group):
                    await tg.wait_for(lambda c=chat: _breakdowns(tg, c), 90,
                                      what=f"round 1's breakdown, killed {delay} s after its last card")
            await _polling(tg, tg.request_counts["getUpdates"])
            sessions = await open_sessions(str(db))
            try:
                await tg.wait_for(lambda: True, 1)
                for _ in range(60):
                    if not await sessions.delivery.owed_notices(PLATFORM):
                        break
                    await asyncio.sleep(1)
                assert not await sessions.delivery.owed_notices(PLATFORM), "every breakdown posted"
            finally:
                await sessions.close()
        finally:
            bot.send_signal(signal.SIGTERM)
            await asyncio.to_thread(bot.wait, 30)
        assert bot.returncode == 0

        for alice, bob, group in players:
            for chat in (alice, bob, group):
                assert len(_breakdowns(tg, chat)) == 1, (chat, _breakdowns(tg, chat))
            for user in (alice, bob):
                copy = next(m for m in bot_messages(tg, user) if shown(m).startswith(BREAKDOWN))
                assert copy.silent, "a private copy does not ring"
