"""A player's hand as a picture. On the player's turn the cards that cannot be played are
dimmed; while another plays the hand is shown plainly, with whose turn it is. Cards carry no
numbers: the buttons under the picture name them by card, as the corners do."""

from __future__ import annotations

from PIL import Image, ImageDraw

from ..i18n import t
from .cards import card_height
from .fan import Row, lay, row
from .felt import GOLD, LIGHT, MUTED, felt, write
from .scenes import HandScene
from .text import fit, font, printable

WIDTH = 640
PAD = 30
GAP = 14
CARD = 150
TOP = 66
"""At 320 pixels wide (a phone) a card is 75 pixels wide, its corner value 14 pixels high."""


def hand_note(scene: HandScene, lang: str) -> tuple[str, str]:
    """What the hand says of the turn, and its colour."""
    if scene.my_turn:
        return t(lang, "pictures.hand.your_turn"), GOLD
    if scene.waiting_for is not None:
        return t(lang, "pictures.hand.waiting_for", name=printable(scene.waiting_for)), MUTED
    return t(lang, "pictures.hand.wait"), MUTED


def hand_empty(scene: HandScene, lang: str) -> str:
    if scene.face_down:
        return t(lang, "pictures.hand.face_down", count=scene.face_down)
    return t(lang, "pictures.hand.empty")


def hand_picture(scene: HandScene, lang: str = "it") -> Image.Image:
    card_h = card_height(CARD)
    top = TOP
    image = felt(WIDTH, top + card_h + PAD)
    draw = ImageDraw.Draw(image)
    title = t(lang, "pictures.hand.title")
    write(draw, (PAD, 38), title, 26, LIGHT, "lm", bold=True)
    note, colour = hand_note(scene, lang)
    room = WIDTH - 2 * PAD - int(font(26, True).getlength(title)) - 24
    write(draw, (WIDTH - PAD, 38), fit(note, 22, room), 22, colour, "rm")
    if not scene.cards:
        write(draw, (WIDTH / 2, top + card_h / 2), hand_empty(scene, lang), 24, MUTED, "mm")
        return image
    lay(
        image,
        scene.cards,
        scene.style,
        card_row(scene),
        TOP,
        lambda card: scene.my_turn and card not in scene.playable,
    )
    return image


def card_row(scene: HandScene) -> Row:
    """Where the hand's cards lie: side by side, or overlapping with each corner in sight."""
    return row(len(scene.cards), CARD, GAP, PAD, WIDTH - 2 * PAD)
