"""One player's private picture: the table, the last play and the scores above their own hand,
so that a whole match can be followed and played from the private chat.

It is drawn for a phone: 640 pixels wide, so that at 320 (a photo in a chat) the table's cards
are 54 pixels wide, the last play's 46 and the hand's 65, and every corner value reads."""

from __future__ import annotations

from PIL import Image, ImageDraw

from ..i18n import subject_count, t
from .cards import card_height, card_image
from .fan import Row, lay, row
from .felt import GOLD, LIGHT, MUTED, PANEL, felt, glow, write
from .hand import hand_empty, hand_note
from .scenes import LastPlay, SeatScene, TableScene
from .table import arrow, header, scopa_badge, sides, table_cards, timed_out_note
from .text import fit, font, printable

WIDTH = 640
PAD = 24
TABLE_CARD = 108
PER_ROW = 5
GAP = 10
PLAY_CARD = 92
HAND_CARD = 130
SIDES_TOP = 58
SIDES_H = 66
TABLE_TOP = 142
LINE = 34
"""A line of words above a row of cards."""
ROW_CARD = 76
"""The cards of the plays since the player's last turn, one row a play: 38 pixels at 320."""
ROW_GAP = 14
NAME_COLUMN = 150


def seat_picture(scene: SeatScene, lang: str = "it") -> Image.Image:
    table, hand = scene.table, scene.hand
    line = _hand_line(scene)
    image = felt(WIDTH, line + LINE + (card_height(HAND_CARD) if hand.cards else 48) + PAD + 6)
    draw = ImageDraw.Draw(image)
    header(draw, table, lang, WIDTH, PAD, 34)
    sides(draw, table, lang, WIDTH, PAD, SIDES_TOP, SIDES_H)
    table_cards(image, draw, table, TABLE_TOP, lang, WIDTH, TABLE_CARD, PER_ROW, GAP)
    if scene.plays:
        _plays(image, draw, table, scene.plays, _play_top(table), lang)
    elif table.last_play is not None:
        _last_play(image, draw, table, table.last_play, _play_top(table), _play_height(table), lang)
    _hand(image, draw, scene, line, lang)
    return image


def _play_top(table: TableScene) -> int:
    rows = max(1, -(-len(table.table) // PER_ROW))
    return TABLE_TOP + rows * card_height(TABLE_CARD) + (rows - 1) * GAP + 22


def _play_height(table: TableScene) -> int:
    return LINE + card_height(PLAY_CARD) + 14 if table.last_play is not None else 0


def _plays_height(count: int) -> int:
    return LINE + count * (card_height(ROW_CARD) + ROW_GAP) + 6


def _hand_line(scene: SeatScene) -> int:
    """The top of the line above the hand."""
    height = _plays_height(len(scene.plays)) if scene.plays else _play_height(scene.table)
    return _play_top(scene.table) + height + (18 if height else 0)


def _last_play(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    scene: TableScene,
    play: LastPlay,
    top: int,
    height: int,
    lang: str,
) -> None:
    """Who played (or that it was played for them), then the card and what it took."""
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + height), radius=12, fill=PANEL)
    badge = 124 if play.scopa else 0
    line_y = top + LINE / 2 + 4
    room = WIDTH - 2 * PAD - 28 - badge
    if play.timed_out:
        write(draw, (PAD + 14, line_y), fit(timed_out_note(play, lang), 19, room), 19, MUTED, "lm")
    elif play.leftover:
        took = t(lang, "pictures.leftover_by", name=printable(play.name))
        write(draw, (PAD + 14, line_y), fit(took, 21, room, True), 21, LIGHT, "lm", bold=True)
    else:
        write(draw, (PAD + 14, line_y), fit(printable(play.name), 21, room, True), 21, LIGHT, "lm", bold=True)
    if play.scopa:
        right = WIDTH - PAD - 10
        scopa_badge(draw, (right - badge, line_y - 15, right, line_y + 15), scene, lang, 20)
    cards_top = top + LINE + 4
    card_h = card_height(PLAY_CARD)
    middle = cards_top + card_h / 2
    x = PAD + 16.0
    if play.card is not None:
        ring = glow(PLAY_CARD, card_h, GOLD, 5)
        image.paste(ring, (round(x) - 5, cards_top - 5), ring)
        face = card_image(play.card, scene.style, PLAY_CARD)
        image.paste(face, (round(x), cards_top), face)
        x += PLAY_CARD + 14
    if not play.captured:
        write(draw, (x + 4, middle), t(lang, "pictures.laid"), 21, MUTED, "lm")
        return
    if not play.leftover:
        arrow(draw, x, middle)
        x += 50
    laid = row(len(play.captured), PLAY_CARD, 8, x, WIDTH - PAD - 14 - x, centred=False)
    lay(image, play.captured, scene.style, laid, cards_top)


