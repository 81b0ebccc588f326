"""The suit signs of each deck: coins, cups, swords and batons, or the four French suits.

A sign is drawn by a `Pen` whose origin is the sign's centre; a sign is one unit tall.
Swords and batons are long and thin so that a deck can lay them apart or cross them.
"""

from __future__ import annotations

import math

from ..engine import Suit
from .pen import Pen, Point, ellipse_points, mirrored
from .styles import PALETTES, Blades, Style

OUTLINE = 0.025


def draw_sign(pen: Pen, suit: Suit, style: Style, curve: float = 0.0, slim: float = 1.0) -> None:
    """The sign of `suit`; `curve` bends a sword or baton (negative bends it the other way),
    `slim` below 1 makes it thinner."""
    if style is Style.FRENCH:
        _FRENCH[suit](pen)
    elif suit is Suit.DENARI:
        _coin(pen, style)
    elif suit is Suit.COPPE:
        _cup(pen, style)
    elif suit is Suit.SPADE:
        _sword(pen, style, curve, slim)
    else:
        _baton(pen, style, curve, slim)


# ---- coins -----------------------------------------------------------------


def _coin(pen: Pen, style: Style) -> None:
    p = PALETTES[style]
    ink = p.ink
    if style is Style.SICILIANE:
        rays: list[Point] = []
        for i in range(24):
            angle = math.radians(i * 15)
            r = 0.5 if i % 2 == 0 else 0.38
            rays.append((r * math.cos(angle), r * math.sin(angle)))
        pen.poly(rays, p.red, ink, OUTLINE)
        pen.circle(0, 0, 0.36, p.gold, ink, OUTLINE)
        pen.circle(0, 0, 0.22, "#f7dc7a", p.red, OUTLINE)
        pen.circle(-0.07, -0.04, 0.03, ink)
        pen.circle(0.07, -0.04, 0.03, ink)
        pen.line(ellipse_points(0, 0.02, 0.09, 0.08, 8, 30, 150), ink, 0.025)
        return
    pen.circle(0, 0, 0.48, p.gold, ink, OUTLINE)
    if style is Style.PIACENTINE:
        pen.circle(0, 0, 0.48, None, p.red, 0.07)
        pen.circle(0, 0, 0.3, "#f7d65a", ink, OUTLINE)
        star = [
            (
                0.26 * math.cos(math.radians(i * 22.5 - 90)) * (1 if i % 2 == 0 else 0.45),
                0.26 * math.sin(math.radians(i * 22.5 - 90)) * (1 if i % 2 == 0 else 0.45),
            )
            for i in range(16)
        ]
        pen.poly(star, p.red, ink, 0.015)
        pen.circle(0, 0, 0.06, p.gold, ink, 0.015)
    elif style is Style.TREVISANE:
        pen.circle(0, 0, 0.4, p.red, ink, OUTLINE)
        pen.circle(0, 0, 0.32, p.gold, ink, OUTLINE)
        pen.circle(0, 0, 0.2, p.blue, ink, OUTLINE)
        _flower(pen, 4, 0.16, 0.07, "#f5e6b8", ink)
    elif style is Style.SPANISH:
        for i in range(16):
            angle = math.radians(i * 22.5)
            pen.line([(0.38 * math.cos(angle), 0.38 * math.sin(angle)),
                      (0.46 * math.cos(angle), 0.46 * math.sin(angle))], ink, 0.02)
        pen.circle(0, 0, 0.34, "#fbe07a", ink, OUTLINE)
        _flower(pen, 4, 0.26, 0.09, p.red, ink)
        pen.circle(0, 0, 0.07, p.blue, ink, 0.015)
    elif style is Style.BERGAMASCHE:
        pen.circle(0, 0, 0.38, p.green, ink, OUTLINE)
        pen.circle(0, 0, 0.3, p.gold, ink, OUTLINE)
        _flower(pen, 6, 0.18, 0.07, p.red, ink)
        pen.circle(0, 0, 0.06, p.green, ink, 0.015)
    else:
        pen.circle(0, 0, 0.36, None, p.red, 0.035)
        _flower(pen, 8, 0.2, 0.07, p.red, ink)
        pen.circle(0, 0, 0.08, p.green, ink, 0.015)


