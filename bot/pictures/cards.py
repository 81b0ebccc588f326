"""One card as a picture: drawn large with polygons, then scaled down for smooth edges.

Cards are drawn once per style, card and width, and kept (`card_image`).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from ..engine import Card, Suit
from .figures import draw_figure
from .pen import Pen
from .styles import PALETTES, Blades, Style
from .suits import draw_sign, index_color
from .text import builtin_font

CARD_W = 100.0
CARD_H = 160.0
RATIO = CARD_H / CARD_W
SUPERSAMPLE = 4
CORNER = 7.0

_FRENCH_LABELS = {1: "A", 8: "J", 9: "Q", 10: "K"}
_SPANISH_LABELS = {8: "10", 9: "11", 10: "12"}
"""The Spanish deck prints its sota, caballo and rey as 10, 11 and 12 (they count 8, 9, 10)."""
_PINTAS = {Suit.DENARI: 0, Suit.COPPE: 1, Suit.SPADE: 2, Suit.BASTONI: 3}
"""The breaks in a Spanish card's frame line that tell its suit from the edge of a fanned hand."""

_AREA = (21.0, 12.0, 79.0, 148.0)
"""Where the suit signs of a numbered card go: clear of the corner values."""

_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.2), (0.5, 0.8)),
    3: ((0.5, 0.14), (0.5, 0.5), (0.5, 0.86)),
    4: ((0.22, 0.2), (0.78, 0.2), (0.22, 0.8), (0.78, 0.8)),
    5: ((0.22, 0.16), (0.78, 0.16), (0.5, 0.5), (0.22, 0.84), (0.78, 0.84)),
    6: ((0.22, 0.14), (0.78, 0.14), (0.22, 0.5), (0.78, 0.5), (0.22, 0.86), (0.78, 0.86)),
    7: ((0.22, 0.12), (0.78, 0.12), (0.5, 0.31), (0.22, 0.5), (0.78, 0.5), (0.22, 0.88), (0.78, 0.88)),
}
_ITALIAN_COINS = {
    3: ((0.3, 0.16), (0.5, 0.5), (0.7, 0.84)),
    5: ((0.2, 0.14), (0.8, 0.14), (0.5, 0.5), (0.2, 0.86), (0.8, 0.86)),
    7: ((0.2, 0.11), (0.8, 0.11), (0.2, 0.37), (0.8, 0.37), (0.5, 0.62), (0.2, 0.89), (0.8, 0.89)),
}
_SIGN_SIZE = {1: 46.0, 2: 34.0, 3: 30.0, 4: 28.0, 5: 26.0, 6: 25.0, 7: 23.0}


def card_height(width: int) -> int:
    return round(width * RATIO)


WIDTHS = (26, 76, 92, 108, 112, 130, 150)
"""The widths the pictures use: one drawing of a card gives them all."""

_faces: dict[tuple[Card, Style], dict[int, Image.Image]] = {}


