"""The court cards: the fante (a page), the cavallo (a rider on his horse), the re (a
crowned king), and the queen that French-suited decks have instead of the cavallo.

Figures are drawn in a panel 64 units wide and 144 tall (the card is 100 by 160).
"""

from __future__ import annotations

from ..engine import Suit
from .pen import Pen, ellipse_points, mirrored
from .styles import PALETTES, Palette, Style
from .suits import draw_sign

PANEL_W = 64.0
PANEL_H = 144.0
_LINE = 1.1


def _clothes(p: Palette, suit: Suit) -> tuple[str, str]:
    """Main and second colour of a figure's clothes: each suit dresses its figures differently."""
    return {
        Suit.DENARI: (p.red, p.gold),
        Suit.COPPE: (p.blue, p.red),
        Suit.SPADE: (p.green, p.blue),
        Suit.BASTONI: (p.gold, p.green),
    }[suit]


def draw_figure(pen: Pen, rank: int, suit: Suit, style: Style) -> None:
    p = PALETTES[style]
    if p.framed:
        pen.rect(0, 0, PANEL_W, PANEL_H, _tint(p), p.frame, 1.2)
    if rank == 8:
        _page(pen, suit, style, p)
    elif rank == 9 and style is Style.FRENCH:
        _queen(pen, suit, style, p)
    elif rank == 9:
        _rider(pen, suit, style, p)
    else:
        _king(pen, suit, style, p)


def _tint(p: Palette) -> str:
    return {"#2d7a4a": "#eef5e6", "#b7282e": "#fbeee0", "#20242c": "#f3f1ea"}.get(p.frame, "#f6f0e2")


def _face(pen: Pen, x: float, y: float, r: float, p: Palette) -> None:
    pen.circle(x, y, r, p.skin, p.ink, _LINE)
    pen.circle(x - r * 0.38, y - r * 0.1, r * 0.11, p.ink)
    pen.circle(x + r * 0.38, y - r * 0.1, r * 0.11, p.ink)
    pen.line([(x - r * 0.3, y + r * 0.45), (x + r * 0.3, y + r * 0.45)], p.red, r * 0.14)


def _crown(pen: Pen, x: float, y: float, w: float, h: float, p: Palette) -> None:
    half = w / 2
    points = [
        (x - half, y),
        (x - half, y - h),
        (x - half / 2, y - h * 0.5),
        (x, y - h * 1.1),
        (x + half / 2, y - h * 0.5),
        (x + half, y - h),
        (x + half, y),
    ]
    pen.poly(points, p.gold, p.ink, _LINE)
    pen.circle(x, y - h * 0.35, h * 0.18, p.red)
    for dx in (-half, 0.0, half):
        pen.circle(x + dx, y - h * (1.1 if dx == 0 else 1.0), h * 0.16, p.gold, p.ink, 0.6)


def _page(pen: Pen, suit: Suit, style: Style, p: Palette) -> None:
    main, second = _clothes(p, suit)
    cx = 30.0
    for x in (cx - 6, cx + 2):
        pen.rect(x, 104, x + 5, 136, second, p.ink, _LINE)
        pen.ellipse(x + 2.5, 138, 5, 3, p.ink)
    pen.poly([(cx - 12, 54), (cx + 12, 54), (cx + 18, 108), (cx - 18, 108)], main, p.ink, _LINE)
    pen.line([(cx - 15, 84), (cx + 15, 84)], p.gold, 3)
    pen.poly(
        [(cx - 12, 56), (cx - 18, 60), (cx - 22, 94), (cx - 16, 95), (cx - 12, 68)], second, p.ink, _LINE
    )
    pen.circle(cx - 19, 97, 3.5, p.skin, p.ink, 0.8)
    pen.poly(
        [(cx + 12, 56), (cx + 18, 58), (cx + 26, 46), (cx + 21, 42), (cx + 12, 52)], second, p.ink, _LINE
    )
    pen.circle(cx + 25, 42, 3.5, p.skin, p.ink, 0.8)
    pen.poly([(cx - 8, 54), (cx, 62), (cx + 8, 54)], "#f7f1e1", p.ink, 0.8)
    pen.poly([(cx + x, y) for x, y in mirrored([(9, 32), (10, 46), (6, 50)])], "#6b3d1e", p.ink, 0.8)
    _face(pen, cx, 40, 9, p)
    pen.ellipse(cx + 1, 30, 13, 4.5, second, p.ink, _LINE)
    pen.poly([(cx + 6, 28), (cx + 22, 14), (cx + 12, 28)], p.red if second != p.red else p.blue, p.ink, 0.8)
    draw_sign(pen.at(cx + 24, 24, 22), suit, style, 0.0)


