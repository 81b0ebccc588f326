"""A tournament as a picture: a knockout bracket or Swiss standings, drawn to be read on a phone.

A chat shows a photo about 320 pixels wide, so both pictures are `WIDTH` (640) pixels wide and
no text is smaller than `SMALLEST` (22) pixels: 11 at 320.

The bracket is drawn a round under the other, not a column a round (32 players in columns are
six columns wide: names of 4 pixels on a phone). Each round's tables stand two abreast, the two
tables of a row feeding the table of the next round in the same place, the winner of each in
gold, a bye shown as such; rounds not seated yet are left out. Only the last `FULL_ROUNDS`
rounds are drawn table by table: an earlier one is a single line (its players are the winners
the next round shows), so 32 players stay a picture about twice as tall as wide. The champion
is crowned below. A round of one or two tables is drawn a table a row, as wide as the picture.

The standings give each player a row: rank, name, points, and their wins, losses, byes and
tie-break; past `ROOMY_LINES` players the row is a single line with wins and losses only."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from ..i18n import t, tn
from .felt import GOLD, LIGHT, MUTED, PANEL, felt, write
from .text import fit, printable

WIDTH = 640
PHONE = 320
"""How wide a chat shows a photo on a phone."""
PAD = 24
TITLE = 30
HEAD = 24
NAME = 24
SMALLEST = 22
"""The smallest text either picture has: 11 pixels high at `PHONE`."""
TOP = 96
LINE = 40
BOX_GAP = 14
COLUMN = (WIDTH - 2 * PAD - BOX_GAP) // 2
SCORE = 44
HEADING = 44
COMPACT = 38
CROWN = 96
FULL_ROUNDS = 2
WON = "#2d7a4c"

ROW = 64
SHORT_ROW = 46
ROOMY_LINES = 12
POINTS = 34


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
    """The rounds seated so far, each its tables in order (a table not played has no scores)."""
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
    figure: str = ""
    """What the line's big number says instead of its points (a duplicate event: the play's part)."""
    detail: str = ""
    """What its small line says instead of the record of wins, losses and byes."""
    short: str = ""
    """The same, where a row has room for one short word only."""


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
    """Rounds of the bracket."""
    return bracket_size(field).bit_length() - 1


@dataclass(frozen=True, slots=True)
class BracketPlan:
    """What the bracket picture shows: the rounds (their index in the scene) drawn table by table
    and those drawn as a line, the picture's size, and its smallest text."""

    full: tuple[int, ...]
    compact: tuple[int, ...]
    width: int
    height: int
    smallest: int = SMALLEST


WIDE_TABLES = 2
"""A round of this many tables or fewer (the semi-finals, the final) is drawn a table a row, the
width of the picture, so that its names are cut later."""


def _rows(tables: int) -> int:
    return tables if tables <= WIDE_TABLES else (tables + 1) // 2


def _title_size(text: str) -> int:
    """The largest size from `TITLE` down to `HEAD` at which the title fits, so that it is cut
    only when even that is too wide."""
    for size in range(TITLE, HEAD, -2):
        if fit(text, size, WIDTH - 2 * PAD, True) == printable(text):
            return size
    return HEAD


def bracket_plan(scene: BracketScene) -> BracketPlan:
    seated = len(scene.rounds)
    first_full = max(0, seated - FULL_ROUNDS)
    full = tuple(range(first_full, seated))
    compact = tuple(range(first_full))
    height = TOP + len(compact) * COMPACT
    height += sum(HEADING + _rows(len(scene.rounds[i])) * (2 * LINE + BOX_GAP) for i in full)
    height += (CROWN if scene.champion else 0) + PAD
    return BracketPlan(full, compact, WIDTH, height)


