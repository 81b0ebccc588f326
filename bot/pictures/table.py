"""The table as a picture: the cards on it, each side's score, the last play, whose turn."""

from __future__ import annotations

from PIL import Image, ImageDraw

from ..i18n import subject_count, t, tn
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
NOTE = 30
"""The line above the last play that says it was played for someone whose time ran out."""


def table_picture(scene: TableScene, lang: str = "it") -> Image.Image:
    rows = max(1, -(-len(scene.table) // PER_ROW))
    card_h = card_height(CARD)
    table_top = 156
    table_h = rows * card_h + (rows - 1) * GAP
    play_top = table_top + table_h + 26
    note = NOTE if scene.last_play is not None and scene.last_play.timed_out else 0
    footer_top = play_top + (card_height(SMALL) + 22 + note if scene.last_play else 0)
    height = footer_top + 62
    image = felt(WIDTH, height)
    draw = ImageDraw.Draw(image)
    header(draw, scene, lang, WIDTH, PAD, 40)
    sides(draw, scene, lang, WIDTH, PAD, 64, 72)
    table_cards(image, draw, scene, table_top, lang, WIDTH, CARD, PER_ROW, GAP)
    if scene.last_play is not None:
        _last_play(image, draw, scene, scene.last_play, play_top, lang)
    if scene.winner is not None:
        footer = t(lang, "pictures.winner", side=printable(scene.winner), count=subject_count(scene.winner))
    elif scene.to_play is not None:
        footer = t(lang, "pictures.turn", name=printable(scene.to_play))
    else:
        footer = ""
    write(
        draw, (WIDTH / 2, footer_top + 18), fit(footer, 26, WIDTH - 2 * PAD, True), 26, GOLD, "mm", bold=True
    )
    return image


def header(draw: ImageDraw.ImageDraw, scene: TableScene, lang: str, width: int, pad: int, y: int) -> None:
    """The game, the round, the target and the cards left in the stock."""
    parts = [
        t(lang, f"variant.{scene.variant}"),
        t(lang, "pictures.round", round=scene.round_number),
        t(lang, "pictures.target", target=scene.target),
    ]
    if scene.round_limit:
        parts.append(tn(lang, "pictures.round_limit", scene.round_limit))
    stock = t(lang, "pictures.stock", count=scene.stock)
    room = width - 2 * pad - int(font(22).getlength(stock)) - 16
    write(draw, (pad, y), fit(" · ".join(parts), 24, room, True), 24, LIGHT, "lm", bold=True)
    write(draw, (width - pad, y), stock, 22, MUTED, "rm")


def sides(
    draw: ImageDraw.ImageDraw, scene: TableScene, lang: str, width: int, pad: int, top: int, height: int
) -> None:
    """A box per side, its points large; the side whose turn it is framed in gold."""
    count = len(scene.sides)
    if not count:
        return
    gap = 14
    box_w = (width - 2 * pad - gap * (count - 1)) / count
    for index, side in enumerate(scene.sides):
        x0 = pad + index * (box_w + gap)
        box = (x0, top, x0 + box_w, top + height)
        turn = scene.turn_side == index
        draw.rounded_rectangle(
            box, radius=12, fill=PANEL, outline=GOLD if turn else "#2c7a4b", width=3 if turn else 1
        )
        total = str(side.total)
        write(draw, (box[2] - 14, top + height / 2), total, 40, GOLD, "rm", bold=True)
        room = int(box_w - 28 - font(40, True).getlength(total) - 10)
        name_y, detail_y = top + height * 0.31, top + height * 0.72
        write(draw, (x0 + 14, name_y), fit(side.name, 22, max(40, room), True), 22, LIGHT, "lm", bold=True)
        detail = 17 if count <= 2 else 15
        write(
            draw,
            (x0 + 14, detail_y),
            fit(_side_detail(side, lang), detail, max(40, room)),
            detail,
            MUTED,
            "lm",
        )


def _side_detail(side: SideLine, lang: str) -> str:
    parts = [t(lang, "pictures.scope", count=side.scope)]
    if side.taken is not None:
        parts.append(t(lang, "pictures.taken", count=side.taken))
    return " · ".join(parts)


def table_cards(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    scene: TableScene,
    top: int,
    lang: str,
    width: int,
    card: int,
    per_row: int,
    gap: int,
) -> None:
    """The cards on the table in rows of `per_row`, a card just laid ringed in gold."""
    card_h = card_height(card)
    if not scene.table:
        write(draw, (width / 2, top + card_h / 2), t(lang, "pictures.empty_table"), 24, MUTED, "mm")
        return
    laid = scene.last_play.card if scene.last_play and not scene.last_play.captured else None
    for row_start in range(0, len(scene.table), per_row):
        row = scene.table[row_start : row_start + per_row]
        x = (width - (len(row) * card + (len(row) - 1) * gap)) / 2
        y = top + (row_start // per_row) * (card_h + gap)
        for shown in row:
            if shown is laid:
                ring = glow(card, card_h)
                image.paste(ring, (round(x) - 6, y - 6), ring)
            face = card_image(shown, scene.style, card)
            image.paste(face, (round(x), y), face)
            x += card + gap


def timed_out_note(play: LastPlay, lang: str) -> str:
    return t(lang, "pictures.timed_out", name=printable(play.name))


def arrow(draw: ImageDraw.ImageDraw, x: float, middle: float) -> None:
    """The arrow from the card played to what it took, 38 pixels long."""
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


def scopa_badge(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], scene: TableScene, lang: str, size: int
) -> None:
    draw.rounded_rectangle(box, radius=(box[3] - box[1]) / 2, fill=GOLD)
    write(
        draw,
        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
        t(lang, "pictures.escoba" if scene.variant == "escoba" else "pictures.scopa"),
        size,
        "#3a2718",
        "mm",
        bold=True,
    )


def _last_play(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene, play: LastPlay, top: int, lang: str
) -> None:
    small_h = card_height(SMALL)
    note = NOTE if play.timed_out else 0
    draw.rounded_rectangle((PAD, top - 10, WIDTH - PAD, top + note + small_h + 10), radius=12, fill=PANEL)
    if play.timed_out:
        write(
            draw,
            (PAD + 16, top + 10),
            fit(timed_out_note(play, lang), 18, WIDTH - 2 * PAD - 32),
            18,
            MUTED,
            "lm",
        )
        top += note
    name = printable(play.name) + ":"
    middle = top + small_h / 2
    write(draw, (PAD + 16, middle), fit(name, 22, 200, True), 22, LIGHT, "lm", bold=True)
    x = PAD + 16 + min(200, font(22, True).getlength(fit(name, 22, 200, True))) + 16
    if play.leftover:
        took = t(lang, "pictures.leftover")
        write(draw, (x + 4, middle), took, 22, MUTED, "lm")
        x += font(22).getlength(took) + 20
    elif play.card is not None:
        face = card_image(play.card, scene.style, SMALL)
        ring = glow(SMALL, small_h, GOLD, 5)
        image.paste(ring, (round(x) - 5, top - 5), ring)
        image.paste(face, (round(x), top), face)
        x += SMALL + 14
    if not play.captured:
        write(draw, (x + 4, middle), t(lang, "pictures.laid"), 22, MUTED, "lm")
        return
    arrow(draw, x, middle)
    x += 50
    badge = 150 if play.scopa else 0
    room = WIDTH - PAD - 16 - badge - x
    step = min(SMALL + 8, max(18, (room - SMALL) / max(1, len(play.captured) - 1)))
    for card in play.captured:
        face = card_image(card, scene.style, SMALL)
        image.paste(face, (round(x), top), face)
        x += step
    if play.scopa:
        scopa_badge(
            draw, (WIDTH - PAD - 16 - 134, middle - 24, WIDTH - PAD - 16, middle + 24), scene, lang, 26
        )
