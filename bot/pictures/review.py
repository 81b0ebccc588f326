"""A costly play of a match review as a picture: the position its player saw (the table
above their hand), the move they played and the better one.

640 pixels wide like the player's own picture (`seat`): at 320 (a photo in a chat) the
table's cards are 46 pixels wide, the hand's 54 and the two moves' 38, each corner readable."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from ..ai.review import GradedPlay, Review
from ..engine import Card, Move
from ..i18n import t
from ..render_review import play_number, play_words
from .cards import card_height, card_image
from .fan import lay, row
from .felt import GOLD, LIGHT, MUTED, PANEL, dimmed, felt, glow, write
from .scenes import style_of
from .styles import Style
from .table import arrow

WIDTH = 640
PAD = 24
LINE = 34
TABLE_CARD = 92
HAND_CARD = 108
MOVE_CARD = 76
GAP = 10
PER_ROW = 6
PLAYED = "#e07a5f"
"""The colour of the move that cost points: a warm red that reads on the felt."""


@dataclass(frozen=True, slots=True)
class ReviewScene:
    """One costly play: where it was (`round`, and `number`, which of its player's plays of that
    round it was, both counted from 1), the table and hand as its player saw them, what they
    played and what was better; `name` is the player's where the picture is not for them."""

    style: Style
    variant: str
    round: int
    number: int
    table: tuple[Card, ...]
    hand: tuple[Card, ...]
    played: Move
    best: Move
    name: str | None = None


def review_scene(deck_style: str, review: Review, play: GradedPlay, name: str | None = None) -> ReviewScene:
    """The scene of a graded play of `review`, for its own player (`name` None) or another."""
    return ReviewScene(style_of(deck_style), review.variant, play.round + 1, play_number(review, play),
                       tuple(play.table), tuple(play.hand), play.played, play.best, name)


def _table_rows(scene: ReviewScene) -> int:
    return max(1, -(-len(scene.table) // PER_ROW))


def review_picture(scene: ReviewScene, lang: str = "it") -> Image.Image:
    table_h = _table_rows(scene) * card_height(TABLE_CARD) + (_table_rows(scene) - 1) * GAP
    move_h = LINE + card_height(MOVE_CARD) + 14
    top_table = 56 + LINE
    top_hand = top_table + table_h + 18
    top_moves = top_hand + LINE + card_height(HAND_CARD) + 18
    image = felt(WIDTH, top_moves + 2 * move_h + 12 + PAD)
    draw = ImageDraw.Draw(image)
    write(draw, (WIDTH / 2, 32), t(lang, "pictures.review.title", round=scene.round,
                                           play=play_words(scene.number, lang, scene.name)),
          26, GOLD, "mm", bold=True)
    _label(draw, top_table - LINE / 2 - 2, t(lang, "pictures.review.table"))
    _table(image, draw, scene, top_table, lang)
    _label(draw, top_hand + LINE / 2 - 4, t(lang, "pictures.hand.title"))
    involved = {scene.played.card, scene.best.card}
    laid = row(len(scene.hand), HAND_CARD, GAP, PAD, WIDTH - 2 * PAD)
    lay(image, scene.hand, scene.style, laid, top_hand + LINE, lambda card: card not in involved)
    played, better = t(lang, "pictures.review.played"), t(lang, "pictures.review.better")
    _move(image, draw, scene, scene.played, top_moves, move_h, played, PLAYED, lang)
    _move(image, draw, scene, scene.best, top_moves + move_h + 12, move_h, better, GOLD, lang)
    return image


def _label(draw: ImageDraw.ImageDraw, middle: float, text: str) -> None:
    write(draw, (PAD + 4, middle), text, 22, LIGHT, "lm", bold=True)


def _table(image: Image.Image, draw: ImageDraw.ImageDraw, scene: ReviewScene, top: int, lang: str) -> None:
    """The table's cards, the ones either move takes in full, the others dimmed a little."""
    if not scene.table:
        write(draw, (WIDTH / 2, top + card_height(TABLE_CARD) / 2), t(lang, "pictures.review.empty"), 22,
              MUTED, "mm")
        return
    taken = set(scene.played.captures) | set(scene.best.captures)
    for number in range(_table_rows(scene)):
        cards = scene.table[number * PER_ROW:(number + 1) * PER_ROW]
        laid = row(len(cards), TABLE_CARD, GAP, PAD, WIDTH - 2 * PAD)
        y = top + number * (card_height(TABLE_CARD) + GAP)
        for x, card in zip(laid.xs(len(cards)), cards, strict=True):
            face = card_image(card, scene.style, TABLE_CARD) if card in taken or not taken else \
                dimmed(card, scene.style, TABLE_CARD)
            image.paste(face, (round(x), y), face)


def _move(image: Image.Image, draw: ImageDraw.ImageDraw, scene: ReviewScene, move: Move, top: int,
          height: int, title: str, colour: str, lang: str) -> None:
    """A panel: its title, then the card played, an arrow and what it takes (or "laid")."""
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + height), radius=12, fill=PANEL)
    write(draw, (PAD + 14, top + LINE / 2 + 4), title, 21, colour, "lm", bold=True)
    cards_top = top + LINE + 4
    card_h = card_height(MOVE_CARD)
    middle = cards_top + card_h / 2
    x = PAD + 16.0
    ring = glow(MOVE_CARD, card_h, colour, 5)
    image.paste(ring, (round(x) - 5, cards_top - 5), ring)
    face = card_image(move.card, scene.style, MOVE_CARD)
    image.paste(face, (round(x), cards_top), face)
    x += MOVE_CARD + 14
    if not move.captures:
        write(draw, (x + 4, middle), t(lang, "pictures.laid"), 21, MUTED, "lm")
        return
    arrow(draw, x, middle)
    x += 50
    laid = row(len(move.captures), MOVE_CARD, 8, x, WIDTH - PAD - 14 - x, centred=False)
    lay(image, move.captures, scene.style, laid, cards_top)