def bracket_layout(field: int, rounds: int = 1, champion: bool = False) -> tuple[int, int]:
    """Width and height of the bracket of `field` players once `rounds` rounds are seated (each
    round of a knockout halving the tables)."""
    tables = bracket_size(field) // 2
    seated = tuple(tuple(Table(Slot(None), Slot(None)) for _ in range(max(1, tables >> i)))
                   for i in range(rounds))
    plan = bracket_plan(BracketScene("", field, seated, "♛" if champion else None))
    return plan.width, plan.height


def _slot(draw: ImageDraw.ImageDraw, slot: Slot, left: float, top: float, width: float, lang: str) -> None:
    if slot.won:
        draw.rectangle((left, top, left + width, top + LINE), fill=WON)
    middle = top + LINE / 2
    if slot.name is None:
        write(draw, (left + 10, middle), t(lang, "pictures.tournament.bye"), SMALLEST, MUTED, "lm")
        return
    room = width - 20 - (SCORE if slot.score is not None else 0)
    color = GOLD if slot.won else (MUTED if slot.score is not None else LIGHT)
    write(draw, (left + 10, middle), fit(slot.name, NAME, room, True), NAME, color, "lm", bold=True)
    if slot.score is not None:
        write(draw, (left + width - 10, middle), str(slot.score), NAME, color, "rm", bold=True)


def _table(draw: ImageDraw.ImageDraw, table: Table, left: float, top: float, width: float,
           lang: str) -> None:
    draw.rounded_rectangle((left, top, left + width, top + 2 * LINE), radius=8, fill=PANEL)
    _slot(draw, table.top, left, top, width, lang)
    _slot(draw, table.bottom, left, top + LINE, width, lang)
    draw.line((left + 6, top + LINE, left + width - 6, top + LINE), fill=MUTED, width=1)


def _round_label(scene: BracketScene, index: int, lang: str) -> str:
    return t(lang, "pictures.tournament.swiss_round", number=index + 1, rounds=columns(scene.field))


def _played_and_byes(tables: tuple[Table, ...]) -> tuple[int, int]:
    """How many of a round's tables were matches, and how many byes (a table of one player)."""
    byes = sum(1 for table in tables if table.bottom.name is None)
    return len(tables) - byes, byes


def bracket_picture(scene: BracketScene, lang: str = "it") -> Image.Image:
    plan = bracket_plan(scene)
    image = felt(plan.width, plan.height)
    draw = ImageDraw.Draw(image)
    size = _title_size(scene.title)
    write(draw, (WIDTH / 2, 40), fit(scene.title, size, WIDTH - 2 * PAD, True), size, GOLD, "mm", bold=True)
    top = TOP - 20
    for index in plan.compact:
        played, byes = _played_and_byes(scene.rounds[index])
        line = t(lang, "pictures.tournament.compact" if not byes else "pictures.tournament.compact_byes",
                 round=_round_label(scene, index, lang), tables=tn(lang, "count.tournament_tables", played),
                 byes=tn(lang, "count.tournament_byes", byes))
        write(draw, (PAD + 6, top + COMPACT / 2), fit(line, SMALLEST, WIDTH - 2 * PAD - 12), SMALLEST,
              MUTED, "lm")
        top += COMPACT
    for index in plan.full:
        label = _round_label(scene, index, lang)
        write(draw, (PAD + 6, top + HEADING / 2), fit(label, HEAD, WIDTH - 2 * PAD - 12, True), HEAD,
              LIGHT, "lm", bold=True)
        top += HEADING
        tables = scene.rounds[index]
        wide = len(tables) <= WIDE_TABLES
        for number, table in enumerate(tables):
            row, side = (number, 0) if wide else divmod(number, 2)
            left = PAD + side * (COLUMN + BOX_GAP)
            width = WIDTH - 2 * PAD if wide else COLUMN
            _table(draw, table, left, top + row * (2 * LINE + BOX_GAP), width, lang)
        top += _rows(len(tables)) * (2 * LINE + BOX_GAP)
    if scene.champion:
        middle = top + CROWN / 2
        draw.rounded_rectangle((PAD, middle - 38, WIDTH - PAD, middle + 38), radius=12, fill=PANEL,
                               outline=GOLD, width=3)
        write(draw, (WIDTH / 2, middle - 16), t(lang, "pictures.tournament.champion"), SMALLEST, MUTED,
              "mm")
        name = fit(f"♛ {scene.champion}", TITLE, WIDTH - 2 * PAD - 24, True)
        write(draw, (WIDTH / 2, middle + 14), name, TITLE, GOLD, "mm", bold=True)
    return image


