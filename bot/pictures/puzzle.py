"""A puzzle as a picture: the table and the hand as the player saw them, nothing marked.

Laid out as the review's picture of a costly play (`review`), without its two moves: a puzzle
must not show its answer, so no card of the hand or the table is dimmed or ringed. 640 pixels
wide: at 320 (a photo in a chat) the table's cards are 46 pixels wide and the hand's 54."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from ..engine import Card
from ..i18n import t
from .cards import card_height
from .fan import lay, row
from .felt import GOLD, felt, write
from .position import (
    GAP,
    HAND_CARD,
    LINE,
    PAD,
    TABLE_TOP,
    WIDTH,
    empty_table,
    section_label,
    table_height,
    table_lines,
)
from .scenes import style_of
from .styles import Style
from .text import printable


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


def puzzle_picture(scene: PuzzleScene, lang: str = "it") -> Image.Image:
    top_table = TABLE_TOP
    top_hand = top_table + table_height(len(scene.table)) + 18
    image = felt(WIDTH, top_hand + LINE + card_height(HAND_CARD) + PAD)
    draw = ImageDraw.Draw(image)
    write(draw, (WIDTH / 2, 32), t(lang, "pictures.puzzle.title", round=scene.round), 26, GOLD, "mm",
          bold=True)
    section_label(draw, top_table - LINE / 2 - 2, t(lang, "pictures.review.table"))
    if not scene.table:
        empty_table(draw, top_table, t(lang, "pictures.review.empty"))
    for cards, laid, y in table_lines(scene.table, top_table):
        lay(image, cards, scene.style, laid, y)
    section_label(draw, top_hand + LINE / 2 - 4, t(lang, "pictures.puzzle.hand", name=printable(scene.name)))
    lay(image, scene.hand, scene.style, row(len(scene.hand), HAND_CARD, GAP, PAD, WIDTH - 2 * PAD),
        top_hand + LINE)
    return image
