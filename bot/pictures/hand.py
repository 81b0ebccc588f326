"""A player's hand as a picture: cards playable now drawn plainly, the others dimmed,
each numbered like the button that plays it."""

from __future__ import annotations

from PIL import Image, ImageDraw

from ..i18n import t
from .cards import card_height, card_image
from .felt import GOLD, LIGHT, MUTED, PANEL, dimmed, felt, write
from .scenes import HandScene

PAD = 30
GAP = 14
WIDTHS = (150, 130, 108)
"""A card's width in a hand of up to 5, up to 7, and more cards."""


def hand_picture(scene: HandScene, lang: str = "it") -> Image.Image:
    count = max(1, len(scene.cards))
    width_each = WIDTHS[0] if count <= 5 else (WIDTHS[1] if count <= 7 else WIDTHS[2])
    card_h = card_height(width_each)
    width = max(560, 2 * PAD + count * width_each + (count - 1) * GAP)
    top = 66
    height = top + card_h + 78
    image = felt(width, height)
    draw = ImageDraw.Draw(image)
    title = t(lang, "pictures.hand.title")
    note = t(lang, "pictures.hand.your_turn" if scene.my_turn else "pictures.hand.wait")
    write(draw, (PAD, 38), title, 26, LIGHT, "lm", bold=True)
    write(draw, (width - PAD, 38), note, 22, GOLD if scene.my_turn else MUTED, "rm")
    if not scene.cards:
        write(draw, (width / 2, top + card_h / 2), t(lang, "pictures.hand.empty"), 24, MUTED, "mm")
    x = (width - (len(scene.cards) * width_each + (len(scene.cards) - 1) * GAP)) / 2
    for number, card in enumerate(scene.cards, 1):
        playable = card in scene.playable
        face = (
            card_image(card, scene.style, width_each) if playable else dimmed(card, scene.style, width_each)
        )
        image.paste(face, (round(x), top), face)
        centre = (x + width_each / 2, top + card_h + 34)
        r = 20
        draw.ellipse(
            (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r),
            fill=GOLD if playable else PANEL,
            outline=None if playable else MUTED,
            width=2,
        )
        write(draw, centre, str(number), 24, "#2a1d12" if playable else MUTED, "mm", bold=True)
        x += width_each + GAP
    return image