def _king(pen: Pen, suit: Suit, style: Style, p: Palette) -> None:
    main, second = _clothes(p, suit)
    cx = 30.0
    pen.poly([(cx - 14, 54), (cx + 14, 54), (cx + 24, 140), (cx - 24, 140)], main, p.ink, _LINE)
    pen.poly([(cx - 4, 56), (cx + 4, 56), (cx + 7, 140), (cx - 7, 140)], "#fbfaf4", p.ink, _LINE)
    for y in range(66, 138, 12):
        pen.circle(cx, y, 1.2, p.ink)
    pen.poly([(cx - 16, 54), (cx + 16, 54), (cx + 18, 66), (cx - 18, 66)], "#fbfaf4", p.ink, _LINE)
    for x in (-10, 0, 10):
        pen.circle(cx + x, 60, 1.2, p.ink)
    pen.poly([(cx - 14, 66), (cx - 22, 70), (cx - 12, 100), (cx - 6, 96)], second, p.ink, _LINE)
    pen.poly([(cx + 14, 66), (cx + 22, 70), (cx + 24, 88), (cx + 18, 90)], second, p.ink, _LINE)
    pen.circle(cx - 8, 100, 3.5, p.skin, p.ink, 0.8)
    pen.circle(cx + 22, 91, 3.5, p.skin, p.ink, 0.8)
    pen.line([(cx - 8, 100), (cx - 16, 62)], p.gold, 2.4)
    pen.circle(cx - 16, 60, 3, p.gold, p.ink, 0.8)
    _face(pen, cx, 40, 9, p)
    pen.poly(
        [(cx - 8, 43), (cx + 8, 43), (cx + 6, 52), (cx, 56), (cx - 6, 52)],
        "#8a8a8a" if suit in (Suit.SPADE, Suit.BASTONI) else "#7a4a24",
        p.ink,
        0.8,
    )
    pen.line([(cx - 3, 47), (cx + 3, 47)], p.red, 1.2)
    _crown(pen, cx, 32, 20, 11, p)
    draw_sign(
        pen.at(
            cx + 24,
            110 if suit in (Suit.SPADE, Suit.BASTONI) else 104,
            30 if suit in (Suit.SPADE, Suit.BASTONI) else 18,
        ),
        suit,
        style,
        0.0,
    )


def _queen(pen: Pen, suit: Suit, style: Style, p: Palette) -> None:
    main, second = _clothes(p, suit)
    cx = 30.0
    pen.poly([(cx - 11, 56), (cx + 11, 56), (cx + 28, 140), (cx - 28, 140)], main, p.ink, _LINE)
    pen.poly([(cx - 11, 56), (cx + 11, 56), (cx + 6, 84), (cx - 6, 84)], second, p.ink, _LINE)
    for y in (100, 116, 130):
        pen.line([(cx - 8 - (y - 84) * 0.3, y), (cx + 8 + (y - 84) * 0.3, y)], p.gold, 1.6)
    pen.poly([(cx - 11, 58), (cx - 18, 62), (cx - 10, 88), (cx - 4, 84)], second, p.ink, _LINE)
    pen.circle(cx - 5, 86, 3.2, p.skin, p.ink, 0.8)
    pen.line([(cx - 5, 86), (cx - 2, 72)], p.green, 1.4)
    for a in (0, 120, 240):
        pen.at(cx - 2, 70, 1, a).ellipse(0, -2.2, 1.6, 2.4, p.red, p.ink, 0.4)
    pen.poly(
        [
            (cx - 11, 40),
            *ellipse_points(cx, 40, 11, 10, 10, 180, 360),
            (cx + 11, 40),
            (cx + 14, 60),
            (cx + 6, 56),
            (cx - 6, 56),
            (cx - 14, 60),
        ],
        "#c8902f",
        p.ink,
        0.8,
    )
    _face(pen, cx, 42, 8.5, p)
    _crown(pen, cx, 31, 15, 8, p)
    draw_sign(pen.at(cx + 22, 104, 18), suit, style, 0.0)


