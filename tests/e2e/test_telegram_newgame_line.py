"""/newgame's typed options and names that carry direction controls, against the fake Bot API server."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.sessions import ChatRef
from bot.sessions.names import FSI, PDI

from ..fakes.telegram_server import FakeTelegramServer
from ..telegram_helpers import (
    answered,
    bot_messages,
    friends_group,
    running_bot,
    shown,
    table_message,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

RLO = "\u202e"


async def test_newgame_with_options_opens_that_lobby_and_a_wrong_one_opens_nothing(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        lucia = tg.add_user("Lucia", language_code="it")
        italians = friends_group(tg, lucia)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            chat = ChatRef(PLATFORM, str(group.id))
            await bot.sessions.settings.set_chat_language(chat, "en")
            tg.user_sends(group, alice, "/newgame scopa target=1000")
            refused = shown(await tg.wait_for_message(group, contains="target=1000"))
            assert "target takes 8, 11, 15, 16, 21, 31" in refused and "Nothing was opened" in refused
            assert "I do not know the game" not in refused and "no game called" not in refused
            tg.user_sends(group, alice, "/newgame scopa colour=red")
            unknown = shown(await tg.wait_for_message(group, contains="colour"))
            assert "no option “colour”" in unknown and "target" in unknown
            tg.user_sends(group, alice, "/newgame scopa target 21")
            await tg.wait_for_message(group, contains="write each option as name=value")
            assert await bot.sessions.queries.open_game_id(chat) is None, "no lobby from a wrong line"
            assert not any("New game" in shown(m) for m in bot_messages(tg, group))

            tg.user_sends(group, alice, "/newgame scopa target=21 deck=piacentine practice=on")
            lobby = await tg.wait_for_message(group, contains="New game of Scopa")
            await tg.wait_for(lambda: "Target 21" in shown(lobby), what="the target in the lobby")
            assert "Piacentine" in shown(lobby) and (await bot.sessions.queries.lobby(chat)).rules.practice

            tg.user_sends(italians, lucia, "/newgame scopa punti=1000")
            said = shown(await tg.wait_for_message(italians, contains="target=1000"))
            assert "può essere 8, 11, 15, 16, 21, 31" in said and "Non ho aperto nessuna partita" in said
            assert await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(italians.id))) is None

            tg.user_sends(group, bob, "/help")
            helped = shown(await tg.wait_for_message(group, contains="/newgame [variant] [name=value"))
            assert "round_limit" in helped and len(helped) <= 4096


async def test_a_scoreline_keeps_each_score_after_its_own_name(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        eve, adi = tg.add_user(f"Eve{RLO}"), tg.add_user("עדי")
        group = friends_group(tg, eve, adi)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            chat = ChatRef(PLATFORM, str(group.id))
            await bot.sessions.settings.set_chat_language(chat, "en")
            await bot.sessions.settings.set_pictures(chat, False)
            tg.user_sends(group, eve, "/newgame")
            lobby = await tg.wait_for_message(group, contains="New game")
            assert not (await answered(tg, tg.tap(group, lobby, adi, "Join"))).show_alert
            await tg.wait_for(lambda: f"2. {FSI}עדי{PDI}" in shown(lobby), what="the seat taken")
            assert "1. Eve" in shown(lobby) and RLO not in shown(lobby)
            assert not (await answered(tg, tg.tap(group, lobby, eve, "Start"))).show_alert
            await tg.wait_for(lambda: "Score:" in shown(table_message(tg, group)), what="the table")
            table = shown(table_message(tg, group))
            assert f"Score: Eve 0 · {FSI}עדי{PDI} 0" in table
            assert all(RLO not in shown(m) for m in tg.messages(group, include_deleted=True, from_bot=True))
