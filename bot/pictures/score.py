"""The end of a round as a picture: every category, the counts behind each point, the
points of the round and of the match."""

from __future__ import annotations

from PIL import Image, ImageDraw

from ..engine import Card, SideTally
from ..i18n import subject_count, t
from .cards import card_height, card_image
from .felt import GOLD, LIGHT, MUTED, PANEL, felt, write
from .scenes import RoundScene
from .text import fit, printable

WIDTH = 720
PAD = 34
LABEL_W = 230
ROW = 46
MINI = 26

MARKER_CARDS = {"settebello": Card.parse("7D"), "re_bello": Card.parse("10D"), "asso_bello": Card.parse("1D")}


def _count(category: str, tally: SideTally, scene: RoundScene) -> str:
    """What the point was counted from, e.g. the cards taken or the primiera's value."""
    if category == "cards":
        return str(tally.cards)
    if category == "coins":
        return str(tally.coins)
    if category == "scope":
        return str(tally.scope)
    if category == "sevens" or (category == "primiera" and scene.by_sevens):
        return str(tally.sevens)
    if category == "primiera":
        return "—" if tally.primiera is None else str(tally.primiera)
    return ""


def round_picture(scene: RoundScene, lang: str = "it") -> Image.Image:
    result = scene.result
    sides = len(result.scores)
    categories = result.categories or tuple(result.scores[0].points)
    rows = len(categories)
    top = 130
    notes = [t(lang, "pictures.fuori", name=printable(scene.fuori_name))] if scene.fuori_name else []
    if scene.winner:
        notes.append(t(lang, "pictures.winner", side=printable(scene.winner),
                       count=subject_count(scene.winner)))
    height = top + (rows + 2) * ROW + 40 + 46 * len(notes)
    image = felt(WIDTH, height)
    draw = ImageDraw.Draw(image)
    write(draw, (PAD, 42), t(lang, "pictures.round_end", round=result.number), 30, GOLD, "lm", bold=True)
    write(draw, (WIDTH - PAD, 42), t(lang, "pictures.target", target=scene.target), 22, MUTED, "rm")
    col_w = (WIDTH - 2 * PAD - LABEL_W) / sides
    for i, name in enumerate(scene.side_names):
        write(
            draw,
            (PAD + LABEL_W + col_w * (i + 0.5), 100),
            fit(name, 22, int(col_w) - 12, True),
            22,
            LIGHT,
            "mm",
            bold=True,
        )
    y = top
    for r, category in enumerate(categories):
        if r % 2 == 0:
            draw.rounded_rectangle((PAD, y, WIDTH - PAD, y + ROW), radius=8, fill=PANEL)
        label = t(
            lang,
            "pictures.sevens_primiera"
            if category == "primiera" and scene.by_sevens
            else f"pictures.category.{category}",
        )
        write(draw, (PAD + 14, y + ROW / 2), label, 22, LIGHT, "lm")
        for i, score in enumerate(result.scores):
            x0 = PAD + LABEL_W + col_w * i
            points = score.points.get(category, 0)
            count = _count(category, score.tally, scene)
            marker = MARKER_CARDS.get(category)
            if marker is not None and points:
                face = card_image(marker, scene.style, MINI)
                image.paste(
                    face, (round(x0 + col_w / 2 - 40), round(y + (ROW - card_height(MINI)) / 2)), face
                )
            elif count:
                write(draw, (x0 + col_w / 2 - 22, y + ROW / 2), count, 22, MUTED, "rm")
            write(
                draw,
                (x0 + col_w / 2 + 30, y + ROW / 2),
                str(points),
                26,
                GOLD if points else "#6f9a7c",
                "rm",
                bold=bool(points),
            )
        y += ROW
    draw.line((PAD, y + 6, WIDTH - PAD, y + 6), fill=MUTED, width=2)
    y += 14
    for key, values in (
        ("pictures.round_total", [s.total for s in result.scores]),
        ("pictures.match_total", list(result.totals)),
    ):
        write(draw, (PAD + 14, y + ROW / 2), t(lang, key), 24, LIGHT, "lm", bold=True)
        for i, value in enumerate(values):
            x0 = PAD + LABEL_W + col_w * i
            write(draw, (x0 + col_w / 2 + 30, y + ROW / 2), str(value), 28, GOLD, "rm", bold=True)
        y += ROW
    for note in notes:
        write(draw, (WIDTH / 2, y + 30), fit(note, 26, WIDTH - 2 * PAD, True), 26, GOLD, "mm", bold=True)
        y += 46
    return image
