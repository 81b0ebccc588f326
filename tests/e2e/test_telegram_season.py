"""/season through the real bot against the fake Bot API: after a match in a group, the month's
standings come as a picture under their caption (in words where the chat has no pictures),
a reply or a typed name gives a player's past seasons, `global` everyone's; when the month turns
(the sessions' clock moved by the test), the group is told its champion once, with the final
standings' picture."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM

from ..sessions_helpers import FakeClock
from ..telegram_helpers import bot_messages, duel, play_until_over

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

NOV_29 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC).timestamp()
DEC_1 = datetime(2026, 12, 1, 0, 5, tzinfo=UTC).timestamp()


async def test_season_standings_history_and_the_champion_told_once(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db", pictures=True, clock=FakeClock(NOV_29)) as game:
        tg, group, alice, bob = game.tg, game.group, game.alice, game.bob
        await play_until_over(tg, group, [alice, bob])

        tg.user_sends(group, alice, "/season")
        board = await tg.wait_for_message(group, contains="Season November 2026")
        assert board.photo is not None, "the standings as a picture"
        caption = board.caption or ""
        assert "Friends" in caption and "December 1 at 00:00 UTC" in caption and "3 points a win" in caption

        said = tg.user_sends(group, bob, "good game")
        tg.user_sends(group, alice, "/season", reply_to=said)
        history = await tg.wait_for_message(group, contains="Seasons of Bob")
        assert "This month so far: place" in (history.text or "")
        assert "No past season yet" in (history.text or "")

        tg.user_sends(group, bob, "/season Zed")
        await tg.wait_for_message(group, contains="Nobody called “Zed”")
        tg.user_sends(group, bob, "/season global")
        everyone = await tg.wait_for_message(group, contains="Season November 2026 · everyone")
        assert everyone.photo is not None or "everyone" in (everyone.text or "")

        game.bot.clock.now = DEC_1
        announce = game.bot.front.seasons.post
        assert await game.bot.sessions.seasons.close_due(PLATFORM, None, announce) == 1
        assert await game.bot.sessions.seasons.close_due(PLATFORM, None, announce) == 0
        told = await tg.wait_for_message(group, contains="The season of November 2026 is over!")
        assert "Champion:" in (told.caption or told.text or "")
        assert told.photo is not None, "with the final standings"
        assert sum("is over!" in (m.caption or m.text or "") for m in bot_messages(tg, group)) == 1

        tg.user_sends(group, alice, "/season last")
        last = await tg.wait_for_message(group, contains="Final standings", after=told)
        assert "Champion:" in (last.caption or last.text or "")
        tg.user_sends(group, alice, "/help")
        await tg.wait_for_message(group, contains="/season last")


async def test_season_in_words_where_the_chat_has_no_pictures(tmp_path: Path) -> None:
    async with duel(tmp_path / "bot.db", clock=FakeClock(NOV_29)) as game:
        game.tg.user_sends(game.group, game.alice, "/season")
        said = await game.tg.wait_for_message(game.group, contains="Season November 2026 · Friends")
        assert said.photo is None
        assert "No rated matches in this season yet" in (said.text or "")
        assert "3 points a win" in (said.text or "")
