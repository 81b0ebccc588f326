"""The card legend (what F/C/R, J/Q/K and the suit signs mean) for /help and a player's
first hand: the shared renderer's `card_legend` where it has one; the same words from the
Discord catalogue otherwise (the fallback and its `discord.legend.*` keys can go once every
build has `render.card_legend`)."""

from __future__ import annotations

from ... import render
from ...engine import DECK, Suit
from ...i18n import t


def card_legend(style: str, lang: str) -> str:
    shared = getattr(render, "card_legend", None)
    if shared is not None:
        return str(shared(style, lang))
    suits = {suit: render.card_label(next(c for c in DECK if c.suit is suit and c.rank == 2), style)[1:]
             for suit in Suit}
    ranks = t(lang, "discord.legend.ranks_french" if style == "french" else "discord.legend.ranks_italian")
    return t(lang, "discord.legend.text", ranks=ranks, suits=t(
        lang, "discord.legend.suits", denari=suits[Suit.DENARI], coppe=suits[Suit.COPPE],
        spade=suits[Suit.SPADE], bastoni=suits[Suit.BASTONI]))
