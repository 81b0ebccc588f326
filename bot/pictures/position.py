"""What the pictures of one position share (the review's costly play, a replay's step, a
puzzle): their sizes, the table laid in rows of six above the hand, and the labels over each.

640 pixels wide like the player's own picture (`seat`): at 320 (a photo in a chat) the table's
cards are 46 pixels wide, the hand's 54 and a move's 38, each corner readable."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from PIL import ImageDraw

from ..engine import Card
from ..i18n import t
from .cards import card_height
from .fan import Row, row
from .felt import LIGHT, MUTED, write
from .text import fit, font, printable

WIDTH = 640
PAD = 24
LINE = 34
TABLE_CARD = 92
HAND_CARD = 108
MOVE_CARD = 76
GAP = 10
PER_ROW = 6
TABLE_TOP = 56 + LINE
"""Where the table's first row starts, under the title and the table's label."""
PLAYED = "#e07a5f"
"""The colour of the play made: a warm red that reads on the felt."""
MARK = "M"
"""Where a name goes, while the words around it are measured."""


def table_rows(cards: int) -> int:
    """Rows of the table (one at least: an empty table says so in its place)."""
    return max(1, -(-cards // PER_ROW))


def table_height(cards: int, gap: int = GAP) -> int:
    rows = table_rows(cards)
    return rows * card_height(TABLE_CARD) + (rows - 1) * gap


def table_lines(table: Sequence[Card], top: int,
                gap: int = GAP) -> Iterator[tuple[tuple[Card, ...], Row, int]]:
    """Each row of the table: its cards, where they lie across, and its top."""
    for number in range(table_rows(len(table)) if table else 0):
        cards = tuple(table[number * PER_ROW:(number + 1) * PER_ROW])
        yield cards, row(len(cards), TABLE_CARD, gap, PAD, WIDTH - 2 * PAD), top + number * (
            card_height(TABLE_CARD) + GAP)


def empty_table(draw: ImageDraw.ImageDraw, top: int, words: str) -> None:
    """`words` (nothing on the table) where the table's cards would lie."""
    write(draw, (WIDTH / 2, top + card_height(TABLE_CARD) / 2), words, 22, MUTED, "mm")


def section_label(draw: ImageDraw.ImageDraw, middle: float, text: str) -> None:
    """A section's label (the table, a hand) at the left, cut short to fit the picture."""
    write(draw, (PAD + 4, middle), fit(text, 22, WIDTH - 2 * PAD - 8, bold=True), 22, LIGHT, "lm", bold=True)


def name_room(bare: str, size: int, width: int) -> int:
    """What is left of `width` for a name, beside the words `bare` around it (the name's place
    held by `MARK`, so that the spaces either side of it count)."""
    face = font(size, True)
    return max(width - round(face.getlength(printable(bare)) - face.getlength(MARK)), 60)


def named(lang: str, key: str, name: str, size: int, width: int) -> str:
    """The catalogue's words `key` with a name in them, the name cut short so that the whole fits
    `width` and the words after the name are kept."""
    return t(lang, key, name=fit(name, size, name_room(t(lang, key, name=MARK), size, width), bold=True))
