"""`scopa-bot telegram` whose SQLite file or log is deleted mid-match: the next tap is answered
"your game is safe" and not taken, and the bot stops with exit code 1 and one line."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..fakes.telegram_server import FakeTelegramServer
from ..telegram_helpers import Taps, answered, card_to_play, play_until_over, shown

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


@pytest.mark.parametrize(("deleted", "said"), [("bot.db", "the database file"),
                                               ("bot.db-wal", "the database's log")])
async def test_a_deleted_database_stops_the_bot_before_it_takes_a_move(tmp_path: Path, deleted: str,
                                                                        said: str) -> None:
    db, log = tmp_path / "bot.db", tmp_path / "bot.log"
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = tg.add_group("Friends", members=[alice, bob])
        for user in (alice, bob):
            tg.user_starts_bot(user)
        env = {**os.environ, "TELEGRAM_TOKEN": tg.token, "TELEGRAM_API_BASE": tg.base_url,
               "SCOPA_DB": str(db), "PYTHONUNBUFFERED": "1"}
        for name in ("DISCORD_TOKEN", "TELEGRAM_WEBHOOK_URL", "TELEGRAM_LISTEN"):
            env.pop(name, None)
        with log.open("wb") as out:
            bot = subprocess.Popen([sys.executable, "-m", "bot", "telegram"], cwd=ROOT, env=env,
                                   stdout=subprocess.DEVNULL, stderr=out)
        try:
            await tg.wait_for(lambda: tg.request_counts["getUpdates"] > 0, 30, what="the bot polling")
            tg.user_sends(group, alice, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game", timeout=10)
            assert not (await answered(tg, tg.tap(group, lobby, bob, "Join"))).show_alert
            await tg.wait_for(lambda: "2. Bob" in shown(lobby))
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"))).show_alert
            taps = await play_until_over(tg, group, [alice, bob], Taps(), stop_after=3)

            user, message, data = await card_to_play(tg, [alice, bob], taps)
            (tmp_path / deleted).unlink()
            refused = await answered(tg, tg.press_button(user, message, user, data))
            assert refused.show_alert and "Your game is safe" in (refused.answer_text or "")
            code = await asyncio.wait_for(asyncio.to_thread(bot.wait), 30)
        finally:
            if bot.poll() is None:
                bot.kill()
                await asyncio.to_thread(bot.wait)
        assert code == 1
        assert data in message.callback_data, "the card was not played: its hand is as it was"
    last = log.read_text(encoding="utf-8").strip().splitlines()[-1]
    assert last.startswith(f"scopa-bot: the database failed ({said} {tmp_path / deleted} was deleted"), last
