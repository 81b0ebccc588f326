"""A monthly season's standings as a picture: the month and whose season it is, then a row a
player, a medal for the first three, the name with the wins over the matches counted and the
streak bonus, and the points large on the right; the asker's own row below the others when it
is further down.

640 pixels wide, so that at 320 (a photo in a chat) the names are 13 pixels high and the
points 16: written large for that."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from babel.dates import format_date, format_skeleton
from PIL import Image, ImageDraw

from ..i18n import t
from .felt import GOLD, LIGHT, MUTED, PANEL, felt, write
from .text import fit

WIDTH = 640
PAD = 28
TOP = 116
ROW = 58
NAME = 26
POINTS = 34
MEDALS = ("#f2c447", "#d3d7dc", "#cd8a4a")
"""Gold, silver and bronze."""


@dataclass(frozen=True, slots=True)
class SeasonLine:
    rank: int
    name: str
    points: int
    wins: int
    matches: int
    bonus: int


@dataclass(frozen=True, slots=True)
class SeasonScene:
    """What the picture shows of a season's standings (`render.season.season_scene`), its names as
    players read them: plain and hashable, so an unchanged board is drawn once."""

    month: date
    everyone: bool
    chat: str | None
    running: bool
    ends: float
    lines: tuple[SeasonLine, ...]
    asker: SeasonLine | None = None


def _height(scene: SeasonScene) -> int:
    rows = max(1, len(scene.lines)) + (1 if scene.asker is not None else 0)
    return TOP + rows * ROW + (22 if scene.asker is not None else 0) + PAD


def season_picture(scene: SeasonScene, lang: str = "it") -> Image.Image:
    image = felt(WIDTH, _height(scene))
    draw = ImageDraw.Draw(image)
    month = format_date(scene.month, "LLLL y", locale=lang)
    title = fit(t(lang, "pictures.season.title", month=month), 32, WIDTH - 2 * PAD, True)
    write(draw, (WIDTH / 2, 40), title, 32, GOLD, "mm", bold=True)
    write(draw, (WIDTH / 2, 74), fit(_subtitle(scene, lang), 22, WIDTH - 2 * PAD), 22, MUTED, "mm")
    if scene.lines:
        write(draw, (WIDTH - PAD - 16, TOP - 6), t(lang, "pictures.season.points"), 16, MUTED, "rb")
    if not scene.lines:
        write(draw, (WIDTH / 2, TOP + ROW / 2), t(lang, "pictures.season.empty"), 24, LIGHT, "mm")
    top = TOP
    for line in scene.lines:
        _row(draw, line, top, lang)
        top += ROW
    if scene.asker is not None:
        write(draw, (WIDTH / 2, top + 6), "· · ·", 20, MUTED, "mm")
        _row(draw, scene.asker, top + 22, lang)
    return image


def _subtitle(scene: SeasonScene, lang: str) -> str:
    if scene.everyone:
        scope = t(lang, "pictures.season.scope.global")
    else:
        scope = scene.chat or t(lang, "pictures.season.scope.here")
    if scene.running:
        day = format_skeleton("dMMMM", datetime.fromtimestamp(scene.ends, UTC).date(), locale=lang)
        when = t(lang, "pictures.season.ends", day=day)
    else:
        when = t(lang, "pictures.season.final")
    return f"{scope} · {when}"


def _row(draw: ImageDraw.ImageDraw, line: SeasonLine, top: float, lang: str) -> None:
    middle = top + ROW / 2
    draw.rounded_rectangle((PAD, top + 4, WIDTH - PAD, top + ROW - 4), radius=12, fill=PANEL)
    centre = PAD + 30
    if line.rank <= len(MEDALS):
        draw.ellipse((centre - 19, middle - 19, centre + 19, middle + 19), fill=MEDALS[line.rank - 1])
        write(draw, (centre, middle), str(line.rank), 22, "#2a2a2a", "mm", bold=True)
    else:
        write(draw, (centre, middle), str(line.rank), 22, LIGHT, "mm", bold=True)
    left = PAD + 62
    points_left = WIDTH - PAD - 130
    room = points_left - left - 8
    write(draw, (left, middle - 10), fit(line.name, NAME, room, True), NAME, LIGHT, "lm", bold=True)
    record = t(lang, "pictures.season.record", wins=line.wins, matches=line.matches)
    if line.bonus:
        record += " · " + t(lang, "pictures.season.streak", bonus=line.bonus)
    write(draw, (left, middle + 15), fit(record, 20, room), 20, MUTED, "lm")
    write(draw, (WIDTH - PAD - 16, middle), str(line.points), POINTS, GOLD, "rm", bold=True)
