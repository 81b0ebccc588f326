"""What players read on Telegram: counts that agree, sweeps named by the game, the card legend
once, and a barred card that says why in the words Discord uses too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.adapters.telegram.identity import PLATFORM
from bot.render.words import blocked_text, refusal_text
from bot.sessions import ChatRef, Sessions, UserRef
from bot.sessions.interaction import blocked_cards

from ..fakes.telegram_server import FakeChat, FakeMessage, FakeTelegramServer, FakeUser
from ..telegram_helpers import answered, friends_group, hand_message, play_until_over, running_bot, shown

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

BLOCKING_SEED = "0000000000000001"
"""A deal where the first to play must capture with the 9 of coins: the re and the 6 cannot be played."""


def _ref(user: FakeUser) -> UserRef:
    return UserRef(PLATFORM, str(user.id), user.first_name)


async def _started(tg: FakeTelegramServer, group: FakeChat, creator: FakeUser, joiner: FakeUser,
                   command: str = "/newgame", join: str = "Join", start: str = "Start",
                   options: dict[str, str] | None = None, sessions: Sessions | None = None) -> None:
    tg.user_sends(group, creator, command)
    lobby = await tg.wait_for_message(group)
    for key, value in (options or {}).items():
        assert sessions is not None
        await sessions.lobby.set_option(ChatRef(PLATFORM, str(group.id)), _ref(creator), key, value)
    assert not (await answered(tg, tg.tap(group, lobby, joiner, join))).show_alert
    await tg.wait_for(lambda: joiner.first_name in (lobby.text or lobby.caption or ""))
    assert not (await answered(tg, tg.tap(group, lobby, creator, start))).show_alert


async def test_a_spanish_group_that_plays_escoba_reads_escobas_and_counts_that_agree(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        ana, luis = tg.add_user("Ana", language_code="es"), tg.add_user("Luis", language_code="es")
        group = friends_group(tg, ana, luis)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await _started(tg, group, ana, luis, "/newgame escoba", "Unirme", "Empezar",
                           {"round_limit": "1"}, bot.sessions)
            await play_until_over(tg, group, [ana, luis], timeout=30.0)
            tg.user_sends(group, ana, "/leaderboard")
            board = shown(await tg.wait_for_message(group, contains="Clasificación"))
            assert re.search(r"\d+ escobas?\b", board) and "scope" not in board and "scopa" not in board
            assert board.count("1 partida,") == 2, board
            assert "1 ganada (100%)" in board and "0 ganadas (0%)" in board
            tg.user_sends(group, luis, "/leaderboard todos")
            everyone = shown(await tg.wait_for_message(group, contains="Clasificación — todos"))
            assert "Ana" in everyone and "Luis" in everyone, "Spanish asks for everyone's board in Spanish"
            tg.user_sends(group, luis, "/stats")
            stats = shown(await tg.wait_for_message(group, contains="📈 Luis"))
            assert "1 partida, " in stats and "escoba" in stats and "scope" not in stats
            assert re.search(r"\b1 punto\b|\b\d+ puntos\b|\b0 puntos\b", stats), stats


def _barred(message: FakeMessage | None) -> FakeMessage | None:
    return message if message and any(b["text"].startswith("🚫 ") for b in message.buttons) else None


async def test_the_legend_comes_once_and_a_barred_card_says_why(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.sessions.lobby.secrets.token_hex", lambda _: BLOCKING_SEED)
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            await _started(tg, group, alice, bob)
            player = (alice, bob)[(await bot.sessions.queries.table(1)).to_play]
            hand = await tg.wait_for(lambda: _barred(hand_message(tg, player, 1)), what="a barred card")
            view = await bot.sessions.queries.hand(1, _ref(player))
            barred = blocked_cards(view)
            assert shown(hand).count("A = asso") == 1, "the legend, once, with the first hand"
            assert blocked_text(view, "en") in shown(hand), "the hand names the barred cards"
            button = next(b for b in hand.buttons if b["text"].startswith("🚫 "))
            record = await answered(tg, tg.press_button(player, hand, player, button["callback_data"]))
            why = refusal_text(barred[0].refusal(), "en")
            assert record.show_alert and record.answer_text == why and why.startswith("You must capture: ")
            assert (await bot.sessions.queries.table(1)).version == 0, "nothing was played"

            play = next(d for d in hand.callback_data if d.startswith(("p|", "h|")))
            assert not (await answered(tg, tg.press_button(player, hand, player, play))).show_alert
            if play.startswith("h|"):
                choice = await tg.wait_for(lambda: next((d for d in hand.callback_data if d.startswith("p|")),
                                                        None), what="the captures to choose from")
                assert not (await answered(tg, tg.press_button(player, hand, player, choice))).show_alert
            await tg.wait_for(lambda: "A = asso" not in shown(hand_message(tg, player, 1)),
                              what="the hand without the legend after the first play")
            assert all("A = asso" not in shown(message) for message in tg.messages(player, from_bot=True)
                       if message is not hand and "(Scopa" in shown(message))


async def test_newgame_of_an_unknown_game_lists_the_games_one_can_start(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        alice, bob = tg.add_user("Alice"), tg.add_user("Bob", language_code="it")
        group = friends_group(tg, alice, bob)
        async with running_bot(tg, tmp_path / "bot.db") as bot:
            tg.user_sends(group, alice, "/newgame poker")
            refused = shown(await tg.wait_for_message(group, contains="no game called “poker”"))
            assert "You can play: Scopa, Scopone, Scopone scientifico, Escoba." in refused
            assert "variant=" not in refused
            assert await bot.sessions.queries.open_game_id(ChatRef(PLATFORM, str(group.id))) is None
            tg.user_sends(group, alice, "/newgame scopone scientifico")
            await tg.wait_for_message(group, contains="New game of Scopone scientifico")