def _flower(pen: Pen, petals: int, reach: float, size: float, fill: str, ink: str) -> None:
    for i in range(petals):
        angle = 360 * i / petals
        pen.at(0, 0, 1, angle).ellipse(0, -reach * 0.6, size * 0.6, reach * 0.5, fill, ink, 0.012)


# ---- cups ------------------------------------------------------------------


def _cup(pen: Pen, style: Style) -> None:
    p = PALETTES[style]
    ink = p.ink
    if style is Style.SPANISH:
        _goblet(pen, style)
        return
    body, band, foot = {
        Style.NAPOLETANE: (p.red, p.gold, p.gold),
        Style.PIACENTINE: (p.gold, p.red, p.blue),
        Style.SICILIANE: (p.green, p.gold, p.red),
        Style.TREVISANE: (p.blue, p.red, p.gold),
        Style.BERGAMASCHE: (p.red, p.green, p.gold),
    }[style]
    if style is Style.SICILIANE:
        pen.line(ellipse_points(-0.26, -0.2, 0.1, 0.14, 10, 90, 270), ink, 0.06)
        pen.line(ellipse_points(0.26, -0.2, 0.1, 0.14, 10, -90, 90), ink, 0.06)
        pen.line(ellipse_points(-0.26, -0.2, 0.1, 0.14, 10, 90, 270), p.gold, 0.03)
        pen.line(ellipse_points(0.26, -0.2, 0.1, 0.14, 10, -90, 90), p.gold, 0.03)
    bowl = mirrored([(0.3, -0.44), (0.3, -0.3), (0.26, -0.14), (0.16, -0.02), (0.06, 0.04)])
    if style is Style.PIACENTINE:
        bowl = mirrored([(0.22, -0.46), (0.25, -0.3), (0.2, -0.12), (0.1, -0.01), (0.05, 0.04)])
    pen.poly(bowl, body, ink, OUTLINE)
    top = bowl[0][1]
    pen.ellipse(0, top, abs(bowl[0][0]), 0.05, band, ink, OUTLINE)
    pen.poly(
        mirrored([(0.28, -0.3), (0.27, -0.22), (0.245, -0.2), (0.26, -0.28)])
        if style is not Style.PIACENTINE
        else mirrored([(0.245, -0.3), (0.23, -0.22), (0.21, -0.2), (0.235, -0.28)]),
        band,
        ink,
        0.012,
    )
    pen.rect(-0.04, 0.03, 0.04, 0.3, foot, ink, OUTLINE)
    pen.ellipse(0, 0.13, 0.09, 0.05, band, ink, OUTLINE)
    pen.poly(mirrored([(0.05, 0.28), (0.14, 0.38), (0.24, 0.44), (0.24, 0.48)]), foot, ink, OUTLINE)


def _goblet(pen: Pen, style: Style) -> None:
    """The Spanish copa: a golden goblet, a round bowl on a knotted stem and a wide foot."""
    p = PALETTES[style]
    ink = p.ink
    bowl = mirrored([(0.3, -0.46), (0.3, -0.36), (0.27, -0.2), (0.18, -0.07), (0.07, -0.01)])
    pen.poly(bowl, p.gold, ink, OUTLINE)
    pen.ellipse(0, -0.46, 0.3, 0.05, p.red, ink, OUTLINE)
    pen.line([(-0.29, -0.33), (0.29, -0.33)], p.red, 0.05)
    pen.line([(-0.22, -0.15), (0.22, -0.15)], p.blue, 0.035)
    pen.rect(-0.045, -0.02, 0.045, 0.3, p.gold, ink, OUTLINE)
    pen.ellipse(0, 0.1, 0.1, 0.06, p.red, ink, OUTLINE)
    pen.ellipse(0, 0.24, 0.07, 0.035, p.gold, ink, OUTLINE)
    pen.poly(mirrored([(0.05, 0.28), (0.16, 0.38), (0.27, 0.44), (0.27, 0.48)]), p.gold, ink, OUTLINE)
    pen.line([(-0.2, 0.44), (0.2, 0.44)], p.red, 0.03)


