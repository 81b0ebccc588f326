"""A lobby's picture: a few cards of the deck the game will be played with, fanned out, under
the deck's name. Nobody holds cards yet, so it shows no hand and no turn."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from ..engine import Card
from ..i18n import t
from .cards import card_height, card_image
from .felt import LIGHT, felt, write
from .scenes import LobbyScene
from .styles import Style

SAMPLE = tuple(Card.parse(code) for code in ("1D", "7D", "8C", "9S", "10B"))
"""An ace, the settebello and the three figures: one card of each suit among them."""
WIDTH = 560
CARD = 108
SPREAD = 9.0
"""Degrees between two cards of the fan."""
STEP = 84
TOP = 78


def lobby_picture(scene: LobbyScene, lang: str = "it") -> Image.Image:
    return _drawn(scene.style, lang).copy()


@lru_cache(maxsize=64)
def _drawn(style: Style, lang: str) -> Image.Image:
    card_h = card_height(CARD)
    image = felt(WIDTH, TOP + card_h + 74)
    draw = ImageDraw.Draw(image)
    title = t(lang, "pictures.sheet", deck=t(lang, f"deck.{style.value}"))
    write(draw, (WIDTH / 2, 44), title, 28, LIGHT, "mm", bold=True)
    middle = (len(SAMPLE) - 1) / 2
    for index, card in enumerate(SAMPLE):
        turn = (index - middle) * SPREAD
        face = card_image(card, style, CARD).rotate(-turn, Image.Resampling.BICUBIC, expand=True)
        cx = WIDTH / 2 + (index - middle) * STEP
        cy = TOP + card_h / 2 + abs(index - middle) ** 2 * 7
        image.paste(face, (round(cx - face.width / 2), round(cy - face.height / 2)), face)
    return image
