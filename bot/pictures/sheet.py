"""All 40 cards of a style on one sheet, a row per suit."""

from __future__ import annotations

from PIL import Image, ImageDraw

from ..engine import DECK
from ..i18n import t
from .cards import card_height, card_image
from .felt import LIGHT, felt, write
from .styles import Style

CARD = 88
GAP = 8
PAD = 26


def deck_sheet(style: Style, lang: str = "it") -> Image.Image:
    card_h = card_height(CARD)
    width = 2 * PAD + 10 * CARD + 9 * GAP
    top = 62
    image = felt(width, top + 4 * card_h + 3 * GAP + PAD)
    draw = ImageDraw.Draw(image)
    write(
        draw,
        (PAD, 36),
        t(lang, "pictures.sheet", deck=t(lang, f"deck.{style.value}")),
        26,
        LIGHT,
        "lm",
        bold=True,
    )
    for i, card in enumerate(DECK):
        face = card_image(card, style, CARD)
        image.paste(face, (PAD + (i % 10) * (CARD + GAP), top + (i // 10) * (card_h + GAP)), face)
    return image