# ---- swords ----------------------------------------------------------------


def _sword(pen: Pen, style: Style, curve: float, slim: float) -> None:
    """Tip at the top (y = -0.5), pommel at the bottom."""
    p = PALETTES[style]
    ink = p.ink
    lattice = PALETTES[style].blades is Blades.LATTICE
    hilt_y = 0.26
    steps = 14
    left: list[Point] = []
    right: list[Point] = []
    for i in range(steps + 1):
        t = i / steps
        y = hilt_y - t * (hilt_y + 0.5)
        x = curve * (t * t - t * 0.2)
        half = ((0.055 if lattice else 0.045) * (1 - t**4) + 0.004) * slim
        if lattice:
            half *= 1 + 0.35 * t * (1 - t) * 4
        left.append((x - half, y))
        right.append((x + half, y))
    pen.poly([*left, *reversed(right)], p.blue, ink, OUTLINE)
    pen.line(
        [((a[0] + b[0]) / 2, a[1]) for a, b in zip(left[:-2], right[:-2], strict=True)], "#cfe0f5", 0.012
    )
    guard = 0.17 if style is not Style.PIACENTINE else 0.15
    pen.poly(
        [(-guard, hilt_y - 0.03), (guard, hilt_y - 0.03), (guard, hilt_y + 0.02), (-guard, hilt_y + 0.02)],
        p.gold,
        ink,
        OUTLINE,
    )
    if style in (Style.PIACENTINE, Style.NAPOLETANE, Style.SICILIANE, Style.SPANISH):
        pen.line(ellipse_points(guard, hilt_y - 0.07, 0.04, 0.05, 8, 90, 330), ink, 0.045)
        pen.line(ellipse_points(-guard, hilt_y - 0.07, 0.04, 0.05, 8, -150, 90), ink, 0.045)
        pen.line(ellipse_points(guard, hilt_y - 0.07, 0.04, 0.05, 8, 90, 330), p.gold, 0.02)
        pen.line(ellipse_points(-guard, hilt_y - 0.07, 0.04, 0.05, 8, -150, 90), p.gold, 0.02)
    pen.rect(-0.035, hilt_y + 0.02, 0.035, 0.44, p.red, ink, OUTLINE)
    for y in (0.09, 0.14):
        pen.line([(-0.035, hilt_y + y), (0.035, hilt_y + y)], ink, 0.012)
    pen.circle(0, 0.47, 0.045, p.gold, ink, OUTLINE)


# ---- batons ----------------------------------------------------------------


def _baton(pen: Pen, style: Style, curve: float, slim: float) -> None:
    """The thick end at the top."""
    p = PALETTES[style]
    ink = p.ink
    if p.blades is Blades.LATTICE:
        _thin_baton(pen, style, curve, slim)
        return
    trunk, stub = {
        Style.NAPOLETANE: (p.green, p.gold),
        Style.PIACENTINE: (p.brown, p.green),
        Style.SPANISH: (p.brown, p.red),
    }.get(style, (p.green, p.red))
    steps = 12
    left: list[Point] = []
    right: list[Point] = []
    for i in range(steps + 1):
        t = i / steps
        y = -0.44 + t * 0.92
        x = curve * 0.3 * math.sin(math.pi * t)
        half = (0.13 - 0.085 * t) * slim
        left.append((x - half, y))
        right.append((x + half, y))
    cap = ellipse_points(0, -0.44, 0.13 * slim, 0.06, 12, 180, 360)
    pen.poly([*reversed(left), *cap, *right], trunk, ink, OUTLINE)
    for i, t in enumerate((0.12, 0.32, 0.52, 0.72)):
        k = round(t * steps)
        side = left[k] if i % 2 == 0 else right[k]
        dx = (-0.06 if i % 2 == 0 else 0.06) * slim
        pen.poly(
            [
                (side[0], side[1] - 0.035),
                (side[0] + dx, side[1] - 0.05),
                (side[0] + dx * 1.1, side[1]),
                (side[0], side[1] + 0.02),
            ],
            stub,
            ink,
            0.015,
        )
    pen.ellipse(0, -0.44, 0.1 * slim, 0.04, stub, ink, 0.015)
    if style in (Style.NAPOLETANE, Style.SPANISH):
        for y in (-0.1, 0.2):
            k = round((y + 0.44) / 0.92 * steps)
            pen.line([left[k], right[k]], p.gold if style is Style.SPANISH else p.red, 0.035)


