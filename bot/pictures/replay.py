"""One play of a finished match as the replay shows it: the table its player saw, their hand
with the card played ringed (and the review's better card, where the play was graded), and
below, the play and the better one spelled out in cards.

640 pixels wide like the review's pictures: at 320 (a photo in a chat) the table's cards are
46 pixels wide, the hand's 54 and the moves' 38, each corner readable. Nothing is greyed: in a
hand, grey means a card that cannot be played."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from ..engine import Card, Move
from ..i18n import t, t_ordinal
from .cards import card_height, card_image
from .fan import Row, lay, row
from .felt import GOLD, MUTED, PANEL, felt, glow, write
from .position import (
    GAP,
    HAND_CARD,
    LINE,
    MARK,
    MOVE_CARD,
    PAD,
    PLAYED,
    TABLE_CARD,
    TABLE_TOP,
    WIDTH,
    empty_table,
    name_room,
    named,
    section_label,
    table_height,
    table_lines,
)
from .scenes import style_of
from .styles import Style
from .table import arrow
from .text import fit

RING = 5
RAISE = 14
"""How far a marked card of the hand stands out above the others."""


@dataclass(frozen=True, slots=True)
class ReplayScene:
    """A play: where it is in the match (`round`, the mover's `nth` play of it, `step` of
    `steps`, all from 1), who made it, the table and hand they saw, the play and the better
    one where the review graded it."""

    style: Style
    round: int
    name: str
    nth: int
    step: int
    steps: int
    table: tuple[Card, ...]
    hand: tuple[Card, ...]
    played: Move
    better: Move | None


def replay_scene(deck_style: str, round_number: int, name: str, nth: int, step: int, steps: int,
                 table: tuple[Card, ...], hand: tuple[Card, ...], played: Move,
                 better: Move | None) -> ReplayScene:
    """The scene of step `step` (from 0, as the sessions count steps)."""
    return ReplayScene(style_of(deck_style), round_number, name, nth, step + 1, steps, tuple(table),
                       tuple(hand), played, better)


def replay_title(lang: str, round_number: int, name: str, nth: int, step: int, steps: int) -> str:
    """"Round 2 · Marco's 5th play · 17 of 60" (`step` from 1), the play numbered among its
    player's own of the round as the review numbers it."""
    play = t_ordinal(lang, "review.play.theirs", nth, name=name)
    return t(lang, "replay.title", round=round_number, play=play, step=step, steps=steps)


def replay_picture(scene: ReplayScene, lang: str = "it") -> Image.Image:
    table_h = table_height(len(scene.table))
    move_h = LINE + card_height(MOVE_CARD) + 14
    top_table = TABLE_TOP
    top_hand = top_table + table_h + 18
    top_moves = top_hand + LINE + RAISE + card_height(HAND_CARD) + 18
    moves = 1 if scene.better is None else 2
    image = felt(WIDTH, top_moves + moves * (move_h + 12) + PAD)
    draw = ImageDraw.Draw(image)
    write(draw, (WIDTH / 2, 32), _title(scene, lang), 24, GOLD, "mm", bold=True)
    section_label(draw, top_table - LINE / 2 - 2, t(lang, "replay.table"))
    _table(image, draw, scene, top_table, lang)
    hand = named(lang, "replay.hand", scene.name, 22, WIDTH - 2 * PAD - 8)
    section_label(draw, top_hand + LINE / 2 - 4, hand)
    _hand(image, scene, top_hand + LINE)
    played = named(lang, "replay.played", scene.name, 21, WIDTH - 2 * PAD - 28)
    _move(image, draw, scene, scene.played, top_moves, move_h, played, PLAYED, lang)
    if scene.better is not None:
        _move(image, draw, scene, scene.better, top_moves + move_h + 12, move_h, t(lang, "replay.better"),
              GOLD, lang)
    return image


def _title(scene: ReplayScene, lang: str) -> str:
    """The title, a long name cut short rather than the count of plays."""
    bare = replay_title(lang, scene.round, MARK, scene.nth, scene.step, scene.steps)
    name = fit(scene.name, 24, name_room(bare, 24, WIDTH - 2 * PAD - 16), bold=True)
    return replay_title(lang, scene.round, name, scene.nth, scene.step, scene.steps)


def _ringed(image: Image.Image, card: Card, style: Style, width: int, x: float, y: int,
            colours: list[str]) -> None:
    """A card with one ring per colour around it, the first outermost."""
    height = card_height(width)
    for number, colour in enumerate(colours):
        spread = RING + 4 * (len(colours) - 1 - number)
        ring = glow(width, height, colour, spread)
        image.paste(ring, (round(x) - spread, y - spread), ring)
    face = card_image(card, style, width)
    image.paste(face, (round(x), y), face)


def _marks(card: Card, played: set[Card], better: set[Card]) -> list[str]:
    return [colour for colour, marked in ((GOLD, better), (PLAYED, played)) if card in marked]


def _table(image: Image.Image, draw: ImageDraw.ImageDraw, scene: ReplayScene, top: int, lang: str) -> None:
    """The table's cards, those the play takes ringed in its colour, those the better play
    takes in gold."""
    if not scene.table:
        empty_table(draw, top, t(lang, "replay.empty"))
        return
    played = set(scene.played.captures)
    better = set(scene.better.captures) if scene.better is not None else set()
    for cards, laid, y in table_lines(scene.table, top, GAP + 2):
        for x, card in zip(laid.xs(len(cards)), cards, strict=True):
            _ringed(image, card, scene.style, TABLE_CARD, x, y, _marks(card, played, better))


def _hand(image: Image.Image, scene: ReplayScene, top: int) -> None:
    """The hand, the card played ringed in its colour and raised, the better card in gold. The
    cards go left to right as a fanned hand is laid, so a raised card covers no neighbour's
    corner."""
    laid: Row = row(len(scene.hand), HAND_CARD, GAP + 2, PAD + 4, WIDTH - 2 * PAD - 8)
    played = {scene.played.card}
    better = {scene.better.card} if scene.better is not None else set()
    for x, card in zip(laid.xs(len(scene.hand)), scene.hand, strict=True):
        marks = _marks(card, played, better)
        _ringed(image, card, scene.style, HAND_CARD, x, top + RAISE - (RAISE if marks else 0), marks)


def _move(image: Image.Image, draw: ImageDraw.ImageDraw, scene: ReplayScene, move: Move, top: int,
          height: int, title: str, colour: str, lang: str) -> None:
    """A panel: its title, then the card played, an arrow and what it takes (or "laid")."""
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + height), radius=12, fill=PANEL)
    write(draw, (PAD + 14, top + LINE / 2 + 4), fit(title, 21, WIDTH - 2 * PAD - 28, bold=True), 21, colour,
          "lm", bold=True)
    cards_top = top + LINE + 4
    middle = cards_top + card_height(MOVE_CARD) / 2
    x = PAD + 16.0
    _ringed(image, move.card, scene.style, MOVE_CARD, x, cards_top, [colour])
    x += MOVE_CARD + 14
    if not move.captures:
        write(draw, (x + 4, middle), t(lang, "pictures.laid"), 21, MUTED, "lm")
        return
    arrow(draw, x, middle)
    x += 50
    laid = row(len(move.captures), MOVE_CARD, 8, x, WIDTH - PAD - 14 - x, centred=False)
    lay(image, move.captures, scene.style, laid, cards_top)