def _plays(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    scene: TableScene,
    plays: tuple[LastPlay, ...],
    top: int,
    lang: str,
) -> None:
    """Every play since the player's last turn, oldest first, a row each: who played (and
    whether it was a scopa, or played when time ran out) on the left, then the card and what
    it took."""
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + _plays_height(len(plays))), radius=12, fill=PANEL)
    write(draw, (PAD + 14, top + LINE / 2 + 4), t(lang, "pictures.since_turn"), 20, MUTED, "lm")
    card_h = card_height(ROW_CARD)
    y = top + LINE + 2
    for play in plays:
        middle = y + card_h / 2
        name = t(lang, "pictures.leftover_by", name=printable(play.name)) if play.leftover else play.name
        below = play.scopa or play.timed_out
        name_y = middle - 14 if below else middle
        write(draw, (PAD + 14, name_y), fit(name, 20, NAME_COLUMN - 8, True), 20, LIGHT, "lm", bold=True)
        if play.scopa:
            scopa_badge(draw, (PAD + 14, middle + 2, PAD + 14 + 108, middle + 30), scene, lang, 17)
        elif play.timed_out:
            write(draw, (PAD + 14, middle + 14), fit(t(lang, "pictures.time_ran_out"), 17, NAME_COLUMN - 8),
                  17, MUTED, "lm")
        x = PAD + 14.0 + NAME_COLUMN
        if play.card is not None:
            ring = glow(ROW_CARD, card_h, GOLD, 4)
            image.paste(ring, (round(x) - 4, y - 4), ring)
            face = card_image(play.card, scene.style, ROW_CARD)
            image.paste(face, (round(x), y), face)
            x += ROW_CARD + 12
        if not play.captured:
            write(draw, (x + 4, middle), t(lang, "pictures.laid"), 20, MUTED, "lm")
        else:
            if play.card is not None:
                arrow(draw, x, middle)
                x += 48
            laid = row(len(play.captured), ROW_CARD, 6, x, WIDTH - PAD - 12 - x, centred=False)
            lay(image, play.captured, scene.style, laid, y)
        y += card_h + ROW_GAP


def _hand(image: Image.Image, draw: ImageDraw.ImageDraw, scene: SeatScene, top: int, lang: str) -> None:
    """The player's cards under a line saying whose turn it is (or who won the match)."""
    table, hand = scene.table, scene.hand
    title = t(lang, "pictures.hand.title")
    line_y = top + LINE / 2 - 4
    write(draw, (PAD + 4, line_y), title, 22, LIGHT, "lm", bold=True)
    room = WIDTH - 2 * PAD - 8 - int(font(22, True).getlength(title)) - 20
    if table.winner is not None:
        note = t(lang, "pictures.winner", side=printable(table.winner), count=subject_count(table.winner))
        colour = GOLD
    else:
        note, colour = hand_note(hand, lang)
    write(draw, (WIDTH - PAD - 4, line_y), fit(note, 22, room, True), 22, colour, "rm", bold=True)
    cards_top = top + LINE
    if not hand.cards:
        write(draw, (WIDTH / 2, cards_top + 20), hand_empty(hand, lang), 22, MUTED, "mm")
        return
    lay(
        image,
        hand.cards,
        hand.style,
        hand_row(scene),
        cards_top,
        lambda card: hand.my_turn and card not in hand.playable,
    )


def hand_row(scene: SeatScene) -> Row:
    """Where the hand's cards lie: side by side, or overlapping with each corner in sight."""
    return row(len(scene.hand.cards), HAND_CARD, GAP, PAD, WIDTH - 2 * PAD)


def hand_top(scene: SeatScene) -> int:
    """The top of the hand's cards."""
    return _hand_line(scene) + LINE
