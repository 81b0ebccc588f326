"""A costly play of a match review as a picture: the position its player saw (the table
above their hand, every card as it was), the card played and the better one marked in the
hand, then the move played and the better one with what each takes.

Nothing is greyed: in a hand, grey means "cannot be played", and the review shows a choice
that was there. The card played has a red outline and a "played" label under it, the better
card a green one and "better" (both, on one card, when the better move plays the same card
another way).

640 pixels wide like the player's own picture (`seat`): at 320 (a photo in a chat) the
table's cards are 46 pixels wide, the hand's 54 and the two moves' 38, each corner readable,
the labels 11 pixels high."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Flag, auto

from PIL import Image, ImageDraw

from ..ai.review import GradedPlay, Review
from ..engine import Card, Move
from ..i18n import t
from ..render.review import play_number, play_words
from .cards import card_height, card_image
from .fan import Row, lay, row
from .felt import GOLD, MUTED, PANEL, felt, glow, write
from .position import (
    GAP,
    HAND_CARD,
    LINE,
    MOVE_CARD,
    PAD,
    PLAYED,
    TABLE_TOP,
    WIDTH,
    empty_table,
    named,
    section_label,
    table_height,
    table_lines,
)
from .scenes import style_of
from .styles import Style
from .table import arrow
from .text import fit, font, printable

TAG = 22
"""The labels' text size: 11 pixels at 320 wide."""
TAG_HEIGHT = 30
RING = 6
"""The outline's width around a marked card of the hand."""
"""The play that cost points: a warm red that reads on the felt."""
BETTER = "#8fe388"
"""The better play: a light green, far from the felt's dark one."""
TAG_TEXT = "#10261a"


class Mark(Flag):
    """How a card of the hand is marked: the card played, the better move's card, or both."""

    NONE = 0
    PLAYED = auto()
    BETTER = auto()


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


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of the picture starts, top to bottom."""

    table: int
    hand: int
    tags: int
    moves: int
    move_height: int
    height: int


def review_scene(deck_style: str, review: Review, play: GradedPlay, name: str | None = None) -> ReviewScene:
    """The scene of a graded play of `review`, for its own player (`name` None) or another."""
    return ReviewScene(style_of(deck_style), review.variant, play.round + 1, play_number(review, play),
                       tuple(play.table), tuple(play.hand), play.played, play.best, name)


def hand_marks(scene: ReviewScene) -> tuple[Mark, ...]:
    """Each card of the hand's mark, in the hand's order; no card is ever greyed."""
    return tuple((Mark.PLAYED if card == scene.played.card else Mark.NONE)
                 | (Mark.BETTER if card == scene.best.card else Mark.NONE) for card in scene.hand)


def layout(scene: ReviewScene) -> Layout:
    table = TABLE_TOP
    hand = table + table_height(len(scene.table)) + 18
    tags = hand + LINE + card_height(HAND_CARD) + RING + 6
    moves = tags + TAG_HEIGHT + 16
    move_height = LINE + card_height(MOVE_CARD) + 14
    return Layout(table, hand, tags, moves, move_height, moves + 2 * move_height + 12 + PAD)


def hand_row(scene: ReviewScene) -> Row:
    """Where the hand's cards lie (side by side while they fit, else fanned)."""
    return row(len(scene.hand), HAND_CARD, GAP, PAD, WIDTH - 2 * PAD)


def review_picture(scene: ReviewScene, lang: str = "it") -> Image.Image:
    place = layout(scene)
    image = felt(WIDTH, place.height)
    draw = ImageDraw.Draw(image)
    write(draw, (WIDTH / 2, 32), _title(scene, lang), 26, GOLD, "mm", bold=True)
    section_label(draw, place.table - LINE / 2 - 2, t(lang, "pictures.review.table"))
    _table(image, draw, scene, place.table, lang)
    hand = t(lang, "pictures.hand.title") if scene.name is None else \
        named(lang, "pictures.puzzle.hand", scene.name, 22, WIDTH - 2 * PAD - 8)
    section_label(draw, place.hand + LINE / 2 - 4, hand)
    _hand(image, draw, scene, place.hand + LINE, place.tags, lang)
    played = t(lang, "pictures.review.played") if scene.name is None else \
        named(lang, "pictures.review.played_by", scene.name, 21, WIDTH - 2 * PAD - 28)
    _move(image, draw, scene, scene.played, place.moves, place.move_height, played, PLAYED, lang)
    _move(image, draw, scene, scene.best, place.moves + place.move_height + 12, place.move_height,
          t(lang, "pictures.review.better"), BETTER, lang)
    return image


