"""A puzzle as a picture: the table and the hand as the player saw them, nothing marked.

Laid out as the review's picture of a costly play (`review`), without its two moves: a puzzle
must not show its answer, so no card of the hand or the table is dimmed or ringed. 640 pixels
wide: at 320 (a photo in a chat) the table's cards are 46 pixels wide and the hand's 54."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from ..engine import Card
from ..i18n import t
from .cards import card_height, card_image
from .fan import lay, row
from .felt import GOLD, LIGHT, MUTED, felt, write
from .scenes import style_of
from .styles import Style
from .text import printable

WIDTH = 640
PAD = 24
LINE = 34
TABLE_CARD = 92
HAND_CARD = 108
GAP = 10
PER_ROW = 6


@dataclass(frozen=True, slots=True)
class PuzzleScene:
    """Whose hand it was, in which round (from 1), the table and the hand."""

    style: Style
    name: str
    round: int
    table: tuple[Card, ...]
    hand: tuple[Card, ...]


def puzzle_scene(deck_style: str, name: str, round_index: int, table: tuple[Card, ...],
                 hand: tuple[Card, ...]) -> PuzzleScene:
    """The scene of a puzzle (its round indexed from 0, as a record keeps it)."""
    return PuzzleScene(style_of(deck_style), name, round_index + 1, tuple(table), tuple(hand))


def _table_rows(scene: PuzzleScene) -> int:
    return max(1, -(-len(scene.table) // PER_ROW))


def puzzle_picture(scene: PuzzleScene, lang: str = "it") -> Image.Image:
    rows = _table_rows(scene)
    table_h = rows * card_height(TABLE_CARD) + (rows - 1) * GAP
    top_table = 56 + LINE
    top_hand = top_table + table_h + 18
    image = felt(WIDTH, top_hand + LINE + card_height(HAND_CARD) + PAD)
    draw = ImageDraw.Draw(image)
    write(draw, (WIDTH / 2, 32), t(lang, "pictures.puzzle.title", round=scene.round), 26, GOLD, "mm",
          bold=True)
    _label(draw, top_table - LINE / 2 - 2, t(lang, "pictures.review.table"))
    if not scene.table:
        write(draw, (WIDTH / 2, top_table + card_height(TABLE_CARD) / 2), t(lang, "pictures.review.empty"),
              22, MUTED, "mm")
    for number in range(rows if scene.table else 0):
        cards = scene.table[number * PER_ROW:(number + 1) * PER_ROW]
        laid = row(len(cards), TABLE_CARD, GAP, PAD, WIDTH - 2 * PAD)
        y = top_table + number * (card_height(TABLE_CARD) + GAP)
        for x, card in zip(laid.xs(len(cards)), cards, strict=True):
            face = card_image(card, scene.style, TABLE_CARD)
            image.paste(face, (round(x), y), face)
    _label(draw, top_hand + LINE / 2 - 4, t(lang, "pictures.puzzle.hand", name=printable(scene.name)))
    lay(image, scene.hand, scene.style, row(len(scene.hand), HAND_CARD, GAP, PAD, WIDTH - 2 * PAD),
        top_hand + LINE)
    return image


def _label(draw: ImageDraw.ImageDraw, middle: float, text: str) -> None:
    write(draw, (PAD + 4, middle), text, 22, LIGHT, "lm", bold=True)
