"""`scopa-bot telegram` killed with SIGKILL at six moments after a player confirmed /forgetme in
the middle of a match, from at once to 0.8 s later: each time the database holds the player
either whole (nothing erased yet) or erased (neither their name nor their id anywhere, their seat
the computer's), never half of it; after the restart the erasure is made (the tap delivered
again, or pressed again), and the group is told once, by the process that made it or the next."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.app import open_sessions
from bot.sessions import ChatRef, UserRef

from ..fakes.telegram_server import FakeChat, FakeTelegramServer, FakeUser
from ..privacy_helpers import naming, texts
from ..sessions_helpers import play_one, start_duel
from ..telegram_helpers import answered, bot_messages, shown
from .test_telegram_restart import _launch, _polling

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

KILLED_AFTER = (0.0, 0.05, 0.1, 0.2, 0.4, 0.8)
"""Seconds from the confirming tap to the kill: while the tap is read, the erasure written, answered."""


def _state(db: Path, user: FakeUser, game_id: int) -> str:
    """"whole", "erased", or what is half-done."""
    with sqlite3.connect(db) as conn:
        player = conn.execute("SELECT id, display_name FROM players WHERE platform=? AND user_key=?",
                              (PLATFORM, str(user.id))).fetchone()
        seats = conn.execute("SELECT s.player_id, s.computer_level FROM seats s WHERE s.game_id=? "
                             "ORDER BY s.seat", (game_id,)).fetchall()
    if player is not None and player[1] == user.first_name and any(s[0] == player[0] for s in seats):
        return "whole"
    if player is None and sum(1 for s in seats if s[1] is not None) == 1:
        return "erased"
    return f"half: player {player}, seats {seats}"


async def _no_trace(db: Path, user: FakeUser) -> None:
    """Until no text of the database names the user: a drawing of their hand under way at the
    erasure may note it once more, and the erasure's second look (`Privacy.erase_later`) drops it."""
    for _ in range(150):
        left = naming(await texts(db), user.first_name, str(user.id))
        if not left:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{user.first_name} is still named: {left}")


async def _match(db: Path, tg: FakeTelegramServer, user: FakeUser, bob: FakeUser,
                 n: int) -> tuple[int, FakeChat]:
    """A match of `user` and Bob in a group of their own, begun and one move in (the bot stopped)."""
    group = tg.add_group(f"Table {n}", members=[user, bob])
    chat = ChatRef(PLATFORM, str(group.id), f"Table {n}")
    users = UserRef(PLATFORM, str(user.id), user.first_name), UserRef(PLATFORM, str(bob.id), "Bob")
    sessions = await open_sessions(str(db))
    try:
        await sessions.settings.set_chat_language(chat, "en")
        game_id = await start_duel(sessions, chat, *users)
        await play_one(sessions, game_id, *users)
    finally:
        await sessions.close()
    return game_id, group


async def test_forgetme_killed_at_any_moment_is_all_or_nothing(tmp_path: Path) -> None:
    db, log = tmp_path / "bot.db", tmp_path / "bot.log"
    async with FakeTelegramServer() as tg:
        bob = tg.add_user("Bob")
        tg.user_starts_bot(bob)
        bot = None
        try:
            for n, delay in enumerate(KILLED_AFTER):
                user = tg.add_user(f"Zorgplayer{n}")
                tg.user_starts_bot(user)
                game_id, group = await _match(db, tg, user, bob, n)
                bot = _launch(tg, db, log)
                await _polling(tg, tg.request_counts["getUpdates"])
                private = tg.private_chat(user)
                tg.user_sends(private, user, "/forgetme")
                ask = await tg.wait_for(lambda u=user: next((m for m in bot_messages(tg, u)
                                                             if m.callback_data), None), 30,
                                        what="the question of /forgetme")
                assert ask is not None
                [data] = ask.callback_data
                tg.press_button(private, ask, user, data)
                await asyncio.sleep(delay)
                bot.kill()
                await asyncio.to_thread(bot.wait)
                assert bot.returncode == -signal.SIGKILL
                state = _state(db, user, game_id)
                assert state in ("whole", "erased"), f"killed {delay} s after the tap: {state}"

                bot = _launch(tg, db, log)
                await _polling(tg, tg.request_counts["getUpdates"])
                if _state(db, user, game_id) == "whole":
                    # pressed on the copy the player still sees (the bot may edit it meanwhile)
                    record = await answered(tg, tg.forge_callback(private, ask, user, data), 30)
                    # the tap the kill left unanswered may come again first, and make it
                    assert record.answer_text is not None and (
                        "Done" in record.answer_text or record.answer_text == "I keep nothing about you.")
                await tg.wait_for(lambda u=user, g=game_id: _state(db, u, g) == "erased", 30,
                                  what=f"{user.first_name} erased after the restart")
                await _no_trace(db, user)
                told = await tg.wait_for(lambda g=group: [m for m in bot_messages(tg, g)
                                                          if "asked me to forget them" in shown(m)], 30,
                                         what="the group told, by the process that erased or the next")
                assert len(told) == 1, [shown(m) for m in told]
                bot.send_signal(signal.SIGTERM)
                await asyncio.to_thread(bot.wait, 30)
                bot = None
        finally:
            if bot is not None:
                bot.send_signal(signal.SIGTERM)
                await asyncio.to_thread(bot.wait, 30)
        assert any("Done" in shown(m) for m in bot_messages(tg, user))