def _rider(pen: Pen, suit: Suit, style: Style, p: Palette) -> None:
    main, second = _clothes(p, suit)
    coat = {Suit.DENARI: "#f4efe6", Suit.COPPE: "#8a5a34", Suit.SPADE: "#e8e2d6", Suit.BASTONI: "#5a3a24"}[
        suit
    ]
    mane = "#3a2618" if coat in ("#f4efe6", "#e8e2d6") else "#1f150e"
    pen.poly([(9, 100), (3, 112), (1, 128), (5, 130), (9, 116), (13, 104)], mane, p.ink, 0.8)
    for top, knee, hoof in (
        ((15, 110), (12, 126), (13, 140)),
        ((22, 112), (25, 126), (24, 140)),
        ((42, 112), (44, 126), (43, 140)),
        ((49, 110), (56, 122), (52, 132)),
    ):
        pen.line([top, knee, hoof], p.ink, 7.4)
        pen.line([top, knee, hoof], coat, 5.2)
        pen.poly(
            [
                (hoof[0] - 3.4, hoof[1]),
                (hoof[0] + 3.4, hoof[1]),
                (hoof[0] + 3.8, hoof[1] + 3),
                (hoof[0] - 3.8, hoof[1] + 3),
            ],
            p.ink,
        )
    pen.ellipse(31, 104, 24, 12.5, coat, p.ink, _LINE)
    pen.poly([(42, 98), (48, 80), (54, 70), (60, 68), (62, 74), (56, 86), (54, 104)], coat, p.ink, _LINE)
    pen.poly([(54, 70), (60, 66), (66, 78), (67, 84), (62, 86), (58, 80)], coat, p.ink, _LINE)
    pen.poly([(55, 69), (56, 61), (59, 67)], coat, p.ink, 0.8)
    pen.line([(46, 96), (50, 82), (55, 71), (57, 66)], mane, 3.2)
    pen.circle(60, 73.5, 1.2, p.ink)
    pen.circle(65, 82.5, 0.8, p.ink)
    pen.line([(64, 84), (40, 82)], p.ink, 0.8)
    pen.poly([(20, 98), (44, 98), (42, 112), (22, 112)], second, p.ink, 0.9)
    pen.poly([(25, 68), (39, 68), (42, 96), (22, 96)], main, p.ink, _LINE)
    pen.poly([(28, 94), (36, 94), (36, 112), (38, 122), (32, 122), (28, 112)], second, p.ink, _LINE)
    pen.poly([(25, 70), (18, 64), (12, 52), (16, 50), (22, 60), (28, 66)], main, p.ink, _LINE)
    pen.circle(14, 50, 3.2, p.skin, p.ink, 0.8)
    pen.line([(39, 76), (46, 86), (44, 88)], main, 4)
    _face(pen, 32, 59, 7.5, p)
    pen.poly([(24, 54), (40, 54), (36, 46), (28, 46)], second, p.ink, 0.9)
    pen.ellipse(32, 54, 10, 2.4, second, p.ink, 0.8)
    draw_sign(pen.at(12, 33, 24 if suit in (Suit.DENARI, Suit.COPPE) else 34), suit, style, 0.0)
