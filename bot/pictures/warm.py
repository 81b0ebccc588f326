"""Drawing every card a picture may need ahead of the first game in a style: a card
takes a few milliseconds to draw and is then kept."""

from __future__ import annotations

from ..engine import DECK
from . import hand, lobby, score, seat, table
from .cards import card_image
from .felt import dimmed
from .styles import Style


def warm_up(style: Style) -> None:
    for card in DECK:
        for width in {table.CARD, table.SMALL, seat.TABLE_CARD, seat.PLAY_CARD, lobby.CARD}:
            card_image(card, style, width)
        for width in (hand.CARD, seat.HAND_CARD):
            card_image(card, style, width)
            dimmed(card, style, width)
    for card in score.MARKER_CARDS.values():
        card_image(card, style, score.MINI)
