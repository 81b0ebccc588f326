"""A brisk 4-player scopone against the real `scopa-bot telegram`, killed with SIGKILL mid-match and
started again at once: every play (each scopa and settebello among them) still reaches the
group's messages, and the group never gets more than Telegram's 20 sends and edits in a minute,
counted across the kill."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.adapters.telegram.recap import compact
from bot.app import open_sessions
from bot.render.words import play_line_of
from bot.sessions import ChatRef

from ..fakes.telegram_server import FakeTelegramServer
from ..telegram_helpers import Taps, answered, match_over, play_until_over, shown
from .test_telegram_brisk_group import every_play, folded, group_said
from .test_telegram_restart import _launch, _polling

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


@pytest.mark.timeout(300)
async def test_a_brisk_scopone_killed_mid_match_loses_no_play_and_keeps_the_groups_minute(
        tmp_path: Path) -> None:
    db, log = tmp_path / "bot.db", tmp_path / "bot.log"
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = tg.add_group("Friends", members=[alice, bob])
        sessions = await open_sessions(str(db))
        chat = ChatRef(PLATFORM, str(group.id), "Friends")
        await sessions.settings.set_chat_language(chat, "en")
        await sessions.close()
        for user in (alice, bob):
            tg.user_starts_bot(user)

        first = _launch(tg, db, log)
        try:
            await _polling(tg, 0)
            tg.user_sends(group, alice, "/newgame scopone")
            lobby = await tg.wait_for_message(group, contains="New game", timeout=20)
            assert not (await answered(tg, tg.tap(group, lobby, bob, "Join"), 20)).show_alert
            for _ in range(2):
                assert not (await answered(tg, tg.tap(group, lobby, alice, "🤖 easy"), 20)).show_alert
            await tg.wait_for(lambda: shown(lobby).count("🤖") >= 2, 20, what="two computers seated")
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"), 20)).show_alert
            taps = await play_until_over(tg, group, [alice, bob], Taps(), stop_after=8, timeout=60)
        finally:
            first.kill()
            await asyncio.to_thread(first.wait)
        assert first.returncode == -signal.SIGKILL

        polls = tg.request_counts["getUpdates"]
        second = _launch(tg, db, log)
        try:
            await _polling(tg, polls)
            await play_until_over(tg, group, [alice, bob], taps, timeout=90, stale_ok=True)
            await tg.wait_for(lambda: match_over(tg, group), 120, what="the end of the match")
            await tg.wait_for(lambda: "Match over." in "\n".join(text for _, text in group_said(tg, group)),
                              90, what="the final table")
        finally:
            second.send_signal(signal.SIGTERM)
            await asyncio.to_thread(second.wait, 30)
        assert second.returncode == 0

    sessions = await open_sessions(str(db))
    try:
        table, plays = await every_play(sessions, 1)
    finally:
        await sessions.close()
    everything = "\n".join(text for _, text in group_said(tg, group))
    missing = [line for line in plays
               if compact(line, "en", table) not in everything
               and play_line_of(line.play, "en", table.deck_style, table.variant) not in everything]
    busiest = tg.busiest_minute(group)
    print(f"{len(plays)} plays, {sum(line.play.scopa for line in plays)} scope, "
          f"{sum(line.matters for line in plays)} that matter; {len(group_said(tg, group))} group sends "
          f"and edits; busiest minute {busiest}; missing {len(missing)}")
    assert [line for line in missing if line.matters] == [], "each scopa and settebello reached the group"
    assert len(missing) <= folded(everything), \
        f"every play reached the group, or was counted in one ({len(missing)} of {len(plays)} did not)"
    assert busiest <= 20
