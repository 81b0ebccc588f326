"""A Spanish group plays escoba on Telegram as Spanish players know it: the Spanish deck in every
picture and button, the lobby, /help and /rules in escoba's own words, and each round and the
match told with their winner as subject."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.adapters.telegram.identity import PLATFORM
from bot.pictures import lobby_picture, lobby_scene, photo_bytes
from bot.sessions import ChatRef, UserRef

from ..fakes.telegram_server import FakeTelegramServer
from ..telegram_helpers import (
    answered,
    bot_messages,
    friends_group,
    hand_message,
    match_over,
    play_until_over,
    running_bot,
    shown,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

SPANISH_CARD = re.compile(r"(?<![\w])([0-9]|[ASCRFJQK])(🪙|🍷|🗡️|🪵|🟡|🏆|⚔️)")
ITALIAN_WORDS = ("fuori", "Ganadas", "ganadas", "Bazas", "bazas", "CPU", "Primiera: más sietes",
                 "aquí en privado")


async def test_a_spanish_group_plays_escoba_with_the_spanish_deck_and_words(tmp_path: Path) -> None:
    async with FakeTelegramServer() as tg:
        ana, luis = tg.add_user("Ana", language_code="es"), tg.add_user("Luis", language_code="es")
        group = friends_group(tg, ana, luis)
        async with running_bot(tg, tmp_path / "bot.db", pictures=True) as bot:
            tg.user_sends(group, ana, "/newgame escoba")
            lobby = await tg.wait_for_message(group, contains="Escoba")
            assert lobby.photo is not None
            assert lobby.photo["data"] == photo_bytes(lobby_picture(lobby_scene("spanish"), "es")), \
                "the lobby shows the Spanish deck"
            said = shown(lobby)
            assert "Cartas: Españolas" in said and "Los sietes (la setenta)" in said
            assert "Qué se lleva: lo elige quien juega" in said

            tg.user_sends(group, luis, "/help")
            help_text = shown(await tg.wait_for_message(group, contains="S = sota"))
            assert "S = sota (la 10, vale 8), C = caballo (el 11, vale 9), R = rey (el 12, vale 10)" \
                in help_text
            assert "🪙 oros, 🍷 copas, 🗡️ espadas, 🪵 bastos" in help_text
            tg.user_sends(group, luis, "/rules")
            rules = shown(await tg.wait_for_message(group, contains="Escoba: de 2 a 6"))
            assert "la sota (la 10) vale 8" in rules and "los sietes (la setenta" in rules

            chat, creator = ChatRef(PLATFORM, str(group.id)), UserRef(PLATFORM, str(ana.id), "Ana")
            await bot.sessions.lobby.set_option(chat, creator, "round_limit", "1")
            assert not (await answered(tg, tg.tap(group, lobby, luis, "Unirme"))).show_alert
            await tg.wait_for(lambda: "2. Luis" in shown(lobby), what="Luis in the lobby")
            assert not (await answered(tg, tg.tap(group, lobby, ana, "Empezar"))).show_alert
            hand = await tg.wait_for(lambda: hand_message(tg, ana, 1), what="Ana's hand")
            assert hand.photo is not None and "S = sota" in shown(hand), "the first hand explains the cards"
            labels = {sign for text in hand.button_texts for _, sign in SPANISH_CARD.findall(text)}
            assert labels and labels <= {"🪙", "🍷", "🗡️", "🪵"}, hand.button_texts
            assert (await bot.sessions.queries.table(1)).deck_style == "spanish"

            await play_until_over(tg, group, [ana, luis], timeout=30.0)
            ended = await tg.wait_for(
                lambda: next((m for m in bot_messages(tg, group) if "Fin de la ronda 1" in shown(m)), None),
                what="the end of the round")
            assert ended.photo is not None and Image.open(io.BytesIO(ended.photo["data"])).width == 720
            caption = shown(ended).splitlines()
            assert any(re.fullmatch(r"(Ana|Luis) gana la ronda \d+ a \d+|Empate en la ronda, \d+ a \d+", line)
                       for line in caption), caption
            end = match_over(tg, group)
            assert end is not None and re.search(r"(Ana|Luis) gana la partida \d+ a \d+", shown(end))
            everything = " ".join(shown(m) + " " + " ".join(m.button_texts)
                                  for place in (group, ana, luis) for m in bot_messages(tg, place))
            assert "/newgame [juego]" in everything, "the help is read too"
            assert "Los sietes (la setenta)" in everything
            for word in ITALIAN_WORDS:
                assert word not in everything, word
            figures = {letter for letter, _ in SPANISH_CARD.findall(everything)}
            assert "F" not in figures and not figures & {"J", "Q", "K"}, "sota, caballo, rey: S, C, R"
