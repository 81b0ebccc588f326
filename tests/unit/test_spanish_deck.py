"""The Spanish deck (baraja española): offered in every lobby, an escoba's deck in a Spanish
chat, drawn with the numbers its players know (sota 10, caballo 11, rey 12) and written with
S, C and R, while every card keeps the value the game counts it at."""

from __future__ import annotations

import discord
from PIL import ImageChops

from bot.adapters.discord.components import lobby_components
from bot.engine import DECK, Card
from bot.pictures import Style
from bot.pictures.cards import card_image, rank_label
from bot.render.words import card_legend, cards_text
from bot.sessions import ChatRef, Sessions, UserRef
from bot.sessions.options import DECK_STYLES, PLAYER_RANGE, VARIANTS, options_for

SPANISH_CHAT = ChatRef("test", "grupo-1", "Amigos")
LUCIA = UserRef("test", "es1", "Lucía", "es")
ITALIAN_CHAT = ChatRef("test", "gruppo-1", "Amici")
ANNA = UserRef("test", "it1", "Anna", "it")


def test_the_spanish_deck_is_offered_in_every_lobby() -> None:
    assert "spanish" in DECK_STYLES
    for variant in VARIANTS:
        deck = next(o for o in options_for(variant) if o.key == "deck_style")
        assert "spanish" in deck.values


def test_its_figures_read_as_spanish_players_know_them_and_count_as_before() -> None:
    sota, caballo, rey = (Card.parse(code) for code in ("8D", "9C", "10S"))
    assert [rank_label(c, Style.SPANISH) for c in (sota, caballo, rey)] == ["10", "11", "12"]
    assert [c.rank for c in (sota, caballo, rey)] == [8, 9, 10]
    assert cards_text((sota, caballo, rey, Card.parse("1B")), "spanish") == "S🪙 C🍷 R🗡️ A🪵"
    legend = card_legend("spanish", "es")
    assert "S = sota (la 10, vale 8)" in legend and "R = rey (el 12, vale 10)" in legend
    assert "🪙 oros, 🍷 copas, 🗡️ espadas, 🪵 bastos" in legend
    assert "S = sota" in card_legend("spanish", "it") and "S = sota" in card_legend("spanish", "en")
    assert "F = " in card_legend("napoletane", "es")


def test_every_spanish_card_is_drawn_and_differs_from_the_neapolitan() -> None:
    faces = [card_image(card, Style.SPANISH, 76) for card in DECK]
    assert len({face.tobytes() for face in faces}) == 40
    for card in (Card.parse("7D"), Card.parse("8C"), Card.parse("3B")):
        spanish = card_image(card, Style.SPANISH, 76).convert("RGB")
        neapolitan = card_image(card, Style.NAPOLETANE, 76).convert("RGB")
        assert ImageChops.difference(spanish, neapolitan).getbbox() is not None


async def test_an_escoba_in_a_spanish_chat_is_dealt_with_the_spanish_deck(memory_sessions: Sessions) -> None:
    escoba = await memory_sessions.lobby.new_game(SPANISH_CHAT, LUCIA, "escoba")
    assert escoba.deck_style == "spanish"
    scopa = await memory_sessions.lobby.set_option(SPANISH_CHAT, LUCIA, "variant", "scopa")
    assert scopa.deck_style == "napoletane"
    again = await memory_sessions.lobby.set_option(SPANISH_CHAT, LUCIA, "variant", "escoba")
    assert again.deck_style == "spanish"
    chosen = await memory_sessions.lobby.set_option(SPANISH_CHAT, LUCIA, "deck_style", "piacentine")
    assert (await memory_sessions.lobby.set_option(SPANISH_CHAT, LUCIA, "variant", "scopa")).deck_style == \
        chosen.deck_style == "piacentine"
    italian = await memory_sessions.lobby.new_game(ITALIAN_CHAT, ANNA, "escoba")
    assert italian.deck_style == "napoletane"


async def test_every_discord_lobby_menu_stays_within_25_entries(memory_sessions: Sessions) -> None:
    for variant in VARIANTS:
        lobby = await memory_sessions.lobby.new_game(SPANISH_CHAT, LUCIA, variant)
        low, high = PLAYER_RANGE[variant]
        for players in range(low, high + 1):
            lobby = await memory_sessions.lobby.set_option(SPANISH_CHAT, LUCIA, "players", players)
            for item in lobby_components(lobby, "es").children:
                if isinstance(item, discord.ui.Select):
                    assert len(item.options) <= 25, (variant, players, item.custom_id)
        await memory_sessions.lobby.cancel(SPANISH_CHAT, LUCIA)
