"""A brisk 4-player scopone: plays come faster than the group's 20 messages a minute let the table
be drawn, yet every play (each scopa among them) reaches the group's messages, each round's
breakdown comes before the table shows the next round, and the group never gets more than 20
sends and edits in a minute."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.adapters.telegram.recap import compact
from bot.render.words import play_line_of
from bot.sessions import ChatRef, RecapLine, Sessions, TableView
from bot.sessions.recap import match_plays
from bot.sessions.views import PlayLine, seat_name

from ..fakes.telegram_server import FakeChat, FakeTelegramServer
from ..telegram_helpers import answered, friends_group, match_over, play_until_over, running_bot, shown

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

LIMIT, PERIOD = 20, 15.0
"""Telegram's 20 messages a minute per group, with a minute of fifteen seconds: plays four times
quicker than a play a second would take a minute each."""


def group_said(tg: FakeTelegramServer, group: FakeChat) -> list[tuple[float, str]]:
    """What every send and edit the group took said (a text, or a photo's caption), in order."""
    said = []
    for call in tg.calls:
        if not call.ok or str(call.params.get("chat_id")) != str(group.id):
            continue
        if not call.method.lower().startswith(("send", "edit")):
            continue
        media = call.params.get("media")
        caption = json.loads(media).get("caption") if isinstance(media, str) else None
        said.append((call.at, str(call.params.get("text") or call.params.get("caption") or caption or "")))
    return said


def folded(said: str) -> int:
    """How many plays the group's tables said were left out of a recap for want of room."""
    return sum(int(count) for count in re.findall(r"\+(\d+) plays? · ", said))


async def every_play(sessions: Sessions, game_id: int) -> tuple[TableView, list[RecapLine]]:
    row, game = await sessions.games.load(game_id)
    assert game is not None
    names = {seat.seat: seat_name(seat, row.seats) for seat in row.seats}
    lines = [RecapLine(number, PlayLine(play.seat, names[play.seat], play.card, tuple(play.captured),
                                        play.scopa)) for number, play in match_plays(game)]
    return await sessions.queries.table(game_id), lines


async def brisk_scopone(tmp_path: Path, *, pictures: bool) -> None:
    async with FakeTelegramServer(flood_control=True) as tg:
        tg.group_flood_limit = (LIMIT, PERIOD)
        tg.global_flood_limit = (1000, 1.0)
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        options = {"group_rate": (float(LIMIT), PERIOD), "table_delay": 0.05, "pictures": pictures}
        async with running_bot(tg, tmp_path / "bot.db", **options) as bot:
            chat = ChatRef(PLATFORM, str(group.id))
            await bot.sessions.settings.set_chat_language(chat, "en")
            tg.user_sends(group, alice, "/newgame scopone")
            lobby = await tg.wait_for_message(group, contains="New game")
            assert not (await answered(tg, tg.tap(group, lobby, bob, "Join"))).show_alert
            for _ in range(2):
                assert not (await answered(tg, tg.tap(group, lobby, alice, "🤖 easy"), 20)).show_alert
            await tg.wait_for(lambda: shown(lobby).count("🤖") >= 2, 20, what="two computers seated")
            assert not (await answered(tg, tg.tap(group, lobby, alice, "Start"), 20)).show_alert
            await play_until_over(tg, group, [alice, bob], timeout=60)
            await tg.wait_for(lambda: match_over(tg, group), 60, what="the end of the match")
            await bot.front.outbox.drain(3 * PERIOD)
            end = match_over(tg, group)
            assert end is not None
            game_id = int(next(d for d in end.callback_data if d.startswith("R|")).split("|")[1])
            table, plays = await every_play(bot.sessions, game_id)

        said = group_said(tg, group)
        everything = "\n".join(text for _, text in said)
        missing = [line for line in plays
                   if compact(line, "en", table) not in everything
                   and play_line_of(line.play, "en", table.deck_style, table.variant) not in everything]
        assert [line for line in missing if line.matters] == [], "each scopa and settebello reached the group"
        assert len(missing) <= folded(everything), \
        f"every play reached the group, or was counted in one ({len(missing)} of {len(plays)} did not)"
        rounds = max(line.round_number for line in plays)
        for number in range(2, rounds + 1) if not pictures else ():  # a caption does not name its round
            breakdown = next(at for at, text in said if f"End of round {number - 1}" in text)
            drawn = next(at for at, text in said if f"round {number}\n" in text or f"round {number}<" in text)
            assert breakdown <= drawn, f"round {number - 1}'s breakdown before the table of round {number}"
        assert sum(tg.rate_limited_counts.values()) == 0, "no flood error"
        busiest = tg.busiest_minute(group, PERIOD)
        print(f"{len(plays)} plays, {rounds} rounds, {sum(line.play.scopa for line in plays)} scope; "
              f"{len(said)} group sends and edits; busiest minute {busiest}")
        assert len(said) < len(plays) / 2, "play was brisker than the table could be drawn"
        assert busiest <= LIMIT


async def test_every_play_of_a_brisk_scopone_reaches_the_group_within_its_minute(tmp_path: Path) -> None:
    await brisk_scopone(tmp_path, pictures=False)


async def test_every_play_reaches_the_group_under_the_tables_picture_too(tmp_path: Path) -> None:
    await brisk_scopone(tmp_path, pictures=True)
