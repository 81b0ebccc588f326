"""The card legend (what F/C/R, J/Q/K and the suit signs mean) for /help and a player's
first hand: the shared renderer's `card_legend`, with the catalogue's own legend until the
renderer offers it."""

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
    ranks = t(lang, "terminal.legend_ranks_french" if style == "french" else "terminal.legend_ranks_italian")
    return t(lang, "terminal.legend", ranks=ranks, suits=t(
        lang, "terminal.legend_suits", denari=suits[Suit.DENARI], coppe=suits[Suit.COPPE],
        spade=suits[Suit.SPADE], bastoni=suits[Suit.BASTONI]))