def _thin_baton(pen: Pen, style: Style, curve: float, slim: float) -> None:
    """Already thin: `slim` only ever makes it thicker (the ace)."""
    slim = max(slim, 1.0)
    p = PALETTES[style]
    ink = p.ink
    colors = (p.red, p.gold, p.blue) if style is Style.TREVISANE else (p.green, p.gold, p.red)
    steps = 16
    centre = [(curve * 0.5 * math.sin(math.pi * i / steps), -0.5 + i / steps) for i in range(steps + 1)]
    pen.line(centre, ink, 0.085 * slim)
    for i in range(steps):
        pen.line([centre[i], centre[i + 1]], colors[(i // 3) % 3], 0.05 * slim)
    for i in range(3, steps, 3):
        pen.ellipse(centre[i][0], centre[i][1], 0.05 * slim, 0.018 * slim, p.gold, ink, 0.01)
    pen.circle(centre[0][0], centre[0][1], 0.04 * slim, p.gold, ink, 0.012)
    pen.circle(centre[-1][0], centre[-1][1], 0.04 * slim, p.gold, ink, 0.012)


# ---- French suits ----------------------------------------------------------

_FRENCH_RED = PALETTES[Style.FRENCH].red
_FRENCH_BLACK = "#15171c"


def _heart_points() -> list[Point]:
    right = [(0.0, -0.28)]
    right += ellipse_points(0.23, -0.22, 0.24, 0.25, 14, 200, 360)[1:]
    right += [(0.45, -0.12), (0.36, 0.1), (0.0, 0.46)]
    return mirrored(right)


def _diamond(pen: Pen) -> None:
    pen.poly([(0, -0.5), (0.36, 0), (0, 0.5), (-0.36, 0)], _FRENCH_RED)


def _heart(pen: Pen) -> None:
    pen.poly(_heart_points(), _FRENCH_RED)


def _spade(pen: Pen) -> None:
    pen.poly([(x, -y - 0.1) for x, y in _heart_points()], _FRENCH_BLACK)
    pen.poly([(0, 0.1), (0.16, 0.48), (-0.16, 0.48)], _FRENCH_BLACK)


def _club(pen: Pen) -> None:
    for x, y in ((0, -0.25), (-0.24, 0.06), (0.24, 0.06)):
        pen.circle(x, y, 0.21, _FRENCH_BLACK)
    pen.poly([(0, -0.1), (0.07, 0.1), (0.17, 0.48), (-0.17, 0.48), (-0.07, 0.1)], _FRENCH_BLACK)


_FRENCH = {Suit.DENARI: _diamond, Suit.COPPE: _heart, Suit.SPADE: _spade, Suit.BASTONI: _club}


def index_color(suit: Suit, style: Style) -> str:
    """The colour of a card's corner value."""
    if style is Style.FRENCH:
        return _FRENCH_RED if suit in (Suit.DENARI, Suit.COPPE) else _FRENCH_BLACK
    return PALETTES[style].index
