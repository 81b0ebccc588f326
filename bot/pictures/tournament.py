"""A tournament as a picture: a knockout bracket (a column a round, the winner of each table in
gold, a bye shown as such, the champion crowned on the right) or Swiss standings (rank, name,
points, wins and losses, byes and the Buchholz tie-break, with the round).

The bracket's first column holds every table of a field filled up to a power of two, so 2 to 32
players fit; rounds not played yet are empty boxes. Columns are wide enough for 16 characters of
a name at 22 pixels; longer names are cut with an ellipsis, never by the frame."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from ..i18n import t
from .felt import GOLD, LIGHT, MUTED, PANEL, felt, write
from .text import fit

PAD = 24
TOP = 96
COLUMN = 230
GAP = 36
LINE = 30
BOX_GAP = 14
NAME = 20
WIDTH = 760
ROW = 54
DONE = "#6e8f78"


@dataclass(frozen=True, slots=True)
class Slot:
    """One side of a table: `name` None for a bye, `score` once played."""

    name: str | None
    score: int | None = None
    won: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    top: Slot
    bottom: Slot


@dataclass(frozen=True, slots=True)
class BracketScene:
    title: str
    field: int
    """Players signed up; the bracket is the next power of two."""
    rounds: tuple[tuple[Table, ...], ...]
    champion: str | None = None


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int
    name: str
    points: int
    wins: int
    losses: int
    byes: int
    tiebreak: int
    out: bool = False


@dataclass(frozen=True, slots=True)
class StandingsScene:
    title: str
    round: int
    rounds: int
    lines: tuple[StandingLine, ...]
    champion: str | None = None


def bracket_size(field: int) -> int:
    size = 2
    while size < field:
        size *= 2
    return size


def columns(field: int) -> int:
    """Rounds of the bracket, the champion's column not counted."""
    return bracket_size(field).bit_length() - 1


def bracket_layout(field: int) -> tuple[int, int]:
    """Width and height of the bracket picture for `field` players."""
    first = bracket_size(field) // 2
    width = 2 * PAD + (columns(field) + 1) * COLUMN + columns(field) * GAP
    height = TOP + first * (2 * LINE + BOX_GAP) + PAD
    return width, height


def _box_top(column: int, index: int) -> float:
    """Each later round's table centred between the two it follows."""
    span = (2 * LINE + BOX_GAP) * (1 << column)
    return TOP + index * span + (span - 2 * LINE - BOX_GAP) / 2


def _slot(draw: ImageDraw.ImageDraw, slot: Slot | None, left: float, top: float, lang: str) -> None:
    fill = "#2d7a4c" if slot is not None and slot.won else PANEL
    draw.rectangle((left, top, left + COLUMN, top + LINE), fill=fill)
    if slot is None:
        return
    if slot.name is None:
        write(draw, (left + 8, top + LINE / 2), t(lang, "pictures.tournament.bye"), NAME - 2, MUTED, "lm")
        return
    room = COLUMN - 16 - (34 if slot.score is not None else 0)
    color = GOLD if slot.won else (DONE if slot.score is not None else LIGHT)
    write(draw, (left + 8, top + LINE / 2), fit(slot.name, NAME, room, slot.won), NAME, color, "lm",
          bold=slot.won)
    if slot.score is not None:
        write(draw, (left + COLUMN - 8, top + LINE / 2), str(slot.score), NAME, color, "rm", bold=True)