@dataclass(frozen=True, slots=True)
class StandingsPlan:
    """How the standings are drawn: each player's row high enough for two lines (`roomy`) or one."""

    roomy: bool
    row: int
    width: int
    height: int
    smallest: int = SMALLEST


def standings_plan(scene: StandingsScene) -> StandingsPlan:
    roomy = len(scene.lines) <= ROOMY_LINES
    row = ROW if roomy else SHORT_ROW
    height = TOP + max(1, len(scene.lines)) * row + PAD + (ROW if scene.champion else 0)
    return StandingsPlan(roomy, row, WIDTH, height)


def standings_picture(scene: StandingsScene, lang: str = "it") -> Image.Image:
    plan = standings_plan(scene)
    image = felt(plan.width, plan.height)
    draw = ImageDraw.Draw(image)
    size = _title_size(scene.title)
    write(draw, (WIDTH / 2, 36), fit(scene.title, size, WIDTH - 2 * PAD, True), size, GOLD, "mm", bold=True)
    sub = t(lang, "pictures.tournament.swiss_round", number=scene.round, rounds=scene.rounds)
    write(draw, (WIDTH / 2, 72), fit(sub, SMALLEST, WIDTH - 2 * PAD), SMALLEST, MUTED, "mm")
    top = TOP
    for line in scene.lines:
        _standing(draw, line, top, plan, lang)
        top += plan.row
    if scene.champion:
        text = fit(t(lang, "pictures.tournament.crowned", name=scene.champion), 26, WIDTH - 2 * PAD, True)
        write(draw, (WIDTH / 2, top + ROW / 2), text, 26, GOLD, "mm", bold=True)
    return image


def _standing(draw: ImageDraw.ImageDraw, line: StandingLine, top: float, plan: StandingsPlan,
              lang: str) -> None:
    middle = top + plan.row / 2
    draw.rounded_rectangle((PAD, top + 3, WIDTH - PAD, top + plan.row - 3), radius=10, fill=PANEL)
    write(draw, (PAD + 24, middle), str(line.rank), NAME, GOLD if line.rank == 1 else LIGHT, "mm",
          bold=True)
    left, points = PAD + 52, WIDTH - PAD - 14
    name_color = MUTED if line.out else LIGHT
    if plan.roomy:
        room = points - 70 - left
        write(draw, (left, middle - 12), fit(line.name, 26, room, True), 26, name_color, "lm", bold=True)
        record = line.detail or t(lang, "pictures.tournament.record", wins=line.wins, losses=line.losses,
                                  byes=tn(lang, "count.tournament_byes", line.byes), tiebreak=line.tiebreak)
        write(draw, (left, middle + 15), fit(record, SMALLEST, room), SMALLEST, MUTED, "lm")
        write(draw, (points, middle), line.figure or str(line.points), POINTS, GOLD, "rm", bold=True)
        return
    record = line.short or t(lang, "pictures.tournament.record_short", wins=line.wins, losses=line.losses)
    record_left = points - 56 - 90
    write(draw, (left, middle), fit(line.name, NAME, record_left - left - 10, True), NAME, name_color,
          "lm", bold=True)
    write(draw, (record_left, middle), fit(record, SMALLEST, 86), SMALLEST, MUTED, "lm")
    write(draw, (points, middle), line.figure or str(line.points), 28, GOLD, "rm", bold=True)