def card_image(card: Card, style: Style, width: int) -> Image.Image:
    """The face of `card` `width` pixels wide, with transparent rounded corners.

    A card is drawn SUPERSAMPLE times larger than the widest size it is needed at, halved
    with a box filter, and scaled down; the sizes in WIDTHS are all made from that one
    drawing and kept.
    """
    faces = _faces.setdefault((card, style), {})
    face = faces.get(width)
    if face is None:
        wanted = {width} if width in faces or width not in WIDTHS else set(WIDTHS) - faces.keys()
        master = max(max(wanted), WIDTHS[-1]) * SUPERSAMPLE
        big = _draw(card, style, master, round(master * RATIO)).reduce(SUPERSAMPLE // 2)
        for size in wanted:
            faces[size] = big.resize((size, card_height(size)), Image.Resampling.LANCZOS, reducing_gap=3.0)
        face = faces[width]
    return face


def _draw(card: Card, style: Style, width: int, height: int) -> Image.Image:
    big = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    pen = Pen(draw, width / CARD_W)
    p = PALETTES[style]
    draw.rounded_rectangle(
        (0, 0, big.width - 1, big.height - 1),
        radius=round(pen.scale * CORNER),
        fill=p.paper,
        outline="#3b342c",
        width=pen.px(1.1),
    )
    inset = 3.2
    draw.rounded_rectangle(
        (*pen.pt(inset, inset), *pen.pt(CARD_W - inset, CARD_H - inset)),
        radius=round(pen.scale * (CORNER - 2.5)),
        outline=p.frame,
        width=pen.px(0.9),
    )
    if style is Style.SPANISH:
        _pintas(draw, pen, card.suit, inset, p.paper)
    if card.rank >= 8:
        draw_figure(pen.at(19, 8), card.rank, card.suit, style)
    else:
        _signs(pen, card, style)
    _corner_index(big, pen, card, style)
    return big


def _pintas(draw: ImageDraw.ImageDraw, pen: Pen, suit: Suit, inset: float, paper: str) -> None:
    """Break the frame line at the top and the bottom once per pinta: none for oros, one for
    copas, two for espadas, three for bastos."""
    count = _PINTAS[suit]
    for i in range(count):
        x = CARD_W / 2 + (i - (count - 1) / 2) * 9.0
        for y in (inset, CARD_H - inset):
            draw.rectangle((*pen.pt(x - 2.2, y - 1.2), *pen.pt(x + 2.2, y + 1.2)), fill=paper)


def _signs(pen: Pen, card: Card, style: Style) -> None:
    p = PALETTES[style]
    n = card.rank
    long_suit = card.suit in (Suit.SPADE, Suit.BASTONI) and style is not Style.FRENCH
    if long_suit and (p.blades is not Blades.APART or n == 1):
        _crossed(pen, card, style)
        return
    x0, y0, x1, y1 = _AREA
    layout = _ITALIAN_COINS.get(n) if card.suit is Suit.DENARI and style is not Style.FRENCH else None
    size = _SIGN_SIZE[n]
    if long_suit:
        size = {2: 58.0, 3: 44.0, 4: 56.0, 5: 40.0, 6: 40.0, 7: 34.0}[n]
        layout = _APART.get(n)
    for fx, fy in layout or _LAYOUTS[n]:
        x, y = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
        flip = style is Style.FRENCH and fy > 0.55 and n > 1
        draw_sign(pen.at(x, y, size, 180 if flip else 0), card.suit, style)
    if n == 1 and card.suit is Suit.DENARI:
        pen.circle(50, 80, 30, None, p.frame, 1.0)


_APART = {
    2: ((0.3, 0.5), (0.7, 0.5)),
    3: ((0.2, 0.5), (0.5, 0.5), (0.8, 0.5)),
    4: ((0.3, 0.24), (0.7, 0.24), (0.3, 0.76), (0.7, 0.76)),
    5: ((0.22, 0.2), (0.78, 0.2), (0.5, 0.5), (0.22, 0.8), (0.78, 0.8)),
    6: ((0.18, 0.2), (0.5, 0.2), (0.82, 0.2), (0.18, 0.8), (0.5, 0.8), (0.82, 0.8)),
    7: ((0.18, 0.17), (0.5, 0.17), (0.82, 0.17), (0.5, 0.5), (0.18, 0.83), (0.5, 0.83), (0.82, 0.83)),
}


def _crossed(pen: Pen, card: Card, style: Style) -> None:
    """Swords or batons laid across each other: one long sign for the ace, pairs crossing
    in X's stacked down the card, the odd one standing upright through the middle."""
    p = PALETTES[style]
    n = card.rank
    lattice = p.blades is Blades.LATTICE
    if n == 1:
        draw_sign(pen.at(50, 80, 134, 0), card.suit, style, 0.25 if lattice else 0.0, 1.8 if lattice else 1.0)
        return
    pairs, odd = divmod(n, 2)
    top, bottom = 14.0, 146.0
    row = (bottom - top) / pairs
    length = min(124.0, row * 1.22)
    angle = 22.0 if pairs == 1 else 40.0
    bend = (0.35 if pairs == 1 else 0.22) if lattice else 0.0
    slim = 0.7 if pairs == 1 else 0.62
    if odd:
        draw_sign(pen.at(50, 80, 132, 0), card.suit, style, 0.0, 0.62 if pairs > 1 else 0.85)
    for i in range(pairs):
        y = top + row * (i + 0.5)
        draw_sign(pen.at(50, y, length, angle), card.suit, style, -bend, slim)
        draw_sign(pen.at(50, y, length, -angle), card.suit, style, bend, slim)


def rank_label(card: Card, style: Style) -> str:
    if style is Style.FRENCH:
        return _FRENCH_LABELS.get(card.rank, str(card.rank))
    if style is Style.SPANISH:
        return _SPANISH_LABELS.get(card.rank, str(card.rank))
    return str(card.rank)


def _corner_index(big: Image.Image, pen: Pen, card: Card, style: Style) -> None:
    """The value and a small suit sign, top left and (turned round) bottom right."""
    w, h = round(pen.scale * 19), round(pen.scale * 39)
    tile = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    tp = Pen(draw, pen.scale)
    label = rank_label(card, style)
    size = round(pen.scale * (19 if len(label) == 1 else 15))
    face = builtin_font(size)
    color = index_color(card.suit, style)
    draw.text(
        tp.pt(9.5, 13),
        label,
        font=face,
        fill=color,
        anchor="mm",
        stroke_width=max(1, round(pen.scale * 0.5)),
        stroke_fill=color,
    )
    small = 11.0 if card.suit not in (Suit.SPADE, Suit.BASTONI) or style is Style.FRENCH else 14.0
    draw_sign(tp.at(9.5, 30.5, small, 0), card.suit, style, 0.0, 1.6)
    ox, oy = pen.pt(1.8, 3.2)
    big.alpha_composite(tile, (round(ox), round(oy)))
    turned = tile.rotate(180)
    big.alpha_composite(turned, (big.width - w - round(ox), big.height - h - round(oy)))
