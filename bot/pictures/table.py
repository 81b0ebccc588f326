"""The table as a picture: the cards on it, each side's score, the last play, whose turn."""

from __future__ import annotations

from PIL import Image, ImageDraw

from ..i18n import t
from .cards import card_height, card_image
from .felt import GOLD, LIGHT, MUTED, PANEL, felt, glow, write
from .scenes import LastPlay, SideLine, TableScene
from .text import fit, font, printable

WIDTH = 800
PAD = 34
CARD = 112
SMALL = 76
PER_ROW = 6
GAP = 12


def table_picture(scene: TableScene, lang: str = "it") -> Image.Image:
    rows = max(1, -(-len(scene.table) // PER_ROW))
    card_h = card_height(CARD)
    table_top = 156
    table_h = rows * card_h + (rows - 1) * GAP
    play_top = table_top + table_h + 26
    footer_top = play_top + (card_height(SMALL) + 22 if scene.last_play else 0)
    height = footer_top + 62
    image = felt(WIDTH, height)
    draw = ImageDraw.Draw(image)
    _header(draw, scene, lang)
    _sides(draw, scene, lang)
    _table_cards(image, draw, scene, table_top, lang)
    if scene.last_play is not None:
        _last_play(image, draw, scene, scene.last_play, play_top, lang)
    if scene.winner is not None:
        footer = t(lang, "pictures.winner", side=printable(scene.winner))
    elif scene.to_play is not None:
        footer = t(lang, "pictures.turn", name=printable(scene.to_play))
    else:
        footer = ""
    write(
        draw, (WIDTH / 2, footer_top + 18), fit(footer, 26, WIDTH - 2 * PAD, True), 26, GOLD, "mm", bold=True
    )
    return image


def _header(draw: ImageDraw.ImageDraw, scene: TableScene, lang: str) -> None:
    parts = [
        t(lang, f"variant.{scene.variant}"),
        t(lang, "pictures.round", round=scene.round_number),
        t(lang, "pictures.target", target=scene.target),
    ]
    if scene.round_limit:
        parts.append(t(lang, "pictures.round_limit", rounds=scene.round_limit))
    write(draw, (PAD, 40), " · ".join(parts), 24, LIGHT, "lm", bold=True)
    write(draw, (WIDTH - PAD, 40), t(lang, "pictures.stock", count=scene.stock), 22, MUTED, "rm")


def _sides(draw: ImageDraw.ImageDraw, scene: TableScene, lang: str) -> None:
    count = len(scene.sides)
    if not count:
        return
    gap = 14
    width = (WIDTH - 2 * PAD - gap * (count - 1)) / count
    for index, side in enumerate(scene.sides):
        x0 = PAD + index * (width + gap)
        box = (x0, 64, x0 + width, 136)
        turn = scene.turn_side == index
        draw.rounded_rectangle(
            box, radius=12, fill=PANEL, outline=GOLD if turn else "#2c7a4b", width=3 if turn else 1
        )
        total = str(side.total)
        write(draw, (box[2] - 14, 100), total, 40, GOLD, "rm", bold=True)
        room = int(width - 28 - font(40, True).getlength(total) - 10)
        write(draw, (x0 + 14, 86), fit(side.name, 22, max(40, room), True), 22, LIGHT, "lm", bold=True)
        detail = 17 if count <= 2 else 15
        write(draw, (x0 + 14, 116), fit(_side_detail(side, lang), detail, max(40, room)), detail, MUTED, "lm")


def _side_detail(side: SideLine, lang: str) -> str:
    parts = [t(lang, "pictures.scope", count=side.scope)]
    if side.taken is not None:
        parts.append(t(lang, "pictures.taken", count=side.taken))
    return " · ".join(parts)


def _table_cards(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene, top: int, lang: str
) -> None:
    card_h = card_height(CARD)
    if not scene.table:
        write(draw, (WIDTH / 2, top + card_h / 2), t(lang, "pictures.empty_table"), 24, MUTED, "mm")
        return
    laid = scene.last_play.card if scene.last_play and not scene.last_play.captured else None
    for row_start in range(0, len(scene.table), PER_ROW):
        row = scene.table[row_start : row_start + PER_ROW]
        x = (WIDTH - (len(row) * CARD + (len(row) - 1) * GAP)) / 2
        y = top + (row_start // PER_ROW) * (card_h + GAP)
        for card in row:
            if card is laid:
                ring = glow(CARD, card_h)
                image.paste(ring, (round(x) - 6, y - 6), ring)
            face = card_image(card, scene.style, CARD)
            image.paste(face, (round(x), y), face)
            x += CARD + GAP


def _last_play(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene, play: LastPlay, top: int, lang: str
) -> None:
    small_h = card_height(SMALL)
    draw.rounded_rectangle((PAD, top - 10, WIDTH - PAD, top + small_h + 10), radius=12, fill=PANEL)
    name = printable(play.name) + ":"
    middle = top + small_h / 2
    write(draw, (PAD + 16, middle), fit(name, 22, 200, True), 22, LIGHT, "lm", bold=True)
    x = PAD + 16 + min(200, font(22, True).getlength(fit(name, 22, 200, True))) + 16
    if play.card is not None:
        face = card_image(play.card, scene.style, SMALL)
        ring = glow(SMALL, small_h, GOLD, 5)
        image.paste(ring, (round(x) - 5, top - 5), ring)
        image.paste(face, (round(x), top), face)
        x += SMALL + 14
    if not play.captured:
        write(draw, (x + 4, middle), t(lang, "pictures.laid"), 22, MUTED, "lm")
        return
    draw.polygon(
        [
            (x, middle - 5),
            (x + 22, middle - 5),
            (x + 22, middle - 12),
            (x + 38, middle),
            (x + 22, middle + 12),
            (x + 22, middle + 5),
            (x, middle + 5),
        ],
        fill=GOLD,
    )
    x += 50
    badge = 150 if play.scopa else 0
    room = WIDTH - PAD - 16 - badge - x
    step = min(SMALL + 8, max(18, (room - SMALL) / max(1, len(play.captured) - 1)))
    for card in play.captured:
        face = card_image(card, scene.style, SMALL)
        image.paste(face, (round(x), top), face)
        x += step
    if play.scopa:
        box = (WIDTH - PAD - 16 - 134, middle - 24, WIDTH - PAD - 16, middle + 24)
        draw.rounded_rectangle(box, radius=24, fill=GOLD)
        write(
            draw,
            ((box[0] + box[2]) / 2, middle),
            t(lang, "pictures.escoba" if scene.variant == "escoba" else "pictures.scopa"),
            26,
            "#3a2718",
            "mm",
            bold=True,
        )