def _title(scene: ReviewScene, lang: str) -> str:
    """`Round 2, your 5th play`; a long name is shortened, never the words after it."""
    def words(name: str | None) -> str:
        return t(lang, "pictures.review.title", round=scene.round, play=play_words(scene.number, lang, name))

    room = WIDTH - 2 * PAD
    if scene.name is None:
        return fit(words(None), 26, room, bold=True)
    left = room - font(26, True).getlength(printable(words("")))
    return fit(words(fit(scene.name, 26, max(int(left), 80), bold=True)), 26, room, bold=True)


def _table(image: Image.Image, draw: ImageDraw.ImageDraw, scene: ReviewScene, top: int, lang: str) -> None:
    """The table's cards as they lay, none greyed (the moves below say what each takes)."""
    if not scene.table:
        empty_table(draw, top, t(lang, "pictures.review.empty"))
        return
    for cards, laid, y in table_lines(scene.table, top):
        lay(image, cards, scene.style, laid, y)


def _hand(image: Image.Image, draw: ImageDraw.ImageDraw, scene: ReviewScene, top: int, tags_top: int,
          lang: str) -> None:
    """The hand as it was, the card played and the better one outlined and labelled below. Each
    outline goes on before the next card, so that in a fanned hand it frames the part in sight."""
    laid = hand_row(scene)
    card_h = card_height(HAND_CARD)
    last = len(scene.hand) - 1
    tags: list[tuple[float, str, str]] = []
    for number, (x, card, mark) in enumerate(zip(laid.xs(len(scene.hand)), scene.hand, hand_marks(scene),
                                                 strict=True)):
        face = card_image(card, scene.style, HAND_CARD)
        image.paste(face, (round(x), top), face)
        if Mark.BETTER in mark:
            spread = 2 * RING if Mark.PLAYED in mark else RING
            ring = glow(HAND_CARD, card_h, BETTER, spread)
            image.paste(ring, (round(x) - spread, top - spread), ring)
        if Mark.PLAYED in mark:
            ring = glow(HAND_CARD, card_h, PLAYED, RING)
            image.paste(ring, (round(x) - RING, top - RING), ring)
        middle = x + (HAND_CARD if number == last else min(laid.step, HAND_CARD)) / 2
        words = [(t(lang, key), colour) for flag, key, colour in
                 ((Mark.PLAYED, "pictures.review.mark_played", PLAYED),
                  (Mark.BETTER, "pictures.review.mark_better", BETTER)) if flag in mark]
        tags += _side_by_side(middle, words)
    for left, text, colour in _apart(tags):
        _tag(draw, left, tags_top, text, colour)


def _tag_width(text: str) -> float:
    return font(TAG, True).getlength(printable(text)) + 18


def _side_by_side(middle: float, words: list[tuple[str, str]]) -> list[tuple[float, str, str]]:
    """The labels of one card, centred under it, left to right: (left edge, text, colour)."""
    whole = sum(_tag_width(text) for text, _ in words) + 6 * (len(words) - 1)
    left = middle - whole / 2
    out = []
    for text, colour in words:
        out.append((left, text, colour))
        left += _tag_width(text) + 6
    return out


def _apart(tags: list[tuple[float, str, str]]) -> list[tuple[float, str, str]]:
    """The labels kept inside the picture and off each other (in a fanned hand the card played
    and the better one may lie a few pixels apart): each pushed right of the one before, then
    the row pulled back left as far as the right edge needs."""
    out: list[tuple[float, str, str]] = []
    edge = float(PAD)
    for left, text, colour in sorted(tags):
        left = max(left, edge)
        out.append((left, text, colour))
        edge = left + _tag_width(text) + 6
    overflow = edge - 6 - (WIDTH - PAD)
    if overflow > 0:
        out = [(left - overflow, text, colour) for left, text, colour in out]
        spill = PAD - out[0][0] if out else 0
        if spill > 0:
            out = [(left + spill, text, colour) for left, text, colour in out]
    return out


def _tag(draw: ImageDraw.ImageDraw, left: float, top: int, text: str, colour: str) -> None:
    width = _tag_width(text)
    draw.rounded_rectangle((left, top, left + width, top + TAG_HEIGHT), radius=TAG_HEIGHT // 2, fill=colour)
    write(draw, (left + width / 2, top + TAG_HEIGHT / 2), text, TAG, TAG_TEXT, "mm", bold=True)


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