def bracket_picture(scene: BracketScene, lang: str = "it") -> Image.Image:
    width, height = bracket_layout(scene.field)
    image = felt(width, height)
    draw = ImageDraw.Draw(image)
    write(draw, (width / 2, 36), fit(scene.title, 30, width - 2 * PAD, True), 30, GOLD, "mm", bold=True)
    count = columns(scene.field)
    for column in range(count):
        left = PAD + column * (COLUMN + GAP)
        label = t(lang, "pictures.tournament.round", number=column + 1)
        write(draw, (left + COLUMN / 2, TOP - 18), fit(label, 18, COLUMN), 18, MUTED, "mm")
        played = scene.rounds[column] if column < len(scene.rounds) else ()
        for index in range(bracket_size(scene.field) >> (column + 1)):
            top = _box_top(column, index)
            table = played[index] if index < len(played) else None
            _slot(draw, table.top if table else None, left, top, lang)
            _slot(draw, table.bottom if table else None, left, top + LINE, lang)
            draw.line((left, top + LINE, left + COLUMN, top + LINE), fill=MUTED, width=1)
            if column + 1 <= count:
                middle = top + LINE
                draw.line((left + COLUMN, middle, left + COLUMN + GAP / 2, middle), fill=MUTED, width=2)
                if index % 2 == 0 and column + 1 < count:
                    below = _box_top(column, index + 1) + LINE
                    draw.line((left + COLUMN + GAP / 2, middle, left + COLUMN + GAP / 2, below),
                              fill=MUTED, width=2)
                    into = _box_top(column + 1, index // 2) + LINE
                    draw.line((left + COLUMN + GAP / 2, into, left + COLUMN + GAP, into), fill=MUTED, width=2)
    left = PAD + count * (COLUMN + GAP)
    middle = _box_top(count - 1, 0) + LINE
    write(draw, (left + COLUMN / 2, TOP - 18), t(lang, "pictures.tournament.champion"), 18, MUTED, "mm")
    draw.rounded_rectangle((left, middle - LINE, left + COLUMN, middle + LINE), radius=10,
                           fill=PANEL, outline=GOLD if scene.champion else MUTED, width=3)
    if scene.champion:
        write(draw, (left + COLUMN / 2, middle - 12), "♛", 22, GOLD, "mm", bold=True)
        write(draw, (left + COLUMN / 2, middle + 14), fit(scene.champion, NAME + 2, COLUMN - 16, True),
              NAME + 2, GOLD, "mm", bold=True)
    return image


def standings_picture(scene: StandingsScene, lang: str = "it") -> Image.Image:
    height = TOP + max(1, len(scene.lines)) * ROW + PAD + (ROW if scene.champion else 0)
    image = felt(WIDTH, height)
    draw = ImageDraw.Draw(image)
    write(draw, (WIDTH / 2, 36), fit(scene.title, 30, WIDTH - 2 * PAD, True), 30, GOLD, "mm", bold=True)
    sub = t(lang, "pictures.tournament.swiss_round", number=scene.round, rounds=scene.rounds)
    write(draw, (WIDTH / 2, 70), fit(sub, 20, WIDTH - 2 * PAD), 20, MUTED, "mm")
    top = TOP
    for line in scene.lines:
        middle = top + ROW / 2
        draw.rounded_rectangle((PAD, top + 4, WIDTH - PAD, top + ROW - 4), radius=10, fill=PANEL)
        rank = GOLD if line.rank == 1 else LIGHT
        write(draw, (PAD + 26, middle), str(line.rank), 24, rank, "mm", bold=True)
        left, right = PAD + 56, WIDTH - PAD - 110
        write(draw, (left, middle - 10), fit(line.name, 24, right - left - 8, True), 24,
              MUTED if line.out else LIGHT, "lm", bold=True)
        record = t(lang, "pictures.tournament.record", wins=line.wins, losses=line.losses,
                   byes=line.byes, tiebreak=line.tiebreak)
        write(draw, (left, middle + 14), fit(record, 18, right - left - 8), 18, MUTED, "lm")
        write(draw, (WIDTH - PAD - 16, middle), str(line.points), 32, GOLD, "rm", bold=True)
        top += ROW
    if scene.champion:
        text = t(lang, "pictures.tournament.crowned", name=scene.champion)
        text = fit(text, 26, WIDTH - 2 * PAD, True)
        write(draw, (WIDTH / 2, top + ROW / 2), text, 26, GOLD, "mm", bold=True)
    return image
